//! Solver figures (not a test): `cargo bench -p ddz-core --bench solve`.
//!
//! 1. The comparison set of the public WZ403809264/doudizhu_solver README
//!    (eight two-hand puzzles, the first hand leads), with its verdicts.
//! 2. Random 13-v-12, 17-v-17 and 20-v-17 two-hand deals (classic deck).
//! 3. Random three-hand endgames of 8-10 cards each (landlord leads).
//!
//! `SOLVE_BENCH_DEALS` scales the random sets (default 1 = the README's).

#[path = "../tests/common/mod.rs"]
mod common;

use common::Rng;
use ddz_core::solve::{Options, Position, Solution, Solver};
use ddz_core::{Cards, Engine, Rules};
use std::time::Instant;

/// (leader, other, leader wins) in the README's notation: Z big joker,
/// Y small joker, 0 ten.
const PUZZLES: [(&str, &str, bool); 8] = [
    ("KK5543", "225543", true),
    ("ZA54333", "Y222KQ", true),
    ("2KK0077554", "AA8", false),
    ("ZKKQJ09876633", "AAKQJ0987", true),
    ("2AK096554", "YKJ08854", true),
    ("ZYAAKKQ0099", "2222JJ00", true),
    ("Y2AK998553", "ZQQJJ0953", true),
    ("ZAQQJJ0999844", "Y22AA0886633", true),
];

fn hand(text: &str) -> Cards {
    let t: String = text
        .chars()
        .map(|c| match c {
            'Z' => 'D',
            'Y' => 'X',
            '0' => 'T',
            c => c,
        })
        .collect();
    Cards::parse(&t).unwrap()
}

/// Hands of the given sizes dealt from one shuffled classic deck.
fn deal(engine: &Engine, rng: &mut Rng, sizes: &[usize]) -> Vec<Cards> {
    let mut deck = common::deck(engine);
    sizes
        .iter()
        .map(|&n| {
            let mut h = Cards::EMPTY;
            for _ in 0..n {
                let i = (rng.next() % deck.len() as u64) as usize;
                h.0[deck.swap_remove(i)] += 1;
            }
            h
        })
        .collect()
}

fn run(engine: &Engine, hands: Vec<Cards>, options: &Options) -> (Solution, usize) {
    let mut solver = Solver::new(engine, options.clone());
    let s = solver.solve(&Position::lead(hands, 0)).unwrap();
    (s, solver.memory())
}

fn summary(name: &str, runs: &[(Solution, usize)]) {
    let mut secs: Vec<f64> = runs.iter().map(|(s, _)| s.seconds).collect();
    secs.sort_by(f64::total_cmp);
    let unknown = runs.iter().filter(|(s, _)| s.win.is_none()).count();
    let wins = runs.iter().filter(|(s, _)| s.win == Some(true)).count();
    let mem = runs.iter().map(|&(_, m)| m).max().unwrap_or(0);
    println!(
        "| {name} | {} | {:.3} s | {:.3} s | {:.3} s | {wins} / {unknown} | {} MB |",
        runs.len(),
        secs[secs.len() / 2],
        secs[secs.len() * 9 / 10],
        secs[secs.len() - 1],
        mem >> 20
    );
}

fn main() {
    let scale: usize = std::env::var("SOLVE_BENCH_DEALS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let only = std::env::var("SOLVE_BENCH_ONLY").unwrap_or_default();
    let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
    let threads: usize = std::env::var("SOLVE_BENCH_THREADS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let one = Options {
        threads,
        ..Options::default()
    };
    if only.is_empty() || only == "puzzles" {
        println!("| puzzle | cards | verdict | best of 5 | positions |");
        println!("|---|---|---|---|---|");
        for (a, b, want) in PUZZLES {
            let hands = vec![hand(a), hand(b)];
            let mut best = f64::MAX;
            let mut last = None;
            for _ in 0..5 {
                let (s, _) = run(&engine, hands.clone(), &one);
                best = best.min(s.seconds);
                last = Some(s);
            }
            let s = last.unwrap();
            assert_eq!(s.win, Some(want), "{a} v {b}");
            println!(
                "| {a} v {b} | {} v {} | {} | {:.2} ms | {} |",
                hands[0].len(),
                hands[1].len(),
                if want { "leader wins" } else { "leader loses" },
                best * 1e3,
                s.nodes
            );
        }
        println!();
    }
    println!("| deals | n | median | 90th pct | worst | won / unknown | peak table |");
    println!("|---|---|---|---|---|---|---|");
    let mut rng = Rng(2026);
    let sets: [(&str, &[usize], usize, Option<f64>); 4] = [
        ("13 v 12", &[13, 12], 50, None),
        ("17 v 17", &[17, 17], 30, Some(30.0)),
        ("20 v 17", &[20, 17], 10, Some(30.0)),
        ("three hands, 8-10 each", &[0, 0, 0], 20, Some(30.0)),
    ];
    for (name, sizes, n, budget) in sets {
        if !only.is_empty() && !name.starts_with(only.as_str()) {
            continue;
        }
        let options = Options {
            max_seconds: budget,
            ..one.clone()
        };
        let runs: Vec<_> = (0..n * scale)
            .map(|_| {
                let sizes: Vec<usize> = if sizes[0] == 0 {
                    (0..3).map(|_| 8 + (rng.next() % 3) as usize).collect()
                } else {
                    sizes.to_vec()
                };
                let hands = deal(&engine, &mut rng, &sizes);
                let t = Instant::now();
                let r = run(&engine, hands.clone(), &options);
                if t.elapsed().as_secs_f64() > 1.0 {
                    let h: Vec<String> = hands.iter().map(|h| h.to_string()).collect();
                    eprintln!("slow: {h:?} {:.2} s {:?}", r.0.seconds, r.0.win);
                }
                r
            })
            .collect();
        summary(name, &runs);
    }
}
