//! The endgame solver (残局): exact solving of open-hand positions.
//!
//! Two hands (one against one: who goes out first) or three hands (seat 0
//! the landlord against two farmers who win together and see everything).
//! The search is a boolean negamax over the same move generator as every
//! other caller, with moves ordered by the fewest plays left after them and
//! an exact-key transposition table under a memory bound. docs/solver.md
//! describes the method and the decisions.
//!
//! ```
//! use ddz_core::solve::{Options, Position, Solver};
//! use ddz_core::{Engine, Rules};
//! let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
//! let hands = vec![engine.parse("3456789").unwrap(), engine.parse("22").unwrap()];
//! let mut solver = Solver::new(&engine, Options::default());
//! let s = solver.solve(&Position::lead(hands, 0)).unwrap();
//! assert_eq!(s.win, Some(true)); // 3456789 in one play
//! ```

mod answers;
pub(crate) mod fewest;
mod lists;
mod replies;
mod reuse;
mod root;
mod search;
mod transposition;

use crate::cards::Cards;
use crate::engine::Engine;
use crate::generate::{Sink, Target};
use crate::play::{Kind, Move, Play};
use std::fmt;

pub use search::Solver;

/// The kinds a puzzle may forbid (禁手), by id.
pub const FORBIDDABLE: [Kind; 6] = [
    Kind::TrioSingle,
    Kind::TrioPair,
    Kind::FourTwoSingles,
    Kind::FourTwoPairs,
    Kind::PlaneSingles,
    Kind::PlanePairs,
];

/// An open-hand position: every hand, the seat to move, and the play to beat.
#[derive(Clone, Debug)]
pub struct Position {
    /// Two or three hands; with three, seat 0 is the landlord.
    pub hands: Vec<Cards>,
    pub to_move: usize,
    /// The play on the table, or None for a lead.
    pub prev: Option<Move>,
    /// The seat that made `prev` (default: the seat before `to_move`).
    pub prev_by: Option<usize>,
}

impl Position {
    pub fn lead(hands: Vec<Cards>, to_move: usize) -> Position {
        Position {
            hands,
            to_move,
            prev: None,
            prev_by: None,
        }
    }

    pub fn follow(hands: Vec<Cards>, to_move: usize, prev: Move) -> Position {
        Position {
            prev: Some(prev),
            ..Position::lead(hands, to_move)
        }
    }

    /// The position after `seat` takes `action` (None passes); no legality check.
    pub fn after(&self, action: Option<&Move>) -> Position {
        let n = self.hands.len();
        let next = (self.to_move + 1) % n;
        let mut hands = self.hands.clone();
        match action {
            Some(m) => {
                hands[self.to_move] = hands[self.to_move] - m.cards;
                Position {
                    hands,
                    to_move: next,
                    prev: Some(*m),
                    prev_by: Some(self.to_move),
                }
            }
            None if Some(next) == self.owner() => Position::lead(hands, next),
            None => Position {
                hands,
                to_move: next,
                prev: self.prev,
                prev_by: self.owner(),
            },
        }
    }

    /// The seat that made the play on the table.
    pub fn owner(&self) -> Option<usize> {
        let n = self.hands.len();
        self.prev
            .map(|_| self.prev_by.unwrap_or((self.to_move + n - 1) % n))
    }

    /// The seat that has gone out, if any.
    pub fn finished(&self) -> Option<usize> {
        self.hands.iter().position(|h| h.is_empty())
    }

    /// Seats 1 and 2 of three hands are one side; two hands are two sides.
    pub fn side(&self, seat: usize) -> usize {
        if self.hands.len() == 3 {
            (seat != 0) as usize
        } else {
            seat
        }
    }
}

