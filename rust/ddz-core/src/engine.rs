//! A rule set compiled for play: kind specs, link order, bomb ladder.

use crate::cards::{Cards, BIG_JOKER, LAIZI, SLOTS, SMALL_JOKER, SYMBOLS, TWO};
use crate::error::{in_range, CardError, RulesError};
use crate::play::{Kind, Move};
use crate::rules::{Ladder, Rules, Sequences};

/// What hangs on a body: nothing, single cards, or pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wing {
    None,
    Single,
    Pair,
}

/// A non-bomb kind as data: `links` groups of `group` cards in a chain, plus
/// `wings_per_link × links` wings of one shape.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub kind: Kind,
    pub group: u8,
    pub min_links: u8,
    pub max_links: u8,
    pub wing: Wing,
    pub wings_per_link: u8,
    /// Pair wings must form a consecutive run (planes under `wings_consecutive`).
    pub consecutive_wings: bool,
}

impl Spec {
    pub fn is_chain(&self) -> bool {
        self.max_links > 1
    }
}

/// Sentinel strength of `222333` planes under `plane_222333_high`.
const TOP_STRENGTH: u8 = 250;
/// Power step between rank-bomb size classes.
const CLASS: u16 = 128;
/// Offset of king bombs inside a class gap, above every rank bomb of the class.
const KING_OFFSET: u16 = 64;

/// The compiled rule set.
#[derive(Clone, Debug)]
pub struct Engine {
    rules: Rules,
    pub(crate) specs: Vec<Spec>,
    /// Rank slot at each sequence link position, lowest first.
    pub(crate) links: Vec<u8>,
    /// `king_power[small][big]`: power of that joker combination, 0 if it is no bomb.
    king_power: [[u16; 5]; 5],
    /// Bit per rank slot that may form a pair body or pair wing.
    pub(crate) pair_slots: u32,
    /// Most copies of one rank a non-bomb may hold (3 under `no_bomb_inside`).
    pub(crate) wing_cap: u8,
    /// How many of each slot the deck holds.
    copies: Cards,
    /// Bit `kind as u8` per kind in `specs` (bombs have no spec): the one
    /// answer to "does this kind exist", for `count.rs` as for the walk.
    kinds: u16,
    /// Plays may be counted in closed form (`count.rs`).
    pub(crate) closed_counts: bool,
    /// King bombs playable from `[small][big]` jokers (`count.rs`).
    pub(crate) king_bombs_within: [[u8; 5]; 5],
    /// Unique to each `Engine::new` in the process (a clone shares it):
    /// a cache keyed by it never mistakes another rule set for this one,
    /// as a key by address could once this engine is freed.
    id: u64,
}

