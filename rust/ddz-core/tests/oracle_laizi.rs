//! Laizi hands: the generator equals the brute-force oracle (every
//! sub-multiset classified by the independent laizi classifier).

mod common;
use common::*;
use ddz_core::{Cards, Move};

/// A random laizi-preset hand of `naturals` natural cards and `laizi` wild cards.
fn laizi_hand(rng: &mut Rng, naturals: usize, laizi: u8) -> Cards {
    let e = engine("laizi");
    let mut hand = random_hand(&e, rng, 54 + 2);
    hand.0[15] = 0;
    // Thin the full natural deck down to `naturals` cards.
    let mut cards: Vec<usize> = hand.ranks().collect();
    let mut out = Cards::EMPTY;
    for _ in 0..naturals.min(cards.len()) {
        let i = rng.below(cards.len());
        out.0[cards.swap_remove(i)] += 1;
    }
    out.0[15] = laizi;
    out
}

/// Dense hands: naturals from a few adjacent ranks, so bombs, trios and
/// chains with gaps for the laizi to fill come up often.
fn dense_laizi_hand(rng: &mut Rng, naturals: usize, laizi: u8) -> Cards {
    let low = rng.below(9);
    let mut out = Cards::EMPTY;
    while out.len() < naturals {
        let r = low + rng.below(5);
        if out.0[r] < 4 {
            out.0[r] += 1;
        }
    }
    out.0[15] = laizi;
    out
}

fn prevs(rng: &mut Rng, count: usize) -> Vec<Move> {
    let e = engine("laizi");
    let mut out = Vec::new();
    while out.len() < count {
        let laizi = rng.below(3) as u8;
        let n = 1 + rng.below(10);
        let hand = if rng.below(2) == 0 {
            dense_laizi_hand(rng, n, laizi)
        } else {
            laizi_hand(rng, n, laizi)
        };
        let leads = e.moves(&hand, None);
        if !leads.is_empty() {
            out.push(leads[rng.below(leads.len())]);
        }
    }
    out
}

#[test]
fn laizi_hands_match_the_oracle() {
    let e = engine("laizi");
    let mut rng = Rng(4);
    for i in 0..1200 {
        let laizi = (i % 3) as u8;
        let n = 1 + rng.below(11);
        let hand = if i % 2 == 0 {
            dense_laizi_hand(&mut rng, n, laizi)
        } else {
            laizi_hand(&mut rng, n, laizi)
        };
        let ps = prevs(&mut rng, 3);
        if let Err(msg) = check_against_oracle(&e, &hand, &ps) {
            panic!("laizi hand #{i}: {msg}");
        }
    }
}

#[test]
fn hands_of_only_laizi_play_them_as_threes() {
    let e = engine("laizi");
    let leads: Vec<String> = e
        .hint(&cards("LL"), None)
        .iter()
        .map(|m| format!("{m} {}", m.kind.id()))
        .collect();
    assert_eq!(leads, ["L=3 single", "LL=33 pair"]);
    // With a natural card in hand, laizi never go out alone.
    assert!(e
        .moves(&cards("5L"), None)
        .iter()
        .all(|m| m.cards != cards("L")));
}
