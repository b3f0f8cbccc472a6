//! Physical decks for the flows where a card's suit matters (five-player,
//! five-player-3deck, six-player-2v4 and -teams, six-player-3v3): the deck,
//! its shuffle and cut, the marked card's draw and the deal as recorded.

use super::{sorted, Card, Dealt, Suited};
#[cfg(test)]
use crate::rules::Rules;

#[cfg(test)]
use crate::table::deal::physical_deck;
pub(super) use crate::table::deal::{count, Cut};

/// How a record lists the kitty.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum KittyOrder {
    /// Low to high, as the Python deals sort it.
    Sorted,
}

impl Cut {
    /// The deal as counts, the `marked` card's seat first, and with its
    /// suits when `record` (with six-player-2v4's two `marks`).
    pub(super) fn dealt(
        &self,
        marked: (Card, usize),
        marks: Option<[(Card, usize); 2]>,
        kitty: KittyOrder,
        record: bool,
    ) -> Dealt {
        let seats = 0..self.players();
        Dealt {
            hands: seats.clone().map(|s| count(self.hand(s))).collect(),
            kitty: count(self.kitty()),
            set_aside: count(self.set_aside()),
            first: marked.1,
            suited: record.then(|| Suited {
                hands: seats.map(|s| self.hand(s).to_vec()).collect(),
                kitty: match kitty {
                    KittyOrder::Sorted => sorted(self.kitty()),
                },
                marked: marked.0,
                marks,
            }),
        }
    }
}

/// Test help: do a recorded deal's hands and kitty make the whole deck?
#[cfg(test)]
pub(super) fn is_whole_deck(suited: &Suited, rules: &Rules) -> bool {
    let mut all: Vec<Card> = suited.hands.concat();
    all.extend(&suited.kitty);
    all.sort_unstable();
    let mut deck = physical_deck(rules);
    deck.sort_unstable();
    all == deck
}
