//! `VecEnv`: the core's batched environments (`ddz_core::vecenv`).
//! Conversions only: arguments in, numpy arrays out, the stepping itself
//! with the GIL released.

use crate::convert::value_error;
use crate::types::PyRules;
use ddz_core::table::action::kind_names;
use ddz_core::table::Phase;
use ddz_core::vecenv::arrays::Column;
use ddz_core::vecenv::{LegalRows, Options, Reward, VecEnv, MAX_HISTORY};
use numpy::ndarray::{ArrayView2, ArrayViewD, IxDyn};
use numpy::{Element, PyArray1, PyArray2, PyArrayDyn, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use pyo3::{PyTraverseError, PyVisit};

/// `num_envs` deals of one rule set, stepped together (docs/rl.md).
#[pyclass(name = "VecEnv", module = "ddz")]
pub struct PyVecEnv {
    env: VecEnv,
    /// `copy=True`: every call returns fresh arrays.
    copy: bool,
    names: Names,
    /// `copy=False`: the arrays every call returns (made at the first).
    shared: Option<Shared>,
}

/// The keys of the returned dicts as Python strings, made once: a key
/// made afresh would be hashed again at every step.
struct Names {
    obs: Vec<Py<PyString>>,
    legal: Vec<Py<PyString>>,
    outcome: Vec<Py<PyString>>,
}

/// The names of the legal-action arrays, in `legal_columns`' order.
const LEGAL_NAMES: [&str; 6] = [
    "legal_offsets",
    "legal_cards",
    "legal_represents",
    "legal_kind",
    "legal_rank",
    "legal_length",
];

impl Names {
    fn new(py: Python<'_>, env: &VecEnv) -> Names {
        let d = env.dims();
        let key = |name: &str| PyString::intern(py, name).unbind();
        Names {
            obs: env.obs().columns(&d).iter().map(|c| key(c.0)).collect(),
            legal: LEGAL_NAMES.iter().map(|n| key(n)).collect(),
            outcome: env
                .outcome()
                .columns(&d)
                .iter()
                .map(|c| {
                    key(if c.0 == "final_multiplier" {
                        "multiplier"
                    } else {
                        c.0
                    })
                })
                .collect(),
        }
    }
}

/// With `copy=False`, the arrays the calls return and the next call
/// overwrites: views of the env's own observation and outcome arrays
/// (which are never reallocated), and legal-action buffers with room for
/// `room` actions, handed to the core to write into, of which each call
/// returns views of the first `M` rows. When a step has more actions than
/// room, new buffers are made (the old ones live on while a view of them
/// does).
struct Shared {
    obs: Vec<Py<PyAny>>,
    outcome: Vec<Py<PyAny>>,
    offsets: Py<PyArray1<i64>>,
    cards: Py<PyArray2<u8>>,
    represents: Py<PyArray2<u8>>,
    kind: Py<PyArray1<i8>>,
    rank: Py<PyArray1<i8>>,
    length: Py<PyArray1<i8>>,
    room: usize,
    /// Legal actions of the last call.
    total: usize,
}

/// Room for this many legal actions per env at first (a classic lead of a
/// full hand has about that many plays; a step with more grows the room).
const FIRST_ROOM_PER_ENV: usize = 64;

impl Shared {
    fn visit(&self, visit: &PyVisit<'_>) -> Result<(), PyTraverseError> {
        for a in self.obs.iter().chain(&self.outcome) {
            visit.call(a)?;
        }
        visit.call(&self.offsets)?;
        visit.call(&self.cards)?;
        visit.call(&self.represents)?;
        visit.call(&self.kind)?;
        visit.call(&self.rank)?;
        visit.call(&self.length)
    }

    /// New legal buffers with room for `room` actions (the offsets kept).
    fn grow(&mut self, py: Python<'_>, room: usize) {
        self.cards = PyArray2::zeros(py, [room, 16], false).unbind();
        self.represents = PyArray2::zeros(py, [room, 16], false).unbind();
        self.kind = PyArray1::zeros(py, room, false).unbind();
        self.rank = PyArray1::zeros(py, room, false).unbind();
        self.length = PyArray1::zeros(py, room, false).unbind();
        self.room = room;
    }

    /// The legal buffers as the core writes them.
    ///
    /// SAFETY: the caller holds `self` (so the arrays live) and lets
    /// nothing else touch their memory while the rows are in use.
    unsafe fn rows<'a>(&'a self, py: Python<'a>) -> PyResult<LegalRows<'a>> {
        let cut = |e: numpy::AsSliceError| value_error(e.to_string());
        unsafe {
            Ok(LegalRows {
                offsets: self.offsets.bind(py).as_slice_mut().map_err(cut)?,
                cards: self.cards.bind(py).as_slice_mut().map_err(cut)?,
                represents: self.represents.bind(py).as_slice_mut().map_err(cut)?,
                kind: self.kind.bind(py).as_slice_mut().map_err(cut)?,
                rank: self.rank.bind(py).as_slice_mut().map_err(cut)?,
                length: self.length.bind(py).as_slice_mut().map_err(cut)?,
            })
        }
    }

    /// Views of the first `total` rows of the legal buffers, and the offsets.
    fn legal<'py>(&self, py: Python<'py>) -> PyResult<[Bound<'py, PyAny>; 6]> {
        let m = self.total;
        Ok([
            self.offsets.bind(py).clone().into_any(),
            first_rows(self.cards.bind(py), m)?,
            first_rows(self.represents.bind(py), m)?,
            first_items(self.kind.bind(py), m)?,
            first_items(self.rank.bind(py), m)?,
            first_items(self.length.bind(py), m)?,
        ])
    }
}

