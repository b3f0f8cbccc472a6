//! Numeric ids for actions and phases, as observations carry them.
//!
//! A play's kind id is its [`Kind`]'s place in `Kind::ALL` (0..14); every
//! other decision has its own id after those, so one `kind` column tells
//! every legal action apart by type. A bid's value is in its `rank`.

use crate::play::{Kind, Move};
use crate::table::{Action, Phase};

/// The name of each action kind id.
pub const KIND_NAMES: [&str; 33] = [
    "single",
    "pair",
    "trio",
    "trio_single",
    "trio_pair",
    "straight",
    "pair_straight",
    "trio_straight",
    "plane_singles",
    "plane_pairs",
    "four_two_singles",
    "four_two_pairs",
    "bomb",
    "king_bomb",
    "pass",
    "bid",
    "call",
    "grab",
    "reveal",
    "keep",
    "double",
    "no-double",
    "show",
    "no-show",
    "kick",
    "no-kick",
    "counter-kick",
    "no-counter-kick",
    "open-solo",
    "hidden-solo",
    "call-friend",
    "side:main",
    "side:counter",
];

/// The kind id of a pass.
pub const PASS: i8 = 14;

/// Phase ids: the place of each phase in this list.
pub const PHASES: [Phase; 10] = [
    Phase::Bid,
    Phase::Kick,
    Phase::Grab,
    Phase::Call,
    Phase::Reveal,
    Phase::Double,
    Phase::Show,
    Phase::ChooseSide,
    Phase::Play,
    Phase::Over,
];

/// `phase`'s place in [`PHASES`] (a match, not a search: it runs for
/// every env at every step; a test checks the two agree).
pub fn phase_id(phase: Phase) -> i8 {
    match phase {
        Phase::Bid => 0,
        Phase::Kick => 1,
        Phase::Grab => 2,
        Phase::Call => 3,
        Phase::Reveal => 4,
        Phase::Double => 5,
        Phase::Show => 6,
        Phase::ChooseSide => 7,
        Phase::Play => 8,
        Phase::Over => 9,
    }
}

fn play_kind_id(kind: Kind) -> i8 {
    kind as u8 as i8
}

/// `describe` of a play.
#[inline]
pub fn describe_play(m: &Move) -> (i8, i8, i8) {
    (play_kind_id(m.kind), m.rank as i8, m.length as i8)
}

/// `(kind id, rank, length)` of an action: a play's own rank and length;
/// a bid's value as its rank; 0 and 0 for the other words.
pub fn describe(action: &Action) -> (i8, i8, i8) {
    let id = match action {
        Action::Play(m) => return describe_play(m),
        Action::Bid(b) => return (15, *b as i8, 0),
        Action::Pass => PASS,
        Action::Call => 16,
        Action::Grab => 17,
        Action::Reveal(yes) => 19 - i8::from(*yes),
        Action::Double(yes) => 21 - i8::from(*yes),
        Action::Show(yes) => 23 - i8::from(*yes),
        Action::Kick(yes) => 25 - i8::from(*yes),
        Action::CounterKick(yes) => 27 - i8::from(*yes),
        Action::OpenSolo => 28,
        Action::HiddenSolo => 29,
        Action::CallFriend => 30,
        Action::Side(counter) => 31 + i8::from(*counter),
    };
    (id, 0, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_kinds_come_first_in_kind_order() {
        for (i, k) in Kind::ALL.iter().enumerate() {
            assert_eq!(KIND_NAMES[i], k.id());
            assert_eq!(play_kind_id(*k), i as i8);
        }
    }

    #[test]
    fn every_word_has_its_own_id() {
        for name in &KIND_NAMES[14..] {
            let word = if *name == "bid" { "bid:2" } else { name };
            let a = Action::parse(word).unwrap();
            let (id, rank, _) = describe(&a);
            assert_eq!(KIND_NAMES[id as usize], *name);
            assert_eq!(rank, if *name == "bid" { 2 } else { 0 });
        }
    }

    #[test]
    fn phases_have_distinct_ids() {
        for (i, p) in PHASES.iter().enumerate() {
            assert_eq!(phase_id(*p), i as i8);
        }
    }
}
