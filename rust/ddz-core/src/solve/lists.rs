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
use crate::play::{Kind, Play};

/// A play with its order key (lower first: see `order_key`), packed into
/// the play's own padding: 32 bytes where `(u32, Play)` takes 48, so the
/// lists copied and kept per position are a third smaller.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Keyed {
    pub cards: Cards,
    pub to_beat: Target,
    pub kind: Kind,
    pub key: u32,
}

const _: () = assert!(std::mem::size_of::<Keyed>() == 32);

impl Keyed {
    #[inline]
    pub fn new(key: u32, p: &Play) -> Keyed {
        Keyed {
            cards: p.cards,
            to_beat: p.to_beat,
            kind: p.kind,
            key,
        }
    }

    #[inline]
    pub fn play(&self) -> Play {
        Play {
            cards: self.cards,
            kind: self.kind,
            to_beat: self.to_beat,
        }
    }
}

/// What a list says beside its plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Listed {
    /// The fewest plays that empty the hand now (where a pass goes).
    pub now: u8,
    /// What to try before the list's order (see `Lists::learn`), packed:
    /// against an opponent's play or on a lead, and against a partner's.
    first: [u16; 2],
}

impl Listed {
    /// What to try first against a partner's play or not.
    pub fn first(&self, partner: bool) -> First {
        First::unpacked(self.first[partner as usize])
    }
}

/// The action a search tries first at a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum First {
    /// The list's own order (with the pass where the plays left put it).
    Listed,
    Pass,
    /// The play at this index of the list.
    Play(u16),
}

/// `First` in a slot's two bytes (a slot stays 32 bytes).
const LISTED: u16 = u16::MAX;
const PASS: u16 = u16::MAX - 1;

impl First {
    fn packed(self) -> u16 {
        match self {
            First::Listed => LISTED,
            First::Pass => PASS,
            First::Play(i) => i,
        }
    }

    fn unpacked(v: u16) -> First {
        match v {
            LISTED => First::Listed,
            PASS => First::Pass,
            i => First::Play(i),
        }
    }
}

/// A cached list: where it lies in the arena.
#[derive(Clone, Copy)]
pub(super) struct Slot {
    /// `Cards::key` of the hand, in two halves; 0 (the empty hand, never
    /// searched) marks a free slot.
    hand: [u64; 2],
    target: u32,
    /// The fewest plays that empty the hand now (where a pass goes).
    now: u8,
    /// The last action that won here after another was tried first
    /// (`First` packed), against an opponent's play or a lead [0] and
    /// against a partner's [1]: a farmer lets its partner's play stand
    /// where it would beat the landlord's.
    first: [u16; 2],
    len: u16,
    start: u32,
}

const FREE: Slot = Slot {
    hand: [0; 2],
    target: 0,
    now: 0,
    first: [LISTED; 2],
    len: 0,
    start: 0,
};

