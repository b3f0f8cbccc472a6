//! The fewest plays that empty a hand, ignoring every other hand: the move
//! ordering key (a play that leaves fewer plays to make is tried first).

use super::collect;
use crate::cards::Cards;
use crate::engine::Engine;
use crate::generate::Target;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A multiply-fold hasher for `u128` keys (SipHash costs more than the lookup).
#[derive(Default)]
pub(super) struct FoldHasher(u64);

impl Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01B3);
        }
    }
    fn write_u128(&mut self, k: u128) {
        const M: u64 = 0x9E37_79B9_7F4A_7C15;
        let h = (self.0 ^ k as u64).wrapping_mul(M);
        let h = (h ^ (k >> 64) as u64).wrapping_mul(M);
        self.0 = h ^ h >> 32;
    }
}

pub(super) struct Fewest {
    memo: HashMap<u128, u8, BuildHasherDefault<FoldHasher>>,
    /// Entries kept before the memo starts over (the memory bound's share).
    limit: usize,
}

/// Bytes one memo entry costs, with the hash map's overhead.
const ENTRY_BYTES: usize = 40;

impl Fewest {
    pub fn new(max_bytes: usize) -> Fewest {
        Fewest {
            memo: HashMap::default(),
            limit: (max_bytes / ENTRY_BYTES).max(1024),
        }
    }

    pub fn bytes(&self) -> usize {
        self.memo.capacity() * ENTRY_BYTES
    }

    /// Every partition of a hand into plays has one play holding its lowest
    /// card, so only those plays are tried: exact, and far fewer branches.
    pub fn of(&mut self, engine: &Engine, forbid: u32, hand: Cards) -> u8 {
        if hand.is_empty() {
            return 0;
        }
        if let Some(&n) = self.memo.get(&hand.key()) {
            return n;
        }
        let low = hand.0.iter().position(|&n| n > 0).unwrap_or(0);
        let mut plays = Vec::new();
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
        if self.memo.len() >= self.limit {
            self.memo.clear();
        }
        self.memo.insert(hand.key(), best);
        best
    }
}
