//! `Table`: the core's steppable deal, for `ddz.Game`. Conversions only:
//! every rule lives in `ddz_core::table`.

use crate::convert::value_error;
use crate::errors::{card_error, illegal_action, record_error, Detail};
use crate::observe::{
    history_entry, new_list, refill_list, CardTexts, HistoryLists, KeptDict, Refill, StaticStrs,
    Target,
};
use crate::types::{PyCards, PyMove, PyRules};
use ddz_core::table::{physical::identities, Action, Observation, Phase, Table};
use ddz_core::table::{report_layout, Record, RecordError, RoleSpec, RoleValue};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PySlice, PyString};
use serde_json::Value;

/// A JSON value as the Python value `json.loads` would give.
pub(crate) fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.into_pyobject(py)?.into_any(),
            None => n.as_f64().unwrap_or(0.0).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let out = PyList::empty(py);
            for item in items {
                out.append(to_py(py, item)?)?;
            }
            out.into_any()
        }
        Value::Object(fields) => {
            let out = PyDict::new(py);
            for (k, item) in fields {
                out.set_item(k, to_py(py, item)?)?;
            }
            out.into_any()
        }
    })
}

/// A plain Python value as JSON (through `json.dumps`).
fn from_py(ob: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    let text: String = ob
        .py()
        .import("json")?
        .call_method1("dumps", (ob,))
        .map_err(|e| card_error(format!("{what} must be plain JSON values: {e}")))?
        .extract()?;
    serde_json::from_str(&text).map_err(card_error)
}

/// An action as `Game` hands it out: a `Move` for a play, else its word.
pub(crate) fn action_to_py<'py>(py: Python<'py>, a: &Action) -> PyResult<Bound<'py, PyAny>> {
    match a {
        Action::Play(m) => Ok(Bound::new(py, PyMove(*m))?.into_any()),
        word => Ok(PyString::new(py, &word.to_string()).into_any()),
    }
}

/// The action a Python value is, if it is one of `actions`' kind.
pub(crate) fn action_from(ob: &Bound<'_, PyAny>) -> Option<Action> {
    if let Ok(m) = ob.cast::<PyMove>() {
        return Some(Action::Play(m.get().0));
    }
    ob.cast::<PyString>()
        .ok()
        .and_then(|s| Action::parse(s.to_str().ok()?))
}

/// The index `ddz.agents.GreedyAgent` takes among `legal` (a moment's
/// actions in `Game`'s order): the core's greedy player decides.
#[pyfunction]
pub(crate) fn greedy_choice(legal: &Bound<'_, PyAny>) -> PyResult<usize> {
    let actions: Vec<Option<Action>> = if let Ok(list) = legal.cast::<ActionList>() {
        let play_as_none = |a: &Action| (!matches!(a, Action::Play(_))).then_some(*a);
        list.get().actions.iter().map(play_as_none).collect()
    } else {
        let mut out = Vec::new();
        for item in legal.try_iter()? {
            let item = item?;
            match action_from(&item) {
                Some(Action::Play(_)) => out.push(None),
                Some(word) => out.push(Some(word)),
                None => return Err(value_error(format!("{item} is not an action"))),
            }
        }
        out
    };
    if actions.is_empty() {
        return Err(value_error("no legal action to choose from"));
    }
    Ok(ddz_core::policy::greedy_in_order(&actions))
}

/// The legal actions of a moment, in `Game`'s order, as an immutable
/// sequence: a play becomes a `Move` only when read.
#[pyclass(name = "ActionList", module = "ddz", frozen, sequence)]
pub struct ActionList {
    actions: Vec<Action>,
}

#[pymethods]
impl ActionList {
    fn __len__(&self) -> usize {
        self.actions.len()
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(slice) = index.cast::<PySlice>() {
            let idx = slice.indices(self.actions.len() as isize)?;
            let out = PyList::empty(py);
            for i in 0..idx.slicelength {
                let at = (idx.start + i as isize * idx.step) as usize;
                out.append(action_to_py(py, &self.actions[at])?)?;
            }
            return Ok(out.into_any());
        }
        let i: isize = index.extract()?;
        let n = self.actions.len() as isize;
        let at = if i < 0 { i + n } else { i };
        if !(0..n).contains(&at) {
            return Err(PyIndexError::new_err("ActionList index out of range"));
        }
        action_to_py(py, &self.actions[at as usize])
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.to_list(py)?.try_iter().map(|it| it.into_any())
    }

