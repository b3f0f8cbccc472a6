//! Move generation: one walk over the kind specs serves leads, follows,
//! listing and counting.
//!
//! A body is a chain window (or one rank) of groups; wings are enumerated as
//! multisets over ranks, never as combinations of physical cards, and counted
//! without enumeration (a small polynomial product) when only the number of
//! plays is wanted.

use crate::cards::{Cards, BIG_JOKER, LAIZI, SMALL_JOKER, TWO};
use crate::count::binomial;
use crate::engine::{Engine, Spec, Wing};
use crate::play::{Kind, Move};

/// Where generated plays go: a list or a counter.
pub trait Sink {
    /// When true, wings are counted with `add` instead of pushed one by one.
    const COUNTING: bool;
    fn push(&mut self, m: Move);
    fn add(&mut self, n: u64);
    /// True once the sink wants no more plays: the walk then stops early
    /// (checked between bodies, so a few more plays may still arrive).
    #[inline]
    fn done(&self) -> bool {
        false
    }
}

/// Stops at the first play: "can this hand answer at all?".
#[derive(Default)]
pub struct Exists(pub bool);

impl Sink for Exists {
    const COUNTING: bool = true;
    #[inline]
    fn push(&mut self, _m: Move) {
        self.0 = true;
    }
    #[inline]
    fn add(&mut self, n: u64) {
        self.0 |= n > 0;
    }
    #[inline]
    fn done(&self) -> bool {
        self.0
    }
}

/// Stops at the first play `keep` accepts ("does this hand hold such a play?").
struct FirstWhere<F: Fn(&Move) -> bool> {
    keep: F,
    found: bool,
}

impl<F: Fn(&Move) -> bool> Sink for FirstWhere<F> {
    const COUNTING: bool = false;
    #[inline]
    fn push(&mut self, m: Move) {
        self.found |= (self.keep)(&m);
    }
    #[inline]
    fn add(&mut self, _n: u64) {}
    #[inline]
    fn done(&self) -> bool {
        self.found
    }
}

impl Sink for Vec<Move> {
    const COUNTING: bool = false;
    #[inline]
    fn push(&mut self, m: Move) {
        Vec::push(self, m);
    }
    #[inline]
    fn add(&mut self, _n: u64) {}
}

/// Counts plays without building them.
#[derive(Default)]
pub struct Counter(pub u64);

impl Sink for Counter {
    const COUNTING: bool = true;
    #[inline]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline]
    fn add(&mut self, n: u64) {
        self.0 += n;
    }
}

/// Ranks that can be single kickers: every ordinary rank and both jokers.
pub(crate) const SINGLE_SLOTS: u32 = (1 << (BIG_JOKER + 1)) - 1;
pub(crate) const ORDINARY_SLOTS: u32 = (1 << (TWO + 1)) - 1;
pub(crate) const JOKERS: u32 = (1 << SMALL_JOKER) | (1 << BIG_JOKER);

/// What a follow must beat: the play-to-beat value of a play, all that the
/// next answer depends on (two plays with the same target have the same
/// answers). `Engine::to_beat` computes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A lead: every play.
    Lead,
    /// Same kind and length, stronger; or any bomb.
    Play {
        kind: Kind,
        length: u8,
        strength: u8,
    },
    /// Only stronger bombs.
    Bomb { power: u16 },
}

impl Target {
    #[inline]
    pub fn of(engine: &Engine, prev: Option<&Move>) -> Target {
        match prev {
            None => Target::Lead,
            Some(p) if p.kind.is_bomb() => Target::Bomb {
                power: engine.power(p),
            },
            Some(p) => Target::Play {
                kind: p.kind,
                length: p.length,
                strength: engine.strength(p.kind, p.rank, p.length),
            },
        }
    }

    /// A compact key, unique per target: 0 for a lead.
    pub fn key(self) -> u32 {
        match self {
            Target::Lead => 0,
            Target::Play {
                kind,
                length,
                strength,
            } => 1 << 24 | (kind as u32) << 16 | (length as u32) << 8 | strength as u32,
            Target::Bomb { power } => 2 << 24 | power as u32,
        }
    }

