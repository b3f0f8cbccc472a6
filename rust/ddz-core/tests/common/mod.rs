//! Helpers shared by the integration tests: a seeded RNG, random hands, and
//! the brute-force oracle.
#![allow(dead_code)]

use ddz_core::{Cards, Engine, Move, Rules};
use std::collections::HashSet;

/// SplitMix64: a tiny seeded generator so tests need no extra crates.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

pub fn engine(preset: &str) -> Engine {
    Engine::new(Rules::preset(preset).unwrap()).unwrap()
}

pub fn cards(text: &str) -> Cards {
    Cards::parse(text).unwrap()
}

/// The full deck of a rule set as a list of slots.
pub fn deck(e: &Engine) -> Vec<usize> {
    let mut d = Vec::new();
    for slot in 0..16 {
        for _ in 0..e.rules().copies(slot) {
            d.push(slot);
        }
    }
    d
}

/// Hands of the given sizes dealt from one shuffled deck of the rule set.
pub fn deal_hands(e: &Engine, rng: &mut Rng, sizes: &[usize]) -> Vec<Cards> {
    let mut deck = deck(e);
    sizes
        .iter()
        .map(|&n| {
            let mut h = Cards::EMPTY;
            for _ in 0..n {
                let i = (rng.next() % deck.len() as u64) as usize;
                h.0[deck.swap_remove(i)] += 1;
            }
            h
        })
        .collect()
}

/// `n` cards drawn without replacement from the rule set's deck.
pub fn random_hand(e: &Engine, rng: &mut Rng, n: usize) -> Cards {
    let mut d = deck(e);
    let mut hand = Cards::EMPTY;
    for _ in 0..n.min(d.len()) {
        let i = rng.below(d.len());
        hand.0[d.swap_remove(i)] += 1;
    }
    hand
}

/// Every non-empty sub-multiset of `hand`.
pub fn sub_hands(hand: &Cards) -> Vec<Cards> {
    let mut out = vec![Cards::EMPTY];
    for slot in 0..16 {
        let have = hand.get(slot);
        if have == 0 {
            continue;
        }
        let mut grown = Vec::with_capacity(out.len() * (have as usize + 1));
        for c in &out {
            for k in 0..=have {
                let mut next = *c;
                next.0[slot] = k;
                grown.push(next);
            }
        }
        out = grown;
    }
    out.retain(|c| !c.is_empty());
    out
}

/// Every reading of every sub-multiset of `hand`: the oracle's lead set.
/// Laizi alone are a play only when the hand holds nothing else (docs/rules.md#laizi).
pub fn oracle_leads(e: &Engine, hand: &Cards) -> Vec<Move> {
    let all_laizi = hand.len() == hand.get(15) as usize;
    sub_hands(hand)
        .iter()
        .filter(|c| all_laizi || c.len() > c.get(15) as usize)
        .flat_map(|c| e.classify(c))
        .collect()
}

/// Check the generator against the oracle for a lead and for follows of
/// `prevs`; returns a description of the first difference.
pub fn check_against_oracle(e: &Engine, hand: &Cards, prevs: &[Move]) -> Result<(), String> {
    let all = oracle_leads(e, hand);
    check_is_reading(e, &all)?;
    compare(e, hand, None, all.clone())?;
    for prev in prevs {
        let want: Vec<Move> = all.iter().copied().filter(|m| e.beats(m, prev)).collect();
        compare(e, hand, Some(prev), want)?;
    }
    Ok(())
}

fn compare(e: &Engine, hand: &Cards, prev: Option<&Move>, want: Vec<Move>) -> Result<(), String> {
    let got = e.moves(hand, prev);
    let got_set: HashSet<Move> = got.iter().copied().collect();
    let want_set: HashSet<Move> = want.iter().copied().collect();
    let ctx = || {
        format!(
            "hand {hand} prev {:?}",
            prev.map(|p| (p.to_string(), p.kind))
        )
    };
    if got_set.len() != got.len() {
        return Err(format!("{}: duplicate moves generated", ctx()));
    }
    if want_set.len() != want.len() {
        return Err(format!("{}: oracle produced duplicates", ctx()));
    }
    if let Some(m) = got_set.difference(&want_set).next() {
        return Err(format!(
            "{}: generated but not in oracle: {m} {:?}",
            ctx(),
            m
        ));
    }
    if let Some(m) = want_set.difference(&got_set).next() {
        return Err(format!("{}: missing from generator: {m} {:?}", ctx(), m));
    }
    let counted = e.count_moves(hand, prev);
    if counted != got.len() as u64 {
        return Err(format!("{}: count_moves {counted} != {}", ctx(), got.len()));
    }
    Ok(())
}

/// `is_reading` (the targeted check) agrees with `classify` on every reading
/// and on each reading with its kind, rank or length changed.
fn check_is_reading(e: &Engine, readings: &[Move]) -> Result<(), String> {
    use ddz_core::Kind;
    for m in readings {
        if !e.is_reading(m) {
            return Err(format!("is_reading rejects {m} {m:?}"));
        }
        let all = e.classify(&m.cards);
        let mut mutants = vec![
            Move {
                rank: (m.rank + 1) % 15,
                ..*m
            },
            Move {
                length: m.length + 1,
                ..*m
            },
            Move {
                length: m.length.saturating_sub(1),
                ..*m
            },
        ];
        for kind in Kind::ALL {
            mutants.push(Move { kind, ..*m });
        }
        for x in mutants {
            if e.is_reading(&x) != all.contains(&x) {
                return Err(format!("is_reading disagrees with classify on {x:?}"));
            }
        }
    }
    Ok(())
}
