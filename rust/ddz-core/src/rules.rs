//! Rule sets as plain data: every option of docs/rules.md, and the ten presets.
//!
//! A `Rules` value is what users see and serialise; `Engine::new` checks it
//! and precomputes what the generator needs.

use crate::options::{rule_options, word_option, ReadBy};
use serde::{Deserialize, Serialize};

word_option! {
    /// How sequences (straights, pair straights, trio straights) are linked.
    pub enum Sequences {
        /// Links `3 … A`; `2` and jokers never appear.
        Classic = "classic",
        /// Links `A(low) 2 3 … K A(high)`, `A` at most once, top capped at `A`.
        LowA2 = "low_a2",
    }
}

word_option! {
    /// How bombs of ranks compare.
    pub enum Ladder {
        /// More cards beat fewer; equal counts compare by rank.
        CountThenRank = "count_then_rank",
        /// Laizi ladder: soft four < hard four < (king bombs placed above 5) < five < six.
        Laizi = "laizi",
    }
}

word_option! {
    /// How a seat's voluntary double changes the multiplier.
    pub enum DoubleStep {
        X2 = "x2",
        Plus1 = "plus1",
    }
}

word_option! {
    /// Five-player-3deck scoring scheme (docs/flow-five-player-3deck.md).
    pub enum ScoreScheme {
        /// base × level points
        Multiply = "multiply",
        /// level points × 2^base
        Power = "power",
    }
}

word_option! {
    /// The deal flow a rule set plays: how the roles are chosen, who sees
    /// what, how a deal is scored (docs/rules.md#flow). Each is one family of
    /// the table; the options below tune it.
    pub enum Flow {
        /// One landlord, chosen by bidding, against the rest (classic,
        /// two-player, four-player, laizi).
        OneLandlord = "one_landlord",
        /// The marked card's holder is the open landlord, the holder of its
        /// other copy the hidden one (five-player).
        HiddenPartner = "hidden_partner",
        /// Grab for the main landlord, who plays solo or calls a friend by a
        /// card (five-player-3deck).
        CalledFriend = "called_friend",
        /// A public and a secret mark name two landlords (six-player-2v4,
        /// six-player-teams).
        TwoMarks = "two_marks",
        /// The three copies of a marked card name three landlords against
        /// three farmers (six-player-3v3, six-player-3v3-kitty).
        ThreeCopies = "three_copies",
    }
}

impl Flow {
    /// The presets that play this flow.
    pub fn presets(self) -> impl Iterator<Item = &'static str> {
        PRESETS
            .into_iter()
            .filter(move |p| Rules::preset(p).is_ok_and(|r| r.flow == self))
    }
}

word_option! {
    /// How the one-landlord presets choose their landlord (docs/table.md).
    pub enum Bidding {
        /// Bids 1-3 or pass, round and round, until a 3 or until every other
        /// seat has passed after a bid (classic, four-player).
        Rounds = "rounds",
        /// Call or pass in turn; the first call takes it (two-player).
        Call = "call",
        /// One bid each in turn; a 3 ends it (laizi).
        Once = "once",
    }
}

word_option! {
    /// How several landlords share the kitty (the six-player presets).
    pub enum KittySplit {
        /// The kitty sorted low to high and dealt to the landlords in snake
        /// order: first, second, second, first, first, ... (the kitty is
        /// recorded sorted).
        Snake = "snake",
        /// Equal runs from the top of the kitty as dealt (and recorded), in the
        /// order the landlords were named.
        InOrder = "in_order",
    }
}

word_option! {
    /// Six-player-3v3: the base S when two rounds of bidding each named an
    /// open landlord.
    pub enum TwoBids {
        Higher = "higher",
        Sum = "sum",
        First = "first",
        Last = "last",
    }
}

/// A joker combination that is a bomb, and its place on the ladder.
///
/// `above` is a rank-bomb size class: the king bomb beats every rank bomb of
/// that class and loses to every rank bomb of the next class. King bombs in
/// the same gap compare by `order`; equal orders are equal bombs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KingBomb {
    pub small: u8,
    pub big: u8,
    pub above: u8,
    #[serde(default)]
    pub order: u8,
}

const ONE_LANDLORD: ReadBy = ReadBy::Flows(&[Flow::OneLandlord]);
const CALLED_FRIEND: ReadBy = ReadBy::Flows(&[Flow::CalledFriend]);
const TWO_MARKS: ReadBy = ReadBy::Flows(&[Flow::TwoMarks]);
const THREE_COPIES: ReadBy = ReadBy::Flows(&[Flow::ThreeCopies]);
const SIX: ReadBy = ReadBy::Flows(&[Flow::TwoMarks, Flow::ThreeCopies]);
const EVERY: ReadBy = ReadBy::Every;

