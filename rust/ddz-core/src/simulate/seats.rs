//! Who plays each seat of a simulated deal, and how the deal opens.
//!
//! A series names one policy for every seat (`Seats::All`, one generator
//! for the whole deal, as `ddz.simulate` always drew) or one per seat
//! (`Seats::Each`, every seat drawing from its own generator, so that what
//! one seat's policy draws never moves another seat's choices).

use crate::policy::Policy;
use crate::rules::{Flow, Rules};
use crate::table::{Action, Phase, Rng, Table};

/// The players of a series' seats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seats {
    /// One policy plays every seat, drawing from the deal's one generator.
    All(Policy),
    /// One policy per seat, each seat drawing from its own generator.
    Each(Vec<Policy>),
}

impl Seats {
    /// The policy of `seat`.
    #[inline]
    pub fn of(&self, seat: usize) -> Policy {
        match self {
            Seats::All(p) => *p,
            Seats::Each(ps) => ps[seat],
        }
    }

    /// Does any seat's policy read the table's record (the cards played)?
    pub fn reads_record(&self) -> bool {
        self.any(Policy::reads_record)
    }

    /// Does any seat search? Its deals then cost milliseconds each, not
    /// microseconds.
    pub fn searches(&self) -> bool {
        self.any(|p| matches!(p, Policy::Search(_)))
    }

    fn any(&self, test: impl Fn(Policy) -> bool) -> bool {
        match self {
            Seats::All(p) => test(*p),
            Seats::Each(ps) => ps.iter().any(|p| test(*p)),
        }
    }

    /// The choice generators of deal `index` of the series `seed`.
    pub fn generators(&self, seed: u64, index: u64, players: usize) -> Generators {
        Generators {
            // The generator `simulate` has always used for one policy.
            shared: Rng::for_game(!seed, index),
            each: match self {
                Seats::All(_) => Vec::new(),
                Seats::Each(_) => (0..players)
                    .map(|s| Rng::for_game(seat_seed(seed, s), index))
                    .collect(),
            },
        }
    }

    /// A seat list that does not cover exactly `players` seats, named.
    pub fn check(&self, players: usize) -> Result<(), String> {
        match self {
            Seats::Each(ps) if ps.len() != players => Err(format!(
                "this rule set has {players} seats, so it needs {players} policies, not {}",
                ps.len()
            )),
            _ => Ok(()),
        }
    }
}

/// The generators a deal's choices draw from: one shared (`Seats::All`),
/// or one per seat (`Seats::Each`), seeded from (seed, seat, index).
#[derive(Clone, Debug)]
pub struct Generators {
    shared: Rng,
    each: Vec<Rng>,
}

impl Generators {
    /// The generator `seat` draws from.
    #[inline]
    pub fn of(&mut self, seat: usize) -> &mut Rng {
        match self.each.get_mut(seat) {
            Some(rng) => rng,
            None => &mut self.shared,
        }
    }
}

/// The seed of `seat`'s own generator: far from the deal generators'
/// seeds (`seed`) and from the shared choice generator's (`!seed`).
fn seat_seed(seed: u64, seat: usize) -> u64 {
    let salt = (seat as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (!seed).rotate_left(17) ^ salt
}

/// How a deal opens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Opening {
    /// Every decision is the policies': the auction, the options, the play.
    #[default]
    Auction,
    /// DouZero's evaluation: seat 0 is the landlord and takes the kitty,
    /// with no auction. The table still asks for the auction's decisions,
    /// and a script answers them: seat 0 takes the highest bid (or calls),
    /// every other seat passes, every option (kick, double, ...) is
    /// declined. Only the one-landlord flow has a seat-0 landlord this way.
    SeatZeroLandlord,
}

impl Opening {
    /// A rule set this opening cannot play, named.
    pub fn check(self, rules: &Rules) -> Result<(), String> {
        match (self, rules.flow) {
            (Opening::SeatZeroLandlord, f) if f != Flow::OneLandlord => Err(format!(
                "the douzero protocol (seat 0 is the landlord, no auction) needs a \
                 one-landlord rule set (classic, two-player, four-player, laizi); \
                 this one plays the {} flow: use the full protocol",
                f.name()
            )),
            _ => Ok(()),
        }
    }
}

