//! Laizi (wild cards): substitution as a budget against shortfalls.
//!
//! A body of `g` cards per link is reachable when the laizi held cover the
//! links' shortfalls; a laizi may also replace a natural card the hand holds
//! (a different card set, so a different play). A laizi that is a whole
//! kicker (a single wing, or half of an `LL` pair) stands for no rank and
//! stays `L` in what the play represents. Jokers are never substituted.
//!
//! Two walks live here, written independently so that the brute-force
//! oracle can check one against the other: `classify_laizi` reads one card
//! set, `LaiziWalk` enumerates the plays of a hand.

use crate::cards::{Cards, BIG_JOKER, LAIZI, SMALL_JOKER, TWO};
use crate::engine::{Engine, Spec, Wing};
use crate::generate::{Sink, Target};
use crate::play::{Kind, Move};

/// The whole-hand-of-laizi plays: `L` is a single 3, `LL` a pair of 3s.
fn laizi_only_plays(laizi: u8) -> impl Iterator<Item = Move> {
    (1..=laizi.min(2)).map(|n| {
        let kind = if n == 1 { Kind::Single } else { Kind::Pair };
        Move {
            cards: Cards::of(LAIZI, n),
            represents: Cards::of(0, n),
            kind,
            rank: 0,
            length: 1,
        }
    })
}

/// May a laizi stand for this slot? Any ordinary rank, never a joker.
#[inline]
fn substitutable(slot: usize) -> bool {
    slot <= TWO
}

impl Engine {
    /// Every reading of a card set holding laizi (docs/rules.md#laizi).
    pub(crate) fn classify_laizi(&self, cards: &Cards, out: &mut Vec<Move>) {
        let laizi = cards.get(LAIZI);
        let mut naturals = *cards;
        naturals.0[LAIZI] = 0;
        if naturals.is_empty() {
            // Only a hand of nothing but laizi may play them (see `generate`).
            out.extend(laizi_only_plays(laizi).filter(|m| m.cards == *cards));
            return;
        }
        // Rank bombs: naturals of one rank, laizi making up the rest.
        if naturals.distinct() == 1 {
            let rank = naturals.ranks().next().unwrap_or(0);
            let total = cards.len();
            if rank <= TWO && total >= 4 {
                out.push(Move {
                    cards: *cards,
                    represents: Cards::of(rank, total as u8),
                    kind: Kind::Bomb,
                    rank: rank as u8,
                    length: total as u8,
                });
            }
        }
        for spec in self.specs() {
            let g = spec.group as usize;
            let mut try_ranks = |ranks: &[usize], links: usize| {
                if let Some(m) = self.read_laizi_body(spec, cards, &naturals, ranks, links) {
                    out.push(m);
                }
            };
            if spec.is_chain() {
                for links in spec.min_links as usize..=spec.max_links as usize {
                    for start in 0..self.links.len() {
                        if self.window_ok(spec.kind, start, links) {
                            let ranks: Vec<usize> = self.links[start..start + links]
                                .iter()
                                .map(|&r| r as usize)
                                .collect();
                            try_ranks(&ranks, links);
                        }
                    }
                }
            } else {
                for rank in 0..=BIG_JOKER {
                    if self.body_slot_ok(g, rank) {
                        try_ranks(&[rank], 1);
                    }
                }
            }
        }
    }

