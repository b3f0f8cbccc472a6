//! `Game.observation`'s dict, built for speed: a policy reads one at every
//! step. What a seat may see is the core's (`Table::observation_bare`,
//! `visible_history`, the family's roles); this module only keeps the
//! Python objects that do not change between steps, so that a step makes
//! only what is new.

use pyo3::ffi;
use pyo3::intern;
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
/// code, so no other table can ask for the lock meanwhile. (Taking a `dyn`
/// iterator, for one copy of this code, cost more instructions than the
/// instruction-cache misses it saved.)
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
    /// Each seat as a Python int, for comparing kept entries' seats.
    seat_ints: Vec<Py<PyAny>>,
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
        let history = &table.core().history();
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
            if self.seat_ints.len() < table.rules().players as usize {
                self.seat_ints = seat_ints(py, table.rules().players as usize);
            }
            for (at, &i) in kept.indices.iter().enumerate() {
                let seat = self.seat_ints[history[i].0].as_ptr();
                if !pair_intact(&list, at, seat, self.texts[i].as_ptr()) {
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
        let list = self.fresh_list(py, table)?;
        let kept = &mut self.seats[seat];
        kept.indices.clone_from(&self.visible);
        kept.list = Some(list.clone().unbind());
        Ok(list)
    }

    /// A new list of the visible entries (no kept list would do).
    #[inline(never)]
    fn fresh_list<'py>(&self, py: Python<'py>, table: &Table) -> PyResult<Bound<'py, PyList>> {
        let history = &table.core().history();
        let entry = |i: usize| history_entry(py, history[i].0, self.texts[i].bind(py).clone());
        let items = self.visible.iter().map(|&i| entry(i).map(Bound::into_any));
        new_list(py, items.collect::<PyResult<Vec<_>>>()?.into_iter())
    }

    /// Bring the texts up to `table`'s history (a new deal starts afresh).
    fn update_texts(&mut self, py: Python<'_>, table: &Table) {
        let history = &table.core().history();
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

/// Each seat as a Python int.
#[cold]
#[inline(never)]
fn seat_ints(py: Python<'_>, players: usize) -> Vec<Py<PyAny>> {
    let ints = (0..players).map(|s| {
        s.into_pyobject(py)
            .map_or_else(|e| match e {}, |s| s.into_any().unbind())
    });
    ints.collect()
}

/// Is item `at` of `list` (which has it) a pair only `list` holds, still
/// exactly `[first, second]` as handed out?
fn pair_intact(
    list: &Bound<'_, PyList>,
    at: usize,
    first: *mut ffi::PyObject,
    second: *mut ffi::PyObject,
) -> bool {
    // Checked for every kept entry at every step, so read without taking
    // references. SAFETY: `at` is within `list` (the caller checked its
    // length); every pointer read is a live item of a live list.
    unsafe {
        let item = ffi::PyList_GET_ITEM(list.as_ptr(), at as ffi::Py_ssize_t);
        ffi::Py_REFCNT(item) == 1
            && ffi::PyList_CheckExact(item) != 0
            && ffi::PyList_GET_SIZE(item) == 2
            && ffi::PyList_GET_ITEM(item, 0) == first
            && ffi::PyList_GET_ITEM(item, 1) == second
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

/// The template and its keys, made at the first call.
#[inline(never)]
fn template(py: Python<'_>) -> PyResult<&(Py<PyDict>, Vec<Py<PyString>>)> {
    TEMPLATE.get_or_try_init(py, || -> PyResult<_> {
        let d = PyDict::new(py);
        let keys: Vec<Py<PyString>> = KEYS
            .iter()
            .map(|k| PyString::intern(py, k).unbind())
            .collect();
        for k in &keys {
            d.set_item(k.bind(py), py.None())?;
        }
        Ok((d.unbind(), keys))
    })
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
/// With `kept`, a list whose item `at` may be that entry already: an
/// entry only that list holds, unchanged, is given again.
#[inline(never)]
pub(crate) fn event<'py>(
    py: Python<'py>,
    names: &mut StaticStrs,
    e: &Event,
    kept: Option<(&Bound<'py, PyList>, usize)>,
) -> PyResult<Bound<'py, PyAny>> {
    let value = match e.effect {
        Effect::Times(k) => k
            .into_pyobject(py)
            .map_or_else(|e| match e {}, Bound::into_any),
        Effect::Plus(k) => PyString::new(py, &format!("+{k}")).into_any(),
    };
    let name = names.get(py, e.name).into_any();
    if let Some((list, at)) = kept {
        if at < list.len() && pair_intact(list, at, name.as_ptr(), value.as_ptr()) {
            return list.get_item(at);
        }
    }
    new_list(py, [name, value].into_iter()).map(Bound::into_any)
}

/// Make `list` hold `items`, in order, setting only the slots that differ.
pub(crate) fn refill_list<'py>(
    list: &Bound<'py, PyList>,
    items: impl Iterator<Item = Bound<'py, PyAny>>,
) -> PyResult<()> {
    let mut at = 0;
    for item in items {
        if at == list.len() {
            list.append(item)?;
        // SAFETY: `at` is within the list (checked just above).
        } else if unsafe { ffi::PyList_GET_ITEM(list.as_ptr(), at as ffi::Py_ssize_t) }
            != item.as_ptr()
        {
            list.set_item(at, item)?;
        }
        at += 1;
    }
    if at < list.len() {
        list.del_slice(at, list.len())?;
    }
    Ok(())
}

/// The last observation dict a table handed out. Once nothing else holds
/// it, the next observation fills it again in place, and the lists in it
/// nothing else holds: a loop that drops each observation then makes no
/// dict and almost no list a step (fewer allocations, collections and
/// cache misses). A dict or list anyone else can see is never reused.
#[derive(Default)]
pub(crate) struct KeptDict(Option<Py<PyDict>>);

/// The dict an observation's values go into, in key order: a copy of the
/// template (one copy of its table, no rehashing) or a dropped
/// observation's dict taken back. Both are filled by [`Target::put`], so a
/// fresh dict and a refilled one are made by the same code.
pub(crate) struct Target<'py> {
    dict: Bound<'py, PyDict>,
    /// The value of each slot as found, in key order (compared, not read).
    was: Vec<*mut ffi::PyObject>,
    /// The slot the next [`Target::put`] sets.
    next: usize,
}

impl<'py> Target<'py> {
    /// A new dict of [`KEYS`] to None.
    #[inline(never)]
    pub(crate) fn fresh(py: Python<'py>) -> PyResult<Self> {
        let (template, _) = template(py)?;
        let dict = template.bind(py).copy()?;
        let was = vec![py.None().as_ptr(); KEYS.len()];
        Ok(Target { dict, was, next: 0 })
    }

    /// Set the next slot's key to `value`, unless it holds it already (a
    /// key past the dict's is added at its end).
    pub(crate) fn put(
        &mut self,
        key: &Bound<'py, PyString>,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<()> {
        let was = self.was.get(self.next).copied();
        self.next += 1;
        if was == Some(value.as_ptr()) {
            return Ok(());
        }
        // SAFETY: a live dict, key and value; the dict takes its own references.
        if unsafe { ffi::PyDict_SetItem(self.dict.as_ptr(), key.as_ptr(), value.as_ptr()) } < 0 {
            return Err(PyErr::fetch(self.dict.py()));
        }
        Ok(())
    }

    /// Set [`KEYS`] to `values`, in order.
    pub(crate) fn put_first(&mut self, values: &[Bound<'py, PyAny>; KEYS.len()]) -> PyResult<()> {
        let (_, keys) = template(self.dict.py())?;
        for (k, v) in keys.iter().zip(values) {
            self.put(k.bind(self.dict.py()), v)?;
        }
        Ok(())
    }

    pub(crate) fn into_dict(self) -> Bound<'py, PyDict> {
        self.dict
    }
}

/// A dropped observation dict taken back, and those of its values that
/// only it held (None: make that value afresh).
pub(crate) struct Refill<'py> {
    pub(crate) target: Target<'py>,
    pub(crate) hand_sizes: Option<Bound<'py, PyList>>,
    pub(crate) seen_hands: Option<Bound<'py, PyDict>>,
    pub(crate) events: Option<Bound<'py, PyList>>,
    pub(crate) legal: Option<Bound<'py, PyList>>,
}