    pub fn is_lead(self) -> bool {
        matches!(self, Target::Lead)
    }

    /// Bombs must beat this power (0: every bomb).
    pub(crate) fn min_power(self) -> u16 {
        match self {
            Target::Bomb { power } => power,
            _ => 0,
        }
    }

    /// Does `m` answer this target? (Used where plays are not walked in order.)
    pub fn admits(self, engine: &Engine, m: &Move) -> bool {
        match self {
            Target::Lead => true,
            Target::Bomb { power } => m.kind.is_bomb() && engine.power(m) > power,
            Target::Play {
                kind,
                length,
                strength,
            } => {
                m.kind.is_bomb()
                    || m.kind == kind
                        && m.length == length
                        && engine.strength(m.kind, m.rank, m.length) > strength
            }
        }
    }
}

struct Walk<'a, S: Sink> {
    engine: &'a Engine,
    hand: Cards,
    /// `at_least[g]`: bit per rank holding `g` or more cards (g = 1..=4).
    at_least: [u32; 5],
    size: usize,
    sink: &'a mut S,
}

impl Engine {
    /// Every distinct legal play from `hand` (a lead when `prev` is None,
    /// else every play that beats `prev`), into `out` (cleared first).
    #[inline]
    pub fn moves_into(&self, hand: &Cards, prev: Option<&Move>, out: &mut Vec<Move>) {
        out.clear();
        self.generate(hand, prev, out);
    }

    pub fn moves(&self, hand: &Cards, prev: Option<&Move>) -> Vec<Move> {
        let mut out = Vec::new();
        self.generate(hand, prev, &mut out);
        out
    }

    /// `moves(hand, prev).len()` without building the plays.
    pub fn count_moves(&self, hand: &Cards, prev: Option<&Move>) -> u64 {
        let target = Target::of(self, prev);
        if let Some(n) = self.count_closed(hand, target) {
            return n;
        }
        let mut counter = Counter::default();
        self.generate_target(hand, target, &mut counter);
        counter.0
    }

    /// The plays of `moves`, in the order a game UI suggests them.
    pub fn hint(&self, hand: &Cards, prev: Option<&Move>) -> Vec<Move> {
        let mut plays = self.moves(hand, prev);
        plays.sort_by_cached_key(|m| self.hint_key(m));
        plays
    }

    /// The play-to-beat value `m` sets for the next seat.
    pub fn to_beat(&self, m: &Move) -> Target {
        Target::of(self, Some(m))
    }

    /// Can `hand` answer `prev` (lead: any play) at all? Stops at the first answer.
    pub fn can_answer(&self, hand: &Cards, prev: Option<&Move>) -> bool {
        self.can_answer_target(hand, Target::of(self, prev))
    }

    /// Can `hand` answer `prev` (lead: any play) with a play `keep`
    /// accepts? Stops at the first.
    pub fn can_answer_with(
        &self,
        hand: &Cards,
        prev: Option<&Move>,
        keep: impl Fn(&Move) -> bool,
    ) -> bool {
        let mut found = FirstWhere { keep, found: false };
        self.generate(hand, prev, &mut found);
        found.found
    }

    /// `can_answer` for a play-to-beat value.
    pub fn can_answer_target(&self, hand: &Cards, target: Target) -> bool {
        let mut found = Exists::default();
        self.generate_target(hand, target, &mut found);
        found.0
    }

    /// Walk every play of `hand` answering `prev` into `sink`.
    pub fn generate<S: Sink>(&self, hand: &Cards, prev: Option<&Move>, sink: &mut S) {
        self.generate_target(hand, Target::of(self, prev), sink);
    }

