//! Counting plays without walking the kind specs.
//!
//! When no rank holds more than four cards and there is no laizi, the
//! plays of every kind (a lead's, or the answers to a play) are a closed
//! form over the rank masks (ranks with at least 1, 2, 3, 4 cards):
//! bodies are set bits or chain windows (masked above the play to beat), and
//! the wings of a body depend only on how many eligible ranks hold one,
//! two or three cards. The engine takes this path only under rules where
//! that holds (classic link order, free plane wings, no five-joker
//! trio_pair); everything else is counted by the walk in `generate.rs`,
//! which the tests compare it against.
//!
//! Which kinds exist, and their shapes, are the engine's `specs` alone:
//! every count below asks `Engine::has_kind`, and `closed_counts` turns
//! the closed form off for a rule set with a spec whose shape it does not
//! count (`SHAPES`), so a kind added or changed in `engine.rs` is walked
//! rather than miscounted.

use crate::cards::{Cards, BIG_JOKER, LAIZI, SMALL_JOKER, TWO};
use crate::engine::{Engine, Spec, Wing};
use crate::generate::{Target, JOKERS, ORDINARY_SLOTS, SINGLE_SLOTS};
use crate::play::Kind;
use crate::rules::{Rules, Sequences};

/// Link positions under classic sequences: `3 … A`, position = rank.
const LINKS: u32 = (1 << TWO) - 1;

/// The kind shapes the closed form counts: kind, group, fewest links,
/// chain or not, wing and wings per link. A spec of another shape (or a
/// kind not listed) sends its rule set to the walk.
const SHAPES: [(Kind, u8, u8, bool, Wing, u8); 12] = [
    (Kind::Single, 1, 1, false, Wing::None, 0),
    (Kind::Pair, 2, 1, false, Wing::None, 0),
    (Kind::Trio, 3, 1, false, Wing::None, 0),
    (Kind::TrioSingle, 3, 1, false, Wing::Single, 1),
    (Kind::TrioPair, 3, 1, false, Wing::Pair, 1),
    (Kind::Straight, 1, 5, true, Wing::None, 0),
    (Kind::PairStraight, 2, 3, true, Wing::None, 0),
    (Kind::TrioStraight, 3, 2, true, Wing::None, 0),
    (Kind::PlaneSingles, 3, 2, true, Wing::Single, 1),
    (Kind::PlanePairs, 3, 2, true, Wing::Pair, 1),
    (Kind::FourTwoSingles, 4, 1, false, Wing::Single, 2),
    (Kind::FourTwoPairs, 4, 1, false, Wing::Pair, 2),
];

/// Is `spec` a shape the closed form counts?
fn counted_shape(spec: &Spec) -> bool {
    SHAPES
        .iter()
        .any(|&(kind, group, min_links, chain, wing, per_link)| {
            spec.kind == kind
                && spec.group == group
                && spec.min_links == min_links
                && spec.is_chain() == chain
                && spec.wing == wing
                && spec.wings_per_link == per_link
                && !spec.consecutive_wings
        })
}

