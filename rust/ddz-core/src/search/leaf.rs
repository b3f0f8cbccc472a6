//! A sample's value for the searching seat: the deal finished by the
//! playout policy, or solved exactly once every hand is small.

use super::playout::{self, Style};
use crate::solve::{Options, Solver};
use crate::table::{SolverPosition, Table};

/// How far the solver may go at a leaf: positions of at most `cards` in
/// all, given up after `nodes` positions or past `memory` bytes (the
/// playout decides then).
#[derive(Clone, Copy)]
pub(super) struct Bound {
    pub cards: usize,
    pub nodes: u64,
    pub memory: usize,
}

/// Right after the candidate, a one-landlord position this small is
/// solved (20 and 50,000 won a point of WP over 12 and 4,000 in a paired
/// duel; the time limit still holds the decision: docs/bots.md).
const AT_LEAF: Bound = Bound {
    cards: 20,
    nodes: 50_000,
    memory: SOLVE_MEMORY,
};
/// When the searching seat is the landlord of three hands, its playouts
/// stop at this size and the solver plays the endgame for everyone. That
/// won the landlord three points of WP in a paired duel; the farmers'
/// search lost one and a half with it, so theirs play out (docs/bots.md).
const ENDGAME: Bound = Bound {
    cards: 12,
    nodes: 4_000,
    memory: SOLVE_MEMORY,
};
/// The solver's memory bound at a leaf (its buffers are reused per thread).
const SOLVE_MEMORY: usize = 4 << 20;

/// 1 when `seat`'s side wins, else 0, plus a thousandth of its score
/// when played out (the stake breaks ties between sure wins). The
/// playouts play in `style`, to which a lone landlord's search adds
/// its farmers' takeovers. Without `exact` the solver is not asked (the
/// weaker levels play every sample out: quicker, and less exact).
pub fn value(table: &mut Table, seat: usize, mut style: Style, exact: bool) -> f64 {
    // A candidate before play (a bid, a double) is first played on to the
    // first play, so that every candidate meets the same model of play: a
    // bid that ends the auction would else meet the lone landlord's
    // playouts and a bid that leaves it open the plain ones.
    playout::play_until(table, usize::MAX, style);
    if let Some(sp) = open_position(table).filter(|_| exact) {
        if let Some(win) = solved(table, &sp, seat, AT_LEAF) {
            return f64::from(u8::from(win));
        }
        if lone_landlord(&sp) == Some(seat) {
            style.partners_take_over = true;
            playout::play_until(table, ENDGAME.cards, style);
            let endgame = open_position(table);
            if let Some(win) = endgame.and_then(|sp| solved(table, &sp, seat, ENDGAME)) {
                return f64::from(u8::from(win));
            }
        }
    }
    if !playout::play_out(table, style) {
        return 0.5;
    }
    let score = table.result().map_or(0, |r| r.scores[seat]);
    f64::from(u8::from(score > 0)) + 0.001 * score.clamp(-100, 100) as f64
}

/// The landlord of `sp` when it plays alone against two farmers (the
/// solver's seat 0 is the landlord): the deals whose playouts model the
/// other side (`Style`).
pub(super) fn lone_landlord(sp: &SolverPosition) -> Option<usize> {
    (sp.seats.len() == 3).then(|| sp.seats[0])
}

/// The solver's view of a one-landlord deal in play, not yet over.
fn open_position(table: &Table) -> Option<SolverPosition> {
    if table.is_over() {
        return None;
    }
    table.position()
}

/// Does `seat`'s side win with perfect play from `sp` (the table's
/// position), when it is small enough to solve within `bound`?
pub(super) fn solved(
    table: &Table,
    sp: &SolverPosition,
    seat: usize,
    bound: Bound,
) -> Option<bool> {
    let cards: usize = sp.position.hands.iter().map(|h| h.len()).sum();
    if cards > bound.cards {
        return None;
    }
    let options = Options {
        max_nodes: Some(bound.nodes),
        max_memory: bound.memory,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::rules::Rules;
    use crate::table::Phase;
    use std::sync::Arc;

    #[test]
    fn a_candidate_before_play_meets_the_same_model_of_play() {
        // Every bid of the first turn of the auction is valued as the table
        // played on to its first play: a bid that ends the auction and one
        // that leaves it open meet the same playouts. Where the bidder ends
        // as the lone landlord, that value is not the plain playout's.
        let e = Arc::new(Engine::new(Rules::preset("classic").unwrap()).unwrap());
        let (mut bids, mut not_plain) = (0, 0);
        for index in 0..100 {
            let t = Table::seeded(e.clone(), 5, index).unwrap();
            assert_ne!(t.phase(), Phase::Play);
            let seat = t.to_act();
            for i in 0..t.legal_unordered().len() {
                let mut bid = t.clone();
                bid.apply_unordered(i);
                let mut at_play = bid.clone();
                playout::play_until(&mut at_play, usize::MAX, Style::default());
                let valued = value(&mut bid.clone(), seat, Style::default(), true);
                assert_eq!(
                    valued,
                    value(&mut at_play.clone(), seat, Style::default(), true)
                );
                bids += 1;
                let lone =
                    open_position(&at_play).is_some_and(|sp| lone_landlord(&sp) == Some(seat));
                let mut plain = bid.clone();
                playout::play_out(&mut plain, Style::default());
                let plain = f64::from(u8::from(plain.result().is_some_and(|r| r.scores[seat] > 0)));
                not_plain += usize::from(lone && valued.round() != plain);
            }
        }
        assert!(
            bids >= 300 && not_plain > 5,
            "{bids} bids, {not_plain} not plain"
        );
    }
}
