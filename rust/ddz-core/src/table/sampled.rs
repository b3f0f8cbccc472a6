//! Tables a search plays on: a copy of this table with the cards a seat
//! cannot see dealt again (`crate::search` draws them), so that no sample
//! replays the history.

use super::{Card, Hand, Rng, Table};

/// Cards to put in the places one seat cannot see (see `Table::redealt`).
#[derive(Clone, Debug, Default)]
pub struct Redeal {
    /// The seat whose view the cards were dealt for.
    pub seat: usize,
    /// (seat, the whole hand it now holds).
    pub hands: Vec<(usize, Vec<Card>)>,
    /// The undealt kitty, when it is hidden.
    pub kitty: Option<Vec<Card>>,
    /// The cards set aside.
    pub set_aside: Option<Vec<Card>>,
}

impl Table {
    /// A copy of this table with the hands, kitty and cards set aside that
    /// `redeal` names replaced, that keeps no record and deals any later
    /// deal (after everyone passes) from `rng`, not from this table's
    /// generator or queued deals: a playout must not learn the real next
    /// deal. The roles `redeal.seat` does not know are drawn again from
    /// the new hands and `rng` (`Family::redeal_roles`); None when no roles
    /// fit those hands.
    pub fn redealt(&self, redeal: &Redeal, mut rng: Rng) -> Option<Table> {
        let mut t = self.clone();
        for (seat, cards) in &redeal.hands {
            t.core.hands[*seat] = Hand::of(cards);
        }
        if let Some(kitty) = &redeal.kitty {
            t.core.kitty.clone_from(kitty);
        }
        if let (Some(cards), Some(deal)) = (&redeal.set_aside, t.deals.last_mut()) {
            deal.set_aside.clone_from(cards);
        }
        if !t.family.redeal_roles(&t.core, redeal.seat, &mut rng) {
            return None;
        }
        t.dealer.for_playout(rng);
        t.refresh();
        Some(t)
    }

    /// Does this table keep its record (the physical cards of every play)?
    /// A search reads the cards played from it.
    pub fn is_recorded(&self) -> bool {
        self.dealer.is_recording()
    }

    /// The cards set aside in the current deal.
    pub fn set_aside(&self) -> &[Card] {
        self.deals.last().map_or(&[], |d| &d.set_aside)
    }
}