// Every option, declared once (docs/extending.md#adding-a-rule-option):
// its doc, type, the record format it first appeared in (`since`, the
// place in `table::record::FORMATS` counted from 1; a new option takes the
// newest) and the flows that read it. The order is `to_json`'s.
rule_options! {
    /// The preset this rule set started from: a name only, which nothing
    /// reads to decide how to play (`flow` and the options do).
    preset: String, since 1, ReadBy::Nobody;
    /// The deal flow: how roles are chosen, who sees what, the scoring.
    flow: Flow, since 2, EVERY;
    /// Seats at the table (2 to 8).
    players: u8, since 1, EVERY;
    /// 54-card decks shuffled together (1 to 4).
    decks: u8, since 1, EVERY;
    /// Wild cards in the deck (0 or more).
    laizi: u8, since 1, EVERY;
    /// Cards dealt to each seat.
    hand_size: u8, since 1, EVERY;
    /// Cards left over for the landlord (or landlords) to take.
    kitty: u8, since 1, EVERY;
    /// Cards dealt to nobody and never seen (two-player: 11).
    set_aside: u8, since 1, EVERY;

    // ---- kinds that exist ----
    /// A trio may carry one single card (`trio_single`).
    trio_single: bool, since 1, EVERY;
    /// A plane may carry single cards as wings (`plane_singles`).
    plane_singles: bool, since 1, EVERY;
    /// Four of a rank may carry two single cards (`four_two_singles`).
    four_two_singles: bool, since 1, EVERY;
    /// Four of a rank may carry two pairs (`four_two_pairs`).
    four_two_pairs: bool, since 1, EVERY;
    /// `XX` and `DD` are pairs (and may be wings or trio_pair kickers).
    joker_pairs: bool, since 1, EVERY;
    /// Five jokers split three-and-two (`XXXDD`, `DDDXX`) are a trio_pair of rank X or D.
    joker_trio_pair: bool, since 1, EVERY;

    // ---- sequences and kickers ----
    /// How sequences link their ranks: `classic` (3 to A) or `low_a2`.
    sequences: Sequences, since 1, EVERY;
    /// Plane pair-wings must themselves be consecutive pairs.
    wings_consecutive: bool, since 1, EVERY;
    /// A non-bomb play never holds 4 or more cards of one rank (beyond a four_two body).
    no_bomb_inside: bool, since 1, EVERY;
    /// `X` and `D` may be kickers together (plane single wings, four_two_singles).
    rocket_as_kickers: bool, since 1, EVERY;
    /// Two-trio winged planes: `AAA222` lowest, `222333` highest (docs/presets.md#low-a2).
    plane_222333_high: bool, since 1, EVERY;

    // ---- bombs ----
    /// How rank bombs compare: `count_then_rank`, or the `laizi` ladder.
    ladder: Ladder, since 1, EVERY;
    /// The joker combinations that are bombs, and their places on the ladder.
    king_bombs: Vec<KingBomb>, since 1, EVERY;

    // ---- flow and scoring (used by the game layer and the simulator) ----
    /// A king bomb of every joker but one (七星聚) takes the last joker out
    /// of its holder's hand, face up, for good (docs/flow-six-player-2v4.md).
    seven_star_kills_last_joker: bool, since 1, TWO_MARKS;
    /// Spring: when the losing side played no card, the stake doubles.
    spring: bool, since 1, EVERY;
    /// Anti-spring: when the landlords lose having made only the first
    /// lead, the stake doubles.
    anti_spring: bool, since 1, EVERY;
    /// What a seat's voluntary double does: `x2`, or `plus1` to a count.
    double_step: DoubleStep, since 1, ReadBy::Flows(&[Flow::HiddenPartner, Flow::ThreeCopies]);
    /// Five-player-3deck: one player's points are base × level points
    /// (`multiply`) or level points × 2^base (`power`).
    score_scheme: ScoreScheme, since 1, CALLED_FRIEND;
    /// A deal ends at once on a hand the flow names: five-player-3deck's
    /// main landlord with no pair, a bomb of 10 or more, or no bomb; the
    /// auto-win hands of six-player-2v4.
    auto_win: bool, since 1, ReadBy::Flows(&[Flow::CalledFriend, Flow::TwoMarks]);

    // ---- the one-landlord flow (classic, two-player, four-player, laizi) ----
    /// How the landlord is chosen.
    bidding: Bidding, since 2, ReadBy::Flows(&[Flow::OneLandlord, Flow::TwoMarks, Flow::ThreeCopies]);
    /// Everyone sees the kitty once the landlord takes it.
    kitty_shown: bool, since 2, ReadBy::Flows(&[Flow::OneLandlord, Flow::TwoMarks, Flow::ThreeCopies]);
    /// The smallest rank bomb (in cards) that doubles the stake.
    doubling_bomb: u8, since 2, ReadBy::Flows(&[Flow::OneLandlord, Flow::HiddenPartner]);
    /// After a bid of 3, the seats that have not bid may kick, then the
    /// landlord may counter-kick (needs `bidding: once`).
    kicks: bool, since 2, ONE_LANDLORD;
    /// What each kick and the counter-kick multiply the stake by.
    kick_factor: u8, since 2, ONE_LANDLORD;
    /// When every seat passes, the first seat in bidding order holding the
    /// big joker with a 2 or with the small joker must take it at 1, rather
    /// than a redeal.
    strong_hand_bids: bool, since 2, ONE_LANDLORD;
    /// Laizi ladder: a hi bomb of six cards beats one of five; off, hi
    /// bombs compare by rank only.
    six_beats_five: bool, since 2, EVERY;

    // ---- the five-player flows ----
    /// Five-player-3deck: one ordinary player's points before the base
    /// (基础分, by player level in the source).
    level_points: u16, since 1, CALLED_FRIEND;
    /// Five-player-3deck: the base when nobody grabs.
    no_grab_base: u8, since 1, CALLED_FRIEND;
    // ---- the six-player flows (docs/flow-six-player-*.md) ----
    /// Six-player-2v4: one round of bids (procedure `bidding`) from the
    /// public-mark holder picks the first landlord (nobody bids: that
    /// holder); off, the public-mark holder is it (-teams).
    landlord_bidding: bool, since 1, TWO_MARKS;
    /// Six-player-teams: the secret-mark holder is the counter landlord and
    /// the four farmers pick a side, three against three; off, both
    /// landlords play against the four farmers (-2v4).
    farmers_pick_sides: bool, since 1, TWO_MARKS;
    /// How the landlords share the kitty.
    kitty_split: KittySplit, since 1, SIX;
    /// Six-player-3v3: another seat holding both other copies of the marked
    /// card is an open landlord (source 000); off, a hidden one (002).
    both_copies_open: bool, since 1, THREE_COPIES;
    /// Six-player-3v3: the receiver of all three copies wins at once
    /// (source 000); off, two rounds of bidding name two open landlords.
    three_copies_win: bool, since 1, THREE_COPIES;
    /// Six-player-3v3: when every seat passes, the first seat in bidding
    /// order that may bid takes it at 1; off, the cards are dealt again.
    forced_taker: bool, since 1, THREE_COPIES;
    /// Six-player-3v3: the base S after two rounds of bidding.
    two_bids_base: TwoBids, since 1, THREE_COPIES;
}