/// The scripted answer of the seat-0-landlord opening to a decision before
/// the play: seat 0 takes the highest bid or the call, everyone declines
/// everything else. An index into `table.legal_unordered()`.
pub fn scripted(table: &Table) -> usize {
    let legal = table.legal_unordered();
    let words = legal.words;
    let at = |want: &dyn Fn(&Action) -> bool| words.iter().position(want);
    let take = || {
        words
            .iter()
            .enumerate()
            .filter(|(_, a)| matches!(a, Action::Bid(_) | Action::Call | Action::Grab))
            .max_by_key(|(_, a)| match a {
                Action::Bid(b) => *b as u32,
                _ => u32::MAX,
            })
            .map(|(i, _)| i)
    };
    let decline = || {
        at(&|a| a.word().is_some_and(|w| w.starts_with("no-")))
            .or_else(|| at(&|a| *a == Action::Pass))
    };
    let pick = match table.to_act() {
        0 => take().or_else(decline),
        _ => decline(),
    };
    legal.plays.len() + pick.unwrap_or(0)
}

/// Answer every decision before the play by the seat-0-landlord script
/// (`ddz.Game` deals opened for DouZero's evaluation in Python).
pub fn open_for_seat_zero(table: &mut Table) {
    while !table.is_over() && table.phase() != Phase::Play {
        table.apply_unordered(scripted(table));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::rules::PRESETS;
    use crate::simulate::{Outcome, Series};

    fn engine(preset: &str) -> Engine {
        Engine::new(Rules::preset(preset).unwrap()).unwrap()
    }

    fn facts(o: &Outcome) -> String {
        format!("{:?} {} {} {:?}", o.report, o.turns, o.bombs, o.scores)
    }

    fn run(preset: &str, seats: Seats, opening: Opening, threads: usize) -> Vec<String> {
        let series = Series::seated(&engine(preset), 5, seats, opening).unwrap();
        series.play(0, 200, threads, 0).iter().map(facts).collect()
    }

    #[test]
    fn seats_play_alike_on_one_and_two_threads() {
        use Policy::{Greedy, Random};
        for preset in ["classic", "five-player", "six-player-3v3"] {
            let n = Rules::preset(preset).unwrap().players as usize;
            let mixed = Seats::Each((0..n).map(|s| [Random, Greedy][s % 2]).collect());
            let one = run(preset, mixed.clone(), Opening::Auction, 1);
            assert_eq!(one, run(preset, mixed, Opening::Auction, 2), "{preset}");
        }
    }

    #[test]
    fn a_seat_list_of_one_policy_that_draws_nothing_plays_as_the_name() {
        // Greedy draws no number, so its own generators change nothing.
        for preset in PRESETS {
            let n = Rules::preset(preset).unwrap().players as usize;
            let each = run(
                preset,
                Seats::Each(vec![Policy::Greedy; n]),
                Opening::Auction,
                1,
            );
            let all = run(preset, Seats::All(Policy::Greedy), Opening::Auction, 1);
            assert_eq!(each, all, "{preset}");
        }
    }

    #[test]
    fn each_seat_draws_from_its_own_generator() {
        // Seat 0 random, the others greedy: replacing seat 1's greedy by
        // another greedy-like choice must leave seat 0's draws alone. Here:
        // seat 0's generator does not depend on the other seats' policies.
        let a = Seats::Each(vec![Policy::Random, Policy::Greedy, Policy::Greedy]);
        let b = Seats::Each(vec![Policy::Random, Policy::Random, Policy::Random]);
        let (mut ga, mut gb) = (a.generators(3, 7, 3), b.generators(3, 7, 3));
        for seat in 0..3 {
            assert_eq!(ga.of(seat).next_u64(), gb.of(seat).next_u64());
        }
        let mut g = a.generators(3, 7, 3);
        let firsts: Vec<u64> = (0..3).map(|s| g.of(s).next_u64()).collect();
        let shared = Rng::for_game(!3, 7).next_u64();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != shared);
    }

    #[test]
    fn the_seat_zero_opening_makes_seat_zero_the_landlord_with_the_kitty() {
        for preset in PRESETS {
            let e = engine(preset);
            let opening = Opening::SeatZeroLandlord;
            let Ok(series) = Series::seated(&e, 9, Seats::All(Policy::Random), opening) else {
                assert_ne!(e.rules().flow, Flow::OneLandlord, "{preset}");
                continue;
            };
            for o in series.play(0, 300, 1, 0) {
                assert_eq!(o.report.landlord(), 0, "{preset}");
                assert_eq!(o.scores.iter().sum::<i64>(), 0, "{preset}");
            }
        }
        let refused = Series::seated(
            &engine("five-player"),
            0,
            Seats::All(Policy::Random),
            Opening::SeatZeroLandlord,
        );
        assert!(refused
            .err()
            .unwrap()
            .to_string()
            .contains("douzero protocol"));
    }

    #[test]
    fn a_seat_list_of_the_wrong_length_is_refused() {
        let e = engine("classic");
        let two = Seats::Each(vec![Policy::Random; 2]);
        let refused = Series::seated(&e, 0, two, Opening::Auction).err().unwrap();
        assert!(refused.to_string().contains("needs 3 policies, not 2"));
    }
}
