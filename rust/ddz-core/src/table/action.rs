//! Every decision a seat can take, in the words records and `Game` use.

use crate::play::Move;
use std::fmt;

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

impl Action {
    /// The decision a word names (`"bid:2"`, `"no-kick"`); plays are not
    /// words (the table reads them with the engine).
    pub fn parse(word: &str) -> Option<Action> {
        Some(match word {
            "pass" => Action::Pass,
            "call" => Action::Call,
            "grab" => Action::Grab,
            "reveal" => Action::Reveal(true),
            "keep" => Action::Reveal(false),
            "double" => Action::Double(true),
            "no-double" => Action::Double(false),
            "show" => Action::Show(true),
            "no-show" => Action::Show(false),
            "kick" => Action::Kick(true),
            "no-kick" => Action::Kick(false),
            "counter-kick" => Action::CounterKick(true),
            "no-counter-kick" => Action::CounterKick(false),
            "open-solo" => Action::OpenSolo,
            "hidden-solo" => Action::HiddenSolo,
            "call-friend" => Action::CallFriend,
            "side:main" => Action::Side(false),
            "side:counter" => Action::Side(true),
            _ => {
                let bid = word.strip_prefix("bid:")?;
                match bid {
                    "1" | "2" | "3" => Action::Bid(bid.parse().ok()?),
                    _ => return None,
                }
            }
        })
    }

    pub fn is_play(&self) -> bool {
        matches!(self, Action::Play(_))
    }
}

impl Action {
    /// The word of a decision that has a fixed one (every action but a
    /// play and a bid): no formatting, for choosers and observations that
    /// read words at every step.
    pub fn word(&self) -> Option<&'static str> {
        Some(match self {
            Action::Play(_) | Action::Bid(_) => return None,
            Action::Pass => "pass",
            Action::Call => "call",
            Action::Grab => "grab",
            Action::Reveal(true) => "reveal",
            Action::Reveal(false) => "keep",
            Action::Double(true) => "double",
            Action::Double(false) => "no-double",
            Action::Show(true) => "show",
            Action::Show(false) => "no-show",
            Action::Kick(true) => "kick",
            Action::Kick(false) => "no-kick",
            Action::CounterKick(true) => "counter-kick",
            Action::CounterKick(false) => "no-counter-kick",
            Action::OpenSolo => "open-solo",
            Action::HiddenSolo => "hidden-solo",
            Action::CallFriend => "call-friend",
            Action::Side(false) => "side:main",
            Action::Side(true) => "side:counter",
        })
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Play(m) => write!(f, "{m}"),
            Action::Bid(b) => write!(f, "bid:{b}"),
            word => f.write_str(word.word().expect("every other action has a word")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_reads_back() {
        let words = [
            "pass",
            "bid:1",
            "bid:2",
            "bid:3",
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
        for w in words {
            assert_eq!(Action::parse(w).unwrap().to_string(), w);
        }
        for bad in ["bid:0", "bid:4", "bid:", "Pass", "3"] {
            assert_eq!(Action::parse(bad), None, "{bad}");
        }
    }
}
