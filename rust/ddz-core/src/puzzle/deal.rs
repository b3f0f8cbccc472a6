//! Synthetic candidates: small hands dealt from the preset's shuffled deck.

use crate::cards::Cards;
use crate::rules::Rules;
use crate::table::deal::{physical_deck, Rng};

/// Candidate `index` of a series seeded `seed`: `hands` hands of `min` to
/// `max` cards each (each size drawn uniformly), dealt from one shuffled
/// deck of `rules`. Each candidate draws from its own generator, so a
/// series is the same however it is split between threads or machines.
/// None when the deck cannot hold that many cards.
pub fn candidate(
    rules: &Rules,
    seed: u64,
    index: u64,
    hands: usize,
    min: usize,
    max: usize,
) -> Option<Vec<Cards>> {
    let mut deck = physical_deck(rules);
    if min == 0 || min > max || hands * max > deck.len() {
        return None;
    }
    let mut rng = Rng::for_game(seed, index);
    rng.shuffle(&mut deck);
    let mut out = Vec::with_capacity(hands);
    let mut at = 0;
    for _ in 0..hands {
        let n = min + rng.below(max - min + 1);
        let mut hand = Cards::EMPTY;
        for card in &deck[at..at + n] {
            hand.0[card.slot as usize] += 1;
        }
        at += n;
        out.push(hand);
    }
    Some(out)
}