    /// Walk every play of `hand` answering a play-to-beat value into `sink`.
    pub fn generate_target<S: Sink>(&self, hand: &Cards, target: Target, sink: &mut S) {
        if hand.get(LAIZI) > 0 {
            self.generate_laizi(hand, target, sink);
            return;
        }
        let mut at_least = [0u32; 5];
        for (g, mask) in at_least.iter_mut().enumerate().skip(1) {
            *mask = hand.mask_at_least(g as u8);
        }
        let mut walk = Walk {
            engine: self,
            hand: *hand,
            at_least,
            size: hand.len(),
            sink,
        };
        let min_power = target.min_power();
        match target {
            Target::Lead => {
                for spec in &self.specs {
                    walk.spec(spec, None, 0);
                    if walk.sink.done() {
                        return;
                    }
                }
                walk.joker_trio_pair(None);
            }
            Target::Play {
                kind,
                length,
                strength,
            } => {
                if let Some(spec) = self.specs.iter().find(|s| s.kind == kind) {
                    walk.spec(spec, Some(length), strength);
                }
                if kind == Kind::TrioPair {
                    walk.joker_trio_pair(Some(strength));
                }
            }
            Target::Bomb { .. } => {}
        }
        if !walk.sink.done() {
            walk.bombs(min_power);
        }
    }
}

