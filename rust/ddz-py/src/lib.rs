//! Python bindings of `ddz-core`: conversions at the boundary, no game logic.

mod action_table;
mod batch;
mod convert;
mod douzero;
mod errors;
mod movelist;
mod observe;
mod padded;
mod puzzle;
mod search;
mod seating;
mod simulate;
mod solve;
mod table;
mod types;
mod vecenv;
mod zoo;

use pyo3::prelude::*;

/// Threads the batch APIs use when none are named: `DDZ_NUM_THREADS`, else every core.
#[pyfunction]
fn default_threads() -> usize {
    ddz_core::batch::default_threads()
}

#[pymodule]
fn _ddz(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(default_threads, m)?)?;
    m.add_function(wrap_pyfunction!(simulate::simulate, m)?)?;
    m.add_function(wrap_pyfunction!(simulate::play_seated, m)?)?;
    m.add_function(wrap_pyfunction!(table::greedy_choice, m)?)?;
    m.add_function(wrap_pyfunction!(search::search_act, m)?)?;
    m.add_function(wrap_pyfunction!(search::policy_act, m)?)?;
    m.add_function(wrap_pyfunction!(search::analyse_record, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::puzzle_candidates, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::analyse_puzzles, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::longest_reply, m)?)?;
    m.add_class::<types::PyRules>()?;
    types::add_option_getters(&m.py().get_type::<types::PyRules>())?;
    m.add_class::<types::PyCards>()?;
    m.add_class::<types::PyMove>()?;
    m.add_class::<movelist::MoveList>()?;
    m.add_class::<solve::PySolution>()?;
    m.add_class::<table::PyTable>()?;
    m.add_class::<table::ActionList>()?;
    m.add_class::<vecenv::PyVecEnv>()?;
    m.add_class::<action_table::PyActionTable>()?;
    m.add_class::<douzero::PyDouZeroCore>()?;
    m.add_class::<zoo::PyActionMasks>()?;
    m.add("IllegalAction", m.py().get_type::<errors::IllegalAction>())?;
    let presets = pyo3::types::PyTuple::new(m.py(), ddz_core::PRESETS)?;
    m.add("PRESETS", presets)?;
    // The table's vocabulary (`ddz.types` spells the same as `Literal`s).
    let words = ddz_core::table::action::WORDS.map(|(w, _)| w);
    m.add("ACTION_WORDS", pyo3::types::PyTuple::new(m.py(), words)?)?;
    m.add("RECORD_FORMAT", ddz_core::table::record::FORMAT)?;
    let formats = pyo3::types::PyTuple::new(m.py(), ddz_core::table::record::FORMATS)?;
    m.add("RECORD_FORMATS", formats)?;
    let phases = ddz_core::table::Phase::ALL.map(|p| p.name());
    m.add("PHASES", pyo3::types::PyTuple::new(m.py(), phases)?)?;
    // The one version of the project: Cargo.toml's [workspace.package].
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
