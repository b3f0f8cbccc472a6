//! Deals played on the table (`crate::table`) by a built-in policy: the
//! policy only chooses among the table's legal actions.

use super::{Outcome, TableRecord};
use crate::engine::Engine;
use crate::policy::Policy;
use crate::table::{Action, Phase, Rng, Table};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::sync::Arc;

thread_local! {
    /// One table per thread, reused deal after deal (its buffers stay).
    static TABLE: RefCell<Option<Table>> = const { RefCell::new(None) };
}

/// Play deal `index` of the series `seed` on the table.
pub(super) fn play(
    engine: &Arc<Engine>,
    seed: u64,
    index: u64,
    policy: Policy,
    record: bool,
) -> Outcome {
    TABLE.with_borrow_mut(|slot| {
        let rng = Rng::for_game(seed, index);
        let table = match slot {
            Some(t) if Arc::ptr_eq(t.shared_engine(), engine) => t,
            _ => slot.insert(
                Table::new(engine.clone(), rng.clone(), Vec::new())
                    .expect("rules checked when built"),
            ),
        };
        // Only a recorded deal keeps its log (the results are the same).
        match record {
            true => table.restart(rng),
            false => table.restart_unrecorded(rng),
        }
        play_on(table, seed, index, policy, record)
    })
}

fn play_on(table: &mut Table, seed: u64, index: u64, policy: Policy, record: bool) -> Outcome {
    // The choices draw from their own generator, the deals from the table's.
    let mut rng = Rng::for_game(!seed, index);
    let mut out = Outcome::default();
    while !table.is_over() {
        let playing = table.phase() == Phase::Play;
        let i = policy.choose(table, &mut rng);
        if playing {
            out.turns += 1;
            let play = table.legal_unordered().plays.get(i);
            out.bombs += play.is_some_and(|m| m.kind.is_bomb()) as u32;
        }
        table.apply_unordered(i);
    }
    let result = table.result().expect("the deal is over");
    out.report = table.report();
    out.multiplier = result.multiplier;
    out.scores = result.scores.clone();
    if record {
        out.record = Some(record_of(table));
    }
    out
}

/// The deals and actions as `Game` records hold them.
fn record_of(table: &Table) -> TableRecord {
    let deals = table.deals().iter().map(|d| d.to_json()).collect();
    let actions = table
        .actions()
        .iter()
        .map(|taken| {
            let entry = match taken.action {
                Action::Play(m) => json!({
                    "play": m.cards.to_string(),
                    "kind": m.kind.id(),
                    "rank": m.rank_symbol().to_string(),
                    "length": m.length,
                    "ids": crate::table::physical::identities(table.cards_of(taken)),
                }),
                word => Value::String(word.to_string()),
            };
            (taken.seat, entry)
        })
        .collect();
    (deals, actions)
}