    /// The reading of `cards` as `spec` with this body, if there is one. Every
    /// natural of a body rank belongs to the body; laizi fill its gaps and the
    /// rest must be exactly legal wings.
    fn read_laizi_body(
        &self,
        spec: &Spec,
        cards: &Cards,
        naturals: &Cards,
        body: &[usize],
        links: usize,
    ) -> Option<Move> {
        let g = spec.group;
        let mut fill = 0u8;
        let mut represents = Cards::EMPTY;
        let mut rest = *naturals;
        for &r in body {
            let have = naturals.get(r);
            if have > g || (have < g && !substitutable(r)) {
                return None;
            }
            fill += g - have;
            represents.0[r] = g;
            rest.0[r] = 0;
        }
        let spare = cards.get(LAIZI).checked_sub(fill)?;
        let wings = (links * spec.wings_per_link as usize) as u8;
        match spec.wing {
            Wing::None => {
                if !rest.is_empty() || spare > 0 {
                    return None;
                }
            }
            Wing::Single => {
                if rest.len() + spare as usize != wings as usize
                    || rest.0.iter().any(|&c| c > self.wing_cap)
                    || (!self.rules().rocket_as_kickers
                        && rest.get(SMALL_JOKER) > 0
                        && rest.get(BIG_JOKER) > 0)
                {
                    return None;
                }
                represents = represents + rest;
                represents.0[LAIZI] = spare;
            }
            Wing::Pair => {
                // Each wing rank holds a natural pair, or one natural and a laizi.
                let mut ranked = Vec::new();
                let mut halves = 0u8;
                for r in 0..=BIG_JOKER {
                    match rest.get(r) {
                        0 => continue,
                        2 => {}
                        1 if substitutable(r) => halves += 1,
                        _ => return None,
                    }
                    if self.pair_slots & (1 << r) == 0 {
                        return None;
                    }
                    ranked.push(r);
                    represents.0[r] = 2;
                }
                let loose = spare.checked_sub(halves)?;
                if loose % 2 == 1 || ranked.len() as u8 + loose / 2 != wings {
                    return None;
                }
                if spec.consecutive_wings && (loose > 0 || !self.is_wing_run(&ranked)) {
                    return None;
                }
                represents.0[LAIZI] = loose;
            }
        }
        Some(Move {
            cards: *cards,
            represents,
            kind: spec.kind,
            rank: *body.last()? as u8,
            length: links as u8,
        })
    }

    /// Walk every play of a hand holding laizi.
    pub(crate) fn generate_laizi<S: Sink>(&self, hand: &Cards, target: Target, sink: &mut S) {
        let mut naturals = *hand;
        naturals.0[LAIZI] = 0;
        let mut walk = LaiziWalk {
            engine: self,
            naturals,
            laizi: hand.get(LAIZI),
            sink,
        };
        if naturals.is_empty() {
            for m in laizi_only_plays(walk.laizi) {
                if target.admits(self, &m) {
                    walk.sink.push(m);
                }
            }
            return;
        }
        match target {
            Target::Lead => {
                for spec in self.specs() {
                    walk.spec(spec, None, 0);
                }
            }
            Target::Play {
                kind,
                length,
                strength,
            } => {
                if let Some(spec) = self.specs().iter().find(|s| s.kind == kind) {
                    walk.spec(spec, Some(length), strength);
                }
            }
            Target::Bomb { .. } => {}
        }
        walk.rank_bombs(target.min_power());
    }
}

struct LaiziWalk<'a, S: Sink> {
    engine: &'a Engine,
    naturals: Cards,
    laizi: u8,
    sink: &'a mut S,
}

/// A partial play: the cards taken and what they stand for.
#[derive(Clone, Copy)]
struct Partial {
    cards: Cards,
    represents: Cards,
    spare: u8,
}

