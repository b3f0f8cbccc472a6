//! `simulate`: whole deals in Rust, results as numpy arrays.

use crate::batch::threads_from;
use crate::convert::value_error;
use crate::table::to_py;
use crate::types::PyRules;
use ddz_core::simulate::{identities, simulate_from, Action, Card, Dealt, Outcome, Policy};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// A deal as `Game` takes it; with suits and the marked card where the
/// copies matter (five-player), so that the replay holds the same copies.
/// The kitty keeps its order (six-player-3v3-kitty shares it as dealt).
fn deal_dict<'py>(py: Python<'py>, d: &Dealt) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    let (hands, kitty): (Vec<String>, String) = match &d.suited {
        Some(s) => (
            s.hands.iter().map(|h| identities(h)).collect(),
            s.kitty.iter().map(Card::to_string).collect(),
        ),
        None => (
            d.hands.iter().map(|h| h.to_string()).collect(),
            d.kitty.to_string(),
        ),
    };
    out.set_item("hands", hands)?;
    out.set_item("kitty", kitty)?;
    out.set_item("set_aside", d.set_aside.to_string())?;
    out.set_item("first", d.first)?;
    match d.suited.as_ref().map(|s| (s, s.marks)) {
        Some((_, Some([(public, at), (secret, secret_at)]))) => {
            out.set_item("marked", format!("{public}@{at}"))?;
            out.set_item("secret", format!("{secret}@{secret_at}"))?;
        }
        Some((s, None)) => out.set_item("marked", s.marked.to_string())?,
        None => {}
    }
    Ok(out)
}

fn action_item<'py>(py: Python<'py>, a: &Action) -> PyResult<Bound<'py, PyAny>> {
    Ok(match a {
        Action::Play(m, named) => {
            let d = PyDict::new(py);
            d.set_item("play", m.cards.to_string())?;
            d.set_item("kind", m.kind.id())?;
            d.set_item("rank", m.rank_symbol().to_string())?;
            d.set_item("length", m.length)?;
            if let Some(named) = named {
                d.set_item("ids", named.ids(&m.cards))?;
            }
            d.into_any()
        }
        other => other.to_string().into_pyobject(py)?.into_any(),
    })
}

/// Play `games` deals; returns a dict of numpy arrays (and, with `record`,
/// the deals and actions of the first `record` games).
#[pyfunction]
#[pyo3(signature = (rules, games, seed = 0, threads = None, policy = "random", record = 0, first = 0))]
#[allow(clippy::too_many_arguments)]
pub fn simulate<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyRules>,
    games: usize,
    seed: u64,
    threads: Option<usize>,
    policy: &str,
    record: usize,
    first: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let policy = match policy {
        "random" => Policy::Random,
        "greedy" => Policy::Greedy,
        other => {
            return Err(value_error(format!(
                "unknown policy {other:?}; the policies are: random, greedy"
            )))
        }
    };
    let threads = threads_from(threads)?;
    let engine = rules.get().engine();
    let outcomes = py
        .detach(|| simulate_from(engine, first, games, seed, threads, policy, record))
        .map_err(value_error)?;
    let n = engine.rules().players as usize;
    let out = PyDict::new(py);
    let column = |f: &dyn Fn(&Outcome) -> i64| -> Vec<i64> { outcomes.iter().map(f).collect() };
    out.set_item(
        "landlord",
        PyArray1::from_vec(py, column(&|o| o.landlord as i64)),
    )?;
    out.set_item(
        "landlord_won",
        PyArray1::from_vec(
            py,
            outcomes
                .iter()
                .map(|o| o.landlord_won)
                .collect::<Vec<bool>>(),
        ),
    )?;
    out.set_item(
        "hidden_landlord",
        PyArray1::from_vec(py, column(&|o| o.hidden_landlord.map_or(-1, |h| h as i64))),
    )?;
    out.set_item(
        "revealed",
        PyArray1::from_vec(
            py,
            outcomes.iter().map(|o| o.revealed).collect::<Vec<bool>>(),
        ),
    )?;
    out.set_item("turns", PyArray1::from_vec(py, column(&|o| o.turns as i64)))?;
    out.set_item("bombs", PyArray1::from_vec(py, column(&|o| o.bombs as i64)))?;
    out.set_item(
        "multiplier",
        PyArray1::from_vec(py, column(&|o| o.multiplier)),
    )?;
    let scores: Vec<i64> = outcomes
        .iter()
        .flat_map(|o| o.scores.iter().copied())
        .collect();
    out.set_item(
        "scores",
        PyArray1::from_vec(py, scores).reshape([games, n])?,
    )?;
    if matches!(
        engine.rules().preset.as_str(),
        "six-player-3v3" | "six-player-3v3-kitty"
    ) {
        // Seats padded with -1: up to three open and two hidden landlords.
        let seats = |pick: &dyn Fn(&Outcome) -> &[usize], width: usize| {
            let flat: Vec<i64> = outcomes
                .iter()
                .flat_map(|o| {
                    let seats = pick(o);
                    (0..width).map(move |i| seats.get(i).map_or(-1, |&s| s as i64))
                })
                .collect();
            PyArray1::from_vec(py, flat).reshape([games, width])
        };
        out.set_item("open_landlords", seats(&|o| &o.open_landlords, 3)?)?;
        out.set_item("hidden_landlords", seats(&|o| &o.hidden_landlords, 2)?)?;
        let revealed: Vec<bool> = outcomes
            .iter()
            .flat_map(|o| {
                (0..2).map(|i| {
                    o.hidden_landlords
                        .get(i)
                        .is_some_and(|h| o.revealed_landlords.contains(h))
                })
            })
            .collect();
        out.set_item(
            "hidden_revealed",
            PyArray1::from_vec(py, revealed).reshape([games, 2])?,
        )?;
    }
    let records = PyList::empty(py);
    for o in outcomes.iter().take(record) {
        let rec = PyDict::new(py);
        let deals = PyList::empty(py);
        let actions = PyList::empty(py);
        if let Some((table_deals, table_actions)) = &o.record {
            // Played on the table: already as records write them.
            for d in table_deals {
                deals.append(to_py(py, d)?)?;
            }
            for (seat, a) in table_actions {
                actions.append((seat, to_py(py, a)?))?;
            }
        }
        for d in &o.deals {
            deals.append(deal_dict(py, d)?)?;
        }
        for (seat, a) in &o.actions {
            actions.append((seat, action_item(py, a)?))?;
        }
        rec.set_item("deals", deals)?;
        rec.set_item("actions", actions)?;
        records.append(rec)?;
    }
    out.set_item("records", records)?;
    Ok(out)
}
