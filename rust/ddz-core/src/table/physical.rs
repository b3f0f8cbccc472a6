//! Physical cards: a rank and, for `3`..`2`, a suit. The move generator sees
//! count vectors only; the table keeps the suits beside them so that a
//! seat's hand and the marked cards read as the players see them.

use crate::cards::{Cards, SLOTS, SYMBOLS, TWO};
use std::fmt;

/// Suit letters, lowest first (♦ ♣ ♥ ♠): ties between copies of one rank
/// are broken in this order.
pub const SUITS: [char; 4] = ['d', 'c', 'h', 's'];

/// One physical card: a rank slot and, for ranks `3`..`2`, a suit (an index
/// into [`SUITS`]; 0 for jokers and laizi, which have none). Ordered low to
/// high by rank, then suit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card {
    pub slot: u8,
    pub suit: u8,
}

impl Card {
    /// Does this card carry a suit (an ordinary rank, not a joker or laizi)?
    pub fn suited(self) -> bool {
        self.slot as usize <= TWO
    }
}

impl fmt::Display for Card {
    /// As identities are written: `9h`, `X`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", SYMBOLS[self.slot as usize])?;
        if self.suited() {
            write!(f, "{}", SUITS[self.suit as usize])?;
        }
        Ok(())
    }
}

/// Sort cards low to high by rank, then suit: a counting sort over the 64
/// identities (dealing sorts every hand of every deal, and this is several
/// times faster than a comparison sort there).
pub fn sort_cards(cards: &mut [Card]) {
    let mut counts = [0u8; SLOTS * 4];
    let mut present = 0u64;
    for c in cards.iter() {
        let id = c.slot as usize * 4 + c.suit as usize;
        counts[id] += 1;
        present |= 1 << id;
    }
    if present.count_ones() as usize == cards.len() {
        // No card twice (one deck): the set bits are the sorted cards.
        for slot in cards.iter_mut() {
            let id = present.trailing_zeros() as usize;
            present &= present - 1;
            *slot = card(id / 4, id % 4);
        }
        return;
    }
    let mut at = 0;
    while present != 0 {
        let id = present.trailing_zeros() as usize;
        present &= present - 1;
        let card = Card {
            slot: (id / 4) as u8,
            suit: (id % 4) as u8,
        };
        for slot in &mut cards[at..at + counts[id] as usize] {
            *slot = card;
        }
        at += counts[id] as usize;
    }
}

/// Cards as identities, low to high by rank then suit (`3d3h9sX`).
pub fn identities(cards: &[Card]) -> String {
    let mut sorted = cards.to_vec();
    sorted.sort_unstable();
    spell(&sorted)
}

/// Cards as identities in the order given (observations spell hands at
/// every step: pushing characters is several times faster than `Display`).
fn spell(cards: &[Card]) -> String {
    let mut out = String::with_capacity(2 * cards.len());
    for &c in cards {
        push_card(&mut out, c);
    }
    out
}

/// Append `c`'s identity (`9h`, `X`) to `out`, as `Display` writes it.
pub fn push_card(out: &mut String, c: Card) {
    out.push(SYMBOLS[c.slot as usize]);
    if c.suited() {
        out.push(SUITS[c.suit as usize]);
    }
}

/// The card of rank `slot` and suit index `suit`.
fn card(slot: usize, suit: usize) -> Card {
    Card {
        slot: slot as u8,
        suit: suit as u8,
    }
}

/// A card named in text: its rank, and its suit when one was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Named {
    pub slot: u8,
    pub suit: Option<u8>,
}

