//! What the two six-player families share (`six_2v4.rs`, `six_3v3.rs`):
//! the rule sets they refuse, and how several landlords share the kitty.

use super::auction::Procedure;
use super::physical::Card;
use crate::error::RulesError;
use crate::rules::{Bidding, KittySplit, Rules};

pub(super) fn bad(option: &'static str, why: String) -> Result<(), RulesError> {
    Err(RulesError::Conflict { option, why })
}

/// What both families need: six seats, no wild cards, and none of the
/// one-landlord options they do not play.
pub(super) fn common(rules: &Rules) -> Result<(), RulesError> {
    let name = format!("the {} flow", rules.flow.name());
    if rules.players != 6 {
        return bad(
            "players",
            format!("{name} is for 6 players, not {}", rules.players),
        );
    }
    if rules.laizi != 0 {
        return bad(
            "laizi",
            format!("{name} marks suited cards and has no step for wild cards"),
        );
    }
    for (option, on) in [
        ("kicks", rules.kicks),
        ("strong_hand_bids", rules.strong_hand_bids),
    ] {
        if on {
            return bad(option, format!("{name} has no such step; it must be false"));
        }
    }
    Ok(())
}

/// The auction procedure the `bidding` option names.
pub(super) fn procedure(rules: &Rules) -> Procedure {
    match rules.bidding {
        Bidding::Rounds => Procedure::Rounds,
        Bidding::Call => Procedure::Call,
        Bidding::Once => Procedure::Once,
    }
}

/// `Shares::share` into `shares` parts, for the tests.
#[cfg(test)]
pub(super) fn split_kitty(kitty: &[Card], shares: usize, how: KittySplit) -> Vec<Vec<Card>> {
    let seats: Vec<usize> = (0..shares).collect();
    let mut out = Shares::default();
    out.share(kitty, &seats, how);
    out.list.into_iter().map(|(_, share)| share).collect()
}

/// Each landlord's kitty share, `(landlord, cards)`, and the emptied
/// buffers of the last deal's shares (a family shares the kitty every
/// deal; reading it as a slice gives the shares).
#[derive(Clone, Debug, Default)]
pub(super) struct Shares {
    list: Vec<(usize, Vec<Card>)>,
    spare: Vec<Vec<Card>>,
    /// The kitty sorted, for the snake split (kept: no allocation a deal).
    sorted: Vec<Card>,
}

impl std::ops::Deref for Shares {
    type Target = [(usize, Vec<Card>)];

    fn deref(&self) -> &Self::Target {
        &self.list
    }
}

impl Shares {
    /// No shares (a new deal); their buffers are kept.
    pub fn clear(&mut self) {
        for (_, mut cards) in self.list.drain(..) {
            cards.clear();
            self.spare.push(cards);
        }
    }

    /// `kitty` (in stored order) shared out: one share per seat of
    /// `landlords`, in the order they were named.
    ///
    /// `Snake`: the cards low to high dealt first, second, ..., last, last,
    /// ..., first, first, ..., so that no landlord is always given the lower
    /// card of a round. `InOrder`: equal runs from the top as the kitty lies.
    pub fn share(&mut self, kitty: &[Card], landlords: &[usize], how: KittySplit) {
        self.clear();
        let n = landlords.len();
        for &landlord in landlords {
            let cards = self.spare.pop().unwrap_or_default();
            self.list.push((landlord, cards));
        }
        let shares = &mut self.list;
        match how {
            KittySplit::InOrder => {
                let size = kitty.len() / n;
                for (i, (_, share)) in shares.iter_mut().enumerate() {
                    share.extend_from_slice(&kitty[i * size..(i + 1) * size]);
                }
            }
            KittySplit::Snake => {
                let sorted = &mut self.sorted;
                sorted.clear();
                sorted.extend_from_slice(kitty);
                sorted.sort_unstable();
                for (i, &card) in sorted.iter().enumerate() {
                    let (round, at) = (i / n, i % n);
                    let to = if round % 2 == 0 { at } else { n - 1 - at };
                    shares[to].1.push(card);
                }
            }
        }
    }
}

/// Tables of the six-player presets for the families' tests.
#[cfg(test)]
pub(super) mod testing {
    use super::super::{Action, Rng, Table};
    use crate::engine::Engine;
    use crate::rules::Rules;
    use std::sync::Arc;

    pub fn engine(rules: Rules) -> Arc<Engine> {
        Arc::new(Engine::new(rules).unwrap())
    }

    /// Deal `seed` of a preset.
    pub fn table(preset: &str, seed: u64) -> Table {
        Table::seeded(engine(Rules::preset(preset).unwrap()), seed, 0).unwrap()
    }

    /// Play the deal out with uniform choices; at every step an action that
    /// is not legal is refused and changes nothing.
    pub fn play_random(mut t: Table, seed: u64) -> Table {
        let mut rng = Rng::for_game(seed, 99);
        let illegal = [
            Action::Bid(3),
            Action::Pass,
            Action::Show(true),
            Action::Side(true),
            Action::Double(true),
            Action::Kick(true),
        ];
        while !t.is_over() {
            let legal: Vec<Action> = t.legal().iter().collect();
            for bad in illegal.iter().filter(|a| !legal.contains(a)) {
                let before = (
                    t.phase(),
                    t.to_act(),
                    t.actions().len(),
                    t.core().hands.clone(),
                );
                assert!(t.apply(*bad).is_err(), "{bad} refused");
                let after = (
                    t.phase(),
                    t.to_act(),
                    t.actions().len(),
                    t.core().hands.clone(),
                );
                assert_eq!(before, after);
            }
            let pick = legal[rng.below(legal.len())];
            t.apply(pick).unwrap();
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::super::physical::{identities, parse_identities};
    use super::*;

    fn cards(text: &str) -> Vec<Card> {
        parse_identities(text)
            .unwrap()
            .into_iter()
            .map(|n| Card {
                slot: n.slot,
                suit: n.suit.unwrap_or(0),
            })
            .collect()
    }

    #[test]
    fn snake_shares_alternate_the_lower_card() {
        let kitty = cards("Ad3d4h5s6d7c8d9hTdJsQcKd");
        let two = split_kitty(&kitty, 2, KittySplit::Snake);
        assert_eq!(identities(&two[0]), "3d6d7cTdJsAd");
        assert_eq!(identities(&two[1]), "4h5s8d9hQcKd");
        let three = split_kitty(&kitty, 3, KittySplit::Snake);
        assert_eq!(identities(&three[0]), "3d8d9hAd");
        assert_eq!(identities(&three[2]), "5s6dJsQc");
    }

    #[test]
    fn in_order_shares_come_from_the_top() {
        let kitty = cards("Ad3d4h5s6d7c");
        let two = split_kitty(&kitty, 2, KittySplit::InOrder);
        assert_eq!(two[0], cards("Ad3d4h"));
        assert_eq!(two[1], cards("5s6d7c"));
        assert_eq!(split_kitty(&kitty, 1, KittySplit::InOrder)[0], kitty);
    }
}
