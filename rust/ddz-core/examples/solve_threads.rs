//! One thread against two on the same positions: `cargo run --release -p
//! ddz-core --example solve_threads [solves] [what...]`, where `what` is
//! `13v12` or `10v9` (the puzzles), `d17:N` (deal N of the solve bench's
//! 17-v-17 set) or `t3:N` (deal N of its three-hand set); default: both
//! puzzles. `SOLVE_MAX_NODES` sets a budget of positions (shared by the
//! threads); `SOLVE_THREADS=2` runs only two threads. Each solve has a fresh solver, one and two threads in turn;
//! per solve it prints the positions of each thread, the CPU time of the
//! process and the wall time, and the load average at the start.

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../benches/solve_puzzles/mod.rs"]
mod solve_puzzles;

use common::Rng;
use ddz_core::solve::{Options, Position, Solver};
use ddz_core::{Cards, Engine, Rules};
use solve_puzzles::{hand, PUZZLES};

/// CPU seconds of every thread of this process (those that ended
/// included), in nanoseconds from /proc/self/schedstat and the tasks'.
fn cpu_seconds() -> f64 {
    let ns = |path: std::path::PathBuf| -> f64 {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|s| s.split_whitespace().next().and_then(|x| x.parse().ok()))
            .unwrap_or(0.0)
    };
    let tasks = std::fs::read_dir("/proc/self/task")
        .map(|d| d.flatten().map(|e| ns(e.path().join("schedstat"))).sum())
        .unwrap_or(0.0);
    tasks / 1e9
}

/// The solve bench's random sets, drawn the same way (same seed and order).
fn bench_deals(engine: &Engine) -> (Vec<Vec<Cards>>, Vec<Vec<Cards>>) {
    let mut rng = Rng(2026);
    let deal = |sizes: &[usize], rng: &mut Rng| -> Vec<Cards> {
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
    };
    let mut sets = Vec::new();
    for (sizes, n) in [
        (&[13, 12][..], 50),
        (&[17, 17], 30),
        (&[20, 17], 10),
        (&[0, 0, 0], 20),
    ] {
        let deals: Vec<Vec<Cards>> = (0..n)
            .map(|_| {
                let sizes: Vec<usize> = if sizes[0] == 0 {
                    (0..3).map(|_| 8 + (rng.next() % 3) as usize).collect()
                } else {
                    sizes.to_vec()
                };
                deal(&sizes, &mut rng)
            })
            .collect();
        sets.push(deals);
    }
    (sets[1].clone(), sets[3].clone())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let solves: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(5);
    let mut what: Vec<String> = args.collect();
    if what.is_empty() {
        what = vec!["13v12".into(), "10v9".into()];
    }
    let max_nodes = std::env::var("SOLVE_MAX_NODES")
        .ok()
        .and_then(|s| s.parse().ok());
    // `SOLVE_THREADS=2`: only that many threads (default: 1, then 2).
    let thread_counts: Vec<usize> = std::env::var("SOLVE_THREADS")
        .ok()
        .map(|s| s.split(',').filter_map(|t| t.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 2]);
    let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
    let (d17, t3) = bench_deals(&engine);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average at start: {}", load.trim());
    for w in &what {
        let hands = match w.as_str() {
            "13v12" => vec![hand(PUZZLES[7].0), hand(PUZZLES[7].1)],
            "10v9" => vec![hand(PUZZLES[6].0), hand(PUZZLES[6].1)],
            w if w.starts_with("d17:") => d17[w[4..].parse::<usize>().unwrap()].clone(),
            w if w.starts_with("t3:") => t3[w[3..].parse::<usize>().unwrap()].clone(),
            w => panic!("unknown position {w}"),
        };
        for _ in 0..solves {
            for &threads in &thread_counts {
                let options = Options {
                    threads,
                    max_nodes,
                    ..Options::default()
                };
                let cpu = cpu_seconds();
                let clock = std::time::Instant::now();
                let mut solver = Solver::new(&engine, options);
                let s = solver.solve(&Position::lead(hands.clone(), 0)).unwrap();
                let per = solver.thread_nodes().to_vec();
                drop(solver);
                let wall = clock.elapsed().as_secs_f64();
                println!(
                    "{w} threads {threads}: {:?} {} positions {per:?}; CPU {:.1} ms, wall {:.1} ms",
                    s.win,
                    s.nodes,
                    (cpu_seconds() - cpu) * 1e3,
                    wall * 1e3
                );
            }
        }
    }
}
