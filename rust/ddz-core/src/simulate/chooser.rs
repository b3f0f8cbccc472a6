//! Deals played on the table (`crate::table`) by built-in policies: a
//! policy only chooses among the table's legal actions.

use super::seats::{scripted, Opening, Seats};
use super::Outcome;
use crate::engine::Engine;
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
    how: Players<'_>,
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
        // Only a recorded deal keeps its log (the results are the same),
        // and a policy that reads the cards played needs it.
        match record || how.seats.reads_record() {
            true => table.restart(rng),
            false => table.restart_unrecorded(rng),
        }
        play_on(table, seed, index, how, record)
    })
}

/// Who decides: the seats' policies, and the script of the opening.
#[derive(Clone, Copy)]
pub(super) struct Players<'a> {
    pub seats: &'a Seats,
    pub opening: Opening,
}

fn play_on(table: &mut Table, seed: u64, index: u64, how: Players<'_>, record: bool) -> Outcome {
    // The choices draw from their own generators, the deals from the table's.
    let mut rngs = how
        .seats
        .generators(seed, index, table.rules().players as usize);
    let scripted_opening = how.opening == Opening::SeatZeroLandlord;
    let mut out = Outcome::default();
    while !table.is_over() {
        let playing = table.phase() == Phase::Play;
        let seat = table.to_act();
        let i = match scripted_opening && !playing {
            true => scripted(table),
            false => how.seats.of(seat).choose(table, rngs.of(seat)),
        };
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
