//! Buffers a dropped solver leaves to the next one on the same thread.
//!
//! `rules.solve` makes a fresh solver each call, and a fresh solver's
//! caches would touch megabytes of newly mapped memory (page faults cost
//! about as much as the search they serve). So a dropped solver hands its
//! buffers here, and the next solver on the thread clears and reuses them
//! (the pages stay mapped). At most `RETAINED` bytes are kept a thread; a
//! larger set gives its largest buffers back to the allocator first.
//! docs/solver.md states the bound for users.

use super::lists::{Keyed, Slot};
use super::transposition::TranspositionTable;
use std::cell::RefCell;

/// Most bytes of buffers one thread keeps between solves: 64 MB.
pub const RETAINED: usize = 64 << 20;

/// The buffers of one solver, empty (capacity only) when handed back.
#[derive(Default)]
pub(super) struct Buffers {
    /// The table's block: what it has written counts, not what it reserved.
    pub table: Option<TranspositionTable>,
    pub fewest_keys: Vec<u128>,
    pub fewest_values: Vec<u8>,
    pub list_slots: Vec<Slot>,
    pub arena: Vec<Keyed>,
    pub answers: Vec<(u128, u32)>,
}

fn bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}

impl Buffers {
    /// Each buffer's bytes, in field order.
    fn sizes(&self) -> [usize; 6] {
        [
            self.table
                .as_ref()
                .map_or(0, TranspositionTable::resident_bytes),
            bytes(&self.fewest_keys),
            bytes(&self.fewest_values),
            bytes(&self.list_slots),
            bytes(&self.arena),
            bytes(&self.answers),
        ]
    }

    /// Free the largest buffers until the rest fit in `bound` bytes.
    fn trim(&mut self, bound: usize) {
        while self.sizes().iter().sum::<usize>() > bound {
            let sizes = self.sizes();
            let largest = (0..6).max_by_key(|&i| sizes[i]).unwrap_or(0);
            match largest {
                0 => self.table = None,
                1 => self.fewest_keys = Vec::new(),
                2 => self.fewest_values = Vec::new(),
                3 => self.list_slots = Vec::new(),
                4 => self.arena = Vec::new(),
                _ => self.answers = Vec::new(),
            }
        }
    }
}

thread_local! {
    static SPARE: RefCell<Buffers> = RefCell::new(Buffers::default());
}

/// The buffers the thread's last solver left (empty ones if none).
pub(super) fn take() -> Buffers {
    SPARE
        .try_with(|s| std::mem::take(&mut *s.borrow_mut()))
        .unwrap_or_default()
}

/// Keep `buffers` for the thread's next solver, within `RETAINED`.
pub(super) fn give(mut buffers: Buffers) {
    buffers.trim(RETAINED);
    // During thread teardown the buffers are simply freed.
    let _ = SPARE.try_with(|s| *s.borrow_mut() = buffers);
}

/// `buf` emptied, or a new vector when its capacity would break `max_bytes`.
pub(super) fn reclaim<T>(mut buf: Vec<T>, max_bytes: usize) -> Vec<T> {
    if bytes(&buf) > max_bytes {
        return Vec::new();
    }
    buf.clear();
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trim_frees_the_largest_first() {
        let mut b = Buffers {
            table: Some(TranspositionTable::new(1 << 20)),
            arena: Vec::with_capacity(10),
            answers: Vec::with_capacity(100),
            ..Buffers::default()
        };
        let table = b.sizes()[0];
        assert!(table > 10_000);
        b.trim(table + 10_000);
        assert_eq!(b.sizes()[0], table);
        b.trim(table - 1);
        assert!(b.table.is_none());
        assert!(b.arena.capacity() >= 10 && b.answers.capacity() >= 100);
        b.trim(0);
        assert_eq!(b.sizes().iter().sum::<usize>(), 0);
    }
}

#[cfg(test)]
mod reuse_tests {
    use crate::solve::{Options, Position, Solver};
    use crate::{Engine, Rules};

    /// A solver on reused buffers (left by larger and smaller bounds)
    /// searches exactly what a solver on a fresh thread does.
    #[test]
    fn a_reused_solver_searches_what_a_fresh_one_does() {
        let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
        let hands = vec![
            engine.parse("2AKT96554").unwrap(),
            engine.parse("XKJT8854").unwrap(),
        ];
        let pos = Position::lead(hands, 0);
        let solve = |max_memory: usize| {
            let options = Options {
                max_memory,
                all: true,
                ..Options::default()
            };
            let s = Solver::new(&engine, options).solve(&pos).unwrap();
            (s.win, s.plays, s.nodes)
        };
        for bound in [1 << 16, 1 << 20, 512 << 20] {
            let fresh = std::thread::scope(|t| t.spawn(|| solve(bound)).join().unwrap());
            for _ in 0..2 {
                assert_eq!(solve(bound), fresh, "bound {bound}");
                solve(512 << 20);
                assert_eq!(solve(bound), fresh, "bound {bound}");
                solve(1 << 16);
            }
        }
    }
}
