//! `ActionMasks`: a one-env `VecEnv` stepped by action id for the
//! PettingZoo adapter without making arrays: each seat's observation row
//! and action mask are numpy arrays made once, written in place
//! (`ddz_core::vecenv::ids`). The ids and the step are `VecEnv`'s own.

use crate::convert::value_error;
use crate::vecenv::PyVecEnv;
use ddz_core::vecenv::arrays::Column;
use ddz_core::vecenv::ids::SeatMasks;
use numpy::{Element, PyArray1, PyArrayDyn, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

#[pyclass(name = "ActionMasks", module = "ddz")]
pub struct PyActionMasks {
    vec: Py<PyVecEnv>,
    masks: SeatMasks,
    /// Per seat, its row arrays in the order of the env's columns.
    rows: Vec<Vec<Py<PyAny>>>,
    arrays: Vec<Py<PyArray1<i8>>>,
}

/// Copy `s` into the numpy array `dst` (same dtype and size).
fn write<T: Element + Copy>(dst: &Bound<'_, PyAny>, s: &[T], name: &str) -> PyResult<()> {
    let a = dst
        .cast::<PyArrayDyn<T>>()
        .map_err(|_| value_error(format!("the {name} array has the wrong dtype")))?;
    // SAFETY: the GIL is held and nothing else runs while we write; the
    // array is C-contiguous (checked by `as_slice_mut`) and owned by the
    // adapter, which hands it out read-only in spirit (docs/rl.md).
    let out = unsafe { a.as_slice_mut() }.map_err(|e| value_error(e.to_string()))?;
    if out.len() != s.len() {
        return Err(value_error(format!(
            "the {name} array holds {} values, not {}",
            out.len(),
            s.len()
        )));
    }
    out.copy_from_slice(s);
    Ok(())
}

impl PyActionMasks {
    /// The seat to act's row arrays and mask to the env's latest moment.
    fn refresh_seat(&mut self, py: Python<'_>) -> PyResult<usize> {
        let vec = self.vec.borrow(py);
        let env = vec.core();
        let seat = env.obs().seat[0] as usize;
        let rows = self
            .rows
            .get(seat)
            .ok_or_else(|| value_error(format!("no arrays for seat {seat}")))?;
        let mut dst = rows.iter();
        env.obs().each_column(|name, c| {
            let dst = dst
                .next()
                .ok_or_else(|| value_error(format!("no array for {name}")))?
                .bind(py);
            match c {
                Column::U8(s) => write(dst, s, name),
                Column::I8(s) => write(dst, s, name),
                Column::I16(s) => write(dst, s, name),
                Column::I32(s) => write(dst, s, name),
                Column::I64(s) => write(dst, s, name),
                Column::F32(s) => write(dst, s, name),
                Column::Bool(s) => write(dst, s, name),
            }
        })?;
        let mask = self.arrays[seat].bind(py);
        // SAFETY: as in `write`.
        let mask = unsafe { mask.as_slice_mut() }.map_err(|e| value_error(e.to_string()))?;
        self.masks
            .refresh(seat, &env.legal().ids, mask)
            .map_err(value_error)?;
        Ok(seat)
    }
}

#[pymethods]
impl PyActionMasks {
    /// `ActionMasks(vec, rows, masks)`: `vec` a one-env VecEnv that numbers
    /// its actions (`legal_ids=True`); per seat, `rows` a dict of the row
    /// arrays (every observation column, in order) and `masks` an int8
    /// array over every id, all zero.
    #[new]
    fn new(
        py: Python<'_>,
        vec: Py<PyVecEnv>,
        rows: Vec<Bound<'_, PyDict>>,
        masks: Vec<Py<PyArray1<i8>>>,
    ) -> PyResult<Self> {
        let (players, names, size) = {
            let v = vec.borrow(py);
            let env = v.core();
            if env.num_envs() != 1 {
                return Err(value_error("ActionMasks needs a VecEnv of one env"));
            }
            let Some(table) = env.options().ids.as_ref() else {
                return Err(value_error(
                    "ActionMasks needs a VecEnv with legal_ids=True",
                ));
            };
            let d = env.dims();
            let names: Vec<&str> = env.obs().columns(&d).iter().map(|c| c.0).collect();
            (d.players, names, table.len())
        };
        if rows.len() != players || masks.len() != players {
            return Err(value_error(format!(
                "rows and masks are needed for each of {players} seats"
            )));
        }
        let mut by_seat = Vec::with_capacity(players);
        for d in &rows {
            let mut arrays = Vec::with_capacity(names.len());
            for name in &names {
                let a = d
                    .get_item(name)?
                    .ok_or_else(|| value_error(format!("rows lack {name:?}")))?;
                arrays.push(a.unbind());
            }
            by_seat.push(arrays);
        }
        Ok(PyActionMasks {
            vec,
            masks: SeatMasks::new(size, players),
            rows: by_seat,
            arrays: masks,
        })
    }

    /// A new deal has begun on the VecEnv: clear every mask, then write the
    /// seat to act's arrays; returns that seat.
    fn restart(&mut self, py: Python<'_>) -> PyResult<usize> {
        let mut views = Vec::with_capacity(self.arrays.len());
        let bound: Vec<_> = self.arrays.iter().map(|m| m.bind(py).clone()).collect();
        for m in &bound {
            // SAFETY: as in `write`; the masks are distinct arrays.
            views.push(unsafe { m.as_slice_mut() }.map_err(|e| value_error(e.to_string()))?);
        }
        self.masks.clear(&mut views);
        self.refresh_seat(py)
    }

    /// The legal index of action `id` for `seat` now, None if not legal
    /// (or `seat` is not to act).
    fn legal_index(&self, py: Python<'_>, seat: usize, id: i64) -> Option<usize> {
        let vec = self.vec.borrow(py);
        let env = vec.core();
        (env.obs().seat[0] as usize == seat)
            .then(|| env.index_of_id(0, id))
            .flatten()
    }

    /// Take action id `id` (`VecEnv`'s step by id). While the deal goes
    /// on: the next seat (its arrays written). At its end or cut:
    /// `(rewards, info)` as `VecEnv.step` gives them (the
    /// VecEnv has dealt again; call `restart()` when the adapter moves on).
    fn step<'py>(&mut self, py: Python<'py>, id: i64) -> PyResult<Bound<'py, PyAny>> {
        let ended = {
            let mut v = self.vec.borrow_mut(py);
            let env = v.core_mut();
            let index = env
                .indices_of_ids(&[id])
                .map_err(|e| crate::errors::illegal_action(e, Default::default()))?;
            env.step(&index)
                .map_err(|e| crate::errors::illegal_action(e, Default::default()))?;
            let out = env.outcome();
            out.terminated[0] || out.truncated[0]
        };
        if !ended {
            return Ok(self.refresh_seat(py)?.into_pyobject(py)?.into_any());
        }
        let (rewards, _, truncated, info) = self.vec.borrow(py).outcome(py)?;
        info.set_item("truncated", truncated)?;
        Ok(PyTuple::new(py, [rewards, info.into_any()])?.into_any())
    }
}