impl<S: Sink> LaiziWalk<'_, S> {
    /// Every body of `spec` the naturals and laizi can make.
    fn spec(&mut self, spec: &Spec, length: Option<u8>, above: u8) {
        let e = self.engine;
        let g = spec.group;
        let naturals = self.naturals;
        let shortfall = move |r: usize| {
            let have = naturals.get(r);
            if have >= g {
                Some(0)
            } else if substitutable(r) {
                Some(g - have)
            } else {
                None
            }
        };
        if !spec.is_chain() {
            for rank in 0..=BIG_JOKER {
                if !e.body_slot_ok(g as usize, rank) || length.is_some() && rank as u8 <= above {
                    continue;
                }
                if shortfall(rank).is_some_and(|s| s <= self.laizi) {
                    self.bodies(spec, &[rank], 1);
                }
            }
            return;
        }
        let n = e.links.len();
        for start in 0..n {
            let mut missing = 0u8;
            for links in 1..=(n - start).min(spec.max_links as usize) {
                let r = e.links[start + links - 1] as usize;
                match shortfall(r) {
                    Some(s) if missing + s <= self.laizi => missing += s,
                    _ => break,
                }
                if links < spec.min_links as usize
                    || length.is_some_and(|l| l as usize != links)
                    || !e.window_ok(spec.kind, start, links)
                {
                    continue;
                }
                let top = e.links[start + links - 1];
                if length.is_some() && e.strength(spec.kind, top, links as u8) <= above {
                    continue;
                }
                let ranks: Vec<usize> = e.links[start..start + links]
                    .iter()
                    .map(|&r| r as usize)
                    .collect();
                self.bodies(spec, &ranks, links);
            }
        }
    }

    /// Every way to build this body from naturals and laizi, each with its wings.
    fn bodies(&mut self, spec: &Spec, ranks: &[usize], links: usize) {
        let start = Partial {
            cards: Cards::EMPTY,
            represents: Cards::EMPTY,
            spare: self.laizi,
        };
        self.fill_body(spec, ranks, 0, links, start);
    }

    fn fill_body(&mut self, spec: &Spec, ranks: &[usize], i: usize, links: usize, p: Partial) {
        let g = spec.group;
        let Some(&r) = ranks.get(i) else {
            let wings = links * spec.wings_per_link as usize;
            let body_mask = ranks.iter().fold(0u32, |m, &r| m | 1 << r);
            let top = ranks[ranks.len() - 1];
            let play = Move {
                cards: p.cards,
                represents: p.represents,
                kind: spec.kind,
                rank: top as u8,
                length: links as u8,
            };
            match spec.wing {
                Wing::None => self.finish(play),
                Wing::Single => self.single_wings(play, body_mask, wings, p.spare),
                Wing::Pair => {
                    self.pair_wings(play, body_mask, wings, p.spare, spec.consecutive_wings)
                }
            }
            return;
        };
        let have = self.naturals.get(r).min(g);
        let most_laizi = if substitutable(r) { g.min(p.spare) } else { 0 };
        for used in (g - have)..=most_laizi {
            let next = Partial {
                cards: p.cards.plus(r, g - used).plus(LAIZI, used),
                represents: p.represents.plus(r, g),
                spare: p.spare - used,
            };
            self.fill_body(spec, ranks, i + 1, links, next);
        }
    }

    /// Emit `play` unless it is all laizi: a play needs one natural card.
    fn finish(&mut self, play: Move) {
        if play.cards.has_naturals() {
            self.sink.push(play);
        }
    }

    /// `wings` single kickers: naturals outside the body (at most `wing_cap` of
    /// a rank) and laizi, which stay `L`.
    fn single_wings(&mut self, play: Move, body_mask: u32, wings: usize, spare: u8) {
        let e = self.engine;
        let mut slots = Vec::with_capacity(16);
        for r in 0..=BIG_JOKER {
            if body_mask >> r & 1 == 0 && self.naturals.get(r) > 0 {
                slots.push((r, self.naturals.get(r).min(e.wing_cap)));
            }
        }
        if spare > 0 {
            slots.push((LAIZI, spare));
        }
        self.singles_from(play, &slots, wings);
    }

    fn singles_from(&mut self, play: Move, slots: &[(usize, u8)], left: usize) {
        if left == 0 {
            let rocket = play.cards.get(SMALL_JOKER) > 0 && play.cards.get(BIG_JOKER) > 0;
            if self.engine.rules().rocket_as_kickers || !rocket {
                self.finish(play);
            }
            return;
        }
        for (i, &(r, cap)) in slots.iter().enumerate() {
            for copies in 1..=cap.min(left as u8) {
                let mut next = play;
                next.cards = play.cards.plus(r, copies);
                next.represents = play.represents.plus(r, copies);
                self.singles_from(next, &slots[i + 1..], left - copies as usize);
            }
        }
    }

    /// `wings` pairs: a natural pair or one natural and a laizi of distinct
    /// ranks outside the body, or `LL` (no rank).
    fn pair_wings(
        &mut self,
        play: Move,
        body_mask: u32,
        wings: usize,
        spare: u8,
        consecutive: bool,
    ) {
        let e = self.engine;
        let eligible: Vec<usize> = (0..=BIG_JOKER)
            .filter(|&r| {
                body_mask >> r & 1 == 0
                    && e.pair_slots >> r & 1 == 1
                    && (self.naturals.get(r) >= 2 || self.naturals.get(r) == 1 && substitutable(r))
            })
            .collect();
        if consecutive {
            for start in 0..e.links.len() {
                if start + wings > e.links.len() || !e.wing_window_ok(start, wings) {
                    continue;
                }
                let run: Vec<usize> = e.links[start..start + wings]
                    .iter()
                    .map(|&r| r as usize)
                    .collect();
                if run.iter().all(|r| eligible.contains(r)) {
                    self.ranked_pairs(play, &run, spare, 0);
                }
            }
            if wings == 2 && eligible.contains(&SMALL_JOKER) && eligible.contains(&BIG_JOKER) {
                self.ranked_pairs(play, &[SMALL_JOKER, BIG_JOKER], spare, 0);
            }
            return;
        }
        // Loose `LL` pairs first, then choose the ranked ones.
        for loose in 0..=(spare / 2).min(wings as u8) {
            let mut base = play;
            base.cards = play.cards.plus(LAIZI, 2 * loose);
            base.represents = play.represents.plus(LAIZI, 2 * loose);
            self.choose_pairs(base, &eligible, wings - loose as usize, spare - 2 * loose);
        }
    }

    /// Choose `left` ranks from `eligible` (in order), each a pair.
    fn choose_pairs(&mut self, play: Move, eligible: &[usize], left: usize, spare: u8) {
        if left == 0 {
            let _ = spare;
            self.finish(play);
            return;
        }
        for (i, &r) in eligible.iter().enumerate() {
            self.one_pair(play, r, spare, |walk, next, spare| {
                walk.choose_pairs(next, &eligible[i + 1..], left - 1, spare)
            });
        }
    }

    /// Every pair in `ranks`, each natural or half laizi.
    fn ranked_pairs(&mut self, play: Move, ranks: &[usize], spare: u8, i: usize) {
        let Some(&r) = ranks.get(i) else {
            self.finish(play);
            return;
        };
        self.one_pair(play, r, spare, |walk, next, spare| {
            walk.ranked_pairs(next, ranks, spare, i + 1)
        });
    }

    /// A pair of rank `r`: natural, or one natural and a laizi; then `then`.
    fn one_pair(
        &mut self,
        play: Move,
        r: usize,
        spare: u8,
        mut then: impl FnMut(&mut Self, Move, u8),
    ) {
        let mut next = play;
        next.represents = play.represents.plus(r, 2);
        if self.naturals.get(r) >= 2 {
            next.cards = play.cards.plus(r, 2);
            then(self, next, spare);
        }
        if spare > 0 && substitutable(r) && self.naturals.get(r) >= 1 {
            next.cards = play.cards.plus(r, 1).plus(LAIZI, 1);
            then(self, next, spare - 1);
        }
    }

    /// Rank bombs: `n` naturals of a rank and `u` laizi, `n >= 1`.
    fn rank_bombs(&mut self, min_power: u16) {
        let e = self.engine;
        for r in 0..=TWO {
            let have = self.naturals.get(r);
            if have == 0 {
                continue;
            }
            for total in 4..=have + self.laizi {
                for used in total.saturating_sub(have)..=self.laizi.min(total - 1) {
                    if e.rank_bomb_power(r as u8, total, used > 0) > min_power {
                        self.sink.push(Move {
                            cards: Cards::of(r, total - used).plus(LAIZI, used),
                            represents: Cards::of(r, total),
                            kind: Kind::Bomb,
                            rank: r as u8,
                            length: total,
                        });
                    }
                }
            }
        }
        for m in e.king_bomb_moves(&self.naturals, min_power) {
            self.sink.push(m);
        }
    }
}