/// `"3d3h9sXD"` -> the cards it names, in order; a rank without a suit
/// leaves the suit open. Accepts `10` for `T`, lower-case face ranks,
/// spaces and commas.
pub fn parse_identities(text: &str) -> Result<Vec<Named>, String> {
    let chars: Vec<char> = text.chars().filter(|c| !matches!(c, ' ' | ',')).collect();
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let mut c = chars[i];
        if matches!(c, 't' | 'j' | 'q' | 'k' | 'a') {
            c = c.to_ascii_uppercase();
        }
        if c == '1' && chars.get(i + 1) == Some(&'0') {
            c = 'T';
            i += 1;
        }
        let Some(slot) = SYMBOLS.iter().position(|&s| s == c) else {
            return Err(format!("unknown card symbol {:?} in {text:?}", chars[i]));
        };
        i += 1;
        let suit = match chars.get(i).and_then(|s| SUITS.iter().position(|x| x == s)) {
            Some(suit) if slot <= TWO => {
                i += 1;
                Some(suit as u8)
            }
            _ => None,
        };
        out.push(Named {
            slot: slot as u8,
            suit: if slot <= TWO { suit } else { Some(0) },
        });
    }
    Ok(out)
}

/// A hand with its suits: the count vector the engine plays from, and how
/// many copies of each suit of each rank it holds (several decks hold
/// several copies of one card).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hand {
    pub counts: Cards,
    suits: [[u8; 4]; TWO + 1],
}

impl Hand {
    pub fn of(cards: &[Card]) -> Hand {
        let mut hand = Hand::default();
        hand.add(cards);
        hand
    }

    /// A hand of `cards` as counts only, no suits followed (see
    /// `take_lowest`).
    pub(crate) fn counted(cards: &[Card]) -> Hand {
        Hand {
            counts: super::deal::count(cards),
            suits: Default::default(),
        }
    }

    pub fn add(&mut self, cards: &[Card]) {
        for c in cards {
            self.counts.0[c.slot as usize] += 1;
            if c.suited() {
                self.suits[c.slot as usize][c.suit as usize] += 1;
            }
        }
    }

