//! The fewest plays that empty a hand, ignoring every other hand: the move
//! ordering key (a play that leaves fewer plays to make is tried first).

use super::collect;
use crate::cards::Cards;
use crate::engine::Engine;
use crate::generate::Target;
use std::collections::HashMap;

pub(super) struct Fewest {
    memo: HashMap<u128, u8>,
    /// Entries kept before the memo starts over (the memory bound's share).
    limit: usize,
}

/// Bytes one memo entry costs, with the hash map's overhead.
const ENTRY_BYTES: usize = 40;

impl Fewest {
    pub fn new(max_bytes: usize) -> Fewest {
        Fewest {
            memo: HashMap::new(),
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