/// The preset names, in the order of docs/rules.md#presets.
pub const PRESETS: [&str; 10] = [
    "classic",
    "two-player",
    "four-player",
    "five-player",
    "five-player-3deck",
    "six-player-3v3",
    "six-player-3v3-kitty",
    "six-player-2v4",
    "six-player-teams",
    "laizi",
];

/// Unknown preset name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownPreset(pub String);

impl std::fmt::Display for UnknownPreset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown preset {:?}; the presets are: {}",
            self.0,
            PRESETS.join(", ")
        )
    }
}

impl std::error::Error for UnknownPreset {}

fn kb(small: u8, big: u8, above: u8, order: u8) -> KingBomb {
    KingBomb {
        small,
        big,
        above,
        order,
    }
}

/// Every joker combination of `n` jokers possible with `per_colour` of each colour.
fn combos_of(n: u8, per_colour: u8) -> impl Iterator<Item = (u8, u8)> {
    (0..=n).filter_map(move |small| {
        let big = n - small;
        (small <= per_colour && big <= per_colour).then_some((small, big))
    })
}

impl Rules {
    /// The rule set of a named preset (docs/rules.md#presets).
    pub fn preset(name: &str) -> Result<Rules, UnknownPreset> {
        let classic = Rules {
            preset: "classic".into(),
            flow: Flow::OneLandlord,
            players: 3,
            decks: 1,
            laizi: 0,
            hand_size: 17,
            kitty: 3,
            set_aside: 0,
            trio_single: true,
            plane_singles: true,
            four_two_singles: true,
            four_two_pairs: true,
            joker_pairs: false,
            joker_trio_pair: false,
            sequences: Sequences::Classic,
            wings_consecutive: false,
            no_bomb_inside: true,
            rocket_as_kickers: true,
            plane_222333_high: false,
            ladder: Ladder::CountThenRank,
            king_bombs: vec![kb(1, 1, 4, 0)],
            seven_star_kills_last_joker: false,
            spring: true,
            anti_spring: false,
            double_step: DoubleStep::X2,
            score_scheme: ScoreScheme::Multiply,
            auto_win: false,
            bidding: Bidding::Rounds,
            kitty_shown: true,
            doubling_bomb: 4,
            kicks: false,
            kick_factor: 2,
            strong_hand_bids: false,
            six_beats_five: true,
            level_points: 1,
            no_grab_base: 1,
            landlord_bidding: false,
            farmers_pick_sides: false,
            kitty_split: KittySplit::Snake,
            both_copies_open: false,
            three_copies_win: false,
            forced_taker: true,
            two_bids_base: TwoBids::Higher,
        };
        // Kinds shared by every multi-deck preset.
        let multi = |preset: &str, players, decks, hand_size, kitty| Rules {
            preset: preset.into(),
            players,
            decks,
            hand_size,
            kitty,
            trio_single: false,
            plane_singles: false,
            four_two_singles: false,
            four_two_pairs: false,
            joker_pairs: true,
            king_bombs: vec![],
            ..classic.clone()
        };
        let rules = match name {
            "classic" => classic,
            "two-player" => Rules {
                preset: name.into(),
                players: 2,
                hand_size: 20,
                set_aside: 11,
                bidding: Bidding::Call,
                kitty_shown: false,
                ..classic
            },
            "four-player" => Rules {
                king_bombs: vec![kb(2, 2, 8, 0)],
                kitty_shown: false,
                doubling_bomb: 6,
                ..multi(name, 4, 2, 25, 8)
            },
            "five-player" => {
                let mut kings = vec![kb(2, 0, 4, 0), kb(0, 2, 4, 1)];
                kings.extend(combos_of(3, 2).map(|(s, b)| kb(s, b, 6, 0)));
                kings.push(kb(2, 2, 8, 0));
                Rules {
                    flow: Flow::HiddenPartner,
                    joker_pairs: false,
                    doubling_bomb: 5,
                    king_bombs: kings,
                    ..multi(name, 5, 2, 21, 3)
                }
            }
            "five-player-3deck" => {
                let mut kings = vec![kb(3, 0, 4, 0), kb(0, 3, 4, 1)];
                for n in 4..=6 {
                    kings.extend(combos_of(n, 3).map(|(s, b)| kb(s, b, 4, n * 4 + b)));
                }
                Rules {
                    flow: Flow::CalledFriend,
                    sequences: Sequences::LowA2,
                    wings_consecutive: true,
                    plane_222333_high: true,
                    spring: false,
                    auto_win: true,
                    king_bombs: kings,
                    ..multi(name, 5, 3, 31, 7)
                }
            }
            "six-player-3v3" | "six-player-3v3-kitty" => {
                let mut kings = vec![kb(3, 0, 4, 0), kb(0, 3, 4, 0)];
                kings.extend(combos_of(4, 3).map(|(s, b)| kb(s, b, 4, 0)));
                kings.extend(combos_of(5, 3).map(|(s, b)| kb(s, b, 6, 0)));
                kings.push(kb(3, 3, 12, 0));
                let kitty = name == "six-player-3v3-kitty";
                Rules {
                    flow: Flow::ThreeCopies,
                    // Seed 000 (no kitty) says pairs exclude jokers; seed 002 allows them.
                    joker_pairs: kitty,
                    kitty_shown: false,
                    kitty_split: KittySplit::InOrder,
                    both_copies_open: !kitty,
                    three_copies_win: !kitty,
                    spring: false,
                    double_step: DoubleStep::Plus1,
                    king_bombs: kings,
                    ..multi(
                        name,
                        6,
                        3,
                        if kitty { 25 } else { 27 },
                        if kitty { 12 } else { 0 },
                    )
                }
            }
            "six-player-2v4" | "six-player-teams" => {
                let mut kings = vec![kb(3, 0, 4, 0)];
                kings.extend(combos_of(4, 4).map(|(s, b)| kb(s, b, 4, 1)));
                kings.push(kb(0, 3, 4, 2));
                kings.push(kb(4, 1, 8, 0));
                kings.extend(combos_of(6, 4).map(|(s, b)| kb(s, b, 8, 1)));
                kings.push(kb(1, 4, 8, 2));
                kings.extend(combos_of(7, 4).map(|(s, b)| kb(s, b, 8, 3)));
                kings.push(kb(4, 4, 16, 0));
                Rules {
                    flow: Flow::TwoMarks,
                    joker_trio_pair: true,
                    sequences: Sequences::LowA2,
                    wings_consecutive: true,
                    plane_222333_high: true,
                    seven_star_kills_last_joker: true,
                    spring: false,
                    double_step: DoubleStep::Plus1,
                    auto_win: name == "six-player-2v4",
                    kitty_shown: false,
                    bidding: Bidding::Once,
                    landlord_bidding: name == "six-player-2v4",
                    farmers_pick_sides: name == "six-player-teams",
                    king_bombs: kings,
                    ..multi(name, 6, 4, 34, 12)
                }
            }
            "laizi" => Rules {
                preset: name.into(),
                laizi: 2,
                kitty: 5,
                ladder: Ladder::Laizi,
                bidding: Bidding::Once,
                kicks: true,
                strong_hand_bids: true,
                // soft (class 4) < hard (class 5) < rocket < hi (classes 6, 7)
                king_bombs: vec![kb(1, 1, 5, 0)],
                ..classic
            },
            _ => return Err(UnknownPreset(name.to_string())),
        };
        Ok(rules)
    }

