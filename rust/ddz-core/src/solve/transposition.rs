//! The transposition table: exact full keys, a memory bound, replacement
//! of the cheapest entry when a bucket is full, and sharing between threads
//! without a lock.
//!
//! An entry is four words: the three hands packed four bits a slot, then
//! the meta word (the position's meta in bits 0-31, the work figure in
//! 32-39, a version in 40-60, then LOCKED, WIN and OCCUPIED). A lookup
//! compares the whole key, so a hit is never a collision. Positions whose
//! hands do not pack (16 copies of one rank) are searched without the table.
//!
//! Each entry's meta word is its own sequence lock: a writer marks it
//! LOCKED, writes the hands, then writes the new meta word with the version
//! moved on; a reader reads the meta word, the hands, and the meta word
//! again, and trusts the hands only when both reads agree. So threads that
//! share the table never take a half-written entry for a hit; what sharing
//! can cost is a miss (a store dropped while another thread holds the way,
//! an entry left in its old bucket by a growth), and a miss costs only a
//! search. The buckets live in one block reserved at the bound's size that
//! never moves: the table grows by doubling the part in use, so the pages
//! beyond it are touched only when the table grows into them, and the other
//! threads go on reading while one thread grows it.

use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{fence, AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// Entries per bucket; a bucket is 128 bytes, two cache lines.
const WAYS: usize = 4;
/// Bytes per entry.
pub(super) const ENTRY_BYTES: usize = 32;
const BUCKET_BYTES: usize = WAYS * ENTRY_BYTES;
/// A table starts with this many buckets (128 KB) and doubles.
const START_BUCKETS: usize = 1 << 10;
const OCCUPIED: u64 = 1 << 63;
const WIN: u64 = 1 << 62;
/// A writer holds the entry: its hands are being written.
const LOCKED: u64 = 1 << 61;
const WORK_SHIFT: u32 = 32;
const VERSION_SHIFT: u32 = 40;
const VERSION_MASK: u64 = ((1 << 21) - 1) << VERSION_SHIFT;
/// Counters of stored entries, one per worker (modulo this), each on its
/// own cache line so that threads do not write one line by turns.
const SHARDS: usize = 8;

/// A hand's counts four bits a slot, when every count is below 16: the
/// nibbles of `Cards::packed` by shifts and masks instead of a loop.
#[inline]
pub(super) fn pack(cards: &crate::cards::Cards) -> Option<u64> {
    let k = cards.key();
    let (lo, hi) = (k as u64, (k >> 64) as u64);
    if (lo | hi) & 0xF0F0_F0F0_F0F0_F0F0 != 0 {
        return None;
    }
    let fold = |x: u64| {
        let x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
        let x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
        (x | x >> 16) & 0xFFFF_FFFF
    };
    Some(fold(lo) | fold(hi) << 32)
}

/// A position's full key, with its hash (computed once for a probe and
/// the store that follows it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Key {
    pub hands: [u64; 3],
    pub meta: u32,
    hash: u64,
}

impl Key {
    #[inline]
    pub fn new(hands: [u64; 3], meta: u32) -> Key {
        Key {
            hands,
            meta,
            hash: Key::hash_of(&hands, meta),
        }
    }

    #[inline]
    fn hash_of(hands: &[u64; 3], meta: u32) -> u64 {
        // Multiply-fold: cheap and well mixed for packed count vectors.
        const M: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut h = (meta as u64).wrapping_mul(M);
        for &k in hands {
            h = (h ^ k).wrapping_mul(M);
            h ^= h >> 32;
        }
        // Murmur's finaliser, so that the low bits (the bucket) see every bit.
        h = (h ^ h >> 33).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^ h >> 33
    }
}

/// One entry: hands in words 0-2, the meta word in 3.
type Entry = [AtomicU64; 4];

/// One bucket: `WAYS` entries, aligned to the 128 bytes it spans, so a
/// probe touches two cache lines (an adjacent pair) and never three.
#[repr(C, align(128))]
struct Bucket([Entry; WAYS]);

#[repr(align(128))]
struct Padded(AtomicUsize);

/// The meta word of `key`'s entry, one version on from `old`.
#[inline]
fn meta_word(key_meta: u32, win: bool, work: u8, old: u64) -> u64 {
    let version = (old & VERSION_MASK).wrapping_add(1 << VERSION_SHIFT) & VERSION_MASK;
    OCCUPIED | (win as u64) << 62 | (work as u64) << WORK_SHIFT | version | key_meta as u64
}

