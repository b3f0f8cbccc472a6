//! The generator equals the brute-force oracle (every sub-multiset of the
//! hand, classified) for leads and follows.

mod common;
use common::*;
use ddz_core::Move;

/// Follows to test a hand against: plays drawn from other random hands.
fn random_prevs(e: &ddz_core::Engine, rng: &mut Rng, count: usize) -> Vec<Move> {
    let mut prevs = Vec::new();
    while prevs.len() < count {
        let n = 1 + rng.below(20);
        let other = random_hand(e, rng, n);
        let leads = e.moves(&other, None);
        if !leads.is_empty() {
            prevs.push(leads[rng.below(leads.len())]);
        }
    }
    prevs
}

fn run_oracle(preset: &str, hands: usize, max_cards: usize, seed: u64) {
    let e = engine(preset);
    let mut rng = Rng(seed);
    for i in 0..hands {
        let n = 1 + rng.below(max_cards);
        let hand = random_hand(&e, &mut rng, n);
        let prevs = random_prevs(&e, &mut rng, 3);
        if let Err(msg) = check_against_oracle(&e, &hand, &prevs) {
            panic!("{preset} hand #{i}: {msg}");
        }
    }
}

#[test]
fn classic_random_hands_match_the_oracle() {
    run_oracle("classic", 2000, 20, 1);
}

#[test]
fn two_player_random_hands_match_the_oracle() {
    run_oracle("two-player", 300, 20, 2);
}

#[test]
fn classic_edge_hands_match_the_oracle() {
    let e = engine("classic");
    let edge = [
        "33334444555566667777", // bombs inside straights and planes
        "3456789TJQKA2XD",      // the longest straight, the rocket
        "333444555666XD",       // planes with joker wings
        "3334445555666",        // four of a rank beside planes
        "333444555666777888",   // long planes, several readings
        "33445566778899TTJJQQ", // long pair straights
        "2222AAAAKKKKXD",       // bombs, rocket, four-with-two
        "XD",
        "33334444",
        "3333444455",
    ];
    let mut rng = Rng(9);
    let prevs = random_prevs(&e, &mut rng, 40);
    for text in edge {
        let hand = cards(text);
        if let Err(msg) = check_against_oracle(&e, &hand, &prevs) {
            panic!("{msg}");
        }
    }
}
