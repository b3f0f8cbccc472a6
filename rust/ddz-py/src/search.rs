//! `search_act`: the search player on a table rebuilt from an observation
//! (`ddz.agents.SearchAgent`). The search itself is `ddz_core::search`.

use crate::convert::value_error;
use crate::types::PyRules;
use ddz_core::policy::Policy;
use ddz_core::search::rebuild::{rebuild, View};
use ddz_core::search::{decide, levels, SearchBudget};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// A level's budget (None: level 8, the default search), its playouts and
/// time limit replaced where given; a clear error for a level not 1 to 8.
pub(crate) fn level_budget(
    level: Option<u8>,
    playouts: Option<u32>,
    budget_us: Option<u32>,
    threads: Option<u8>,
) -> PyResult<SearchBudget> {
    let base = match level {
        None => SearchBudget::DEFAULT,
        Some(l) => levels::budget(l)
            .ok_or_else(|| value_error(format!("level must be 1 to 8, not {l}")))?,
    };
    Ok(SearchBudget {
        playouts: playouts.unwrap_or(base.playouts).max(1),
        budget_us: budget_us.unwrap_or(base.budget_us),
        threads: threads.unwrap_or(1).max(1),
        level: base.level,
    })
}

/// The search's choice for the seat of `observation` (its JSON text, as
/// `Game.observation` gives it): `(index, text)`, the index into the
/// legal actions in `Game`'s order and the action's text; None where no
/// deal replays to the observation (one edited by hand, say: the agent's
/// fallback decides there).
#[pyfunction]
#[pyo3(signature = (rules, observation, seed = 0, playouts = None, budget_us = None, threads = None, level = None))]
#[allow(clippy::too_many_arguments)]
pub fn search_act(
    py: Python<'_>,
    rules: &Bound<'_, PyRules>,
    observation: &str,
    seed: u64,
    playouts: Option<u32>,
    budget_us: Option<u32>,
    threads: Option<u8>,
    level: Option<u8>,
) -> PyResult<Option<(usize, String)>> {
    let value: serde_json::Value = serde_json::from_str(observation)
        .map_err(|e| value_error(format!("the observation is not JSON: {e}")))?;
    let view = View::from_json(&value).map_err(value_error)?;
    let engine = rules.get().shared_engine();
    let budget = level_budget(level, playouts, budget_us, threads)?;
    if value.get("legal_actions").is_none() {
        return Err(value_error(
            "the observation's seat is not to act (no legal_actions)",
        ));
    }
    py.detach(move || {
        let Ok(mut table) = rebuild(engine, &view, seed) else {
            return Ok(None);
        };
        if table.is_over() || table.to_act() != view.seat {
            return Ok(None);
        }
        let d = decide(&mut table, budget, seed);
        let legal = table.legal();
        let text = legal
            .get(d.index)
            .map(|a| a.to_string())
            .unwrap_or_default();
        Ok(Some((d.index, text)))
    })
}

/// The built-in policy `name`, or a ValueError naming the policies.
pub(crate) fn policy_named(name: &str) -> PyResult<Policy> {
    Policy::from_name(name).ok_or_else(|| {
        value_error(format!(
            "unknown policy {name:?}; the policies are: {}",
            Policy::NAMES
        ))
    })
}

/// As `search_act`, for the built-in policy `name` (`ddz.agents.RuleAgent`):
/// `(index, text)` on a table rebuilt from the observation, or None where
/// no deal replays to it.
#[pyfunction]
#[pyo3(signature = (rules, observation, policy, seed = 0))]
pub fn policy_act(
    py: Python<'_>,
    rules: &Bound<'_, PyRules>,
    observation: &str,
    policy: &str,
    seed: u64,
) -> PyResult<Option<(usize, String)>> {
    let policy = policy_named(policy)?;
    let value: serde_json::Value = serde_json::from_str(observation)
        .map_err(|e| value_error(format!("the observation is not JSON: {e}")))?;
    let view = View::from_json(&value).map_err(value_error)?;
    if value.get("legal_actions").is_none() {
        return Err(value_error(
            "the observation's seat is not to act (no legal_actions)",
        ));
    }
    let engine = rules.get().shared_engine();
    py.detach(move || {
        let Ok(mut table) = rebuild(engine, &view, seed) else {
            return Ok(None);
        };
        if table.is_over() || table.to_act() != view.seat {
            return Ok(None);
        }
        table.order_legal();
        let i = policy.choose(&mut table, &mut ddz_core::table::Rng(seed));
        let action = table.legal_unordered().get(i).expect("a legal index");
        table.order_legal();
        let at = table.legal_unordered().iter().position(|a| a == action);
        let index = at.unwrap_or(i);
        Ok(Some((index, action.to_string())))
    })
}

/// The analysis of a deal's record (`ddz.analyse`): for every decision of
/// `seats` (all where empty) with more than one legal action, a dict of
/// `number`, `seat`, `played` (the action's text), `candidates` (a list of
/// `(text, wp, low, high, samples)`, best first, the played action among
/// them) and `win_before` / `win_after` (the solver's verdicts for the
/// seat's side, None where it gave none).
#[pyfunction]
#[pyo3(signature = (record, seats, k = 3, seed = 0, playouts = None, budget_us = None, threads = None, solve_nodes = 200_000))]
#[allow(clippy::too_many_arguments)]
pub fn analyse_record<'py>(
    py: Python<'py>,
    record: &str,
    seats: Vec<usize>,
    k: usize,
    seed: u64,
    playouts: Option<u32>,
    budget_us: Option<u32>,
    threads: Option<usize>,
    solve_nodes: u64,
) -> PyResult<Bound<'py, PyList>> {
    use ddz_core::search::analysis::{analyse, moments, Options};
    use ddz_core::table::Record;
    use ddz_core::Engine;
    let record = Record::parse(record).map_err(|e| value_error(e.to_string()))?;
    let players = usize::from(record.rules.players);
    if let Some(s) = seats.iter().find(|&&s| s >= players) {
        return Err(value_error(format!(
            "seats must be 0 to {}, not {s}",
            players - 1
        )));
    }
    let engine = Engine::new(record.rules.clone()).map_err(value_error)?;
    let (tables, taken) =
        moments(&record, std::sync::Arc::new(engine)).map_err(|e| value_error(e.to_string()))?;
    let options = Options {
        budget: level_budget(None, playouts, budget_us, Some(1))?,
        k,
        seed,
        threads: threads.unwrap_or_else(ddz_core::batch::default_threads),
        solve_nodes,
    };
    let found = py.detach(|| analyse(&tables, &taken, &seats, options));
    let out = PyList::empty(py);
    for m in found {
        let d = PyDict::new(py);
        d.set_item("number", m.number)?;
        d.set_item("seat", m.seat)?;
        d.set_item("played", m.played.to_string())?;
        let candidates: Vec<(String, f64, f64, f64, u32)> = m
            .ranked
            .iter()
            .map(|r| (r.action.to_string(), r.wp, r.low, r.high, r.samples))
            .collect();
        d.set_item("candidates", candidates)?;
        d.set_item("win_before", m.win_before)?;
        d.set_item("win_after", m.win_after)?;
        out.append(d)?;
    }
    Ok(out)
}