    fn __contains__(&self, item: &Bound<'_, PyAny>) -> bool {
        action_from(item).is_some_and(|a| self.actions.contains(&a))
    }

    /// Equal to another `ActionList` or to any sequence of the same actions.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(o) = other.cast::<ActionList>() {
            return o.get().actions == self.actions;
        }
        let Ok(items) = other.extract::<Vec<Bound<'_, PyAny>>>() else {
            return false;
        };
        items.len() == self.actions.len()
            && items
                .iter()
                .zip(&self.actions)
                .all(|(item, a)| action_from(item) == Some(*a))
    }

    fn index(&self, item: &Bound<'_, PyAny>) -> PyResult<usize> {
        action_from(item)
            .and_then(|a| self.actions.iter().position(|x| *x == a))
            .ok_or_else(|| PyValueError::new_err("action is not in the list"))
    }

    fn count(&self, item: &Bound<'_, PyAny>) -> usize {
        action_from(item).map_or(0, |a| self.actions.iter().filter(|x| **x == a).count())
    }

    /// Every action as `VecEnv`'s legal columns (docs/rl.md): `cards`,
    /// `represents` (`uint8[len, 16]`, zeros for words), `kind`, `rank`,
    /// `length` (`int8[len]`), for adapters that read a moment in numpy.
    fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        crate::movelist::columns(py, &self.actions)
    }

    /// A plain list of the actions.
    fn to_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items = self
            .actions
            .iter()
            .map(|a| action_to_py(py, a))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    fn __repr__(&self) -> String {
        let shown: Vec<String> = self.actions.iter().take(8).map(|a| a.to_string()).collect();
        let more = if self.actions.len() > 8 { ", …" } else { "" };
        format!(
            "ActionList([{}{more}], len={})",
            shown.join(", "),
            self.actions.len()
        )
    }
}

/// An observation as the dict `Game.observation` returns (docs/game.md).
pub(crate) fn observation_to_py<'py>(
    py: Python<'py>,
    obs: &Observation,
    preset: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let history = PyList::empty(py);
    for (s, a) in &obs.history {
        history.append(history_entry(py, *s, PyString::new(py, &a.to_string()))?)?;
    }
    let names = &mut StaticStrs::default();
    let roles = role_items(py, obs.role_specs, &obs.roles, names)?;
    let text = |cards: &[ddz_core::table::Card]| PyString::new(py, &identities(cards));
    let cards = Spelled {
        hand: text(&obs.hand),
        kitty: obs.kitty.as_deref().map(text),
    };
    let preset = PyString::new(py, preset);
    let d = observation_dict(py, obs, &preset, history, roles, cards, names, None)?;
    Ok(d.into_any())
}

/// An observation's own hand and, when it may see it, the kitty, spelled.
struct Spelled<'py> {
    hand: Bound<'py, PyString>,
    kitty: Option<Bound<'py, PyString>>,
}

