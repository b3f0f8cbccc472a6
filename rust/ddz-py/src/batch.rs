//! numpy batch entry points: inputs are copied and checked first, then the
//! work runs in Rust on every core with the GIL released, block by block,
//! checking for Ctrl-C between blocks.

use crate::convert::value_error;
use crate::types::PyMove;
use ddz_core::batch::{self, Prev, TooBig, MAX_THREADS};
use ddz_core::cards::SLOTS;
use ddz_core::{Cards, Engine, Move};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyBool;
use std::ops::Range;
use std::time::{Duration, Instant};

/// Describe a Python value for an error message: numpy dtype and shape if any.
fn describe(ob: &Bound<'_, PyAny>) -> String {
    let dtype = ob.getattr("dtype").map(|d| d.to_string()).ok();
    let shape = ob.getattr("shape").map(|s| s.to_string()).ok();
    match (dtype, shape) {
        (Some(d), Some(s)) => format!("an array of dtype {d} and shape {s}"),
        _ => format!("a {}", type_name(ob)),
    }
}

pub fn type_name(ob: &Bound<'_, PyAny>) -> String {
    ob.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// Rows of a numpy `uint8[N, 16]` array as count vectors, read by index
/// whatever the memory layout (Fortran order, transposed, strided).
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
    if view.is_c_contiguous() {
        // Row after row in memory: one copy of 16 bytes per row.
        if let Ok(flat) = view.as_slice() {
            return Ok(flat
                .chunks_exact(16)
                .map(|row| Cards(row.try_into().unwrap_or([0; 16])))
                .collect());
        }
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
            .map_err(|e| crate::errors::card_error(format!("hands[{i}]: {e}")))?;
    }
    Ok(hands)
}

use crate::errors::prefixed;

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
        // No previous plays: an empty list, which `part` reads as all leads
        // (nothing to fill or copy for a batch of leads).
        return Ok(Vec::new());
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
            if i % 4096 == 4095 {
                py.check_signals()?;
            }
            out.push(if item.is_none() {
                Prev::Lead
            } else if let Ok(m) = item.cast::<PyMove>() {
                Prev::Play(m.get().0)
            } else {
                let c = crate::convert::cards_from(item)
                    .map_err(|e| prefixed(py, e, &format!("prevs[{i}]")))?;
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
    let mut resolved = Vec::with_capacity(n);
    let mut failed = None;
    in_blocks(py, n, |r| {
        if failed.is_some() {
            return;
        }
        let lo = r.start;
        match batch::resolve_prevs(engine, &given[r], threads) {
            Ok(block) => resolved.extend(block),
            Err((i, e)) => failed = Some((lo + i, e)),
        }
    })?;
    match failed {
        Some((i, e)) => Err(crate::errors::card_error(format!("prevs[{i}]: {e}"))),
        None => Ok(resolved),
    }
}

/// Rows `r` of the previous plays `prevs_from` gave: none when it gave
/// none (every row leads).
pub fn part(prevs: &[Option<Move>], r: Range<usize>) -> &[Option<Move>] {
    prevs.get(r).unwrap_or(&[])
}

/// An optional count argument (`threads=`, `record=`...): an int, not a
/// bool, within `lo..=hi`, else TypeError / ValueError naming `name`.
pub fn int_arg(
    ob: Option<&Bound<'_, PyAny>>,
    name: &str,
    lo: u64,
    hi: u64,
) -> PyResult<Option<u64>> {
    let Some(ob) = ob.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let not_int = || {
        PyTypeError::new_err(format!(
            "{name} must be an int, not {} ({})",
            type_name(ob),
            ob.repr().map(|r| r.to_string()).unwrap_or_default()
        ))
    };
    if ob.cast::<PyBool>().is_ok() {
        return Err(not_int());
    }
    let n: i128 = match ob.extract() {
        Ok(n) => n,
        Err(_) if ob.call_method0("__index__").is_ok() => i128::MAX, // beyond 128 bits
        Err(_) => return Err(not_int()),
    };
    if n < lo as i128 || n > hi as i128 {
        let shown = ob.repr().map(|r| r.to_string()).unwrap_or_default();
        return Err(value_error(format!(
            "{name} must be between {lo} and {hi}, not {shown}"
        )));
    }
    Ok(Some(n as u64))
}

/// `threads=`: 1 to `MAX_THREADS`; None means `default_threads()`.
pub fn threads_from(threads: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    Ok(int_arg(threads, "threads", 1, MAX_THREADS as u64)?
        .map_or_else(batch::default_threads, |t| t as usize))
}

pub fn memory_error(e: TooBig) -> PyErr {
    PyMemoryError::new_err(e.to_string())
}

/// Time a block should take: short enough that Ctrl-C is seen within
/// about 0.1 s, long enough that the checks cost nothing.
const BLOCK_TIME: Duration = Duration::from_millis(40);

/// Rows of the first block: small enough that the costliest rows (laizi
/// hands with thousands of plays, six-player deals) take well under
/// `BLOCK_TIME` on one thread, large enough that a cheap batch of this size
/// is one block.
pub const FIRST_BLOCK: usize = 1024;

/// Run `work` on successive blocks of `0..n` with the GIL released,
/// checking for signals (Ctrl-C) between blocks. Blocks start small and
/// grow or shrink to take about `BLOCK_TIME`.
/// Rows of the first block of a count, per thread: counting the costliest
/// rows takes about 3 µs each, so this many per thread stay under 0.1 s,
/// and a batch of cheap rows this size per thread pays for one pass over
/// the pool, not several (a second pass of a few rows costs a wake-up of
/// the pool for little work).
const FIRST_COUNT_BLOCK: usize = 1 << 14;

/// The first block of a count on `threads` threads.
fn first_count_block(threads: usize) -> usize {
    FIRST_COUNT_BLOCK.saturating_mul(threads.max(1))
}

pub fn in_blocks(py: Python<'_>, n: usize, work: impl FnMut(Range<usize>) + Send) -> PyResult<()> {
    in_blocks_from(py, n, FIRST_BLOCK, work)
}

/// As `in_blocks`, the first block `first` rows.
pub fn in_blocks_from(
    py: Python<'_>,
    n: usize,
    first: usize,
    work: impl FnMut(Range<usize>) + Send,
) -> PyResult<()> {
    in_blocks_of(py, n, first, 1, work)
}

/// As `in_blocks_from`, no block under `least` rows (but the last): rows
/// that cost milliseconds each would otherwise shrink the blocks to one
/// row, and one row keeps one thread busy.
pub fn in_blocks_of(
    py: Python<'_>,
    n: usize,
    first: usize,
    least: usize,
    mut work: impl FnMut(Range<usize>) + Send,
) -> PyResult<()> {
    let least = least.max(1);
    let mut size = first.max(least);
    let mut at = 0;
    while at < n {
        let end = n.min(at.saturating_add(size));
        let start = Instant::now();
        py.detach(|| work(at..end));
        py.check_signals()?;
        let took = start.elapsed();
        if took < BLOCK_TIME / 2 {
            size = size.saturating_mul(2).min(1 << 20);
        } else if took > BLOCK_TIME * 2 {
            size = (size / 2).max(least);
        }
        at = end;
    }
    Ok(())
}

/// A zeroed vector of `n` items, or MemoryError naming the size.
pub fn zeroed<T: Clone + Default>(n: usize, what: impl FnOnce() -> String) -> PyResult<Vec<T>> {
    let bytes = (n as u64).checked_mul(std::mem::size_of::<T>() as u64);
    batch::check_size(what, bytes).map_err(memory_error)?;
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        memory_error(TooBig {
            what: format!("{n} items"),
            bytes,
            limit: None,
        })
    })?;
    v.resize(n, T::default());
    Ok(v)
}

