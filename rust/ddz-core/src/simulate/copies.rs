//! The physical copies of one rank followed through a deal
//! (six-player-3v3): which copy leaves a hand decides
//! when a hidden partner becomes public.

use super::deck::Cut;
use super::{Card, Named};

/// The copies of the marked card's rank, by suit, in each seat's hand.
pub(super) struct Copies {
    pub(super) rank: usize,
    pub(super) suit: usize,
    pub(super) held: Vec<[u8; 4]>,
}

impl Copies {
    /// The copies of `marked`'s rank in each dealt hand of `cut`.
    pub(super) fn dealt(cut: &Cut, marked: Card) -> Self {
        let mut copies = Copies {
            rank: marked.slot as usize,
            suit: marked.suit as usize,
            held: vec![[0u8; 4]; cut.players()],
        };
        for seat in 0..cut.players() {
            copies.add(seat, cut.hand(seat));
        }
        copies
    }

    /// `seat` takes `cards` (from the kitty): add its copies of the rank.
    pub(super) fn add(&mut self, seat: usize, cards: &[Card]) {
        for c in cards.iter().filter(|c| c.slot as usize == self.rank) {
            self.held[seat][c.suit as usize] += 1;
        }
    }

    /// `seat` plays `n` cards of the marked rank: they leave the hand
    /// lowest suit first, as in Python's `Game._take`. Returns the copies
    /// taken, or None when the play holds none of the rank.
    pub(super) fn take(&mut self, seat: usize, n: u8) -> Option<Named> {
        if n == 0 {
            return None;
        }
        let mut left = n;
        let mut suits = [0u8; 4];
        for (taken, have) in suits.iter_mut().zip(self.held[seat].iter_mut()) {
            *taken = left.min(*have);
            *have -= *taken;
            left -= *taken;
        }
        debug_assert_eq!(left, 0, "seat {seat} played copies it does not hold");
        Some(Named {
            rank: self.rank as u8,
            suits,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_leave_a_hand_lowest_suit_first() {
        // Marked 9h; the seat holds 9d 9h 9h 9s.
        let mut copies = Copies {
            rank: 6,
            suit: 2,
            held: vec![[1, 0, 2, 1]],
        };
        let first = copies.take(0, 1).unwrap();
        assert_eq!(first.suits, [1, 0, 0, 0]);
        let next = copies.take(0, 2).unwrap();
        assert_eq!(next.suits, [0, 0, 2, 0]);
        assert_eq!(copies.held[0], [0, 0, 0, 1]);
        assert_eq!(copies.take(0, 0), None);
    }
}
