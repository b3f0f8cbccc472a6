//! "Can this hand answer this play at all?", remembered: the control check
//! asks it of the same opponent hand and play to beat in many positions.
//! Direct-mapped with full keys, so a clash costs a new walk, never a
//! wrong answer.

use super::lists::slot;
use crate::cards::Cards;
use crate::engine::Engine;
use crate::generate::Target;

pub(super) struct Answers {
    /// (hand key, target key + 1 with the answer in bit 31); hand 0 is free.
    slots: Vec<(u128, u32)>,
}

const ENTRY_BYTES: usize = std::mem::size_of::<(u128, u32)>();
const YES: u32 = 1 << 31;

impl Answers {
    /// A new memo in `buf`'s memory (see `reuse`).
    pub fn reusing(max_bytes: usize, buf: Vec<(u128, u32)>) -> Answers {
        let most = (max_bytes / ENTRY_BYTES).clamp(1 << 8, 1 << 14);
        let n = 1usize << (usize::BITS - 1 - most.leading_zeros());
        let mut slots = super::reuse::reclaim(buf, n * ENTRY_BYTES);
        slots.resize(n, (0, 0));
        Answers { slots }
    }

    /// The memory, for the next memo.
    pub fn take_buffer(&mut self) -> Vec<(u128, u32)> {
        std::mem::take(&mut self.slots)
    }

    pub fn bytes(&self) -> usize {
        self.slots.len() * ENTRY_BYTES
    }

    /// Can `hand` (not empty) answer `target`? Forbidden kinds do not
    /// matter: no forbiddable kind is a bomb, and a target of a forbidden
    /// kind is never on the table.
    #[inline]
    pub fn can_answer(&mut self, engine: &Engine, hand: &Cards, target: Target) -> bool {
        let (key, t) = (hand.key(), target.key());
        let i = slot(key, t, self.slots.len());
        let (k, v) = self.slots[i];
        if k == key && v & !YES == t {
            return v & YES != 0;
        }
        let yes = engine.can_answer_target(hand, target);
        self.slots[i] = (key, t | if yes { YES } else { 0 });
        yes
    }
}
