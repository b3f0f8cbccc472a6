//! `VecEnv(..., max_actions=C)`: the legal actions of every env as padded
//! `[N, C]` tensors beside the CSR rows (docs/rl.md, "Padded candidates").
//! Conversions only: the CSR arrays in, fresh numpy arrays out.

use crate::convert::value_error;
use numpy::{PyArray2, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The CSR legal rows of a step, as slices.
pub(crate) struct LegalView<'a> {
    pub offsets: &'a [i64],
    pub ids: &'a [i32],
    pub cards: &'a [u8],
    pub represents: &'a [u8],
    pub kind: &'a [i8],
    pub rank: &'a [i8],
    pub length: &'a [i8],
}

/// The keys `padded` adds, in order.
pub(crate) const KEYS: [&str; 7] = [
    "padded_ids",
    "padded_mask",
    "padded_cards",
    "padded_represents",
    "padded_kind",
    "padded_rank",
    "padded_length",
];

/// How wide the padded tensors are (`max_actions`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Width {
    /// `C` columns every step: given, or the rule set's proven widest
    /// moment (`"auto"`).
    Fixed(usize),
    /// Each step as wide as its widest env (`"step"`): the shape varies.
    Step,
}

impl Width {
    /// `max_actions` as given: None, a positive int, `"auto"` or `"step"`.
    pub(crate) fn of(
        ob: Option<&Bound<'_, PyAny>>,
        rules: &ddz_core::Rules,
    ) -> PyResult<Option<Width>> {
        let Some(ob) = ob.filter(|o| !o.is_none()) else {
            return Ok(None);
        };
        if let Ok(word) = ob.extract::<String>() {
            return match word.as_str() {
                "step" => Ok(Some(Width::Step)),
                "auto" => match ddz_core::widest::max_legal_actions(rules) {
                    Some(c) => Ok(Some(Width::Fixed(c))),
                    None if known_presets().contains(&rules.preset) => Err(value_error(format!(
                        "max_actions='auto' knows the widest moment of the preset {:?} \
                         unchanged only, not of a rule set changed from it: give \
                         max_actions=C, a width of your choice, or 'step' (each step as \
                         wide as its widest env)",
                        rules.preset
                    ))),
                    None => Err(value_error(format!(
                        "max_actions='auto' needs a rule set whose widest moment is known \
                         (the presets {} unchanged); {:?} has none: give max_actions=C, \
                         a width of your choice, or 'step' (each step as wide as its widest env)",
                        known_presets().join(", "),
                        rules.preset
                    ))),
                },
                other => Err(value_error(format!(
                    "max_actions must be a positive int, 'auto' or 'step', not {other:?}"
                ))),
            };
        }
        if ob.is_instance_of::<pyo3::types::PyBool>() {
            return Err(value_error(format!(
                "max_actions must be a positive int, 'auto' or 'step', not {}",
                ob.repr()?
            )));
        }
        match ob.extract::<i64>() {
            Ok(c) if c >= 1 => Ok(Some(Width::Fixed(c as usize))),
            Ok(_) => Err(value_error("max_actions must be at least 1")),
            Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "max_actions must be a positive int, 'auto' or 'step', not {}",
                ob.repr()?
            ))),
        }
    }

    /// The columns of a step whose CSR rows are `offsets`.
    pub(crate) fn columns(self, offsets: &[i64]) -> usize {
        match self {
            Width::Fixed(c) => c,
            Width::Step => offsets
                .windows(2)
                .map(|w| (w[1] - w[0]) as usize)
                .max()
                .unwrap_or(0)
                .max(1),
        }
    }
}

/// The presets `"auto"` knows.
fn known_presets() -> Vec<String> {
    ddz_core::widest::MOST_PLAYS_LED
        .iter()
        .map(|(p, _, _)| p.to_string())
        .collect()
}

/// An env with more legal actions than `c`, named.
pub(crate) fn check_room(offsets: &[i64], c: usize) -> PyResult<()> {
    for (i, w) in offsets.windows(2).enumerate() {
        let n = (w[1] - w[0]) as usize;
        if n > c {
            return Err(value_error(format!(
                "env {i} has {n} legal actions, more than max_actions={c}: the padded \
                 tensors cannot hold them (the step was taken; the CSR rows hold every \
                 action). Make the env with a larger max_actions, or max_actions='step'"
            )));
        }
    }
    Ok(())
}

/// Env `i`'s legal rows padded to `c` columns into `out` (`width` values a
/// row), `pad` where env `i` has fewer.
pub(crate) fn pad_rows<T: Copy>(
    src: &[T],
    offsets: &[i64],
    c: usize,
    width: usize,
    pad: T,
    out: &mut [T],
) {
    out.fill(pad);
    for (i, w) in offsets.windows(2).enumerate() {
        let (a, b) = (w[0] as usize, w[1] as usize);
        let dst = &mut out[i * c * width..(i * c + (b - a)) * width];
        dst.copy_from_slice(&src[a * width..b * width]);
    }
}

/// The padded tensors of `l` into `out`: `padded_ids` int32 `[N, C]` (-1
/// past an env's actions), `padded_mask` bool `[N, C]`, and each legal
/// column padded (`cards`/`represents` `[N, C, 16]` zeros, `kind` -1,
/// `rank`/`length` 0).
pub(crate) fn write(
    py: Python<'_>,
    l: &LegalView<'_>,
    c: usize,
    out: &Bound<'_, PyDict>,
) -> PyResult<()> {
    check_room(l.offsets, c)?;
    let n = l.offsets.len() - 1;
    let ids = PyArray2::<i32>::zeros(py, [n, c], false);
    let mask = PyArray2::<bool>::zeros(py, [n, c], false);
    let cards = PyArray3::<u8>::zeros(py, [n, c, 16], false);
    let reps = PyArray3::<u8>::zeros(py, [n, c, 16], false);
    let kind = PyArray2::<i8>::zeros(py, [n, c], false);
    let rank = PyArray2::<i8>::zeros(py, [n, c], false);
    let length = PyArray2::<i8>::zeros(py, [n, c], false);
    {
        let mut m = mask.readwrite();
        let m = m.as_slice_mut()?;
        for (i, w) in l.offsets.windows(2).enumerate() {
            m[i * c..i * c + (w[1] - w[0]) as usize].fill(true);
        }
        let mut a = ids.readwrite();
        if l.ids.is_empty() {
            a.as_slice_mut()?.fill(-1);
        } else {
            pad_rows(l.ids, l.offsets, c, 1, -1, a.as_slice_mut()?);
        }
        pad_rows(
            l.cards,
            l.offsets,
            c,
            16,
            0,
            cards.readwrite().as_slice_mut()?,
        );
        pad_rows(
            l.represents,
            l.offsets,
            c,
            16,
            0,
            reps.readwrite().as_slice_mut()?,
        );
        pad_rows(
            l.kind,
            l.offsets,
            c,
            1,
            -1,
            kind.readwrite().as_slice_mut()?,
        );
        pad_rows(l.rank, l.offsets, c, 1, 0, rank.readwrite().as_slice_mut()?);
        pad_rows(
            l.length,
            l.offsets,
            c,
            1,
            0,
            length.readwrite().as_slice_mut()?,
        );
    }
    let arrays = [
        ids.into_any(),
        mask.into_any(),
        cards.into_any(),
        reps.into_any(),
        kind.into_any(),
        rank.into_any(),
        length.into_any(),
    ];
    for (k, a) in KEYS.iter().zip(arrays) {
        out.set_item(k, a)?;
    }
    Ok(())
}
