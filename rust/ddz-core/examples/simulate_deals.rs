//! `ddz.simulate`'s deals on one thread, for profilers, with the heap
//! allocations they make: `cargo run --release -p ddz-core --example
//! simulate_deals [preset] [policy] [deals]` (classic random 10000).
//! Under `valgrind --tool=callgrind` the difference of two deal counts
//! gives the instructions of one deal.

use ddz_core::simulate::{simulate, Policy};
use ddz_core::{Engine, Rules};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

/// The system allocator, counting the allocations made through it.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as for `alloc`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as for `alloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let preset = args.get(1).map_or("classic", String::as_str);
    let policy = match args.get(2).map_or("random", String::as_str) {
        "greedy" => Policy::Greedy,
        _ => Policy::Random,
    };
    let deals: usize = args.get(3).and_then(|d| d.parse().ok()).unwrap_or(10_000);
    let engine = Engine::new(Rules::preset(preset).expect("a preset")).expect("an engine");
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let start = std::time::Instant::now();
    let out = simulate(&engine, deals, 1, 1, policy, 0).expect("a playable preset");
    let took = start.elapsed().as_secs_f64();
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    let turns: u64 = out.iter().map(|o| u64::from(o.turns)).sum();
    println!(
        "{preset} {policy:?}: {deals} deals, {:.0} deals/s, {:.1} allocations and {:.1} turns per deal",
        deals as f64 / took,
        allocations as f64 / deals as f64,
        turns as f64 / deals as f64
    );
}
