//! The position the endgame solver (`crate::solve`) reads off a table in
//! play: every hand, whose turn, the play to beat and who made it.

use super::{Phase, Table};
use crate::rules::Flow;
use crate::solve::Position;

/// A solver position and the table seat of each of its seats.
#[derive(Clone, Debug)]
pub struct SolverPosition {
    /// With three hands the landlord's is first, then the seats in turn
    /// (the solver's seat 0 is the landlord); two hands keep the table's
    /// order.
    pub position: Position,
    /// `seats[i]` is the table seat of the solver's seat `i`.
    pub seats: Vec<usize>,
}

impl Table {
    /// The table as the solver reads it, where it can: in the play phase of
    /// a one-landlord rule set of two or three seats (the solver plays one
    /// landlord against one or two farmers who share one plan). None
    /// elsewhere.
    pub fn position(&self) -> Option<SolverPosition> {
        let t = &self.core;
        let n = t.players();
        if t.phase != Phase::Play || self.rules().flow != Flow::OneLandlord || !(2..=3).contains(&n)
        {
            return None;
        }
        let first = if n == 3 { self.report().landlord() } else { 0 };
        let seats: Vec<usize> = (0..n).map(|i| (first + i) % n).collect();
        let at = |seat: usize| seats.iter().position(|&s| s == seat);
        let position = Position {
            hands: seats.iter().map(|&s| t.hands[s].counts).collect(),
            to_move: at(t.to_act)?,
            prev: t.tricks.last,
            prev_by: t.tricks.last.and(t.tricks.last_seat).and_then(at),
        };
        Some(SolverPosition { position, seats })
    }
}

#[cfg(test)]
mod tests {
    use super::super::Rng;
    use super::*;
    use crate::engine::Engine;
    use crate::rules::Rules;
    use std::sync::Arc;

    #[test]
    fn the_position_holds_every_hand_from_the_landlord_on() {
        for preset in ["classic", "two-player", "laizi", "five-player"] {
            let engine = Arc::new(Engine::new(Rules::preset(preset).unwrap()).unwrap());
            for seed in 0..30 {
                let mut t = Table::seeded(engine.clone(), seed, 0).unwrap();
                let mut rng = Rng(seed);
                while !t.is_over() {
                    match (t.position(), t.phase() == Phase::Play, preset) {
                        (None, _, "five-player") | (None, false, _) => {}
                        (Some(p), true, _) => {
                            let hands = &t.core().hands;
                            for (i, &s) in p.seats.iter().enumerate() {
                                assert_eq!(p.position.hands[i], hands[s].counts);
                            }
                            assert_eq!(p.seats[p.position.to_move], t.to_act());
                            assert_eq!(p.position.prev, t.core().tricks.last);
                            if hands.len() == 3 {
                                assert_eq!(p.seats[0], t.report().landlord(), "{preset}");
                            }
                            let by = p.position.prev_by.map(|i| p.seats[i]);
                            let last = t.core().tricks.last.and(t.core().tricks.last_seat);
                            assert_eq!(by, last);
                        }
                        other => panic!("{preset}: {:?}", other.1),
                    }
                    let n = t.legal_unordered().len();
                    t.apply_unordered(rng.below(n));
                }
            }
        }
    }
}
