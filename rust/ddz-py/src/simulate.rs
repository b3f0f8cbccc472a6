//! `simulate`: whole deals in Rust, results as numpy arrays.

use crate::batch::{in_blocks_of, int_arg, memory_error, threads_from, FIRST_BLOCK};
use crate::convert::value_error;
use crate::types::PyRules;
use ddz_core::simulate::{Columns, Opening, Outcome, Policy, Seats, Series};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// Play `games` deals; returns a dict of numpy arrays, with
/// `hidden_landlord` and `revealed` for the presets with a partner and the
/// landlord lists for the 3 v 3 presets (and, with `record`,
/// the deals and actions of the first `record` games). The result arrays
/// are allocated up front (or refused with MemoryError); the deals run in
/// blocks with the GIL released, and Ctrl-C stops the run between blocks.
#[pyfunction]
#[pyo3(signature = (rules, games, seed = None, threads = None, policy = None, record = None, first = None, opening = "auction"))]
#[allow(clippy::too_many_arguments)]
pub fn simulate<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyRules>,
    games: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    policy: Option<&Bound<'py, PyAny>>,
    record: Option<&Bound<'py, PyAny>>,
    first: Option<&Bound<'py, PyAny>>,
    opening: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let seats = seats_from(policy)?;
    let opening = match opening {
        "auction" => Opening::Auction,
        "seat0" => Opening::SeatZeroLandlord,
        other => {
            return Err(value_error(format!(
                "unknown opening {other:?}; the openings are: auction, seat0"
            )))
        }
    };
    let count = |ob, name| int_arg(ob, name, 0, u64::MAX).map(Option::unwrap_or_default);
    let games = count(Some(games), "games")?;
    let seed = count(seed, "seed")?;
    let record = count(record, "record")?.min(games);
    let first = count(first, "first")?;
    let threads = threads_from(threads)?;
    if games > 0 && first.checked_add(games - 1).is_none() {
        return Err(value_error(format!(
            "first + games must be at most 2**64 (deal numbers are 64-bit), \
             got first={first} and games={games}"
        )));
    }
    let engine = rules.get().engine();
    let n = engine.rules().players as usize;
    if let Seats::Each(list) = &seats {
        if list.len() != n {
            return Err(value_error(format!(
                "policy lists one policy per seat: this rule set has {n} seats, \
                 the list names {}",
                list.len()
            )));
        }
    }
    let series =
        Series::seated(engine, seed, seats, opening).map_err(crate::errors::rules_error)?;
    let mut columns = Columns::new(games, engine.rules()).map_err(memory_error)?;
    let mut recorded: Vec<Outcome> = Vec::new();
    // A searched deal takes tens of milliseconds to seconds: blocks of one
    // or two deals a thread keep every thread busy and Ctrl-C within reach.
    let (first_block, least) = match series.searches() {
        true => (2 * threads, threads),
        false => (FIRST_BLOCK, 1),
    };
    in_blocks_of(py, games as usize, first_block, least, |r| {
        let keep = (record as usize).saturating_sub(r.start);
        let block = series.play(first + r.start as u64, r.len(), threads, keep);
        for (j, o) in block.into_iter().enumerate() {
            columns.push(&o);
            if j < keep {
                recorded.push(o);
            }
        }
    })?;
    results(py, columns, games as usize, n, &recorded)
}

/// The result columns as the dict `ddz.simulate` returns.
fn results<'py>(
    py: Python<'py>,
    c: Columns,
    rows: usize,
    n: usize,
    recorded: &[Outcome],
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("landlord_won", PyArray1::from_vec(py, c.landlord_won))?;
    out.set_item("turns", PyArray1::from_vec(py, c.turns))?;
    out.set_item("bombs", PyArray1::from_vec(py, c.bombs))?;
    out.set_item("multiplier", PyArray1::from_vec(py, c.multiplier))?;
    out.set_item(
        "scores",
        PyArray1::from_vec(py, c.scores).reshape([rows, n])?,
    )?;
    // The role columns every rule set reports alike (`Columns::layout`):
    // seats as int64 (-1: none), flags as bool, `[rows]` or `[rows, width]`.
    for ((column, _), values) in c.layout.iter().zip(c.reports) {
        let array = match column.flags {
            true => PyArray1::from_vec(py, values.iter().map(|&v| v != 0).collect()).into_any(),
            false => PyArray1::from_vec(py, values).into_any(),
        };
        let array = match column.width {
            1 => array,
            w => array.call_method1("reshape", ((rows, w),))?,
        };
        out.set_item(column.key, array)?;
    }
    // Each as `Game.to_json` writes it (the engine's `table::Record`).
    let texts = recorded.iter().filter_map(|o| o.record.as_deref());
    let records = PyList::new(py, texts)?;
    out.set_item("records", records)?;
    Ok(out)
}

/// Deals `first .. first + deals` of series `seed`, one env each, played
/// by one player per seat (`players`: policy names, or callables
/// `fn(obs) -> legal indices` asked for all their envs at once, as
/// `VecEnv`'s opponents are); returns the dict `simulate` returns (no
/// records). `ddz.evaluate` plays batch policies with it.
#[pyfunction]
#[pyo3(signature = (rules, deals, players, seed = 0, first = 0, protocol = "full", threads = None))]
#[allow(clippy::too_many_arguments)]
pub fn play_seated<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyRules>,
    deals: usize,
    players: &Bound<'py, PyAny>,
    seed: u64,
    first: u64,
    protocol: &str,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    use ddz_core::vecenv::players::Limits;
    use ddz_core::vecenv::{Dealing, Options, VecEnv};
    let engine = rules.get().shared_engine();
    let n = engine.rules().players as usize;
    let opening = crate::seating::opening_of(protocol)?;
    let seated = crate::seating::every_seat(n, players, opening)?;
    let threads = match threads {
        Some(t) if !t.is_none() => threads_from(Some(t))?,
        _ => ddz_core::vecenv::default_threads_for(deals),
    };
    let mut columns = Columns::new(deals as u64, engine.rules()).map_err(memory_error)?;
    if deals > 0 {
        let options = Options {
            threads,
            seating: Some(seated.seating),
            limits: Limits::none(),
            ids: Some(crate::action_table::table_of(&engine)),
            ..Options::default()
        };
        let mut env = py
            .detach(|| VecEnv::built(engine.clone(), deals, seed, first, Dealing::Once, options))
            .map_err(value_error)?;
        py.detach(|| env.reset_begin(None));
        crate::seating::answer_externals(py, &mut env, &seated.externals)?;
        for o in env.outcomes() {
            columns.push(&o.ok_or_else(|| value_error("a deal was not played out"))?);
        }
    }
    results(py, columns, deals, n, &[])
}

/// A policy by name, naming the policies if there is none of that name.
fn policy_named(name: &str) -> PyResult<Policy> {
    crate::search::policy_named(name)
}

/// One name for every seat (None: "random"), or a list of one per seat.
fn seats_from(policy: Option<&Bound<'_, PyAny>>) -> PyResult<Seats> {
    let Some(policy) = policy else {
        return Ok(Seats::All(Policy::Random));
    };
    if let Ok(name) = policy.extract::<String>() {
        return Ok(Seats::All(policy_named(&name)?));
    }
    match policy.extract::<Vec<String>>() {
        Ok(names) => Ok(Seats::Each(
            names
                .iter()
                .map(|n| policy_named(n))
                .collect::<PyResult<_>>()?,
        )),
        Err(_) => Err(value_error(format!(
            "policy must be a policy name or a list of one name per seat, not {}",
            policy.repr()?
        ))),
    }
}
