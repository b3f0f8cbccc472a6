//! Fixed work for instruction counts of `count_moves`: `hands` seeded random
//! hands of `size` cards from a preset's deck, counted `reps` times as leads
//! or as follows (each answering a seeded lead of a second, disjoint hand).
//!
//! Instructions per hand are the difference of two runs that differ only in
//! `reps`, divided by the extra hand counts:
//! `valgrind --tool=callgrind target/release/examples/count_hands classic lead 20 1000 1`
//! and the same with `11`.

use ddz_core::table::Rng;
use ddz_core::{Cards, Engine, Move, Rules};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or(default.to_string());
    let preset = arg(1, "classic");
    let follow = arg(2, "lead") == "follow";
    let size: usize = arg(3, "20").parse().expect("size");
    let hands: usize = arg(4, "1000").parse().expect("hands");
    let reps: usize = arg(5, "1").parse().expect("reps");
    let engine = Engine::new(Rules::preset(&preset).expect("preset")).expect("engine");
    let rules = engine.rules();
    let mut deck: Vec<usize> = Vec::new();
    for slot in 0..16 {
        deck.extend(std::iter::repeat_n(slot, rules.copies(slot) as usize));
    }
    let mut rng = Rng(7);
    let mut cases: Vec<(Cards, Option<Move>)> = Vec::with_capacity(hands);
    while cases.len() < hands {
        rng.shuffle(&mut deck);
        let n = size.min(deck.len());
        let mut hand = Cards::EMPTY;
        let mut other = Cards::EMPTY;
        for &s in &deck[..n] {
            hand.0[s] += 1;
        }
        for &s in &deck[n..(2 * n).min(deck.len())] {
            other.0[s] += 1;
        }
        let prev = if follow {
            let leads = engine.moves(&other, None);
            if leads.is_empty() {
                continue;
            }
            Some(leads[rng.below(leads.len())])
        } else {
            None
        };
        cases.push((hand, prev));
    }
    let mut total = 0u64;
    for _ in 0..reps {
        for (hand, prev) in &cases {
            total += engine.count_moves(std::hint::black_box(hand), prev.as_ref());
        }
    }
    println!("{total}");
}
