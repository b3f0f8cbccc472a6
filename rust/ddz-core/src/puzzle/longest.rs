//! The longest defence: how many plays the defence can make the landlord's
//! side wait before it goes out, when the landlord keeps to winning plays
//! and picks the quickest of them (the distance to mate of chess
//! tablebases, counted in plays; a pass counts nothing).

use crate::cards::Cards;
use crate::engine::Engine;
use crate::generate::Target;
use crate::play::{Kind, Move};
use crate::solve::fewest::Fewest;
use crate::solve::{Position, SolveError, Solver};
use std::collections::HashMap;

/// A position's identity for the memo: the hands, the mover, the trick's
/// owner and the play to beat.
type Key = ([Cards; 3], usize, Option<usize>, u32);

/// Why a walk stopped without an answer.
#[derive(Debug)]
pub(super) enum Stop {
    /// A solve or the walk ran out of its budget.
    Budget,
    Solve(SolveError),
}

impl From<SolveError> for Stop {
    fn from(e: SolveError) -> Stop {
        Stop::Solve(e)
    }
}

/// The walker: a solver (its table kept between the many solves of one
/// puzzle) and the memo of lengths.
pub(super) struct Walk<'e> {
    pub(super) engine: &'e Engine,
    pub(super) solver: Solver<'e>,
    /// The kinds nobody may play.
    pub(super) forbid: Vec<Kind>,
    /// The fewest plays that empty a hand: a bound no line beats.
    fewest: Fewest,
    memo: HashMap<Key, u32>,
    steps: u64,
    max_steps: u64,
}

/// The seat of the landlord's side: seat 0 (the side of seats 1 and 2 is the defence).
pub(super) fn is_landlord(pos: &Position, seat: usize) -> bool {
    pos.side(seat) == 0
}

impl<'e> Walk<'e> {
    pub(super) fn new(
        engine: &'e Engine,
        solver: Solver<'e>,
        forbid: Vec<Kind>,
        max_steps: u64,
    ) -> Walk<'e> {
        Walk {
            engine,
            solver,
            fewest: Fewest::new(1 << 20),
            forbid,
            memo: HashMap::new(),
            steps: 0,
            max_steps,
        }
    }

    fn key(&self, pos: &Position) -> Key {
        let mut hands = [Cards::EMPTY; 3];
        hands[..pos.hands.len()].copy_from_slice(&pos.hands);
        let target = Target::of(self.engine, pos.prev.as_ref()).key();
        (hands, pos.to_move, pos.owner(), target)
    }

    /// The actions at `pos` in the solver's order (fewest plays left first).
    pub(super) fn actions(&mut self, pos: &Position) -> Result<Vec<Option<Move>>, Stop> {
        Ok(self.solver.ordered_actions(pos)?)
    }

    /// Does the landlord's side win from `pos` (over or not)?
    pub(super) fn landlord_wins(&mut self, pos: &Position) -> Result<bool, Stop> {
        if let Some(seat) = pos.finished() {
            return Ok(is_landlord(pos, seat));
        }
        let win = self.solver.solve(pos)?.win.ok_or(Stop::Budget)?;
        Ok(win == is_landlord(pos, pos.to_move))
    }

    /// Plays to the landlord's going out from `pos`, which the landlord's
    /// side wins: the landlord's side takes the fewest, the defence the most.
    pub(super) fn length(&mut self, pos: &Position) -> Result<u32, Stop> {
        if pos.finished().is_some() {
            return Ok(0);
        }
        let key = self.key(pos);
        if let Some(&d) = self.memo.get(&key) {
            return Ok(d);
        }
        self.steps += 1;
        if self.steps > self.max_steps {
            return Err(Stop::Budget);
        }
        let landlord = is_landlord(pos, pos.to_move);
        // The landlord needs at least the fewest plays its hand splits into.
        let bound = if landlord {
            let mask = self.forbid.iter().fold(0u32, |m, &k| m | 1 << k as u32);
            self.fewest.of(self.engine, mask, pos.hands[pos.to_move]) as u32
        } else {
            0
        };
        let mut best: Option<u32> = None;
        for a in self.actions(pos)? {
            let child = pos.after(a.as_ref());
            let cost = a.is_some() as u32;
            if landlord {
                if !self.landlord_wins(&child)? {
                    continue;
                }
                let d = cost + self.length(&child)?;
                best = Some(best.map_or(d, |b| b.min(d)));
                if d <= bound {
                    break; // nothing goes out quicker
                }
            } else {
                // Every defence loses here (the side to move is lost).
                let d = cost + self.length(&child)?;
                best = Some(best.map_or(d, |b| b.max(d)));
            }
        }
        let d = best.ok_or(Stop::Budget)?;
        self.memo.insert(key, d);
        Ok(d)
    }

    /// Positions the walk measured.
    pub(super) fn steps(&self) -> u64 {
        self.steps
    }
}
