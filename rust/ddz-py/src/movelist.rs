//! `MoveList`: the plays of `moves()` / `hint()` as an immutable sequence.
//!
//! Building one Python object per play costs more than generating the plays
//! (about 25 ns against 7 ns each), and most callers touch only a few of
//! them: a `MoveList` keeps the plays in Rust and makes a `Move` only when
//! one is read.

use crate::types::{to_list, PyCards, PyMove};
use ddz_core::table::Action;
use ddz_core::vecenv::kinds::describe;
use ddz_core::Move;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PySlice};

/// Actions as `VecEnv`'s legal columns: `cards`, `represents`, `kind`,
/// `rank`, `length` (a word's cards are zeros).
pub(crate) fn columns<'py>(py: Python<'py>, actions: &[Action]) -> PyResult<Bound<'py, PyDict>> {
    let n = actions.len();
    let (mut kind, mut rank, mut length) = (vec![0i8; n], vec![0i8; n], vec![0i8; n]);
    let (mut cards, mut represents) = (vec![0u8; n * 16], vec![0u8; n * 16]);
    for (i, a) in actions.iter().enumerate() {
        (kind[i], rank[i], length[i]) = describe(a);
        if let Action::Play(m) = a {
            cards[i * 16..][..16].copy_from_slice(&m.cards.0);
            represents[i * 16..][..16].copy_from_slice(&m.represents.0);
        }
    }
    let out = PyDict::new(py);
    out.set_item("cards", PyArray1::from_vec(py, cards).reshape([n, 16])?)?;
    out.set_item(
        "represents",
        PyArray1::from_vec(py, represents).reshape([n, 16])?,
    )?;
    out.set_item("kind", PyArray1::from_vec(py, kind))?;
    out.set_item("rank", PyArray1::from_vec(py, rank))?;
    out.set_item("length", PyArray1::from_vec(py, length))?;
    Ok(out)
}

#[pyclass(name = "MoveList", module = "ddz", frozen, sequence)]
pub struct MoveList {
    moves: Vec<Move>,
}

impl MoveList {
    pub fn new(moves: Vec<Move>) -> Self {
        MoveList { moves }
    }

    fn as_move(item: &Bound<'_, PyAny>) -> Option<Move> {
        item.cast::<PyMove>().ok().map(|m| m.get().0)
    }
}

#[pymethods]
impl MoveList {
    fn __len__(&self) -> usize {
        self.moves.len()
    }

    /// An index gives a `Move`; a slice gives a list of them.
    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(slice) = index.cast::<PySlice>() {
            let idx = slice.indices(self.moves.len() as isize)?;
            let picked: Vec<Move> = (0..idx.slicelength)
                .map(|i| self.moves[(idx.start + i as isize * idx.step) as usize])
                .collect();
            return Ok(to_list(py, &picked)?.into_any());
        }
        let i: isize = index.extract()?;
        let n = self.moves.len() as isize;
        let at = if i < 0 { i + n } else { i };
        if !(0..n).contains(&at) {
            return Err(PyIndexError::new_err("MoveList index out of range"));
        }
        Ok(Bound::new(py, PyMove(self.moves[at as usize]))?.into_any())
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_list(py, &self.moves)?.try_iter().map(|it| it.into_any())
    }

    fn __contains__(&self, item: &Bound<'_, PyAny>) -> bool {
        Self::as_move(item).is_some_and(|m| self.moves.contains(&m))
    }

    /// Equal to another `MoveList` or to any sequence of the same moves in order.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(o) = other.cast::<MoveList>() {
            return o.get().moves == self.moves;
        }
        let Ok(items) = other.extract::<Vec<Bound<'_, PyAny>>>() else {
            return false;
        };
        items.len() == self.moves.len()
            && items
                .iter()
                .zip(&self.moves)
                .all(|(item, m)| Self::as_move(item) == Some(*m))
    }

    fn index(&self, item: &Bound<'_, PyAny>) -> PyResult<usize> {
        Self::as_move(item)
            .and_then(|m| self.moves.iter().position(|x| *x == m))
            .ok_or_else(|| PyValueError::new_err("move is not in the list"))
    }

    fn count(&self, item: &Bound<'_, PyAny>) -> usize {
        Self::as_move(item).map_or(0, |m| self.moves.iter().filter(|x| **x == m).count())
    }

    /// The cards of every play as a numpy `uint8[len, 16]` array of counts.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let flat: Vec<u8> = self.moves.iter().flat_map(|m| m.cards.0).collect();
        PyArray1::from_vec(py, flat).reshape([self.moves.len(), 16])
    }

    /// Every play as the columns `VecEnv` lists legal actions in (docs/rl.md):
    /// `cards`, `represents` (`uint8[len, 16]`), `kind`, `rank`, `length`
    /// (`int8[len]`, `VecEnv.kind_names` ids). The RL adapters build their
    /// action tables from it without making a `Move` per play.
    fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let actions: Vec<Action> = self.moves.iter().map(|m| Action::Play(*m)).collect();
        columns(py, &actions)
    }

    /// The cards of every play, as `Cards`.
    fn cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.moves.iter().map(|m| PyCards(m.cards)))
    }

    fn __repr__(&self) -> String {
        let shown: Vec<String> = self.moves.iter().take(8).map(|m| m.to_string()).collect();
        let more = if self.moves.len() > 8 { ", …" } else { "" };
        format!(
            "MoveList([{}{more}], len={})",
            shown.join(", "),
            self.moves.len()
        )
    }
}
