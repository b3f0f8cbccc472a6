//! `simulate`: whole deals in Rust, results as numpy arrays.

use crate::batch::{in_blocks, int_arg, memory_error, threads_from};
use crate::convert::value_error;
use crate::types::PyRules;
use ddz_core::simulate::{Columns, Outcome, Policy, Series};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// Play `games` deals; returns a dict of numpy arrays, with
/// `hidden_landlord` and `revealed` for the presets with a partner and the
/// landlord lists for the 3 v 3 presets (and, with `record`,
/// the deals and actions of the first `record` games). The result arrays
/// are allocated up front (or refused with MemoryError); the deals run in
/// blocks with the GIL released, and Ctrl-C stops the run between blocks.
#[pyfunction]
#[pyo3(signature = (rules, games, seed = None, threads = None, policy = "random", record = None, first = None))]
#[allow(clippy::too_many_arguments)]
pub fn simulate<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyRules>,
    games: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    policy: &str,
    record: Option<&Bound<'py, PyAny>>,
    first: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let Some(policy) = Policy::from_name(policy) else {
        let names: Vec<&str> = Policy::ALL.iter().map(|p| p.name()).collect();
        return Err(value_error(format!(
            "unknown policy {policy:?}; the policies are: {}",
            names.join(", ")
        )));
    };
    let count = |ob, name| int_arg(ob, name, 0, u64::MAX).map(Option::unwrap_or_default);
    let games = count(Some(games), "games")?;
    let seed = count(seed, "seed")?;
    let record = count(record, "record")?.min(games);
    let first = count(first, "first")?;
    let threads = threads_from(threads)?;
    if games > 0 && first.checked_add(games - 1).is_none() {
        return Err(value_error(format!(
            "first + games must be at most 2**64 (deal numbers are 64-bit), \
             got first={first} and games={games}"
        )));
    }
    let engine = rules.get().engine();
    let series = Series::new(engine, seed, policy).map_err(crate::errors::rules_error)?;
    let n = engine.rules().players as usize;
    let mut columns = Columns::new(games, engine.rules()).map_err(memory_error)?;
    let mut recorded: Vec<Outcome> = Vec::new();
    in_blocks(py, games as usize, |r| {
        let keep = (record as usize).saturating_sub(r.start);
        let block = series.play(first + r.start as u64, r.len(), threads, keep);
        for (j, o) in block.into_iter().enumerate() {
            columns.push(&o);
            if j < keep {
                recorded.push(o);
            }
        }
    })?;
    let rows = games as usize;
    let c = columns;
    let out = PyDict::new(py);
    out.set_item("landlord_won", PyArray1::from_vec(py, c.landlord_won))?;
    out.set_item("turns", PyArray1::from_vec(py, c.turns))?;
    out.set_item("bombs", PyArray1::from_vec(py, c.bombs))?;
    out.set_item("multiplier", PyArray1::from_vec(py, c.multiplier))?;
    out.set_item(
        "scores",
        PyArray1::from_vec(py, c.scores).reshape([rows, n])?,
    )?;
    // The role columns every rule set reports alike (`Columns::layout`):
    // seats as int64 (-1: none), flags as bool, `[rows]` or `[rows, width]`.
    for ((column, _), values) in c.layout.iter().zip(c.reports) {
        let array = match column.flags {
            true => PyArray1::from_vec(py, values.iter().map(|&v| v != 0).collect()).into_any(),
            false => PyArray1::from_vec(py, values).into_any(),
        };
        let array = match column.width {
            1 => array,
            w => array.call_method1("reshape", ((rows, w),))?,
        };
        out.set_item(column.key, array)?;
    }
    // Each as `Game.to_json` writes it (the engine's `table::Record`).
    let texts = recorded.iter().filter_map(|o| o.record.as_deref());
    let records = PyList::new(py, texts)?;
    out.set_item("records", records)?;
    Ok(out)
}