/// What may be searched, and for how long.
#[derive(Clone, Debug)]
pub struct Options {
    /// Kinds nobody may play.
    pub forbid: Vec<Kind>,
    /// Stop with an unknown verdict after this many positions.
    pub max_nodes: Option<u64>,
    /// Stop with an unknown verdict after this long.
    pub max_seconds: Option<f64>,
    /// Find every winning play at the root, not only the first.
    pub all: bool,
    /// Bound on the memory of the table and the memo, in bytes.
    pub max_memory: usize,
    /// Threads for the root search: they share the root's actions out
    /// (default 1 here; `rules.solve` in Python defaults to every core).
    pub threads: usize,
    /// With several threads, how long the first searches alone before the
    /// others join (so a quick solve costs one core).
    pub helpers_after: std::time::Duration,
    /// With several threads, between `share_replies_after` and
    /// `helpers_after`: share out the replies to each root action in turn
    /// (`replies`) instead of searching alone. By default only when the
    /// machine has a core free for each helper then: on a busy machine it
    /// made short solves slower (docs/solver.md, "Sharing the replies").
    pub share_replies: ShareReplies,
    /// With several threads, at `helpers_after`: start the root split's
    /// helpers only when the machine has a core free for each (as
    /// `ShareReplies::WhenIdle` decides), else search on alone and look
    /// again after `helpers_after`, then twice as long each time (up to 1 s). On by default: on a busy machine two
    /// threads were slower than one (docs/solver.md).
    pub helpers_when_idle: bool,
    /// With `share_replies`, how long the first thread searches alone
    /// before the replies are shared (0.5 ms: so a solve of half a
    /// millisecond or less costs one core and wakes no helper).
    pub share_replies_after: std::time::Duration,
}

/// Whether the replies to each root action are shared out before the
/// helpers take the root's actions (`Options::share_replies`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShareReplies {
    /// Never: the first thread searches alone until `helpers_after`.
    Never,
    /// When, at `share_replies_after`, the machine runs fewer tasks than
    /// it has cores, so that a helper finds one free (Linux: the runnable
    /// count of /proc/loadavg; elsewhere always).
    WhenIdle,
    Always,
}

/// The default memory bound: 512 MB.
pub const DEFAULT_MEMORY: usize = 512 << 20;

impl Default for Options {
    fn default() -> Options {
        Options {
            forbid: Vec::new(),
            max_nodes: None,
            max_seconds: None,
            all: false,
            max_memory: DEFAULT_MEMORY,
            threads: 1,
            helpers_after: std::time::Duration::from_millis(10),
            share_replies: ShareReplies::WhenIdle,
            share_replies_after: std::time::Duration::from_micros(500),
            helpers_when_idle: true,
        }
    }
}

/// A verdict for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// True: the side to move can force going out first; false: it cannot;
    /// None: the budget ran out.
    pub win: Option<bool>,
    /// Winning actions at the root (None is a pass); empty when lost or unknown.
    pub plays: Vec<Option<Move>>,
    /// Positions searched.
    pub nodes: u64,
    pub seconds: f64,
}

/// A position the solver cannot take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    Hands(usize),
    Seat { seat: usize, hands: usize },
    Empty(usize),
    TooManyCards(String),
    PrevBy(String),
    Forbid(Kind),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Hands(n) => write!(f, "the solver takes 2 or 3 hands, not {n}"),
            SolveError::Seat { seat, hands } => {
                write!(f, "seat {seat} is not one of the {hands} hands")
            }
            SolveError::Empty(seat) => write!(f, "hand {seat} is empty: the game is over"),
            SolveError::TooManyCards(why) => write!(f, "the hands together: {why}"),
            SolveError::PrevBy(why) => write!(f, "prev_by: {why}"),
            SolveError::Forbid(k) => write!(
                f,
                "{} cannot be forbidden; the forbiddable kinds are {}",
                k.id(),
                FORBIDDABLE.map(Kind::id).join(", ")
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// Bit per kind of `kinds`.
fn kind_mask(kinds: &[Kind]) -> u32 {
    kinds.iter().fold(0, |m, &k| m | 1 << k as u32)
}

/// A sink of compact plays, filled by `collect`.
struct Collect<'a> {
    engine: &'a Engine,
    forbid: u32,
    list: &'a mut Vec<Play>,
}

impl Sink for Collect<'_> {
    const COUNTING: bool = false;
    #[inline]
    fn push(&mut self, m: Move) {
        if self.forbid >> m.kind as u32 & 1 == 0 {
            self.list.push(Play::of(self.engine, &m));
        }
    }
    #[inline]
    fn add(&mut self, _n: u64) {}
}

/// The compact plays of `hand` answering `target`, forbidden kinds left out.
pub(crate) fn collect(
    engine: &Engine,
    forbid: u32,
    hand: &Cards,
    target: Target,
    out: &mut Vec<Play>,
) {
    out.clear();
    let mut sink = Collect {
        engine,
        forbid,
        list: out,
    };
    engine.generate_target(hand, target, &mut sink);
}
