//! The puzzle generator's core calls: synthetic candidates and the
//! analysis of many positions on several threads, the GIL released.
//! `ddz.puzzles` builds the puzzles from them (docs/puzzles.md).

use crate::convert::{cards_from, optional_play, value_error};
use crate::types::PyRules;
use ddz_core::puzzle::{analyse_many, candidate, longest_defence, Limits, Refusal, Verdict};
use ddz_core::solve::Position;
use ddz_core::{Cards, Kind, Move};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

/// Synthetic candidates `start .. start + count` of the series `seed`:
/// each a list of `hands` card texts of `min` to `max` cards.
#[pyfunction]
#[pyo3(signature = (rules, seed, start, count, hands, min, max))]
pub fn puzzle_candidates(
    rules: &Bound<'_, PyRules>,
    seed: u64,
    start: u64,
    count: u64,
    hands: usize,
    min: usize,
    max: usize,
) -> PyResult<Vec<Vec<String>>> {
    let rules = rules.get().engine().rules().clone();
    (start..start.saturating_add(count))
        .map(|i| {
            candidate(&rules, seed, i, hands, min, max)
                .map(|h| h.iter().map(|c| c.to_string()).collect())
                .ok_or_else(|| {
                    value_error(format!(
                        "cannot deal {hands} hands of {min} to {max} cards from this deck"
                    ))
                })
        })
        .collect()
}

/// The forbidden kinds named, or a ValueError naming the one that cannot be.
fn forbidden(names: &[String]) -> PyResult<Vec<Kind>> {
    names
        .iter()
        .map(|n| {
            Kind::from_id(n)
                .filter(|k| ddz_core::solve::FORBIDDABLE.contains(k))
                .ok_or_else(|| {
                    value_error(format!(
                        "{n:?} cannot be forbidden; the forbiddable kinds are {}",
                        ddz_core::solve::FORBIDDABLE.map(Kind::id).join(", ")
                    ))
                })
        })
        .collect()
}

/// The defence's longest-resisting reply at a position the landlord's side
/// wins, the defence to move: its cards, or "pass"; None when a budget ran
/// out or the position is not one (the landlord to move, or the defence winning).
#[pyfunction]
#[pyo3(signature = (rules, hands, to_move, prev = None, prev_by = None, forbid = Vec::new(), max_nodes = 2_000_000, max_steps = 20_000))]
#[allow(clippy::too_many_arguments)]
pub fn longest_reply(
    py: Python<'_>,
    rules: &Bound<'_, PyRules>,
    hands: Vec<Bound<'_, PyAny>>,
    to_move: usize,
    prev: Option<&Bound<'_, PyAny>>,
    prev_by: Option<usize>,
    forbid: Vec<String>,
    max_nodes: u64,
    max_steps: u64,
) -> PyResult<Option<String>> {
    let engine = rules.get().shared_engine();
    let forbid = forbidden(&forbid)?;
    let pos = Position {
        hands: hands.iter().map(cards_from).collect::<PyResult<_>>()?,
        to_move,
        prev: optional_play(&engine, prev)?,
        prev_by,
    };
    let limits = Limits {
        max_nodes,
        max_steps,
        ..Limits::default()
    };
    let reply = py
        .detach(|| longest_defence(&engine, &pos, &forbid, &limits))
        .map_err(crate::errors::card_error)?;
    Ok(reply.map(|a| action_text(&a)))
}

fn action_text(a: &Option<Move>) -> String {
    a.map_or_else(|| "pass".to_string(), |m| m.to_string())
}

/// Analyse positions (lists of 2 or 3 hands, seat 0 the landlord to
/// lead): a dict per position, or None where a budget ran out.
#[pyfunction]
#[pyo3(signature = (rules, positions, forbid = Vec::new(), max_nodes = 2_000_000, max_steps = 20_000, threads = 1, screen = true))]
#[allow(clippy::too_many_arguments)]
pub fn analyse_puzzles<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyRules>,
    positions: Vec<Bound<'py, PyAny>>,
    forbid: Vec<String>,
    max_nodes: u64,
    max_steps: u64,
    threads: usize,
    screen: bool,
) -> PyResult<Vec<Option<Bound<'py, PyDict>>>> {
    let engine = rules.get().shared_engine();
    let forbid = forbidden(&forbid)?;
    let mut hands: Vec<Vec<Cards>> = Vec::with_capacity(positions.len());
    for p in &positions {
        if p.is_instance_of::<PyString>() {
            return Err(value_error("a position is a list of 2 or 3 hands"));
        }
        let items: Vec<Bound<'py, PyAny>> = p
            .extract()
            .map_err(|_| value_error("a position is a list of 2 or 3 hands"))?;
        hands.push(items.iter().map(cards_from).collect::<PyResult<_>>()?);
    }
    let limits = Limits {
        max_nodes,
        max_steps,
        screen,
        ..Limits::default()
    };
    let verdicts = py.detach(|| analyse_many(&engine, &hands, &forbid, &limits, threads.max(1)));
    let mut out = Vec::with_capacity(verdicts.len());
    for v in verdicts {
        let v = v.map_err(crate::errors::card_error)?;
        out.push(match v {
            Verdict::Unknown => None,
            Verdict::Lost => {
                let d = PyDict::new(py);
                d.set_item("win", false)?;
                Some(d)
            }
            Verdict::Refused {
                why,
                first_moves,
                losing_first_moves,
            } => {
                let d = PyDict::new(py);
                d.set_item("win", true)?;
                d.set_item("refused", why.id())?;
                d.set_item("unique", why != Refusal::NotUnique)?;
                d.set_item("first_moves", first_moves)?;
                d.set_item("losing_first_moves", losing_first_moves)?;
                Some(d)
            }
            Verdict::Won(a) => {
                let d = PyDict::new(py);
                d.set_item("win", true)?;
                let line: Vec<(usize, String)> =
                    a.line.iter().map(|(s, x)| (*s, action_text(x))).collect();
                d.set_item("line", line)?;
                let kinds: Vec<&str> = a
                    .line
                    .iter()
                    .map(|(_, x)| x.map_or("pass", |m| m.kind.id()))
                    .collect();
                d.set_item("kinds", kinds)?;
                d.set_item("choices", &a.choices)?;
                d.set_item("unique", a.unique())?;
                d.set_item("not_unique_at", a.not_unique_at)?;
                d.set_item("first_moves", a.first_moves)?;
                d.set_item("losing_first_moves", a.losing_first_moves)?;
                d.set_item("plays", a.plays)?;
                d.set_item("greedy_fails", a.greedy_fails)?;
                d.set_item("fewest_fails", a.fewest_fails)?;
                d.set_item("steps", a.steps)?;
                Some(d)
            }
        });
    }
    Ok(out)
}
