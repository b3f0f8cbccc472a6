//! Python bindings of `ddz-core`: conversions at the boundary, no game logic.

mod convert;
mod movelist;
mod types;

use pyo3::prelude::*;

#[pymodule]
fn _ddz(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<types::PyRules>()?;
    m.add_class::<types::PyCards>()?;
    m.add_class::<types::PyMove>()?;
    m.add_class::<movelist::MoveList>()?;
    let presets = pyo3::types::PyTuple::new(m.py(), ddz_core::PRESETS)?;
    m.add("PRESETS", presets)?;
    Ok(())
}