    /// Total number of cards in the deck, laizi included.
    pub fn deck_size(&self) -> usize {
        54 * self.decks as usize + self.laizi as usize
    }

    /// The most copies of a slot the deck holds.
    pub fn copies(&self, slot: usize) -> u8 {
        match slot {
            crate::cards::LAIZI => self.laizi,
            crate::cards::SMALL_JOKER | crate::cards::BIG_JOKER => self.decks,
            _ => 4 * self.decks,
        }
    }

    /// The largest rank bomb: every copy of one rank, plus every laizi.
    pub fn max_bomb(&self) -> u8 {
        4 * self.decks + self.laizi
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("rules always serialise")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_deals_its_whole_deck() {
        for name in PRESETS {
            let r = Rules::preset(name).unwrap();
            let dealt =
                r.players as usize * r.hand_size as usize + r.kitty as usize + r.set_aside as usize;
            assert_eq!(dealt, r.deck_size(), "{name}");
        }
    }

    #[test]
    fn copies_per_slot() {
        let r = Rules::preset("six-player-2v4").unwrap();
        assert_eq!(r.copies(0), 16);
        assert_eq!(r.copies(crate::cards::BIG_JOKER), 4);
        assert_eq!(r.copies(crate::cards::LAIZI), 0);
        let deck: usize = (0..16).map(|s| r.copies(s) as usize).sum();
        assert_eq!(deck, r.deck_size());
    }

    #[test]
    fn json_round_trips() {
        for name in PRESETS {
            let r = Rules::preset(name).unwrap();
            assert_eq!(Rules::from_json(&r.to_json()).unwrap(), r);
        }
    }

    #[test]
    fn options_missing_from_an_older_rule_set_take_the_preset_value() {
        let laizi = Rules::preset("laizi").unwrap();
        let mut old: serde_json::Value = serde_json::from_str(&laizi.to_json()).unwrap();
        for name in ["flow", "bidding", "kicks", "kick_factor", "six_beats_five"] {
            old.as_object_mut().unwrap().remove(name);
        }
        assert_eq!(Rules::from_json(&old.to_string()).unwrap(), laizi);
        old["preset"] = "house".into();
        assert!(Rules::from_json(&old.to_string()).is_err());
        // Options of the first format stay required.
        assert!(Rules::from_json(r#"{"preset": "classic"}"#).is_err());
    }

    #[test]
    fn flow_names_are_the_serialised_words() {
        for flow in Flow::ALL {
            let word = serde_json::to_value(flow).unwrap();
            assert_eq!(word.as_str(), Some(flow.name()));
        }
    }

    #[test]
    fn unknown_preset_lists_the_presets() {
        let e = Rules::preset("seven-player").unwrap_err().to_string();
        assert!(e.contains("seven-player") && e.contains("six-player-2v4"));
    }
}
