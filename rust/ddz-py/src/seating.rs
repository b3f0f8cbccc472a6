//! Who plays each seat of a batch (`VecEnv(seats=..., opponents=...)`,
//! `ddz.evaluate` with a batch policy): arguments in, the core's
//! `Seating` out; and the loop that asks external players (Python
//! callables) for all their envs at once.

use crate::convert::value_error;
use crate::vecenv::fresh_column;
use ddz_core::policy::Policy;
use ddz_core::simulate::Opening;
use ddz_core::vecenv::arrays::Dims;
use ddz_core::vecenv::players::{Player, Seating};
use ddz_core::vecenv::VecEnv;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

/// The seats a caller's players take, and the callables behind `External(k)`.
pub(crate) struct Players {
    pub seating: Seating,
    pub externals: Vec<Py<PyAny>>,
}

/// The opening a `protocol` word names (`ddz.evaluate`'s words).
pub(crate) fn opening_of(protocol: &str) -> PyResult<Opening> {
    match protocol {
        "full" => Ok(Opening::Auction),
        "douzero" => Ok(Opening::SeatZeroLandlord),
        other => Err(value_error(format!(
            "protocol must be 'full' or 'douzero', not {other:?}"
        ))),
    }
}

fn policy_names() -> String {
    Policy::NAMES.to_string()
}

/// A `ddz.agents.SearchAgent` as the built-in search at its level and
/// budget (one thread a decision: the batch runs its envs side by side),
/// read from its `batch_budget()`; None for any other object.
fn search_agent(spec: &Bound<'_, PyAny>) -> PyResult<Option<Policy>> {
    if !spec.hasattr("batch_budget")? {
        return Ok(None);
    }
    let (playouts, budget_us, level): (Option<u32>, Option<u32>, u8) =
        spec.call_method0("batch_budget")?.extract()?;
    let budget = crate::search::level_budget(Some(level), playouts, budget_us, Some(1))?;
    Ok(Some(Policy::Search(budget)))
}

impl Players {
    fn new(players: usize, opening: Opening) -> Players {
        Players {
            seating: Seating {
                players: vec![Player::Learner; players],
                opening,
            },
            externals: Vec::new(),
        }
    }

    /// Seat `seat` played by `spec`: a built-in policy's name or a callable
    /// (the same object for several seats is one external player).
    fn seat(&mut self, seat: usize, spec: &Bound<'_, PyAny>, what: &str) -> PyResult<()> {
        let player = if let Ok(name) = spec.cast::<PyString>() {
            let name = name.to_str()?;
            let policy = Policy::from_name(name).ok_or_else(|| {
                value_error(format!(
                    "unknown policy {name:?} for {what}; the policies are: {}",
                    policy_names()
                ))
            })?;
            Player::Policy(policy)
        } else if let Some(policy) = search_agent(spec)? {
            Player::Policy(policy)
        } else if spec.hasattr("act")? {
            return Err(PyTypeError::new_err(format!(
                "{what} is an agent (act(observation, legal)), which plays through ddz.Game: \
                 a batch takes a policy name ({}), a SearchAgent or a callable \
                 fn(obs) -> legal indices",
                policy_names()
            )));
        } else if spec.is_callable() {
            let k = match self
                .externals
                .iter()
                .position(|f| f.bind(spec.py()).is(spec))
            {
                Some(k) => k,
                None => {
                    self.externals.push(spec.clone().unbind());
                    self.externals.len() - 1
                }
            };
            let k = u8::try_from(k).map_err(|_| value_error("at most 255 callables"))?;
            Player::External(k)
        } else {
            return Err(PyTypeError::new_err(format!(
                "{what} must be a policy name ({}) or a callable fn(obs) -> legal indices, not {}",
                policy_names(),
                spec.repr()?
            )));
        };
        self.seating.players[seat] = player;
        Ok(())
    }
}

/// `VecEnv`'s `seats` (the learner's: None for all, an int or a list) and
/// `opponents` (one spec for every other seat, or a list of one per
/// other seat in seat order; None: "random").
pub(crate) fn learner_seating(
    players: usize,
    seats: Option<&Bound<'_, PyAny>>,
    opponents: Option<&Bound<'_, PyAny>>,
    opening: Opening,
) -> PyResult<Players> {
    let mut out = Players::new(players, opening);
    let Some(seats) = seats.filter(|s| !s.is_none()) else {
        if opponents.is_some_and(|o| !o.is_none()) {
            return Err(value_error(
                "opponents play the seats the learner does not: name the learner's with seats=",
            ));
        }
        return Ok(out);
    };
    let learner: Vec<i64> = match seats.extract::<i64>() {
        Ok(s) if !seats.is_instance_of::<pyo3::types::PyBool>() => vec![s],
        _ => seats.extract::<Vec<i64>>().map_err(|_| {
            PyTypeError::new_err(format!(
                "seats must be a seat number or a list of them, not {}",
                seats.repr().map(|r| r.to_string()).unwrap_or_default()
            ))
        })?,
    };
    if learner.is_empty() {
        return Err(value_error("seats must name at least one seat"));
    }
    let mut mine = vec![false; players];
    for &s in &learner {
        let seat = usize::try_from(s)
            .ok()
            .filter(|&s| s < players)
            .ok_or_else(|| {
                value_error(format!(
                    "seats: {s} is not a seat of this rule set (0..{})",
                    players - 1
                ))
            })?;
        if mine[seat] {
            return Err(value_error(format!("seats names seat {seat} twice")));
        }
        mine[seat] = true;
    }
    let others: Vec<usize> = (0..players).filter(|&s| !mine[s]).collect();
    let py = seats.py();
    let random = PyString::new(py, "random").into_any();
    let specs: Vec<Bound<'_, PyAny>> = match opponents.filter(|o| !o.is_none()) {
        None => vec![random; others.len()],
        Some(o)
            if o.is_instance_of::<pyo3::types::PyList>()
                || o.is_instance_of::<pyo3::types::PyTuple>() =>
        {
            let list: Vec<Bound<'_, PyAny>> = o.extract()?;
            if list.len() != others.len() {
                return Err(value_error(format!(
                    "opponents lists {} players; the learner leaves {} seats ({others:?})",
                    list.len(),
                    others.len()
                )));
            }
            list
        }
        Some(o) => vec![o.clone(); others.len()],
    };
    for (&seat, spec) in others.iter().zip(&specs) {
        out.seat(seat, spec, &format!("the opponent at seat {seat}"))?;
    }
    Ok(out)
}

