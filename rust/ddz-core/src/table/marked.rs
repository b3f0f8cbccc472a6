//! One marked card (明牌): a dealt card with a suit, drawn at random and
//! shown; its holder acts first. The five-player families read the mark
//! from the deal's `marked` key (`"9h"`).

use super::deal::{Cut, Rng};
use super::physical::{parse_identities, push_card, Card};
use super::Deal;
use crate::rules::Rules;

/// A shuffled deal (`cut`, just shuffled) into `deal`, one dealt suited
/// card marked, uniformly; its holder is `first`. Returns the marked card.
pub fn marked_deal(rng: &mut Rng, cut: &Cut, deal: &mut Deal) -> Card {
    let (card, holder) = cut.mark(rng, Card::suited);
    cut.deal_into(holder, true, deal);
    deal.set_text("marked", |text| push_card(text, card));
    card
}

/// The marked card of a deal, checked: one suited card, held by seat
/// `first` (its holder acts first).
pub fn marked_card(rules: &Rules, deal: &Deal) -> Result<Card, String> {
    let Some(given) = deal.extra.get("marked").and_then(|v| v.as_str()) else {
        return Err(format!(
            "{:?} needs deal['marked'], a card such as '9h'",
            rules.preset
        ));
    };
    let card = match parse_identities(given).as_deref() {
        Ok([one]) => one
            .suit
            .filter(|_| one.slot as usize <= crate::cards::TWO)
            .map(|suit| Card {
                slot: one.slot,
                suit,
            }),
        _ => None,
    };
    let Some(card) = card else {
        return Err(format!(
            "deal['marked'] must be one suited non-joker card, not '{given}'"
        ));
    };
    if !deal.hands[deal.first].contains(&card) {
        return Err(format!(
            "deal['first'] (seat {}) must hold the marked card {card}: its holder acts first",
            deal.first
        ));
    }
    Ok(card)
}

/// A rule set can mark a card only if every deal puts a suited card in
/// some hand (there are at most `2 × decks` jokers).
pub fn check_markable(rules: &Rules) -> Result<(), String> {
    let dealt = rules.players as usize * rules.hand_size as usize;
    if dealt <= 2 * rules.decks as usize + rules.laizi as usize {
        return Err(format!(
            "the hands hold {dealt} cards in all, which could all be jokers: \
             a deal must hold a suited card to mark"
        ));
    }
    Ok(())
}
