//! A sample's value for the searching seat: the deal finished by the
//! playout policy, or solved exactly once every hand is small.

use super::playout;
use crate::solve::{Options, Solver};
use crate::table::Table;

/// The solver answers a one-landlord position of at most this many cards
/// in all ... (20 and 50,000 won a point of WP over 12 and 4,000 in a
/// paired duel; the time limit still holds the decision: docs/bots.md)
pub const SOLVE_CARDS: usize = 20;
/// ... or gives up after this many positions (the playout decides then).
const SOLVE_NODES: u64 = 50_000;
/// The solver's memory bound at a leaf (its buffers are reused per thread).
const SOLVE_MEMORY: usize = 4 << 20;

/// 1 when `seat`'s side wins, else 0, plus a thousandth of its score
/// when played out (the stake breaks ties between sure wins).
pub fn value(table: &mut Table, seat: usize) -> f64 {
    if let Some(win) = solved(table, seat) {
        return f64::from(u8::from(win));
    }
    if !playout::play_out(table) {
        return 0.5;
    }
    let score = table.result().map_or(0, |r| r.scores[seat]);
    f64::from(u8::from(score > 0)) + 0.001 * score.clamp(-100, 100) as f64
}

/// Does `seat`'s side win with perfect play from here, when the position
/// is small enough to solve within the leaf's bound?
fn solved(table: &Table, seat: usize) -> Option<bool> {
    if table.is_over() {
        return None;
    }
    let sp = table.position()?;
    let cards: usize = sp.position.hands.iter().map(|h| h.len()).sum();
    if cards > SOLVE_CARDS {
        return None;
    }
    let options = Options {
        max_nodes: Some(SOLVE_NODES),
        max_memory: SOLVE_MEMORY,
        ..Options::default()
    };
    let mut solver = Solver::new(table.engine(), options);
    let win = solver.solve(&sp.position).ok()?.win?;
    // With three hands the solver's seat 0 is the landlord, alone.
    let side = |s: usize| {
        sp.position
            .side(sp.seats.iter().position(|&x| x == s).unwrap_or(0))
    };
    let mover = sp.seats[sp.position.to_move];
    Some(if side(mover) == side(seat) { win } else { !win })
}
