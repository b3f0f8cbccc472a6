//! The fewest plays that empty a hand, ignoring every other hand: the move
//! ordering key (a play that leaves fewer plays to make is tried first).

use super::collect;
use crate::cards::Cards;
use crate::engine::Engine;
use crate::generate::Target;
use crate::play::Play;

/// A direct-mapped memo: slot `hash(hand)` holds one (hand, fewest) pair
/// and a full key compare decides a hit, so a clash costs a recomputation,
/// never a wrong count. It doubles while it fills, up to its memory share.
pub(crate) struct Fewest {
    keys: Vec<u128>,
    values: Vec<u8>,
    stored: usize,
    /// Most slots the memory bound's share allows (a power of two).
    limit: usize,
    /// Play lists kept for the recursion's levels (no allocation per call).
    spare: Vec<Vec<Play>>,
}

/// Bytes one memo slot costs.
const ENTRY_BYTES: usize = 17;
/// The empty hand never reaches the memo, so key 0 marks an empty slot.
const EMPTY: u128 = 0;

fn slot(key: u128, slots: usize) -> usize {
    const M: u64 = 0x9E37_79B9_7F4A_7C15;
    let h = (key as u64).wrapping_mul(M) ^ ((key >> 64) as u64).wrapping_mul(M.rotate_left(17));
    ((h ^ h >> 29).wrapping_mul(M) >> 32) as usize & (slots - 1)
}

impl Fewest {
    pub fn new(max_bytes: usize) -> Fewest {
        Fewest::reusing(max_bytes, Vec::new(), Vec::new())
    }

    /// A new memo in the memory of `keys` and `values` (see `reuse`).
    pub fn reusing(max_bytes: usize, keys: Vec<u128>, values: Vec<u8>) -> Fewest {
        let most = (max_bytes / ENTRY_BYTES).max(1 << 10);
        let limit = 1usize << (usize::BITS - 1 - most.leading_zeros());
        let start = limit.min(1 << 12);
        let mut keys = super::reuse::reclaim(keys, limit * 16);
        let mut values = super::reuse::reclaim(values, limit);
        keys.resize(start, EMPTY);
        values.resize(start, 0);
        Fewest {
            keys,
            values,
            stored: 0,
            limit,
            spare: Vec::new(),
        }
    }

    /// The memory, for the next memo.
    pub fn take_buffers(&mut self) -> (Vec<u128>, Vec<u8>) {
        self.stored = 0;
        (
            std::mem::take(&mut self.keys),
            std::mem::take(&mut self.values),
        )
    }

    pub fn bytes(&self) -> usize {
        self.keys.len() * ENTRY_BYTES
    }

    fn insert(&mut self, key: u128, n: u8) {
        if self.stored * 2 >= self.keys.len() && self.keys.len() < self.limit {
            self.grow();
        }
        self.put(key, n);
    }

    /// Doubling adds one bit to the slot, so a key at `i` stays there or
    /// moves to `i + n`: done in place, and no two keys meet.
    fn grow(&mut self) {
        let n = self.keys.len();
        self.keys.resize(n * 2, EMPTY);
        self.values.resize(n * 2, 0);
        for i in 0..n {
            let k = self.keys[i];
            let j = slot(k, n * 2);
            if k != EMPTY && j != i {
                self.keys[j] = k;
                self.values[j] = self.values[i];
                self.keys[i] = EMPTY;
            }
        }
    }

    fn put(&mut self, key: u128, n: u8) {
        let i = slot(key, self.keys.len());
        self.stored += (self.keys[i] == EMPTY) as usize;
        self.keys[i] = key;
        self.values[i] = n;
    }

    /// Every partition of a hand into plays has one play holding its lowest
    /// card, so only those plays are tried: exact, and far fewer branches.
    pub fn of(&mut self, engine: &Engine, forbid: u32, hand: Cards) -> u8 {
        if hand.is_empty() {
            return 0;
        }
        let key = hand.key();
        let i = slot(key, self.keys.len());
        if self.keys[i] == key {
            return self.values[i];
        }
        let low = hand.0.iter().position(|&n| n > 0).unwrap_or(0);
        let mut plays = self.spare.pop().unwrap_or_default();
        collect(engine, forbid, &hand, Target::Lead, &mut plays);
        let mut best = u8::MAX;
        for p in plays.iter().filter(|p| p.cards.get(low) > 0) {
            if p.cards == hand {
                best = 1;
                break;
            }
            if best > 2 {
                best = best.min(1 + self.of(engine, forbid, hand - p.cards));
            }
        }
        self.spare.push(plays);
        self.insert(key, best);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    /// The memo's answer does not depend on its size: a tiny memo that
    /// clashes all the time agrees with a large one.
    #[test]
    fn clashes_cost_time_not_answers() {
        let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
        let mut small = Fewest::new(0);
        let mut large = Fewest::new(1 << 24);
        for text in [
            "3",
            "33",
            "345678",
            "3334",
            "33344455",
            "3456789TJQKA2XD",
            "2233445566",
        ] {
            let hand = engine.parse(text).unwrap();
            assert_eq!(
                small.of(&engine, 0, hand),
                large.of(&engine, 0, hand),
                "{text}"
            );
        }
        assert_eq!(large.of(&engine, 0, engine.parse("3334").unwrap()), 1);
        assert_eq!(large.of(&engine, 0, engine.parse("3579").unwrap()), 4);
    }
}
