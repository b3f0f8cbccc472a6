//! The vocabulary of the table: every decision a seat can take, in the
//! words records, `Game` and the environments use, with the ids the action
//! tables and batched environments give them, and the phases decisions are
//! taken in.

use crate::play::{Kind, Move};
use std::fmt;
use std::sync::OnceLock;

/// One decision. Plays carry the reading (`Move`); every other decision is
/// a short word (`Display` spells it, `Action::parse` reads it back).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Pass,
    Bid(u8),
    Call,
    /// Five-player-3deck grab round: one more grab (a `pass` ends the turn).
    Grab,
    /// Five-player reveal round: `reveal` (true) or `keep` (false).
    Reveal(bool),
    Double(bool),
    Show(bool),
    Kick(bool),
    CounterKick(bool),
    /// Five-player-3deck, the main landlord's choice.
    OpenSolo,
    HiddenSolo,
    CallFriend,
    /// Six-player-teams: a farmer's side, `side:main` (false) or
    /// `side:counter` (true).
    Side(bool),
    Play(Move),
}

/// Every decision that is a word, in id order, with its text: `pass`, the
/// bids, then the rest. This list is the vocabulary: parsing, display,
/// the word ids of the action tables and the kind ids of the batched
/// environments are all read from it.
pub const WORDS: [(&str, Action); 21] = [
    ("pass", Action::Pass),
    ("bid:1", Action::Bid(1)),
    ("bid:2", Action::Bid(2)),
    ("bid:3", Action::Bid(3)),
    ("call", Action::Call),
    ("grab", Action::Grab),
    ("reveal", Action::Reveal(true)),
    ("keep", Action::Reveal(false)),
    ("double", Action::Double(true)),
    ("no-double", Action::Double(false)),
    ("show", Action::Show(true)),
    ("no-show", Action::Show(false)),
    ("kick", Action::Kick(true)),
    ("no-kick", Action::Kick(false)),
    ("counter-kick", Action::CounterKick(true)),
    ("no-counter-kick", Action::CounterKick(false)),
    ("open-solo", Action::OpenSolo),
    ("hidden-solo", Action::HiddenSolo),
    ("call-friend", Action::CallFriend),
    ("side:main", Action::Side(false)),
    ("side:counter", Action::Side(true)),
];

/// The kind id of `pass`: the first after the play kinds (`Kind::ALL`).
pub const PASS_KIND: u8 = Kind::ALL.len() as u8;
/// The kind id every bid shares (its value tells bids apart).
pub const BID_KIND: u8 = PASS_KIND + 1;

/// The name of each kind id: the play kinds, `pass`, `bid`, then every
/// other word (docs/rl.md).
pub fn kind_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let plays = Kind::ALL.iter().map(|k| k.id());
        let words = WORDS.iter().filter(|(_, a)| !matches!(a, Action::Bid(_)));
        let mut names: Vec<&'static str> = plays.chain(words.map(|(w, _)| *w)).collect();
        names.insert(BID_KIND as usize, "bid");
        names
    })
}

impl Action {
    /// The decision a word names (`"bid:2"`, `"no-kick"`); plays are not
    /// words (the table reads them with the engine).
    pub fn parse(word: &str) -> Option<Action> {
        WORDS.iter().find(|(w, _)| *w == word).map(|&(_, a)| a)
    }

    pub fn is_play(&self) -> bool {
        matches!(self, Action::Play(_))
    }

    /// A word's place in [`WORDS`]; None for a play (and a bid outside
    /// 1..=3, which no table offers). Read from `WORDS` (through a table
    /// built from it at compile time), so moving a word moves its id.
    #[inline]
    pub fn word_id(&self) -> Option<usize> {
        let at = WORD_AT[word_key(self)?];
        (at != NO_WORD).then_some(at as usize)
    }

    /// The text of a word (`"pass"`, `"bid:2"`); None for a play. No
    /// formatting: choosers and observations read words at every step.
    #[inline]
    pub fn word(&self) -> Option<&'static str> {
        self.word_id().map(|i| WORDS[i].0)
    }

    /// The action's kind id ([`kind_names`]): a play's kind, or its word's.
    #[inline]
    pub fn kind_id(&self) -> u8 {
        match (self, self.word_id()) {
            (Action::Play(m), _) => m.kind as u8,
            (_, Some(i)) => WORD_KINDS[i],
            (_, None) => BID_KIND, // a bid no table offers
        }
    }
}

