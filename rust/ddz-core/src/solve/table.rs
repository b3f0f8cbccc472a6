//! The transposition table: exact full keys, a memory bound, and
//! replacement of the cheapest entry when a bucket is full.
//!
//! An entry is four `u64`: the three hands packed four bits a slot, then
//! the position's meta word (seat to move, trick owner, play to beat), a
//! verdict and a work figure. A lookup compares the whole key, so a hit is
//! never a collision. Positions whose hands do not pack (16 copies of one
//! rank) are searched without the table.

/// Entries per bucket; a bucket is 128 bytes, two cache lines.
const WAYS: usize = 4;
/// Bytes per entry.
pub(super) const ENTRY_BYTES: usize = 32;
const OCCUPIED: u64 = 1 << 63;
const WIN: u64 = 1 << 62;

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

/// One bucket: `WAYS` entries, aligned to the 128 bytes it spans, so a
/// probe touches two cache lines (an adjacent pair) and never three.
#[derive(Clone, Copy)]
#[repr(C, align(128))]
pub(super) struct Bucket([[u64; 4]; WAYS]);

const EMPTY: Bucket = Bucket([[0; 4]; WAYS]);

pub(super) struct Table {
    buckets: Vec<Bucket>,
    /// Most entries the memory bound allows (a power of two, ≥ one bucket).
    max_entries: usize,
    stored: usize,
}

impl Table {
    pub fn new(max_bytes: usize) -> Table {
        Table::reusing(max_bytes, Vec::new())
    }

    /// A new table in `buf`'s memory (see `reuse`).
    pub fn reusing(max_bytes: usize, buf: Vec<Bucket>) -> Table {
        let most = (max_bytes / ENTRY_BYTES).max(WAYS);
        let max_entries = 1usize << (usize::BITS - 1 - most.leading_zeros());
        let mut buckets = super::reuse::reclaim(buf, max_entries * ENTRY_BYTES);
        buckets.resize(max_entries.min(1 << 12) / WAYS, EMPTY);
        Table {
            buckets,
            max_entries,
            stored: 0,
        }
    }

    /// The memory, for the next table.
    pub fn take_buffer(&mut self) -> Vec<Bucket> {
        self.stored = 0;
        std::mem::take(&mut self.buckets)
    }

    fn entries(&self) -> usize {
        self.buckets.len() * WAYS
    }

    /// Bytes the table holds now.
    pub fn bytes(&self) -> usize {
        self.entries() * ENTRY_BYTES
    }

    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = EMPTY);
        self.stored = 0;
    }

    #[inline]
    fn bucket(&self, key: &Key) -> usize {
        key.hash as usize & (self.buckets.len() - 1)
    }

    #[inline]
    fn matches(e: &[u64; 4], key: &Key) -> bool {
        e[3] & OCCUPIED != 0 && e[3] as u32 == key.meta && e[..3] == key.hands
    }

    /// The occupied ways of a bucket are always a prefix (a new entry takes
    /// the first free way, growth packs each bucket to the front), so a
    /// probe stops at the first free way: in a bucket of one or no entries
    /// it never reads the bucket's second cache line.
    #[inline]
    pub fn get(&self, key: &Key) -> Option<bool> {
        for e in &self.buckets[self.bucket(key)].0 {
            if e[3] & OCCUPIED == 0 {
                return None;
            }
            if Self::matches(e, key) {
                return Some(e[3] & WIN != 0);
            }
        }
        None
    }

    /// Store a verdict; `work` is the size of the search that found it
    /// (log2 of nodes), so that cheap entries are the ones replaced.
    pub fn put(&mut self, key: &Key, win: bool, work: u8) {
        if self.stored * 4 >= self.entries() * 3 && self.entries() < self.max_entries {
            self.grow();
        }
        let mut b = self.bucket(key);
        let full = |t: &Table, b: usize| t.buckets[b].0.iter().all(|e| e[3] & OCCUPIED != 0);
        // A full bucket in a half-full table grows it while the bound allows.
        while full(self, b)
            && self.stored * 2 >= self.entries()
            && self.entries() < self.max_entries
            && self.get(key).is_none()
        {
            self.grow();
            b = self.bucket(key);
        }
        let bucket = &mut self.buckets[b].0;
        let way = match bucket.iter().position(|e| Self::matches(e, key)) {
            Some(w) => w,
            None => match bucket.iter().position(|e| e[3] & OCCUPIED == 0) {
                Some(w) => {
                    self.stored += 1;
                    w
                }
                None => (0..WAYS)
                    .min_by_key(|&w| (bucket[w][3] >> 40) as u8)
                    .unwrap_or(0),
            },
        };
        let mut meta = OCCUPIED | key.meta as u64 | (work as u64) << 40;
        if win {
            meta |= WIN;
        }
        bucket[way] = [key.hands[0], key.hands[1], key.hands[2], meta];
    }

    /// Doubling adds one bit to the bucket index, so each entry of bucket
    /// `b` stays there or moves to `b + n`, in order: done in place (no
    /// second allocation while the old one is freed), and nothing is lost.
    fn grow(&mut self) {
        let n = self.buckets.len();
        self.buckets.resize(n * 2, EMPTY);
        for b in 0..n {
            let bucket = self.buckets[b];
            // The new index bit of each entry's hash: set means bucket b + n.
            let up = bucket.0.map(|e| {
                e[3] & OCCUPIED != 0
                    && Key::hash_of(&[e[0], e[1], e[2]], e[3] as u32) as usize & n != 0
            });
            if !up.contains(&true) {
                continue;
            }
            let (mut kept, mut moved) = (0, 0);
            for (e, up) in bucket.0.into_iter().zip(up) {
                if up {
                    self.buckets[b + n].0[moved] = e;
                    moved += 1;
                } else if e[3] & OCCUPIED != 0 {
                    self.buckets[b].0[kept] = e;
                    kept += 1;
                }
            }
            self.buckets[b].0[kept..].fill([0; 4]);
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
        let mut t = Table::new(1 << 18);
        for i in 0..20_000u64 {
            t.put(&key(i), i % 3 == 0, (i % 7) as u8);
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
        let mut t = Table::new(1 << 24);
        for i in 0..30_000u64 {
            t.put(&key(i), i % 2 == 0, 1);
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
}
