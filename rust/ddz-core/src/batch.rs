//! Many hands at once, on every core: counts and plays for a batch of
//! hands, each with an optional previous play.
//!
//! Work runs on rayon pools owned by this module, one per thread count;
//! the few most recently used counts keep their pools (`POOLS_KEPT`), so a
//! caller that varies `threads` never leaves threads behind. Pools remember
//! the process that made them: after a `fork`, the child (which inherits no
//! threads) makes fresh pools instead of waiting forever on the parent's.
//!
//! The work on a slice of rows is one call here; callers that must stay
//! interruptible (the Python bindings check for Ctrl-C) call these on
//! successive blocks of rows.

use crate::cards::{Cards, SLOTS};
use crate::engine::Engine;
use crate::play::Move;
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::{Arc, Mutex, OnceLock};

/// The most threads a batch or a simulation may ask for.
pub const MAX_THREADS: usize = 256;

/// Distinct thread counts whose pools are kept; the least recently used
/// beyond these is dropped (its threads exit once their work is done).
const POOLS_KEPT: usize = 4;

/// Rows per unit of parallel work: a smaller batch runs on the calling
/// thread, without waking a pool.
pub const MIN_LEN: usize = 64;

/// Number of threads when the caller names none: `DDZ_NUM_THREADS`, else
/// every core; at most `MAX_THREADS`.
pub fn default_threads() -> usize {
    // The core count is asked once: on Linux it reads cgroup files, which
    // would cost more than a small batch.
    static CORES: OnceLock<usize> = OnceLock::new();
    std::env::var("DDZ_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| {
            *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        })
        .min(MAX_THREADS)
}

/// Memory the system can give now (Linux `MemAvailable`), None elsewhere.
pub fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// A request whose output would not fit in memory, refused before any work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooBig {
    /// What was asked for, e.g. "10000000000 deals".
    pub what: String,
    /// Bytes the output needs; None when the size overflows 64 bits.
    pub bytes: Option<u64>,
    /// The limit it broke: the memory available, or `isize::MAX`; None
    /// when the allocator refused a size below it.
    pub limit: Option<u64>,
}

impl std::fmt::Display for TooBig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let size = self.bytes.map_or("more than 2**64 bytes".to_string(), |b| {
            format!("{b} bytes")
        });
        match self.limit {
            Some(limit) => write!(
                f,
                "{} need {size} of output, more than the limit of {limit} bytes \
                 (the memory available now)",
                self.what
            ),
            None => write!(
                f,
                "{} need {size} of output, which could not be allocated",
                self.what
            ),
        }
    }
}

impl std::error::Error for TooBig {}

/// Outputs up to this size are allocated without asking the system what
/// memory it has (reading `/proc/meminfo` costs more than a small batch).
const SMALL_OUTPUT: u64 = 1 << 26;

/// Check that `bytes` of output may be allocated: below `isize::MAX` and,
/// beyond `SMALL_OUTPUT`, below the memory the system has available where
/// it says.
pub fn check_size(what: impl FnOnce() -> String, bytes: Option<u64>) -> Result<usize, TooBig> {
    if let Some(b) = bytes.filter(|&b| b <= SMALL_OUTPUT) {
        return Ok(b as usize);
    }
    let limit = available_memory()
        .unwrap_or(u64::MAX)
        .min(isize::MAX as u64);
    match bytes {
        Some(b) if b <= limit => Ok(b as usize),
        _ => Err(TooBig {
            what: what(),
            bytes,
            limit: Some(limit),
        }),
    }
}

/// Pools by thread count, the most recently used last.
type Pools = Vec<(usize, Arc<ThreadPool>)>;