/// A decision's slot in a small key space: its variant, and its value
/// where it carries one (no place in `WORDS` is written here). None for a
/// play and an out-of-range bid.
const fn word_key(action: &Action) -> Option<usize> {
    const WIDTH: usize = 4; // the most values a word variant takes (bids 0..=3)
    let (variant, value) = match *action {
        Action::Play(_) => return None,
        Action::Bid(b) if b > 3 => return None,
        Action::Pass => (0, 0),
        Action::Bid(b) => (1, b as usize),
        Action::Call => (2, 0),
        Action::Grab => (3, 0),
        Action::Reveal(yes) => (4, yes as usize),
        Action::Double(yes) => (5, yes as usize),
        Action::Show(yes) => (6, yes as usize),
        Action::Kick(yes) => (7, yes as usize),
        Action::CounterKick(yes) => (8, yes as usize),
        Action::OpenSolo => (9, 0),
        Action::HiddenSolo => (10, 0),
        Action::CallFriend => (11, 0),
        Action::Side(counter) => (12, counter as usize),
    };
    Some(variant * WIDTH + value)
}

const NO_WORD: u8 = u8::MAX;
const WORD_KEYS: usize = 13 * 4;

/// `WORD_AT[word_key(a)]`: `a`'s place in `WORDS`, or `NO_WORD`.
const WORD_AT: [u8; WORD_KEYS] = {
    let mut at = [NO_WORD; WORD_KEYS];
    let mut i = 0;
    while i < WORDS.len() {
        match word_key(&WORDS[i].1) {
            Some(k) if at[k] == NO_WORD => at[k] = i as u8,
            _ => panic!("every word of WORDS has a key of its own"),
        }
        i += 1;
    }
    at
};

/// The kind id of each word of `WORDS`, in its order: `pass` then `bid`
/// (every bid's), then the other words one each (`kind_names`' order).
const WORD_KINDS: [u8; WORDS.len()] = {
    let mut kinds = [0u8; WORDS.len()];
    let mut next = BID_KIND + 1;
    let mut i = 0;
    while i < WORDS.len() {
        kinds[i] = match WORDS[i].1 {
            Action::Pass => PASS_KIND,
            Action::Bid(_) => BID_KIND,
            _ => {
                next += 1;
                next - 1
            }
        };
        i += 1;
    }
    kinds
};

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self, self.word()) {
            (Action::Play(m), _) => write!(f, "{m}"),
            (_, Some(w)) => f.write_str(w),
            (Action::Bid(b), None) => write!(f, "bid:{b}"),
            (_, None) => unreachable!("every action but a play has a word"),
        }
    }
}

/// Where a deal stands. Each family uses some of the decision phases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Bid,
    Kick,
    Grab,
    /// Five-player-3deck: the main landlord's solo or friend call.
    Call,
    Reveal,
    Double,
    Show,
    ChooseSide,
    Play,
    Over,
}

impl Phase {
    /// Every phase, in id order (`Phase::id`).
    pub const ALL: [Phase; 10] = [
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

    /// The phase's place in [`Phase::ALL`].
    #[inline]
    pub fn id(self) -> u8 {
        self as u8
    }

    /// As `Game.phase` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Bid => "bid",
            Phase::Kick => "kick",
            Phase::Grab => "grab",
            Phase::Call => "call",
            Phase::Reveal => "reveal",
            Phase::Double => "double",
            Phase::Show => "show",
            Phase::ChooseSide => "choose_side",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_reads_back_and_has_its_place() {
        for (i, (w, a)) in WORDS.iter().enumerate() {
            assert_eq!(Action::parse(w), Some(*a));
            assert_eq!(a.to_string(), *w);
            assert_eq!(a.word_id(), Some(i), "{w}");
        }
        for bad in ["bid:0", "bid:4", "bid:", "Pass", "3"] {
            assert_eq!(Action::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn kind_ids_name_every_kind_once() {
        let names = kind_names();
        for (i, k) in Kind::ALL.iter().enumerate() {
            assert_eq!(names[i], k.id());
            assert_eq!(*k as usize, i, "a kind's id is its place");
        }
        for (w, a) in WORDS {
            let name = names[a.kind_id() as usize];
            assert_eq!(name, if w.starts_with("bid:") { "bid" } else { w });
        }
        let mut sorted = names.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        assert_eq!(names.len(), Kind::ALL.len() + WORDS.len() - 2);
    }

    #[test]
    fn phases_are_numbered_by_their_place() {
        for (i, p) in Phase::ALL.iter().enumerate() {
            assert_eq!(p.id() as usize, i);
        }
    }
}
