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

/// Laizi hands holding two `L`, against the same hands with the two laizi
/// replaced by natural cards from the rest of the deck.
fn bench_laizi(c: &mut Criterion) {
    let engine = Engine::new(Rules::preset("laizi").unwrap()).unwrap();
    for size in [17, 20] {
        let mut state = 99 + size as u64;
        let with_laizi = hands(&engine, size, 200, 5 + size as u64)
            .into_iter()
            .map(|mut h| {
                // Make sure each hand holds exactly two laizi.
                while h.get(15) < 2 {
                    let r = (next(&mut state) % 15) as usize;
                    if h.0[r] > 0 {
                        h.0[r] -= 1;
                        h.0[15] += 1;
                    }
                }
                while h.get(15) > 2 {
                    let r = (next(&mut state) % 13) as usize;
                    if h.0[r] < 4 {
                        h.0[r] += 1;
                        h.0[15] -= 1;
                    }
                }
                h
            })
            .collect::<Vec<_>>();
        let natural: Vec<Cards> = with_laizi
            .iter()
            .map(|h| {
                let mut n = *h;
                n.0[15] = 0;
                while n.len() < h.len() {
                    let r = (next(&mut state) % 13) as usize;
                    if n.0[r] < 4 {
                        n.0[r] += 1;
                    }
                }
                n
            })
            .collect();
        let mut group = c.benchmark_group(format!("laizi-{size}"));
        group.throughput(Throughput::Elements(with_laizi.len() as u64));
        let mut buf = Vec::with_capacity(1 << 16);
        for (name, set) in [
            ("lead moves, two laizi", &with_laizi),
            ("lead moves, naturals", &natural),
        ] {
            group.bench_function(name, |b| {
                b.iter(|| {
                    for h in set.iter() {
                        engine.moves_into(black_box(h), None, &mut buf);
                        black_box(buf.len());
                    }
                })
            });
        }
        let plays = |set: &[Cards]| {
            set.iter().map(|h| engine.count_moves(h, None)).sum::<u64>() as f64 / set.len() as f64
        };
        println!(
            "laizi-{size}: {:.0} plays per hand with two laizi, {:.0} with naturals",
            plays(&with_laizi),
            plays(&natural)
        );
        group.finish();
    }
}

criterion_group!(benches, bench_classic, bench_laizi);
criterion_main!(benches);
