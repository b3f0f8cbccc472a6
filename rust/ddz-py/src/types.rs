//! The Python classes: `Rules`, `Cards`, `Move`.

use crate::convert::{deck_cards, optional_play, play_from};
use crate::errors::{card_error, core_rules_error, option_error, rules_error};
use crate::movelist::MoveList;
use ddz_core::{Cards, Engine, Move, Rules};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyCFunction, PyDict, PyList, PyType};
use std::ffi::{CStr, CString};
use std::sync::Arc;

/// A multiset of cards as a count vector over 3..2, X, D, L.
#[pyclass(name = "Cards", module = "ddz", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyCards(pub Cards);

#[pymethods]
impl PyCards {
    #[new]
    fn new(cards: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyCards(crate::convert::cards_from(cards)?))
    }

    /// One count per slot 3 4 5 6 7 8 9 T J Q K A 2 X D L, as numpy uint8.
    #[getter]
    fn counts<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        PyArray1::from_slice(py, &self.0 .0)
    }

    fn __len__(&self) -> usize {
        self.0.len()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Cards('{}')", self.0)
    }

    /// True when every card of `other` is in these cards.
    fn contains(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.0.contains(&crate::convert::cards_from(other)?))
    }
}

/// One reading of a play.
#[pyclass(name = "Move", module = "ddz", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyMove(pub Move);

#[pymethods]
impl PyMove {
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind.id()
    }
    #[getter]
    fn cards(&self) -> PyCards {
        PyCards(self.0.cards)
    }
    #[getter]
    fn represents(&self) -> PyCards {
        PyCards(self.0.represents)
    }
    #[getter]
    fn rank(&self) -> String {
        self.0.rank_symbol().to_string()
    }
    #[getter]
    fn length(&self) -> u8 {
        self.0.length
    }
    /// Bombs and king bombs.
    #[getter]
    fn is_bomb(&self) -> bool {
        self.0.kind.is_bomb()
    }
    fn __len__(&self) -> usize {
        self.0.cards.len()
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!(
            "Move('{}', kind='{}', rank='{}', length={})",
            self.0,
            self.0.kind.id(),
            self.0.rank_symbol(),
            self.0.length
        )
    }
}

/// A rule set: a preset with options, compiled for play.
#[pyclass(name = "Rules", module = "ddz", frozen)]
pub struct PyRules {
    engine: Arc<Engine>,
}

fn json_module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    py.import("json")
}

/// Each option as JSON (NaN and infinities refused), named in any error,
/// with its Python repr for messages (`10**30` shows as given, not as the
/// JSON float it reads as).
fn given_options(
    py: Python<'_>,
    options: &Bound<'_, PyDict>,
    preset: &str,
) -> PyResult<Vec<(String, serde_json::Value, String)>> {
    let json = json_module(py)?;
    let strict = PyDict::new(py);
    strict.set_item("allow_nan", false)?;
    let mut out = Vec::with_capacity(options.len());
    for (name, value) in options.iter() {
        let name: String = name.extract()?;
        let shown = value.repr()?.to_string();
        let bad = |why: String| {
            let message =
                format!("bad value {shown} for option {name:?} of preset {preset:?}: {why}");
            option_error(message, &name, Some(shown.clone()), None)
        };
        let text: String = json
            .call_method("dumps", (&value,), Some(&strict))
            .map_err(|e| bad(format!("not a plain JSON value ({})", e.value(py))))?
            .extract()?;
        let parsed = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        out.push((name, parsed, shown));
    }
    Ok(out)
}

/// Compile a rule set, refusing one the table could not play to the end
/// (the family's check), before any deal starts.
fn build(rules: Rules) -> PyResult<PyRules> {
    rules.check().map_err(|e| core_rules_error(&e, None))?;
    let engine = Engine::new(rules).map_err(|e| core_rules_error(&e, None))?;
    Ok(PyRules {
        engine: Arc::new(engine),
    })
}

pub(crate) fn to_list<'py>(py: Python<'py>, moves: &[Move]) -> PyResult<Bound<'py, PyList>> {
    let items = moves
        .iter()
        .map(|&m| Bound::new(py, PyMove(m)))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