/// A free way's meta word, one version on from `old`.
#[inline]
fn free_word(old: u64) -> u64 {
    (old & VERSION_MASK).wrapping_add(1 << VERSION_SHIFT) & VERSION_MASK
}

#[inline]
fn is_free(meta: u64) -> bool {
    meta & (OCCUPIED | LOCKED) == 0
}

pub(super) struct TranspositionTable {
    base: NonNull<Bucket>,
    /// Buckets in the block (it never moves).
    reserved: usize,
    /// Buckets in use, a power of two: probes index by it.
    active: AtomicUsize,
    /// Most buckets the memory bound allows (at most `reserved`).
    max: usize,
    /// Buckets ever written since the block was reserved (resident memory).
    touched: AtomicUsize,
    growing: AtomicBool,
    stored: [Padded; SHARDS],
}

// The block is owned by the table, and every access to it is atomic.
unsafe impl Send for TranspositionTable {}
unsafe impl Sync for TranspositionTable {}

impl Drop for TranspositionTable {
    fn drop(&mut self) {
        if self.reserved > 0 {
            // SAFETY: `base` came from `alloc` with this layout.
            unsafe {
                dealloc(
                    self.base.as_ptr().cast(),
                    TranspositionTable::layout(self.reserved),
                )
            }
        }
    }
}

impl TranspositionTable {
    #[cfg(test)]
    pub fn new(max_bytes: usize) -> TranspositionTable {
        TranspositionTable::reusing(max_bytes, None)
    }

    /// A new, empty table, in `spare`'s block when it is large enough and
    /// its resident part fits the bound (see `reuse`).
    pub fn reusing(max_bytes: usize, spare: Option<TranspositionTable>) -> TranspositionTable {
        let most = (max_bytes / ENTRY_BYTES).max(WAYS);
        let max = (1usize << (usize::BITS - 1 - most.leading_zeros())) / WAYS;
        let start = max.min(START_BUCKETS);
        if let Some(mut t) = spare {
            if t.reserved >= max && t.resident_bytes() <= max_bytes.max(BUCKET_BYTES) {
                t.max = max;
                t.reset(start);
                return t;
            }
        }
        TranspositionTable::reserve(max, start)
    }

    /// A table of no memory, left behind when a table is moved out.
    pub fn empty() -> TranspositionTable {
        TranspositionTable {
            base: NonNull::dangling(),
            reserved: 0,
            active: AtomicUsize::new(0),
            max: 0,
            touched: AtomicUsize::new(0),
            growing: AtomicBool::new(false),
            stored: std::array::from_fn(|_| Padded(AtomicUsize::new(0))),
        }
    }

    fn layout(buckets: usize) -> Layout {
        Layout::from_size_align(buckets * BUCKET_BYTES, BUCKET_BYTES).expect("table layout")
    }

    /// A block of `max` buckets (fewer if the system refuses that much
    /// address space), of which the first `start` are zeroed for use.
    fn reserve(mut max: usize, start: usize) -> TranspositionTable {
        let base = loop {
            // SAFETY: the layout's size is at least one bucket.
            let p = unsafe { alloc(TranspositionTable::layout(max)) };
            match NonNull::new(p.cast::<Bucket>()) {
                Some(p) => break p,
                None if max > start => max /= 2,
                None => handle_alloc_error(TranspositionTable::layout(max)),
            }
        };
        let mut t = TranspositionTable {
            base,
            reserved: max,
            active: AtomicUsize::new(0),
            max,
            touched: AtomicUsize::new(0),
            growing: AtomicBool::new(false),
            stored: std::array::from_fn(|_| Padded(AtomicUsize::new(0))),
        };
        t.reset(start);
        t
    }

    /// Empty the table down to `start` buckets.
    fn reset(&mut self, start: usize) {
        // SAFETY: `start` ≤ `max` ≤ `reserved`; all-zero words are empty entries.
        unsafe { self.base.as_ptr().write_bytes(0, start) };
        *self.active.get_mut() = start;
        let touched = self.touched.get_mut();
        *touched = (*touched).max(start);
        for s in &mut self.stored {
            *s.0.get_mut() = 0;
        }
    }

    /// Bytes of the block written so far (what stays resident).
    pub fn resident_bytes(&self) -> usize {
        self.touched.load(Ordering::Relaxed) * BUCKET_BYTES
    }

    /// Bytes the table uses now.
    pub fn bytes(&self) -> usize {
        self.active.load(Ordering::Relaxed) * BUCKET_BYTES
    }

    pub fn clear(&mut self) {
        self.reset(self.max.min(START_BUCKETS));
    }

