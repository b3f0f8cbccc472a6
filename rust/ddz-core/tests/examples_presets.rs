//! Worked examples for every preset, written from docs/rules.md (#kinds,
//! #sequences, #kickers, #beats, #presets) and docs/presets.md (#multi-deck,
//! #king-bombs, #low-a2, #consecutive-wings), not from the code.
//!
//! - `readings!`: in each listed preset, `classify` returns exactly the
//!   expected multiset of `(kind id, rank symbol, length)` readings (`[]`
//!   for a non-play).
//! - `beats!`: `beats` both ways between two plays.
//! - `order!`: a chain of groups, weakest first; a play beats another iff
//!   its group comes later (equal places never beat each other). Used for
//!   the bomb ladders of rules.md#bomb-ladder and the sequence orders of rules.md#sequences/presets.md#low-a2.
//! - `answers!`: `moves` for a lead or a follow returns exactly these plays.
//!
//! A play is written `"cards"` when it has one reading, or
//! `"cards@kind:rank:length"` to pick one of several readings. `laizi` is
//! exercised with natural cards only.

mod common;
use common::*;
use ddz_core::{Cards, Engine, Move};

// ---------------------------------------------------------------------------
// Preset groups (docs/presets.md#multi-deck)
// ---------------------------------------------------------------------------

const ALL: &[&str] = &[
    "classic",
    "two-player",
    "laizi",
    "four-player",
    "five-player",
    "five-player-3deck",
    "six-player-3v3",
    "six-player-3v3-kitty",
    "six-player-2v4",
    "six-player-teams",
];
/// One deck: trio_single, plane_singles, four_two_*, rocket `XD`.
const ONE: &[&str] = &["classic", "two-player", "laizi"];
/// Two or more decks: none of trio_single, plane_singles, four_two_*.
const MULTI: &[&str] = &[
    "four-player",
    "five-player",
    "five-player-3deck",
    "six-player-3v3",
    "six-player-3v3-kitty",
    "six-player-2v4",
    "six-player-teams",
];
/// `XX` and `DD` are pairs (and kickers, wings).
const JOKER_PAIRS: &[&str] = &[
    "four-player",
    "five-player-3deck",
    "six-player-3v3-kitty",
    "six-player-2v4",
    "six-player-teams",
];
/// Pairs exclude jokers.
const NO_JOKER_PAIRS: &[&str] = &["five-player", "six-player-3v3"];
/// Low A-2 sequences, consecutive pair wings, the `222333` plane quirk.
const LOW: &[&str] = &["five-player-3deck", "six-player-2v4", "six-player-teams"];
/// Classic sequences (`3 … A`).
const CLASSIC_SEQ: &[&str] = &[
    "classic",
    "two-player",
    "laizi",
    "four-player",
    "five-player",
    "six-player-3v3",
    "six-player-3v3-kitty",
];
/// Several decks, classic sequences, wings need not be consecutive.
const MULTI_CLASSIC_SEQ: &[&str] = &[
    "four-player",
    "five-player",
    "six-player-3v3",
    "six-player-3v3-kitty",
];
/// Several decks, classic sequences, joker pairs.
const MULTI_CLASSIC_JOKER_PAIRS: &[&str] = &["four-player", "six-player-3v3-kitty"];
const TWO_DECK: &[&str] = &["four-player", "five-player"];
const THREE_DECK: &[&str] = &[
    "five-player-3deck",
    "six-player-3v3",
    "six-player-3v3-kitty",
];
const SIX_3V3: &[&str] = &["six-player-3v3", "six-player-3v3-kitty"];
const FOUR_DECK: &[&str] = &["six-player-2v4", "six-player-teams"];
/// Three or four decks.
const BIG: &[&str] = &[
    "five-player-3deck",
    "six-player-3v3",
    "six-player-3v3-kitty",
    "six-player-2v4",
    "six-player-teams",
];

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn parse(e: &Engine, text: &str) -> Cards {
    e.parse(text)
        .unwrap_or_else(|err| panic!("{}: cannot parse {text:?}: {err}", e.rules().preset))
}

/// The readings of `text` as sorted `(kind id, rank symbol, length)`.
fn readings_of(e: &Engine, text: &str) -> Vec<(String, char, u8)> {
    let c = parse(e, text);
    let mut got: Vec<(String, char, u8)> = e
        .classify(&c)
        .iter()
        .map(|m| {
            assert_eq!(m.cards, c, "a reading of {text} holds other cards");
            assert_eq!(m.represents, c, "no laizi: represents == cards");
            (m.kind.id().to_string(), m.rank_symbol(), m.length)
        })
        .collect();
    got.sort();
    got
}

