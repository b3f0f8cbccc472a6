//! Wall time of short solves on one thread and on two sharing the replies
//! (`Options::share_replies`), alternated:
//! `cargo run --release -p ddz-core --example solve_two_cores [rounds]`.
//!
//! The 13-v-12 puzzle of docs/solver.md and the 10-v-9 one, each solved on
//! a fresh solver (as `rules.solve` does) with `threads` 1 and 2 in turn;
//! prints the median wall time of each and the positions searched.

use ddz_core::solve::{Options, Position, Solver};
use ddz_core::{Engine, Rules};
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(30);
    let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
    for (a, b) in [
        ("DAQQJJT999844", "X22AAT886633"),
        ("X2AK998553", "DQQJJT953"),
    ] {
        let pos = Position::lead(vec![engine.parse(a).unwrap(), engine.parse(b).unwrap()], 0);
        let mut times = [Vec::new(), Vec::new()];
        let mut nodes = [0, 0];
        for _ in 0..rounds {
            for (k, threads) in [1, 2].into_iter().enumerate() {
                let options = Options {
                    threads,
                    share_replies: true,
                    ..Options::default()
                };
                let t = Instant::now();
                let s = Solver::new(&engine, options).solve(&pos).unwrap();
                times[k].push(t.elapsed().as_secs_f64() * 1e3);
                assert_eq!(s.win, Some(true));
                nodes[k] = s.nodes;
            }
        }
        let [one, two] = times.map(median);
        println!(
            "{a} v {b}: one thread {one:.2} ms ({} positions), two threads {two:.2} ms ({} positions): {:.2}x",
            nodes[0],
            nodes[1],
            one / two
        );
    }
}
