//! `VecEnv`: the core's batched environments (`ddz_core::vecenv`).
//! Conversions only: arguments in, numpy arrays out, the stepping itself
//! with the GIL released (the seats' players are `seating.rs`'s).

use crate::action_table::PyActionTable;
use crate::convert::value_error;
use crate::seating::{answer_externals, learner_seating, opening_of};
use crate::types::PyRules;
use ddz_core::table::action::kind_names;
use ddz_core::table::Phase;
use ddz_core::vecenv::arrays::Column;
use ddz_core::vecenv::players::{Limits, DEFAULT_MAX_REDEALS};
use ddz_core::vecenv::{LegalRows, Options, Reward, RewardFor, VecEnv, MAX_HISTORY};
use numpy::ndarray::{ArrayView2, ArrayViewD, IxDyn};
use numpy::{Element, PyArray1, PyArray2, PyArrayDyn, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use pyo3::{PyTraverseError, PyVisit};

/// What `step` returns.
#[derive(Clone, Copy, PartialEq, Eq)]
enum StepApi {
    /// `(obs, rewards, done, info)`: `done` a deal ended or was cut,
    /// `info["truncated"]` which were cut.
    Done,
    /// `(obs, rewards, terminated, truncated, info)`, as Gymnasium.
    Gymnasium,
}

/// `num_envs` deals of one rule set, stepped together (docs/rl.md).
#[pyclass(name = "VecEnv", module = "ddz")]
pub struct PyVecEnv {
    env: VecEnv,
    /// `copy=True`: every call returns fresh arrays.
    copy: bool,
    names: Names,
    /// `copy=False`: the arrays every call returns (made at the first).
    shared: Option<Shared>,
    /// The callables playing the external seats, by number.
    externals: Vec<Py<PyAny>>,
    /// The action ids (`legal_ids`), when the env numbers its actions.
    table: Option<Py<PyActionTable>>,
    api: StepApi,
    protocol: &'static str,
    /// `max_actions`: the legal actions padded to this width per env too.
    max_actions: Option<crate::padded::Width>,
}

/// The keys of the returned dicts as Python strings, made once: a key
/// made afresh would be hashed again at every step.
struct Names {
    obs: Vec<Py<PyString>>,
    legal: Vec<Py<PyString>>,
    outcome: Vec<Py<PyString>>,
    legal_ids: Py<PyString>,
    action_mask: Py<PyString>,
    final_obs: Py<PyString>,
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
            legal_ids: key("legal_ids"),
            action_mask: key("action_mask"),
            final_obs: key("final_obs"),
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
    /// Views of the final observations and of the mask (`final_obs`,
    /// `action_mask`), and `done` (terminated or truncated), rewritten
    /// at each step.
    final_obs: Vec<Py<PyAny>>,
    mask: Option<Py<PyAny>>,
    done: Py<PyArray1<bool>>,
    ids: Option<Py<PyArray1<i32>>>,
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
        for a in self.obs.iter().chain(&self.outcome).chain(&self.final_obs) {
            visit.call(a)?;
        }
        if let Some(m) = &self.mask {
            visit.call(m)?;
        }
        if let Some(ids) = &self.ids {
            visit.call(ids)?;
        }
        visit.call(&self.done)?;
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
        if self.ids.is_some() {
            self.ids = Some(PyArray1::zeros(py, room, false).unbind());
        }
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
                ids: match &self.ids {
                    Some(ids) => Some(ids.bind(py).as_slice_mut().map_err(cut)?),
                    None => None,
                },
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

    /// A view of the first `total` legal ids.
    fn legal_ids<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(ids) = &self.ids else {
            return Ok(None);
        };
        let a = ids.bind(py);
        // SAFETY: as `first_rows`.
        unsafe {
            let all = a.as_slice().map_err(|e| value_error(e.to_string()))?;
            let view = numpy::ndarray::ArrayView1::from(&all[..self.total]);
            Ok(Some(
                PyArray1::borrow_from_array(&view, a.clone().into_any()).into_any(),
            ))
        }
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
    let len = shape.iter().product();
    fresh_column(py, c, len, shape)
}

/// A fresh array of `shape` from the first `len` elements of `c`.
pub(crate) fn fresh_column<'py>(
    py: Python<'py>,
    c: Column<'_>,
    len: usize,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    match c {
        Column::U8(s) => fresh(py, &s[..len], shape),
        Column::I8(s) => fresh(py, &s[..len], shape),
        Column::I16(s) => fresh(py, &s[..len], shape),
        Column::I32(s) => fresh(py, &s[..len], shape),
        Column::I64(s) => fresh(py, &s[..len], shape),
        Column::F32(s) => fresh(py, &s[..len], shape),
        Column::Bool(s) => fresh(py, &s[..len], shape),
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

/// The outcome's columns, `reward` one value per env (`[N]`) when it is
/// the acting seat's alone.
fn outcome_columns(env: &VecEnv) -> Vec<(&'static str, Column<'_>, Vec<usize>)> {
    let mut cols = env.outcome().columns(&env.dims());
    if env.options().reward_for == RewardFor::Acting {
        for (name, _, shape) in cols.iter_mut() {
            if *name == "reward" {
                shape.truncate(1);
            }
        }
    }
    cols
}

/// An unsigned action past int64: its place and its value.
type TooBig = (usize, u64);

/// One integer per env, as int64: a 1-d integer array of exactly `n`
/// entries (else a ValueError naming the shape wanted, or a TypeError
/// for non-integers). An unsigned value too large for int64 is named as
/// it is (`big`: the first such entry and its value).
fn actions_from(ob: &Bound<'_, PyAny>, n: usize) -> PyResult<(Vec<i64>, Option<TooBig>)> {
    if let Ok(a) = ob.cast::<PyArray1<i64>>() {
        let a = a.readonly();
        let v = a
            .as_slice()
            .map_or_else(|_| a.as_array().to_vec(), |s| s.to_vec());
        return check_length(v, n).map(|v| (v, None));
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
    let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
    if shape != [n] {
        return Err(value_error(format!(
            "actions must have shape ({n},), one per env, not {}",
            arr.getattr("shape")?
        )));
    }
    let mut big = None;
    if kind == "u" {
        let wide = arr.call_method1("astype", ("uint64",))?;
        let wide = wide.cast::<PyArray1<u64>>()?.readonly();
        let values = wide.as_array();
        big = values
            .iter()
            .position(|&v| v > i64::MAX as u64)
            .map(|i| (i, values[i]));
    }
    let wide = arr.call_method1("astype", ("int64",))?;
    let wide = wide.cast::<PyArray1<i64>>()?;
    Ok((wide.readonly().as_array().to_vec(), big))
}

/// A seed: an int in 0..2**64 (a negative or larger int is a ValueError
/// naming the range, not an OverflowError).
pub(crate) fn seed_of(ob: &Bound<'_, PyAny>) -> PyResult<u64> {
    if ob.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(
            "a seed is an int in 0..2**64, not a bool",
        ));
    }
    if let Ok(s) = ob.extract::<u64>() {
        return Ok(s);
    }
    if ob.is_instance_of::<pyo3::types::PyInt>() || ob.hasattr("__index__")? {
        return Err(value_error(format!(
            "a seed is an int in 0..2**64, not {}",
            ob.repr()?
        )));
    }
    Err(PyTypeError::new_err(format!(
        "a seed is an int in 0..2**64, not {}",
        ob.repr()?
    )))
}

fn check_length(v: Vec<i64>, n: usize) -> PyResult<Vec<i64>> {
    if v.len() != n {
        return Err(value_error(format!(
            "actions must have shape ({n},), one per env, not ({},)",
            v.len()
        )));
    }
    Ok(v)
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
        let mask = match this.env.options().mask {
            // SAFETY: as the views above: the mask is made at its size once.
            true => {
                let width = this.env.mask().len() / d.envs;
                Some(unsafe { view_of(&base, this.env.mask(), &[d.envs, width]) }?.unbind())
            }
            false => None,
        };
        let final_obs = match this.env.final_obs() {
            Some(f) => views(f.columns(&d))?,
            None => Vec::new(),
        };
        let ids = this
            .env
            .options()
            .ids
            .as_ref()
            .map(|_| PyArray1::zeros(py, 0, false).unbind());
        let mut shared = Shared {
            obs: views(this.env.obs().columns(&d))?,
            outcome: views(outcome_columns(&this.env))?,
            final_obs,
            mask,
            done: PyArray1::zeros(py, d.envs, false).unbind(),
            ids,
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
            if let Some(ids) = sh.legal_ids(py)? {
                out.set_item(self.names.legal_ids.bind(py), ids)?;
            }
            if let Some(mask) = &sh.mask {
                out.set_item(self.names.action_mask.bind(py), mask.bind(py))?;
            }
            self.add_douzero(py, &out)?;
            self.add_padded(py, &out)?;
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
        if self.env.options().ids.is_some() {
            let ids = array(py, l.ids[..].into(), &[m])?;
            out.set_item(self.names.legal_ids.bind(py), ids)?;
        }
        if self.env.options().mask {
            let mask = self.env.mask();
            let shape = [d.envs, mask.len() / d.envs];
            out.set_item(
                self.names.action_mask.bind(py),
                array(py, mask.into(), &shape)?,
            )?;
        }
        self.add_douzero(py, &out)?;
        self.add_padded(py, &out)?;
        Ok(out)
    }

    /// With `features="douzero"`, DouZero's features: the env's context,
    /// history and position rows, and each legal action's features (from the
    /// CSR rows of `out`).
    fn add_douzero(&self, py: Python<'_>, out: &Bound<'_, PyDict>) -> PyResult<()> {
        let Some(dz) = self.env.douzero() else {
            return Ok(());
        };
        let (n, l) = (self.env.num_envs(), &dz.layout);
        let h = ddz_core::vecenv::douzero::HISTORY;
        out.set_item("douzero_context", fresh(py, &dz.context, &[n, l.width])?)?;
        out.set_item(
            "douzero_history",
            fresh(py, &dz.history, &[n, h, l.features])?,
        )?;
        out.set_item("douzero_position", fresh(py, &dz.position, &[n])?)?;
        let af = l.action_features;
        let m = dz.actions.len() / af;
        out.set_item("douzero_actions", fresh(py, &dz.actions, &[m, af])?)?;
        Ok(())
    }

    /// With `max_actions`, the padded tensors, read off the CSR arrays of `out`.
    fn add_padded(&self, py: Python<'_>, out: &Bound<'_, PyDict>) -> PyResult<()> {
        let Some(width) = self.max_actions else {
            return Ok(());
        };
        let c = {
            let offsets = out.get_item("legal_offsets")?.expect("written");
            let offsets = offsets.cast::<PyArray1<i64>>()?.readonly();
            width.columns(offsets.as_slice()?)
        };
        if let Some(dz) = self.env.douzero() {
            let af = dz.layout.action_features;
            let offsets = out.get_item("legal_offsets")?.expect("written");
            let offsets = offsets.cast::<PyArray1<i64>>()?.readonly();
            let feats = out.get_item("douzero_actions")?.expect("written");
            let feats = feats.cast::<PyArray2<i8>>()?.readonly();
            crate::padded::check_room(offsets.as_slice()?, c)?;
            let n = offsets.as_slice()?.len() - 1;
            let mut padded = vec![0i8; n * c * af];
            crate::padded::pad_rows(
                feats.as_slice()?,
                offsets.as_slice()?,
                c,
                af,
                0,
                &mut padded,
            );
            out.set_item("padded_douzero", fresh(py, &padded, &[n, c, af])?)?;
        }
        let get = |k: &str| -> PyResult<Bound<'_, PyAny>> {
            out.get_item(k)?
                .ok_or_else(|| value_error(format!("no {k} to pad")))
        };
        let (offsets, ids) = (get("legal_offsets")?, get("legal_ids")?);
        let (cards, reps) = (get("legal_cards")?, get("legal_represents")?);
        let (kind, rank, length) = (get("legal_kind")?, get("legal_rank")?, get("legal_length")?);
        let offsets = offsets.cast::<PyArray1<i64>>()?.readonly();
        let ids = ids.cast::<PyArray1<i32>>()?.readonly();
        let cards = cards.cast::<PyArray2<u8>>()?.readonly();
        let reps = reps.cast::<PyArray2<u8>>()?.readonly();
        let kind = kind.cast::<PyArray1<i8>>()?.readonly();
        let rank = rank.cast::<PyArray1<i8>>()?.readonly();
        let length = length.cast::<PyArray1<i8>>()?.readonly();
        let view = crate::padded::LegalView {
            offsets: offsets.as_slice()?,
            ids: ids.as_slice()?,
            cards: cards.as_slice()?,
            represents: reps.as_slice()?,
            kind: kind.as_slice()?,
            rank: rank.as_slice()?,
            length: length.as_slice()?,
        };
        crate::padded::write(py, &view, c, out)
    }

    /// The outcome of the last step: `(rewards, terminated, truncated,
    /// info)`, `info` holding the results and, if kept, the final views.
    #[allow(clippy::type_complexity)]
    pub(crate) fn outcome<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyDict>,
    )> {
        let arrays: Vec<Bound<'py, PyAny>> = match &self.shared {
            Some(sh) => sh.outcome.iter().map(|a| a.bind(py).clone()).collect(),
            None => outcome_columns(&self.env)
                .into_iter()
                .map(|(_, c, shape)| array(py, c, &shape))
                .collect::<PyResult<_>>()?,
        };
        let info = PyDict::new(py);
        let (mut rewards, mut terminated, mut truncated) = (None, None, None);
        for (k, a) in self.names.outcome.iter().zip(arrays) {
            match k.bind(py).to_str()? {
                "reward" => rewards = Some(a),
                "terminated" => terminated = Some(a),
                "truncated" => truncated = Some(a),
                _ => info.set_item(k.bind(py), a)?,
            }
        }
        if let Some(fin) = self.final_views(py)? {
            info.set_item(self.names.final_obs.bind(py), fin)?;
        }
        let missing = || value_error("the outcome lacks a column");
        Ok((
            rewards.ok_or_else(missing)?,
            terminated.ok_or_else(missing)?,
            truncated.ok_or_else(missing)?,
            info,
        ))
    }

    /// The final observations (`final_obs=True`), as a dict.
    fn final_views<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(fin) = self.env.final_obs() else {
            return Ok(None);
        };
        let d = self.env.dims();
        let out = PyDict::new(py);
        match &self.shared {
            Some(sh) => {
                for (k, a) in self.names.obs.iter().zip(&sh.final_obs) {
                    out.set_item(k.bind(py), a.bind(py))?;
                }
            }
            None => {
                for (k, (_, c, shape)) in self.names.obs.iter().zip(fin.columns(&d)) {
                    out.set_item(k.bind(py), array(py, c, &shape)?)?;
                }
            }
        }
        Ok(Some(out))
    }

    /// The step's return value, in the env's `step_api`.
    fn step_result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let obs = self.obs(py)?.into_any();
        let (rewards, terminated, truncated, info) = self.outcome(py)?;
        if self.api == StepApi::Gymnasium {
            return PyTuple::new(py, [obs, rewards, terminated, truncated, info.into_any()]);
        }
        let out = self.env.outcome();
        let done = out
            .terminated
            .iter()
            .zip(&out.truncated)
            .map(|(a, b)| a | b);
        let done = match &self.shared {
            Some(sh) => {
                let a = sh.done.bind(py);
                // SAFETY: the GIL is held; `done` is the env's own array,
                // overwritten at each step as the docs say.
                let dst = unsafe { a.as_slice_mut() }.map_err(|e| value_error(e.to_string()))?;
                for (d, v) in dst.iter_mut().zip(done) {
                    *d = v;
                }
                a.clone().into_any()
            }
            None => PyArray1::from_iter(py, done).into_any(),
        };
        info.set_item("truncated", truncated)?;
        PyTuple::new(py, [obs, rewards, done, info.into_any()])
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

    /// Finish a step or reset (every external player answered): the
    /// legal actions into the env's own arrays, or with `copy=False`
    /// into the shared buffers, grown first if they lack room.
    fn finish(slf: &Bound<'_, Self>) -> PyResult<()> {
        let py = slf.py();
        if slf.borrow().copy {
            let mut this = slf.borrow_mut();
            let env = &mut this.env;
            py.detach(|| env.finish(None)).map_err(value_error)?;
            return Ok(());
        }
        Self::share(slf)?;
        let mut this = slf.borrow_mut();
        let this = &mut *this;
        let (env, sh) = (&mut this.env, this.shared.as_mut().expect("made above"));
        let total = {
            // SAFETY: `sh` holds the buffers for the whole call, and only
            // the core touches them until it returns.
            let rows = unsafe { sh.rows(py)? };
            py.detach(|| env.finish(Some(rows))).map_err(value_error)?
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

    /// Ask the external players, if any wait: the callables are called
    /// without the env borrowed, the env taken out of `slf` meanwhile.
    fn answer(slf: &Bound<'_, Self>) -> PyResult<()> {
        let py = slf.py();
        let mut this = slf.borrow_mut();
        if !this.env.any_external() {
            return Ok(());
        }
        let externals: Vec<Py<PyAny>> = this.externals.iter().map(|f| f.clone_ref(py)).collect();
        answer_externals(py, &mut this.env, &externals)
    }

    /// Learner actions as legal indices: `by="index"` as given (checked by
    /// the core), `by="id"` looked up among each env's legal ids.
    fn indices(&self, actions: &Bound<'_, PyAny>, by: &str) -> PyResult<Vec<i64>> {
        let n = self.env.num_envs();
        let (actions, big) = actions_from(actions, n)?;
        if let Some((i, v)) = big {
            let count = self.env.legal_len(i);
            let what = if by == "id" {
                "an action id"
            } else {
                "a legal index"
            };
            return Err(crate::errors::illegal_action(
                format!(
                    "actions[{i}] is {v}, not {what}: env {i} has {count} legal actions, 0..{}",
                    count as i64 - 1
                ),
                Default::default(),
            ));
        }
        match by {
            "index" => Ok(actions),
            "id" => self
                .env
                .indices_of_ids(&actions)
                .map_err(|e| crate::errors::illegal_action(e, Default::default())),
            other => Err(value_error(format!(
                "by must be 'index' or 'id', not {other:?}"
            ))),
        }
    }
}

// The signatures say `max_redeals=10`: the core's default.
const _: () = assert!(DEFAULT_MAX_REDEALS == 10);

#[pymethods]
impl PyVecEnv {
    /// `VecEnv(preset_or_rules, num_envs, seed=0, threads=None, *, seats=None,
    /// opponents=None, ...)`; reset and ready to step (docs/rl.md).
    #[new]
    #[pyo3(
        text_signature = "(preset_or_rules, num_envs, seed=0, threads=None, *, seats=None, opponents=None, protocol='full', history=15, reward='score', reward_for='seat', max_redeals=10, max_decisions=None, legal_ids=False, action_mask=False, max_actions=None, features=None, final_obs=False, step_api='done', copy=True)"
    )]
    #[pyo3(signature = (
        preset_or_rules, num_envs, seed = None, threads = None, *, seats = None, opponents = None,
        protocol = "full", history = 15, reward = "score", reward_for = "seat",
        max_redeals = Some(10), max_decisions = None, legal_ids = false,
        action_mask = false, max_actions = None, features = None, final_obs = false,
        step_api = "done", copy = true
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        preset_or_rules: &Bound<'_, PyAny>,
        num_envs: usize,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<usize>,
        seats: Option<&Bound<'_, PyAny>>,
        opponents: Option<&Bound<'_, PyAny>>,
        protocol: &str,
        history: usize,
        reward: &str,
        reward_for: &str,
        max_redeals: Option<u32>,
        max_decisions: Option<u32>,
        legal_ids: bool,
        action_mask: bool,
        max_actions: Option<&Bound<'_, PyAny>>,
        features: Option<&str>,
        final_obs: bool,
        step_api: &str,
        copy: bool,
    ) -> PyResult<Self> {
        let rules = rules_from(preset_or_rules)?;
        // (None is the signature's default, 0.)
        let seed = seed
            .filter(|s| !s.is_none())
            .map(seed_of)
            .transpose()?
            .unwrap_or(0);
        let reward = match reward {
            "score" => Reward::Score,
            "win" => Reward::WinLoss,
            "win_split" => Reward::WinSplit,
            "adp" => Reward::Adp,
            other => {
                return Err(value_error(format!(
                    "reward must be 'score', 'win', 'win_split' or 'adp', not {other:?}"
                )))
            }
        };
        let reward_for = match reward_for {
            "seat" => RewardFor::Seat,
            "acting" => RewardFor::Acting,
            other => {
                return Err(value_error(format!(
                    "reward_for must be 'seat' or 'acting', not {other:?}"
                )))
            }
        };
        let api = match step_api {
            "done" => StepApi::Done,
            "gymnasium" => StepApi::Gymnasium,
            other => {
                return Err(value_error(format!(
                    "step_api must be 'done' or 'gymnasium', not {other:?}"
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
        // A mask is made of the ids, and so are the padded ids: asking for
        // either numbers the actions too.
        let douzero = match features {
            None => false,
            Some("douzero") => true,
            Some(other) => {
                return Err(value_error(format!(
                    "features must be None or 'douzero', not {other:?}"
                )))
            }
        };
        let max_actions = crate::padded::Width::of(max_actions, rules.get().engine().rules())?;
        let legal_ids = legal_ids || action_mask || max_actions.is_some();
        let opening = opening_of(protocol)?;
        let protocol = if protocol == "full" {
            "full"
        } else {
            "douzero"
        };
        let players = rules.get().engine().rules().players as usize;
        let seating = learner_seating(players, seats, opponents, opening)?;
        let table = match legal_ids {
            true => Some(Py::new(py, PyActionTable::of(py, &rules)?)?),
            false => None,
        };
        let options = Options {
            history,
            reward,
            reward_for,
            // A seat that searches takes milliseconds a decision: every core,
            // whatever the batch (the envs step one a task then).
            threads: threads.unwrap_or_else(|| match seating.seating.seats().searches() {
                true => ddz_core::batch::default_threads(),
                false => ddz_core::vecenv::default_threads_for(num_envs),
            }),
            seating: Some(seating.seating),
            limits: Limits {
                max_redeals,
                max_decisions,
            },
            ids: table.as_ref().map(|t| t.get().table.clone()),
            mask: action_mask,
            final_obs,
            douzero,
        };
        let engine = rules.get().shared_engine();
        let mut env = py
            .detach(|| {
                VecEnv::built(
                    engine,
                    num_envs,
                    seed,
                    0,
                    ddz_core::vecenv::Dealing::Series,
                    options,
                )
            })
            .map_err(value_error)?;
        py.detach(|| env.reset_begin(None));
        answer_externals(py, &mut env, &seating.externals)?;
        py.detach(|| env.finish(None)).map_err(value_error)?;
        Ok(PyVecEnv {
            names: Names::new(py, &env),
            env,
            externals: seating.externals,
            table,
            api,
            protocol,
            copy,
            shared: None,
            max_actions,
        })
    }

    /// Every env to the first deal of its series; returns the observations.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        slf: Bound<'py, Self>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let py = slf.py();
        let seed = seed.filter(|s| !s.is_none()).map(seed_of).transpose()?;
        {
            let mut this = slf.borrow_mut();
            let env = &mut this.env;
            py.detach(|| env.reset_begin(seed));
        }
        Self::answer(&slf)?;
        Self::finish(&slf)?;
        slf.borrow().obs(py)
    }

    /// One action per env (a legal index, or with `by="id"` an action id)
    /// -> `(obs, rewards, done, info)`, or with `step_api="gymnasium"`
    /// `(obs, rewards, terminated, truncated, info)`. An env that numbers
    /// its actions (`legal_ids`, `action_mask`, `max_actions`) needs `by`
    /// named: an id read as an index would play another action silently.
    #[pyo3(signature = (actions, *, by = None))]
    fn step<'py>(
        slf: Bound<'py, Self>,
        actions: &Bound<'py, PyAny>,
        by: Option<&str>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let by = match by {
            Some(by) => by,
            None if slf.borrow().table.is_some() => {
                return Err(PyTypeError::new_err(
                    "this env numbers its actions (legal_ids, action_mask or max_actions): \
                     say how to read them, step(actions, by=\"id\") for action ids or \
                     by=\"index\" for legal indices",
                ))
            }
            None => "index",
        };
        let indices = slf.borrow().indices(actions, by)?;
        {
            let mut this = slf.borrow_mut();
            let env = &mut this.env;
            py.detach(|| env.begin_step(&indices))
                .map_err(|e| crate::errors::illegal_action(e, Default::default()))?;
        }
        Self::answer(&slf)?;
        Self::finish(&slf)?;
        slf.borrow().step_result(py)
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
        for f in &self.externals {
            visit.call(f)?;
        }
        if let Some(t) = &self.table {
            visit.call(t)?;
        }
        match &self.shared {
            Some(sh) => sh.visit(&visit),
            None => Ok(()),
        }
    }

    fn __clear__(&mut self) {
        self.shared = None;
        self.externals.clear();
        self.table = None;
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

    /// The seats the learner plays (every seat unless `seats` named some).
    #[getter]
    fn seats(&self) -> Vec<usize> {
        self.env.seating().learner_seats().collect()
    }

    /// How a deal opens: "full" (the auction) or "douzero".
    #[getter]
    fn protocol(&self) -> &'static str {
        self.protocol
    }

    #[getter]
    fn reward_for(&self) -> &'static str {
        match self.env.options().reward_for {
            RewardFor::Seat => "seat",
            RewardFor::Acting => "acting",
        }
    }

    #[getter]
    fn max_redeals(&self) -> Option<u32> {
        self.env.options().limits.max_redeals
    }

    /// The padded width `C` of `padded_*` (`"step"`: each step as wide as its
    /// widest env; None: no padded tensors).
    #[getter]
    fn max_actions<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        use crate::padded::Width;
        Ok(match self.max_actions {
            None => None,
            Some(Width::Fixed(c)) => Some(c.into_pyobject(py)?.into_any()),
            Some(Width::Step) => Some("step".into_pyobject(py)?.into_any()),
        })
    }

    /// The extra features written (`"douzero"`), or None.
    #[getter]
    fn features(&self) -> Option<&'static str> {
        self.env.douzero().map(|_| "douzero")
    }

    #[getter]
    fn max_decisions(&self) -> Option<u32> {
        self.env.options().limits.max_decisions
    }

    #[getter]
    fn step_api(&self) -> &'static str {
        match self.api {
            StepApi::Done => "done",
            StepApi::Gymnasium => "gymnasium",
        }
    }

    /// The fixed action ids of `legal_ids` (None unless `legal_ids` or
    /// `action_mask`).
    #[getter]
    fn action_table(&self, py: Python<'_>) -> Option<Py<PyActionTable>> {
        self.table.as_ref().map(|t| t.clone_ref(py))
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

    /// Env `i`'s deal as `seat` sees it now, in the observation's array
    /// form (one row of each key, no legal actions): any seat, not only
    /// the one to act (the PettingZoo parallel form shows every agent).
    fn observe_seat<'py>(
        &self,
        py: Python<'py>,
        i: usize,
        seat: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        let view = self.env.view(i, seat).ok_or_else(|| {
            value_error(format!(
                "no env {i} seat {seat}: there are {} envs of {} seats",
                self.env.num_envs(),
                self.env.dims().players
            ))
        })?;
        let d = ddz_core::vecenv::arrays::Dims {
            envs: 1,
            ..self.env.dims()
        };
        let out = PyDict::new(py);
        for (k, (_, c, shape)) in self.names.obs.iter().zip(view.columns(&d)) {
            out.set_item(k.bind(py), array(py, c, &shape[1..])?)?;
        }
        Ok(out)
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
        let seats = self.seats();
        let learner = match seats.len() == self.env.dims().players {
            true => String::new(),
            false => format!(", seats={seats:?}"),
        };
        format!(
            "VecEnv({:?}, num_envs={}, seed={}, threads={}{learner}{})",
            self.env.engine().rules().preset,
            self.env.num_envs(),
            self.env.seed(),
            self.env.options().threads,
            if self.copy { "" } else { ", copy=False" }
        )
    }
}
