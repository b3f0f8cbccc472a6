//! Wall time of short solves on one thread, on two as `rules.solve` runs
//! them (the replies shared out from 0.5 ms on when a core is free), and on
//! two without sharing the replies (the default before 7 December 2026),
//! alternated: `cargo run --release -p ddz-core --example solve_two_cores [rounds]`.
//!
//! The 13-v-12 puzzle of docs/solver.md and the 10-v-9 one, each solved on
//! a fresh solver (as `rules.solve` does) in each setting in turn; prints
//! the median wall time of each and the positions searched.

use ddz_core::solve::{Options, Position, ShareReplies, Solver};
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
    let settings = [
        ("one thread", 1, ShareReplies::Never),
        ("two threads (default)", 2, ShareReplies::WhenIdle),
        ("two threads, replies not shared", 2, ShareReplies::Never),
    ];
    for (a, b) in [
        ("DAQQJJT999844", "X22AAT886633"),
        ("X2AK998553", "DQQJJT953"),
    ] {
        let pos = Position::lead(vec![engine.parse(a).unwrap(), engine.parse(b).unwrap()], 0);
        let mut times = vec![Vec::new(); settings.len()];
        let mut nodes = vec![Vec::new(); settings.len()];
        for _ in 0..rounds {
            for (k, &(_, threads, share_replies)) in settings.iter().enumerate() {
                let options = Options {
                    threads,
                    share_replies,
                    ..Options::default()
                };
                let t = Instant::now();
                let s = Solver::new(&engine, options).solve(&pos).unwrap();
                times[k].push(t.elapsed().as_secs_f64() * 1e3);
                assert_eq!(s.win, Some(true));
                nodes[k].push(s.nodes as f64);
            }
        }
        let one = median(times[0].clone());
        println!("{a} v {b}:");
        for (k, (name, _, _)) in settings.iter().enumerate() {
            let t = median(times[k].clone());
            println!(
                "  {name}: {t:.2} ms ({:.0} positions), {:.2}x one thread",
                median(nodes[k].clone()),
                one / t
            );
        }
    }
}
