//! Classification: every reading of a card set as one play.
//!
//! Written straight from the rules, independently of the generator, so that
//! the brute-force oracle (classify every sub-multiset) can check it.

use crate::cards::{Cards, BIG_JOKER, LAIZI, SMALL_JOKER, TWO};
use crate::engine::{Engine, Spec, Wing};
use crate::play::{Kind, Move};

impl Engine {
    /// Every reading of `cards` as one play; empty when it is no play.
    pub fn classify(&self, cards: &Cards) -> Vec<Move> {
        let mut out = Vec::new();
        let n = cards.len();
        if n == 0 {
            return out;
        }
        if cards.get(LAIZI) > 0 {
            self.classify_laizi(cards, &mut out);
            return out;
        }
        let small = cards.get(SMALL_JOKER);
        let big = cards.get(BIG_JOKER);
        let jokers = (small + big) as usize;
        if jokers == n && self.king_power(small, big) > 0 {
            let rank = if big > 0 { BIG_JOKER } else { SMALL_JOKER };
            out.push(Move::new(Kind::KingBomb, rank, n as u8, *cards));
        }
        if cards.distinct() == 1 && n >= 4 {
            let rank = cards.ranks().next().unwrap_or(0);
            if rank <= TWO {
                out.push(Move::new(Kind::Bomb, rank, n as u8, *cards));
            }
        }
        if self.rules().joker_trio_pair && jokers == n && n == 5 {
            match (small, big) {
                (3, 2) => out.push(Move::new(Kind::TrioPair, SMALL_JOKER, 1, *cards)),
                (2, 3) => out.push(Move::new(Kind::TrioPair, BIG_JOKER, 1, *cards)),
                _ => {}
            }
        }
        for spec in self.specs() {
            self.classify_spec(spec, cards, n, &mut out);
        }
        out
    }

    /// Is `m` one of the readings of its cards under these rules? Checks the
    /// one body its kind, rank and length name, not every reading.
    pub fn is_reading(&self, m: &Move) -> bool {
        if self.check_playable(&m.cards).is_err() {
            return false;
        }
        if m.cards.get(LAIZI) > 0 {
            return self.classify(&m.cards).contains(m);
        }
        if m.represents != m.cards {
            return false;
        }
        let joker_trio = m.kind == Kind::TrioPair && m.rank as usize >= SMALL_JOKER;
        if m.kind.is_bomb() || joker_trio {
            return self.classify(&m.cards).contains(m);
        }
        let Some(spec) = self.specs().iter().find(|s| s.kind == m.kind) else {
            return false;
        };
        let links = m.length as usize;
        let rank = m.rank as usize;
        if links < spec.min_links as usize || links > spec.max_links as usize || rank > BIG_JOKER {
            return false;
        }
        let mut ranks = [0usize; 16];
        if spec.is_chain() {
            let top = self.top_position(m.rank) as usize;
            if top >= self.links.len() || self.links[top] != m.rank || top + 1 < links {
                return false;
            }
            let start = top + 1 - links;
            if !self.window_ok(m.kind, start, links) {
                return false;
            }
            for (i, p) in (start..=top).enumerate() {
                ranks[i] = self.links[p] as usize;
            }
        } else if self.body_slot_ok(spec.group as usize, rank) {
            ranks[0] = rank;
        } else {
            return false;
        }
        let mut found = Vec::with_capacity(1);
        self.try_body(spec, &m.cards, &ranks[..links], links, &mut found);
        found.first() == Some(m)
    }

    fn classify_spec(&self, spec: &Spec, cards: &Cards, n: usize, out: &mut Vec<Move>) {
        let g = spec.group as usize;
        let wing_size = match spec.wing {
            Wing::None => 0,
            Wing::Single => 1,
            Wing::Pair => 2,
        };
        // A play of this kind with `links` links holds exactly this many cards.
        let size = |links: usize| links * (g + spec.wings_per_link as usize * wing_size);
        if spec.is_chain() {
            for links in spec.min_links as usize..=spec.max_links as usize {
                if size(links) != n {
                    continue;
                }
                for start in 0..self.links.len() {
                    if !self.window_ok(spec.kind, start, links) {
                        continue;
                    }
                    let mut ranks = [0usize; 16];
                    for (i, &r) in self.links[start..start + links].iter().enumerate() {
                        ranks[i] = r as usize;
                    }
                    self.try_body(spec, cards, &ranks[..links], links, out);
                }
            }
        } else if size(1) == n {
            for rank in 0..=BIG_JOKER {
                if self.body_slot_ok(g, rank) {
                    self.try_body(spec, cards, &[rank], 1, out);
                }
            }
        }
    }

    /// May a one-link body of `group` cards be made of rank `slot`?
    pub(crate) fn body_slot_ok(&self, group: usize, slot: usize) -> bool {
        match group {
            1 => slot <= BIG_JOKER,
            2 => self.pair_slots & (1 << slot) != 0,
            _ => slot <= TWO,
        }
    }

    fn try_body(
        &self,
        spec: &Spec,
        cards: &Cards,
        ranks: &[usize],
        links: usize,
        out: &mut Vec<Move>,
    ) {
        let mut body = Cards::EMPTY;
        for &r in ranks {
            body.0[r] = spec.group;
        }
        if !cards.contains(&body) {
            return;
        }
        let rest = *cards - body;
        if self.wings_fit(spec, ranks, links, &rest) {
            let top = *ranks.last().unwrap_or(&0);
            out.push(Move::new(spec.kind, top, links as u8, *cards));
        }
    }

    /// Is `rest` exactly a legal set of wings for this body?
    fn wings_fit(&self, spec: &Spec, body: &[usize], links: usize, rest: &Cards) -> bool {
        let wings = links * spec.wings_per_link as usize;
        if body.iter().any(|&r| rest.get(r) > 0) && spec.wing != Wing::None {
            return false; // wings come from ranks outside the body
        }
        match spec.wing {
            Wing::None => rest.is_empty(),
            Wing::Single => {
                rest.len() == wings
                    && rest.0.iter().all(|&c| c <= self.wing_cap)
                    && (self.rules().rocket_as_kickers
                        || rest.get(SMALL_JOKER) == 0
                        || rest.get(BIG_JOKER) == 0)
            }
            Wing::Pair => {
                let pair_ranks: Vec<usize> = (0..=BIG_JOKER).filter(|&r| rest.get(r) > 0).collect();
                pair_ranks.len() == wings
                    && rest.len() == 2 * wings
                    && pair_ranks
                        .iter()
                        .all(|&r| rest.get(r) == 2 && self.pair_slots & (1 << r) != 0)
                    && (!spec.consecutive_wings || self.is_wing_run(&pair_ranks))
            }
        }
    }

    /// Do these distinct pair ranks (ascending) form a consecutive run of wings?
    /// Runs follow the sequence link order (without the `AA22` pair); `XXDD` is a run.
    pub(crate) fn is_wing_run(&self, ranks: &[usize]) -> bool {
        if ranks == [SMALL_JOKER, BIG_JOKER] {
            return true;
        }
        let k = ranks.len();
        (0..self.links.len()).any(|start| {
            self.wing_window_ok(start, k) && {
                let mut window: Vec<usize> =
                    (start..start + k).map(|p| self.links[p] as usize).collect();
                window.sort_unstable();
                window == ranks
            }
        })
    }

    /// Is `[start, start + k)` a run of pair wings in the link order?
    pub(crate) fn wing_window_ok(&self, start: usize, k: usize) -> bool {
        // The same windows as a pair straight, except that two links may make a run.
        self.window_ok(Kind::PairStraight, start, k)
    }
}
