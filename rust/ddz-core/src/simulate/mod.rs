//! Whole deals played in Rust by built-in policies, on the table
//! (`crate::table`): the policy only chooses among the table's legal
//! actions (`chooser.rs`), so `simulate` follows every rule exactly as
//! `Game` does. Every deal draws from its own generators, seeded from
//! (seed, deal index), so results do not depend on the number of threads.
//!
//! This file holds the driver (`Series`: a rule set, seed and policy, played
//! in parts on any number of threads), the policies, and the action and
//! outcome types that records and result columns (`columns.rs`) are made of.

mod chooser;
pub mod columns;
pub mod seats;

use crate::batch;
use crate::engine::Engine;
use std::fmt;

pub use crate::batch::TooBig;
pub use columns::Columns;
pub use seats::{Opening, Seats};

pub use crate::policy::Policy;
use crate::table::Report;

/// What happened in one simulated deal.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Who won, and the roles the family reports (`table::Report`: the
    /// landlord first; `columns.rs` lays them out).
    pub report: Report,
    /// Plays and passes in the trick phase.
    pub turns: u32,
    /// Bombs and king bombs played.
    pub bombs: u32,
    pub multiplier: i64,
    pub scores: Vec<i64>,
    /// The deal's record (`table::Record`'s text, as `Game.to_json`
    /// writes it), when recorded.
    pub record: Option<String>,
}

/// Why a rule set cannot be simulated: its flow could not play it to the
/// end (the check `ddz.Rules` runs; an `Engine` built in Rust may skip it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "simulate cannot play this rule set: {}", self.0)
    }
}

impl std::error::Error for Unsupported {}

/// Every rule set its flow can play; the rest are refused.
fn check_playable(engine: &Engine) -> Result<(), Unsupported> {
    crate::table::check_rules(engine.rules()).map_err(|e| Unsupported(e.to_string()))
}

/// Play `games` deals on `threads` threads; deal `i` uses generator
/// (seed, i). The first `record` outcomes keep their deals and actions.
pub fn simulate(
    engine: &Engine,
    games: usize,
    seed: u64,
    threads: usize,
    policy: Policy,
    record: usize,
) -> Result<Vec<Outcome>, Unsupported> {
    simulate_from(engine, 0, games, seed, threads, policy, record)
}

/// As `simulate`, for deals `first .. first + games` of the same series, so
/// a long run can be played in parts with the same results.
pub fn simulate_from(
    engine: &Engine,
    first: usize,
    games: usize,
    seed: u64,
    threads: usize,
    policy: Policy,
    record: usize,
) -> Result<Vec<Outcome>, Unsupported> {
    Ok(Series::new(engine, seed, policy)?.play(first as u64, games, threads, record))
}

/// A series of deals: one rule set, seed, seats' policies and opening.
/// Deal `i` of the series draws from its own generators, seeded from
/// (seed, i), so any part of the series can be played on its own, on any
/// number of threads.
#[derive(Clone)]
pub struct Series {
    /// The rules, shared with the tables (`chooser.rs` reuses one per thread).
    shared: std::sync::Arc<Engine>,
    seed: u64,
    seats: Seats,
    opening: Opening,
}

impl Series {
    /// One policy for every seat, every decision its own.
    pub fn new(engine: &Engine, seed: u64, policy: Policy) -> Result<Self, Unsupported> {
        Series::seated(engine, seed, Seats::All(policy), Opening::Auction)
    }

    /// Any seating and opening; a seat list of the wrong length, or an
    /// opening the rule set cannot play, is refused.
    pub fn seated(
        engine: &Engine,
        seed: u64,
        seats: Seats,
        opening: Opening,
    ) -> Result<Self, Unsupported> {
        check_playable(engine)?;
        let players = engine.rules().players as usize;
        seats.check(players).map_err(Unsupported)?;
        opening.check(engine.rules()).map_err(Unsupported)?;
        Ok(Series {
            shared: std::sync::Arc::new(engine.clone()),
            seed,
            seats,
            opening,
        })
    }