/// The pool for `threads` threads, made by this process.
fn pool(threads: usize) -> Option<Arc<ThreadPool>> {
    static POOLS: OnceLock<Mutex<(u32, Pools)>> = OnceLock::new();
    let pools = POOLS.get_or_init(|| Mutex::new((std::process::id(), Vec::new())));
    let mut guard = pools.lock().unwrap_or_else(|e| e.into_inner());
    let (owner, cache) = &mut *guard;
    if *owner != std::process::id() {
        // A forked child: the parent's worker threads do not exist here.
        // Dropping those pools could block on them, so leak them instead.
        std::mem::forget(std::mem::take(cache));
        *owner = std::process::id();
    }
    if let Some(at) = cache.iter().position(|(t, _)| *t == threads) {
        let entry = cache.remove(at);
        let p = Arc::clone(&entry.1);
        cache.push(entry);
        return Some(p);
    }
    let built = ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("ddz-{i}"))
        .build()
        .ok()
        .map(Arc::new)?;
    if cache.len() >= POOLS_KEPT {
        cache.remove(0);
    }
    cache.push((threads, Arc::clone(&built)));
    Some(built)
}

/// Run `work` on a pool of `threads` threads (at most `MAX_THREADS`). Even
/// one thread gets its own pool: outside a pool, rayon's parallel iterators
/// would use its global pool, that is every core.
pub(crate) fn run_on<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    match pool(threads.clamp(1, MAX_THREADS)) {
        Some(p) => p.install(work),
        None => work(),
    }
}

/// `f(i)` for every `i` in `0..n`, in order: on the calling thread when
/// the batch is small or one thread is asked for (no pool to wake, which
/// is most of the fixed cost of a call), else on the pool.
pub fn map_rows<T: Send>(threads: usize, n: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    map_rows_by(threads, n, MIN_LEN, f)
}

/// As `map_rows`, with tasks of at least `min_len` rows: 1 where a row
/// costs milliseconds (a searched deal), so that even a few rows keep
/// every thread busy.
pub fn map_rows_by<T: Send>(
    threads: usize,
    n: usize,
    min_len: usize,
    f: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    if n <= min_len || threads <= 1 {
        return (0..n).map(f).collect();
    }
    run_on(threads, || {
        (0..n)
            .into_par_iter()
            .with_min_len(min_len)
            .map(&f)
            .collect()
    })
}

/// `count_moves` of every hand (each answering its previous play, if any).
pub fn count_moves_batch(
    engine: &Engine,
    hands: &[Cards],
    prevs: &[Option<Move>],
    threads: usize,
) -> Vec<u64> {
    map_rows(threads, hands.len(), |i| {
        engine.count_moves(&hands[i], prevs.get(i).copied().flatten().as_ref())
    })
}

/// `out[i] = f(i)` for every slot, as `map_rows` spreads the work.
pub fn fill_rows<T: Send>(threads: usize, out: &mut [T], f: impl Fn(usize) -> T + Sync) {
    if out.len() <= MIN_LEN || threads <= 1 {
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = f(i);
        }
        return;
    }
    run_on(threads, || {
        out.par_iter_mut()
            .enumerate()
            .with_min_len(MIN_LEN)
            .for_each(|(i, slot)| *slot = f(i))
    })
}

