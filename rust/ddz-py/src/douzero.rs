//! `DouZeroCore`: DouZero's classic game and encoder (`ddz_core::encode::douzero`)
//! for `ddz.envs.douzero.Env`. Conversions only: card lists in, numpy
//! arrays and card lists out.

use crate::convert::value_error;
use crate::types::PyMove;
use ddz_core::encode::douzero::{Game, Row, DZ_OF_SLOT, FEATURES, Z_LEN};
use ddz_core::table::Rng;
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

#[pyclass(name = "DouZeroCore", module = "ddz")]
pub struct PyDouZeroCore {
    game: Game,
    rng: Rng,
}

/// A DouZero card list as a count row.
fn row_of(cards: &Bound<'_, PyAny>) -> PyResult<Row> {
    let mut row = [0u8; 16];
    for card in cards.try_iter()? {
        let card = card?;
        let slot = card
            .extract::<i64>()
            .ok()
            .and_then(ddz_core::encode::douzero::slot_of)
            .ok_or_else(|| {
                let shown = card.repr().map(|r| r.to_string()).unwrap_or_default();
                value_error(format!("{shown} is no DouZero card (3..14, 17, 20, 30)"))
            })?;
        row[slot] = row[slot].saturating_add(1);
    }
    Ok(row)
}

fn cards_of<'py>(py: Python<'py>, row: &Row) -> PyResult<Bound<'py, PyList>> {
    let cards = DZ_OF_SLOT
        .iter()
        .zip(row)
        .flat_map(|(&v, &c)| std::iter::repeat_n(v, c as usize));
    PyList::new(py, cards)
}

#[pymethods]
impl PyDouZeroCore {
    /// `DouZeroCore(seed)`: no deal until `deal()` or `reset(...)`.
    #[new]
    fn new(seed: u64) -> Self {
        PyDouZeroCore {
            game: Game::new(),
            rng: Rng::for_game(seed, 0),
        }
    }

    /// A random deal in DouZero's layout, from the core's generator.
    fn deal(&mut self) {
        self.game.deal(&mut self.rng);
    }

    /// The deal `hands` (three count rows by seat, the landlord's 20 cards
    /// holding the 3 of `kitty`).
    fn reset(&mut self, hands: [[u8; 16]; 3], kitty: [u8; 16]) -> PyResult<()> {
        self.game.reset(hands, kitty).map_err(value_error)
    }

    /// Play the card list `action` (one of `observe()`'s); the landlord's
    /// win (True/False) once the deal is over, else None.
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<Option<bool>> {
        let at = row_of(action)?;
        let Some(i) = self.game.find(&at) else {
            return Err(value_error(format!(
                "{} is not among obs['legal_actions']",
                action.repr()?
            )));
        };
        let over = self.game.step(i).map_err(value_error)?;
        Ok(over.then(|| self.game.landlord_won().unwrap_or(false)))
    }

    /// `(seat, x_batch, z_batch, x_no_action, z, legal_actions)` of the
    /// seat to act, in DouZero's shapes and dtypes.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let g = &self.game;
        let (w, m) = (g.width(), g.rows().len());
        // SAFETY: made uninitialised, C-ordered; `encode` and `encode_batch`
        // write every element before Python can see the arrays.
        let (x_no_action, z, x_batch, z_batch) = unsafe {
            (
                PyArray1::<i8>::new(py, w, false),
                PyArray2::<i8>::new(py, [5, Z_LEN / 5], false),
                PyArray2::<f32>::new(py, [m, w + FEATURES], false),
                PyArray3::<f32>::new(py, [m, 5, Z_LEN / 5], false),
            )
        };
        {
            let (mut xa, mut za) = (x_no_action.readwrite(), z.readwrite());
            let (mut xb, mut zb) = (x_batch.readwrite(), z_batch.readwrite());
            let (xa, za) = (xa.as_slice_mut()?, za.as_slice_mut()?);
            g.encode(xa, za);
            g.encode_batch(xa, za, xb.as_slice_mut()?, zb.as_slice_mut()?);
        }
        let legal = PyList::empty(py);
        for row in g.rows() {
            legal.append(cards_of(py, row)?)?;
        }
        PyTuple::new(
            py,
            [
                g.seat().into_pyobject(py)?.into_any(),
                x_batch.into_any(),
                z_batch.into_any(),
                x_no_action.into_any(),
                z.into_any(),
                legal.into_any(),
            ],
        )
    }

    /// Each seat's hand, as count rows (int16[3, 16]).
    fn hands<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i16>>> {
        let rows: Vec<Vec<i16>> = self
            .game
            .hands()
            .iter()
            .map(|h| h.iter().map(|&c| i16::from(c)).collect())
            .collect();
        Ok(PyArray2::from_vec2(py, &rows)?)
    }

    /// The play to beat (None when leading).
    fn rival_move(&self) -> Option<PyMove> {
        self.game.rival().map(|m| PyMove(*m))
    }

    /// Bombs and rockets played so far.
    #[getter]
    fn bombs(&self) -> usize {
        self.game.bombs()
    }
}
