//! Counting leads without walking the kind specs.
//!
//! When no rank holds more than four cards and there is no laizi, a lead's
//! plays of every kind are a closed form over the rank masks (ranks with
//! at least 1, 2, 3, 4 cards): bodies are set bits or chain windows, and
//! the wings of a body depend only on how many eligible ranks hold one,
//! two or three cards. The engine takes this path only under rules where
//! that holds (classic link order, free plane wings, no five-joker
//! trio_pair); everything else is counted by the walk in `generate.rs`,
//! which the tests compare it against.

use crate::cards::{Cards, BIG_JOKER, LAIZI, SMALL_JOKER, TWO};
use crate::engine::Engine;
use crate::generate::{JOKERS, ORDINARY_SLOTS, SINGLE_SLOTS};
use crate::rules::{Rules, Sequences};

/// Link positions under classic sequences: `3 … A`, position = rank.
const LINKS: u32 = (1 << TWO) - 1;

/// Can this rule set count leads in closed form (for hands of at most four a rank)?
pub(crate) fn closed_leads(rules: &Rules) -> bool {
    rules.sequences == Sequences::Classic && !rules.wings_consecutive && !rules.joker_trio_pair
}

/// `within[small][big]`: how many of the rule set's king bombs a hand
/// holding `small` and `big` jokers can play (counts up to 4).
pub(crate) fn king_bombs_within(rules: &Rules) -> [[u8; 5]; 5] {
    let mut within = [[0u8; 5]; 5];
    for (small, row) in within.iter_mut().enumerate() {
        for (big, n) in row.iter_mut().enumerate() {
            *n = rules
                .king_bombs
                .iter()
                .filter(|k| k.small as usize <= small && k.big as usize <= big)
                .count() as u8;
        }
    }
    within
}

/// Number of windows of `lo` or more links inside the runs of `positions`.
#[inline]
fn windows(positions: u32, lo: u32) -> u64 {
    // `starts`: bit p when positions p .. p+links-1 are all set.
    let mut starts = positions;
    for _ in 1..lo {
        starts &= starts >> 1;
    }
    let mut total = 0;
    while starts != 0 {
        total += starts.count_ones() as u64;
        starts &= starts >> 1;
    }
    total
}

#[inline]
fn choose2(n: u64) -> u64 {
    n * n.saturating_sub(1) / 2
}

impl Engine {
    /// `count_moves(hand, None)` in closed form; None when the hand (a
    /// laizi, five or more of a rank) or the rules need the walk.
    #[inline]
    pub(crate) fn count_leads_closed(&self, hand: &Cards) -> Option<u64> {
        if !self.closed_leads || hand.get(LAIZI) > 0 || hand.mask_at_least(5) != 0 {
            return None;
        }
        let a1 = hand.mask_at_least(1);
        let a2 = hand.mask_at_least(2);
        let a3 = hand.mask_at_least(3);
        let a4 = hand.mask_at_least(4);
        let rules = self.rules();
        // Ranks with a single / two cards (kicker slots), pair slots, trios, fours.
        let c1 = (a1 & SINGLE_SLOTS).count_ones() as u64;
        let d2 = (a2 & SINGLE_SLOTS).count_ones() as u64;
        let p = (a2 & self.pair_slots).count_ones() as u64;
        let t = (a3 & ORDINARY_SLOTS).count_ones() as u64;
        let f = (a4 & ORDINARY_SLOTS).count_ones() as u64;
        // Two single kickers may not be X and D together unless the rules allow it.
        let rocket = (!rules.rocket_as_kickers && a1 & JOKERS == JOKERS) as u64;
        // Two single kickers from `e` ranks, `doubles` of which hold two or more.
        let two_singles = |e: u64, doubles: u64| choose2(e) + doubles - rocket;

        let mut n = c1 + p + t;
        if t > 0 {
            // Trio bodies lie in every kicker mask, so each removes one rank.
            n += t * (p - 1);
            if rules.trio_single {
                n += t * (c1 - 1);
            }
        }
        n += windows(a1 & LINKS, 5) + windows(a2 & LINKS, 3);
        // Trio chains of 2+ links: bare, with pairs, with singles.
        let trios = a3 & LINKS;
        let mut starts = trios & (trios >> 1);
        let mut links = 2u64;
        while starts != 0 {
            let k = starts.count_ones() as u64;
            n += k + k * binomial(p - links, links);
            if rules.plane_singles {
                n += if links == 2 {
                    // The same for every window: both body ranks hold three or more.
                    k * two_singles(c1 - 2, d2 - 2)
                } else {
                    self.plane_single_wings(hand, a1, a2, starts, links as usize)
                };
            }
            links += 1;
            starts &= starts >> 1;
        }
        if f > 0 {
            if rules.four_two_singles {
                n += f * two_singles(c1 - 1, d2 - 1);
            }
            if rules.four_two_pairs {
                n += f * binomial(p - 1, 2);
            }
        }
        let small = hand.get(SMALL_JOKER) as usize;
        let big = hand.get(BIG_JOKER) as usize;
        Some(n + f + self.king_bombs_within[small][big] as u64)
    }

    /// Single wings of every plane window of `links` links starting at a bit of `starts`.
    #[cold]
    fn plane_single_wings(&self, hand: &Cards, a1: u32, a2: u32, starts: u32, links: usize) -> u64 {
        let no_rocket = !self.rules().rocket_as_kickers;
        let mut total = 0;
        let mut m = starts;
        while m != 0 {
            let start = m.trailing_zeros();
            m &= m - 1;
            let body = ((1u32 << links) - 1) << start;
            let eligible = a1 & SINGLE_SLOTS & !body;
            total += self.count_single_wings(hand, a2, eligible, links, no_rocket);
        }
        total
    }
}

pub(crate) fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let mut r = 1u64;
    for i in 0..k {
        r = r * (n - i) / (i + 1);
    }
    r
}