impl Engine {
    pub fn new(rules: Rules) -> Result<Engine, RulesError> {
        validate(&rules)?;
        let mut specs = Vec::new();
        let mut add = |kind, group, min_links, max_links, wing, wings_per_link| {
            specs.push(Spec {
                kind,
                group,
                min_links,
                max_links,
                wing,
                wings_per_link,
                consecutive_wings: false,
            })
        };
        let links: Vec<u8> = match rules.sequences {
            Sequences::Classic => (0..=11).collect(),
            Sequences::LowA2 => [11u8, 12].into_iter().chain(0..=11).collect(),
        };
        let most = links.len() as u8;
        add(Kind::Single, 1, 1, 1, Wing::None, 0);
        add(Kind::Pair, 2, 1, 1, Wing::None, 0);
        add(Kind::Trio, 3, 1, 1, Wing::None, 0);
        if rules.trio_single {
            add(Kind::TrioSingle, 3, 1, 1, Wing::Single, 1);
        }
        add(Kind::TrioPair, 3, 1, 1, Wing::Pair, 1);
        add(Kind::Straight, 1, 5, most, Wing::None, 0);
        add(Kind::PairStraight, 2, 3, most, Wing::None, 0);
        add(Kind::TrioStraight, 3, 2, most, Wing::None, 0);
        if rules.plane_singles {
            add(Kind::PlaneSingles, 3, 2, most, Wing::Single, 1);
        }
        add(Kind::PlanePairs, 3, 2, most, Wing::Pair, 1);
        if rules.four_two_singles {
            add(Kind::FourTwoSingles, 4, 1, 1, Wing::Single, 2);
        }
        if rules.four_two_pairs {
            add(Kind::FourTwoPairs, 4, 1, 1, Wing::Pair, 2);
        }
        for s in specs.iter_mut() {
            s.consecutive_wings = s.kind == Kind::PlanePairs && rules.wings_consecutive;
        }
        let mut king_power = [[0u16; 5]; 5];
        for k in &rules.king_bombs {
            king_power[k.small as usize][k.big as usize] =
                k.above as u16 * CLASS + KING_OFFSET + k.order as u16;
        }
        let mut pair_slots = (1u32 << (TWO + 1)) - 1;
        if rules.joker_pairs {
            pair_slots |= (1 << SMALL_JOKER) | (1 << BIG_JOKER);
        }
        let wing_cap = if rules.no_bomb_inside { 3 } else { u8::MAX };
        let copies = Cards(std::array::from_fn(|slot| rules.copies(slot)));
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Ok(Engine {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            kinds: specs.iter().fold(0, |m, s| m | 1 << s.kind as u8),
            closed_counts: crate::count::closed_counts(&rules, &specs),
            king_bombs_within: crate::count::king_bombs_within(&rules),
            copies,
            specs,
            links,
            king_power,
            pair_slots,
            wing_cap,
            rules,
        })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// This engine's id, unique in the process (see the field).
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    pub fn specs(&self) -> &[Spec] {
        &self.specs
    }

    /// Does this rule set have a (non-bomb) kind? Read from `specs`.
    #[inline]
    pub fn has_kind(&self, kind: Kind) -> bool {
        self.kinds >> kind as u8 & 1 == 1
    }

    /// Check that `cards` could come from this rule set's deck.
    pub fn check_cards(&self, cards: &Cards) -> Result<(), CardError> {
        if self.copies.contains(cards) {
            return Ok(());
        }
        for (slot, &have) in cards.0.iter().enumerate() {
            let most = self.rules.copies(slot);
            if have > most {
                if slot == LAIZI && most == 0 {
                    return Err(CardError::LaiziNotInRules {
                        preset: self.rules.preset.clone(),
                    });
                }
                return Err(CardError::TooManyCopies {
                    symbol: SYMBOLS[slot],
                    have,
                    most,
                });
            }
        }
        Ok(())
    }

    /// Check that `cards` can be classified or played from (from the deck).
    pub fn check_playable(&self, cards: &Cards) -> Result<(), CardError> {
        self.check_cards(cards)
    }

    /// Parse card text and check it against the deck.
    pub fn parse(&self, text: &str) -> Result<Cards, CardError> {
        let cards = Cards::parse(text)?;
        self.check_cards(&cards)?;
        Ok(cards)
    }

    /// Is the link window `[start, start + links)` a legal chain for `kind`?
    /// `AAA222` is only legal as a winged plane's body (docs/rules.md#sequences).
    #[inline]
    pub(crate) fn window_ok(&self, kind: Kind, start: usize, links: usize) -> bool {
        let n = self.links.len();
        if start + links > n {
            return false;
        }
        if self.rules.sequences == Sequences::LowA2 && start == 0 {
            // A may appear once only, and A-2 alone is no trio straight.
            if start + links == n {
                return false;
            }
            if links == 2 && !matches!(kind, Kind::PlaneSingles | Kind::PlanePairs) {
                return false;
            }
        }
        true
    }

    /// Map a bit-per-rank mask to a bit-per-link-position mask.
    #[inline]
    pub(crate) fn link_positions(&self, ranks: u32) -> u32 {
        const THREE_TO_ACE: u32 = (1 << 12) - 1;
        match self.rules.sequences {
            Sequences::Classic => ranks & THREE_TO_ACE,
            // Positions: A(low), 2, 3 … A(high).
            Sequences::LowA2 => {
                (ranks >> 11 & 1) | (ranks >> TWO & 1) << 1 | (ranks & THREE_TO_ACE) << 2
            }
        }
    }

    /// Bit per start position whose window of `links` is legal for `kind`,
    /// given that the window lies inside the link order.
    #[inline]
    pub(crate) fn valid_starts(&self, kind: Kind, links: usize) -> u32 {
        if self.window_ok(kind, 0, links) || links > self.links.len() {
            u32::MAX
        } else {
            !1
        }
    }

    /// Position of a sequence's top rank in the link order.
    #[inline]
    pub(crate) fn top_position(&self, top: u8) -> u8 {
        match self.rules.sequences {
            Sequences::Classic => top,
            Sequences::LowA2 => match top as usize {
                TWO => 1,
                11 => 13,
                r => r as u8 + 2,
            },
        }
    }

    /// Strength of a non-bomb reading within its kind and length.
    #[inline]
    pub fn strength(&self, kind: Kind, rank: u8, length: u8) -> u8 {
        if !kind.is_sequence() {
            return rank;
        }
        if self.rules.plane_222333_high
            && length == 2
            && rank == 0
            && matches!(kind, Kind::PlaneSingles | Kind::PlanePairs)
        {
            return TOP_STRENGTH;
        }
        self.top_position(rank)
    }

    /// Ladder power of a rank bomb of `n` cards, `soft` when it holds laizi.
    #[inline]
    pub(crate) fn rank_bomb_power(&self, rank: u8, n: u8, soft: bool) -> u16 {
        let class = match self.rules.ladder {
            Ladder::CountThenRank => n as u16,
            Ladder::Laizi => match n {
                4 if soft => 4,
                4 => 5,
                // Hi bombs: one class each, or one class for all.
                n if self.rules.six_beats_five => n as u16 + 1,
                _ => 6,
            },
        };
        class * CLASS + rank as u16 * 4
    }

    /// Ladder power of a joker combination, 0 if it is no bomb.
    #[inline]
    pub(crate) fn king_power(&self, small: u8, big: u8) -> u16 {
        match (small, big) {
            (s @ 0..=4, b @ 0..=4) => self.king_power[s as usize][b as usize],
            _ => 0,
        }
    }

    /// Ladder power of a bomb or king bomb reading, 0 for any other kind.
    #[inline]
    pub fn power(&self, m: &Move) -> u16 {
        match m.kind {
            Kind::Bomb => self.rank_bomb_power(m.rank, m.length, m.cards.get(LAIZI) > 0),
            Kind::KingBomb => self.king_power(m.cards.get(SMALL_JOKER), m.cards.get(BIG_JOKER)),
            _ => 0,
        }
    }

    /// Does play `a` beat play `b` (docs/rules.md#kinds, general rules 1–2)?
    pub fn beats(&self, a: &Move, b: &Move) -> bool {
        match (a.kind.is_bomb(), b.kind.is_bomb()) {
            (true, true) => self.power(a) > self.power(b),
            (true, false) => true,
            (false, true) => false,
            (false, false) => {
                a.kind == b.kind
                    && a.length == b.length
                    && a.cards.len() == b.cards.len()
                    && self.strength(a.kind, a.rank, a.length)
                        > self.strength(b.kind, b.rank, b.length)
            }
        }
    }

    /// The first four fields of `hint_key` packed in one integer that
    /// orders as they do: a scan for the smallest play (the greedy
    /// policy, at every turn of every deal) compares these and builds the
    /// whole key only on a tie.
    pub fn hint_head(&self, m: &Move) -> u64 {
        let strength = if m.kind.is_bomb() {
            0
        } else {
            self.strength(m.kind, m.rank, m.length)
        };
        (u64::from(m.kind.is_bomb()) << 48)
            | (u64::from(self.power(m)) << 32)
            | (u64::from(strength) << 24)
            | m.cards.len() as u64
    }

    /// `hint_key` as two integers that order exactly as it does: the
    /// head (`hint_head`, then the kind) and the cards, low ranks first (a
    /// slot's count compared as `u8::MAX - count` is the whole row read as
    /// one big-endian integer, negated). Sorting by it compares integers,
    /// with no key built per comparison.
    #[inline]
    pub fn hint_rank(&self, m: &Move) -> (u64, u128) {
        let head = (self.hint_head(m) << 8) | u64::from(m.kind as u8);
        (head, !u128::from_be_bytes(m.cards.0))
    }

    /// Order key for hints: non-bombs before bombs, weaker before stronger,
    /// fewer cards first, then lower kickers.
    pub fn hint_key(&self, m: &Move) -> (bool, u16, u8, usize, Kind, [u8; SLOTS]) {
        let strength = if m.kind.is_bomb() {
            0
        } else {
            self.strength(m.kind, m.rank, m.length)
        };
        // Reverse counts so that holding lower ranks sorts first.
        let mut low_first = [0u8; SLOTS];
        for (slot, n) in m.cards.0.iter().enumerate() {
            low_first[slot] = u8::MAX - n;
        }
        (
            m.kind.is_bomb(),
            self.power(m),
            strength,
            m.cards.len(),
            m.kind,
            low_first,
        )
    }
}

pub(crate) fn validate(r: &Rules) -> Result<(), RulesError> {
    let bad = |option: &'static str, why: String| Err(RulesError::Conflict { option, why });
    in_range("players", r.players.into(), 2, 8)?;
    in_range("decks", r.decks.into(), 1, 4)?;
    in_range("laizi", r.laizi.into(), 0, 4)?;
    let dealt = r.players as usize * r.hand_size as usize + r.kitty as usize + r.set_aside as usize;
    if dealt != r.deck_size() || r.hand_size == 0 {
        return Err(RulesError::DealSize {
            dealt,
            deck: r.deck_size(),
        });
    }
    if !r.six_beats_five && r.ladder != Ladder::Laizi {
        return bad(
            "six_beats_five",
            "only the laizi ladder can rank hi bombs by rank alone; more cards always beat fewer on the count_then_rank ladder".into(),
        );
    }
    let mut seen = [[false; 5]; 5];
    for k in &r.king_bombs {
        if k.small > r.decks || k.big > r.decks || k.small + k.big < 2 {
            return bad(
                "king_bombs",
                format!(
                    "{} small and {} big jokers: needs 2 or more jokers and at most {} of each",
                    k.small, k.big, r.decks
                ),
            );
        }
        if !(1..=4 * r.decks + r.laizi + 1).contains(&k.above) {
            return bad(
                "king_bombs",
                format!("`above` {} is outside the bomb sizes", k.above),
            );
        }
        if k.order >= KING_OFFSET as u8 {
            return bad("king_bombs", format!("`order` {} is 64 or more", k.order));
        }
        if std::mem::replace(&mut seen[k.small as usize][k.big as usize], true) {
            return bad(
                "king_bombs",
                format!("{} small + {} big jokers listed twice", k.small, k.big),
            );
        }
        if r.joker_pairs && matches!((k.small, k.big), (2, 0) | (0, 2)) {
            return bad(
                "king_bombs",
                "XX or DD cannot be a king bomb while joker_pairs makes it a pair".into(),
            );
        }
        if r.joker_trio_pair && matches!((k.small, k.big), (3, 2) | (2, 3)) {
            return bad(
                "king_bombs",
                "XXXDD / DDDXX cannot be a king bomb while joker_trio_pair makes it a trio_pair"
                    .into(),
            );
        }
    }
    Ok(())
}
