//! Ordered play lists per (hand, play to beat): a hand meets the same
//! target in many positions (the other hands differ), and listing its plays,
//! keying each by the fewest plays left and sorting them is most of what a
//! position costs. A direct-mapped cache keeps the sorted list, so a
//! position seen with a new opponent hand copies the list instead.

use super::collect;
use super::fewest::Fewest;
use crate::cards::Cards;
use crate::engine::Engine;
use crate::generate::Target;
use crate::play::Play;

/// A play with its order key (lower first: see `order_key`).
pub(super) type Keyed = (u32, Play);

struct Slot {
    /// `Cards::key` of the hand; 0 (the empty hand, never searched) marks a free slot.
    hand: u128,
    target: u32,
    /// The fewest plays that empty the hand now (where a pass goes).
    now: u8,
    plays: Vec<Keyed>,
}

pub(super) struct Lists {
    slots: Vec<Slot>,
    stored: usize,
    /// Most slots the memory share allows (a power of two).
    limit: usize,
    /// Bytes of the stored lists; past `max_bytes`, new lists are not kept.
    bytes: usize,
    max_bytes: usize,
    scratch: Vec<Play>,
}

/// Bytes a slot costs besides its list.
const SLOT_BYTES: usize = std::mem::size_of::<Slot>();
const KEYED_BYTES: usize = std::mem::size_of::<Keyed>();

pub(super) fn slot(hand: u128, target: u32, slots: usize) -> usize {
    const M: u64 = 0x9E37_79B9_7F4A_7C15;
    let h = (hand as u64 ^ target as u64).wrapping_mul(M)
        ^ ((hand >> 64) as u64).wrapping_mul(M.rotate_left(17));
    ((h ^ h >> 29).wrapping_mul(M) >> 32) as usize & (slots - 1)
}

fn free_slots(n: usize) -> Vec<Slot> {
    (0..n)
        .map(|_| Slot {
            hand: 0,
            target: 0,
            now: 0,
            plays: Vec::new(),
        })
        .collect()
}

/// Lower keys are tried first: the fewest plays left, then non-bombs, then
/// more cards.
#[inline]
pub(super) fn order_key(left: u8, p: &Play) -> u32 {
    let bomb = p.kind.is_bomb() as u32;
    let len = p.cards.len().min(127) as u32;
    (left as u32) << 24 | bomb << 7 | (127 - len)
}

/// The fewest plays left, from an order key.
#[inline]
pub(super) fn left_of(k: u32) -> u32 {
    k >> 24
}

impl Lists {
    pub fn new(max_bytes: usize) -> Lists {
        // Lists of a few plays are the common case: budget ~8 a slot.
        let most = (max_bytes / (SLOT_BYTES + 8 * KEYED_BYTES)).max(1 << 8);
        let limit = 1usize << (usize::BITS - 1 - most.leading_zeros());
        let start = limit.min(1 << 12);
        Lists {
            slots: free_slots(start),
            stored: 0,
            limit,
            bytes: start * SLOT_BYTES,
            max_bytes,
            scratch: Vec::new(),
        }
    }

    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The plays of `hand` answering `target` (forbidden kinds left out),
    /// sorted by order key, into `out`; returns the fewest plays of `hand`.
    pub fn ordered(
        &mut self,
        engine: &Engine,
        forbid: u32,
        fewest: &mut Fewest,
        hand: Cards,
        target: Target,
        out: &mut Vec<Keyed>,
    ) -> u8 {
        let (key, tkey) = (hand.key(), target.key());
        let i = slot(key, tkey, self.slots.len());
        let s = &self.slots[i];
        if s.hand == key && s.target == tkey {
            out.clear();
            out.extend_from_slice(&s.plays);
            return s.now;
        }
        collect(engine, forbid, &hand, target, &mut self.scratch);
        out.clear();
        for p in &self.scratch {
            let left = fewest.of(engine, forbid, hand - p.cards);
            out.push((order_key(left, p), *p));
        }
        out.sort_by_key(|&(k, _)| k);
        let now = fewest.of(engine, forbid, hand);
        self.store(key, tkey, now, out);
        now
    }

    fn store(&mut self, hand: u128, target: u32, now: u8, plays: &[Keyed]) {
        if self.stored * 2 >= self.slots.len() && self.slots.len() < self.limit {
            self.grow();
        }
        let i = slot(hand, target, self.slots.len());
        let s = &mut self.slots[i];
        let old = s.plays.capacity();
        let grows = plays.len().saturating_sub(old) * KEYED_BYTES;
        if self.bytes + grows > self.max_bytes {
            return; // full: the list is recomputed next time
        }
        self.stored += (s.hand == 0) as usize;
        s.hand = hand;
        s.target = target;
        s.now = now;
        s.plays.clear();
        s.plays.extend_from_slice(plays);
        self.bytes = self.bytes + s.plays.capacity() * KEYED_BYTES - old * KEYED_BYTES;
    }

    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        if self.bytes + self.slots.len() * SLOT_BYTES > self.max_bytes {
            self.limit = self.slots.len(); // no room for more slots
            return;
        }
        let old = std::mem::replace(&mut self.slots, free_slots(n));
        self.bytes += (n - old.len()) * SLOT_BYTES;
        self.stored = 0;
        for s in old.into_iter().filter(|s| s.hand != 0) {
            let i = slot(s.hand, s.target, n);
            let dest = &mut self.slots[i];
            if dest.hand != 0 {
                // A clash in the larger table: the list it drops is freed.
                self.bytes -= s.plays.capacity() * KEYED_BYTES;
                continue;
            }
            self.stored += 1;
            *dest = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    /// A cache too small to keep anything returns the lists a large one
    /// does, and both hold every play of the hand, sorted.
    #[test]
    fn a_full_cache_costs_time_not_plays() {
        let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
        let mut fewest = Fewest::new(1 << 20);
        let mut small = Lists::new(0);
        let mut large = Lists::new(1 << 24);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for round in 0..3 {
            for text in ["3456789TJQKA2XD", "33344455", "2233445566", "3579", "KKK"] {
                let hand = engine.parse(text).unwrap();
                for target in [
                    Target::Lead,
                    engine.to_beat(&engine.moves(&engine.parse("3").unwrap(), None)[0]),
                ] {
                    let n = small.ordered(&engine, 0, &mut fewest, hand, target, &mut a);
                    let m = large.ordered(&engine, 0, &mut fewest, hand, target, &mut b);
                    assert_eq!((n, &a), (m, &b), "{text} round {round}");
                    let mut want = Vec::new();
                    collect(&engine, 0, &hand, target, &mut want);
                    assert_eq!(a.len(), want.len(), "{text}");
                    assert!(a.windows(2).all(|w| w[0].0 <= w[1].0), "{text}");
                    assert!(want.iter().all(|p| a.iter().any(|(_, q)| q == p)), "{text}");
                }
            }
        }
        assert!(small.bytes() <= large.bytes());
    }
}
