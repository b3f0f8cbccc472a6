//! Page faults and CPU per solve, a fresh solver each time (the way
//! `rules.solve` calls it): `cargo run --release -p ddz-core --example
//! solve_faults [solves] [threads]`. The first solve of the thread is
//! shown apart (cold), then the median of the rest and the median wall time.

use ddz_core::solve::{Options, Position, Solver};
use ddz_core::{Engine, Rules};

#[path = "../benches/solve_puzzles/mod.rs"]
mod solve_puzzles;
use solve_puzzles::{hand, PUZZLES};

/// (minor page faults, CPU seconds) of this process, from /proc/self/stat.
fn usage() -> (u64, f64) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let f: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let num = |i: usize| f.get(i).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0);
    (num(7), (num(11) + num(12)) as f64 / 100.0)
}

fn main() {
    let solves: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let threads: usize = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let options = Options {
        threads,
        ..Options::default()
    };
    let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
    // The 13-v-12 puzzle, then the 10-v-9 one.
    for &(a, b, _) in [&PUZZLES[7], &PUZZLES[6]] {
        let hands = vec![hand(a), hand(b)];
        let (mut faults, mut cpu, mut walls) = (Vec::new(), Vec::new(), Vec::new());
        let (mut memory, mut nodes) = (0, 0);
        let wall = std::time::Instant::now();
        for _ in 0..solves {
            let (f0, c0) = usage();
            let clock = std::time::Instant::now();
            let mut solver = Solver::new(&engine, options.clone());
            let s = solver.solve(&Position::lead(hands.clone(), 0)).unwrap();
            assert_eq!(s.win, Some(true));
            memory = solver.memory();
            nodes = s.nodes;
            drop(solver);
            walls.push(clock.elapsed().as_secs_f64());
            let (f1, c1) = usage();
            faults.push(f1 - f0);
            cpu.push(c1 - c0);
        }
        let wall = wall.elapsed().as_secs_f64() / solves as f64;
        let total: f64 = cpu.iter().sum::<f64>() / solves as f64;
        let (cold_f, cold_c) = (faults[0], cpu[0]);
        let mut rest = faults[1..].to_vec();
        rest.sort_unstable();
        let mut sorted = walls.clone();
        sorted.sort_by(f64::total_cmp);
        println!(
            "{a} v {b}: {nodes} positions; cold {cold_f} faults {:.0} ms CPU {:.1} ms wall; then median {} faults; CPU mean {:.1} ms a solve, wall mean {:.1} ms, median {:.1} ms; memory at end {} KB",
            cold_c * 1e3,
            walls[0] * 1e3,
            rest.get(rest.len() / 2).copied().unwrap_or(0),
            total * 1e3,
            wall * 1e3,
            sorted[sorted.len() / 2] * 1e3,
            memory >> 10
        );
    }
}
