//! Endgame puzzles (残局): is an open-hand position a puzzle, and what is
//! its main line?
//!
//! Seat 0 (the landlord) leads and must go out first against every
//! defence. A position is a puzzle when the landlord's side wins and its
//! solution is unique: at each of the landlord's turns on the main line,
//! every winning action is the same play up to the choice of kickers,
//! except at the turn where the landlord goes out. The main line's defence
//! is the longest one (`longest`). docs/puzzles.md describes the rules.

mod deal;
mod longest;

pub use deal::candidate;

use crate::cards::Cards;
use crate::engine::Engine;
use crate::play::{Kind, Move};
use crate::solve::{Options, Position, SolveError, Solver};
use longest::{is_landlord, Stop, Walk};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Budgets of one puzzle's analysis.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Positions a single solve may search.
    pub max_nodes: u64,
    /// Positions the longest-defence walk may measure.
    pub max_steps: u64,
    /// Memory bound of the puzzle's solver, in bytes.
    pub max_memory: usize,
    /// Refuse at the first move what cannot be a puzzle (`Verdict::Refused`)
    /// before measuring the longest defence.
    pub screen: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_nodes: 2_000_000,
            max_steps: 20_000,
            max_memory: 64 << 20,
            screen: true,
        }
    }
}

/// What the analysis of a position found.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The landlord's side does not win.
    Lost,
    /// A budget ran out.
    Unknown,
    /// The landlord's side wins, but the first move already rules the
    /// position out as a puzzle (found before the costly walk).
    Refused {
        why: Refusal,
        first_moves: usize,
        losing_first_moves: usize,
    },
    /// The landlord's side wins: the analysis.
    Won(Analysis),
}

/// Why a won position is no puzzle, seen at the first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The landlord goes out in one play.
    OutAtOnce,
    /// Every first action wins.
    NoLosingFirstMove,
    /// Two winning first actions are different plays.
    NotUnique,
}

impl Refusal {
    pub fn id(self) -> &'static str {
        match self {
            Refusal::OutAtOnce => "out_at_once",
            Refusal::NoLosingFirstMove => "no_losing_first_move",
            Refusal::NotUnique => "not_unique",
        }
    }
}

/// A won position's main line and what grades it.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The main line: (seat, action) to the landlord's going out; None is a pass.
    pub line: Vec<(usize, Option<Move>)>,
    /// The legal actions the mover had at each step of `line` (1: forced).
    pub choices: Vec<usize>,
    /// Index in `line` of the first landlord turn with two different
    /// winning plays; None when the solution is unique.
    pub not_unique_at: Option<usize>,
    /// The landlord's actions at the start, and how many of them lose.
    pub first_moves: usize,
    pub losing_first_moves: usize,
    /// Plays (passes not counted) on the main line: the longest defence's length.
    pub plays: u32,
    /// The core's greedy player, as the landlord against the longest
    /// defence, makes a losing play.
    pub greedy_fails: bool,
    /// Playing the solver's first action in its order (the one leaving the
    /// fewest plays: a one-ply heuristic) as the landlord loses.
    pub fewest_fails: bool,
    /// Positions the walk measured.
    pub steps: u64,
}

impl Analysis {
    pub fn unique(&self) -> bool {
        self.not_unique_at.is_none()
    }
}

/// The same play up to the choice of kickers: the kind, rank and length,
/// and the cards themselves for the kinds without kickers.
fn play_class(a: &Option<Move>) -> Option<(Kind, u8, u8, Option<Cards>)> {
    a.map(|m| {
        let kickers = matches!(
            m.kind,
            Kind::TrioSingle
                | Kind::TrioPair
                | Kind::PlaneSingles
                | Kind::PlanePairs
                | Kind::FourTwoSingles
                | Kind::FourTwoPairs
        );
        (m.kind, m.rank, m.length, (!kickers).then_some(m.cards))
    })
}