/// The dict of `obs`, its history, roles and cards already built: a fresh
/// one, or a dropped observation's dict taken back (`refill`), filled again
/// in place by the same code.
#[allow(clippy::too_many_arguments)]
fn observation_dict<'py>(
    py: Python<'py>,
    obs: &Observation,
    preset: &Bound<'py, PyString>,
    history: Bound<'py, PyList>,
    roles: Vec<(Bound<'py, PyString>, Bound<'py, PyAny>)>,
    cards: Spelled<'py>,
    names: &mut StaticStrs,
    refill: Option<Refill<'py>>,
) -> PyResult<Bound<'py, PyDict>> {
    let Ok(seat) = obs.seat.into_pyobject(py);
    let Ok(to_act) = obs.to_act.into_pyobject(py);
    let sizes = obs.hand_sizes.iter().map(|&n| {
        let Ok(n) = n.into_pyobject(py);
        n.into_any()
    });
    let beaten = obs.to_beat.map(Action::Play).into_iter();
    let mut plays = beaten.chain(obs.legal.iter().flatten().copied());
    let texts = crate::observe::action_texts(py, &mut plays);
    let mut texts = texts.into_iter();
    let to_beat = obs.to_beat.map(|_| texts.next());
    let (mut target, seen_kept, mut kept) = match refill {
        Some(r) => (r.target, r.seen_hands, [r.hand_sizes, r.events, r.legal]),
        None => (Target::fresh(py)?, None, [None, None, None]),
    };
    let [kept_sizes, kept_events, kept_legal] = &mut kept;
    let seen = match seen_kept {
        Some(d) => {
            if !d.is_empty() {
                d.clear();
            }
            d
        }
        None => PyDict::new(py),
    };
    if !obs.seen_hands.is_empty() {
        fill_seen(&seen, &obs.seen_hands)?;
    }
    let events = obs.events.iter().enumerate().map(|(at, e)| {
        let kept = kept_events.as_ref().map(|l| (l, at));
        crate::observe::event(py, names, e, kept)
    });
    let events = events.collect::<PyResult<Vec<_>>>()?;
    let result = match &obs.result {
        Some(r) => result_to_py(py, r)?,
        None => py.None().into_bound(py),
    };
    let none = || py.None().into_bound(py);
    let list = |kept: &mut Option<Bound<'py, PyList>>,
                items: &mut dyn ExactSizeIterator<Item = Bound<'py, PyAny>>|
     -> PyResult<Bound<'py, PyAny>> {
        match kept.take() {
            Some(l) => {
                refill_list(&l, items)?;
                Ok(l.into_any())
            }
            None => Ok(new_list(py, items)?.into_any()),
        }
    };
    let first: [Bound<'py, PyAny>; crate::observe::KEYS.len()] = [
        seat.into_any(),
        preset.clone().into_any(),
        phase_name(py, obs.phase).clone().into_any(),
        to_act.into_any(),
        cards.hand.into_any(),
        list(kept_sizes, &mut sizes.into_iter())?,
        cards.kitty.map_or_else(none, Bound::into_any),
        seen.into_any(),
        history.into_any(),
        to_beat.flatten().map_or_else(none, Bound::into_any),
        list(kept_events, &mut events.into_iter())?,
        result,
    ];
    let legal = match obs.legal {
        Some(_) => Some(list(kept_legal, &mut texts.map(Bound::into_any))?),
        None => None,
    };
    target.put_first(&first)?;
    for (k, v) in &roles {
        target.put(k, v)?;
    }
    if let Some(words) = &legal {
        target.put(intern!(py, "legal_actions"), words)?;
    }
    Ok(target.into_dict())
}

// The rarely taken paths below are kept out of line, so the code every
// observation runs stays small (instruction-cache misses, not
// instructions, are most of what an observation costs).

/// The hands `seat_hands` shows, into `seen` (five- and six-player only).
#[inline(never)]
fn fill_seen(
    seen: &Bound<'_, PyDict>,
    hands: &[(usize, Vec<ddz_core::table::Card>)],
) -> PyResult<()> {
    for (s, h) in hands {
        seen.set_item(s.to_string(), identities(h))?;
    }
    Ok(())
}

/// A deal's result, once over.
#[cold]
#[inline(never)]
fn result_to_py<'py>(
    py: Python<'py>,
    r: &ddz_core::table::Settlement,
) -> PyResult<Bound<'py, PyAny>> {
    to_py(py, &r.to_json())
}

/// A phase's name as a Python str made once (read at every step).
fn phase_name(py: Python<'_>, phase: Phase) -> &Bound<'_, PyString> {
    static NAMES: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();
    let names = NAMES.get_or_init(py, || {
        let name = |p: &Phase| PyString::intern(py, p.name()).unbind();
        Phase::ALL.iter().map(name).collect()
    });
    names[phase.id() as usize].bind(py)
}

/// An action's text as a Python str (a fixed word without formatting).
pub(crate) fn action_text<'py>(py: Python<'py>, a: &Action) -> Bound<'py, PyString> {
    match (a.word(), a) {
        (Some(w), _) => PyString::new(py, w),
        // A play without laizi is its cards.
        (None, Action::Play(m)) if m.cards == m.represents => PyString::new(py, &m.cards.text()),
        (None, _) => PyString::new(py, &a.to_string()),
    }
}

