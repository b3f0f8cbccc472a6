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
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// Every decision of one rule set, numbered.
#[derive(Clone, Debug)]
pub struct ActionTable {
    /// The plays by id (their id is `WORDS.len()` + the place here).
    plays: Vec<Move>,
    ids: HashMap<PlayKey, u32, BuildHasherDefault<KeyHasher>>,
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
        // A hand of laizi alone may lead them (`L=3`, `LL=33`), which no
        // hand holding a natural card can: numbered after the rest, so
        // that every earlier id keeps its meaning.
        for k in 1..=rules.laizi {
            let mut alone = [0; SLOTS];
            alone[15] = k;
            for m in engine.moves(&Cards(alone), None) {
                if m.cards.len() <= hold && !plays.contains(&m) {
                    plays.push(m);
                }
            }
        }
        let ids = plays
            .iter()
            .enumerate()
            .map(|(i, m)| (PlayKey::of(m), (WORDS.len() + i) as u32))
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
        self.ids.get(&PlayKey::of(m)).copied()
    }

    /// The decision id `id` stands for.
    pub fn action(&self, id: usize) -> Option<Action> {
        match id.checked_sub(WORDS.len()) {
            None => Some(WORDS[id].1),
            Some(i) => self.plays.get(i).map(|&m| Action::Play(m)),
        }
    }
}

/// A play as the table looks it up (a lookup per legal action per step):
/// its cards and represents as integers and its reading in one word,
/// hashed by a few multiplications (`Hash` below) rather than byte by byte.
/// Lookups only, of keys the table made itself: no defence against
/// chosen keys is needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PlayKey {
    cards: u128,
    represents: u128,
    reading: u32,
}

impl PlayKey {
    #[inline]
    fn of(m: &Move) -> PlayKey {
        PlayKey {
            cards: u128::from_le_bytes(m.cards.0),
            represents: u128::from_le_bytes(m.represents.0),
            reading: u32::from(m.kind as u8) | u32::from(m.rank) << 8 | u32::from(m.length) << 16,
        }
    }
}

impl Hash for PlayKey {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        const K: [u64; 3] = [
            0x9E37_79B9_7F4A_7C15,
            0xC2B2_AE3D_27D4_EB4F,
            0x1656_67B1_9E37_79F9,
        ];
        let fold = |x: u128| (x as u64) ^ ((x >> 64) as u64).rotate_left(29);
        let x = fold(self.cards).wrapping_mul(K[0])
            ^ fold(self.represents).wrapping_mul(K[1]).rotate_left(31)
            ^ u64::from(self.reading).wrapping_mul(K[2]);
        state.write_u64((x ^ (x >> 29)).wrapping_mul(K[0]) ^ (x >> 32));
    }
}

/// Takes the one word `PlayKey` hashes to as the hash.
#[derive(Default, Clone, Copy)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, _: &[u8]) {
        unreachable!("a PlayKey hashes to one word");
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = i;
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

    /// FxHash's step over eight bytes at a time (the tail zero-padded).
    #[derive(Default)]
    struct Digest(u64);

    impl Digest {
        fn write(&mut self, bytes: &[u8]) {
            let mut chunks = bytes.chunks_exact(8);
            for c in &mut chunks {
                self.add(u64::from_le_bytes(c.try_into().unwrap()));
            }
            let mut rest = [0u8; 8];
            rest[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
            self.add(u64::from_le_bytes(rest));
        }

        fn add(&mut self, word: u64) {
            self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
        }

        fn finish(&self) -> u64 {
            self.0
        }
    }

    /// A digest of the numbering of ids `0..ids`: each id's kind, rank,
    /// length, cards and represents, in id order.
    fn digest(t: &ActionTable, ids: usize) -> u64 {
        let mut h = Digest::default();
        for id in 0..ids {
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
        // Laizi's table has two ids more: `L=3` and `LL=33`, which a hand
        // of laizi alone leads, were missing (the adapter failed on them).
        let want = [
            ("classic", 29_747, 29_747, 0xa4b9_828b_92ea_2c21),
            ("two-player", 29_755, 29_755, 0xff47_5a4c_39ad_9e05),
            ("laizi", 555_471, 555_473, 0x3aef_ad46_c480_f212),
        ];
        for (preset, kept, size, sum) in want {
            let t = table(preset);
            assert_eq!(t.len(), size, "{preset}");
            assert_eq!(t.action(0), Some(Action::Pass));
            assert_eq!(t.action(3), Some(Action::Bid(3)));
            assert_eq!(t.action(21).unwrap().to_string(), "3", "{preset}");
            assert_eq!(digest(&t, kept), sum, "{preset}");
        }
        let laizi = table("laizi");
        let added: Vec<String> = (555_471..555_473)
            .map(|i| laizi.action(i).unwrap().to_string())
            .collect();
        assert_eq!(added, ["L=3", "LL=33"]);
    }

    #[test]
    fn every_play_of_any_hand_has_an_id() {
        // Random hands of every size a seat can hold, leading and following
        // random plays: every legal play is numbered.
        use proptest::prelude::*;
        use proptest::test_runner::{Config, TestRunner};
        for preset in PRESETS {
            let engine = Engine::new(Rules::preset(preset).unwrap()).unwrap();
            let t = ActionTable::new(&engine);
            let rules = engine.rules();
            let hold = rules.hand_size as usize + rules.kitty as usize;
            let deck: Vec<usize> = (0..SLOTS)
                .flat_map(|s| std::iter::repeat_n(s, rules.copies(s) as usize))
                .collect();
            let cards = proptest::sample::subsequence(deck.clone(), 1..=hold.min(deck.len()));
            // Hands of jokers and laizi alone, every one (the rare hands
            // whose plays a hand of natural cards cannot make).
            for x in 0..=rules.decks {
                for d in 0..=rules.decks {
                    for l in 0..=rules.laizi {
                        let mut hand = [0u8; SLOTS];
                        (hand[13], hand[14], hand[15]) = (x, d, l);
                        for m in engine.moves(&Cards(hand), None) {
                            assert!(t.play_id(&m).is_some(), "{preset}: lead {m}");
                        }
                    }
                }
            }
            let mut runner = TestRunner::new(Config::with_cases(150));
            runner
                .run(&(cards, any::<u64>()), |(picked, seed)| {
                    let mut hand = [0u8; SLOTS];
                    picked.iter().for_each(|&s| hand[s] += 1);
                    let hand = Cards(hand);
                    let leads = engine.moves(&hand, None);
                    for m in &leads {
                        prop_assert!(t.play_id(m).is_some(), "{preset}: lead {m}");
                    }
                    let prev = t.plays[seed as usize % t.plays.len()];
                    for m in engine.moves(&hand, Some(&prev)) {
                        prop_assert!(t.play_id(&m).is_some(), "{preset}: {m} on {prev}");
                    }
                    Ok(())
                })
                .unwrap();
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