impl<S: Sink> Walk<'_, S> {
    /// Every body of `spec` (of `length` links only, when following) stronger than `above`.
    #[inline(always)] // one copy for leads, one for follows: leads fold `length` away
    fn spec(&mut self, spec: &Spec, length: Option<u8>, above: u8) {
        let following = length.is_some();
        let g = spec.group;
        let have = self.at_least[g as usize];
        if have == 0 {
            return; // no rank holds a group (common for fours and trios)
        }
        if !spec.is_chain() {
            let mut ranks = have & self.body_slots(g);
            if following {
                ranks &= !at_or_below(above);
            }
            if S::COUNTING && self.count_one_link_bodies(spec, ranks) {
                return;
            }
            while ranks != 0 && !self.sink.done() {
                let r = ranks.trailing_zeros() as usize;
                ranks &= ranks - 1;
                self.body(spec, 1 << r, r, 1);
            }
            return;
        }
        let e = self.engine;
        let positions = e.link_positions(have);
        let (lo, hi) = match length {
            Some(l) => (l as usize, l as usize),
            None => (spec.min_links as usize, spec.max_links as usize),
        };
        if S::COUNTING && spec.wing == Wing::None && !following {
            // Leads of a bare sequence: every window of every run, in closed form.
            let hi = hi.min(self.size / g as usize);
            self.sink.add(e.count_windows(spec.kind, positions, lo, hi));
            return;
        }
        // `starts`: bit p when links p .. p+links-1 all hold a group; grown one
        // link at a time, so the walk costs one step per window that exists.
        let mut starts = positions;
        for links in 1..=hi {
            if links > 1 {
                starts &= positions >> (links - 1);
            }
            if starts == 0 || links * (g as usize) > self.size {
                break;
            }
            if links < lo {
                continue;
            }
            if S::COUNTING && spec.wing == Wing::None {
                // Bare sequences are ordered by their top link alone.
                let mut ok = starts & e.valid_starts(spec.kind, links);
                // top = start + links - 1 must exceed `above`.
                if following && above as usize + 1 >= links {
                    ok &= !at_or_below((above as usize + 1 - links) as u8);
                }
                self.sink.add(ok.count_ones() as u64);
                continue;
            }
            let mut m = starts;
            while m != 0 && !self.sink.done() {
                let start = m.trailing_zeros() as usize;
                m &= m - 1;
                if !e.window_ok(spec.kind, start, links) {
                    continue;
                }
                let top = e.links[start + links - 1];
                if following && e.strength(spec.kind, top, links as u8) <= above {
                    continue;
                }
                let mut body_mask = 0u32;
                for &r in &e.links[start..start + links] {
                    body_mask |= 1 << r;
                }
                self.body(spec, body_mask, top as usize, links);
            }
        }
    }

    /// Count the plays of one-link bodies `ranks` in closed form when each
    /// takes at most one wing; false when they must be walked one by one.
    fn count_one_link_bodies(&mut self, spec: &Spec, ranks: u32) -> bool {
        let bodies = ranks.count_ones() as u64;
        // Wings come from ranks outside the body: each body removes itself.
        let eligible = match (spec.wing, spec.wings_per_link) {
            (Wing::None, _) => {
                self.sink.add(bodies);
                return true;
            }
            (Wing::Single, 1) => self.at_least[1] & SINGLE_SLOTS,
            (Wing::Pair, 1) => self.at_least[2] & self.engine.pair_slots,
            _ => return false,
        };
        let total = bodies * eligible.count_ones() as u64 - (ranks & eligible).count_ones() as u64;
        self.sink.add(total);
        true
    }

    fn body_slots(&self, group: u8) -> u32 {
        match group {
            1 => SINGLE_SLOTS,
            2 => self.engine.pair_slots,
            _ => ORDINARY_SLOTS,
        }
    }

    /// Emit the plays of one body: bare, or with every legal set of wings.
    /// A count takes `count_wings` (the one place the walk counts wings)
    /// unless the wings must be a run, which only listing checks.
    fn body(&mut self, spec: &Spec, body_mask: u32, top: usize, links: usize) {
        if S::COUNTING && !spec.consecutive_wings {
            let n = self.count_wings(spec, body_mask, links);
            self.sink.add(n);
            return;
        }
        let mut body = Cards::EMPTY;
        let mut m = body_mask;
        while m != 0 {
            let r = m.trailing_zeros() as usize;
            m &= m - 1;
            body = body.plus(r, spec.group);
        }
        let play = Move::new(spec.kind, top, links as u8, body);
        let wings = links * spec.wings_per_link as usize;
        match spec.wing {
            Wing::None => self.sink.push(play),
            Wing::Single => self.single_wings(play, body_mask, wings),
            Wing::Pair => self.pair_wings(play, body_mask, wings, spec.consecutive_wings),
        }
    }

    /// The number of ways to add wings to one body (1 for a bare body).
    fn count_wings(&self, spec: &Spec, body_mask: u32, links: usize) -> u64 {
        let wings = links * spec.wings_per_link as usize;
        match spec.wing {
            Wing::None => 1,
            Wing::Single => {
                let eligible = self.at_least[1] & SINGLE_SLOTS & !body_mask;
                if wings == 1 {
                    eligible.count_ones() as u64
                } else {
                    let no_rocket = !self.engine.rules().rocket_as_kickers;
                    self.engine.count_single_wings(
                        &self.hand,
                        self.at_least[2],
                        eligible,
                        wings,
                        no_rocket,
                    )
                }
            }
            Wing::Pair => {
                let eligible = self.at_least[2] & self.engine.pair_slots & !body_mask;
                binomial(eligible.count_ones() as u64, wings as u64)
            }
        }
    }

    /// `wings` single kickers from ranks outside the body, at most `wing_cap` of a rank.
    fn single_wings(&mut self, play: Move, body_mask: u32, wings: usize) {
        let e = self.engine;
        let eligible = self.at_least[1] & SINGLE_SLOTS & !body_mask;
        let no_rocket = !e.rules().rocket_as_kickers;
        if wings == 1 {
            self.one_wing_each(play, eligible, 1);
            return;
        }
        let mut slots = [(0u8, 0u8); 16];
        let mut len = 0;
        let mut m = eligible;
        while m != 0 {
            let r = m.trailing_zeros() as usize;
            m &= m - 1;
            slots[len] = (r as u8, self.hand.get(r).min(e.wing_cap));
            len += 1;
        }
        self.single_wings_from(play, &slots[..len], wings, no_rocket);
    }

    fn single_wings_from(&mut self, play: Move, slots: &[(u8, u8)], left: usize, no_rocket: bool) {
        if left == 0 {
            if no_rocket && play.cards.get(SMALL_JOKER) > 0 && play.cards.get(BIG_JOKER) > 0 {
                return;
            }
            self.sink.push(play);
            return;
        }
        for (i, &(rank, cap)) in slots.iter().enumerate() {
            for copies in 1..=cap.min(left as u8) {
                let mut next = play;
                next.cards = play.cards.plus(rank as usize, copies);
                next.represents = next.cards;
                self.single_wings_from(next, &slots[i + 1..], left - copies as usize, no_rocket);
            }
        }
    }

    /// `wings` pairs of distinct ranks outside the body (a consecutive run if required).
    fn pair_wings(&mut self, play: Move, body_mask: u32, wings: usize, consecutive: bool) {
        let e = self.engine;
        let eligible = self.at_least[2] & e.pair_slots & !body_mask;
        if consecutive {
            self.consecutive_pair_wings(play, eligible, wings);
            return;
        }
        if wings == 1 {
            self.one_wing_each(play, eligible, 2);
            return;
        }
        self.pair_wings_from(play, eligible, wings);
    }

    /// The common case of one kicker: one play per eligible rank.
    #[inline]
    fn one_wing_each(&mut self, play: Move, eligible: u32, copies: u8) {
        let mut m = eligible;
        while m != 0 {
            let r = m.trailing_zeros() as usize;
            m &= m - 1;
            let cards = play.cards.plus(r, copies);
            self.sink.push(Move {
                cards,
                represents: cards,
                ..play
            });
        }
    }

    fn pair_wings_from(&mut self, play: Move, eligible: u32, left: usize) {
        if left == 0 {
            self.sink.push(play);
            return;
        }
        let mut m = eligible;
        while m != 0 {
            let r = m.trailing_zeros() as usize;
            m &= m - 1;
            let mut next = play;
            next.cards = play.cards.plus(r, 2);
            next.represents = next.cards;
            self.pair_wings_from(next, m, left - 1);
        }
    }

    fn consecutive_pair_wings(&mut self, play: Move, eligible: u32, wings: usize) {
        let e = self.engine;
        let n = e.links.len();
        for start in 0..n.saturating_sub(wings - 1) {
            if !e.wing_window_ok(start, wings) {
                continue;
            }
            let ranks = &e.links[start..start + wings];
            if ranks.iter().all(|&r| eligible >> r & 1 == 1) {
                let mut next = play;
                for &r in ranks {
                    next.cards = next.cards.plus(r as usize, 2);
                }
                next.represents = next.cards;
                self.sink.push(next);
            }
        }
        if wings == 2 && eligible & JOKERS == JOKERS {
            let mut next = play;
            next.cards = play.cards.plus(SMALL_JOKER, 2).plus(BIG_JOKER, 2);
            next.represents = next.cards;
            self.sink.push(next);
        }
    }

    /// The five-joker three-and-two split, a trio_pair of rank X or D.
    fn joker_trio_pair(&mut self, above: Option<u8>) {
        if !self.engine.rules().joker_trio_pair {
            return;
        }
        let small = self.hand.get(SMALL_JOKER);
        let big = self.hand.get(BIG_JOKER);
        for (trio, s, b) in [(SMALL_JOKER, 3, 2), (BIG_JOKER, 2, 3)] {
            if small >= s && big >= b && above.is_none_or(|a| trio as u8 > a) {
                let mut cards = Cards::EMPTY;
                cards.0[SMALL_JOKER] = s;
                cards.0[BIG_JOKER] = b;
                self.sink.push(Move::new(Kind::TrioPair, trio, 1, cards));
            }
        }
    }

    /// Every rank bomb and king bomb stronger than `min_power`.
    fn bombs(&mut self, min_power: u16) {
        let e = self.engine;
        let mut ranks = self.at_least[4] & ORDINARY_SLOTS;
        while ranks != 0 {
            let r = ranks.trailing_zeros() as usize;
            ranks &= ranks - 1;
            for n in 4..=self.hand.get(r) {
                if e.rank_bomb_power(r as u8, n, false) > min_power {
                    self.sink.push(Move::new(Kind::Bomb, r, n, Cards::of(r, n)));
                }
            }
        }
        for m in e.king_bomb_moves(&self.hand, min_power) {
            self.sink.push(m);
        }
    }
}

