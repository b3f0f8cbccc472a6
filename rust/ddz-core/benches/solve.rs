//! Solver figures (not a test): `cargo bench -p ddz-core --bench solve`.
//!
//! 1. The comparison set of the public WZ403809264/doudizhu_solver README
//!    (eight two-hand puzzles, the first hand leads), with its verdicts.
//! 2. Random 13-v-12, 17-v-17 and 20-v-17 two-hand deals (classic deck).
//! 3. Random three-hand endgames of 8-10 cards each (landlord leads).
//!
//! `SOLVE_BENCH_DEALS` scales the random sets (default 1 = the README's);
//! `SOLVE_BENCH_ONLY` picks one part (`puzzles`, or a set's name prefix
//! such as `17`); `SOLVE_BENCH_THREADS` sets the threads;
//! `SOLVE_BENCH_VERBOSE` prints every deal with its time and positions;
//! `SOLVE_BENCH_PICK=2,8` runs only those deals of each selected set;
//! `SOLVE_BENCH_BUDGET=120` sets the budgeted sets' seconds (default 30);
//! `SOLVE_BENCH_MEMORY=2048` sets the memory bound in MB (default 512);
//! `SOLVE_BENCH_SHARE=never|always|idle` sets `Options::share_replies`
//! (default `idle`, as `rules.solve`), to compare the replies phase.

#[path = "../tests/common/mod.rs"]
mod common;

#[path = "solve_puzzles/mod.rs"]
mod solve_puzzles;

use common::Rng;
use ddz_core::solve::{Options, Position, ShareReplies, Solution, Solver};
use ddz_core::{Cards, Engine, Rules};
use solve_puzzles::{hand, PUZZLES};

/// CPU seconds this process has used (every thread), from /proc/self/stat;
/// on a shared machine this moves far less with the load than wall time.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command's closing parenthesis: utime and stime are
    // the 12th and 13th, in clock ticks (100 a second on Linux).
    let rest = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<f64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    f.get(11)
        .zip(f.get(12))
        .map_or(0.0, |(u, s)| (u + s) / 100.0)
}

/// One solve: the solution, the memory at its end, and the CPU seconds.
fn run(engine: &Engine, hands: Vec<Cards>, options: &Options) -> (Solution, usize, f64) {
    let cpu = cpu_seconds();
    let mut solver = Solver::new(engine, options.clone());
    let s = solver.solve(&Position::lead(hands, 0)).unwrap();
    (s, solver.memory(), cpu_seconds() - cpu)
}

fn summary(name: &str, runs: &[(Solution, usize, f64)]) {
    let mut secs: Vec<f64> = runs.iter().map(|(s, _, _)| s.seconds).collect();
    secs.sort_by(f64::total_cmp);
    let mut cpu: Vec<f64> = runs.iter().map(|&(_, _, c)| c).collect();
    cpu.sort_by(f64::total_cmp);
    let mut nodes: Vec<u64> = runs.iter().map(|(s, _, _)| s.nodes).collect();
    nodes.sort_unstable();
    let unknown = runs.iter().filter(|(s, _, _)| s.win.is_none()).count();
    let wins = runs.iter().filter(|(s, _, _)| s.win == Some(true)).count();
    let mem = runs.iter().map(|&(_, m, _)| m).max().unwrap_or(0);
    println!(
        "| {name} | {} | {:.3} s | {:.3} s | {:.3} s | {wins} / {unknown} | {} MB | {} / {} | {:.2} s / {:.2} s |",
        runs.len(),
        secs[secs.len() / 2],
        secs[secs.len() * 9 / 10],
        secs[secs.len() - 1],
        mem >> 20,
        nodes[nodes.len() / 2],
        nodes[nodes.len() - 1],
        cpu[cpu.len() / 2],
        cpu[cpu.len() - 1],
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
    // `SOLVE_BENCH_MEMORY=2048`: the memory bound in MB (default 512).
    let max_memory = std::env::var("SOLVE_BENCH_MEMORY")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .map_or(ddz_core::solve::DEFAULT_MEMORY, |mb| mb << 20);
    let share_replies = match std::env::var("SOLVE_BENCH_SHARE").as_deref() {
        Ok("never") => ShareReplies::Never,
        Ok("always") => ShareReplies::Always,
        Ok("idle") | Err(_) => ShareReplies::WhenIdle,
        Ok(other) => panic!("SOLVE_BENCH_SHARE={other}: never, always or idle"),
    };
    let one = Options {
        threads,
        max_memory,
        share_replies,
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
                let (s, _, _) = run(&engine, hands.clone(), &one);
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
    println!(
        "| deals | n | median | 90th pct | worst | won / unknown | peak table | positions median / worst | CPU median / worst |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut rng = Rng(2026);
    let sets: [(&str, &[usize], usize, Option<f64>); 4] = [
        ("13 v 12", &[13, 12], 50, None),
        ("17 v 17", &[17, 17], 30, Some(30.0)),
        ("20 v 17", &[20, 17], 10, Some(30.0)),
        ("three hands, 8-10 each", &[0, 0, 0], 20, Some(30.0)),
    ];
    let verbose = std::env::var_os("SOLVE_BENCH_VERBOSE").is_some();
    // `SOLVE_BENCH_BUDGET=120`: seconds for the budgeted sets (default 30).
    let budget_env: Option<f64> = std::env::var("SOLVE_BENCH_BUDGET")
        .ok()
        .and_then(|s| s.parse().ok());
    // `SOLVE_BENCH_PICK=2,8`: only those deals of the selected sets.
    let pick: Vec<usize> = std::env::var("SOLVE_BENCH_PICK")
        .unwrap_or_default()
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    for (name, sizes, n, budget) in sets {
        // Every set's deals are drawn, so a set's deals do not depend on
        // which sets `SOLVE_BENCH_ONLY` selects.
        let deals: Vec<Vec<Cards>> = (0..n * scale)
            .map(|_| {
                let sizes: Vec<usize> = if sizes[0] == 0 {
                    (0..3).map(|_| 8 + (rng.next() % 3) as usize).collect()
                } else {
                    sizes.to_vec()
                };
                common::deal_hands(&engine, &mut rng, &sizes)
            })
            .collect();
        if !only.is_empty() && !name.starts_with(only.as_str()) {
            continue;
        }
        let options = Options {
            max_seconds: budget.map(|b| budget_env.unwrap_or(b)),
            ..one.clone()
        };
        let runs: Vec<_> = deals
            .into_iter()
            .enumerate()
            .filter(|(i, _)| pick.is_empty() || pick.contains(i))
            .map(|(i, hands)| {
                let r = run(&engine, hands.clone(), &options);
                if verbose || r.0.seconds > 1.0 {
                    let h: Vec<String> = hands.iter().map(|h| h.to_string()).collect();
                    eprintln!(
                        "{name} #{i}: {h:?} {:.3} s ({:.2} s CPU) {:?} {} positions",
                        r.0.seconds, r.2, r.0.win, r.0.nodes
                    );
                }
                r
            })
            .collect();
        summary(name, &runs);
    }
}
