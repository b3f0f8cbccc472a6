//! Many hands at once, on every core: counts and plays for a batch of
//! hands, each with an optional previous play.
//!
//! Work runs on a rayon pool owned by this module, one per thread count.
//! Pools remember the process that made them: after a `fork`, the child
//! (which inherits no threads) makes fresh pools instead of waiting forever
//! on the parent's.

use crate::cards::{Cards, SLOTS};
use crate::engine::Engine;
use crate::play::Move;
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Number of threads when the caller names none: `DDZ_NUM_THREADS`, else
/// every core.
pub fn default_threads() -> usize {
    std::env::var("DDZ_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

type Pools = HashMap<usize, Arc<ThreadPool>>;

/// The pool for `threads` threads, made by this process.
fn pool(threads: usize) -> Option<Arc<ThreadPool>> {
    static POOLS: OnceLock<Mutex<(u32, Pools)>> = OnceLock::new();
    let pools = POOLS.get_or_init(|| Mutex::new((std::process::id(), HashMap::new())));
    let mut guard = pools.lock().unwrap_or_else(|e| e.into_inner());
    let (owner, cache) = &mut *guard;
    if *owner != std::process::id() {
        // A forked child: the parent's worker threads do not exist here.
        // Dropping those pools could block on them, so leak them instead.
        std::mem::forget(std::mem::take(cache));
        *owner = std::process::id();
    }
    if let Some(p) = cache.get(&threads) {
        return Some(Arc::clone(p));
    }
    let built = ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("ddz-{i}"))
        .build()
        .ok()
        .map(Arc::new)?;
    cache.insert(threads, Arc::clone(&built));
    Some(built)
}

/// Run `work` on a pool of `threads` threads. Even one thread gets its own
/// pool: outside a pool, rayon's parallel iterators would use its global
/// pool, that is every core.
pub(crate) fn run_on<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    match pool(threads.max(1)) {
        Some(p) => p.install(work),
        None => work(),
    }
}

/// `count_moves` of every hand (each answering its previous play, if any).
pub fn count_moves_batch(
    engine: &Engine,
    hands: &[Cards],
    prevs: &[Option<Move>],
    threads: usize,
) -> Vec<u64> {
    run_on(threads, || {
        hands
            .par_iter()
            .enumerate()
            .with_min_len(64)
            .map(|(i, h)| engine.count_moves(h, prevs.get(i).copied().flatten().as_ref()))
            .collect()
    })
}

/// A previous play as given by a caller, not yet checked.
#[derive(Clone, Copy, Debug)]
pub enum Prev {
    Lead,
    /// A reading, to be checked against the rules.
    Play(Move),
    /// Cards that must have exactly one reading.
    Cards(Cards),
}

/// Check every previous play (in parallel); the first bad row is named.
pub fn resolve_prevs(
    engine: &Engine,
    prevs: &[Prev],
    threads: usize,
) -> Result<Vec<Option<Move>>, (usize, String)> {
    run_on(threads, || {
        prevs
            .par_iter()
            .enumerate()
            .with_min_len(64)
            .map(|(i, p)| match p {
                Prev::Lead => Ok(None),
                Prev::Play(m) if engine.is_reading(m) => Ok(Some(*m)),
                Prev::Play(m) => Err((i, format!("{m} as {} is not a legal play", m.kind.id()))),
                Prev::Cards(c) => {
                    if let Err(e) = engine.check_playable(c) {
                        return Err((i, e.to_string()));
                    }
                    match engine.classify(c).as_slice() {
                        [one] => Ok(Some(*one)),
                        [] => Err((i, format!("{c} is not a legal play"))),
                        many => Err((
                            i,
                            format!("{c} has {} readings; pass the Move you mean", many.len()),
                        )),
                    }
                }
            })
            .collect()
    })
}

/// Hands per unit of parallel work in `moves_batch`.
const CHUNK: usize = 256;

/// The plays of every hand in CSR layout: `offsets[i]..offsets[i + 1]`
/// index the rows of `plays` (16 counts each) that belong to hand `i`.
pub fn moves_batch(
    engine: &Engine,
    hands: &[Cards],
    prevs: &[Option<Move>],
    threads: usize,
) -> (Vec<i64>, Vec<u8>) {
    // Each chunk of hands fills one flat buffer and its own row counts.
    let chunks: Vec<(Vec<u8>, Vec<u32>)> = run_on(threads, || {
        hands
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(c, chunk)| {
                let mut buf = Vec::new();
                let mut rows = Vec::with_capacity(chunk.len() * 64 * SLOTS);
                let mut sizes = Vec::with_capacity(chunk.len());
                for (j, h) in chunk.iter().enumerate() {
                    let prev = prevs.get(c * CHUNK + j).copied().flatten();
                    engine.moves_into(h, prev.as_ref(), &mut buf);
                    for m in &buf {
                        rows.extend_from_slice(&m.cards.0);
                    }
                    sizes.push(buf.len() as u32);
                }
                (rows, sizes)
            })
            .collect()
    });
    let total: usize = chunks.iter().map(|(rows, _)| rows.len()).sum();
    let mut plays = Vec::with_capacity(total);
    let mut offsets = Vec::with_capacity(hands.len() + 1);
    let mut at = 0i64;
    offsets.push(at);
    for (rows, sizes) in chunks {
        plays.extend_from_slice(&rows);
        for n in sizes {
            at += n as i64;
            offsets.push(at);
        }
    }
    (offsets, plays)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn work_runs_on_exactly_the_threads_asked_for() {
        assert_eq!(run_on(1, rayon::current_num_threads), 1);
        assert_eq!(run_on(2, rayon::current_num_threads), 2);
        assert_eq!(run_on(0, rayon::current_num_threads), 1);
    }

    #[test]
    fn batches_agree_with_single_calls_whatever_the_threads() {
        let e = Engine::new(Rules::preset("classic").unwrap()).unwrap();
        let hands: Vec<Cards> = ["33445566778899TJQKA2XD", "3334445", "", "2222XD"]
            .iter()
            .map(|t| Cards::parse(t).unwrap())
            .collect();
        let prev = e.classify(&Cards::parse("8889").unwrap())[0];
        let prevs = [None, Some(prev), None, Some(prev)];
        for threads in [1, 2, 3] {
            let counts = count_moves_batch(&e, &hands, &prevs, threads);
            let (offsets, plays) = moves_batch(&e, &hands, &prevs, threads);
            for (i, h) in hands.iter().enumerate() {
                let want = e.moves(h, prevs[i].as_ref());
                assert_eq!(counts[i], want.len() as u64);
                let rows = &plays[offsets[i] as usize * SLOTS..offsets[i + 1] as usize * SLOTS];
                let got: Vec<&[u8]> = rows.chunks(SLOTS).collect();
                let want: Vec<&[u8]> = want.iter().map(|m| &m.cards.0[..]).collect();
                assert_eq!(got, want);
            }
        }
    }
}