impl PyRules {
    /// A rule set built in Rust, checked as `Rules(...)` checks it.
    pub fn of(rules: Rules) -> PyResult<PyRules> {
        build(rules)
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The compiled rule set, shared (a table holds one).
    pub fn shared_engine(&self) -> Arc<Engine> {
        self.engine.clone()
    }
}

/// Give `Rules` one read-only property per option the core declares
/// (`ddz_core::rules::OPTIONS`), made from the declaration at import: the
/// declaration is the only list of options, so a new one needs nothing
/// here. Each gives the option's value as `to_dict()` holds it (a word
/// option its word, `king_bombs` a list of dicts).
pub(crate) fn add_option_getters(class: &Bound<'_, PyType>) -> PyResult<()> {
    let py = class.py();
    let property = py.import("builtins")?.getattr("property")?;
    for spec in ddz_core::rules::OPTIONS {
        let get = spec.get;
        // Named as the option, so that a traceback says which getter ran;
        // made once per import.
        let name: &'static CStr = Box::leak(
            CString::new(spec.name)
                .expect("an identifier")
                .into_boxed_c_str(),
        );
        let fget = PyCFunction::new_closure(
            py,
            Some(name),
            None,
            move |args, _| -> PyResult<Py<PyAny>> {
                let this = args.get_item(0)?;
                let rules = this.cast::<PyRules>()?;
                let value = get(rules.get().engine.rules());
                Ok(crate::table::to_py(args.py(), &value)?.unbind())
            },
        )?;
        let doc = spec.doc.split_whitespace().collect::<Vec<_>>().join(" ");
        class.setattr(
            spec.name,
            property.call1((fget, py.None(), py.None(), doc))?,
        )?;
    }
    Ok(())
}

#[pymethods]
impl PyRules {
    /// `Rules(preset="classic", **options)`: a preset with options overridden.
    #[new]
    #[pyo3(signature = (preset = "classic", **options))]
    fn new(py: Python<'_>, preset: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        // An unknown preset first, before any option's value is read.
        Rules::with_options(preset, &[]).map_err(|e| core_rules_error(&e, None))?;
        let given = match options {
            Some(options) => given_options(py, options, preset)?,
            None => Vec::new(),
        };
        let values: Vec<(&str, serde_json::Value)> = given
            .iter()
            .map(|(name, value, _)| (name.as_str(), value.clone()))
            .collect();
        let rules = Rules::with_options(preset, &values).map_err(|e| {
            // A bad value shows as the caller wrote it.
            let shown = given
                .iter()
                .find(|(name, ..)| Some(name.as_str()) == e.option())
                .map(|(.., shown)| shown.as_str());
            core_rules_error(&e, shown)
        })?;
        build(rules)
    }