/// Where [`KEYS`] puts the values a refill reuses.
const HAND_SIZES: usize = 5;
const SEEN_HANDS: usize = 7;
const HISTORY: usize = 8;
const EVENTS: usize = 10;

impl KeptDict {
    /// Keep `dict`, the observation just handed out.
    pub(crate) fn keep(&mut self, dict: &Bound<'_, PyDict>) {
        self.0 = Some(dict.clone().unbind());
    }

    /// The kept dict, if nothing else holds it and its keys are still
    /// [`KEYS`], then `roles`, then `legal_actions` when `with_legal`, in
    /// that order (a dict changed otherwise is dropped). Its `history` is
    /// set to None, so the list there is free for [`HistoryLists`].
    pub(crate) fn take_back<'py>(
        &mut self,
        py: Python<'py>,
        roles: impl Iterator<Item = *mut ffi::PyObject>,
        with_legal: bool,
    ) -> PyResult<Option<Refill<'py>>> {
        let Some(dict) = self.0.take().map(|d| d.into_bound(py)) else {
            return Ok(None);
        };
        if !held_once(dict.as_any()) {
            return Ok(None);
        }
        let (_, keys) = template(py)?;
        let legal = with_legal.then(|| intern!(py, "legal_actions").as_ptr());
        let mut want = keys.iter().map(|k| k.as_ptr()).chain(roles).chain(legal);
        let mut values = Vec::with_capacity(KEYS.len() + 4);
        // SAFETY: walks a live dict without changing it; the pointers
        // read are borrowed from it, and it is alive (we hold it).
        unsafe {
            let (mut pos, mut k, mut v) = (0, std::ptr::null_mut(), std::ptr::null_mut());
            while ffi::PyDict_Next(dict.as_ptr(), &mut pos, &mut k, &mut v) != 0 {
                if want.next() != Some(k) {
                    return Ok(None);
                }
                values.push(v);
            }
        }
        if want.next().is_some() {
            return Ok(None);
        }
        // A value only the dict holds, if it is exactly a list (or dict).
        let only = |at: usize, exact: unsafe fn(*mut ffi::PyObject) -> std::os::raw::c_int| {
            let v = values[at];
            // SAFETY: `v` is a live value of the dict, which we hold.
            unsafe {
                (ffi::Py_REFCNT(v) == 1 && exact(v) != 0).then(|| Bound::from_borrowed_ptr(py, v))
            }
        };
        let lists = |at| only(at, ffi::PyList_CheckExact).and_then(|v| v.cast_into().ok());
        let mut refill = Refill {
            hand_sizes: lists(HAND_SIZES),
            seen_hands: only(SEEN_HANDS, ffi::PyDict_CheckExact).and_then(|v| v.cast_into().ok()),
            events: lists(EVENTS),
            legal: with_legal.then(|| lists(values.len() - 1)).flatten(),
            target: Target {
                dict,
                was: values,
                next: 0,
            },
        };
        let target = &mut refill.target;
        target.dict.set_item(keys[HISTORY].bind(py), py.None())?;
        target.was[HISTORY] = py.None().as_ptr();
        Ok(Some(refill))
    }
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
