//! `count_moves` equals the length of the enumerated list, for leads and
//! follows, on seeded random hands of every preset and of rule sets that
//! flip the options the closed-form lead count reads (`count.rs`).
//!
//! Hands are drawn two ways: from the whole deck (typical hands), and from
//! the cards of a few consecutive ranks plus the 2s and jokers (dense
//! hands: trios, planes, fours and bombs in most of them).

mod common;
use common::*;
use ddz_core::options::{OptionKind, ReadBy};
use ddz_core::rules::OPTIONS;
use ddz_core::{Cards, Engine, Move, Rules, PRESETS};
use proptest::prelude::{any, ProptestConfig};
use proptest::proptest;

/// A hand of `n` cards from the deck restricted to `ranks` (all slots when None).
fn draw(e: &Engine, rng: &mut Rng, n: usize, ranks: Option<(usize, usize)>) -> Cards {
    let mut d: Vec<usize> = deck(e)
        .into_iter()
        .filter(|&s| ranks.is_none_or(|(lo, width)| (lo..lo + width).contains(&s) || s >= 12))
        .collect();
    let mut hand = Cards::EMPTY;
    for _ in 0..n.min(d.len()) {
        let i = rng.below(d.len());
        hand.0[d.swap_remove(i)] += 1;
    }
    hand
}

/// Compare counts with lists on `hands` random hands: each as a lead and
/// as an answer to a lead of another random hand, that `from` lists (it may
/// be another rule set's, to answer kinds these rules lack).
fn check_from(e: &Engine, from: &Engine, hands: usize, seed: u64) {
    let mut rng = Rng(seed);
    let most = (e.rules().hand_size as usize + e.rules().kitty as usize).max(20);
    for i in 0..hands {
        let dense = i % 2 == 1;
        let ranks = dense.then(|| (rng.below(12), 3 + rng.below(5)));
        let n = rng.below(most + 1);
        let hand = draw(e, &mut rng, n, ranks);
        let leads = e.moves(&hand, None);
        let name = &e.rules().preset;
        assert_eq!(
            e.count_moves(&hand, None),
            leads.len() as u64,
            "{name}: lead count of {hand}"
        );
        let n = 1 + rng.below(most);
        let other = draw(e, &mut rng, n, ranks);
        let prevs = from.moves(&other, None);
        if prevs.is_empty() {
            continue;
        }
        let prev: Move = prevs[rng.below(prevs.len())];
        assert_eq!(
            e.count_moves(&hand, Some(&prev)),
            e.moves(&hand, Some(&prev)).len() as u64,
            "{name}: count of {hand} answering {prev}"
        );
    }
}

fn check(e: &Engine, hands: usize, seed: u64) {
    check_from(e, e, hands, seed);
}

#[test]
fn counts_equal_lists_on_every_preset() {
    for (i, preset) in PRESETS.iter().enumerate() {
        check(&engine(preset), 3000, 0xC0_0147 + i as u64);
    }
}

#[test]
fn counts_equal_lists_when_the_counted_options_change() {
    let classic = Rules::preset("classic").unwrap();
    let variants: [fn(&mut Rules); 6] = [
        |r| r.rocket_as_kickers = false,
        |r| r.no_bomb_inside = false,
        |r| r.joker_pairs = true,
        |r| {
            r.trio_single = false;
            r.plane_singles = false;
        },
        |r| {
            r.four_two_singles = false;
            r.four_two_pairs = false;
        },
        |r| {
            r.rocket_as_kickers = false;
            r.no_bomb_inside = false;
            r.joker_pairs = true;
        },
    ];
    for (i, change) in variants.iter().enumerate() {
        let mut rules = classic.clone();
        change(&mut rules);
        let e = Engine::new(rules).unwrap();
        check(&e, 1500, 0xC0_0200 + i as u64);
        check_from(&e, &engine("classic"), 500, 0xC0_0250 + i as u64);
    }
    // Two decks with the classic kinds: hands of at most four a rank take
    // the closed form, the others the walk.
    let mut two_decks = Rules::preset("four-player").unwrap();
    two_decks.trio_single = true;
    two_decks.plane_singles = true;
    two_decks.four_two_singles = true;
    two_decks.four_two_pairs = true;
    two_decks.rocket_as_kickers = false;
    check(&Engine::new(two_decks).unwrap(), 2000, 0xC0_0300);
}

#[test]
fn counts_equal_lists_for_plays_no_hand_could_make() {
    // Plays to beat with every length and rank, read or not: the closed
    // form and the walk must agree on them too.
    let e = engine("classic");
    let mut rng = Rng(0xC0_0400);
    for _ in 0..300 {
        let hand = draw(&e, &mut rng, 20, None);
        let n = 1 + rng.below(20);
        let other = draw(&e, &mut rng, n, None);
        for prev in e.moves(&other, None).into_iter().take(8) {
            for length in 0..=13u8 {
                let rank = rng.below(15);
                let odd = Move::new(prev.kind, rank, length, prev.cards);
                assert_eq!(
                    e.count_moves(&hand, Some(&odd)),
                    e.moves(&hand, Some(&odd)).len() as u64,
                    "count of {hand} answering {odd:?}"
                );
            }
        }
    }
}

/// A rule set from `preset` with the play options (the boolean and word
/// options every flow reads) changed as `bits` and `picks` say, each kept
/// only when the engine accepts it. No option is named here, so an option
/// added to `rules.rs` is drawn too.
fn random_rules(preset: usize, bits: u64, picks: &[u8]) -> Rules {
    let mut rules = Rules::preset(PRESETS[preset % PRESETS.len()]).unwrap();
    let play_options = OPTIONS
        .iter()
        .filter(|o| matches!(o.read_by, ReadBy::Every) && o.name != "flow");
    for (i, option) in play_options.enumerate() {
        let value = match option.kind {
            OptionKind::Bool if bits >> i & 1 == 1 => (option.get)(&rules)
                .as_bool()
                .map(|b| serde_json::Value::Bool(!b)),
            OptionKind::Word(words) => {
                let pick = picks[i % picks.len()] as usize % words.len();
                Some(serde_json::Value::from(words[pick]))
            }
            _ => None,
        };
        let Some(value) = value else { continue };
        let mut changed = rules.clone();
        if (option.set)(&mut changed, value).is_ok() && Engine::new(changed.clone()).is_ok() {
            rules = changed;
        }
    }
    rules
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 192,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Over random option combinations (so a kind an option adds or forbids
    /// needs no entry in a hand-kept list): counts equal lists, for leads
    /// and answers, on typical and dense hands.
    #[test]
    fn counts_equal_lists_under_random_options(
        preset in 0usize..PRESETS.len(),
        bits in any::<u64>(),
        picks in proptest::collection::vec(any::<u8>(), 4),
        seed in any::<u64>(),
    ) {
        let e = Engine::new(random_rules(preset, bits, &picks)).unwrap();
        check(&e, 24, seed);
    }
}
