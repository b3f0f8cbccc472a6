//! `five-player`: where the marked card's two copies were dealt, as far as
//! the seat knows, while the plays are made up and after.

use super::{Placement, View};
use crate::cards::Cards;
use crate::table::{deal, Card};

/// Where `five-player`'s marked copies were dealt, as far as the seat
/// knows, while the plays are made up and after.
pub(super) struct Places<'a> {
    /// The seats whose hands the observation shows.
    known: Vec<bool>,
    marked: Card,
    open: usize,
    hand_sizes: &'a [usize],
    /// A kitty the seat saw: its cards stay where they are placed.
    kitty: &'a [Card],
    /// The copies not yet placed (out of the deck).
    copies: Vec<Card>,
    /// Each seat's copies not in a hand the seat sees, not yet placed.
    owed: Vec<usize>,
    /// Whether a seat's copy was played (the partnership came out by a play).
    played: Vec<bool>,
    /// Copies owed to no one: the open landlord may hold both unbeknown.
    spare: usize,
    /// How many more copies the plays must hold (the other cards of that
    /// rank are too few for them).
    short: usize,
}

impl<'a> Places<'a> {
    /// Take the unseen copies of `marked` out of `deck` and work out who was
    /// dealt them; `plays` are the history's plays, `kitty` a shown kitty's
    /// cards not yet placed.
    pub(super) fn new(
        view: &'a View,
        now: &[Option<Vec<Card>>],
        (marked, open): (Card, usize),
        deck: &mut Vec<Card>,
        kitty: &[Card],
        plays: &[(usize, Cards, &str)],
    ) -> Places<'a> {
        let n = now.len();
        let mut copies = Vec::new();
        while let Some(at) = deck.iter().position(|c| *c == marked) {
            copies.push(deck.remove(at));
        }
        let count = |cards: &[Card]| cards.iter().filter(|&&c| c == marked).count();
        // The copies each seat held once the kitty was taken.
        let mut dealt = vec![0usize; n];
        dealt[open] += 1;
        match (view.hidden_landlord, view.solo) {
            (Some(h), _) if h != open && h < n => dealt[h] += 1,
            (_, Some(true)) => dealt[open] += 1,
            _ => {}
        }
        let mut played = vec![false; n];
        // Revealed without a `reveal`: the hidden landlord played its copy
        // (or the open landlord, alone, both of its own).
        if view.revealed && !view.history.iter().any(|(_, a)| a == "reveal") {
            match view.hidden_landlord {
                Some(h) if h != open && h < n => played[h] = true,
                _ => played[open] = true,
            }
        }
        let owed: Vec<usize> = (0..n)
            .map(|s| {
                let seen = now[s].as_deref().map_or(0, count);
                if s != open {
                    return dealt[s].saturating_sub(seen);
                }
                // The open landlord holds a shown kitty's copies wherever
                // they are placed (the hand it shows meets them first), and
                // was dealt at least one of its own.
                let kitty = view.kitty.as_deref().map_or(0, count);
                let own = seen.saturating_sub(kitty);
                (dealt[s].saturating_sub(own + kitty)).max(1usize.saturating_sub(own))
            })
            .collect();
        let slot = marked.slot as usize;
        let wanted: usize = plays.iter().map(|(_, c, _)| usize::from(c.get(slot))).sum();
        let other =
            usize::from(deal::count(deck).get(slot)) + usize::from(deal::count(kitty).get(slot));
        Places {
            known: now.iter().map(Option::is_some).collect(),
            marked,
            open,
            hand_sizes: &view.hand_sizes,
            kitty: view.kitty.as_deref().unwrap_or_default(),
            spare: copies.len().saturating_sub(owed.iter().sum()),
            short: wanted.saturating_sub(other),
            copies,
            owed,
            played,
        }
    }
}

impl Placement for Places<'_> {
    /// The copies seat `s`'s next play takes before the deck (out of
    /// `want`, into `cards`): those it owes where the other cards of the
    /// rank run short or its copy was played, and, running short, a copy
    /// owed to no one if `s` is the open landlord.
    fn copies_for_play(&mut self, s: usize, want: &mut Cards, cards: &mut Vec<Card>) {
        let slot = self.marked.slot as usize;
        while want.get(slot) > 0 {
            let owes = self.owed[s] > 0 && (self.short > 0 || self.played[s]);
            let unbeknown = self.owed[s] == 0 && s == self.open && self.spare > 0 && self.short > 0;
            if !(owes || unbeknown) {
                break;
            }
            let Some(copy) = self.copies.pop() else {
                break;
            };
            cards.push(copy);
            *want = *want - Cards::of(slot, 1);
            self.short = self.short.saturating_sub(1);
            match owes {
                true => self.owed[s] -= 1,
                false => self.spare -= 1,
            }
        }
    }

    /// Give each seat still owed a copy one: pinned in a hand the seat
    /// cannot see, else in one of its plays of that rank; the copies left
    /// go back to the deck.
    fn finish(
        mut self: Box<Self>,
        plays: &mut [Vec<Card>],
        pinned: &mut [Vec<Card>],
        deck: &mut Vec<Card>,
    ) -> Result<Option<Box<dyn super::Adjust>>, String> {
        for (s, &k) in self.owed.iter().enumerate() {
            for _ in 0..k {
                let copy = (self.copies.pop()).ok_or("the marked card's copies do not fit")?;
                let room = self.hand_sizes[s] > pinned[s].len();
                if !self.known[s] && room && !self.played[s] {
                    pinned[s].push(copy);
                    continue;
                }
                let other = |c: &Card| c.slot == self.marked.slot && *c != self.marked;
                let at = (plays[s].iter())
                    .position(|c| other(c) && !self.kitty.contains(c))
                    .or_else(|| plays[s].iter().position(other))
                    .ok_or(format!(
                        "seat {s} holds no copy of the marked card {}",
                        self.marked
                    ))?;
                deck.push(std::mem::replace(&mut plays[s][at], copy));
            }
        }
        deck.append(&mut self.copies);
        deck.sort_unstable();
        Ok(None)
    }
}
