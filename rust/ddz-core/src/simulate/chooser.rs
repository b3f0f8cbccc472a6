//! Deals played on the table (`crate::table`) by a built-in policy: the
//! policy only chooses among the table's legal actions.

use super::Outcome;
use crate::engine::Engine;
use crate::policy::Policy;
use crate::table::{Phase, Record, Rng, Table};
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
        out.record = Some(Record::of(table, &seed.to_string()).to_json());
    }
    out
}
