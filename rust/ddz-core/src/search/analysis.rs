//! The post-game analysis's numbers (`ddz.analyse`): for every decision of
//! the chosen seats, the search's best candidates and the action played,
//! each with a win rate from that seat's information (`rank.rs`), and,
//! where the exact solver answers within its bound given every hand,
//! whether the seat's side held a forced win before and after the action.
//! The judgements and accuracies are read from these numbers in Python
//! (`ddz.analysis`).
//!
//! Every decision is ranked on one thread with a seed of its own, drawn
//! from the analysis's seed and the decision's number, and the decisions
//! share the threads: at a fixed playout budget (no time limit) the result
//! is the same on any number of threads.

use super::leaf::{self, Bound};
use super::rank::{rank, Ranked};
use super::SearchBudget;
use crate::batch::run_on;
use crate::engine::Engine;
use crate::table::{Action, Record, RecordError, Rng, Table};
use rayon::prelude::*;
use std::sync::Arc;

/// One decision analysed.
#[derive(Clone, Debug)]
pub struct Moment {
    /// Its number in the record's actions.
    pub number: usize,
    pub seat: usize,
    pub played: Action,
    /// The best candidates, best first, and the action played where it is
    /// not among them (`rank`).
    pub ranked: Vec<Ranked>,
    /// Did the seat's side hold a forced win before the action, and after?
    /// None where the solver gave no answer within its bound (or the deal
    /// is not one the solver plays: the auction, more than three hands).
    pub win_before: Option<bool>,
    pub win_after: Option<bool>,
}

/// What an analysis spends.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Each decision's search (its `threads` is ignored: one each).
    pub budget: SearchBudget,
    /// Candidates ranked a decision.
    pub k: usize,
    pub seed: u64,
    /// Threads the decisions share.
    pub threads: usize,
    /// The solver's bound on one position (0: no solving).
    pub solve_nodes: u64,
}

/// The solver's memory bound per position of an analysis.
const SOLVE_MEMORY: usize = 64 << 20;
/// Positions with more cards in hand than this are not solved: within an
/// analysis's node bound the solver rarely answers there, and trying
/// costs most of an analysis's time.
pub const SOLVE_CARDS: usize = 30;

/// A deal's tables, one before each action and one at the end, and each
/// action with its seat.
pub type Moments = (Vec<Table>, Vec<(usize, Action)>);

/// The table before each of `record`'s actions and at its end (one more
/// than its actions), and each action as the table took it.
pub fn moments(record: &Record, engine: Arc<Engine>) -> Result<Moments, RecordError> {
    let start = record.dealt(engine)?;
    let mut tables = vec![start];
    let mut taken = Vec::new();
    for i in 0..record.actions.len() {
        let mut t = tables[i].clone();
        record.take_action(&mut t, i)?;
        let last = t.actions().last().expect("an action was just taken");
        taken.push((last.seat, last.action));
        tables.push(t);
    }
    Ok((tables, taken))
}

/// Analyse the decisions of `seats` (all where empty) in the deal whose
/// tables and actions `moments` gave. Decisions with one legal action are
/// left out (there is nothing to choose).
pub fn analyse(
    tables: &[Table],
    taken: &[(usize, Action)],
    seats: &[usize],
    options: Options,
) -> Vec<Moment> {
    let wanted: Vec<usize> = (0..taken.len())
        .filter(|&i| seats.is_empty() || seats.contains(&taken[i].0))
        .filter(|&i| tables[i].legal_unordered().len() > 1)
        .collect();
    let budget = SearchBudget {
        threads: 1,
        ..options.budget
    };
    // Each moment is solved once (the position after one decision is the
    // one before the next), for seat 0's side; a seat on the other side
    // holds the opposite verdict (someone goes out first).
    let mut needed: Vec<usize> = wanted.iter().flat_map(|&i| [i, i + 1]).collect();
    needed.sort_unstable();
    needed.dedup();
    let solve = |&j: &usize| forced_win(&tables[j], 0, options.solve_nodes);
    let solved: Vec<Option<bool>> =
        run_on(options.threads, || needed.par_iter().map(solve).collect());
    let verdict = |j: usize, seat: usize| -> Option<bool> {
        let t = &tables[j];
        if let Some(r) = t.result() {
            return Some(r.scores[seat] > 0);
        }
        let of_zero = solved[needed.binary_search(&j).ok()?]?;
        let side = |s: usize| t.family().side_of(t.core(), s);
        Some(if side(seat) == side(0) {
            of_zero
        } else {
            !of_zero
        })
    };
    let one = |&i: &usize| {
        let (seat, played) = taken[i];
        let seed = Rng::for_game(options.seed, i as u64).next_u64();
        let ranked = rank(
            &mut tables[i].clone(),
            budget,
            seed,
            options.k,
            Some(played),
        );
        Moment {
            number: i,
            seat,
            played,
            ranked,
            win_before: verdict(i, seat),
            win_after: verdict(i + 1, seat),
        }
    };
    run_on(options.threads, || wanted.par_iter().map(one).collect())
}

/// Does `seat`'s side hold a forced win on `table` (every hand known)?
/// At the end of the deal: did it win. None where the solver does not
/// answer within `nodes` positions, the hands hold more than
/// `SOLVE_CARDS` cards, or the solver does not play this position.
pub fn forced_win(table: &Table, seat: usize, nodes: u64) -> Option<bool> {
    if let Some(r) = table.result() {
        return Some(r.scores[seat] > 0);
    }
    if nodes == 0 {
        return None;
    }
    let sp = table.position()?;
    let bound = Bound {
        cards: SOLVE_CARDS,
        nodes,
        memory: SOLVE_MEMORY,
    };
    leaf::solved(table, &sp, seat, bound)
}
