//! `Game.observation`'s dict, built for speed: a policy reads one at every
//! step. What a seat may see is the core's (`Table::observation_bare`,
//! `visible_history`, the family's roles); this module only keeps the
//! Python objects that do not change between steps, so that a step makes
//! only what is new.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Mutex;

use ddz_core::table::physical::identities;
use ddz_core::table::scoring::Effect;
use ddz_core::table::{Action, Card, Event, Hand, Table};

/// A small multiply-rotate hash: the text cache's keys are a few bytes of
/// counts, and SipHash cost more than the lookup it guards.
#[derive(Default)]
struct QuickHash(u64);

impl Hasher for QuickHash {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_u8(&mut self, x: u8) {
        self.write_u64(x.into());
    }

    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type Texts = HashMap<Action, Py<PyString>, BuildHasherDefault<QuickHash>>;

/// The texts of plays without laizi, keyed by their cards alone (a play's
/// text is its cards): a 16-byte key hashes in two words and its entries
/// pack densely, where a whole `Action` key cost cache misses at every
/// legal action (measured with `perf`, not seen in instruction counts).
type PlayTexts = HashMap<u128, Py<PyString>, BuildHasherDefault<QuickHash>>;

/// Every action's text met so far, shared by all tables: the same plays
/// come back at every step and in every deal. Strs are immutable, so one
/// object can sit in any number of observations.
static TEXTS: Mutex<Option<(PlayTexts, Texts)>> = Mutex::new(None);

/// More distinct texts than this (laizi readings are many) start afresh.
const MAX_TEXTS: usize = 1 << 16;

/// The text of each of `actions`, as Python strs, in order.
///
/// Only strs are made while the lock is held: making one runs no Python
/// code, so no other table can ask for the lock meanwhile.
pub(crate) fn action_texts<'py>(
    py: Python<'py>,
    actions: impl Iterator<Item = Action>,
) -> Vec<Bound<'py, PyString>> {
    let mut guard = TEXTS.lock().unwrap_or_else(|e| e.into_inner());
    let (plays, others) = guard.get_or_insert_with(Default::default);
    if plays.len() + others.len() > MAX_TEXTS {
        plays.clear();
        others.clear();
    }
    actions
        .map(|a| {
            let text = match a {
                Action::Play(m) if m.cards == m.represents => plays
                    .entry(u128::from_le_bytes(m.cards.0))
                    .or_insert_with(|| PyString::new(py, &m.cards.text()).unbind()),
                _ => others
                    .entry(a)
                    .or_insert_with(|| crate::table::action_text(py, &a).unbind()),
            };
            text.bind(py).clone()
        })
        .collect()
}

/// A new list holding `items` (each reference is taken over).
pub(crate) fn new_list<'py>(
    py: Python<'py>,
    items: impl ExactSizeIterator<Item = Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    // SAFETY: a new list of `len` slots, each filled exactly once with a
    // reference it takes over; an iterator shorter than it said is cut to
    // what it gave, one longer is dropped.
    unsafe {
        let len = items.len();
        let list = ffi::PyList_New(len as ffi::Py_ssize_t);
        if list.is_null() {
            return Err(PyErr::fetch(py));
        }
        let mut filled = 0;
        for item in items.take(len) {
            ffi::PyList_SET_ITEM(list, filled as ffi::Py_ssize_t, item.into_ptr());
            filled += 1;
        }
        let list: Bound<'py, PyList> = Bound::from_owned_ptr(py, list).cast_into_unchecked();
        if filled < len {
            list.del_slice(filled, len)?;
        }
        Ok(list)
    }
}

/// The `history` lists of one table's observations, kept between steps.
///
/// Each seat's last list is kept; once nothing else holds it (its
/// observation is gone) and every entry in it is still as it was handed
/// out, the next observation of that seat gets the same list with only the
/// new entries appended. Anything a caller can still see, or has changed,
/// is never handed out again: such a list or entry is made afresh.
#[derive(Default)]
pub(crate) struct HistoryLists {
    /// The deal these belong to (`Table::deals().len()`).
    deal: usize,
    /// The text of each action of this deal's history.
    texts: Vec<Py<PyString>>,
    seats: Vec<SeatList>,
    /// The seat whose list was handed out last: when its observation is
    /// already dropped, the next seat takes that list over, so a loop that
    /// drops each observation keeps one list warm in cache, not one a seat.
    last: Option<usize>,
    /// Scratch: the history indices a seat sees now.
    visible: Vec<usize>,
}

