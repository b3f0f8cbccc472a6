//! The most plays any hand of a preset can lead: the widest list of legal
//! actions `VecEnv` can meet (docs/rl.md, "Padded candidates").
//!
//! `cargo run --release -p ddz-core --example max_plays -- classic [threads]`
//! `cargo run --release -p ddz-core --example max_plays -- laizi climb [seconds]`
//!
//! A play from a hand is a play from any larger hand, so the most plays
//! are led from the largest hand a seat can hold (the landlord's, with the
//! kitty): every rank-count vector of exactly that many cards is counted
//! (`Engine::count_moves`, a lead), and the largest count and one hand
//! reaching it are printed. An answer lists a subset of the lead's plays
//! and `pass`, so `max + 1` bounds every play-phase moment; the auction's
//! few words are far below it. Exhaustive, so only for one-deck presets
//! without wild cards (classic: 153 million hands; two-player 280 million).
//!
//! `climb` is for the presets out of reach (two decks, wild cards): a hill
//! climb from random hands, moving one card at a time while the count does
//! not fall. What it finds is a hand that leads that many plays, a floor
//! under the true most, not a bound on it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use ddz_core::{Cards, Engine, Rules};

/// Every count vector of `left` more cards over `slots[at..]`, each slot
/// within `caps`; `visit` sees each full hand.
fn each_hand(
    hand: &mut Cards,
    slots: &[usize],
    caps: &[u8],
    at: usize,
    left: u32,
    visit: &mut impl FnMut(&Cards),
) {
    if at == slots.len() {
        if left == 0 {
            visit(hand);
        }
        return;
    }
    // The room left in the slots after this one: fewer cards than `left`
    // minus that room cannot finish the hand.
    let room: u32 = caps[at + 1..].iter().map(|&c| c as u32).sum();
    let lo = left.saturating_sub(room);
    let hi = left.min(caps[at] as u32);
    for n in lo..=hi {
        hand.0[slots[at]] = n as u8;
        each_hand(hand, slots, caps, at + 1, left - n, visit);
    }
    hand.0[slots[at]] = 0;
}

/// A hill climb for `seconds`: the most plays led found, and its hand.
fn climb(engine: &Engine, size: u32, seconds: f64) -> (u64, Cards) {
    let rules = engine.rules();
    let caps: Vec<u8> = (0..16).map(|s| rules.copies(s)).collect();
    let mut deck: Vec<usize> = (0..16)
        .flat_map(|s| std::iter::repeat_n(s, caps[s] as usize))
        .collect();
    let mut rng = ddz_core::table::Rng(5);
    let (mut best, mut best_hand) = (0u64, Cards::EMPTY);
    let t0 = std::time::Instant::now();
    while t0.elapsed().as_secs_f64() < seconds {
        rng.shuffle(&mut deck);
        let mut hand = Cards::EMPTY;
        for &s in &deck[..size as usize] {
            hand.0[s] += 1;
        }
        let mut count = engine.count_moves(&hand, None);
        let mut stale = 0;
        while stale < 400 && t0.elapsed().as_secs_f64() < seconds {
            let (from, to) = (rng.below(16), rng.below(16));
            if from == to || hand.0[from] == 0 || hand.0[to] >= caps[to] {
                continue;
            }
            let mut moved = hand;
            moved.0[from] -= 1;
            moved.0[to] += 1;
            let n = engine.count_moves(&moved, None);
            if n >= count {
                stale = if n > count { 0 } else { stale + 1 };
                (hand, count) = (moved, n);
            } else {
                stale += 1;
            }
        }
        if count > best {
            (best, best_hand) = (count, hand);
        }
    }
    (best, best_hand)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let preset = args.get(1).cloned().unwrap_or("classic".into());
    if args.get(2).map(String::as_str) == Some("climb") {
        let seconds: f64 = args.get(3).and_then(|t| t.parse().ok()).unwrap_or(60.0);
        let engine = Engine::new(Rules::preset(&preset).expect("preset")).expect("engine");
        let size = engine.rules().hand_size as u32 + engine.rules().kitty as u32;
        let (most, hand) = climb(&engine, size, seconds);
        println!("{preset}: a climb of {seconds} s found a hand of {size} cards leading {most} plays ({hand})");
        return;
    }
    let threads: usize = args.get(2).and_then(|t| t.parse().ok()).unwrap_or(1);
    let engine = Engine::new(Rules::preset(&preset).expect("preset")).expect("engine");
    let rules = engine.rules();
    let size = rules.hand_size as u32 + rules.kitty as u32;
    let slots: Vec<usize> = (0..16).filter(|&s| rules.copies(s) > 0).collect();
    let caps: Vec<u8> = slots.iter().map(|&s| rules.copies(s)).collect();
    // Tasks: the counts of the first two slots; the rest walked per task.
    let firsts: Vec<(u8, u8)> = (0..=caps[0])
        .flat_map(|a| (0..=caps[1]).map(move |b| (a, b)))
        .collect();
    let next = AtomicUsize::new(0);
    let best = Mutex::new((0u64, Cards::EMPTY, 0u64));
    let t0 = std::time::Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(a, b)) = firsts.get(k) else { break };
                if (a + b) as u32 > size {
                    continue;
                }
                let mut hand = Cards::EMPTY;
                hand.0[slots[0]] = a;
                hand.0[slots[1]] = b;
                let (mut top, mut at_top, mut hands) = (0u64, Cards::EMPTY, 0u64);
                each_hand(
                    &mut hand,
                    &slots,
                    &caps,
                    2,
                    size - (a + b) as u32,
                    &mut |h| {
                        hands += 1;
                        let n = engine.count_moves(h, None);
                        if n > top {
                            (top, at_top) = (n, *h);
                        }
                    },
                );
                let mut best = best.lock().unwrap();
                best.2 += hands;
                if top > best.0 {
                    (best.0, best.1) = (top, at_top);
                }
            });
        }
    });
    let (top, hand, hands) = *best.lock().unwrap();
    println!(
        "{preset}: {hands} hands of {size} cards; most plays led: {top} (hand {hand}); {:.1} s on {threads} threads",
        t0.elapsed().as_secs_f64()
    );
}
