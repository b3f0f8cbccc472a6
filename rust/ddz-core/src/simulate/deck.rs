//! Physical decks for the flows where a card's suit matters (five-player,
//! five-player-3deck, six-player-2v4 and -teams, six-player-3v3): the deck,
//! its shuffle and cut, the marked card's draw and the deal as recorded.

use super::{sorted, Card, Dealt, Rng, Suited};
use crate::cards::{Cards, BIG_JOKER, LAIZI, SMALL_JOKER, TWO};
use crate::rules::Rules;

/// Every physical card of the rule set's deck: each suited card once per
/// deck, then the jokers and laizi.
pub(super) fn physical_deck(rules: &Rules) -> Vec<Card> {
    let mut deck = Vec::with_capacity(rules.deck_size());
    for slot in 0..=TWO as u8 {
        for suit in 0..4 {
            deck.extend(std::iter::repeat_n(
                Card { slot, suit },
                rules.decks as usize,
            ));
        }
    }
    for (slot, copies) in [
        (SMALL_JOKER, rules.decks),
        (BIG_JOKER, rules.decks),
        (LAIZI, rules.laizi),
    ] {
        let card = Card {
            slot: slot as u8,
            suit: 0,
        };
        deck.extend(std::iter::repeat_n(card, copies as usize));
    }
    deck
}

/// Physical cards as the counts per rank that the engine plays with.
pub(super) fn count(cards: &[Card]) -> Cards {
    let mut c = Cards::EMPTY;
    for card in cards {
        c.0[card.slot as usize] += 1;
    }
    c
}

/// How a record lists the kitty.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum KittyOrder {
    /// Low to high, as the Python deals sort it.
    Sorted,
    /// As dealt: six-player-3v3-kitty's open landlords take it from the top.
    AsDealt,
}

/// A shuffled physical deck cut as the Python deals cut it: a hand per
/// seat, then the kitty, then the cards set aside.
pub(super) struct Cut {
    deck: Vec<Card>,
    players: usize,
    size: usize,
    kitty: usize,
}

impl Cut {
    pub(super) fn shuffled(rules: &Rules, rng: &mut Rng) -> Self {
        let mut deck = physical_deck(rules);
        rng.shuffle(&mut deck);
        Cut {
            deck,
            players: rules.players as usize,
            size: rules.hand_size as usize,
            kitty: rules.kitty as usize,
        }
    }

    pub(super) fn players(&self) -> usize {
        self.players
    }

    /// Every card dealt to a seat, hand after hand.
    pub(super) fn in_hands(&self) -> &[Card] {
        &self.deck[..self.players * self.size]
    }

    pub(super) fn hand(&self, seat: usize) -> &[Card] {
        &self.deck[seat * self.size..(seat + 1) * self.size]
    }

    pub(super) fn kitty(&self) -> &[Card] {
        let start = self.players * self.size;
        &self.deck[start..start + self.kitty]
    }

    pub(super) fn set_aside(&self) -> &[Card] {
        &self.deck[self.players * self.size + self.kitty..]
    }

    /// The dealt card at position `at` of `in_hands`, and its seat.
    pub(super) fn at(&self, at: usize) -> (Card, usize) {
        (self.in_hands()[at], at / self.size)
    }

    /// One dealt card drawn uniformly among those `markable` allows, and
    /// its seat (the Python deals' marked card).
    pub(super) fn mark(&self, rng: &mut Rng, markable: impl Fn(Card) -> bool) -> (Card, usize) {
        let dealt = self.in_hands();
        let choices = dealt.iter().filter(|&&c| markable(c)).count();
        let pick = rng.below(choices);
        let at = (0..dealt.len())
            .filter(|&i| markable(dealt[i]))
            .nth(pick)
            .expect("a deal holds a card that may be marked");
        self.at(at)
    }

    /// The deal as counts, the `marked` card's seat first, and with its
    /// suits when `record` (with six-player-2v4's two `marks`).
    pub(super) fn dealt(
        &self,
        marked: (Card, usize),
        marks: Option<[(Card, usize); 2]>,
        kitty: KittyOrder,
        record: bool,
    ) -> Dealt {
        let seats = 0..self.players;
        Dealt {
            hands: seats.clone().map(|s| count(self.hand(s))).collect(),
            kitty: count(self.kitty()),
            set_aside: count(self.set_aside()),
            first: marked.1,
            suited: record.then(|| Suited {
                hands: seats.map(|s| self.hand(s).to_vec()).collect(),
                kitty: match kitty {
                    KittyOrder::Sorted => sorted(self.kitty()),
                    KittyOrder::AsDealt => self.kitty().to_vec(),
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
