//! numpy batch entry points: inputs are copied and checked first, then the
//! work runs in Rust on every core with the GIL released.

use crate::convert::value_error;
use crate::types::PyMove;
use ddz_core::batch::{self, Prev};
use ddz_core::{Cards, Engine, Move};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// Describe a Python value for an error message: numpy dtype and shape if any.
fn describe(ob: &Bound<'_, PyAny>) -> String {
    let dtype = ob.getattr("dtype").map(|d| d.to_string()).ok();
    let shape = ob.getattr("shape").map(|s| s.to_string()).ok();
    match (dtype, shape) {
        (Some(d), Some(s)) => format!("an array of dtype {d} and shape {s}"),
        _ => format!(
            "a {}",
            ob.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ),
    }
}

/// Rows of a numpy `uint8[N, 16]` array as count vectors.
fn rows(ob: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Cards>> {
    let bad = || {
        value_error(format!(
            "{what} must be a numpy uint8 array of shape (N, 16), got {}",
            describe(ob)
        ))
    };
    let array = ob.cast::<PyArray2<u8>>().map_err(|_| bad())?;
    if array.shape()[1] != 16 {
        return Err(bad());
    }
    let view = array.readonly();
    if let Ok(flat) = view.as_slice() {
        // C-contiguous: one copy of 16 bytes per row.
        return Ok(flat
            .chunks_exact(16)
            .map(|row| Cards(row.try_into().unwrap_or([0; 16])))
            .collect());
    }
    Ok(view
        .as_array()
        .rows()
        .into_iter()
        .map(|row| Cards(std::array::from_fn(|slot| row[slot])))
        .collect())
}

/// Every hand checked against the deck; the first bad row is named.
pub fn hands_from(engine: &Engine, ob: &Bound<'_, PyAny>) -> PyResult<Vec<Cards>> {
    let hands = rows(ob, "hands")?;
    for (i, h) in hands.iter().enumerate() {
        engine
            .check_playable(h)
            .map_err(|e| value_error(format!("hands[{i}]: {e}")))?;
    }
    Ok(hands)
}

/// Previous plays: None, one per row as `Move` / text / None, or a
/// `uint8[N, 16]` array whose all-zero rows mean "lead". Checked in Rust,
/// in parallel, after extraction.
pub fn prevs_from(
    py: Python<'_>,
    engine: &Engine,
    ob: Option<&Bound<'_, PyAny>>,
    n: usize,
    threads: usize,
) -> PyResult<Vec<Option<Move>>> {
    let Some(ob) = ob.filter(|o| !o.is_none()) else {
        return Ok(vec![None; n]);
    };
    let given: Vec<Prev> = if ob.getattr("dtype").is_ok() {
        rows(ob, "prevs")?
            .into_iter()
            .map(|c| {
                if c.is_empty() {
                    Prev::Lead
                } else {
                    Prev::Cards(c)
                }
            })
            .collect()
    } else {
        let items: Vec<Bound<'_, PyAny>> = ob.extract().map_err(|_| {
            value_error(format!(
                "prevs must be a sequence of plays (Move, text or None) or a uint8 array, got {}",
                describe(ob)
            ))
        })?;
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            out.push(if item.is_none() {
                Prev::Lead
            } else if let Ok(m) = item.cast::<PyMove>() {
                Prev::Play(m.get().0)
            } else {
                let c = crate::convert::cards_from(item)
                    .map_err(|e| value_error(format!("prevs[{i}]: {e}")))?;
                Prev::Cards(c)
            });
        }
        out
    };
    if given.len() != n {
        return Err(value_error(format!(
            "prevs has {} rows but hands has {n}",
            given.len()
        )));
    }
    py.detach(|| batch::resolve_prevs(engine, &given, threads))
        .map_err(|(i, e)| value_error(format!("prevs[{i}]: {e}")))
}

pub fn threads_from(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        None => Ok(batch::default_threads()),
        Some(0) => Err(value_error("threads must be at least 1")),
        Some(t) => Ok(t),
    }
}

pub fn count_moves_batch<'py>(
    py: Python<'py>,
    engine: &Engine,
    hands: &Bound<'py, PyAny>,
    prevs: Option<&Bound<'py, PyAny>>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let threads = threads_from(threads)?;
    let hands = hands_from(engine, hands)?;
    let prevs = prevs_from(py, engine, prevs, hands.len(), threads)?;
    let counts = py.detach(|| batch::count_moves_batch(engine, &hands, &prevs, threads));
    Ok(PyArray1::from_vec(
        py,
        counts.into_iter().map(|c| c as i64).collect(),
    ))
}

#[allow(clippy::type_complexity)]
pub fn moves_batch<'py>(
    py: Python<'py>,
    engine: &Engine,
    hands: &Bound<'py, PyAny>,
    prevs: Option<&Bound<'py, PyAny>>,
    threads: Option<usize>,
) -> PyResult<(Bound<'py, PyArray1<i64>>, Bound<'py, PyArray2<u8>>)> {
    let threads = threads_from(threads)?;
    let hands = hands_from(engine, hands)?;
    let prevs = prevs_from(py, engine, prevs, hands.len(), threads)?;
    let (offsets, plays) = py.detach(|| batch::moves_batch(engine, &hands, &prevs, threads));
    let rows = plays.len() / 16;
    let plays = PyArray1::from_vec(py, plays).reshape([rows, 16])?;
    Ok((PyArray1::from_vec(py, offsets), plays))
}