#[derive(Default)]
struct SeatList {
    /// The history index of each entry of `list`, as handed out.
    indices: Vec<usize>,
    list: Option<Py<PyList>>,
}

/// Is `ob` referenced by its holder only?
fn held_once(ob: &Bound<'_, PyAny>) -> bool {
    // SAFETY: reads the reference count of a live object.
    unsafe { ffi::Py_REFCNT(ob.as_ptr()) == 1 }
}

impl HistoryLists {
    /// `seat`'s visible history of `table` as a list of `[seat, text]`.
    pub(crate) fn list<'py>(
        &mut self,
        py: Python<'py>,
        table: &Table,
        seat: usize,
    ) -> PyResult<Bound<'py, PyList>> {
        self.update_texts(py, table);
        let history = &table.core().history;
        self.visible.clear();
        self.visible.extend(table.visible_history(seat));
        if self.seats.len() <= seat {
            self.seats.resize_with(seat + 1, SeatList::default);
        }
        let entry = |i: usize| history_entry(py, history[i].0, self.texts[i].bind(py).clone());
        let visible = &self.visible;
        let reusable = |kept: &SeatList| {
            kept.list.as_ref().is_some_and(|list| {
                // Held once: our slot is its only holder.
                let list = list.bind(py);
                held_once(list.as_any())
                    && list.len() == kept.indices.len()
                    && visible.starts_with(&kept.indices)
            })
        };
        let from = [self.last, Some(seat)]
            .into_iter()
            .flatten()
            .find(|&s| reusable(&self.seats[s]));
        self.last = Some(seat);
        if let Some(from) = from {
            let mut kept = std::mem::take(&mut self.seats[from]);
            let list = kept.list.take().map(|l| l.into_bound(py));
            let list = list.expect("a reusable slot holds a list");
            // Seats are small ints, which CPython keeps one object each of.
            let seats: Vec<_> = (0..table.rules().players as usize)
                .map(|s| s.into_pyobject(py).unwrap_or_else(|e| match e {}))
                .collect();
            for (at, &i) in kept.indices.iter().enumerate() {
                let seat = &seats[history[i].0];
                if !entry_intact(&list, at, seat.as_any(), &self.texts[i]) {
                    list.set_item(at, entry(i)?)?;
                }
            }
            for &i in &self.visible[kept.indices.len()..] {
                list.append(entry(i)?)?;
            }
            kept.indices.clone_from(&self.visible);
            kept.list = Some(list.clone().unbind());
            self.seats[seat] = kept;
            return Ok(list);
        }
        let items = self
            .visible
            .iter()
            .map(|&i| entry(i).map(Bound::into_any))
            .collect::<PyResult<Vec<_>>>()?;
        let list = new_list(py, items.into_iter())?;
        let kept = &mut self.seats[seat];
        kept.indices.clone_from(&self.visible);
        kept.list = Some(list.clone().unbind());
        Ok(list)
    }

    /// Bring the texts up to `table`'s history (a new deal starts afresh).
    fn update_texts(&mut self, py: Python<'_>, table: &Table) {
        let history = &table.core().history;
        let deal = table.deals().len();
        if self.deal != deal || self.texts.len() > history.len() {
            self.deal = deal;
            self.texts.clear();
            self.seats.clear();
            self.last = None;
        }
        let new = history[self.texts.len()..].iter().map(|(_, a)| *a);
        let texts = action_texts(py, new);
        self.texts.extend(texts.into_iter().map(Bound::unbind));
    }
}

/// Is item `at` of `list` (which has it) an entry only `list` holds,
/// still exactly `[seat, text]` as handed out?
fn entry_intact(
    list: &Bound<'_, PyList>,
    at: usize,
    seat: &Bound<'_, PyAny>,
    text: &Py<PyString>,
) -> bool {
    // Checked for every kept entry at every step, so read without taking
    // references. SAFETY: `at` is within `list` (the caller checked its
    // length); every pointer read is a live item of a live list.
    unsafe {
        let item = ffi::PyList_GET_ITEM(list.as_ptr(), at as ffi::Py_ssize_t);
        ffi::Py_REFCNT(item) == 1
            && ffi::PyList_CheckExact(item) != 0
            && ffi::PyList_GET_SIZE(item) == 2
            && ffi::PyList_GET_ITEM(item, 0) == seat.as_ptr()
            && ffi::PyList_GET_ITEM(item, 1) == text.as_ptr()
    }
}