/// Analyse the position where seat 0 leads with `hands` (2 or 3).
pub fn analyse(
    engine: &Engine,
    hands: &[Cards],
    forbid: &[Kind],
    limits: &Limits,
) -> Result<Verdict, SolveError> {
    let mut walk = bounded_walk(engine, forbid, limits);
    let root = Position::lead(hands.to_vec(), 0);
    match analyse_in(&mut walk, &root, limits.screen) {
        Ok(v) => Ok(v),
        Err(Stop::Budget) => Ok(Verdict::Unknown),
        Err(Stop::Solve(e)) => Err(e),
    }
}

/// A walk of the solver's lines with 禁手 `forbid`, within `limits`.
fn bounded_walk<'e>(engine: &'e Engine, forbid: &[Kind], limits: &Limits) -> Walk<'e> {
    let options = Options {
        forbid: forbid.to_vec(),
        max_nodes: Some(limits.max_nodes),
        max_memory: limits.max_memory,
        ..Options::default()
    };
    let solver = Solver::new(engine, options);
    Walk::new(engine, solver, forbid.to_vec(), limits.max_steps)
}

/// The defence's reply that resists longest at `pos`, where the defence is
/// to move and the landlord's side wins: the most plays before the landlord
/// goes out (the first in the solver's order among equals), as on a main
/// line. `Ok(None)` when a budget ran out, or when `pos` is not such a
/// position (the landlord's side to move, the game over, or the defence
/// winning).
pub fn longest_defence(
    engine: &Engine,
    pos: &Position,
    forbid: &[Kind],
    limits: &Limits,
) -> Result<Option<Option<Move>>, SolveError> {
    let mut walk = bounded_walk(engine, forbid, limits);
    let reply = (|| {
        if pos.finished().is_some() || is_landlord(pos, pos.to_move) || !walk.landlord_wins(pos)? {
            return Ok(None);
        }
        longest_reply(&mut walk, pos).map(Some)
    })();
    match reply {
        Ok(r) => Ok(r),
        Err(Stop::Budget) => Ok(None),
        Err(Stop::Solve(e)) => Err(e),
    }
}

/// Each of `actions` at `pos` that keeps the landlord's side winning, with
/// the plays to its going out after it.
fn winning(
    walk: &mut Walk<'_>,
    pos: &Position,
    actions: &[Option<Move>],
) -> Result<Vec<(usize, u32)>, Stop> {
    let mut out = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        let child = pos.after(a.as_ref());
        if walk.landlord_wins(&child)? {
            out.push((i, a.is_some() as u32 + walk.length(&child)?));
        }
    }
    Ok(out)
}

/// The defence's reply resisting longest at `pos` (the first in order among equals).
fn longest_reply(walk: &mut Walk<'_>, pos: &Position) -> Result<Option<Move>, Stop> {
    let mut best: Option<(u32, Option<Move>)> = None;
    for a in walk.actions(pos)? {
        let d = a.is_some() as u32 + walk.length(&pos.after(a.as_ref()))?;
        if best.is_none_or(|(b, _)| d > b) {
            best = Some((d, a));
        }
    }
    best.map(|(_, a)| a).ok_or(Stop::Budget)
}

