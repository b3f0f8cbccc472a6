//! The widest list of legal actions a rule set can offer at one moment,
//! where it is known: the default width of `VecEnv(max_actions="auto")`.
//!
//! A play from a hand is a play from any larger hand, so the most plays
//! are led from the largest hand a seat holds (the landlord's, with the
//! kitty). `examples/max_plays.rs` counts the leads of every rank-count
//! vector of that size; the figures below are its output. An answer lists
//! only plays of the hand (those that beat the play to answer) and `pass`,
//! so no moment of the play has more than the most leads plus one, and
//! the auction's words are a handful. Presets with two decks or wild cards
//! have too many hands to count this way, and have no figure.

use crate::rules::Rules;

/// Per preset: the most plays one hand can lead, and a hand that leads
/// that many (`examples/max_plays.rs`, run once over every hand).
pub const MOST_PLAYS_LED: [(&str, u64, &str); 2] = [
    ("classic", 521, "3456789TJJJQQQKKKAAA"),
    ("two-player", 1199, "3456789TTTJJJQQQKKKAAAD"),
];

/// The most plays a hand can lead under `rules`, and a hand leading them,
/// when `rules` is a preset unchanged and its figure is known.
pub fn most_plays_led(rules: &Rules) -> Option<(u64, &'static str)> {
    let (_, most, hand) = MOST_PLAYS_LED.iter().find(|(p, _, _)| *p == rules.preset)?;
    (Rules::preset(&rules.preset).ok()? == *rules).then_some((*most, *hand))
}

/// A width no moment of a deal under `rules` exceeds (the most plays led,
/// plus `pass`), when known.
pub fn max_legal_actions(rules: &Rules) -> Option<usize> {
    most_plays_led(rules).map(|(most, _)| most as usize + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Rng;
    use crate::{Cards, Engine};

    #[test]
    fn the_recorded_hand_leads_the_recorded_most() {
        for (preset, most, hand) in MOST_PLAYS_LED {
            let engine = Engine::new(Rules::preset(preset).unwrap()).unwrap();
            let hand = Cards::parse(hand).unwrap();
            let rules = engine.rules();
            assert_eq!(hand.len(), (rules.hand_size + rules.kitty) as usize);
            assert_eq!(engine.count_moves(&hand, None), most, "{preset}");
            assert_eq!(engine.moves(&hand, None).len() as u64, most, "{preset}");
        }
    }

    #[test]
    fn no_random_hand_leads_more() {
        for (preset, most, _) in MOST_PLAYS_LED {
            let engine = Engine::new(Rules::preset(preset).unwrap()).unwrap();
            let rules = engine.rules();
            let size = (rules.hand_size + rules.kitty) as usize;
            let mut deck: Vec<usize> = (0..16)
                .flat_map(|s| std::iter::repeat_n(s, rules.copies(s) as usize))
                .collect();
            let mut rng = Rng(11);
            let mut widest = 0;
            for _ in 0..20_000 {
                rng.shuffle(&mut deck);
                let mut hand = Cards::EMPTY;
                for &s in &deck[..size] {
                    hand.0[s] += 1;
                }
                widest = widest.max(engine.count_moves(&hand, None));
            }
            assert!(widest <= most && widest > 0, "{preset}: {widest} > {most}");
        }
    }

    #[test]
    fn only_unchanged_presets_with_a_figure_have_one() {
        assert_eq!(
            max_legal_actions(&Rules::preset("classic").unwrap()),
            Some(522)
        );
        for preset in ["four-player", "laizi"] {
            assert_eq!(max_legal_actions(&Rules::preset(preset).unwrap()), None);
        }
        let mut changed = Rules::preset("classic").unwrap();
        changed.plane_singles = false;
        assert_eq!(max_legal_actions(&changed), None);
    }
}