/// One player per seat (`ddz.evaluate`'s seating): names or callables.
pub(crate) fn every_seat(
    players: usize,
    specs: &Bound<'_, PyAny>,
    opening: Opening,
) -> PyResult<Players> {
    let list: Vec<Bound<'_, PyAny>> = specs.extract()?;
    if list.len() != players {
        return Err(value_error(format!(
            "this rule set has {players} seats, so it needs {players} players, not {}",
            list.len()
        )));
    }
    let mut out = Players::new(players, opening);
    for (seat, spec) in list.iter().enumerate() {
        out.seat(seat, spec, &format!("the player at seat {seat}"))?;
    }
    Ok(out)
}

/// Ask the external players until no env waits for one: each callable
/// gets the observations of all its waiting envs at once (`side_obs`)
/// and returns one legal index per env. A callable that raises or
/// answers wrongly stops the step there (the batch is then mid-step:
/// `reset()` starts it afresh).
pub(crate) fn answer_externals(
    py: Python<'_>,
    env: &mut VecEnv,
    externals: &[Py<PyAny>],
) -> PyResult<()> {
    while env.any_external() {
        for (k, f) in externals.iter().enumerate() {
            let envs = env.waiting(k as u8);
            if envs.is_empty() {
                continue;
            }
            env.write_side(&envs).map_err(value_error)?;
            let obs = side_obs(py, env)?;
            let answer = f.bind(py).call1((obs,))?;
            let picks = answers(&answer, envs.len(), f.bind(py))?;
            py.detach(|| env.answer(k as u8, &envs, &picks))
                .map_err(|e| {
                    value_error(format!(
                        "opponent {}: {e}",
                        f.bind(py).repr().map(|r| r.to_string()).unwrap_or_default()
                    ))
                })?;
        }
        py.check_signals()?;
    }
    Ok(())
}

/// A callable's answer: one integer per env it was asked for.
fn answers(answer: &Bound<'_, PyAny>, n: usize, f: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    let np = answer.py().import("numpy")?;
    let arr = np.call_method1("asarray", (answer,))?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
    if !(kind == "i" || kind == "u") || shape != [n] {
        return Err(value_error(format!(
            "opponent {} must return {n} legal indices (integers, shape ({n},)), got dtype {} shape {:?}",
            f.repr()?,
            arr.getattr("dtype")?,
            shape
        )));
    }
    let wide = arr.call_method1("astype", ("int64",))?;
    let wide = wide.cast::<PyArray1<i64>>()?;
    Ok(wide.readonly().as_array().to_vec())
}

/// The side buffers as a dict of fresh arrays: the asked envs' rows of
/// every observation key, their legal actions (and ids, and mask) and
/// `env`, which env each row is.
fn side_obs<'py>(py: Python<'py>, env: &VecEnv) -> PyResult<Bound<'py, PyDict>> {
    let (envs, obs, legal, mask) = env.side();
    let k = envs.len();
    let d = Dims {
        envs: k,
        ..env.dims()
    };
    let out = PyDict::new(py);
    for (name, c, shape) in obs.columns(&d) {
        let width: usize = shape[1..].iter().product();
        out.set_item(name, fresh_column(py, c, k * width, &shape)?)?;
    }
    let m = legal.kind.len();
    out.set_item("legal_offsets", PyArray1::from_slice(py, &legal.offsets))?;
    let rows = |v: &[u8]| PyArray1::from_slice(py, v).reshape([m, 16]);
    out.set_item("legal_cards", rows(&legal.cards)?)?;
    out.set_item("legal_represents", rows(&legal.represents)?)?;
    out.set_item("legal_kind", PyArray1::from_slice(py, &legal.kind))?;
    out.set_item("legal_rank", PyArray1::from_slice(py, &legal.rank))?;
    out.set_item("legal_length", PyArray1::from_slice(py, &legal.length))?;
    if env.options().ids.is_some() {
        out.set_item("legal_ids", PyArray1::from_slice(py, &legal.ids))?;
    }
    if env.options().mask {
        let width = mask.len() / k.max(1);
        out.set_item(
            "action_mask",
            PyArray1::from_slice(py, mask).reshape([k, width])?,
        )?;
    }
    let ids: Vec<i64> = envs.iter().map(|&i| i as i64).collect();
    out.set_item("env", PyArray1::from_vec(py, ids))?;
    Ok(out)
}