/// The lists live end to end in one arena (no allocation per list, so a
/// fresh solver reuses what the allocator already has); a slot that is
/// overwritten leaves its old list behind, and a full arena starts over.
pub(super) struct Lists {
    slots: Vec<Slot>,
    stored: usize,
    /// Most slots the memory share allows (a power of two).
    limit: usize,
    arena: Vec<Keyed>,
    /// Most plays the arena may hold.
    max_plays: usize,
    scratch: Vec<Play>,
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();
const _: () = assert!(SLOT_BYTES == 32, "two slots a cache line");
const KEYED_BYTES: usize = std::mem::size_of::<Keyed>();

pub(super) fn slot(hand: u128, target: u32, slots: usize) -> usize {
    const M: u64 = 0x9E37_79B9_7F4A_7C15;
    let h = (hand as u64 ^ target as u64).wrapping_mul(M)
        ^ ((hand >> 64) as u64).wrapping_mul(M.rotate_left(17));
    ((h ^ h >> 29).wrapping_mul(M) >> 32) as usize & (slots - 1)
}

fn halves(key: u128) -> [u64; 2] {
    [key as u64, (key >> 64) as u64]
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
    #[cfg(test)]
    pub fn new(max_bytes: usize) -> Lists {
        Lists::reusing(max_bytes, Vec::new(), Vec::new())
    }

    /// A new cache in the memory of `slots` and `arena` (see `reuse`).
    pub fn reusing(max_bytes: usize, slots: Vec<Slot>, arena: Vec<Keyed>) -> Lists {
        // A quarter of the share for the slots, the rest for the arena.
        let most = (max_bytes / 4 / SLOT_BYTES).max(1 << 8);
        let limit = 1usize << (usize::BITS - 1 - most.leading_zeros());
        let max_plays = max_bytes / 4 * 3 / KEYED_BYTES;
        let mut slots = super::reuse::reclaim(slots, limit * SLOT_BYTES);
        slots.resize(limit.min(1 << 12), FREE);
        Lists {
            slots,
            stored: 0,
            limit,
            arena: super::reuse::reclaim(arena, max_plays * KEYED_BYTES),
            max_plays,
            scratch: Vec::new(),
        }
    }

    /// The memory, for the next cache.
    pub fn take_buffers(&mut self) -> (Vec<Slot>, Vec<Keyed>) {
        self.stored = 0;
        (
            std::mem::take(&mut self.slots),
            std::mem::take(&mut self.arena),
        )
    }

    pub fn bytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES + self.arena.capacity() * KEYED_BYTES
    }

    /// The plays of `hand` answering `target` (forbidden kinds left out),
    /// sorted by order key, into `out`; returns the fewest plays of `hand`
    /// and what to try first.
    pub fn ordered(
        &mut self,
        engine: &Engine,
        forbid: u32,
        fewest: &mut Fewest,
        hand: Cards,
        target: Target,
        out: &mut Vec<Keyed>,
    ) -> Listed {
        let (key, tkey) = (hand.key(), target.key());
        let s = self.slots[slot(key, tkey, self.slots.len())];
        out.clear();
        if s.hand == halves(key) && s.target == tkey {
            let start = s.start as usize;
            out.extend_from_slice(&self.arena[start..start + s.len as usize]);
            return Listed {
                now: s.now,
                first: s.first,
            };
        }
        collect(engine, forbid, &hand, target, &mut self.scratch);
        for p in &self.scratch {
            let left = fewest.of(engine, forbid, hand - p.cards);
            out.push(Keyed::new(order_key(left, p), p));
        }
        out.sort_by_key(|k| k.key);
        let now = fewest.of(engine, forbid, hand);
        self.store(key, tkey, now, out);
        Listed {
            now,
            first: [LISTED; 2],
        }
    }

    /// `won` won a position of `hand` facing `target` after another
    /// action was tried first: it is tried first from now on, until
    /// another wins after it. The same hand meets the same play in many
    /// positions that differ only in the other hands, and what won in one
    /// often wins in the next (the 13-v-12 puzzle takes 9% fewer positions,
    /// 17-v-17 deals a third fewer: docs/solver.md). Only the order of the
    /// search changes, never a verdict.
    pub fn learn(&mut self, hand: Cards, target: Target, partner: bool, won: First) {
        let (key, tkey) = (hand.key(), target.key());
        let n = self.slots.len();
        let s = &mut self.slots[slot(key, tkey, n)];
        if s.hand == halves(key) && s.target == tkey {
            s.first[partner as usize] = won.packed();
        }
    }

