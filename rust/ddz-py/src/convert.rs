//! Turning Python arguments into core values, with errors that name the problem.

use crate::errors::{card_error, card_error_in};
use crate::types::{PyCards, PyMove};
use ddz_core::{Cards, Engine, Move};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

pub fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Cards from a `Cards`, card text, or a sequence / numpy array of 15 or 16 counts.
pub fn cards_from(ob: &Bound<'_, PyAny>) -> PyResult<Cards> {
    if let Ok(c) = ob.cast::<PyCards>() {
        return Ok(c.get().0);
    }
    if let Ok(s) = ob.cast::<PyString>() {
        let text = s.to_str()?;
        return Cards::parse(text).map_err(|e| card_error_in(e, text));
    }
    let items: Vec<Bound<'_, PyAny>> = ob.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "expected cards as text, ddz.Cards or 16 counts, got {}",
            ob.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    if items.len() != 15 && items.len() != 16 {
        return Err(card_error(format!(
            "a count vector has 16 slots (3..2, X, D, L), got {}",
            items.len()
        )));
    }
    let mut out = [0u8; 16];
    for (slot, item) in items.iter().enumerate() {
        let symbol = ddz_core::cards::symbol(slot);
        let n: i128 = item.extract().map_err(|_| {
            card_error(format!(
                "count for {symbol:?} is not an integer between 0 and 255: {item}"
            ))
        })?;
        out[slot] = u8::try_from(n).map_err(|_| {
            card_error(format!("count {n} for {symbol:?} is not between 0 and 255"))
        })?;
    }
    Ok(Cards(out))
}

/// Cards checked against the rule set's deck.
pub fn deck_cards(engine: &Engine, ob: &Bound<'_, PyAny>) -> PyResult<Cards> {
    let cards = cards_from(ob)?;
    engine.check_playable(&cards).map_err(card_error)?;
    Ok(cards)
}

/// A previous play: a `Move` that is a reading under these rules, or cards
/// with exactly one reading.
pub fn play_from(engine: &Engine, ob: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(m) = ob.cast::<PyMove>() {
        let m = m.get().0;
        if !engine.is_reading(&m) {
            return Err(card_error(format!(
                "{m} as {} is not a legal play under the {:?} rules",
                m.kind.id(),
                engine.rules().preset
            )));
        }
        return Ok(m);
    }
    let cards = deck_cards(engine, ob)?;
    let readings = engine.classify(&cards);
    match readings.as_slice() {
        [one] => Ok(*one),
        [] => Err(card_error(format!(
            "{} is not a legal play",
            ddz_core::batch::shown(&cards)
        ))),
        many => Err(card_error(format!(
            "{cards} has {} readings ({}); pass the Move you mean",
            many.len(),
            many.iter()
                .map(|m| format!("{} {}", m.kind.id(), m.rank_symbol()))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

pub fn optional_play(engine: &Engine, ob: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Move>> {
    match ob {
        Some(p) if !p.is_none() => Ok(Some(play_from(engine, p)?)),
        _ => Ok(None),
    }
}