fn analyse_in(walk: &mut Walk<'_>, root: &Position, screen: bool) -> Result<Verdict, Stop> {
    if !walk.landlord_wins(root)? {
        return Ok(Verdict::Lost);
    }
    let first = walk.actions(root)?;
    // The first move alone may rule the position out: screen it before
    // measuring the longest defence.
    let mut first_won = Vec::new();
    for a in &first {
        let child = root.after(a.as_ref());
        if child.finished().is_some() && screen {
            return Ok(refused(Refusal::OutAtOnce, &first, first.len()));
        }
        if walk.landlord_wins(&child)? {
            first_won.push(play_class(a));
        }
    }
    if screen && first_won.len() == first.len() {
        return Ok(refused(Refusal::NoLosingFirstMove, &first, first.len()));
    }
    if screen && first_won.iter().any(|c| *c != first_won[0]) {
        return Ok(refused(Refusal::NotUnique, &first, first_won.len()));
    }
    let plays = walk.length(root)?;
    let first_wins = winning(walk, root, &first)?;
    let mut line = Vec::new();
    let mut choices = Vec::new();
    let mut not_unique_at = None;
    let mut pos = root.clone();
    while pos.finished().is_none() {
        let action = if is_landlord(&pos, pos.to_move) {
            let actions = walk.actions(&pos)?;
            let wins = winning(walk, &pos, &actions)?;
            let &(pick, _) = wins
                .iter()
                .min_by_key(|&&(i, d)| (d, i))
                .ok_or(Stop::Budget)?;
            let chosen = actions[pick];
            let goes_out = pos.after(chosen.as_ref()).finished().is_some();
            let class = play_class(&chosen);
            if not_unique_at.is_none()
                && !goes_out
                && wins.iter().any(|&(i, _)| play_class(&actions[i]) != class)
            {
                not_unique_at = Some(line.len());
            }
            chosen
        } else {
            longest_reply(walk, &pos)?
        };
        choices.push(walk.actions(&pos)?.len());
        line.push((pos.to_move, action));
        pos = pos.after(action.as_ref());
    }
    let greedy_fails = !plays_through(walk, root, |w, p| Ok(greedy(w, p)))?;
    let fewest_fails = !plays_through(walk, root, |w, p| Ok(w.actions(p)?[0]))?;
    Ok(Verdict::Won(Analysis {
        line,
        choices,
        not_unique_at,
        first_moves: first.len(),
        losing_first_moves: first.len() - first_wins.len(),
        plays,
        greedy_fails,
        fewest_fails,
        steps: walk.steps(),
    }))
}

fn refused(why: Refusal, first: &[Option<Move>], won: usize) -> Verdict {
    Verdict::Refused {
        why,
        first_moves: first.len(),
        losing_first_moves: first.len() - won,
    }
}

/// The core greedy player's action for the mover at `pos`: its smallest
/// play, else a pass (as `ddz.agents.GreedyAgent`), forbidden kinds left out.
fn greedy(walk: &Walk<'_>, pos: &Position) -> Option<Move> {
    let hand = pos.hands[pos.to_move];
    let moves: Vec<Move> = walk
        .engine
        .moves(&hand, pos.prev.as_ref())
        .into_iter()
        .filter(|m| !walk.forbid.contains(&m.kind))
        .collect();
    crate::policy::smallest(walk.engine, &moves).map(|i| moves[i])
}

/// Does the landlord, choosing by `choose`, win against the longest defence?
fn plays_through(
    walk: &mut Walk<'_>,
    root: &Position,
    mut choose: impl FnMut(&mut Walk<'_>, &Position) -> Result<Option<Move>, Stop>,
) -> Result<bool, Stop> {
    let mut pos = root.clone();
    while pos.finished().is_none() {
        let action = if is_landlord(&pos, pos.to_move) {
            let a = choose(walk, &pos)?;
            if !walk.landlord_wins(&pos.after(a.as_ref()))? {
                return Ok(false);
            }
            a
        } else {
            longest_reply(walk, &pos)?
        };
        pos = pos.after(action.as_ref());
    }
    Ok(true)
}

/// Analyse many positions on `threads` threads; the verdicts in input order.
pub fn analyse_many(
    engine: &Engine,
    positions: &[Vec<Cards>],
    forbid: &[Kind],
    limits: &Limits,
    threads: usize,
) -> Vec<Result<Verdict, SolveError>> {
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<Result<Verdict, SolveError>>>> =
        Mutex::new(vec![None; positions.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, positions.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(hands) = positions.get(i) else {
                    break;
                };
                let v = analyse(engine, hands, forbid, limits);
                out.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(v);
            });
        }
    });
    out.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|v| v.unwrap_or(Ok(Verdict::Unknown)))
        .collect()
}

#[cfg(test)]
mod tests;