    fn store(&mut self, hand: u128, target: u32, now: u8, plays: &[Keyed]) {
        if plays.len() >= PASS as usize || plays.len() > self.max_plays {
            return; // too long to keep: listed again when met again
        }
        if self.arena.len() + plays.len() > self.max_plays {
            // Full: start over rather than track which lists are dead.
            self.arena.clear();
            self.slots.iter_mut().for_each(|s| *s = FREE);
            self.stored = 0;
        }
        if self.stored * 2 >= self.slots.len() && self.slots.len() < self.limit {
            self.grow();
        }
        let i = slot(hand, target, self.slots.len());
        self.stored += (self.slots[i].hand == [0; 2]) as usize;
        self.slots[i] = Slot {
            hand: halves(hand),
            target,
            now,
            first: [LISTED; 2],
            len: plays.len() as u16,
            start: self.arena.len() as u32,
        };
        self.arena.extend_from_slice(plays);
    }

    /// Doubling adds one bit to the slot, so a list at `i` stays there or
    /// moves to `i + n`: done in place, and no two lists meet.
    fn grow(&mut self) {
        let n = self.slots.len();
        self.slots.resize(n * 2, FREE);
        for i in 0..n {
            let s = self.slots[i];
            let key = s.hand[0] as u128 | (s.hand[1] as u128) << 64;
            let j = slot(key, s.target, n * 2);
            if s.hand != [0; 2] && j != i {
                self.slots[j] = s;
                self.slots[i] = FREE;
            }
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
                    assert!(a.windows(2).all(|w| w[0].key <= w[1].key), "{text}");
                    assert!(
                        want.iter().all(|p| a.iter().any(|q| q.play() == *p)),
                        "{text}"
                    );
                }
            }
        }
        assert!(small.bytes() <= large.bytes());
    }

    /// A learnt action comes back with its list, for the side of the
    /// play to beat it was learnt against, until another is learnt there;
    /// the plays and their order do not change, and a list stored again
    /// starts from its own order.
    #[test]
    fn a_learnt_action_comes_back_with_its_list() {
        let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
        let mut fewest = Fewest::new(1 << 20);
        let mut lists = Lists::new(1 << 20);
        let hand = engine.parse("3345567TT2").unwrap();
        let target = engine.to_beat(&engine.moves(&engine.parse("4").unwrap(), None)[0]);
        let (mut before, mut after) = (Vec::new(), Vec::new());
        let mut ordered = |lists: &mut Lists, hand, out: &mut Vec<Keyed>| {
            lists.ordered(&engine, 0, &mut fewest, hand, target, out)
        };
        let listed = ordered(&mut lists, hand, &mut before);
        assert_eq!(listed.first(false), First::Listed);
        for won in [First::Play(3), First::Pass, First::Play(1)] {
            lists.learn(hand, target, false, won);
            let again = ordered(&mut lists, hand, &mut after);
            assert_eq!((again.now, again.first(false)), (listed.now, won));
            assert_eq!(before, after);
            // Against a partner's play nothing was learnt.
            assert_eq!(again.first(true), First::Listed);
        }
        lists.learn(hand, target, true, First::Pass);
        let again = ordered(&mut lists, hand, &mut after);
        assert_eq!(again.first(true), First::Pass);
        assert_eq!(again.first(false), First::Play(1));
        // Another hand's list is not touched, and one never listed learns nothing.
        let other = engine.parse("3345567TT").unwrap();
        lists.learn(other, target, false, First::Pass);
        assert_eq!(
            ordered(&mut lists, other, &mut after).first(false),
            First::Listed
        );
        // A cache with room for one list starts over when the next comes:
        // the first comes back in its own order, with nothing learnt.
        let mut small = Lists::new((before.len() + 1) * KEYED_BYTES * 4 / 3 + 4);
        assert_eq!(small.max_plays, before.len() + 1);
        ordered(&mut small, hand, &mut after);
        small.learn(hand, target, false, First::Play(2));
        assert_eq!(
            ordered(&mut small, hand, &mut after).first(false),
            First::Play(2)
        );
        ordered(&mut small, other, &mut after);
        let listed = ordered(&mut small, hand, &mut after);
        assert_eq!((listed.first(false), &after), (First::Listed, &before));
    }
}