/// A view of the first `m` rows of `a`, keeping `a` alive.
fn first_rows<'py>(a: &Bound<'py, PyArray2<u8>>, m: usize) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: `a` is C-ordered with at least `m` rows, and is the view's
    // base, so its memory lives as long as the view.
    unsafe {
        let all = a.as_slice().map_err(|e| value_error(e.to_string()))?;
        let view = ArrayView2::from_shape((m, 16), &all[..m * 16])
            .map_err(|e| value_error(e.to_string()))?;
        Ok(PyArray2::borrow_from_array(&view, a.clone().into_any()).into_any())
    }
}

/// A view of the first `m` items of `a`, keeping `a` alive.
fn first_items<'py>(a: &Bound<'py, PyArray1<i8>>, m: usize) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: as `first_rows`.
    unsafe {
        let all = a.as_slice().map_err(|e| value_error(e.to_string()))?;
        let view = numpy::ndarray::ArrayView1::from(&all[..m]);
        Ok(PyArray1::borrow_from_array(&view, a.clone().into_any()).into_any())
    }
}

/// A numpy view of `s` at `shape` whose base is `owner`.
///
/// SAFETY: `s` must live, unmoved and unresized, as long as `owner` does.
unsafe fn view_of<'py, T: Element>(
    owner: &Bound<'py, PyAny>,
    s: &[T],
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let view = ArrayViewD::from_shape(IxDyn(shape), s).map_err(|e| value_error(e.to_string()))?;
    unsafe { Ok(PyArrayDyn::borrow_from_array(&view, owner.clone()).into_any()) }
}

/// `view_of` for a column of any element type.
///
/// SAFETY: as `view_of`.
unsafe fn column_view<'py>(
    owner: &Bound<'py, PyAny>,
    c: Column<'_>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    unsafe {
        match c {
            Column::U8(s) => view_of(owner, s, shape),
            Column::I8(s) => view_of(owner, s, shape),
            Column::I16(s) => view_of(owner, s, shape),
            Column::I32(s) => view_of(owner, s, shape),
            Column::I64(s) => view_of(owner, s, shape),
            Column::F32(s) => view_of(owner, s, shape),
            Column::Bool(s) => view_of(owner, s, shape),
        }
    }
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

