//! `Rules.solve` and the `Solution` class: argument checks, then the core
//! solver with the GIL released.

use crate::convert::{cards_from, optional_play, value_error};
use crate::types::PyMove;
use ddz_core::solve::{Options, Position, Solver, DEFAULT_MEMORY};
use ddz_core::{Engine, Kind, Move};
use pyo3::prelude::*;
use pyo3::types::PyString;

/// The verdict of an open-hand position for the side to move.
#[pyclass(name = "Solution", module = "ddz", frozen)]
pub struct PySolution {
    win: Option<bool>,
    plays: Vec<Option<Move>>,
    nodes: u64,
    seconds: f64,
    line: Vec<(usize, Option<Move>)>,
}

/// A play as Python sees it: a `Move`, or the string "pass".
fn action(py: Python<'_>, a: &Option<Move>) -> PyResult<Py<PyAny>> {
    Ok(match a {
        Some(m) => Bound::new(py, PyMove(*m))?.into_any().unbind(),
        None => PyString::new(py, "pass").into_any().unbind(),
    })
}

#[pymethods]
impl PySolution {
    /// True: the side to move forces going out first; False: it cannot; None: budget ran out.
    #[getter]
    fn win(&self) -> Option<bool> {
        self.win
    }
    /// The winning actions at the root (Moves, or "pass"); empty when lost or unknown.
    #[getter]
    fn plays(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.plays.iter().map(|a| action(py, a)).collect()
    }
    /// Positions searched.
    #[getter]
    fn nodes(&self) -> u64 {
        self.nodes
    }
    #[getter]
    fn seconds(&self) -> f64 {
        self.seconds
    }
    /// With `line=True`: `(seat, action)` pairs to the end of the deal, the
    /// winner's winning plays against the loser's first plays in search order.
    #[getter]
    fn line(&self, py: Python<'_>) -> PyResult<Vec<(usize, Py<PyAny>)>> {
        self.line
            .iter()
            .map(|(s, a)| Ok((*s, action(py, a)?)))
            .collect()
    }
    fn __repr__(&self) -> String {
        let win = match self.win {
            Some(true) => "True",
            Some(false) => "False",
            None => "None",
        };
        let plays: Vec<String> = self
            .plays
            .iter()
            .map(|a| a.map_or("pass".to_string(), |m| m.to_string()))
            .collect();
        format!(
            "Solution(win={win}, plays={plays:?}, nodes={}, seconds={:.3})",
            self.nodes, self.seconds
        )
    }
}

/// A non-negative integer argument of at least `least`.
fn count<T: TryFrom<i64>>(name: &str, n: i64, least: i64) -> PyResult<T> {
    if n < least {
        return Err(value_error(format!(
            "{name} must be {least} or more, not {n}"
        )));
    }
    T::try_from(n).map_err(|_| value_error(format!("{name} {n} is too large")))
}

/// Kinds from names such as `"trio_single"`, checked by the core.
fn kinds(forbid: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Kind>> {
    let Some(forbid) = forbid.filter(|f| !f.is_none()) else {
        return Ok(Vec::new());
    };
    if forbid.is_instance_of::<PyString>() {
        return Err(value_error(
            "forbid takes a list of kind names, e.g. ['trio_single'], not one string",
        ));
    }
    let names: Vec<String> = forbid
        .extract()
        .map_err(|_| value_error("forbid must be a list of kind names"))?;
    names
        .iter()
        .map(|n| {
            Kind::from_id(n).ok_or_else(|| {
                value_error(format!(
                    "unknown kind {n:?} in forbid; the forbiddable kinds are {}",
                    ddz_core::solve::FORBIDDABLE.map(Kind::id).join(", ")
                ))
            })
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    engine: &Engine,
    hands: &Bound<'_, PyAny>,
    to_move: i64,
    prev: Option<&Bound<'_, PyAny>>,
    forbid: Option<&Bound<'_, PyAny>>,
    max_nodes: Option<i64>,
    max_seconds: Option<f64>,
    all: bool,
    prev_by: Option<i64>,
    max_memory: Option<i64>,
    threads: Option<&Bound<'_, PyAny>>,
    line: bool,
) -> PyResult<PySolution> {
    let items: Vec<Bound<'_, PyAny>> = if hands.is_instance_of::<PyString>() {
        return Err(value_error("hands must be a list of 2 or 3 hands"));
    } else {
        hands
            .extract()
            .map_err(|_| value_error("hands must be a list of 2 or 3 hands"))?
    };
    let hands = items.iter().map(cards_from).collect::<PyResult<Vec<_>>>()?;
    if max_seconds.is_some_and(|s| s.is_nan() || s < 0.0) {
        return Err(value_error("max_seconds must be a number of seconds ≥ 0"));
    }
    let options = Options {
        forbid: kinds(forbid)?,
        max_nodes: max_nodes.map(|n| count("max_nodes", n, 0)).transpose()?,
        max_seconds,
        all,
        max_memory: match max_memory {
            None => DEFAULT_MEMORY,
            Some(b) => count("max_memory", b, 1 << 16)?,
        },
        threads: crate::batch::threads_from(threads)?,
        ..Options::default()
    };
    let pos = Position {
        hands,
        to_move: count("to_move", to_move, 0)?,
        prev: optional_play(engine, prev)?,
        prev_by: prev_by.map(|s| count("prev_by", s, 0)).transpose()?,
    };
    let outcome = py.detach(|| {
        let mut solver = Solver::new(engine, options);
        let s = solver.solve(&pos)?;
        let line = match (line, s.win) {
            (true, Some(_)) => solver.line(&pos)?,
            _ => Vec::new(),
        };
        Ok::<_, ddz_core::solve::SolveError>((s, line))
    });
    let (s, line) = outcome.map_err(|e| match e {
        ddz_core::solve::SolveError::Forbid(_) => crate::errors::rules_error(e),
        _ => crate::errors::card_error(e),
    })?;
    Ok(PySolution {
        win: s.win,
        plays: s.plays,
        nodes: s.nodes,
        seconds: s.seconds,
        line,
    })
}
