//! Where a hard deal's positions go: `cargo run --release -p ddz-core
//! --example solve_profile -- [deal] [budget] [path...]`.
//!
//! Takes deal `deal` (default 14) of the solve bench's 17-v-17 set, walks
//! down `path` (indices into each position's actions in search order), and
//! solves every action of the position reached on a fresh solver with
//! `budget` positions (default 2,000,000): its verdict for the mover and the
//! positions it took, hardest first. Descending into the costliest action
//! step by step shows which part of the tree dominates.

#[path = "../tests/common/mod.rs"]
mod common;

use common::Rng;
use ddz_core::solve::{Options, Position, Solver};
use ddz_core::{Cards, Engine, Rules};

/// The bench's deals: 50 of 13 v 12, then 30 of 17 v 17, from Rng(2026).
fn deal_17(engine: &Engine, index: usize) -> Vec<Cards> {
    let mut rng = Rng(2026);
    let mut draw = |sizes: &[usize]| common::deal_hands(engine, &mut rng, sizes);
    for _ in 0..50 {
        draw(&[13, 12]);
    }
    (0..=index).map(|_| draw(&[17, 17])).last().unwrap()
}

fn show(pos: &Position) -> String {
    let prev = pos.prev.map_or("lead".to_string(), |m| m.cards.to_string());
    format!(
        "seat {} to move, {} v {}, on {prev}",
        pos.to_move, pos.hands[0], pos.hands[1]
    )
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let index = args.first().copied().unwrap_or(14);
    let budget = args.get(1).copied().unwrap_or(2_000_000) as u64;
    let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
    let mut pos = Position::lead(deal_17(&engine, index), 0);
    let mut solver = Solver::new(&engine, Options::default());
    for &step in args.iter().skip(2) {
        let actions = solver.ordered_actions(&pos).unwrap();
        let a = actions[step];
        println!(
            "{}: takes {}",
            show(&pos),
            a.map_or("pass".into(), |m| m.cards.to_string())
        );
        pos = pos.after(a.as_ref());
    }
    println!("{}", show(&pos));
    let actions = solver.ordered_actions(&pos).unwrap();
    let mut rows = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        let next = pos.after(a.as_ref());
        let name = a.map_or("pass".into(), |m| m.cards.to_string());
        if next.finished().is_some() {
            rows.push((0, i, name, Some(true)));
            continue;
        }
        let options = Options {
            max_nodes: Some(budget),
            ..Options::default()
        };
        let s = Solver::new(&engine, options).solve(&next).unwrap();
        let same = next.side(next.to_move) == pos.side(pos.to_move);
        let mine = s.win.map(|w| w == same);
        rows.push((s.nodes, i, name, mine));
    }
    let total: u64 = rows.iter().map(|r| r.0).sum();
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    println!(
        "{} actions, {total} positions in all (each on a fresh solver)",
        rows.len()
    );
    for (nodes, i, name, mine) in rows {
        let verdict = match mine {
            Some(true) => "mover wins",
            Some(false) => "mover loses",
            None => "unknown",
        };
        println!("  #{i:<3} {name:<20} {verdict:<12} {nodes}");
    }
}