    #[inline]
    fn bucket_at(&self, i: usize) -> &Bucket {
        // SAFETY: callers pass i < the active size they read, and every
        // bucket below the active size has been zeroed or written.
        unsafe { &*self.base.as_ptr().add(i) }
    }

    /// The bucket of `key` among `n` active buckets.
    #[inline]
    fn bucket(&self, key: &Key, n: usize) -> &Bucket {
        self.bucket_at(key.hash as usize & (n - 1))
    }

    fn stored(&self) -> usize {
        self.stored
            .iter()
            .map(|s| s.0.load(Ordering::Relaxed))
            .sum()
    }

    /// Start loading `key`'s bucket into the cache, for a probe soon after.
    #[inline]
    pub fn prefetch(&self, key: &Key) {
        #[cfg(target_arch = "x86_64")]
        {
            let n = self.active.load(Ordering::Relaxed);
            let p = self.bucket(key, n) as *const Bucket as *const i8;
            // SAFETY: a prefetch is a hint; the address is the bucket's own.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The occupied ways of a bucket are a prefix (a new entry takes the
    /// first free way, growth packs each bucket to the front), so a probe
    /// stops at the first free way: in a bucket of one or no entries it
    /// never reads the bucket's second cache line.
    #[inline]
    pub fn get(&self, key: &Key) -> Option<bool> {
        let n = self.active.load(Ordering::Acquire);
        for e in &self.bucket(key, n).0 {
            let meta = e[3].load(Ordering::Acquire);
            if is_free(meta) {
                return None;
            }
            if meta & LOCKED != 0 || meta as u32 != key.meta {
                continue;
            }
            let hands = [0, 1, 2].map(|i| e[i].load(Ordering::Relaxed));
            fence(Ordering::Acquire);
            if hands == key.hands && e[3].load(Ordering::Relaxed) == meta {
                return Some(meta & WIN != 0);
            }
        }
        None
    }

    /// Store a verdict; `work` is the size of the search that found it
    /// (log2 of nodes), so that cheap entries are the ones replaced.
    /// `SHARED`: other threads use the table too (each way is claimed by a
    /// compare-and-swap, and a way another thread holds is left alone);
    /// `shard` is the caller's worker number.
    #[inline]
    pub fn put<const SHARED: bool>(&self, key: &Key, win: bool, work: u8, shard: usize) {
        let count = &self.stored[shard % SHARDS].0;
        let mut n = self.active.load(Ordering::Acquire);
        // A shared table checks its fill every 64 entries a worker: summing
        // the counters reads the other workers' cache lines.
        if n < self.max
            && (!SHARED || count.load(Ordering::Relaxed) & 63 == 0)
            && self.stored() * 4 >= n * WAYS * 3
            && self.grow::<SHARED>(n)
        {
            n = self.active.load(Ordering::Acquire);
        }
        // A full bucket in a half-full table grows it while the bound allows.
        while n < self.max
            && self
                .bucket(key, n)
                .0
                .iter()
                .all(|e| !is_free(e[3].load(Ordering::Relaxed)))
            && self.stored() * 2 >= n * WAYS
            && self.get(key).is_none()
            && self.grow::<SHARED>(n)
        {
            n = self.active.load(Ordering::Acquire);
        }
        let ways = &self.bucket(key, n).0;
        let metas = ways.each_ref().map(|e| e[3].load(Ordering::Acquire));
        let same = |w: usize| {
            metas[w] & (OCCUPIED | LOCKED) == OCCUPIED
                && metas[w] as u32 == key.meta
                && (0..3).all(|i| ways[w][i].load(Ordering::Relaxed) == key.hands[i])
        };
        let (way, fresh) = match (0..WAYS).find(|&w| same(w)) {
            Some(w) => (w, false),
            None => match (0..WAYS).find(|&w| is_free(metas[w])) {
                Some(w) => (w, true),
                None => match (0..WAYS)
                    .filter(|&w| metas[w] & LOCKED == 0)
                    .min_by_key(|&w| (metas[w] >> WORK_SHIFT) as u8)
                {
                    Some(w) => (w, false),
                    None => return, // every way held by other writers
                },
            },
        };
        let e = &ways[way];
        let old = metas[way];
        if SHARED {
            let claimed = (old & !(OCCUPIED | WIN)) | LOCKED;
            if e[3]
                .compare_exchange(old, claimed, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
            {
                return; // another thread wrote this way first: drop the store
            }
            fence(Ordering::Release);
        }
        for (i, &h) in key.hands.iter().enumerate() {
            e[i].store(h, Ordering::Relaxed);
        }
        e[3].store(meta_word(key.meta, win, work, old), Ordering::Release);
        if fresh {
            if SHARED {
                count.fetch_add(1, Ordering::Relaxed);
            } else {
                count.store(count.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
            }
        }
    }

    /// Take a way for the growth: wait while another writer holds it.
    fn claim<const SHARED: bool>(e: &Entry) -> u64 {
        let mut spins = 0u32;
        loop {
            let old = e[3].load(Ordering::Acquire);
            if !SHARED {
                return old;
            }
            if old & LOCKED == 0
                && e[3]
                    .compare_exchange(old, old | LOCKED, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok()
            {
                return old;
            }
            spins += 1;
            if spins & 63 == 0 {
                std::thread::yield_now(); // the holder may be descheduled
            } else {
                std::hint::spin_loop();
            }
        }
    }

    /// Double the active buckets from `n`; false when another thread is
    /// growing the table (the caller goes on with the old size).
    ///
    /// Doubling adds one bit to the bucket index, so each entry of bucket
    /// `b` stays there or moves to `b + n`: done in place, and nothing is
    /// lost, except under sharing an entry stored into `b` after `b` was
    /// moved (it stays where a probe no longer looks: a miss, not an error).
    fn grow<const SHARED: bool>(&self, n: usize) -> bool {
        if self
            .growing
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return false;
        }
        if self.active.load(Ordering::Relaxed) == n && n < self.max {
            // SAFETY: buckets n..2n are within the block and no thread
            // reads them until the new size is published below.
            unsafe { self.base.as_ptr().add(n).write_bytes(0, n) };
            self.touched.fetch_max(2 * n, Ordering::Relaxed);
            for b in 0..n {
                self.split::<SHARED>(b, n);
            }
            self.active.store(2 * n, Ordering::Release);
        }
        self.growing.store(false, Ordering::Release);
        true
    }

    /// Move the entries of bucket `b` whose hash has bit `n` set to `b + n`.
    fn split<const SHARED: bool>(&self, b: usize, n: usize) {
        let (lo, hi) = (&self.bucket_at(b).0, &self.bucket_at(b + n).0);
        let moves = |e: &Entry, meta: u64| {
            let hands = [0, 1, 2].map(|i| e[i].load(Ordering::Relaxed));
            meta & OCCUPIED != 0 && Key::hash_of(&hands, meta as u32) as usize & n != 0
        };
        // Most buckets keep every entry: look before taking the ways.
        if !lo.iter().any(|e| moves(e, e[3].load(Ordering::Acquire))) {
            return;
        }
        let metas = lo.each_ref().map(TranspositionTable::claim::<SHARED>);
        let words = lo
            .each_ref()
            .map(|e| [0, 1, 2].map(|i| e[i].load(Ordering::Relaxed)));
        let (mut kept, mut moved) = (0, 0);
        let mut keep = [(0u64, [0u64; 3]); WAYS];
        for w in 0..WAYS {
            let up = moves(&lo[w], metas[w]);
            if up {
                let e = &hi[moved];
                for (i, &h) in words[w].iter().enumerate() {
                    e[i].store(h, Ordering::Relaxed);
                }
                e[3].store(metas[w], Ordering::Relaxed);
                moved += 1;
            } else if metas[w] & OCCUPIED != 0 {
                keep[kept] = (metas[w], words[w]);
                kept += 1;
            }
        }
        for w in 0..WAYS {
            let e = &lo[w];
            if w < kept {
                let (meta, hands) = keep[w];
                for (i, &h) in hands.iter().enumerate() {
                    e[i].store(h, Ordering::Relaxed);
                }
                // The version belongs to the way: one past what a reader saw.
                e[3].store(
                    meta & !VERSION_MASK | free_word(metas[w]),
                    Ordering::Release,
                );
            } else {
                e[3].store(free_word(metas[w]), Ordering::Release);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(i: u64) -> Key {
        Key::new([i, i * 7 + 1, 0], (i % 5) as u32)
    }

    #[test]
    fn pack_agrees_with_cards_packed() {
        use crate::cards::Cards;
        let mut c = Cards::EMPTY;
        for round in 0..200u32 {
            for slot in 0..16 {
                c.0[slot] = ((round * 7 + slot as u32 * 13) % 17) as u8;
            }
            assert_eq!(pack(&c), c.packed(), "{:?}", c.0);
            c.0[(round % 16) as usize] = (round % 16) as u8;
            assert_eq!(pack(&c), c.packed(), "{:?}", c.0);
        }
    }

    #[test]
    fn keeps_what_fits_and_never_confuses_keys() {
        let t = TranspositionTable::new(1 << 18);
        for i in 0..20_000u64 {
            t.put::<false>(&key(i), i % 3 == 0, (i % 7) as u8, 0);
        }
        assert!(t.bytes() <= 1 << 18);
        let mut found = 0;
        for i in 0..20_000u64 {
            if let Some(v) = t.get(&key(i)) {
                assert_eq!(v, i % 3 == 0);
                found += 1;
            }
        }
        assert!(found > 4_000, "{found}");
        assert_eq!(t.get(&key(40_000)), None);
    }

    #[test]
    fn growth_keeps_nearly_every_entry() {
        let t = TranspositionTable::new(1 << 24);
        for i in 0..30_000u64 {
            t.put::<false>(&key(i), i % 2 == 0, 1, 0);
        }
        let kept = (0..30_000u64)
            .filter(|&i| {
                let v = t.get(&key(i));
                assert!(v.is_none() || v == Some(i % 2 == 0));
                v.is_some()
            })
            .count();
        assert!(kept > 27_000, "{kept}");
    }

    /// Two threads store and probe one table while it grows: no probe ever
    /// returns a verdict that was not stored for its key, and most of what
    /// was stored is found again.
    #[test]
    fn shared_threads_never_read_a_wrong_verdict() {
        // A table too small for the keys (full buckets, replaced entries),
        // then one that grows while both threads use it.
        hammer(&TranspositionTable::new(1 << 16));
        let t = TranspositionTable::new(1 << 22);
        hammer(&t);
        assert!(t.bytes() > 1 << 17, "the table grew while shared");
        let found = (0..60_000u64)
            .filter(|&i| {
                t.get(&key(i))
                    .inspect(|&v| assert_eq!(v, verdict(i)))
                    .is_some()
            })
            .count();
        assert!(found > 50_000, "{found}");
    }

    fn verdict(i: u64) -> bool {
        (i * 0x9E37_79B9) >> 7 & 1 == 1
    }

    /// Two threads store the same 60,000 keys in opposite orders, probing
    /// others as they go: every hit must carry the key's own verdict.
    fn hammer(t: &TranspositionTable) {
        std::thread::scope(|scope| {
            for worker in 0..2u64 {
                scope.spawn(move || {
                    for round in 0..60_000u64 {
                        let i = if worker == 0 { round } else { 60_000 - round };
                        t.put::<true>(&key(i), verdict(i), (i % 9) as u8, worker as usize);
                        for j in [i / 2, i / 3 + 7, round * 31 % 60_000] {
                            if let Some(v) = t.get(&key(j)) {
                                assert_eq!(v, verdict(j), "key {j}");
                            }
                        }
                    }
                });
            }
        });
    }

    /// One bucket, four ways, two threads rewriting them as fast as they
    /// can with keys that differ only in their first word: a reader that
    /// took a way's meta word from one write and its hands from another
    /// would see a hit with the wrong verdict, and the sequence check must
    /// turn every such read into a miss.
    #[test]
    fn a_torn_entry_is_never_a_hit() {
        let t = TranspositionTable::new(4 * ENTRY_BYTES);
        assert_eq!(t.bytes(), BUCKET_BYTES);
        let torn = |i: u64| Key::new([i % 64, 0, 0], 0);
        std::thread::scope(|scope| {
            for worker in 0..2u64 {
                let t = &t;
                scope.spawn(move || {
                    let mut hits = 0;
                    for round in 0..400_000u64 {
                        let i = round * (2 * worker + 1);
                        t.put::<true>(&torn(i), verdict(i % 64), 1, worker as usize);
                        let j = round * 7 + worker;
                        if let Some(v) = t.get(&torn(j)) {
                            assert_eq!(v, verdict(j % 64), "key {}", j % 64);
                            hits += 1;
                        }
                    }
                    assert!(hits > 0);
                });
            }
        });
    }

    /// A reused block holds nothing of the table before it.
    #[test]
    fn a_reused_table_is_empty() {
        let t = TranspositionTable::new(1 << 20);
        for i in 0..10_000u64 {
            t.put::<false>(&key(i), true, 3, 0);
        }
        let t = TranspositionTable::reusing(1 << 20, Some(t));
        assert!((0..10_000u64).all(|i| t.get(&key(i)).is_none()));
        assert_eq!(t.bytes(), START_BUCKETS * BUCKET_BYTES);
    }
}