/// Can this rule set count plays in closed form (for hands of at most four a rank)?
pub(crate) fn closed_counts(rules: &Rules, specs: &[Spec]) -> bool {
    rules.sequences == Sequences::Classic
        && !rules.wings_consecutive
        && !rules.joker_trio_pair
        && specs.iter().all(counted_shape)
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

/// The rank masks and kicker tallies every closed form reads.
struct Profile {
    a1: u32,
    a2: u32,
    a3: u32,
    a4: u32,
    /// Ranks that can be a single kicker / two single kickers / a pair.
    c1: u64,
    d2: u64,
    p: u64,
    /// 1 when X and D may not be kickers together and the hand holds both.
    rocket: u64,
}

impl Profile {
    /// Two single kickers from `e` ranks, `doubles` of which hold two or more.
    #[inline]
    fn two_singles(&self, e: u64, doubles: u64) -> u64 {
        choose2(e) + doubles - self.rocket
    }

    /// Plays of `bodies` trios (or fours) of `kind`, with the kickers it takes.
    #[inline]
    fn winged_one_link(&self, kind: Kind, bodies: u64) -> u64 {
        if bodies == 0 {
            return 0; // the tallies below may be 0 too
        }
        // Each body's rank lies in every kicker mask, so it removes one rank.
        match kind {
            Kind::TrioSingle => bodies * (self.c1 - 1),
            Kind::TrioPair => bodies * (self.p - 1),
            Kind::FourTwoSingles => bodies * self.two_singles(self.c1 - 1, self.d2 - 1),
            Kind::FourTwoPairs => bodies * binomial(self.p - 1, 2),
            _ => bodies, // a bare trio
        }
    }
}

/// Bits `from..32`.
#[inline]
fn from_bit(from: u32) -> u32 {
    u32::MAX.checked_shl(from).unwrap_or(0)
}

/// Window starts of exactly `links` links inside `positions`.
#[inline]
fn starts_of(positions: u32, links: u32) -> u32 {
    let mut starts = positions;
    for _ in 1..links {
        starts &= starts >> 1;
    }
    starts
}

impl Engine {
    /// `count_moves` in closed form; None when the hand (a laizi, five or
    /// more of a rank) or the rules need the walk.
    #[inline]
    pub(crate) fn count_closed(&self, hand: &Cards, target: Target) -> Option<u64> {
        if !self.closed_counts || hand.get(LAIZI) > 0 || hand.mask_at_least(5) != 0 {
            return None;
        }
        let a1 = hand.mask_at_least(1);
        let a2 = hand.mask_at_least(2);
        let a3 = hand.mask_at_least(3);
        let a4 = hand.mask_at_least(4);
        let h = Profile {
            a1,
            a2,
            a3,
            a4,
            c1: (a1 & SINGLE_SLOTS).count_ones() as u64,
            d2: (a2 & SINGLE_SLOTS).count_ones() as u64,
            p: (a2 & self.pair_slots).count_ones() as u64,
            rocket: (!self.rules().rocket_as_kickers && a1 & JOKERS == JOKERS) as u64,
        };
        let fours = a4 & ORDINARY_SLOTS;
        let small = hand.get(SMALL_JOKER) as usize;
        let big = hand.get(BIG_JOKER) as usize;
        // Every bomb answers a lead or a non-bomb play (at most four a rank: one bomb each).
        let bombs = fours.count_ones() as u64 + self.king_bombs_within[small][big] as u64;
        Some(match target {
            Target::Lead => self.count_leads(hand, &h) + bombs,
            Target::Play {
                kind,
                length,
                strength,
            } => self.count_answers(hand, &h, kind, length as u32, strength as u32) + bombs,
            Target::Bomb { power } => {
                let mut n = 0;
                let mut m = fours;
                while m != 0 {
                    let r = m.trailing_zeros();
                    m &= m - 1;
                    n += (self.rank_bomb_power(r as u8, 4, false) > power) as u64;
                }
                n + self.king_bomb_moves(hand, power).count() as u64
            }
        })
    }

    /// Every non-bomb lead.
    fn count_leads(&self, hand: &Cards, h: &Profile) -> u64 {
        let has = |kind| self.has_kind(kind);
        let trios = (h.a3 & ORDINARY_SLOTS).count_ones() as u64;
        let fours = (h.a4 & ORDINARY_SLOTS).count_ones() as u64;
        let mut n = 0;
        if has(Kind::Single) {
            n += h.c1;
        }
        if has(Kind::Pair) {
            n += h.p;
        }
        for kind in [Kind::Trio, Kind::TrioSingle, Kind::TrioPair] {
            if has(kind) {
                n += h.winged_one_link(kind, trios);
            }
        }
        if has(Kind::Straight) {
            n += windows(h.a1 & LINKS, 5);
        }
        if has(Kind::PairStraight) {
            n += windows(h.a2 & LINKS, 3);
        }
        // Trio chains of 2+ links: bare, with singles, with pairs.
        let chain = h.a3 & LINKS;
        let mut starts = chain & (chain >> 1);
        let mut links = 2;
        while starts != 0 {
            for kind in [Kind::TrioStraight, Kind::PlaneSingles, Kind::PlanePairs] {
                if has(kind) {
                    n += self.count_chains(hand, h, kind, starts, links);
                }
            }
            links += 1;
            starts &= starts >> 1;
        }
        for kind in [Kind::FourTwoSingles, Kind::FourTwoPairs] {
            if has(kind) {
                n += h.winged_one_link(kind, fours);
            }
        }
        n
    }

    /// Every non-bomb play of `kind` and `length` stronger than `strength`.
    fn count_answers(
        &self,
        hand: &Cards,
        h: &Profile,
        kind: Kind,
        length: u32,
        strength: u32,
    ) -> u64 {
        if !self.has_kind(kind) {
            return 0;
        }
        if kind.is_sequence() {
            if length == 0 {
                return 0; // as the walk: no window has no links
            }
            // Under classic links a chain's strength is its top rank.
            let positions = match kind {
                Kind::Straight => h.a1,
                Kind::PairStraight => h.a2,
                _ => h.a3,
            } & LINKS;
            // top = start + length - 1 must exceed `strength`.
            let starts =
                starts_of(positions, length) & from_bit((strength + 2).saturating_sub(length));
            return self.count_chains(hand, h, kind, starts, length as u64);
        }
        let above = from_bit(strength + 1);
        let bodies = |mask: u32| (mask & above).count_ones() as u64;
        match kind {
            Kind::Single => bodies(h.a1 & SINGLE_SLOTS),
            Kind::Pair => bodies(h.a2 & self.pair_slots),
            Kind::FourTwoSingles | Kind::FourTwoPairs => {
                h.winged_one_link(kind, bodies(h.a4 & ORDINARY_SLOTS))
            }
            Kind::Trio | Kind::TrioSingle | Kind::TrioPair => {
                h.winged_one_link(kind, bodies(h.a3 & ORDINARY_SLOTS))
            }
            _ => 0, // bombs are no `Target::Play`
        }
    }

    /// Plays of `kind` on the chain windows of `links` links starting at the bits of `starts`.
    #[inline]
    fn count_chains(&self, hand: &Cards, h: &Profile, kind: Kind, starts: u32, links: u64) -> u64 {
        let k = starts.count_ones() as u64;
        if k == 0 {
            return 0;
        }
        match kind {
            // Plane bodies lie in every kicker mask, so each removes `links` ranks.
            Kind::PlanePairs => k * binomial(h.p - links, links),
            // The same for every window: both body ranks hold three or more.
            Kind::PlaneSingles if links == 2 => k * h.two_singles(h.c1 - 2, h.d2 - 2),
            Kind::PlaneSingles => self.plane_single_wings(hand, h, starts, links as usize),
            _ => k,
        }
    }

    /// Single wings of every plane window of `links` links starting at a bit of `starts`.
    #[cold]
    fn plane_single_wings(&self, hand: &Cards, h: &Profile, starts: u32, links: usize) -> u64 {
        let no_rocket = !self.rules().rocket_as_kickers;
        let mut total = 0;
        let mut m = starts;
        while m != 0 {
            let start = m.trailing_zeros();
            m &= m - 1;
            let body = ((1u32 << links) - 1) << start;
            let eligible = h.a1 & SINGLE_SLOTS & !body;
            total += self.count_single_wings(hand, h.a2, eligible, links, no_rocket);
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