impl Engine {
    /// The king bombs `hand` holds that are stronger than `min_power`.
    pub(crate) fn king_bomb_moves(
        &self,
        hand: &Cards,
        min_power: u16,
    ) -> impl Iterator<Item = Move> + '_ {
        let small = hand.get(SMALL_JOKER);
        let big = hand.get(BIG_JOKER);
        self.rules().king_bombs.iter().filter_map(move |k| {
            if k.small > small || k.big > big || self.king_power(k.small, k.big) <= min_power {
                return None;
            }
            let cards = Cards::EMPTY
                .plus(SMALL_JOKER, k.small)
                .plus(BIG_JOKER, k.big);
            let rank = if k.big > 0 { BIG_JOKER } else { SMALL_JOKER };
            Some(Move::new(Kind::KingBomb, rank, k.small + k.big, cards))
        })
    }
}

impl Engine {
    /// Number of multisets of `wings` cards over `eligible` ranks, each rank at
    /// most `min(count, wing_cap)` times: the t^wings coefficient of
    /// ∏ (1 + t + … + t^cap).
    pub(crate) fn count_single_wings(
        &self,
        hand: &Cards,
        at_least2: u32,
        eligible: u32,
        wings: usize,
        no_rocket: bool,
    ) -> u64 {
        if wings == 2 && self.wing_cap >= 2 {
            // Two distinct ranks, or two of one rank; minus X+D if barred.
            let e = eligible.count_ones() as u64;
            let doubles = (eligible & at_least2).count_ones() as u64;
            let rocket = (no_rocket && eligible & JOKERS == JOKERS) as u64;
            return e * e.saturating_sub(1) / 2 + doubles - rocket;
        }
        let cap = |r: usize| hand.get(r).min(self.wing_cap) as usize;
        // At most 14 links carry one wing each, so degree 15 is enough.
        let mut poly = [0u64; 16];
        let n = wings.min(15);
        poly[0] = 1;
        let mut m = eligible & !JOKERS;
        while m != 0 {
            let r = m.trailing_zeros() as usize;
            m &= m - 1;
            multiply_run(&mut poly, n, cap(r));
        }
        let small = if eligible >> SMALL_JOKER & 1 == 1 {
            cap(SMALL_JOKER)
        } else {
            0
        };
        let big = if eligible >> BIG_JOKER & 1 == 1 {
            cap(BIG_JOKER)
        } else {
            0
        };
        let mut all = poly;
        multiply_run(&mut all, n, small);
        multiply_run(&mut all, n, big);
        let mut total = all[n];
        if no_rocket && small > 0 && big > 0 && n >= 2 {
            // Subtract the multisets holding at least one of each joker.
            let mut both = poly;
            multiply_run(&mut both, n - 2, small - 1);
            multiply_run(&mut both, n - 2, big - 1);
            total -= both[n - 2];
        }
        total
    }