impl Shared {
    /// Views of `owner`'s env's arrays, and legal buffers for a first step.
    fn new(owner: &Bound<'_, PyVecEnv>) -> PyResult<Shared> {
        let py = owner.py();
        let base = owner.clone().into_any();
        let this = owner.borrow();
        let d = this.env.dims();
        // SAFETY: the env's observation and outcome arrays are made at
        // their size once and never resized, and `owner` is each view's
        // base, so the memory lives as long as any view.
        let views = |cols: Vec<(&str, Column<'_>, Vec<usize>)>| -> PyResult<Vec<Py<PyAny>>> {
            cols.into_iter()
                .map(|(_, c, shape)| unsafe { column_view(&base, c, &shape) }.map(Bound::unbind))
                .collect()
        };
        let empty = || PyArray1::<i8>::zeros(py, 0, false).unbind();
        let mut shared = Shared {
            obs: views(this.env.obs().columns(&d))?,
            outcome: views(this.env.outcome().columns(&d))?,
            offsets: PyArray1::zeros(py, d.envs + 1, false).unbind(),
            cards: PyArray2::zeros(py, [0, 16], false).unbind(),
            represents: PyArray2::zeros(py, [0, 16], false).unbind(),
            kind: empty(),
            rank: empty(),
            length: empty(),
            room: 0,
            total: 0,
        };
        shared.grow(py, d.envs * FIRST_ROOM_PER_ENV);
        Ok(shared)
    }
}

impl PyVecEnv {
    pub(crate) fn core(&self) -> &VecEnv {
        &self.env
    }

    pub(crate) fn core_mut(&mut self) -> &mut VecEnv {
        &mut self.env
    }

    /// The observations of the last call: fresh copies, or with
    /// `copy=False` the shared arrays.
    fn obs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        if let Some(sh) = &self.shared {
            for (k, a) in self.names.obs.iter().zip(&sh.obs) {
                out.set_item(k.bind(py), a.bind(py))?;
            }
            for (k, a) in self.names.legal.iter().zip(sh.legal(py)?) {
                out.set_item(k.bind(py), a)?;
            }
            return Ok(out);
        }
        let d = self.env.dims();
        for (k, (_, c, shape)) in self.names.obs.iter().zip(self.env.obs().columns(&d)) {
            out.set_item(k.bind(py), array(py, c, &shape)?)?;
        }
        let l = self.env.legal();
        let m = l.kind.len();
        let legal: [(Column<'_>, Vec<usize>); 6] = [
            (l.offsets[..].into(), vec![d.envs + 1]),
            (l.cards[..].into(), vec![m, 16]),
            (l.represents[..].into(), vec![m, 16]),
            (l.kind[..].into(), vec![m]),
            (l.rank[..].into(), vec![m]),
            (l.length[..].into(), vec![m]),
        ];
        for (k, (c, shape)) in self.names.legal.iter().zip(legal) {
            out.set_item(k.bind(py), array(py, c, &shape)?)?;
        }
        Ok(out)
    }

    /// The outcome of the last step: `(rewards, terminated, info)`.
    pub(crate) fn outcome<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let d = self.env.dims();
        let arrays: Vec<Bound<'py, PyAny>> = match &self.shared {
            Some(sh) => sh.outcome.iter().map(|a| a.bind(py).clone()).collect(),
            None => self
                .env
                .outcome()
                .columns(&d)
                .into_iter()
                .map(|(_, c, shape)| array(py, c, &shape))
                .collect::<PyResult<_>>()?,
        };
        let info = PyDict::new(py);
        let (mut rewards, mut terminated) = (None, None);
        for (k, a) in self.names.outcome.iter().zip(arrays) {
            match k.bind(py).to_str()? {
                "reward" => rewards = Some(a),
                "terminated" => terminated = Some(a),
                _ => info.set_item(k.bind(py), a)?,
            }
        }
        let missing = || value_error("the outcome lacks a column");
        Ok((
            rewards.ok_or_else(missing)?,
            terminated.ok_or_else(missing)?,
            info,
        ))
    }

    /// With `copy=False`, make the shared arrays if they are not made yet,
    /// holding the observations of the last call.
    fn share(slf: &Bound<'_, Self>) -> PyResult<()> {
        if slf.borrow().copy || slf.borrow().shared.is_some() {
            return Ok(());
        }
        let py = slf.py();
        let mut sh = Shared::new(slf)?;
        let this = &mut *slf.borrow_mut();
        let total = this.env.legal_count();
        if total > sh.room {
            sh.grow(py, total);
        }
        {
            // SAFETY: `sh` holds the buffers, which nothing else has seen yet.
            let rows = unsafe { sh.rows(py)? };
            let env = &this.env;
            py.detach(|| env.legal_into(rows)).map_err(value_error)?;
        }
        sh.total = total;
        this.shared = Some(sh);
        Ok(())
    }

    /// Step (or reset, without actions) with `copy=False`: the legal
    /// actions go into the shared buffers, grown first if they lack room.
    fn run_shared(
        slf: &Bound<'_, Self>,
        actions: Option<&[i64]>,
        seed: Option<u64>,
    ) -> PyResult<()> {
        let py = slf.py();
        Self::share(slf)?;
        let mut this = slf.borrow_mut();
        let this = &mut *this;
        let (env, sh) = (&mut this.env, this.shared.as_mut().expect("made above"));
        let total = {
            // SAFETY: `sh` holds the buffers for the whole call, and only
            // the core touches them until it returns.
            let rows = unsafe { sh.rows(py)? };
            py.detach(|| match actions {
                Some(a) => env.step_legal_into(a, rows),
                None => env.reset_legal_into(seed, rows),
            })
            .map_err(|e| crate::errors::illegal_action(e, Default::default()))?
        };
        if total > sh.room {
            sh.grow(py, total.max(2 * sh.room));
            // SAFETY: as above.
            let rows = unsafe { sh.rows(py)? };
            py.detach(|| env.legal_into(rows)).map_err(value_error)?;
        }
        sh.total = total;
        Ok(())
    }
}