    /// A rule set from a dict made by `to_dict()` (every option present).
    #[staticmethod]
    fn from_dict(py: Python<'_>, d: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text: String = json_module(py)?
            .call_method1("dumps", (d,))
            .map_err(|e| rules_error(format!("rules must be a plain JSON dict: {e}")))?
            .extract()?;
        Self::from_json(&text)
    }

    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        let rules = Rules::from_json(text).map_err(|e| core_rules_error(&e, None))?;
        build(rules)
    }

    /// Every rule option as declared in the core: name, type, doc, the
    /// flows that read it, the record format it first appeared in and its
    /// value in each preset (docs/rules.md#options).
    #[staticmethod]
    fn options(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
        let presets: Vec<Rules> = ddz_core::PRESETS
            .iter()
            .map(|p| Rules::preset(p).expect("a preset"))
            .collect();
        let out = PyList::empty(py);
        for spec in ddz_core::rules::OPTIONS {
            let d = PyDict::new(py);
            d.set_item("name", spec.name)?;
            d.set_item("type", spec.kind.name())?;
            d.set_item("words", spec.kind.words().map(<[&str]>::to_vec))?;
            let (low, high) = match spec.kind {
                ddz_core::options::OptionKind::Int { min, max } => (Some(min), Some(max)),
                _ => (None, None),
            };
            d.set_item("min", low)?;
            d.set_item("max", high)?;
            d.set_item(
                "doc",
                spec.doc.split_whitespace().collect::<Vec<_>>().join(" "),
            )?;
            let flows: Vec<&str> = spec.read_by.flows().iter().map(|f| f.name()).collect();
            d.set_item("flows", flows)?;
            d.set_item("since", spec.format())?;
            let defaults = PyDict::new(py);
            for (name, rules) in ddz_core::PRESETS.iter().zip(&presets) {
                defaults.set_item(name, crate::table::to_py(py, &(spec.get)(rules))?)?;
            }
            d.set_item("defaults", defaults)?;
            out.append(d)?;
        }
        Ok(out)
    }

    fn to_json(&self) -> String {
        self.engine.rules().to_json()
    }

    /// Every option as a plain, JSON-serialisable dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_module(py)?.call_method1("loads", (self.to_json(),))
    }

    /// The roles this rule set's observations hold, in their order: one
    /// dict each (docs/roles.md).
    fn roles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let rules = self.engine.rules();
        let out = PyList::empty(py);
        for spec in ddz_core::table::role_specs(rules) {
            let d = PyDict::new(py);
            d.set_item("key", spec.key)?;
            d.set_item("type", spec.ty.name())?;
            d.set_item("doc", spec.doc)?;
            d.set_item("seen", spec.seen)?;
            let label = PyDict::new(py);
            label.set_item("en", spec.label[0])?;
            label.set_item("zh", spec.label[1])?;
            d.set_item("label", label)?;
            let bounds = ddz_core::table::roles::column_bounds(spec.ty, rules.players as usize);
            d.set_item("column_bounds", bounds)?;
            out.append(d)?;
        }
        Ok(out)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyRules>()
            .is_ok_and(|o| o.get().engine.rules() == self.engine.rules())
    }

    fn __repr__(&self) -> String {
        format!("Rules('{}')", self.engine.rules().preset)
    }

    /// Cards checked against this rule set's deck.
    fn cards(&self, cards: &Bound<'_, PyAny>) -> PyResult<PyCards> {
        let c = crate::convert::cards_from(cards)?;
        self.engine.check_cards(&c).map_err(card_error)?;
        Ok(PyCards(c))
    }

    /// Every reading of these cards as one play (empty if none).
    fn classify<'py>(
        &self,
        py: Python<'py>,
        cards: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let c = deck_cards(&self.engine, cards)?;
        to_list(py, &self.engine.classify(&c))
    }

    /// Every distinct legal play from `hand` (answering `prev` when given).
    #[pyo3(signature = (hand, prev = None))]
    fn moves<'py>(
        &self,
        py: Python<'py>,
        hand: &Bound<'py, PyAny>,
        prev: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<MoveList> {
        let _ = py;
        let hand = deck_cards(&self.engine, hand)?;
        let prev = optional_play(&self.engine, prev)?;
        Ok(MoveList::new(self.engine.moves(&hand, prev.as_ref())))
    }

    /// `len(moves(hand, prev))`, without building the plays.
    #[pyo3(signature = (hand, prev = None))]
    fn count_moves(
        &self,
        hand: &Bound<'_, PyAny>,
        prev: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let hand = deck_cards(&self.engine, hand)?;
        let prev = optional_play(&self.engine, prev)?;
        Ok(self.engine.count_moves(&hand, prev.as_ref()))
    }

    /// The plays of `moves`, ordered as a game UI suggests them.
    #[pyo3(signature = (hand, prev = None))]
    fn hint<'py>(
        &self,
        py: Python<'py>,
        hand: &Bound<'py, PyAny>,
        prev: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<MoveList> {
        let _ = py;
        let hand = deck_cards(&self.engine, hand)?;
        let prev = optional_play(&self.engine, prev)?;
        Ok(MoveList::new(self.engine.hint(&hand, prev.as_ref())))
    }

    /// Counts for a batch of hands (numpy `uint8[N, 16]`) -> `int64[N]`.
    #[pyo3(signature = (hands, prevs = None, threads = None))]
    fn count_moves_batch<'py>(
        &self,
        py: Python<'py>,
        hands: &Bound<'py, PyAny>,
        prevs: Option<&Bound<'py, PyAny>>,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, numpy::PyArray1<i64>>> {
        crate::batch::count_moves_batch(py, &self.engine, hands, prevs, threads)
    }

    /// Plays for a batch of hands in CSR layout: `(offsets int64[N+1], plays uint8[M, 16])`.
    #[pyo3(signature = (hands, prevs = None, threads = None))]
    #[allow(clippy::type_complexity)]
    fn moves_batch<'py>(
        &self,
        py: Python<'py>,
        hands: &Bound<'py, PyAny>,
        prevs: Option<&Bound<'py, PyAny>>,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(
        Bound<'py, numpy::PyArray1<i64>>,
        Bound<'py, numpy::PyArray2<u8>>,
    )> {
        crate::batch::moves_batch(py, &self.engine, hands, prevs, threads)
    }

    /// Solve an open-hand position exactly (two or three hands); see docs/solver.md.
    #[pyo3(signature = (hands, to_move = 0, prev = None, forbid = None, max_nodes = None, *, max_seconds = None, all = false, prev_by = None, max_memory = None, threads = None, line = false))]
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &self,
        py: Python<'_>,
        hands: &Bound<'_, PyAny>,
        to_move: i64,
        prev: Option<&Bound<'_, PyAny>>,
        forbid: Option<&Bound<'_, PyAny>>,
        max_nodes: Option<i64>,
        max_seconds: Option<f64>,
        all: bool,
        prev_by: Option<i64>,
        max_memory: Option<i64>,
        threads: Option<&Bound<'_, PyAny>>,
        line: bool,
    ) -> PyResult<crate::solve::PySolution> {
        crate::solve::solve(
            py,
            &self.engine,
            hands,
            to_move,
            prev,
            forbid,
            max_nodes,
            max_seconds,
            all,
            prev_by,
            max_memory,
            threads,
            line,
        )
    }

    /// Does play `a` beat play `b`?
    fn beats(&self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
        let a = play_from(&self.engine, a)?;
        let b = play_from(&self.engine, b)?;
        Ok(self.engine.beats(&a, &b))
    }
}
