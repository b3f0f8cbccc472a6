//! Numeric ids for actions and phases, as observations carry them: the
//! table's vocabulary (`table::action`) gives them; this file packs them
//! into the columns' `(kind, rank, length)`.
//!
//! A play's kind id is its [`Kind`]'s place in `Kind::ALL` (0..14); every
//! other decision has its own id after those, so one `kind` column tells
//! every legal action apart by type. A bid's value is in its `rank`.

use crate::play::Move;
use crate::table::action::PASS_KIND;
use crate::table::Action;

/// The kind id of a pass.
pub const PASS: i8 = PASS_KIND as i8;

/// `describe` of a play.
#[inline]
pub fn describe_play(m: &Move) -> (i8, i8, i8) {
    (m.kind as u8 as i8, m.rank as i8, m.length as i8)
}

/// `(kind id, rank, length)` of an action: a play's own rank and length;
/// a bid's value as its rank; 0 and 0 for the other words.
pub fn describe(action: &Action) -> (i8, i8, i8) {
    match action {
        Action::Play(m) => describe_play(m),
        Action::Bid(b) => (action.kind_id() as i8, *b as i8, 0),
        word => (word.kind_id() as i8, 0, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::action::{kind_names, WORDS};

    #[test]
    fn every_word_has_its_own_id() {
        for (word, a) in WORDS {
            let (id, rank, _) = describe(&a);
            let name = if word.starts_with("bid:") {
                "bid"
            } else {
                word
            };
            assert_eq!(kind_names()[id as usize], name);
            let bid = word.strip_prefix("bid:").map_or(0, |b| b.parse().unwrap());
            assert_eq!(rank, bid);
        }
    }
}