    /// The number of legal windows of `lo..=hi` links inside the runs of
    /// set bits of `positions` (bit per link position), for a bare `kind`.
    pub(crate) fn count_windows(&self, kind: Kind, positions: u32, lo: usize, hi: usize) -> u64 {
        if lo > hi {
            return 0;
        }
        // `starts`: bit p when positions p .. p+links-1 are all set.
        let mut starts = positions;
        for links in 2..=lo {
            starts &= positions >> (links - 1);
        }
        let mut total = 0u64;
        let mut links = lo;
        while starts != 0 && links <= hi {
            total += starts.count_ones() as u64;
            links += 1;
            starts &= positions >> (links - 1);
        }
        // Windows from the first position that the sequence style forbids
        // (Low A-2: `A…2…A` and the two-link `A2` outside planes).
        if positions & 1 == 1 {
            let first_run = (!positions).trailing_zeros() as usize;
            for links in lo..=hi.min(first_run) {
                if !self.window_ok(kind, 0, links) {
                    total -= 1;
                }
            }
        }
        total
    }
}

/// Bits `0..=rank`.
#[inline]
fn at_or_below(rank: u8) -> u32 {
    2u32.checked_shl(rank as u32).map_or(u32::MAX, |b| b - 1)
}

/// Multiply a truncated power series (degrees `0..=n`) by `1 + t + … + t^cap`.
#[inline]
fn multiply_run(poly: &mut [u64; 16], n: usize, cap: usize) {
    if cap == 0 {
        return;
    }
    // Running window sum from the top down keeps it in place.
    for j in (0..=n).rev() {
        let mut s = 0;
        for i in 0..=cap.min(j) {
            s += poly[j - i];
        }
        poly[j] = s;
    }
}
