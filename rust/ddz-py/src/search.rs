//! `search_act`: the search player on a table rebuilt from an observation
//! (`ddz.agents.SearchAgent`). The search itself is `ddz_core::search`.

use crate::convert::value_error;
use crate::types::PyRules;
use ddz_core::policy::Policy;
use ddz_core::search::rebuild::{rebuild, View};
use ddz_core::search::{decide, SearchBudget};
use pyo3::prelude::*;

/// A search budget from the bindings' arguments: the default's where
/// None (one thread).
pub(crate) fn budget(
    playouts: Option<u32>,
    budget_us: Option<u32>,
    threads: Option<u8>,
) -> SearchBudget {
    let default = SearchBudget::DEFAULT;
    SearchBudget {
        playouts: playouts.unwrap_or(default.playouts).max(1),
        budget_us: budget_us.unwrap_or(default.budget_us),
        threads: threads.unwrap_or(1).max(1),
    }
}

/// The search's choice for the seat of `observation` (its JSON text, as
/// `Game.observation` gives it): `(index, text)`, the index into the
/// legal actions in `Game`'s order and the action's text; None where no
/// deal replays to the observation (one edited by hand, say: the agent's
/// fallback decides there).
#[pyfunction]
#[pyo3(signature = (rules, observation, seed = 0, playouts = None, budget_us = None, threads = None))]
pub fn search_act(
    py: Python<'_>,
    rules: &Bound<'_, PyRules>,
    observation: &str,
    seed: u64,
    playouts: Option<u32>,
    budget_us: Option<u32>,
    threads: Option<u8>,
) -> PyResult<Option<(usize, String)>> {
    let value: serde_json::Value = serde_json::from_str(observation)
        .map_err(|e| value_error(format!("the observation is not JSON: {e}")))?;
    let view = View::from_json(&value).map_err(value_error)?;
    let engine = rules.get().shared_engine();
    let budget = budget(playouts, budget_us, threads);
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
