//! Criterion benches of the hot paths: lead and follow enumeration and counting
//! on seeded random classic hands.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ddz_core::{Cards, Engine, Move, Rules};
use std::hint::black_box;

/// SplitMix64, so the hands are the same on every run.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn hands(engine: &Engine, size: usize, count: usize, seed: u64) -> Vec<Cards> {
    let mut state = seed;
    let deck: Vec<usize> = (0..16)
        .flat_map(|s| std::iter::repeat_n(s, engine.rules().copies(s) as usize))
        .collect();
    (0..count)
        .map(|_| {
            let mut d = deck.clone();
            let mut hand = Cards::EMPTY;
            for _ in 0..size {
                let i = (next(&mut state) % d.len() as u64) as usize;
                hand.0[d.swap_remove(i)] += 1;
            }
            hand
        })
        .collect()
}

/// A previous play for each hand: a random lead of another random hand.
fn prevs(engine: &Engine, count: usize, seed: u64) -> Vec<Move> {
    let mut state = seed;
    hands(engine, 17, count, seed)
        .iter()
        .map(|h| {
            let leads = engine.moves(h, None);
            leads[(next(&mut state) % leads.len() as u64) as usize]
        })
        .collect()
}

fn bench_classic(c: &mut Criterion) {
    let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
    for size in [17, 20] {
        let hs = hands(&engine, size, 200, 42 + size as u64);
        let ps = prevs(&engine, 200, 7);
        let mut group = c.benchmark_group(format!("classic-{size}"));
        group.throughput(Throughput::Elements(hs.len() as u64));
        let mut buf = Vec::with_capacity(4096);
        group.bench_function("lead moves", |b| {
            b.iter(|| {
                for h in &hs {
                    engine.moves_into(black_box(h), None, &mut buf);
                    black_box(buf.len());
                }
            })
        });
        group.bench_function("lead count", |b| {
            b.iter(|| {
                for h in &hs {
                    black_box(engine.count_moves(black_box(h), None));
                }
            })
        });
        group.bench_function("follow moves", |b| {
            b.iter(|| {
                for (h, p) in hs.iter().zip(&ps) {
                    engine.moves_into(black_box(h), Some(p), &mut buf);
                    black_box(buf.len());
                }
            })
        });
        group.bench_function("follow count", |b| {
            b.iter(|| {
                for (h, p) in hs.iter().zip(&ps) {
                    black_box(engine.count_moves(black_box(h), Some(p)));
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench_classic);
criterion_main!(benches);
