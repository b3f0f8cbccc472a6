//! Moving cards a seat cannot see, for secrecy tests: a seat's
//! observation must not change when they move.

use super::{deal, Card, Table};

impl Table {
    /// Swap card `a` of place `pa` with card `b` of place `pb` (see
    /// `place`). For secrecy tests: a seat's observation must not
    /// change when cards it cannot see move.
    #[doc(hidden)]
    pub fn swap_cards(&mut self, pa: usize, a: Card, pb: usize, b: Card) -> Result<(), String> {
        self.remove_from(pa, a)?;
        if let Err(e) = self.remove_from(pb, b) {
            self.add_to(pa, a);
            return Err(e);
        }
        self.add_to(pa, b);
        self.add_to(pb, a);
        self.refresh();
        Ok(())
    }

    /// Places for `swap_cards`: 0..players are hands, then the kitty, then
    /// the cards set aside.
    fn place(&mut self, place: usize) -> Option<&mut Vec<Card>> {
        let n = self.core.players();
        if place == n {
            Some(&mut self.core.kitty)
        } else if place == n + 1 {
            self.deals.last_mut().map(|d| &mut d.set_aside)
        } else {
            None
        }
    }

    fn remove_from(&mut self, place: usize, c: Card) -> Result<(), String> {
        if place < self.core.players() {
            let hand = &mut self.core.hands[place];
            if hand.holds(c) == 0 {
                return Err(format!("seat {place} does not hold {c}"));
            }
            hand.take(&deal::count(&[c]), &[c], &mut Vec::new());
            return Ok(());
        }
        let cards = self.place(place).ok_or(format!("no place {place}"))?;
        let at = cards
            .iter()
            .position(|x| *x == c)
            .ok_or(format!("{c} is not there"))?;
        cards.remove(at);
        Ok(())
    }

    fn add_to(&mut self, place: usize, c: Card) {
        if place < self.core.players() {
            self.core.hands[place].add(&[c]);
        } else if let Some(cards) = self.place(place) {
            cards.push(c);
            cards.sort_unstable();
        }
    }
}
