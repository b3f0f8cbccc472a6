//! Fixed work for instruction counts of `count_moves`: `hands` seeded random
//! hands of `size` cards from a preset's deck, counted `reps` times as leads
//! or as follows (each answering a seeded lead of a second, disjoint hand).
//!
//! Instructions per hand are the difference of two runs that differ only in
//! `reps`, divided by the extra hand counts:
//! `valgrind --tool=callgrind target/release/examples/count_hands classic lead 20 1000 1`
//! and the same with `11`. A sixth argument, a thread count, times
//! `batch::count_moves_batch` over the hands instead and prints the best
//! of `reps` calls in microseconds per hand (wall clock: give the load beside it).

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
    if let Some(threads) = args.get(6).and_then(|t| t.parse::<usize>().ok()) {
        let hands: Vec<Cards> = cases.iter().map(|c| c.0).collect();
        let prevs: Vec<Option<Move>> = cases.iter().map(|c| c.1).collect();
        let mut best = f64::INFINITY;
        for _ in 0..reps {
            let t0 = std::time::Instant::now();
            let counts = ddz_core::batch::count_moves_batch(&engine, &hands, &prevs, threads);
            best = best.min(t0.elapsed().as_secs_f64());
            std::hint::black_box(counts);
        }
        println!("{:.4} us per hand", best * 1e6 / hands.len() as f64);
        return;
    }
    let mut total = 0u64;
    for _ in 0..reps {
        for (hand, prev) in &cases {
            total += engine.count_moves(std::hint::black_box(hand), prev.as_ref());
        }
    }
    println!("{total}");
}