/// One deal of a preset on the core's table (docs/table.md).
#[pyclass(name = "Table", module = "ddz", subclass)]
pub struct PyTable {
    table: Table,
    history_lists: HistoryLists,
    /// Role keys and event names, interned.
    names: StaticStrs,
    card_texts: CardTexts,
    /// The preset's name, made once for every observation.
    preset: Py<PyString>,
    kept: KeptDict,
}

/// The `ValueError` for a seat that is not one.
#[cold]
#[inline(never)]
fn bad_seat(seat: &Bound<'_, PyAny>, n: usize) -> PyErr {
    let shown = seat.repr().map(|r| r.to_string()).unwrap_or_default();
    value_error(format!(
        "seat must be an int from 0 to {}, not {shown}",
        n - 1
    ))
}

/// A role's value as Python holds it: `None`, an int, a bool or a str
/// without JSON on the way; the rest (lists, dicts) through their JSON.
pub(crate) fn role_to_py<'py>(py: Python<'py>, v: &RoleValue) -> PyResult<Bound<'py, PyAny>> {
    let int = |x: i64| {
        x.into_pyobject(py)
            .map_or_else(|e| match e {}, Bound::into_any)
    };
    Ok(match v {
        RoleValue::Unknown => py.None().into_bound(py),
        RoleValue::Seat(s) => int(*s as i64),
        RoleValue::Count(x) => int(*x),
        RoleValue::Flag(b) => pyo3::types::PyBool::new(py, *b).to_owned().into_any(),
        RoleValue::Word(w) => PyString::intern(py, w).into_any(),
        other => to_py(py, &other.to_json())?,
    })
}

/// The roles of an observation as (key, value) items, in the specs' order.
fn role_items<'py>(
    py: Python<'py>,
    specs: &[RoleSpec],
    values: &[RoleValue],
    names: &mut StaticStrs,
) -> PyResult<Vec<(Bound<'py, PyString>, Bound<'py, PyAny>)>> {
    let items = specs.iter().zip(values);
    items
        .map(|(spec, v)| Ok((names.get(py, spec.key), role_to_py(py, v)?)))
        .collect()
}

/// `IllegalAction` for `given` (the action as the caller wrote it), with
/// the seat to act, the phase and the legal actions as text.
fn illegal(t: &mut Table, given: String, e: impl std::fmt::Display) -> PyErr {
    let detail = Detail {
        text: Some(given),
        seat: Some(t.to_act()),
        phase: Some(t.phase().name()),
        allowed: Some(t.legal().iter().map(|a| a.to_string()).collect()),
        option: None,
    };
    illegal_action(e, detail)
}

#[pymethods]
impl PyTable {
    /// `Table(rules, seed=0, deals=None)`: deals from `deals` first (a
    /// list of deal dicts), then drawn from the seed.
    #[new]
    #[pyo3(signature = (rules, seed = 0, deals = None))]
    fn new(
        rules: &Bound<'_, PyRules>,
        seed: u64,
        deals: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let engine = rules.get().shared_engine();
        let mut given = Vec::new();
        if let Some(deals) = deals {
            let Value::Array(specs) = from_py(deals, "deals")? else {
                return Err(card_error("deals must be a list of deal dicts"));
            };
            for spec in &specs {
                given.push(Table::parse_deal(engine.rules(), spec).map_err(card_error)?);
            }
        }
        let rng = ddz_core::table::Rng::for_game(seed, 0);
        let table = Table::new(engine, rng, given).map_err(card_error)?;
        let preset = PyString::new(rules.py(), &table.rules().preset).unbind();
        Ok(PyTable {
            table,
            history_lists: HistoryLists::default(),
            names: StaticStrs::default(),
            card_texts: CardTexts::default(),
            preset,
            kept: KeptDict::default(),
        })
    }

