//! Cards the seat knows a seat was dealt (a marked card, a grab shown, a
//! called card's copies), kept out of the deck and placed with that seat:
//! in one of its plays of that rank, or in its hidden hand.

use super::{Adjust, Placement};
use crate::cards::Cards;
use crate::table::Card;

/// A card the seat knows a seat was dealt: whether it must have been
/// played since (Some(true)), must still be held (Some(false)), or either.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pin {
    pub seat: usize,
    pub card: Card,
    pub played: Option<bool>,
}

/// Pin `played.len()` copies of `card` to `seat`, with what is known of
/// each: those pinned there already (the marked card) count among them.
pub(super) fn pin(pins: &mut Vec<Pin>, seat: usize, card: Card, played: &[Option<bool>]) {
    let open = |p: &Pin| p.seat == seat && p.card == card && p.played.is_none();
    let had = pins.iter().filter(|p| open(p)).count();
    pins.retain(|p| !open(p));
    let played = played.iter().copied();
    let more = had.saturating_sub(played.len());
    for played in played.chain(std::iter::repeat_n(None, more)) {
        pins.push(Pin { seat, card, played });
    }
}

/// The pinned cards, taken out of the deck until they are placed.
pub(super) struct Pins {
    wanted: Vec<Pin>,
    /// Pinned cards out of the deck, not yet placed.
    pending: Vec<Pin>,
    known: Vec<bool>,
    hand_sizes: Vec<usize>,
    adjust: Option<Box<dyn Adjust>>,
}

impl Pins {
    /// `adjust`: what fixes the hidden hands once dealt, if anything.
    pub(super) fn new(
        wanted: Vec<Pin>,
        hand_sizes: &[usize],
        adjust: Option<Box<dyn Adjust>>,
    ) -> Pins {
        Pins {
            wanted,
            pending: Vec::new(),
            known: Vec::new(),
            hand_sizes: hand_sizes.to_vec(),
            adjust,
        }
    }

    /// Take each pinned card out of `deck`, but those a hand the seat sees
    /// holds (`now`) or the shown kitty gave its taker (`kitty`); a seen
    /// hand's other pins must be in its plays.
    pub(super) fn take_from(
        &mut self,
        now: &[Option<Vec<Card>>],
        kitty: Option<(usize, &[Card])>,
        deck: &mut Vec<Card>,
    ) -> Result<(), String> {
        self.known = now.iter().map(Option::is_some).collect();
        let mut held_left: Vec<Vec<Card>> =
            now.iter().map(|h| h.clone().unwrap_or_default()).collect();
        let (taker, mut kitty_left) = match kitty {
            Some((taker, cards)) => (Some(taker), cards.to_vec()),
            None => (None, Vec::new()),
        };
        // Copies that may be held are matched to a seen hand first.
        let mut wanted = std::mem::take(&mut self.wanted);
        wanted.sort_by_key(|p| p.played == Some(true));
        for pin in wanted {
            if let Some(at) = held_left[pin.seat].iter().position(|c| *c == pin.card) {
                if pin.played == Some(true) {
                    return Err(format!("seat {} still holds {}", pin.seat, pin.card));
                }
                held_left[pin.seat].remove(at);
                continue;
            }
            let from_kitty = kitty_left.iter().position(|c| *c == pin.card);
            if let Some(at) = from_kitty.filter(|_| Some(pin.seat) == taker) {
                kitty_left.remove(at);
                continue;
            }
            let played = match self.known[pin.seat] {
                true if pin.played == Some(false) => {
                    return Err(format!("seat {} holds no {}", pin.seat, pin.card))
                }
                true => Some(true),
                false => pin.played,
            };
            let at = (deck.iter().position(|c| *c == pin.card)).ok_or(format!(
                "no copy of {} is left for seat {}",
                pin.card, pin.seat
            ))?;
            deck.remove(at);
            self.pending.push(Pin { played, ..pin });
        }
        Ok(())
    }
}

impl Placement for Pins {
    fn copies_for_play(&mut self, s: usize, want: &mut Cards, cards: &mut Vec<Card>) {
        // Those that must have been played first, then those that may.
        for must in [true, false] {
            let mut i = 0;
            while i < self.pending.len() {
                let pin = self.pending[i];
                let slot = pin.card.slot as usize;
                let fits = pin.seat == s
                    && want.get(slot) > 0
                    && match must {
                        true => pin.played == Some(true),
                        false => pin.played.is_none(),
                    };
                if fits {
                    cards.push(pin.card);
                    *want = *want - Cards::of(slot, 1);
                    self.pending.remove(i);
                } else {
                    i += 1;
                }
            }
        }
    }

    fn finish(
        mut self: Box<Self>,
        _plays: &mut [Vec<Card>],
        pinned: &mut [Vec<Card>],
        _deck: &mut Vec<Card>,
    ) -> Result<Option<Box<dyn Adjust>>, String> {
        for pin in std::mem::take(&mut self.pending) {
            let s = pin.seat;
            let room = self.hand_sizes[s] > pinned[s].len();
            if pin.played == Some(true) || self.known[s] || !room {
                return Err(format!("seat {s} has no place for {}", pin.card));
            }
            pinned[s].push(pin.card);
        }
        Ok(self.adjust.take())
    }
}