#[pymethods]
impl PyVecEnv {
    /// `VecEnv(preset_or_rules, num_envs, seed=0, threads=None, *,
    /// history=15, reward="score")`; reset and ready to step.
    #[new]
    #[pyo3(signature = (preset_or_rules, num_envs, seed = 0, threads = None, *, history = 15, reward = "score", copy = true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        preset_or_rules: &Bound<'_, PyAny>,
        num_envs: usize,
        seed: u64,
        threads: Option<usize>,
        history: usize,
        reward: &str,
        copy: bool,
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
        Ok(PyVecEnv {
            names: Names::new(py, &env),
            env,
            copy,
            shared: None,
        })
    }

    /// Every env to the first deal of its series; returns the observations.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(slf: Bound<'py, Self>, seed: Option<u64>) -> PyResult<Bound<'py, PyDict>> {
        let py = slf.py();
        if slf.borrow().copy {
            let mut this = slf.borrow_mut();
            let env = &mut this.env;
            py.detach(|| env.reset(seed));
        } else {
            Self::run_shared(&slf, None, seed)?;
        }
        slf.borrow().obs(py)
    }

    /// One legal index per env -> `(obs, rewards, terminated, info)`.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        slf: Bound<'py, Self>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, PyDict>,
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyDict>,
    )> {
        let py = slf.py();
        let actions = actions_from(actions)?;
        if slf.borrow().copy {
            let mut this = slf.borrow_mut();
            let env = &mut this.env;
            py.detach(|| env.step(&actions))
                .map_err(|e| crate::errors::illegal_action(e, Default::default()))?;
        } else {
            Self::run_shared(&slf, Some(&actions), None)?;
        }
        let this = slf.borrow();
        let (rewards, terminated, info) = this.outcome(py)?;
        Ok((this.obs(py)?, rewards, terminated, info))
    }

    /// The observations of the last reset or step.
    fn observe<'py>(slf: Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        Self::share(&slf)?;
        slf.borrow().obs(slf.py())
    }

    /// Does every call return fresh arrays (`copy=True`), or the env's
    /// own, which the next call overwrites?
    #[getter]
    fn copy(&self) -> bool {
        self.copy
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        match &self.shared {
            Some(sh) => sh.visit(&visit),
            None => Ok(()),
        }
    }

    fn __clear__(&mut self) {
        self.shared = None;
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
        kind_names().to_vec()
    }

    /// The name of each phase id (`obs["phase"]`).
    #[classattr]
    fn phase_names() -> Vec<&'static str> {
        Phase::ALL.iter().map(|p| p.name()).collect()
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
            "VecEnv({:?}, num_envs={}, seed={}, threads={}{})",
            self.env.engine().rules().preset,
            self.env.num_envs(),
            self.env.seed(),
            self.env.options().threads,
            if self.copy { "" } else { ", copy=False" }
        )
    }
}