fn check_readings(presets: &[&str], text: &str, expected: &[(&str, char, u8)]) {
    let mut want: Vec<(String, char, u8)> = expected
        .iter()
        .map(|&(k, r, l)| (k.to_string(), r, l))
        .collect();
    want.sort();
    let mut failures = Vec::new();
    for preset in presets {
        let e = engine(preset);
        let got = readings_of(&e, text);
        if got != want {
            failures.push(format!("{preset}: {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "readings of {text:?}: expected {want:?}, got\n  {}",
        failures.join("\n  ")
    );
}

/// One play: `"cards"` (must have exactly one reading) or
/// `"cards@kind:rank:length"`.
fn play(e: &Engine, spec: &str) -> Move {
    let (text, reading) = match spec.split_once('@') {
        Some((t, r)) => (t, Some(r)),
        None => (spec, None),
    };
    let c = parse(e, text);
    let all = e.classify(&c);
    let preset = &e.rules().preset;
    match reading {
        None => {
            assert_eq!(
                all.len(),
                1,
                "{preset}: {spec:?} should have one reading: {all:?}"
            );
            all[0]
        }
        Some(r) => {
            let parts: Vec<&str> = r.split(':').collect();
            assert_eq!(parts.len(), 3, "bad play spec {spec:?}");
            let rank = parts[1].chars().next().unwrap();
            let length: u8 = parts[2].parse().unwrap();
            *all.iter()
                .find(|m| m.kind.id() == parts[0] && m.rank_symbol() == rank && m.length == length)
                .unwrap_or_else(|| panic!("{preset}: {spec:?} is not a reading: {all:?}"))
        }
    }
}

fn check_beats(presets: &[&str], a: &str, b: &str, a_beats_b: bool, b_beats_a: bool) {
    for preset in presets {
        let e = engine(preset);
        let (pa, pb) = (play(&e, a), play(&e, b));
        assert_eq!(e.beats(&pa, &pb), a_beats_b, "{preset}: {a} beats {b}?");
        assert_eq!(e.beats(&pb, &pa), b_beats_a, "{preset}: {b} beats {a}?");
    }
}

/// `groups` weakest first; plays in one group are equal. Every play beats
/// exactly the plays of earlier groups.
fn check_order(presets: &[&str], groups: &[Vec<String>]) {
    for preset in presets {
        let e = engine(preset);
        let moves: Vec<Vec<(String, Move)>> = groups
            .iter()
            .map(|g| g.iter().map(|s| (s.clone(), play(&e, s))).collect())
            .collect();
        let mut wrong = Vec::new();
        for (i, ga) in moves.iter().enumerate() {
            for (j, gb) in moves.iter().enumerate() {
                for (sa, a) in ga {
                    for (sb, b) in gb {
                        if e.beats(a, b) != (i > j) {
                            wrong.push(format!(
                                "{sa} beats {sb}: got {}, want {}",
                                e.beats(a, b),
                                i > j
                            ));
                        }
                    }
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "{preset}: {} wrong comparisons, e.g.\n  {}",
            wrong.len(),
            wrong[..wrong.len().min(12)].join("\n  ")
        );
    }
}

fn group(plays: &[&str]) -> Vec<String> {
    plays.iter().map(|s| s.to_string()).collect()
}

/// The 13 rank bombs of `n` cards, `3…3 < … < 2…2`, one group each.
fn rank_bombs(n: usize) -> Vec<Vec<String>> {
    "3456789TJQKA2"
        .chars()
        .map(|r| vec![r.to_string().repeat(n)])
        .collect()
}

type Answer = (String, String, char, u8);

fn as_answers(moves: &[Move]) -> Vec<Answer> {
    let mut v: Vec<Answer> = moves
        .iter()
        .map(|m| {
            (
                m.cards.to_string(),
                m.kind.id().to_string(),
                m.rank_symbol(),
                m.length,
            )
        })
        .collect();
    v.sort();
    v
}

fn check_answers(
    presets: &[&str],
    hand: &str,
    prev: Option<&str>,
    expected: &[(&str, &str, char, u8)],
) {
    let mut want: Vec<Answer> = expected
        .iter()
        .map(|&(c, k, r, l)| (cards(c).to_string(), k.to_string(), r, l))
        .collect();
    want.sort();
    for preset in presets {
        let e = engine(preset);
        let h = parse(&e, hand);
        let p = prev.map(|s| play(&e, s));
        let got = e.moves(&h, p.as_ref());
        assert_eq!(
            as_answers(&got),
            want,
            "{preset}: hand {hand} answering {prev:?}"
        );
        assert_eq!(e.count_moves(&h, p.as_ref()), got.len() as u64);
    }
}

macro_rules! readings {
    ($($(#[$attr:meta])* $name:ident: $presets:expr, $cards:expr => [$(($kind:expr, $rank:expr, $len:expr)),* $(,)?];)*) => {
        $(
            #[test]
            $(#[$attr])*
            fn $name() {
                check_readings($presets, $cards, &[$(($kind, $rank, $len)),*]);
            }
        )*
    };
}

macro_rules! beats {
    ($($(#[$attr:meta])* $name:ident: $presets:expr, $a:expr, $b:expr => ($ab:expr, $ba:expr);)*) => {
        $(
            #[test]
            $(#[$attr])*
            fn $name() {
                check_beats($presets, $a, $b, $ab, $ba);
            }
        )*
    };
}

/// `order! { name: presets, [a] < [b, c] < [d]; }` — `b` and `c` equal.
macro_rules! order {
    ($($(#[$attr:meta])* $name:ident: $presets:expr, $([$($p:expr),+ $(,)?])<+;)*) => {
        $(
            #[test]
            $(#[$attr])*
            fn $name() {
                check_order($presets, &[$(group(&[$($p),+])),+]);
            }
        )*
    };
}

macro_rules! answers {
    ($($(#[$attr:meta])* $name:ident: $presets:expr, $hand:expr, $prev:expr => [$(($c:expr, $kind:expr, $rank:expr, $len:expr)),* $(,)?];)*) => {
        $(
            #[test]
            $(#[$attr])*
            fn $name() {
                check_answers($presets, $hand, $prev, &[$(($c, $kind, $rank, $len)),*]);
            }
        )*
    };
}

// ---------------------------------------------------------------------------
// Kinds common to every preset (rules.md#kinds)
// ---------------------------------------------------------------------------

readings! {
    all_single_3: ALL, "3" => [("single", '3', 1)];
    all_single_2: ALL, "2" => [("single", '2', 1)];
    all_single_small_joker: ALL, "X" => [("single", 'X', 1)];
    all_single_big_joker: ALL, "D" => [("single", 'D', 1)];
    all_pair_2: ALL, "22" => [("pair", '2', 1)];
    all_two_ranks_no_play: ALL, "34" => [];
    all_rank_and_joker_no_pair: ALL, "2X" => [];
    all_trio_a: ALL, "AAA" => [("trio", 'A', 1)];
    all_trio_pair: ALL, "33344" => [("trio_pair", '3', 1)];
    all_trio_pair_of_2s: ALL, "22233" => [("trio_pair", '2', 1)];
    all_trio_pair_kicker_2s: ALL, "33322" => [("trio_pair", '3', 1)];
    all_trio_two_singles_no_play: ALL, "33345" => [];
    all_straight_34567: ALL, "34567" => [("straight", '7', 5)];
    all_straight_tjqka: ALL, "TJQKA" => [("straight", 'A', 5)];
    all_straight_jqka2_illegal: ALL, "JQKA2" => [];
    all_straight_with_joker_illegal: ALL, "QKA2X" => [];
    all_straight_too_short: ALL, "3456" => [];
    all_pair_straight_334455: ALL, "334455" => [("pair_straight", '5', 3)];
    all_pair_straight_qqkkaa: ALL, "QQKKAA" => [("pair_straight", 'A', 3)];
    all_pair_straight_kkaa22_illegal: ALL, "KKAA22" => [];
    all_pair_straight_too_short: ALL, "3344" => [];
    all_trio_straight_333444: ALL, "333444" => [("trio_straight", '4', 2)];
    all_trio_straight_kkkaaa: ALL, "KKKAAA" => [("trio_straight", 'A', 2)];
    all_trio_straight_aaa222_illegal: ALL, "AAA222" => [];
    all_trio_straight_kkkaaa222_illegal: ALL, "KKKAAA222" => [];
    all_plane_pairs_consecutive_wings: ALL, "3334445566" => [("plane_pairs", '4', 2)];
    all_plane_pairs_seed_555666_7788: ALL, "5556667788" => [("plane_pairs", '6', 2)];
    all_plane_pairs_kkaa_wings: ALL, "555666KKAA" => [("plane_pairs", '6', 2)];
    all_plane_pairs_three_links: ALL, "333444555667788" => [("plane_pairs", '5', 3)];
    all_plane_wing_bomb_illegal: ALL, "3334445555" => [];
    all_plane_mixed_wings_illegal: ALL, "333444566" => [];
    all_bomb_3333: ALL, "3333" => [("bomb", '3', 4)];
    all_bomb_2222: ALL, "2222" => [("bomb", '2', 4)];
    all_two_bombs_no_play: ALL, "33334444" => [];
}

beats! {
    all_single_big_beats_small_joker: ALL, "D", "X" => (true, false);
    all_single_small_joker_beats_2: ALL, "X", "2" => (true, false);
    all_single_equal: ALL, "7", "7" => (false, false);
    all_pair_vs_single: ALL, "44", "3" => (false, false);
    all_trio_pair_kickers_ignored: ALL, "33344", "333KK" => (false, false);
    all_trio_pair_higher: ALL, "44433", "333KK" => (true, false);
    all_trio_vs_trio_pair: ALL, "444", "33355" => (false, false);
    all_straight_lengths_differ: ALL, "789TJ", "345678" => (false, false);
    all_straight_higher: ALL, "45678", "34567" => (true, false);
    all_plane_pairs_higher: ALL, "4445556677", "3334448899" => (true, false);
    all_plane_pairs_wings_ignored: ALL, "5556667788", "5556663344" => (false, false);
    all_plane_pairs_higher_chain: ALL, "6667773344", "5556667788" => (true, false);
    all_bomb_beats_straight: ALL, "3333", "TJQKA" => (true, false);
    all_bomb_beats_big_joker: ALL, "3333", "D" => (true, false);
    all_bomb_beats_plane: ALL, "3333", "5556667788" => (true, false);
    all_bomb_equal: ALL, "5555", "5555" => (false, false);
}

// ---------------------------------------------------------------------------
// One deck (classic, two-player, laizi with natural cards)
// ---------------------------------------------------------------------------

readings! {
    one_trio_single: ONE, "3334" => [("trio_single", '3', 1)];
    one_trio_single_joker: ONE, "333X" => [("trio_single", '3', 1)];
    one_rocket: ONE, "XD" => [("king_bomb", 'D', 2)];
    one_plane_singles: ONE, "33344456" => [("plane_singles", '4', 2)];
    one_plane_singles_rocket_wings: ONE, "333444XD" => [("plane_singles", '4', 2)];
    one_three_readings: ONE, "333444555666" => [
        ("trio_straight", '6', 4),
        ("plane_singles", '5', 3),
        ("plane_singles", '6', 3),
    ];
    one_four_two_singles: ONE, "666689" => [("four_two_singles", '6', 1)];
    one_four_two_singles_rocket: ONE, "3333XD" => [("four_two_singles", '3', 1)];
    one_four_two_pairs: ONE, "JJJJ99QQ" => [("four_two_pairs", 'J', 1)];
    one_plane_pairs_any_wings: ONE, "3334445577" => [("plane_pairs", '4', 2)];
    one_plane_pairs_aa22_wings: ONE, "555666AA22" => [("plane_pairs", '6', 2)];
    one_no_low_ace_straight: ONE, "A2345" => [];
    one_no_222333: ONE, "222333" => [];
}

order! {
    one_bomb_ladder: ONE,
        ["3333"] < ["4444"] < ["5555"] < ["6666"] < ["7777"] < ["8888"] < ["9999"]
        < ["TTTT"] < ["JJJJ"] < ["QQQQ"] < ["KKKK"] < ["AAAA"] < ["2222"] < ["XD"];
}

// ---------------------------------------------------------------------------
// Several decks: kinds absent (presets.md#multi-deck)
// ---------------------------------------------------------------------------

readings! {
    multi_no_trio_single: MULTI, "3334" => [];
    multi_no_trio_single_joker: MULTI, "333X" => [];
    multi_no_trio_single_2: MULTI, "2223" => [];
    multi_no_plane_singles: MULTI, "33344456" => [];
    multi_no_plane_singles_rocket_wings: MULTI, "333444XD" => [];
    // Only the four-trio chain: no plane_singles readings.
    multi_only_trio_straight: MULTI, "333444555666" => [("trio_straight", '6', 4)];
    multi_no_plane_singles_wing_trio: MULTI, "333444555777" => [];
    multi_no_four_two_singles: MULTI, "666689" => [];
    multi_no_four_two_pair_kickers: MULTI, "666699" => [];
    multi_no_four_two_rocket: MULTI, "3333XD" => [];
    multi_no_four_two_pairs: MULTI, "JJJJ99QQ" => [];
    multi_no_four_plus_one: MULTI, "33334" => [];
    multi_rocket_xd_is_nothing: MULTI, "XD" => [];
    multi_five_card_bomb: MULTI, "33333" => [("bomb", '3', 5)];
    multi_eight_card_bomb: MULTI, "22222222" => [("bomb", '2', 8)];
    multi_trio_pair_no_fifth: MULTI, "3333344" => [];
    multi_wings_not_same_rank: MULTI, "333444+5555" => [];
    multi_bomb_and_pair_no_play: MULTI, "555533" => [];
    // rules.md#kickers no_bomb_inside: five 8s.
    multi_plane_888999_7788_illegal: MULTI, "8889997788" => [];
}

// ---------------------------------------------------------------------------
// Joker pairs (rules.md#kickers, presets.md#multi-deck)
// ---------------------------------------------------------------------------

readings! {
    jp_pair_xx: JOKER_PAIRS, "XX" => [("pair", 'X', 1)];
    jp_pair_dd: JOKER_PAIRS, "DD" => [("pair", 'D', 1)];
    jp_trio_pair_xx_kicker: JOKER_PAIRS, "333XX" => [("trio_pair", '3', 1)];
    jp_trio_pair_of_2s_dd_kicker: JOKER_PAIRS, "222DD" => [("trio_pair", '2', 1)];
    jp_xd_kicker_is_no_pair: JOKER_PAIRS, "333XD" => [];
    jp_joker_pair_straight_illegal: JOKER_PAIRS, "3344XX" => [];
    jp_xxdd_wings: JOKER_PAIRS, "333444XXDD" => [("plane_pairs", '4', 2)];
    // rules.md#kickers: `XXDD` is a consecutive two-pair wing.
    jp_222333_xxdd: LOW, "222333XXDD" => [("plane_pairs", '3', 2)];

    njp_xx_is_no_pair_in_3v3: &["six-player-3v3"], "XX" => [];
    njp_dd_is_no_pair_in_3v3: &["six-player-3v3"], "DD" => [];
    njp_no_trio_pair_xx_kicker: NO_JOKER_PAIRS, "333XX" => [];
    njp_no_trio_pair_dd_kicker: NO_JOKER_PAIRS, "222DD" => [];
    njp_no_xxdd_wings: NO_JOKER_PAIRS, "333444XXDD" => [];
    njp_no_joker_pair_wing: NO_JOKER_PAIRS, "333444XX55" => [];

    // Five-player: XX and DD are king bombs (双王炸弹), never pairs.
    five_xx_king_bomb: &["five-player"], "XX" => [("king_bomb", 'X', 2)];
    five_dd_king_bomb: &["five-player"], "DD" => [("king_bomb", 'D', 2)];
}

beats! {
    jp_xx_beats_22: JOKER_PAIRS, "XX", "22" => (true, false);
    jp_dd_beats_xx: JOKER_PAIRS, "DD", "XX" => (true, false);
    jp_xx_vs_single_x: JOKER_PAIRS, "XX", "X" => (false, false);
    jp_joker_kicker_does_not_help: JOKER_PAIRS, "333XX", "33344" => (false, false);
    jp_trio_pair_above_joker_kicker: JOKER_PAIRS, "44433", "333DD" => (true, false);
    jp_bomb_beats_dd: JOKER_PAIRS, "3333", "DD" => (true, false);
    five_xx_bomb_beats_22: &["five-player"], "XX", "22" => (true, false);
    five_xx_bomb_beats_single_d: &["five-player"], "XX", "D" => (true, false);
}

// ---------------------------------------------------------------------------
// Joker combinations that are nothing, and jokers never a trio (presets.md#multi-deck, rules.md#bomb-ladder)
// ---------------------------------------------------------------------------

readings! {
    two_deck_xxd: &["four-player"], "XXD" => [];
    two_deck_xdd: &["four-player"], "XDD" => [];
    four_player_xxdd_rocket: &["four-player"], "XXDD" => [("king_bomb", 'D', 4)];
    five_xxd_three_jokers: &["five-player"], "XXD" => [("king_bomb", 'D', 3)];
    five_xdd_three_jokers: &["five-player"], "XDD" => [("king_bomb", 'D', 3)];
    five_xxdd_tianwang: &["five-player"], "XXDD" => [("king_bomb", 'D', 4)];

    big_xxx_is_king_bomb_not_trio: BIG, "XXX" => [("king_bomb", 'X', 3)];
    big_ddd_is_king_bomb_not_trio: BIG, "DDD" => [("king_bomb", 'D', 3)];
    big_xxd_nothing: BIG, "XXD" => [];
    big_xdd_nothing: BIG, "XDD" => [];
    big_xxx_with_pair_nothing: BIG, "XXX33" => [];
    big_ddd_with_2s_nothing: BIG, "DDD22" => [];
    big_xxxd_king_bomb: BIG, "XXXD" => [("king_bomb", 'D', 4)];
    big_xxdd_king_bomb: BIG, "XXDD" => [("king_bomb", 'D', 4)];
    big_xddd_king_bomb: BIG, "XDDD" => [("king_bomb", 'D', 4)];
    big_xxxddd_king_bomb: BIG, "XXXDDD" => [("king_bomb", 'D', 6)];
    three_deck_xxxdd_king_bomb: THREE_DECK, "XXXDD" => [("king_bomb", 'D', 5)];
    three_deck_xxddd_king_bomb: THREE_DECK, "XXDDD" => [("king_bomb", 'D', 5)];
    three_deck_bomb_of_12: THREE_DECK, "333333333333" => [("bomb", '3', 12)];

    // Four decks: 3-2 splits of five jokers are trio_pairs (五张王三二分按三带二).
    four_deck_xxxdd_trio_pair: FOUR_DECK, "XXXDD" => [("trio_pair", 'X', 1)];
    four_deck_dddxx_trio_pair: FOUR_DECK, "DDDXX" => [("trio_pair", 'D', 1)];
    four_deck_xxxx: FOUR_DECK, "XXXX" => [("king_bomb", 'X', 4)];
    four_deck_dddd: FOUR_DECK, "DDDD" => [("king_bomb", 'D', 4)];
    four_deck_xxxxd: FOUR_DECK, "XXXXD" => [("king_bomb", 'D', 5)];
    four_deck_xdddd: FOUR_DECK, "XDDDD" => [("king_bomb", 'D', 5)];
    four_deck_six_jokers: FOUR_DECK, "XXXXDD" => [("king_bomb", 'D', 6)];
    four_deck_seven_jokers: FOUR_DECK, "XXXXDDD" => [("king_bomb", 'D', 7)];
    four_deck_eight_jokers: FOUR_DECK, "XXXXDDDD" => [("king_bomb", 'D', 8)];
    four_deck_bomb_of_16: FOUR_DECK, "2222222222222222" => [("bomb", '2', 16)];
    four_deck_bomb_of_13: FOUR_DECK, "AAAAAAAAAAAAA" => [("bomb", 'A', 13)];
    four_deck_trio_pair_xxx_22_nothing: FOUR_DECK, "XXX22" => [];
    four_deck_xxxxdd_is_no_trio_pair: FOUR_DECK, "XXXXDD" => [("king_bomb", 'D', 6)];
}

beats! {
    // Trio rank X or D sits above 2 (presets.md#multi-deck).
    four_deck_xxxdd_beats_22233: FOUR_DECK, "XXXDD", "22233" => (true, false);
    four_deck_xxxdd_beats_222xx: FOUR_DECK, "XXXDD", "222XX" => (true, false);
    four_deck_dddxx_beats_xxxdd: FOUR_DECK, "DDDXX", "XXXDD" => (true, false);
    four_deck_bomb_beats_joker_trio_pair: FOUR_DECK, "3333", "DDDXX" => (true, false);
    four_deck_xxx_beats_joker_trio_pair: FOUR_DECK, "XXX", "DDDXX" => (true, false);
    four_deck_joker_trio_pair_vs_trio: FOUR_DECK, "XXXDD", "222" => (false, false);
    big_xxx_beats_single_d: BIG, "XXX", "D" => (true, false);
}

// ---------------------------------------------------------------------------
// Sequences: classic vs Low A-2 (rules.md#sequences)
// ---------------------------------------------------------------------------

readings! {
    classic_seq_no_a2345: CLASSIC_SEQ, "A2345" => [];
    classic_seq_no_23456: CLASSIC_SEQ, "23456" => [];
    classic_seq_no_aa2233: CLASSIC_SEQ, "AA2233" => [];
    classic_seq_no_223344: CLASSIC_SEQ, "223344" => [];
    classic_seq_no_222333: CLASSIC_SEQ, "222333" => [];
    classic_seq_no_aaa222333: CLASSIC_SEQ, "AAA222333" => [];
    classic_seq_twelve: CLASSIC_SEQ, "3456789TJQKA" => [("straight", 'A', 12)];
    classic_seq_thirteen_illegal: CLASSIC_SEQ, "A23456789TJQK" => [];
    classic_seq_no_aaa222_plane: CLASSIC_SEQ, "AAA2228899" => [];
    classic_seq_no_222333_plane: CLASSIC_SEQ, "2223338899" => [];

    low_a2345: LOW, "A2345" => [("straight", '5', 5)];
    low_23456: LOW, "23456" => [("straight", '6', 5)];
    low_a23456: LOW, "A23456" => [("straight", '6', 6)];
    low_tjqka: LOW, "TJQKA" => [("straight", 'A', 5)];
    low_jqka2_illegal: LOW, "JQKA2" => [];
    low_qka23_illegal: LOW, "QKA23" => [];
    low_ka234_illegal: LOW, "KA234" => [];
    // One each of A and 2…K: two readings of the same cards (rules.md#sequences).
    low_thirteen_two_readings: LOW, "A23456789TJQK" => [
        ("straight", 'A', 13),
        ("straight", 'K', 13),
    ];
    low_twelve_low_ace: LOW, "A23456789TJQ" => [("straight", 'Q', 12)];
    low_twelve_high_ace: LOW, "3456789TJQKA" => [("straight", 'A', 12)];
    low_twelve_from_2: LOW, "23456789TJQK" => [("straight", 'K', 12)];
    low_ace_twice_illegal: LOW, "A23456789TJQKA" => [];
    low_aa2233: LOW, "AA2233" => [("pair_straight", '3', 3)];
    low_223344: LOW, "223344" => [("pair_straight", '4', 3)];
    low_kkaa22_illegal: LOW, "KKAA22" => [];
    low_aa22_too_short: LOW, "AA22" => [];
    low_222333: LOW, "222333" => [("trio_straight", '3', 2)];
    low_aaa222333: LOW, "AAA222333" => [("trio_straight", '3', 3)];
    low_aaa222_bare_illegal: LOW, "AAA222" => [];
    low_aaa222_joker_wing_illegal: LOW, "AAA222XX" => [];
    low_aaa222333444: LOW, "AAA222333444" => [("trio_straight", '4', 4)];
    low_aaa222_to_kkk_illegal: LOW, "AAA222333444555666777888999TTTJJJQQQKKKAAA" => [];
    // Thirteen links of pairs and of trios: two readings each (rules.md#sequences).
    low_thirteen_pairs_two_readings: LOW, "AA2233445566778899TTJJQQKK" => [
        ("pair_straight", 'A', 13),
        ("pair_straight", 'K', 13),
    ];
    low_thirteen_trios_two_readings: LOW, "AAA222333444555666777888999TTTJJJQQQKKK" => [
        ("trio_straight", 'A', 13),
        ("trio_straight", 'K', 13),
    ];
}

order! {
    low_straights: LOW,
        ["A2345"] < ["23456"] < ["34567"] < ["45678"] < ["56789"] < ["6789T"]
        < ["789TJ"] < ["89TJQ"] < ["9TJQK"] < ["TJQKA"];
    low_thirteen_pair_straights: LOW,
        ["AA2233445566778899TTJJQQKK@pair_straight:K:13"]
        < ["AA2233445566778899TTJJQQKK@pair_straight:A:13"];
    low_thirteen_straights: LOW,
        ["A23456789TJQK@straight:K:13"] < ["A23456789TJQK@straight:A:13"];
    low_pair_straights: LOW,
        ["AA2233"] < ["223344"] < ["334455"] < ["445566"] < ["556677"] < ["667788"]
        < ["778899"] < ["8899TT"] < ["99TTJJ"] < ["TTJJQQ"] < ["JJQQKK"] < ["QQKKAA"];
    // Bare trio straights follow the ordinary Low A-2 order (presets.md#low-a2).
    low_trio_straights: LOW,
        ["222333"] < ["333444"] < ["444555"] < ["QQQKKK"] < ["KKKAAA"];
    low_three_trio_straights: LOW,
        ["AAA222333"] < ["222333444"] < ["333444555"] < ["QQQKKKAAA"];
    classic_seq_straights: CLASSIC_SEQ,
        ["34567"] < ["45678"] < ["9TJQK"] < ["TJQKA"];
}

beats! {
    low_straight_lengths_differ: LOW, "A23456", "23456" => (false, false);
    low_bomb_beats_thirteen: LOW, "3333", "A23456789TJQK@straight:A:13" => (true, false);
}

// ---------------------------------------------------------------------------
// Plane wings (rules.md#kickers) and the plane order quirk (presets.md#low-a2)
// ---------------------------------------------------------------------------

readings! {
    low_wings_7788: LOW, "5556667788" => [("plane_pairs", '6', 2)];
    low_wings_7799_not_consecutive: LOW, "5556667799" => [];
    low_wings_below_chain: LOW, "5556663344" => [("plane_pairs", '6', 2)];
    low_wings_aa22_not_consecutive: LOW, "555666AA22" => [];
    low_wings_22xx_not_consecutive: LOW, "55566622XX" => [];
    low_wings_xxdd_consecutive: LOW, "555666XXDD" => [("plane_pairs", '6', 2)];
    low_wings_kkaa_consecutive: LOW, "555666KKAA" => [("plane_pairs", '6', 2)];
    low_wings_joker_and_rank_not_consecutive: LOW, "333444XX55" => [];
    low_wings_seed_jjjqqqkkk_aa2233: LOW, "JJJQQQKKKAA2233" => [("plane_pairs", 'K', 3)];
    low_wings_three_not_consecutive: LOW, "333444555667799" => [];
    low_wings_kkaa22_not_consecutive: LOW, "333444555KKAA22" => [];
    low_wings_66xxdd_not_consecutive: LOW, "33344455566XXDD" => [];
    low_plane_aaa222: LOW, "AAA2228899" => [("plane_pairs", '2', 2)];
    low_plane_aaa222_3344: LOW, "AAA2223344" => [("plane_pairs", '2', 2)];
    low_plane_aaa222_qqkk: LOW, "AAA222QQKK" => [("plane_pairs", '2', 2)];
    low_plane_aaa222_kkaa_repeats_a: LOW, "AAA222KKAA" => [];
    low_plane_222333_aa44_not_consecutive: LOW, "222333AA44" => [];
    low_plane_aaa222_xxdd: LOW, "AAA222XXDD" => [("plane_pairs", '2', 2)];
    low_plane_222333: LOW, "2223338899" => [("plane_pairs", '3', 2)];
    low_plane_kkkaaa_2233: LOW, "KKKAAA2233" => [("plane_pairs", 'A', 2)];
    low_plane_aaa222333: LOW, "AAA222333556677" => [("plane_pairs", '3', 3)];
    low_plane_222333444: LOW, "222333444556677" => [("plane_pairs", '4', 3)];

    mc_wings_any_pairs: MULTI_CLASSIC_SEQ, "5556667799" => [("plane_pairs", '6', 2)];
    mc_wings_aa22: MULTI_CLASSIC_SEQ, "555666AA22" => [("plane_pairs", '6', 2)];
    mc_joker_pair_wing: MULTI_CLASSIC_JOKER_PAIRS, "333444XX55" => [("plane_pairs", '4', 2)];
    mc_joker_pair_wings_xxdd: MULTI_CLASSIC_JOKER_PAIRS, "333444XXDD" => [("plane_pairs", '4', 2)];
}

order! {
    // Seed: AAA222+8899 < 333444+8899 < … < KKKAAA+2233 < 222333+8899.
    low_plane_order_quirk: LOW,
        ["AAA2228899", "AAA222XXDD"]
        < ["3334448899"] < ["4445558899"] < ["5556668899"] < ["6667773344"]
        < ["7778883344"] < ["8889993344"] < ["999TTT3344"] < ["TTTJJJ3344"]
        < ["JJJQQQ3344"] < ["QQQKKK3344"] < ["KKKAAA2233"]
        < ["2223338899", "222333XXDD", "2223334455"];
    // Longer planes follow the ordinary Low A-2 order (presets.md#low-a2).
    low_three_trio_planes: LOW,
        ["AAA222333556677"] < ["222333444556677"] < ["333444555778899"]
        < ["QQQKKKAAA334455"];
    mc_plane_order: MULTI_CLASSIC_SEQ,
        ["3334448899"] < ["4445553399"] < ["KKKAAA2233", "KKKAAA5566"];
}

beats! {
    low_plane_222333_vs_bare_kkkaaa: LOW, "2223338899", "KKKAAA" => (false, false);
    low_plane_vs_three_trio_plane: LOW, "2223338899", "AAA222333556677" => (false, false);
}

// ---------------------------------------------------------------------------
// Bomb ladders (rules.md#bomb-ladder)
// ---------------------------------------------------------------------------

/// Non-bombs every bomb beats and none beats a bomb, per preset.
fn non_bombs(preset: &str) -> Vec<&'static str> {
    let mut v = vec![
        "D",
        "22",
        "222",
        "22233",
        "TJQKA",
        "QQKKAA",
        "KKKAAA",
        "5556667788",
    ];
    if ONE.contains(&preset) {
        v.extend(["2223", "KKKAAA2X", "2222XD", "2222AAKK"]);
    }
    if JOKER_PAIRS.contains(&preset) {
        v.extend(["DD", "222DD"]);
    }
    if FOUR_DECK.contains(&preset) {
        v.push("DDDXX");
    }
    if LOW.contains(&preset) {
        v.extend(["A23456789TJQK@straight:A:13", "2223338899"]);
    }
    v
}

/// Check a full ladder, and that each of its bombs beats every non-bomb.
fn check_ladder(presets: &[&str], groups: &[Vec<String>]) {
    check_order(presets, groups);
    for preset in presets {
        let e = engine(preset);
        for g in groups {
            for s in g {
                let b = play(&e, s);
                assert!(b.kind.is_bomb(), "{preset}: {s} is a bomb");
                for n in non_bombs(preset) {
                    let m = play(&e, n);
                    assert!(e.beats(&b, &m), "{preset}: {s} beats {n}");
                    assert!(!e.beats(&m, &b), "{preset}: {n} must not beat {s}");
                }
            }
        }
    }
}

fn ladder(parts: Vec<Vec<Vec<String>>>) -> Vec<Vec<String>> {
    parts.into_iter().flatten().collect()
}

fn kings(groups: &[&[&str]]) -> Vec<Vec<String>> {
    groups.iter().map(|g| group(g)).collect()
}

#[test]
fn one_deck_ladder() {
    check_ladder(ONE, &ladder(vec![rank_bombs(4), kings(&[&["XD"]])]));
}

/// `3333 < … < 2222 < 33333 < … < 22222222 < XXDD`.
#[test]
fn four_player_ladder() {
    let mut parts: Vec<_> = (4..=8).map(rank_bombs).collect();
    parts.push(kings(&[&["XXDD"]]));
    check_ladder(&["four-player"], &ladder(parts));
}

/// `4-card < XX < DD < 5-card < 6-card < XXD = XDD < 7-card < 8-card < XXDD`.
#[test]
fn five_player_ladder() {
    let parts = vec![
        rank_bombs(4),
        kings(&[&["XX"], &["DD"]]),
        rank_bombs(5),
        rank_bombs(6),
        kings(&[&["XXD", "XDD"]]),
        rank_bombs(7),
        rank_bombs(8),
        kings(&[&["XXDD"]]),
    ];
    check_ladder(&["five-player"], &ladder(parts));
}

/// `2222 < XXX = DDD = any four jokers < 33333`, five jokers equal between
/// `222222` and `3333333`, `XXXDDD` on top.
#[test]
fn six_player_3v3_ladder() {
    let mut parts = vec![
        rank_bombs(4),
        kings(&[&["XXX", "DDD", "XXXD", "XXDD", "XDDD"]]),
        rank_bombs(5),
        rank_bombs(6),
        kings(&[&["XXXDD", "XXDDD"]]),
    ];
    parts.extend((7..=12).map(rank_bombs));
    parts.push(kings(&[&["XXXDDD"]]));
    check_ladder(SIX_3V3, &ladder(parts));
}

/// Every king bomb between `2222` and `33333`, by joker count then bigs;
/// the biggest play is twelve 2s.
#[test]
fn five_player_3deck_ladder() {
    let mut parts = vec![
        rank_bombs(4),
        kings(&[
            &["XXX"],
            &["DDD"],
            &["XXXD"],
            &["XXDD"],
            &["XDDD"],
            &["XXXDD"],
            &["XXDDD"],
            &["XXXDDD"],
        ]),
    ];
    parts.extend((5..=12).map(rank_bombs));
    check_ladder(&["five-player-3deck"], &ladder(parts));
}

/// Tier ① `2222 < XXX < four jokers (equal) < DDD < 33333`; tier ② between
/// eight 2s and nine 3s: `XXXXD < six jokers (equal) < DDDDX < seven
/// jokers`; eight jokers on top; bombs up to 16 cards.
#[test]
fn six_player_four_deck_ladder() {
    let mut parts = vec![
        rank_bombs(4),
        kings(&[
            &["XXX"],
            &["XXXX", "XXXD", "XXDD", "XDDD", "DDDD"],
            &["DDD"],
        ]),
    ];
    parts.extend((5..=8).map(rank_bombs));
    parts.push(kings(&[
        &["XXXXD"],
        &["XXXXDD", "XXXDDD", "XXDDDD"],
        &["XDDDD"],
        &["XXXXDDD", "XXXDDDD"],
    ]));
    parts.extend((9..=16).map(rank_bombs));
    parts.push(kings(&[&["XXXXDDDD"]]));
    check_ladder(FOUR_DECK, &ladder(parts));
}

readings! {
    two_deck_bomb_of_8: TWO_DECK, "AAAAAAAA" => [("bomb", 'A', 8)];
}

// ---------------------------------------------------------------------------
// Generated plays (moves)
// ---------------------------------------------------------------------------

answers! {
    low_follow_thirteen_top_k: LOW, "A23456789TJQK", Some("A23456789TJQK@straight:K:13") => [
        ("A23456789TJQK", "straight", 'A', 13),
    ];
    low_follow_thirteen_top_a: LOW, "A23456789TJQK", Some("A23456789TJQK@straight:A:13") => [];
    four_deck_follow_22233_with_jokers: FOUR_DECK, "XXXDD22233", Some("22233") => [
        ("XXXDD", "trio_pair", 'X', 1),
        ("XXX", "king_bomb", 'X', 3),
        ("XXXD", "king_bomb", 'D', 4),
        ("XXDD", "king_bomb", 'D', 4),
    ];
    three_deck_follow_2222_all_king_bombs: &["five-player-3deck", "six-player-3v3", "six-player-3v3-kitty"], "XXXDDD", Some("2222") => [
        ("XXX", "king_bomb", 'X', 3),
        ("DDD", "king_bomb", 'D', 3),
        ("XXXD", "king_bomb", 'D', 4),
        ("XXDD", "king_bomb", 'D', 4),
        ("XDDD", "king_bomb", 'D', 4),
        ("XXXDD", "king_bomb", 'D', 5),
        ("XXDDD", "king_bomb", 'D', 5),
        ("XXXDDD", "king_bomb", 'D', 6),
    ];
    five_3deck_follow_ddd: &["five-player-3deck"], "XXXDDD", Some("DDD") => [
        ("XXXD", "king_bomb", 'D', 4),
        ("XXDD", "king_bomb", 'D', 4),
        ("XDDD", "king_bomb", 'D', 4),
        ("XXXDD", "king_bomb", 'D', 5),
        ("XXDDD", "king_bomb", 'D', 5),
        ("XXXDDD", "king_bomb", 'D', 6),
    ];
    four_deck_follow_xxxdd: FOUR_DECK, "XXDDD3333", Some("XXXDD") => [
        ("XXDDD", "trio_pair", 'D', 1),
        ("3333", "bomb", '3', 4),
        ("DDD", "king_bomb", 'D', 3),
        ("XDDD", "king_bomb", 'D', 4),
        ("XXDD", "king_bomb", 'D', 4),
    ];
    five_3deck_follow_33333_nothing: &["five-player-3deck"], "XXXDDD", Some("33333") => [];
    six_3v3_follow_ddd: SIX_3V3, "XXXDDD", Some("DDD") => [
        ("XXXDD", "king_bomb", 'D', 5),
        ("XXDDD", "king_bomb", 'D', 5),
        ("XXXDDD", "king_bomb", 'D', 6),
    ];
    five_player_follow_dd: &["five-player"], "XXDD", Some("DD") => [
        ("XXD", "king_bomb", 'D', 3),
        ("XDD", "king_bomb", 'D', 3),
        ("XXDD", "king_bomb", 'D', 4),
    ];
    four_player_follow_single_d: &["four-player"], "XXDD", Some("X") => [
        ("D", "single", 'D', 1),
        ("XXDD", "king_bomb", 'D', 4),
    ];
    four_player_lead_jokers: &["four-player"], "XXDD", None => [
        ("X", "single", 'X', 1),
        ("D", "single", 'D', 1),
        ("XX", "pair", 'X', 1),
        ("DD", "pair", 'D', 1),
        ("XXDD", "king_bomb", 'D', 4),
    ];
    low_follow_plane_quirk: LOW, "KKKAAA2233XXDD", Some("QQQKKK3344") => [
        ("KKKAAA2233", "plane_pairs", 'A', 2),
        ("KKKAAAXXDD", "plane_pairs", 'A', 2),
        ("XXDD", "king_bomb", 'D', 4),
    ];
}