pub fn count_moves_batch<'py>(
    py: Python<'py>,
    engine: &Engine,
    hands: &Bound<'py, PyAny>,
    prevs: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let threads = threads_from(threads)?;
    let hands = hands_from(engine, hands)?;
    let prevs = prevs_from(py, engine, prevs, hands.len(), threads)?;
    let n = hands.len();
    let mut counts: Vec<i64> = zeroed(n, || format!("counts of {n} hands"))?;
    in_blocks_from(py, n, first_count_block(threads), |r| {
        batch::count_moves_into(
            engine,
            &hands[r.clone()],
            part(&prevs, r.clone()),
            threads,
            &mut counts[r],
        )
    })?;
    Ok(PyArray1::from_vec(py, counts))
}

#[allow(clippy::type_complexity)]
pub fn moves_batch<'py>(
    py: Python<'py>,
    engine: &Engine,
    hands: &Bound<'py, PyAny>,
    prevs: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyArray1<i64>>, Bound<'py, PyArray2<u8>>)> {
    let threads = threads_from(threads)?;
    let hands = hands_from(engine, hands)?;
    let prevs = prevs_from(py, engine, prevs, hands.len(), threads)?;
    let n = hands.len();
    // Count first, so the plays are allocated once at their exact size
    // (or refused before any of them is made).
    let mut offsets: Vec<i64> = zeroed(n + 1, || format!("offsets of {n} hands"))?;
    in_blocks_from(py, n, first_count_block(threads), |r| {
        let out = &mut offsets[r.start + 1..r.end + 1];
        batch::count_moves_into(engine, &hands[r.clone()], part(&prevs, r), threads, out)
    })?;
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let total = offsets[n] as u64;
    let what = || format!("the {total} plays of {n} hands");
    let bytes = batch::check_size(what, total.checked_mul(SLOTS as u64)).map_err(memory_error)?;
    let mut plays: Vec<u8> = zeroed(bytes, what)?;
    in_blocks(py, n, |r| {
        let rows = offsets[r.start] as usize * SLOTS..offsets[r.end] as usize * SLOTS;
        let at = &offsets[r.start..=r.end];
        batch::moves_into(
            engine,
            &hands[r.clone()],
            part(&prevs, r),
            at,
            threads,
            &mut plays[rows],
        )
    })?;
    let plays = PyArray1::from_vec(py, plays).reshape([total as usize, SLOTS])?;
    Ok((PyArray1::from_vec(py, offsets), plays))
}
