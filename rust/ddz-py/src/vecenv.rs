//! `VecEnv`: the core's batched environments (`ddz_core::vecenv`).
//! Conversions only: arguments in, numpy arrays out, the stepping itself
//! with the GIL released.

use crate::convert::value_error;
use crate::types::PyRules;
use ddz_core::vecenv::arrays::Column;
use ddz_core::vecenv::kinds::{KIND_NAMES, PHASES};
use ddz_core::vecenv::{Options, Reward, VecEnv, MAX_HISTORY};
use numpy::{Element, PyArray1, PyArrayDyn, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

/// `num_envs` deals of one rule set, stepped together (docs/rl.md).
#[pyclass(name = "VecEnv", module = "ddz")]
pub struct PyVecEnv {
    env: VecEnv,
}

/// A fresh numpy array of `shape` holding a copy of `s`: made at its shape
/// in one call and filled with one copy (no reshape, no second object).
fn fresh<'py, T: Element + Copy>(
    py: Python<'py>,
    s: &[T],
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    if shape.iter().product::<usize>() != s.len() {
        return Err(value_error(format!(
            "a column of {} elements does not fill shape {shape:?}",
            s.len()
        )));
    }
    // SAFETY: the array is made uninitialised with exactly `s.len()`
    // elements, C-ordered, and every one is written from `s` at once,
    // before Python can see it.
    unsafe {
        let a = PyArrayDyn::<T>::new(py, shape, false);
        std::ptr::copy_nonoverlapping(s.as_ptr(), a.data(), s.len());
        Ok(a.into_any())
    }
}

fn array<'py>(py: Python<'py>, c: Column<'_>, shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    match c {
        Column::U8(s) => fresh(py, s, shape),
        Column::I8(s) => fresh(py, s, shape),
        Column::I16(s) => fresh(py, s, shape),
        Column::I32(s) => fresh(py, s, shape),
        Column::I64(s) => fresh(py, s, shape),
        Column::F32(s) => fresh(py, s, shape),
        Column::Bool(s) => fresh(py, s, shape),
    }
}

/// The rule set a preset name or a `Rules` names.
fn rules_from<'py>(ob: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyRules>> {
    if let Ok(r) = ob.cast::<PyRules>() {
        return Ok(r.clone());
    }
    if ob.is_instance_of::<PyString>() {
        let made = ob.py().get_type::<PyRules>().call1((ob,))?;
        return Ok(made.cast_into::<PyRules>()?);
    }
    Err(PyTypeError::new_err(format!(
        "VecEnv needs a preset name or a ddz.Rules, not {}",
        ob.repr()?
    )))
}

/// One integer per env, as int64.
fn actions_from(ob: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    if let Ok(a) = ob.cast::<PyArray1<i64>>() {
        return Ok(a
            .readonly()
            .as_slice()
            .map_or_else(|_| a.readonly().as_array().to_vec(), |s| s.to_vec()));
    }
    let np = ob.py().import("numpy")?;
    let arr = np.call_method1("asarray", (ob,))?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(PyTypeError::new_err(format!(
            "actions must be integers (one legal index per env), got dtype {}",
            arr.getattr("dtype")?
        )));
    }
    let wide = arr.call_method1("astype", ("int64",))?;
    let wide = wide.cast::<PyArray1<i64>>().map_err(|_| {
        value_error(format!(
            "actions must be one index per env (a 1-d array), got shape {}",
            arr.getattr("shape")
                .map(|s| s.to_string())
                .unwrap_or_default()
        ))
    })?;
    Ok(wide.readonly().as_array().to_vec())
}

impl PyVecEnv {
    pub(crate) fn core(&self) -> &VecEnv {
        &self.env
    }

    pub(crate) fn core_mut(&mut self) -> &mut VecEnv {
        &mut self.env
    }

    /// The last step's `(rewards, terminated, info)` as numpy arrays.
    #[allow(clippy::type_complexity)]
    pub(crate) fn outcome_py<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let d = self.env.dims();
        let info = PyDict::new(py);
        let (mut rewards, mut terminated) = (None, None);
        for (name, c, shape) in self.env.outcome().columns(&d) {
            let a = array(py, c, &shape)?;
            match name {
                "reward" => rewards = Some(a),
                "terminated" => terminated = Some(a),
                "final_multiplier" => info.set_item("multiplier", a)?,
                _ => info.set_item(name, a)?,
            }
        }
        let missing = || value_error("the outcome lacks a column");
        Ok((
            rewards.ok_or_else(missing)?,
            terminated.ok_or_else(missing)?,
            info,
        ))
    }

    fn obs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        let d = self.env.dims();
        for (name, c, shape) in self.env.obs().columns(&d) {
            out.set_item(name, array(py, c, &shape)?)?;
        }
        let l = self.env.legal();
        let m = l.kind.len();
        let legal: [(&str, Column<'_>, Vec<usize>); 6] = [
            ("legal_offsets", l.offsets[..].into(), vec![d.envs + 1]),
            ("legal_cards", l.cards[..].into(), vec![m, 16]),
            ("legal_represents", l.represents[..].into(), vec![m, 16]),
            ("legal_kind", l.kind[..].into(), vec![m]),
            ("legal_rank", l.rank[..].into(), vec![m]),
            ("legal_length", l.length[..].into(), vec![m]),
        ];
        for (name, c, shape) in legal {
            out.set_item(name, array(py, c, &shape)?)?;
        }
        Ok(out)
    }
}