    /// The phase's name, one interned str each (read at every step).
    #[getter]
    fn phase<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        phase_name(py, self.table.phase()).clone()
    }

    #[getter]
    fn to_act(&self) -> usize {
        self.table.to_act()
    }

    fn legal_actions(&mut self) -> ActionList {
        ActionList {
            actions: self.table.legal().iter().collect(),
        }
    }

    /// Take `action` (a `Move`, a play's text or a word); `cards` names the
    /// physical copies of a play. `IllegalAction` leaves the table as it was.
    #[pyo3(signature = (action, cards = None))]
    fn step(&mut self, action: &Bound<'_, PyAny>, cards: Option<&str>) -> PyResult<()> {
        let t = &mut self.table;
        let given = || action.str().map(|s| s.to_string()).unwrap_or_default();
        let resolved = if let Ok(m) = action.cast::<PyMove>() {
            let m = m.get().0;
            if cards.is_none() && t.apply(Action::Play(m)).is_ok() {
                return Ok(());
            }
            t.resolve_move(m, cards)
        } else if let Ok(s) = action.cast::<PyString>() {
            t.resolve_text(s.to_str()?, cards)
        } else {
            let why = format!(
                "a play is a Move, its text or 'pass', not {}",
                action.repr()?
            );
            let shown = action.repr()?.to_string();
            return Err(illegal(t, shown, why));
        };
        let applied = resolved.and_then(|(action, named)| t.apply_named(action, &named));
        applied.map_err(|e| illegal(t, given(), e))
    }

    /// Everything `seat` may know, and nothing more.
    fn observation<'py>(
        &mut self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let n = self.table.rules().players as usize;
        let seat = seat
            .extract::<usize>()
            .ok()
            .filter(|&s| s < n && !seat.is_instance_of::<pyo3::types::PyBool>())
            .ok_or_else(|| bad_seat(seat, n))?;
        let obs = self.table.observation_bare(seat);
        let roles = role_items(py, obs.role_specs, &obs.roles, &mut self.names)?;
        let role_keys = roles.iter().map(|(k, _)| k.as_ptr());
        let refill = self.kept.take_back(py, role_keys, obs.legal.is_some())?;
        let history = self.history_lists.list(py, &self.table, seat)?;
        let core = self.table.core();
        let texts = &mut self.card_texts;
        let cards = Spelled {
            hand: texts.hand(py, seat, &core.hands()[seat]),
            kitty: obs.kitty.as_deref().map(|k| texts.kitty(py, k)),
        };
        let preset = self.preset.bind(py);
        let names = &mut self.names;
        let d = observation_dict(py, &obs, preset, history, roles, cards, names, refill)?;
        self.kept.keep(&d);
        Ok(d.into_any())
    }

    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.table.result() {
            Some(r) => to_py(py, &r.to_json()),
            None => Ok(py.None().into_bound(py)),
        }
    }

    /// Answer the decisions before the play as DouZero's evaluation opens a
    /// deal (`ddz.simulate(..., opening="seat0")`): seat 0 takes the
    /// highest bid, the others pass, every option is declined.
    fn _open_seat0(&mut self) -> PyResult<()> {
        if self.table.rules().flow != ddz_core::rules::Flow::OneLandlord {
            return Err(value_error(
                "the seat-0 opening needs a one-landlord rule set".to_string(),
            ));
        }
        ddz_core::simulate::seats::open_for_seat_zero(&mut self.table);
        Ok(())
    }

    /// Once the deal is over, its roles as `ddz.simulate` reports them: the
    /// same keys for every rule set, seats (-1: none) or flags, a list where
    /// a column is wider than one (`table::report_layout`); else None.
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if !self.table.is_over() {
            return Ok(py.None().into_bound(py));
        }
        let report = self.table.report();
        let out = PyDict::new(py);
        out.set_item("landlord_won", report.landlord_won)?;
        for (column, at) in report_layout(self.table.rules()) {
            let pad = if column.flags { 0 } else { -1 };
            let values: Vec<i64> = match at {
                Some(at) => report.values[at..at + column.width].to_vec(),
                None => vec![pad; column.width],
            };
            let item = |v: i64| -> Bound<'py, PyAny> {
                match column.flags {
                    true => pyo3::types::PyBool::new(py, v != 0).to_owned().into_any(),
                    false => pyo3::types::PyInt::new(py, v).into_any(),
                }
            };
            match column.width {
                1 => out.set_item(column.key, item(values[0]))?,
                _ => out.set_item(column.key, PyList::new(py, values.into_iter().map(item))?)?,
            }
        }
        Ok(out.into_any())
    }

    /// Every deal so far, as records store them.
    #[getter]
    fn deals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for d in self.table.deals() {
            out.append(to_py(py, &d.to_json())?)?;
        }
        Ok(out)
    }

    /// Every action so far as `(seat, action, ids)`: the action a `Move`
    /// or a word, `ids` the identities of a play's cards (None for words).
    #[getter]
    fn actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for taken in self.table.actions() {
            let ids = taken
                .action
                .is_play()
                .then(|| identities(self.table.cards_of(taken)));
            out.append((taken.seat, action_to_py(py, &taken.action)?, ids))?;
        }
        Ok(out)
    }

    /// This deal's actions as `(seat, text)`.
    #[getter]
    fn history(&self) -> Vec<(usize, String)> {
        let h = &self.table.core().history();
        h.iter().map(|(s, a)| (*s, a.to_string())).collect()
    }

    /// Each seat's hand as card identities, low to high.
    #[getter]
    fn hands(&self) -> Vec<Vec<String>> {
        let hands = &self.table.core().hands();
        hands
            .iter()
            .map(|h| h.cards().iter().map(|c| c.to_string()).collect())
            .collect()
    }

    #[getter]
    fn kitty(&self) -> Vec<String> {
        self.table
            .core()
            .kitty()
            .iter()
            .map(|c| c.to_string())
            .collect()
    }

    /// This deal's cards set aside (never seen), as identities.
    #[getter]
    fn set_aside(&self) -> Vec<String> {
        let deal = self.table.deals().last();
        deal.map_or(Vec::new(), |d| {
            d.set_aside.iter().map(|c| c.to_string()).collect()
        })
    }

    /// Secrecy tests: swap card `a` of place `pa` with card `b` of place
    /// `pb`; a place is a seat, `"kitty"` or `"set_aside"`.
    fn _swap(
        &mut self,
        pa: &Bound<'_, PyAny>,
        a: &str,
        pb: &Bound<'_, PyAny>,
        b: &str,
    ) -> PyResult<()> {
        let n = self.table.rules().players as usize;
        let place = |p: &Bound<'_, PyAny>| -> PyResult<usize> {
            match p.extract::<String>() {
                Ok(s) if s == "kitty" => Ok(n),
                Ok(s) if s == "set_aside" => Ok(n + 1),
                Ok(s) => Err(value_error(format!("no place {s:?}"))),
                Err(_) => p.extract::<usize>(),
            }
        };
        let card = |text: &str| -> PyResult<ddz_core::table::Card> {
            match ddz_core::table::physical::parse_identities(text).map_err(value_error)?[..] {
                [n] => Ok(ddz_core::table::Card {
                    slot: n.slot,
                    suit: n.suit.unwrap_or(0),
                }),
                _ => Err(value_error(format!("one card, not {text:?}"))),
            }
        };
        self.table
            .swap_cards(place(pa)?, card(a)?, place(pb)?, card(b)?)
            .map_err(value_error)
    }

    #[getter]
    fn kitty_given(&self) -> bool {
        self.table.core().kitty_given()
    }

    /// The record so far as JSON text (`Game.to_json`), its deals drawn
    /// from `seed` (any int, kept as given).
    fn _record_json(&self, seed: &Bound<'_, PyAny>) -> PyResult<String> {
        let seed = seed.cast::<pyo3::types::PyInt>()?.str()?.to_string();
        Ok(Record::of(&self.table, &seed).to_json())
    }

    /// `cls` (Game) at the end of a record's text: the record read and its
    /// actions replayed in Rust; a bad record is a `RecordError` saying why.
    /// With `each`, it is called with the game before the first action and
    /// after every one, with `(seat, action text)` (None before the first).
    #[classmethod]
    #[pyo3(signature = (text, each = None))]
    fn _from_record<'py>(
        cls: &Bound<'py, pyo3::types::PyType>,
        text: &Bound<'py, PyAny>,
        each: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = cls.py();
        let text: String = if let Ok(s) = text.cast::<PyString>() {
            s.to_str()?.to_string()
        } else if text.is_instance_of::<pyo3::types::PyBytes>()
            || text.is_instance_of::<pyo3::types::PyByteArray>()
        {
            let bytes: Vec<u8> = text.extract()?;
            String::from_utf8(bytes).map_err(|e| {
                record_error(&RecordError::text(format!(
                    "a game record is JSON text: {e}"
                )))
            })?
        } else {
            let kind = text.get_type().name()?;
            return Err(record_error(&RecordError::text(format!(
                "a game record is JSON text, not {kind}"
            ))));
        };
        let record = Record::parse(&text).map_err(|e| record_error(&e))?;
        let bad = |e: PyErr| {
            let why = RecordError::text(format!("the record's rules or deals: {}", e.value(py)));
            let err = record_error(&why);
            err.set_cause(py, Some(e));
            err
        };
        let rules = crate::types::PyRules::of(record.rules.clone()).map_err(bad)?;
        let int = py.import("builtins")?.getattr("int")?;
        let seed = int.call1((record.seed.as_str(),))?; // digits, any size
        let deals = to_py(py, &Value::Array(record.deals.clone()))?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("_deals", deals)?;
        let game = cls.call((rules, seed), Some(&kwargs)).map_err(bad)?;
        let Some(each) = each else {
            let mut table = game.cast::<PyTable>()?.borrow_mut();
            record
                .take_actions(&mut table.table)
                .map_err(|e| record_error(&e))?;
            drop(table);
            return Ok(game);
        };
        each.call1((&game, py.None()))?;
        for i in 0..record.actions.len() {
            {
                let mut table = game.cast::<PyTable>()?.borrow_mut();
                record
                    .take_action(&mut table.table, i)
                    .map_err(|e| record_error(&e))?;
            }
            let entry = &record.actions[i];
            each.call1((&game, (entry.seat, entry.action.to_string())))?;
        }
        Ok(game)
    }

    /// The multiplier the events so far build (`result["multiplier"]` once
    /// the deal is over).
    #[getter]
    fn stake(&self) -> i64 {
        ddz_core::table::scoring::stake(self.table.core().events())
    }

    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for e in self.table.core().events() {
            out.append(to_py(py, &e.to_json())?)?;
        }
        Ok(out)
    }

    /// A seat's hand as counts.
    fn counts(&self, seat: usize) -> PyResult<PyCards> {
        let hands = &self.table.core().hands();
        let hand = hands
            .get(seat)
            .ok_or_else(|| value_error(format!("no seat {seat}")))?;
        Ok(PyCards(hand.counts))
    }

    /// The family's roles as `seat` sees them (`landlord`, `bid`, ...); with
    /// no seat, as the referee knows them (every hidden role too).
    #[pyo3(signature = (seat = None))]
    fn roles<'py>(&self, py: Python<'py>, seat: Option<usize>) -> PyResult<Bound<'py, PyDict>> {
        let n = self.table.rules().players as usize;
        if let Some(s) = seat.filter(|&s| s >= n) {
            return Err(value_error(format!("seat must be 0 to {}, not {s}", n - 1)));
        }
        let family = self.table.family();
        let mut values = Vec::new();
        family.role_values(self.table.core(), seat, &mut values);
        let out = PyDict::new(py);
        for (spec, v) in family.role_specs().iter().zip(&values) {
            out.set_item(spec.key, role_to_py(py, v)?)?;
        }
        Ok(out)
    }

    fn hands_seen_by(&self, seat: usize) -> Vec<usize> {
        self.table.family().hands_seen_by(self.table.core(), seat)
    }

    fn kitty_seen_by(&self, seat: usize) -> bool {
        self.table.family().kitty_seen_by(self.table.core(), seat)
    }

    /// May `viewer` see that `seat` took `action` (a word or a play's text)?
    fn visible(&self, viewer: usize, seat: usize, action: &str) -> bool {
        match Action::parse(action) {
            Some(a) => self
                .table
                .family()
                .visible(self.table.core(), viewer, seat, &a),
            None => true,
        }
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.table.phase() == Phase::Over
    }

    /// The search player's choice for the seat to act (docs/bots.md): an
    /// index into `legal_actions()`. It reads only what that seat may see:
    /// every sample deals the hidden cards and roles again. `budget_us`
    /// 0 means no time limit; `threads` 1 to 255.
    /// `level` 1 to 8 (None: 8, the default search) sets the playouts,
    /// the time limit and the noise of its pick; `playouts` and
    /// `budget_us` override the level's.
    #[pyo3(signature = (seed = 0, playouts = None, budget_us = None, threads = None, level = None))]
    fn search(
        &mut self,
        py: Python<'_>,
        seed: u64,
        playouts: Option<u32>,
        budget_us: Option<u32>,
        threads: Option<u8>,
        level: Option<u8>,
    ) -> PyResult<usize> {
        if self.table.is_over() {
            return Err(value_error("the deal is over: no one is to act"));
        }
        let budget = crate::search::level_budget(level, playouts, budget_us, threads)?;
        let table = &mut self.table;
        Ok(py.detach(|| ddz_core::search::decide(table, budget, seed).index))
    }

    /// The choice of the built-in policy `name` ("random", "greedy",
    /// "rule", "search", "search:playouts=N") for the seat to act, its
    /// random draws from `seed`: an index into `legal_actions()`.
    #[pyo3(signature = (name, seed = 0))]
    fn policy_choice(&mut self, py: Python<'_>, name: &str, seed: u64) -> PyResult<usize> {
        if self.table.is_over() {
            return Err(value_error("the deal is over: no one is to act"));
        }
        let policy = crate::search::policy_named(name)?;
        let table = &mut self.table;
        Ok(py.detach(|| {
            table.order_legal();
            let i = policy.choose(table, &mut ddz_core::table::Rng(seed));
            // The search may reorder the plays: give the index in `Game`'s order.
            let action = table.legal_unordered().get(i).expect("a legal index");
            table.order_legal();
            let at = table.legal_unordered().iter().position(|a| a == action);
            at.unwrap_or(i)
        }))
    }

    /// The search's `k` best actions for the seat to act, best first, as
    /// `(index into legal_actions(), wp, low, high)`: the win rate of the
    /// seat's side and its 95% interval (`ddz.hint`). It reads only what
    /// that seat may see.
    #[pyo3(signature = (k = 3, seed = 0, playouts = None, budget_us = None, threads = None))]
    fn _rank(
        &mut self,
        py: Python<'_>,
        k: usize,
        seed: u64,
        playouts: Option<u32>,
        budget_us: Option<u32>,
        threads: Option<u8>,
    ) -> PyResult<Vec<(usize, f64, f64, f64)>> {
        if self.table.is_over() {
            return Err(value_error("the deal is over: no one is to act"));
        }
        if !self.table.is_recorded() {
            return Err(value_error(
                "this table keeps no record of the cards played: no search",
            ));
        }
        let budget = crate::search::level_budget(None, playouts, budget_us, threads)?;
        let table = &mut self.table;
        let ranked = py.detach(|| ddz_core::search::rank::rank(table, budget, seed, k, None));
        Ok(ranked
            .iter()
            .map(|r| (r.index, r.wp, r.low, r.high))
            .collect())
    }

    /// The position as `Rules.solve` takes it, read off the table: a dict
    /// of `hands` (the landlord's first with three seats), `to_move`,
    /// `prev`, `prev_by` and `seats` (the table seat of each solver seat);
    /// None outside the play phase of a one-landlord table of two or three
    /// seats.
    fn position<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(p) = self.table.position() else {
            return Ok(None);
        };
        let out = PyDict::new(py);
        let hands: Vec<PyCards> = p.position.hands.iter().map(|&h| PyCards(h)).collect();
        out.set_item("hands", hands)?;
        out.set_item("to_move", p.position.to_move)?;
        out.set_item("prev", p.position.prev.map(PyMove))?;
        out.set_item("prev_by", p.position.prev_by)?;
        out.set_item("seats", p.seats)?;
        Ok(Some(out))
    }
}
