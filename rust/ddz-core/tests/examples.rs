//! Worked examples for the `classic` and `two-player` presets, written from
//! docs/rules.md (#cards, #kinds, #sequences, #kickers, #readings, #beats,
//! #bomb-ladder), not from the code. Every example runs on both presets:
//! they share the same kinds, kickers, sequences and bomb ladder.
//!
//! - `readings!`: `classify` returns exactly the expected multiset of
//!   `(kind id, rank symbol, length)` readings (`[]` for a non-play).
//! - `beats!`: `beats` both ways between two plays.
//! - `answers!`: `moves` for a lead or a follow returns exactly the expected plays.
//! - hint ordering tests at the end.
//!
//! A play is written `"cards"` when it has one reading, or
//! `"cards@kind:rank:length"` to pick one of several readings.

mod common;
use common::*;
use ddz_core::{Cards, Engine, Move};

const PRESETS: [&str; 2] = ["classic", "two-player"];

fn parse(e: &Engine, text: &str) -> Cards {
    e.parse(text)
        .unwrap_or_else(|err| panic!("cannot parse {text:?}: {err}"))
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

fn check_readings(text: &str, expected: &[(&str, char, u8)]) {
    let mut want: Vec<(String, char, u8)> = expected
        .iter()
        .map(|&(k, r, l)| (k.to_string(), r, l))
        .collect();
    want.sort();
    for preset in PRESETS {
        let e = engine(preset);
        assert_eq!(
            readings_of(&e, text),
            want,
            "{preset}: readings of {text:?}"
        );
    }
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
    match reading {
        None => {
            assert_eq!(all.len(), 1, "{spec:?} should have one reading: {all:?}");
            all[0]
        }
        Some(r) => {
            let parts: Vec<&str> = r.split(':').collect();
            assert_eq!(parts.len(), 3, "bad play spec {spec:?}");
            let rank = parts[1].chars().next().unwrap();
            let length: u8 = parts[2].parse().unwrap();
            *all.iter()
                .find(|m| m.kind.id() == parts[0] && m.rank_symbol() == rank && m.length == length)
                .unwrap_or_else(|| panic!("{spec:?} is not a reading: {all:?}"))
        }
    }
}

fn check_beats(a: &str, b: &str, a_beats_b: bool, b_beats_a: bool) {
    for preset in PRESETS {
        let e = engine(preset);
        let (pa, pb) = (play(&e, a), play(&e, b));
        assert_eq!(e.beats(&pa, &pb), a_beats_b, "{preset}: {a} beats {b}?");
        assert_eq!(e.beats(&pb, &pa), b_beats_a, "{preset}: {b} beats {a}?");
    }
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

fn check_answers(hand: &str, prev: Option<&str>, expected: &[(&str, &str, char, u8)]) {
    let mut want: Vec<Answer> = expected
        .iter()
        .map(|&(c, k, r, l)| (cards(c).to_string(), k.to_string(), r, l))
        .collect();
    want.sort();
    for preset in PRESETS {
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
    ($($(#[$attr:meta])* $name:ident: $cards:expr => [$(($kind:expr, $rank:expr, $len:expr)),* $(,)?];)*) => {
        $(
            #[test]
            $(#[$attr])*
            fn $name() {
                check_readings($cards, &[$(($kind, $rank, $len)),*]);
            }
        )*
    };
}

macro_rules! beats {
    ($($(#[$attr:meta])* $name:ident: $a:expr, $b:expr => ($ab:expr, $ba:expr);)*) => {
        $(
            #[test]
            $(#[$attr])*
            fn $name() {
                check_beats($a, $b, $ab, $ba);
            }
        )*
    };
}

macro_rules! answers {
    ($($(#[$attr:meta])* $name:ident: $hand:expr, $prev:expr => [$(($c:expr, $kind:expr, $rank:expr, $len:expr)),* $(,)?];)*) => {
        $(
            #[test]
            $(#[$attr])*
            fn $name() {
                check_answers($hand, $prev, &[$(($c, $kind, $rank, $len)),*]);
            }
        )*
    };
}

// ---------------------------------------------------------------------------
// Readings (classify)
// ---------------------------------------------------------------------------

readings! {
    // Non-plays in general.
    empty_is_no_play: "" => [];
    two_ranks_are_no_pair: "34" => [];
    rank_and_joker_are_no_pair: "2X" => [];
    two_pairs_are_no_play: "3344" => [];
    rocket_plus_card_is_no_play: "XD3" => [];
    rocket_plus_pair_is_no_play: "XD33" => [];
    whole_ladder_is_no_play: "3456789TJQKA2XD" => [];

    // single 单张
    single_3: "3" => [("single", '3', 1)];
    single_2: "2" => [("single", '2', 1)];
    single_small_joker: "X" => [("single", 'X', 1)];
    single_big_joker: "D" => [("single", 'D', 1)];

    // pair 对子
    pair_3: "33" => [("pair", '3', 1)];
    pair_ace: "AA" => [("pair", 'A', 1)];
    pair_2: "22" => [("pair", '2', 1)];
    // One deck: the two jokers differ, so XD is the rocket, never a pair.
    jokers_are_the_rocket_not_a_pair: "XD" => [("king_bomb", 'D', 2)];

    // trio 三张
    trio_3: "333" => [("trio", '3', 1)];
    trio_2: "222" => [("trio", '2', 1)];
    trio_with_joker_is_no_play: "33X" => [];

    // trio_single 三带一
    trio_single_3334: "3334" => [("trio_single", '3', 1)];
    trio_single_seed_6668: "6668" => [("trio_single", '6', 1)];
    trio_single_seed_9993: "9993" => [("trio_single", '9', 1)];
    trio_single_seed_888a: "888A" => [("trio_single", '8', 1)];
    trio_single_kicker_order_free: "4333" => [("trio_single", '3', 1)];
    trio_single_kicker_2: "3332" => [("trio_single", '3', 1)];
    trio_single_kicker_small_joker: "333X" => [("trio_single", '3', 1)];
    trio_single_kicker_big_joker: "333D" => [("trio_single", '3', 1)];
    trio_single_of_2s: "2223" => [("trio_single", '2', 1)];
    trio_single_of_2s_with_joker: "222D" => [("trio_single", '2', 1)];
    // no_bomb_inside: four of a rank is a bomb only, never trio + one.
    four_of_a_rank_is_only_a_bomb: "3333" => [("bomb", '3', 4)];

    // trio_pair 三带二
    trio_pair_33344: "33344" => [("trio_pair", '3', 1)];
    trio_pair_seed_qqq66: "QQQ66" => [("trio_pair", 'Q', 1)];
    trio_pair_seed_tttkk: "10 10 10 K K" => [("trio_pair", 'T', 1)];
    trio_pair_pair_of_2s: "33322" => [("trio_pair", '3', 1)];
    trio_pair_of_2s: "22233" => [("trio_pair", '2', 1)];
    trio_with_jokers_is_no_trio_pair: "333XD" => [];
    trio_with_two_singles_is_no_play: "33345" => [];

    // straight 顺子
    straight_34567: "34567" => [("straight", '7', 5)];
    straight_seed_89tjq: "8 9 10 J Q" => [("straight", 'Q', 5)];
    straight_345678: "345678" => [("straight", '8', 6)];
    straight_tjqka: "TJQKA" => [("straight", 'A', 5)];
    straight_longest: "3456789TJQKA" => [("straight", 'A', 12)];
    straight_no_2_jqka2: "JQKA2" => [];
    straight_no_low_ace: "A2345" => [];
    straight_no_2_23456: "23456" => [];
    straight_no_2_thirteen: "3456789TJQKA2" => [];
    straight_no_jokers: "QKA2X" => [];
    straight_too_short: "3456" => [];
    straight_with_gap: "34568" => [];

    // pair_straight 连对
    pair_straight_334455: "334455" => [("pair_straight", '5', 3)];
    pair_straight_seed_ttjjqqkk: "TTJJQQKK" => [("pair_straight", 'K', 4)];
    pair_straight_qqkkaa: "QQKKAA" => [("pair_straight", 'A', 3)];
    pair_straight_ten_links: "33445566778899TTJJQQ" => [("pair_straight", 'Q', 10)];
    pair_straight_no_2: "KKAA22" => [];
    pair_straight_no_low_ace: "AA2233" => [];
    pair_straight_too_short: "3344" => [];
    pair_straight_with_gap: "334466" => [];

    // trio_straight 三顺
    trio_straight_333444: "333444" => [("trio_straight", '4', 2)];
    trio_straight_seed_444555: "444555" => [("trio_straight", '5', 2)];
    trio_straight_kkkaaa: "KKKAAA" => [("trio_straight", 'A', 2)];
    trio_straight_three_links: "333444555" => [("trio_straight", '5', 3)];
    trio_straight_five_links: "333444555666777" => [("trio_straight", '7', 5)];
    trio_straight_six_links: "333444555666777888" => [("trio_straight", '8', 6)];
    trio_straight_no_2_aaa222: "AAA222" => [];
    trio_straight_no_2_222333: "222333" => [];
    trio_straight_with_gap: "333555" => [];

    // One card set, several readings (rules.md#kickers): a 4-trio chain, or a 3-trio
    // plane with wings 666, or with wings 333.
    three_readings_333444555666: "333444555666" => [
        ("trio_straight", '6', 4),
        ("plane_singles", '5', 3),
        ("plane_singles", '6', 3),
    ];
    three_readings_444555666777: "444555666777" => [
        ("trio_straight", '7', 4),
        ("plane_singles", '6', 3),
        ("plane_singles", '7', 3),
    ];

    // plane_singles 飞机带单
    plane_singles_33344456: "33344456" => [("plane_singles", '4', 2)];
    plane_singles_seed_77788836: "77788836" => [("plane_singles", '8', 2)];
    plane_singles_pair_wings: "33344455" => [("plane_singles", '4', 2)];
    plane_singles_wings_below_chain: "44555666" => [("plane_singles", '6', 2)];
    plane_singles_rocket_wings: "333444XD" => [("plane_singles", '4', 2)];
    plane_singles_2_and_joker_wings: "3334442X" => [("plane_singles", '4', 2)];
    plane_singles_pair_of_2s_wings: "33344422" => [("plane_singles", '4', 2)];
    plane_singles_kkkaaa_body: "KKKAAA2X" => [("plane_singles", 'A', 2)];
    plane_singles_kkkaaa_22: "KKKAAA22" => [("plane_singles", 'A', 2)];
    plane_singles_three_links_joker_wings: "3334445552XD" => [("plane_singles", '5', 3)];
    // A trio among the wings, outside the chain (not adjacent to it).
    plane_singles_wing_trio_777: "333444555777" => [("plane_singles", '5', 3)];
    // The wing trio 222 may not extend the chain (no 2 in sequences).
    plane_singles_wing_trio_222: "QQQKKKAAA222" => [("plane_singles", 'A', 3)];
    plane_singles_four_links: "3334445556667788" => [("plane_singles", '6', 4)];
    plane_singles_four_links_two_readings: "3334445556667778" => [
        ("plane_singles", '6', 4),
        ("plane_singles", '7', 4),
    ];
    plane_singles_five_links_two_readings: "3334445556667778889T" => [
        ("plane_singles", '7', 5),
        ("plane_singles", '8', 5),
    ];
    plane_singles_five_links_trio_and_pair_wings: "33344455566677788899" => [
        ("plane_singles", '7', 5),
        ("plane_singles", '8', 5),
    ];
    plane_no_aaa222_body: "AAA22234" => [];
    plane_no_222333_body: "22233345" => [];
    plane_body_with_gap: "33355567" => [];
    // Wings may not repeat a chain rank: that would put 4 of a rank inside.
    plane_wing_repeats_chain_rank_3: "3334443X" => [];
    plane_wing_repeats_chain_rank_4: "33344445" => [];
    plane_wing_repeats_chain_rank_twice: "33334444" => [];
    plane_wings_bomb_7777: "3334445556667777" => [];
    plane_pair_wings_bomb_4444: "4444555666" => [];

    // plane_pairs 飞机带对
    plane_pairs_3334445566: "3334445566" => [("plane_pairs", '4', 2)];
    plane_pairs_seed_88899944jj: "88899944JJ" => [("plane_pairs", '9', 2)];
    plane_pairs_pair_of_2s: "3334442255" => [("plane_pairs", '4', 2)];
    plane_pairs_kkkaaa: "KKKAAA2233" => [("plane_pairs", 'A', 2)];
    plane_pairs_three_links: "333444555667788" => [("plane_pairs", '5', 3)];
    plane_pairs_four_links: "333444555666778899TT" => [("plane_pairs", '6', 4)];
    plane_pairs_no_joker_pair: "33344455XD" => [];
    plane_pairs_same_rank_pairs: "3334445555" => [];
    // Singles and pairs never mix (seed 001: 3-3-3-4-4-4-6-7-7 is illegal).
    plane_mixed_wings_333444566: "333444+5+66" => [];
    plane_mixed_wings_seed_333444677: "333444677" => [];
    plane_too_many_wing_pairs: "333444556677" => [];

    // four_two_singles / four_two_pairs 四带二 (not bombs)
    four_two_singles_seed_666689: "666689" => [("four_two_singles", '6', 1)];
    four_two_singles_pair_kickers: "666699" => [("four_two_singles", '6', 1)];
    four_two_singles_pair_kickers_444433: "444433" => [("four_two_singles", '4', 1)];
    four_two_singles_rocket_kickers: "3333XD" => [("four_two_singles", '3', 1)];
    four_two_singles_2_and_joker: "33332D" => [("four_two_singles", '3', 1)];
    four_two_singles_of_2s: "2222XD" => [("four_two_singles", '2', 1)];
    four_two_pairs_seed_jjjj99qq: "JJJJ99QQ" => [("four_two_pairs", 'J', 1)];
    four_two_pairs_33334455: "33334455" => [("four_two_pairs", '3', 1)];
    four_two_pairs_44443355: "44443355" => [("four_two_pairs", '4', 1)];
    four_two_pairs_pair_of_2s: "333322AA" => [("four_two_pairs", '3', 1)];
    four_two_pairs_same_rank_pairs: "33335555" => [];
    four_plus_one_is_no_play: "33334" => [];
    four_plus_three_is_no_play: "3333456" => [];
    four_plus_pair_and_singles_is_no_play: "33334456" => [];
    four_plus_three_pairs_is_no_play: "3333445566" => [];

    // bomb 炸弹 and king_bomb 火箭
    bomb_3333: "3333" => [("bomb", '3', 4)];
    bomb_aaaa: "AAAA" => [("bomb", 'A', 4)];
    bomb_2222: "2222" => [("bomb", '2', 4)];
    rocket_xd: "XD" => [("king_bomb", 'D', 2)];
}

// ---------------------------------------------------------------------------
// Comparisons (beats): (a beats b, b beats a)
// ---------------------------------------------------------------------------

beats! {
    // Examples of the classic kickers (docs/rules.md#kickers).
    seed_9993_beats_888a: "9993", "888A" => (true, false);
    seed_qqq66_beats_tttkk: "QQQ66", "TTTKK" => (true, false);

    // Singles and pairs.
    single_2_beats_ace: "2", "A" => (true, false);
    single_small_joker_beats_2: "X", "2" => (true, false);
    single_big_joker_beats_small: "D", "X" => (true, false);
    single_equal_never_beats: "7", "7" => (false, false);
    pair_2_beats_pair_ace: "22", "AA" => (true, false);
    pair_vs_single_other_kind: "44", "3" => (false, false);

    // Trios: kickers never matter; kinds must match.
    trio_beats_trio: "444", "333" => (true, false);
    trio_vs_trio_single: "444", "3335" => (false, false);
    kickers_do_not_matter_3334_3335: "3334", "3335" => (false, false);
    trio_single_low_kicker_beats_joker_kicker: "4443", "333D" => (true, false);
    trio_pair_vs_trio_single: "33344", "4445" => (false, false);
    trio_pair_equal_never_beats: "77733", "777KK" => (false, false);

    // Sequences: same length only.
    straight_higher_beats: "45678", "34567" => (true, false);
    straight_tjqka_beats_9tjqk: "TJQKA", "9TJQK" => (true, false);
    straight_5_vs_6: "789TJ", "345678" => (false, false);
    straight_12_vs_11: "3456789TJQKA", "3456789TJQK" => (false, false);
    straight_equal_never_beats: "34567", "34567" => (false, false);
    pair_straight_higher_beats: "445566", "334455" => (true, false);
    pair_straight_3_vs_4_links: "334455", "66778899" => (false, false);
    trio_straight_higher_beats: "444555", "333444" => (true, false);
    trio_straight_kkkaaa_beats_qqqkkk: "KKKAAA", "QQQKKK" => (true, false);
    trio_straight_3_vs_2_links: "333444555", "KKKAAA" => (false, false);
    straight_vs_pair_straight: "3456789", "334455" => (false, false);

    // Planes: compared by the chain; k must match; wings never count.
    plane_singles_higher_beats: "44455536", "33344478" => (true, false);
    plane_singles_joker_wings_do_not_help: "33344422", "4445553X" => (false, true);
    plane_singles_2_vs_3_links: "33344456", "444555666789" => (false, false);
    plane_pairs_higher_beats: "4445556677", "3334448899" => (true, false);
    plane_pairs_2_vs_3_links: "3334445566", "444555666778899" => (false, false);
    plane_pairs_vs_plane_singles: "3334445566", "44455567" => (false, false);
    plane_singles_vs_trio_straight: "33344456", "444555" => (false, false);
    plane_top_6_reading_beats_top_5: "333444555666@plane_singles:6:3", "333444555789" => (true, false);
    plane_top_5_reading_equals_top_5: "333444555666@plane_singles:5:3", "333444555789" => (false, false);
    plane_wing_trio_not_compared_555_vs_666: "333444555666@plane_singles:5:3", "344455566689" => (false, true);
    plane_wing_trio_777_not_compared: "333444555777", "344455566689" => (false, true);
    plane_four_trio_reading_vs_three_trio_plane: "333444555666@trio_straight:6:4", "333444555789" => (false, false);
    plane_two_readings_of_one_set: "333444555666@plane_singles:6:3", "333444555666@plane_singles:5:3" => (true, false);
    plane_wing_trio_222_beats_k_plane: "QQQKKKAAA222", "JJJQQQKKK345" => (true, false);

    // Four with two: not a bomb; its two forms never meet.
    four_two_singles_higher_beats: "777734", "666689" => (true, false);
    four_two_pairs_higher_beats: "JJJJ99QQ", "88883344" => (true, false);
    four_two_singles_vs_pairs: "666689", "JJJJ99QQ" => (false, false);
    four_two_singles_vs_pairs_high_singles: "KKKK89", "55553344" => (false, false);
    four_two_singles_is_not_a_bomb: "666689", "3333" => (false, true);
    four_two_pairs_is_not_a_bomb: "JJJJ99QQ", "3333" => (false, true);
    four_two_of_2s_loses_to_3333: "2222XD", "3333" => (false, true);
    four_two_loses_to_its_own_four: "666689", "6666" => (false, true);
    four_two_singles_vs_trio_single: "666689", "5553" => (false, false);

    // Bombs beat every non-bomb.
    bomb_beats_big_joker: "3333", "D" => (true, false);
    bomb_beats_pair_2: "3333", "22" => (true, false);
    bomb_beats_trio_single: "3333", "2223" => (true, false);
    bomb_beats_longest_straight: "3333", "3456789TJQKA" => (true, false);
    bomb_beats_pair_straight: "3333", "QQKKAA" => (true, false);
    bomb_beats_plane: "3333", "KKKAAA2X" => (true, false);
    bomb_beats_plane_pairs: "3333", "KKKAAA2233" => (true, false);

    // Bombs by rank; the rocket tops everything.
    bomb_4444_beats_3333: "4444", "3333" => (true, false);
    bomb_2222_beats_aaaa: "2222", "AAAA" => (true, false);
    bomb_equal_never_beats: "3333", "3333" => (false, false);
    rocket_beats_2222: "XD", "2222" => (true, false);
    rocket_beats_3333: "XD", "3333" => (true, false);
    rocket_beats_big_joker: "XD", "D" => (true, false);
    rocket_beats_longest_straight: "XD", "3456789TJQKA" => (true, false);
    rocket_beats_four_two: "XD", "2222AA" => (true, false);
    rocket_does_not_beat_rocket: "XD", "XD" => (false, false);
}

#[test]
fn bombs_follow_the_ladder_and_nothing_beats_the_rocket() {
    for preset in PRESETS {
        let e = engine(preset);
        let ranks = "3456789TJQKA2";
        let bombs: Vec<Move> = ranks
            .chars()
            .map(|r| play(&e, &r.to_string().repeat(4)))
            .collect();
        let rocket = play(&e, "XD");
        for (i, a) in bombs.iter().enumerate() {
            for (j, b) in bombs.iter().enumerate() {
                assert_eq!(e.beats(a, b), i > j, "{preset}: {a} vs {b}");
            }
            assert!(e.beats(&rocket, a), "{preset}: XD beats {a}");
            assert!(!e.beats(a, &rocket), "{preset}: {a} must not beat XD");
        }
        assert!(!e.beats(&rocket, &rocket));
    }
}

// ---------------------------------------------------------------------------
// Generated plays (moves): leads and follows
// ---------------------------------------------------------------------------

answers! {
    lead_from_nothing: "", None => [];
    lead_pair_hand: "33", None => [("3", "single", '3', 1), ("33", "pair", '3', 1)];
    lead_rocket_hand: "XD", None => [
        ("X", "single", 'X', 1),
        ("D", "single", 'D', 1),
        ("XD", "king_bomb", 'D', 2),
    ];
    lead_bomb_hand: "3333", None => [
        ("3", "single", '3', 1),
        ("33", "pair", '3', 1),
        ("333", "trio", '3', 1),
        ("3333", "bomb", '3', 4),
    ];
    lead_two_trios: "333444", None => [
        ("3", "single", '3', 1),
        ("4", "single", '4', 1),
        ("33", "pair", '3', 1),
        ("44", "pair", '4', 1),
        ("333", "trio", '3', 1),
        ("444", "trio", '4', 1),
        ("3334", "trio_single", '3', 1),
        ("3444", "trio_single", '4', 1),
        ("33344", "trio_pair", '3', 1),
        ("33444", "trio_pair", '4', 1),
        ("333444", "trio_straight", '4', 2),
    ];
    follow_doc_example_nothing_beats_8889: "33344456", Some("8889") => [];
    follow_single_ace: "3456789TJQKA2XD", Some("A") => [
        ("2", "single", '2', 1),
        ("X", "single", 'X', 1),
        ("D", "single", 'D', 1),
        ("XD", "king_bomb", 'D', 2),
    ];
    follow_888a_with_each_kicker: "999344", Some("888A") => [
        ("9993", "trio_single", '9', 1),
        ("9994", "trio_single", '9', 1),
    ];
    follow_tttkk: "QQQ66KK", Some("TTTKK") => [
        ("QQQ66", "trio_pair", 'Q', 1),
        ("QQQKK", "trio_pair", 'Q', 1),
    ];
    follow_rocket_nothing: "22223333", Some("XD") => [];
    follow_bomb_aaaa: "2222XD", Some("AAAA") => [
        ("2222", "bomb", '2', 4),
        ("XD", "king_bomb", 'D', 2),
    ];
    follow_four_two_with_bomb_only: "333345", Some("666689") => [("3333", "bomb", '3', 4)];
    follow_four_two_singles: "777745", Some("666689") => [
        ("777745", "four_two_singles", '7', 1),
        ("7777", "bomb", '7', 4),
    ];
    follow_four_two_pairs: "399JJJJQQ", Some("88883344") => [
        ("JJJJ99QQ", "four_two_pairs", 'J', 1),
        ("JJJJ", "bomb", 'J', 4),
    ];
    follow_straight_same_length_only: "456789", Some("34567") => [
        ("45678", "straight", '8', 5),
        ("56789", "straight", '9', 5),
    ];
    follow_eleven_straight: "3456789TJQKA", Some("3456789TJQK") => [
        ("456789TJQKA", "straight", 'A', 11),
    ];
    follow_ace_straight_nothing: "3456789TJQKA2", Some("TJQKA") => [];
    follow_plane_top_5: "444555666777", Some("333444555666@plane_singles:5:3") => [
        ("444555666777", "plane_singles", '6', 3),
        ("444555666777", "plane_singles", '7', 3),
    ];
    follow_plane_top_6: "444555666777", Some("333444555666@plane_singles:6:3") => [
        ("444555666777", "plane_singles", '7', 3),
    ];
    follow_trio_straight_4: "444555666777", Some("333444555666@trio_straight:6:4") => [
        ("444555666777", "trio_straight", '7', 4),
    ];
    follow_plane_pair_of_2s_as_wings: "KKKAAA22", Some("QQQKKK34") => [
        ("KKKAAA22", "plane_singles", 'A', 2),
    ];
    follow_plane_joker_wings: "3XD444555", Some("33344456") => [
        ("3444555X", "plane_singles", '5', 2),
        ("3444555D", "plane_singles", '5', 2),
        ("444555XD", "plane_singles", '5', 2),
        ("XD", "king_bomb", 'D', 2),
    ];
}

// ---------------------------------------------------------------------------
// Hints: non-bombs first, weakest first, bombs last (weakest bomb first)
// ---------------------------------------------------------------------------

fn hint_text(e: &Engine, hand: &str, prev: Option<&str>) -> Vec<(String, String)> {
    let h = parse(e, hand);
    let p = prev.map(|s| play(e, s));
    e.hint(&h, p.as_ref())
        .iter()
        .map(|m| (m.cards.to_string(), m.kind.id().to_string()))
        .collect()
}

fn owned(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|&(c, k)| (cards(c).to_string(), k.to_string()))
        .collect()
}

#[test]
fn hint_follow_single_orders_singles_then_bombs() {
    for preset in PRESETS {
        let e = engine(preset);
        assert_eq!(
            hint_text(&e, "3333592XD", Some("4")),
            owned(&[
                ("5", "single"),
                ("9", "single"),
                ("2", "single"),
                ("X", "single"),
                ("D", "single"),
                ("3333", "bomb"),
                ("XD", "king_bomb"),
            ]),
            "{preset}"
        );
    }
}

#[test]
fn hint_follow_straight_smallest_first() {
    for preset in PRESETS {
        let e = engine(preset);
        assert_eq!(
            hint_text(&e, "3456789TJ", Some("34567")),
            owned(&[
                ("45678", "straight"),
                ("56789", "straight"),
                ("6789T", "straight"),
                ("789TJ", "straight"),
            ]),
            "{preset}"
        );
    }
}

#[test]
fn hint_follow_bomb_orders_the_ladder() {
    for preset in PRESETS {
        let e = engine(preset);
        assert_eq!(
            hint_text(&e, "55552222XD", Some("4444")),
            owned(&[("5555", "bomb"), ("2222", "bomb"), ("XD", "king_bomb")]),
            "{preset}"
        );
    }
}

/// Hint invariants on a lead: a permutation of `moves`, no bomb before a
/// non-bomb, no play weaker than an earlier one of its own kind and length.
fn check_hint_order(e: &Engine, hand: &Cards, prev: Option<&Move>) {
    let hint = e.hint(hand, prev);
    let mut moves = e.moves(hand, prev);
    let mut sorted_hint = hint.clone();
    let key = |m: &Move| (m.cards, m.kind, m.rank, m.length);
    moves.sort_by_key(key);
    sorted_hint.sort_by_key(key);
    assert_eq!(
        sorted_hint, moves,
        "hint is a permutation of moves for {hand}"
    );
    let first_bomb = hint
        .iter()
        .position(|m| m.kind.is_bomb())
        .unwrap_or(hint.len());
    assert!(
        hint[first_bomb..].iter().all(|m| m.kind.is_bomb()),
        "bombs last for {hand}"
    );
    for (i, a) in hint.iter().enumerate() {
        for b in &hint[i + 1..] {
            let comparable = a.kind.is_bomb() == b.kind.is_bomb()
                && (a.kind.is_bomb() || (a.kind == b.kind && a.length == b.length));
            if comparable {
                assert!(
                    !e.beats(a, b),
                    "{a} ({:?}) listed before weaker {b} ({:?})",
                    a.kind,
                    b.kind
                );
            }
        }
    }
}

#[test]
fn hint_lead_orders() {
    for preset in PRESETS {
        let e = engine(preset);
        for hand in [
            "3456789TJQKA2XD",
            "33334444XD",
            "333444555666789",
            "3344556677JJJJ2",
            "KKKAAA2222XD",
        ] {
            let h = parse(&e, hand);
            check_hint_order(&e, &h, None);
            let hint = e.hint(&h, None);
            assert_eq!(hint[0].kind.id(), "single", "{preset}: {hand}");
            assert_eq!(hint[0].rank_symbol(), hand.chars().next().unwrap());
        }
        let h = parse(&e, "3456789TJQKA2XD");
        let hint = e.hint(&h, None);
        assert_eq!(hint.last().unwrap().kind.id(), "king_bomb");
        let h = parse(&e, "33334444XD");
        let bombs: Vec<String> = e
            .hint(&h, None)
            .iter()
            .filter(|m| m.kind.is_bomb())
            .map(|m| m.cards.to_string())
            .collect();
        assert_eq!(bombs, ["3333", "4444", "XD"], "{preset}");
    }
}

#[test]
fn hint_follow_orders_on_random_hands() {
    let e = engine("classic");
    let mut rng = Rng(77);
    for _ in 0..200 {
        let n = 1 + rng.below(20);
        let hand = random_hand(&e, &mut rng, n);
        let m = 1 + rng.below(20);
        let other = random_hand(&e, &mut rng, m);
        let leads = e.moves(&other, None);
        let prev = leads[rng.below(leads.len())];
        check_hint_order(&e, &hand, Some(&prev));
    }
}

#[test]
fn one_deck_holds_no_joker_pair_and_no_fifth_card() {
    for preset in PRESETS {
        let e = engine(preset);
        for text in ["XX", "DD", "XXD", "33333", "22222"] {
            assert!(
                e.parse(text).is_err(),
                "{preset}: {text} is not in one deck"
            );
        }
        assert_eq!(e.parse("10 10 x D").unwrap(), cards("TTXD"));
    }
}