/// One history entry, `[seat, action text]`.
pub(crate) fn history_entry<'py>(
    py: Python<'py>,
    seat: usize,
    text: Bound<'py, PyString>,
) -> PyResult<Bound<'py, PyList>> {
    let Ok(seat) = seat.into_pyobject(py);
    new_list(py, [seat.into_any(), text.into_any()].into_iter())
}

/// The keys every observation starts with, in `Game.observation`'s order
/// (docs/game.md); the family's roles and `legal_actions` follow.
pub(crate) const KEYS: [&str; 12] = [
    "seat",
    "preset",
    "phase",
    "to_act",
    "hand",
    "hand_sizes",
    "kitty",
    "seen_hands",
    "history",
    "to_beat",
    "events",
    "result",
];

/// A dict of [`KEYS`] (interned) to None, and the keys as strs.
static TEMPLATE: PyOnceLock<(Py<PyDict>, Vec<Py<PyString>>)> = PyOnceLock::new();

/// A new dict of [`KEYS`] to `values`: a copy of the template (one copy
/// of its table, no rehashing), each value then set in place.
pub(crate) fn first_keys<'py>(
    py: Python<'py>,
    values: [Bound<'py, PyAny>; KEYS.len()],
) -> PyResult<Bound<'py, PyDict>> {
    let (template, keys) = TEMPLATE.get_or_try_init(py, || -> PyResult<_> {
        let d = PyDict::new(py);
        let keys: Vec<Py<PyString>> = KEYS
            .iter()
            .map(|k| PyString::intern(py, k).unbind())
            .collect();
        for k in &keys {
            d.set_item(k.bind(py), py.None())?;
        }
        Ok((d.unbind(), keys))
    })?;
    let d = template.bind(py).copy()?;
    for (k, v) in keys.iter().zip(values) {
        d.set_item(k.bind(py), v)?;
    }
    Ok(d)
}

/// Strs the core names as `&'static str` (role keys, event names),
/// interned once each.
#[derive(Default)]
pub(crate) struct StaticStrs(Vec<(&'static str, Py<PyString>)>);

impl StaticStrs {
    pub(crate) fn get<'py>(&mut self, py: Python<'py>, key: &'static str) -> Bound<'py, PyString> {
        if let Some((_, k)) = self.0.iter().find(|(k, _)| *k == key) {
            return k.bind(py).clone();
        }
        let k = PyString::intern(py, key);
        self.0.push((key, k.clone().unbind()));
        k
    }
}

/// One stake event as `Game` shows it: `["bomb", 2]`, `["double", "+1"]`.
pub(crate) fn event<'py>(
    py: Python<'py>,
    names: &mut StaticStrs,
    e: &Event,
) -> PyResult<Bound<'py, PyAny>> {
    let value = match e.effect {
        Effect::Times(k) => k
            .into_pyobject(py)
            .map_or_else(|e| match e {}, Bound::into_any),
        Effect::Plus(k) => PyString::new(py, &format!("+{k}")).into_any(),
    };
    let name = names.get(py, e.name).into_any();
    new_list(py, [name, value].into_iter()).map(Bound::into_any)
}

/// The spelling of each seat's hand and of the kitty, kept while they
/// stay the same: a hand changes only when its seat plays.
#[derive(Default)]
pub(crate) struct CardTexts {
    hands: Vec<Option<(Hand, Py<PyString>)>>,
    kitty: Option<(Vec<Card>, Py<PyString>)>,
}

impl CardTexts {
    pub(crate) fn hand<'py>(
        &mut self,
        py: Python<'py>,
        seat: usize,
        hand: &Hand,
    ) -> Bound<'py, PyString> {
        if self.hands.len() <= seat {
            self.hands.resize_with(seat + 1, || None);
        }
        match &self.hands[seat] {
            Some((kept, text)) if kept == hand => text.bind(py).clone(),
            _ => {
                let text = PyString::new(py, &hand.text());
                self.hands[seat] = Some((hand.clone(), text.clone().unbind()));
                text
            }
        }
    }

    pub(crate) fn kitty<'py>(&mut self, py: Python<'py>, kitty: &[Card]) -> Bound<'py, PyString> {
        match &self.kitty {
            Some((kept, text)) if kept[..] == *kitty => text.bind(py).clone(),
            _ => {
                let text = PyString::new(py, &identities(kitty));
                self.kitty = Some((kitty.to_vec(), text.clone().unbind()));
                text
            }
        }
    }
}
