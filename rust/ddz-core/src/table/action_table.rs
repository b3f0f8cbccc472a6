//! Fixed action ids: every decision of a rule set numbered once, so that a
//! learner can have one output per action (docs/rl.md, "Fixed action ids").
//!
//! Ids `0..WORDS.len()` are the words in the vocabulary's order
//! (`action::WORDS`: `pass`, the three bids, then the rest); every play a
//! seat could ever hold follows, one id per reading, in the order the
//! generator lists the plays of the rule set's whole deck, keeping those
//! of at most `hand_size + kitty` cards. The numbering is the one the
//! PettingZoo adapter has always used, and `VecEnv`'s `legal_ids` and the
//! adapters all read this one table.

use super::action::{Action, WORDS};
use crate::cards::{Cards, SLOTS};
use crate::engine::Engine;
use crate::play::Move;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Every decision of one rule set, numbered.
#[derive(Clone, Debug)]
pub struct ActionTable {
    /// The plays by id (their id is `WORDS.len()` + the place here).
    plays: Vec<Move>,
    ids: HashMap<Move, u32, BuildHasherDefault<MoveHasher>>,
}

impl ActionTable {
    /// The table of `engine`'s rule set.
    pub fn new(engine: &Engine) -> ActionTable {
        let rules = engine.rules();
        let decks = rules.decks;
        let mut deck = [4 * decks; SLOTS];
        deck[13] = decks;
        deck[14] = decks;
        deck[15] = rules.laizi;
        // A play larger than the most cards a seat can hold never happens.
        let hold = rules.hand_size as usize + rules.kitty as usize;
        let mut plays = engine.moves(&Cards(deck), None);
        plays.retain(|m| m.cards.len() <= hold);
        let ids = plays
            .iter()
            .enumerate()
            .map(|(i, m)| (*m, (WORDS.len() + i) as u32))
            .collect();
        ActionTable { plays, ids }
    }

    /// How many ids there are (a mask's length).
    pub fn len(&self) -> usize {
        WORDS.len() + self.plays.len()
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// The id of `action`; None for a play no seat could hold (none that
    /// a table offers) or a bid outside 1..=3.
    #[inline]
    pub fn id(&self, action: &Action) -> Option<u32> {
        match action {
            Action::Play(m) => self.play_id(m),
            word => word.word_id().map(|i| i as u32),
        }
    }

    /// The id of a play.
    #[inline]
    pub fn play_id(&self, m: &Move) -> Option<u32> {
        self.ids.get(m).copied()
    }

    /// The decision id `id` stands for.
    pub fn action(&self, id: usize) -> Option<Action> {
        match id.checked_sub(WORDS.len()) {
            None => Some(WORDS[id].1),
            Some(i) => self.plays.get(i).map(|&m| Action::Play(m)),
        }
    }
}

/// A quick hash for the table's lookups (one per legal action per step):
/// the bytes of a play, eight at a time, by multiplication and rotation
/// (FxHash's step). Lookups only, of keys the table made itself, so no
/// defence against chosen keys is needed.
#[derive(Default, Clone, Copy)]
pub struct MoveHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl MoveHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for MoveHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("eight bytes")));
        }
        let mut rest = [0u8; 8];
        let tail = chunks.remainder();
        rest[..tail.len()].copy_from_slice(tail);
        self.add(u64::from_le_bytes(rest));
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Rules, PRESETS};

    fn table(preset: &str) -> ActionTable {
        ActionTable::new(&Engine::new(Rules::preset(preset).unwrap()).unwrap())
    }

    /// A digest of the whole numbering: each id's kind, rank, length,
    /// cards and represents, in id order.
    fn digest(t: &ActionTable) -> u64 {
        let mut h = MoveHasher::default();
        for id in 0..t.len() {
            match t.action(id).unwrap() {
                Action::Play(m) => {
                    h.write(&[m.kind as u8, m.rank, m.length]);
                    h.write(&m.cards.0);
                    h.write(&m.represents.0);
                }
                word => h.write(word.to_string().as_bytes()),
            }
        }
        h.finish()
    }

    #[test]
    fn the_numbering_is_the_one_the_adapters_have_always_used() {
        // Sizes and digests of the table the Python adapter built before
        // the table moved here (its ids were the place of each action in
        // the words, then in the generator's plays of the whole deck): a
        // model trained on these ids must keep meaning the same actions.
        let want = [
            ("classic", 29_747, 0xa4b9_828b_92ea_2c21),
            ("two-player", 29_755, 0xff47_5a4c_39ad_9e05),
            ("laizi", 555_471, 0x3aef_ad46_c480_f212),
        ];
        for (preset, size, sum) in want {
            let t = table(preset);
            assert_eq!(t.len(), size, "{preset}");
            assert_eq!(t.action(0), Some(Action::Pass));
            assert_eq!(t.action(3), Some(Action::Bid(3)));
            assert_eq!(t.action(21).unwrap().to_string(), "3", "{preset}");
            assert_eq!(digest(&t), sum, "{preset}");
        }
    }

    #[test]
    fn every_id_reads_back_and_every_legal_action_has_one() {
        use crate::table::{Rng, Table};
        use std::sync::Arc;
        for preset in PRESETS {
            let engine = Arc::new(Engine::new(Rules::preset(preset).unwrap()).unwrap());
            let t = ActionTable::new(&engine);
            for id in 0..t.len() {
                let a = t.action(id).unwrap();
                assert_eq!(t.id(&a), Some(id as u32), "{preset} {a}");
            }
            assert_eq!(t.action(t.len()), None);
            let mut table = Table::seeded(engine.clone(), 3, 0).unwrap();
            let mut rng = Rng(6);
            for game in 0..20 {
                table.restart(Rng::for_game(2, game));
                while !table.is_over() {
                    let legal = table.legal_unordered();
                    for a in legal.iter() {
                        assert!(t.id(&a).is_some(), "{preset}: {a} has no id");
                    }
                    table.apply_unordered(rng.below(legal.len()));
                }
            }
        }
    }
}