    pub fn len(&self) -> usize {
        self.counts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// Copies of `card` held.
    pub fn holds(&self, card: Card) -> u8 {
        if card.suited() {
            self.suits[card.slot as usize][card.suit as usize]
        } else {
            self.counts.get(card.slot as usize)
        }
    }

    /// Every card, low to high.
    pub fn cards(&self) -> Vec<Card> {
        let mut out = Vec::with_capacity(self.len());
        for slot in 0..SLOTS {
            if slot <= TWO {
                for suit in 0..4 {
                    let card = Card {
                        slot: slot as u8,
                        suit: suit as u8,
                    };
                    out.extend(std::iter::repeat_n(card, self.suits[slot][suit] as usize));
                }
            } else {
                let card = Card {
                    slot: slot as u8,
                    suit: 0,
                };
                out.extend(std::iter::repeat_n(card, self.counts.get(slot) as usize));
            }
        }
        out
    }

    /// The identities, low to high (`3d3h9sX`).
    pub fn text(&self) -> String {
        spell(&self.cards())
    }

    /// Take `cards` (counts the hand holds) out of the hand: first the
    /// copies `named` lists, then the lowest suits. Returns the physical
    /// cards taken, low to high, after `taken`'s end; the caller has
    /// checked that the hand holds them.
    pub fn take(&mut self, cards: &Cards, named: &[Card], taken: &mut Vec<Card>) {
        let start = taken.len();
        taken.reserve(cards.len());
        let mut wanted = *cards;
        for &c in named {
            let slot = c.slot as usize;
            if wanted.get(slot) > 0 && self.holds(c) > 0 {
                wanted.0[slot] -= 1;
                self.remove(c);
                taken.push(c);
            }
        }
        self.take_lowest(&wanted, u32::MAX, taken);
        if !named.is_empty() {
            // Without named copies, slot then suit order is already sorted.
            taken[start..].sort_unstable();
        }
    }

    /// Take `cards` (counts the hand holds), the lowest suits first, but
    /// follow the suits only of the ranks in `followed` (a mask of slots):
    /// the other ranks leave by counts, their suits left stale, and only the
    /// followed ranks' cards are pushed to `taken`, low to high. For a table
    /// that shows no hand and reads only those ranks' suits
    /// (`Table::restart_unrecorded`); `u32::MAX` follows every rank.
    pub(crate) fn take_lowest(&mut self, cards: &Cards, followed: u32, taken: &mut Vec<Card>) {
        // Only the ranks the play takes (a few of the sixteen): every play
        // of every deal comes through here.
        let mut present = cards.mask_at_least(1) & followed;
        self.counts = self.counts - *cards;
        while present != 0 {
            let slot = present.trailing_zeros() as usize;
            present &= present - 1;
            let n = cards.0[slot];
            if slot > TWO {
                taken.extend(std::iter::repeat_n(card(slot, 0), n as usize));
                continue;
            }
            // The lowest suits held go first.
            let (held, mut left) = (&mut self.suits[slot], n);
            for (suit, copies) in held.iter_mut().enumerate() {
                while *copies > 0 && left > 0 {
                    *copies -= 1;
                    left -= 1;
                    taken.push(card(slot, suit));
                }
                if left == 0 {
                    break;
                }
            }
        }
    }

    fn remove(&mut self, c: Card) {
        self.counts.0[c.slot as usize] -= 1;
        if c.suited() {
            self.suits[c.slot as usize][c.suit as usize] -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_parse_and_print() {
        let named = parse_identities("3d 10h9X").unwrap();
        assert_eq!(named.len(), 4);
        assert_eq!(named[1].slot, 7);
        assert_eq!(named[1].suit, Some(2));
        assert_eq!(named[2].suit, None);
        assert!(parse_identities("3z").is_err());
        assert!(parse_identities("Z").is_err());
    }

    #[test]
    fn the_counting_sort_sorts() {
        let mut rng = super::super::Rng(5);
        let mut deck =
            super::super::deal::physical_deck(&crate::rules::Rules::preset("laizi").unwrap());
        for _ in 0..20 {
            rng.shuffle(&mut deck);
            let mut hand = deck[..30].to_vec();
            let mut want = hand.clone();
            want.sort_unstable();
            sort_cards(&mut hand);
            assert_eq!(hand, want);
        }
    }

    #[test]
    fn following_some_ranks_takes_what_following_all_takes_of_them() {
        // An unrecorded table follows only the ranks play reads: those
        // ranks' suits and cards must be what the whole hand gives.
        let rules = crate::rules::Rules::preset("six-player-3v3").unwrap();
        let mut deck = super::super::deal::physical_deck(&rules);
        let mut rng = super::super::Rng(11);
        for round in 0..200 {
            rng.shuffle(&mut deck);
            let cards = &deck[..40];
            let (mut all, mut some) = (Hand::of(cards), Hand::of(cards));
            let followed = 1u32 << (round % 13);
            while !all.is_empty() {
                // Up to two copies of each rank held, at random.
                let mut play = Cards::EMPTY;
                for slot in 0..SLOTS {
                    play.0[slot] = all.counts.get(slot).min(rng.below(3) as u8);
                }
                if play.is_empty() {
                    play = all.counts;
                }
                let (mut a, mut b) = (Vec::new(), Vec::new());
                all.take(&play, &[], &mut a);
                some.take_lowest(&play, followed, &mut b);
                a.retain(|c| followed & (1 << c.slot) != 0);
                assert_eq!(a, b);
                assert_eq!(all.counts, some.counts);
                let slot = round % 13;
                assert_eq!(all.suits[slot], some.suits[slot]);
            }
        }
    }

    #[test]
    fn a_hand_gives_up_named_copies_then_the_lowest() {
        let c = |slot, suit| Card { slot, suit };
        let mut hand = Hand::of(&[c(6, 3), c(6, 0), c(6, 2), c(13, 0)]);
        assert_eq!(hand.text(), "9d9h9sX");
        let mut taken = Vec::new();
        hand.take(&Cards::of(6, 2), &[c(6, 3)], &mut taken);
        assert_eq!(identities(&taken), "9d9s");
        assert_eq!(hand.text(), "9hX");
    }
}
