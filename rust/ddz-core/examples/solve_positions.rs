//! Positions a one-thread solve searches over fixed sets, for work on the
//! search order: `cargo run --release -p ddz-core --example solve_positions
//! [set prefix] [repeats]`.
//!
//! The sets: the 13-v-12 and 10-v-9 puzzles of docs/solver.md; the solve
//! bench's 50 13-v-12 deals and its first six 17-v-17 deals (drawn as the
//! bench draws them); 30 three-hand deals of 8 cards each and 20 of
//! 10-9-9 (the landlord leads). A fresh solver per solve, as `rules.solve`
//! does. Prints each set's positions (their sum and geometric mean, the
//! same in every run on one thread) and its wall time.

#[path = "../tests/common/mod.rs"]
mod common;

use common::Rng;
use ddz_core::solve::{Options, Position, ShareReplies, Solver};
use ddz_core::{Engine, Rules};
use std::time::Instant;

fn deals(engine: &Engine, rng: &mut Rng, sizes: &[usize], n: usize) -> Vec<Position> {
    (0..n)
        .map(|_| Position::lead(common::deal_hands(engine, rng, sizes), 0))
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let only = args.first().map_or("", |s| s.as_str());
    let repeats: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
    let puzzle = |a: &str, b: &str| {
        let hands = vec![engine.parse(a).unwrap(), engine.parse(b).unwrap()];
        vec![Position::lead(hands, 0)]
    };
    let mut bench = Rng(2026);
    let bench_13 = deals(&engine, &mut bench, &[13, 12], 50);
    let bench_17 = deals(&engine, &mut bench, &[17, 17], 6);
    let sets = [
        ("puzzle 13 v 12", puzzle("DAQQJJT999844", "X22AAT886633")),
        ("puzzle 10 v 9", puzzle("X2AK998553", "DQQJJT953")),
        ("bench 13 v 12 (50)", bench_13),
        ("bench 17 v 17 (first 6)", bench_17),
        (
            "three hands 8-8-8 (30)",
            deals(&engine, &mut Rng(77), &[8, 8, 8], 30),
        ),
        (
            "three hands 10-9-9 (20)",
            deals(&engine, &mut Rng(78), &[10, 9, 9], 20),
        ),
    ];
    let options = Options {
        threads: 1,
        share_replies: ShareReplies::Never,
        ..Options::default()
    };
    for (name, positions) in &sets {
        if !name.starts_with(only) {
            continue;
        }
        let (mut nodes, mut log_nodes, mut times) = (0u64, 0f64, Vec::new());
        for _ in 0..repeats {
            for pos in positions {
                let t = Instant::now();
                let s = Solver::new(&engine, options.clone()).solve(pos).unwrap();
                times.push(t.elapsed().as_secs_f64() * 1e3);
                nodes += s.nodes;
                log_nodes += (s.nodes.max(1) as f64).ln();
            }
        }
        let n = times.len() as f64;
        let total: f64 = times.iter().sum();
        times.sort_by(f64::total_cmp);
        println!(
            "{name}: {} positions (geometric mean {:.0}); {:.1} ms a pass, median solve {:.2} ms",
            nodes / repeats as u64,
            (log_nodes / n).exp(),
            total / repeats as f64,
            times[times.len() / 2]
        );
    }
}
