//! Kinds of play and the `Move` value.

use crate::cards::{Cards, SYMBOLS};
use crate::engine::Engine;
use crate::generate::Target;
use std::fmt;

/// The kinds of play of docs/rules.md#kinds, in the order hints list them within a rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    Single,
    Pair,
    Trio,
    TrioSingle,
    TrioPair,
    Straight,
    PairStraight,
    TrioStraight,
    PlaneSingles,
    PlanePairs,
    FourTwoSingles,
    FourTwoPairs,
    Bomb,
    KingBomb,
}

impl Kind {
    pub const ALL: [Kind; 14] = [
        Kind::Single,
        Kind::Pair,
        Kind::Trio,
        Kind::TrioSingle,
        Kind::TrioPair,
        Kind::Straight,
        Kind::PairStraight,
        Kind::TrioStraight,
        Kind::PlaneSingles,
        Kind::PlanePairs,
        Kind::FourTwoSingles,
        Kind::FourTwoPairs,
        Kind::Bomb,
        Kind::KingBomb,
    ];

    /// The kind id of docs/rules.md#kinds.
    pub fn id(self) -> &'static str {
        match self {
            Kind::Single => "single",
            Kind::Pair => "pair",
            Kind::Trio => "trio",
            Kind::TrioSingle => "trio_single",
            Kind::TrioPair => "trio_pair",
            Kind::Straight => "straight",
            Kind::PairStraight => "pair_straight",
            Kind::TrioStraight => "trio_straight",
            Kind::PlaneSingles => "plane_singles",
            Kind::PlanePairs => "plane_pairs",
            Kind::FourTwoSingles => "four_two_singles",
            Kind::FourTwoPairs => "four_two_pairs",
            Kind::Bomb => "bomb",
            Kind::KingBomb => "king_bomb",
        }
    }

    pub fn from_id(id: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// Bombs and king bombs beat every other kind.
    #[inline]
    pub fn is_bomb(self) -> bool {
        matches!(self, Kind::Bomb | Kind::KingBomb)
    }

    /// Kinds whose body is a chain of links compared by the top link.
    #[inline]
    pub fn is_sequence(self) -> bool {
        matches!(
            self,
            Kind::Straight
                | Kind::PairStraight
                | Kind::TrioStraight
                | Kind::PlaneSingles
                | Kind::PlanePairs
        )
    }
}

/// One reading of a play. Its identity is all five fields (docs/rules.md#kickers).
///
/// `rank` is the slot deciding its strength (a sequence's top, a trio's or
/// four's rank, a bomb's rank, `D` or `X` for a king bomb); `length` is the
/// number of links of a sequence or plane, the cards of a bomb, else 1.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub cards: Cards,
    /// `cards` with each laizi replaced by what it stands for (`== cards` without laizi).
    pub represents: Cards,
    pub kind: Kind,
    pub rank: u8,
    pub length: u8,
}

impl Move {
    pub fn new(kind: Kind, rank: usize, length: u8, cards: Cards) -> Move {
        Move {
            cards,
            represents: cards,
            kind,
            rank: rank as u8,
            length,
        }
    }

    /// Same kind and length as `other`: the plays that can answer it
    /// without a bomb, given a higher rank.
    #[inline]
    pub fn same_shape(&self, other: &Move) -> bool {
        self.kind == other.kind && self.length == other.length
    }

    pub fn rank_symbol(&self) -> char {
        SYMBOLS[self.rank as usize]
    }
}

impl fmt::Display for Move {
    /// Canonical cards; with laizi, `actual=represented`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.cards == self.represents {
            write!(f, "{}", self.cards)
        } else {
            write!(f, "{}={}", self.cards, self.represents)
        }
    }
}

/// A compact play for searches: the cards that leave the hand, the kind, and
/// the play-to-beat value they set. 32 bytes where a `Move` takes 48, because
/// a search never needs what laizi stand for once the target is known.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Play {
    pub cards: Cards,
    pub kind: Kind,
    pub to_beat: Target,
}

impl Play {
    pub fn of(engine: &Engine, m: &Move) -> Play {
        Play {
            cards: m.cards,
            kind: m.kind,
            to_beat: engine.to_beat(m),
        }
    }
}
