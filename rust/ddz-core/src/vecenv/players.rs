//! Who takes each seat's decisions in a batch of envs, and when a deal is
//! cut short (docs/rl.md, "Opponents inside the step" and "Truncation").
//!
//! A seat is the learner's (its decisions are the step's actions), a
//! built-in policy's (played inside the step: the very `Policy::choose`
//! that `ddz.simulate` and `ddz.evaluate` play, each seat drawing from its
//! own generator as `simulate::Seats::Each` seeds it), or a caller's
//! (`External`: the batch stops and waits for the caller to answer every
//! env waiting on that player at once).

use crate::policy::Policy;
use crate::simulate::{Opening, Seats};

/// Who decides for one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The learner: its decisions are the actions given to `step`.
    Learner,
    /// A built-in policy, played inside the step.
    Policy(Policy),
    /// The caller's player number `k`: the batch waits for its answers.
    External(u8),
}

/// When a deal is cut (truncated) rather than played on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Cut when the cards have been dealt again (everyone passed) more
    /// than this many times in one deal.
    pub max_redeals: Option<u32>,
    /// Cut when a learner seat would take a decision after this many of
    /// its deal's learner decisions (the steps the deal has lasted).
    pub max_decisions: Option<u32>,
}

/// The redeals after which a deal is cut by default: far more than play
/// ever needs (three seats passing at random start again one deal in 64),
/// few enough that a learner that always passes is not stuck for ever.
pub const DEFAULT_MAX_REDEALS: u32 = 10;

impl Limits {
    /// The defaults: `DEFAULT_MAX_REDEALS`, no decision limit (a deal that
    /// is not dealt again ends by itself: every trick takes cards).
    pub fn defaults() -> Limits {
        Limits {
            max_redeals: Some(DEFAULT_MAX_REDEALS),
            max_decisions: None,
        }
    }

    /// No limit at all (`ddz.evaluate`: every deal is played to its end,
    /// as `ddz.simulate` plays it).
    pub fn none() -> Limits {
        Limits::default()
    }
}

/// The players of every seat, and how a deal opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seating {
    pub players: Vec<Player>,
    pub opening: Opening,
}

impl Seating {
    /// Every seat the learner's, the auction played: `VecEnv`'s default.
    pub fn learners(players: usize) -> Seating {
        Seating {
            players: vec![Player::Learner; players],
            opening: Opening::Auction,
        }
    }

    /// The seats the learner plays.
    pub fn learner_seats(&self) -> impl Iterator<Item = usize> + '_ {
        let seats = self.players.iter().enumerate();
        seats.filter_map(|(s, p)| (*p == Player::Learner).then_some(s))
    }

    /// How many caller's players there are (`External(0..k)`).
    pub fn externals(&self) -> usize {
        let ks = self.players.iter().filter_map(|p| match p {
            Player::External(k) => Some(*k as usize + 1),
            _ => None,
        });
        ks.max().unwrap_or(0)
    }

    /// The policies as `simulate` seats them, for each seat's generator
    /// (a seat that is not a built-in policy draws nothing from its own).
    pub fn seats(&self) -> Seats {
        let policy = |p: &Player| match p {
            Player::Policy(p) => *p,
            _ => Policy::Random,
        };
        Seats::Each(self.players.iter().map(policy).collect())
    }

    /// A seating this rule set cannot play, named.
    pub fn check(&self, players: usize) -> Result<(), String> {
        if self.players.len() != players {
            return Err(format!(
                "this rule set has {players} seats, so it needs {players} players, not {}",
                self.players.len()
            ));
        }
        let externals = self.externals();
        let used = |k: usize| self.players.contains(&Player::External(k as u8));
        if let Some(k) = (0..externals).find(|&k| !used(k)) {
            return Err(format!("external player {k} plays no seat"));
        }
        Ok(())
    }
}