    /// Deal `index` of the series, with its deals and actions if `record`.
    pub fn deal(&self, index: u64, record: bool) -> Outcome {
        let how = chooser::Players {
            seats: &self.seats,
            opening: self.opening,
        };
        chooser::play(&self.shared, self.seed, index, how, record)
    }

    /// Deals `first .. first + games` on `threads` threads, in order; the
    /// first `record` of them keep their deals and actions. Indices past
    /// `u64::MAX` wrap (callers check the range; see `columns.rs`).
    pub fn play(&self, first: u64, games: usize, threads: usize, record: usize) -> Vec<Outcome> {
        let min_len = if self.searches() { 1 } else { batch::MIN_LEN };
        batch::map_rows_by(threads, games, min_len, |i| {
            self.deal(first.wrapping_add(i as u64), i < record)
        })
    }

    /// Does a seat search (deals of milliseconds, split one by one)?
    pub fn searches(&self) -> bool {
        self.seats.searches()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Rules, PRESETS};

    /// The engine of a preset, for the flows' tests too.
    pub(super) fn engine(preset: &str) -> Engine {
        Engine::new(Rules::preset(preset).unwrap()).unwrap()
    }

    #[test]
    fn same_results_whatever_the_threads() {
        for preset in ["classic", "five-player"] {
            let e = engine(preset);
            let one = simulate(&e, 500, 7, 1, Policy::Random, 0).unwrap();
            let two = simulate(&e, 500, 7, 2, Policy::Random, 0).unwrap();
            for (a, b) in one.iter().zip(&two) {
                assert_eq!(
                    (&a.report, &a.scores, a.turns),
                    (&b.report, &b.scores, b.turns)
                );
            }
            assert!(one.iter().all(|o| o.scores.iter().sum::<i64>() == 0));
        }
    }

    #[test]
    fn a_deal_kept_unrecorded_ends_as_it_does_recorded() {
        // Unrecorded deals skip the log, and in the one-landlord presets
        // deal and play on counts only: the outcomes must not change.
        for preset in PRESETS {
            let e = engine(preset);
            for policy in [Policy::Random, Policy::Greedy] {
                let kept = simulate(&e, 150, 11, 1, policy, 150).unwrap();
                let lean = simulate(&e, 150, 11, 1, policy, 0).unwrap();
                let facts = |o: &Outcome| {
                    let play = (o.turns, o.bombs, o.multiplier, &o.scores);
                    format!("{:?} {play:?}", o.report)
                };
                for (a, b) in kept.iter().zip(&lean) {
                    assert_eq!(facts(a), facts(b), "{preset} {policy:?}");
                }
                assert!(kept.iter().all(|o| o.record.is_some()));
            }
        }
    }

    #[test]
    fn every_preset_plays_and_unplayable_rule_sets_are_refused() {
        for preset in PRESETS {
            let e = engine(preset);
            assert_eq!(simulate(&e, 1, 0, 1, Policy::Random, 0).unwrap().len(), 1);
        }
        // A renamed preset plays as the preset: the name decides nothing.
        let house = Rules {
            preset: "house-rules".into(),
            ..Rules::preset("classic").unwrap()
        };
        let renamed = simulate(&Engine::new(house).unwrap(), 50, 3, 1, Policy::Greedy, 0);
        let classic = simulate(&engine("classic"), 50, 3, 1, Policy::Greedy, 0);
        let scores = |r: Vec<Outcome>| r.into_iter().map(|o| o.scores).collect::<Vec<_>>();
        assert_eq!(scores(renamed.unwrap()), scores(classic.unwrap()));
        // A rule set its flow cannot play is refused, naming the option.
        let kicks_without_once = Rules {
            kicks: true,
            ..Rules::preset("classic").unwrap()
        };
        let e = Engine::new(kicks_without_once).unwrap();
        let refused = simulate(&e, 1, 0, 1, Policy::Random, 0);
        assert!(refused.unwrap_err().to_string().contains("kicks"));
    }
}