/// As `count_moves_batch`, written into `out` (one slot per hand).
pub fn count_moves_into(
    engine: &Engine,
    hands: &[Cards],
    prevs: &[Option<Move>],
    threads: usize,
    out: &mut [i64],
) {
    fill_rows(threads, &mut out[..hands.len()], |i| {
        engine.count_moves(&hands[i], prevs.get(i).copied().flatten().as_ref()) as i64
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
    map_rows(threads, prevs.len(), |i| match &prevs[i] {
        Prev::Lead => Ok(None),
        Prev::Play(m) if engine.is_reading(m) => Ok(Some(*m)),
        Prev::Play(m) => Err((i, format!("{m} as {} is not a legal play", m.kind.id()))),
        Prev::Cards(c) => {
            if let Err(e) = engine.check_playable(c) {
                return Err((i, e.to_string()));
            }
            match engine.classify(c).as_slice() {
                [one] => Ok(Some(*one)),
                [] => Err((i, format!("{} is not a legal play", shown(c)))),
                many => Err((
                    i,
                    format!(
                        "{} has {} readings; pass the Move you mean",
                        shown(c),
                        many.len()
                    ),
                )),
            }
        }
    })
    .into_iter()
    .collect()
}

/// Cards for a message: an empty play shows as `""`, not as nothing.
pub fn shown(c: &Cards) -> String {
    if c.is_empty() {
        "\"\"".to_string()
    } else {
        c.to_string()
    }
}

/// Hands per unit of parallel work when filling plays.
const CHUNK: usize = 256;

/// Row offsets of each hand's plays from their counts: `counts.len() + 1`
/// entries, the first 0, or None when the total overflows.
pub fn offsets_of(counts: &[i64]) -> Option<Vec<i64>> {
    let mut offsets = Vec::new();
    offsets.try_reserve_exact(counts.len() + 1).ok()?;
    let mut at = 0i64;
    offsets.push(at);
    for &c in counts {
        at = at.checked_add(c)?;
        offsets.push(at);
    }
    Some(offsets)
}

/// The plays of `hands` written into `out`, 16 counts per play, hand `i`'s
/// from row `offsets[i] - offsets[0]` (the counts of `count_moves_into`
/// give the offsets, so the output is allocated once, at its exact size).
pub fn moves_into(
    engine: &Engine,
    hands: &[Cards],
    prevs: &[Option<Move>],
    offsets: &[i64],
    threads: usize,
    out: &mut [u8],
) {
    let base = offsets[0];
    let row = |i: usize| (offsets[i] - base) as usize * SLOTS;
    // Cut `out` into the disjoint pieces that chunks of hands fill.
    let mut pieces = Vec::with_capacity(hands.len().div_ceil(CHUNK));
    let mut rest = out;
    for lo in (0..hands.len()).step_by(CHUNK) {
        let hi = (lo + CHUNK).min(hands.len());
        let (piece, tail) = rest.split_at_mut(row(hi) - row(lo));
        pieces.push((lo..hi, piece));
        rest = tail;
    }
    let fill = |(range, piece): (std::ops::Range<usize>, &mut [u8])| {
        let mut buf = Vec::new();
        let mut at = 0;
        for i in range {
            engine.moves_into(
                &hands[i],
                prevs.get(i).copied().flatten().as_ref(),
                &mut buf,
            );
            for m in &buf {
                piece[at..at + SLOTS].copy_from_slice(&m.cards.0);
                at += SLOTS;
            }
        }
    };
    if pieces.len() <= 1 || threads <= 1 {
        pieces.into_iter().for_each(fill);
    } else {
        run_on(threads, || pieces.into_par_iter().for_each(fill));
    }
}

/// The plays of every hand in CSR layout: `offsets[i]..offsets[i + 1]`
/// index the rows of `plays` (16 counts each) that belong to hand `i`.
pub fn moves_batch(
    engine: &Engine,
    hands: &[Cards],
    prevs: &[Option<Move>],
    threads: usize,
) -> (Vec<i64>, Vec<u8>) {
    let mut counts = vec![0; hands.len()];
    count_moves_into(engine, hands, prevs, threads, &mut counts);
    let offsets = offsets_of(&counts).unwrap_or_default();
    let mut plays = vec![0; *offsets.last().unwrap_or(&0) as usize * SLOTS];
    moves_into(engine, hands, prevs, &offsets, threads, &mut plays);
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
        assert_eq!(run_on(usize::MAX, rayon::current_num_threads), MAX_THREADS);
    }

    #[test]
    fn pools_are_reused_and_only_a_few_are_kept() {
        let first = pool(3).unwrap();
        assert!(Arc::ptr_eq(&first, &pool(3).unwrap()));
        for t in 4..4 + POOLS_KEPT {
            pool(t);
        }
        // Three is now the least recently used count beyond POOLS_KEPT:
        // its pool was dropped from the cache and a new one is made.
        assert!(!Arc::ptr_eq(&first, &pool(3).unwrap()));
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
            let hands: Vec<Cards> = hands
                .iter()
                .cycle()
                .take(4 + 300 * (threads - 1))
                .copied()
                .collect();
            let prevs: Vec<Option<Move>> =
                prevs.iter().cycle().take(hands.len()).copied().collect();
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