#[pymethods]
impl PyVecEnv {
    /// `VecEnv(preset_or_rules, num_envs, seed=0, threads=None, *,
    /// history=15, reward="score")`; reset and ready to step.
    #[new]
    #[pyo3(signature = (preset_or_rules, num_envs, seed = 0, threads = None, *, history = 15, reward = "score"))]
    fn new(
        py: Python<'_>,
        preset_or_rules: &Bound<'_, PyAny>,
        num_envs: usize,
        seed: u64,
        threads: Option<usize>,
        history: usize,
        reward: &str,
    ) -> PyResult<Self> {
        let rules = rules_from(preset_or_rules)?;
        let reward = match reward {
            "score" => Reward::Score,
            "win" => Reward::WinLoss,
            other => {
                return Err(value_error(format!(
                    "reward must be 'score' or 'win', not {other:?}"
                )))
            }
        };
        if threads == Some(0) {
            return Err(value_error("threads must be at least 1"));
        }
        if history > MAX_HISTORY {
            return Err(value_error(format!(
                "history must be 0..{MAX_HISTORY}, not {history}"
            )));
        }
        let options = Options {
            history,
            reward,
            threads: threads.unwrap_or_else(ddz_core::batch::default_threads),
        };
        let engine = rules.get().shared_engine();
        let env = py
            .detach(|| VecEnv::new(engine, num_envs, seed, options))
            .map_err(value_error)?;
        Ok(PyVecEnv { env })
    }

    /// Every env to the first deal of its series; returns the observations.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Bound<'py, PyDict>> {
        let env = &mut self.env;
        py.detach(|| env.reset(seed));
        self.obs(py)
    }

    /// One legal index per env -> `(obs, rewards, terminated, info)`.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, PyDict>,
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyDict>,
    )> {
        let actions = actions_from(actions)?;
        let env = &mut self.env;
        py.detach(|| env.step(&actions))
            .map_err(|e| crate::errors::illegal_action(e, Default::default()))?;
        let (rewards, terminated, info) = self.outcome_py(py)?;
        Ok((self.obs(py)?, rewards, terminated, info))
    }

    /// The observations of the last reset or step.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.obs(py)
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.env.num_envs()
    }

    #[getter]
    fn players(&self) -> usize {
        self.env.dims().players
    }

    #[getter]
    fn history(&self) -> usize {
        self.env.dims().history
    }

    #[getter]
    fn threads(&self) -> usize {
        self.env.options().threads
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.env.seed()
    }

    #[getter]
    fn preset(&self) -> String {
        self.env.engine().rules().preset.clone()
    }

    /// The columns of `obs["roles"]`, in order.
    #[getter]
    fn role_keys(&self) -> Vec<String> {
        self.env.role_keys().to_vec()
    }

    /// The name of each action kind id (`legal_kind`, `recent_kind`).
    #[classattr]
    fn kind_names() -> Vec<&'static str> {
        KIND_NAMES.to_vec()
    }

    /// The name of each phase id (`obs["phase"]`).
    #[classattr]
    fn phase_names() -> Vec<&'static str> {
        PHASES.iter().map(|p| p.name()).collect()
    }

    /// Env `i`'s deal as the seat to act sees it, as `Game.observation`
    /// gives it (for checks and debugging; slow).
    fn observation<'py>(&mut self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyAny>> {
        let n = self.env.num_envs();
        if i >= n {
            return Err(value_error(format!("no env {i}: there are {n}")));
        }
        let mut table = self.env.table(i).clone();
        let seat = table.to_act();
        let obs = table.observation(seat);
        crate::table::observation_to_py(py, &obs, &table.rules().preset)
    }

    fn __repr__(&self) -> String {
        format!(
            "VecEnv({:?}, num_envs={}, seed={}, threads={})",
            self.env.engine().rules().preset,
            self.env.num_envs(),
            self.env.seed(),
            self.env.options().threads
        )
    }
}
