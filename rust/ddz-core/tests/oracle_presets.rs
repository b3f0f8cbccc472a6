//! The generator equals the brute-force oracle (every sub-multiset of the
//! hand, classified) for leads and follows, in every preset.
//!
//! Each preset gets random hands of 1..=12 cards drawn from its own deck and
//! as many "dense" and "shaped" hands drawn from a few adjacent ranks of a
//! circular rank order (`… K A 2 X D 3 4 …` or `… K A 2 3 …`), so that planes, bombs, king bombs, joker
//! pairs, joker trio_pairs and the Low A-2 sequences (`A2345`, `AA2233`,
//! `AAA222+wings`, `222333+XXDD`) really occur. The follows are random leads
//! of other random and dense hands of the same preset.
//!
//! `laizi` runs with natural cards only: hands drawn from its 56-card deck
//! with the `L` cards dropped (the oracle classifies no laizi).

mod common;
use common::*;
use ddz_core::cards::LAIZI;
use ddz_core::{Cards, Engine, Move};
use std::collections::BTreeMap;

/// Slots in circular order: `3 … K A 2 X D`, then back to `3`.
const CIRCLE: usize = 15;

/// A run of adjacent slots in one of two circular orders: `… K A 2 X D 3 …`
/// (jokers next to the 2s and 3s) or `… K A 2 3 …` (the Low A-2 link order,
/// so that `A2345`, `AA2233`, `AAA222333`, `KKAA22` and the 13-card
/// straights turn up).
struct Window {
    circle: usize,
    start: usize,
}

impl Window {
    fn random(rng: &mut Rng) -> Window {
        let circle = if rng.below(2) == 0 { CIRCLE } else { 13 };
        Window {
            circle,
            start: rng.below(circle),
        }
    }
    fn slot(&self, i: usize) -> usize {
        (self.start + i) % self.circle
    }
}

/// Drop every laizi (the oracle covers natural cards only).
fn natural(mut c: Cards) -> Cards {
    c.0[LAIZI] = 0;
    c
}

/// `n` cards (at most) drawn without replacement from the copies of a
/// window of `width` adjacent slots of the circular order, plus now and then
/// a stray card from anywhere in the deck.
fn dense_hand(e: &Engine, rng: &mut Rng, n: usize) -> Cards {
    let width = 2 + rng.below(4); // 2..=5 ranks
    let w = Window::random(rng);
    let mut pool = Vec::new();
    for i in 0..width {
        let slot = w.slot(i);
        for _ in 0..e.rules().copies(slot) {
            pool.push(slot);
        }
    }
    let strays = if rng.below(3) == 0 {
        1 + rng.below(2)
    } else {
        0
    };
    let mut hand = Cards::EMPTY;
    for _ in 0..n.saturating_sub(strays).min(pool.len()) {
        let i = rng.below(pool.len());
        hand.0[pool.swap_remove(i)] += 1;
    }
    // Strays: any card of the deck the hand does not already hold every copy of.
    for _ in 0..strays {
        let slot = rng.below(CIRCLE);
        if hand.get(slot) < e.rules().copies(slot) {
            hand.0[slot] += 1;
        }
    }
    hand
}

/// Count templates over adjacent slots of the circular order: planes with
/// consecutive pair wings on either side, long trio and pair chains, the
/// longest straight a 12-card hand holds, bombs side by side.
const SHAPES: [&[u8]; 10] = [
    &[3, 3, 2, 2],
    &[2, 2, 3, 3],
    &[3, 3, 1, 2, 2],
    &[3, 3, 3, 1, 1, 1],
    &[3, 3, 3, 3],
    &[2, 2, 2, 2, 2, 2],
    &[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    &[4, 4, 4],
    &[5, 3, 3],
    &[2, 3, 3, 2],
];

/// A dense hand with the counts of a template at a random place of the
/// circular order (capped by the deck), then one card added or removed
/// now and then.
fn shaped_hand(e: &Engine, rng: &mut Rng) -> Cards {
    let shape = SHAPES[rng.below(SHAPES.len())];
    let w = Window::random(rng);
    let mut hand = Cards::EMPTY;
    for (i, &n) in shape.iter().enumerate() {
        let slot = w.slot(i);
        hand.0[slot] = n.min(e.rules().copies(slot));
    }
    let slot = w.slot(rng.below(shape.len()));
    match rng.below(4) {
        0 if hand.get(slot) > 0 => hand.0[slot] -= 1,
        1 if hand.get(slot) < e.rules().copies(slot) && hand.len() < 12 => hand.0[slot] += 1,
        _ => {}
    }
    hand
}

/// Larger templates (13..=20 cards): three- and four-trio planes with
/// consecutive wings, 13-link straights, long pair chains, big bombs beside
/// the jokers.
const BIG_SHAPES: [&[u8]; 8] = [
    &[3, 3, 3, 2, 2, 2],
    &[2, 2, 2, 3, 3, 3],
    &[3, 3, 3, 3, 2, 2, 2, 2],
    &[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    &[2, 2, 2, 2, 2, 2, 2, 2],
    &[8, 4, 4],
    &[3, 3, 3, 3, 3],
    &[6, 6, 2],
];

/// A big shaped hand, with up to two cards added or removed.
fn big_shaped_hand(e: &Engine, rng: &mut Rng) -> Cards {
    let shape = BIG_SHAPES[rng.below(BIG_SHAPES.len())];
    let w = Window::random(rng);
    let mut hand = Cards::EMPTY;
    for (i, &n) in shape.iter().enumerate() {
        let slot = w.slot(i);
        hand.0[slot] = n.min(e.rules().copies(slot));
    }
    for _ in 0..rng.below(3) {
        let slot = w.slot(rng.below(shape.len() + 1));
        if rng.below(2) == 0 && hand.get(slot) > 0 {
            hand.0[slot] -= 1;
        } else if hand.get(slot) < e.rules().copies(slot) {
            hand.0[slot] += 1;
        }
    }
    hand
}

/// The three generators: 0 plain random, 1 dense, 2 shaped.
fn some_hand(e: &Engine, rng: &mut Rng, n: usize, how: usize) -> Cards {
    match how {
        0 => natural(random_hand(e, rng, n)),
        1 => dense_hand(e, rng, n),
        _ => shaped_hand(e, rng),
    }
}

/// Follows to test a hand against: leads of other random and dense hands,
/// with a bias towards the rarer kinds (longer plays, bombs).
fn random_prevs(e: &Engine, rng: &mut Rng, count: usize) -> Vec<Move> {
    let mut prevs = Vec::new();
    while prevs.len() < count {
        let how = prevs.len() % 3;
        let n = 1 + rng.below(if how == 0 { 20 } else { 14 });
        let other = some_hand(e, rng, n, how);
        let leads = e.moves(&other, None);
        if leads.is_empty() {
            continue;
        }
        // Half the time pick among the leads with the most cards.
        let pick = if rng.below(2) == 0 {
            let most = leads.iter().map(|m| m.cards.len()).max().unwrap_or(0);
            let big: Vec<&Move> = leads.iter().filter(|m| m.cards.len() == most).collect();
            *big[rng.below(big.len())]
        } else {
            leads[rng.below(leads.len())]
        };
        prevs.push(pick);
    }
    prevs
}

/// Features of a lead worth seeing at least once per preset.
fn features(m: &Move) -> Vec<String> {
    let mut f = vec![m.kind.id().to_string()];
    let c = &m.cards;
    let (a, two, x, d) = (c.get(11), c.get(12), c.get(13), c.get(14));
    let chain_only = matches!(m.kind.id(), "straight" | "pair_straight" | "trio_straight");
    if chain_only && a > 0 && two > 0 && m.rank_symbol() != 'A' {
        f.push(format!("low_a_{}", m.kind.id()));
    }
    if chain_only && two > 0 && a == 0 {
        f.push(format!("from_2_{}", m.kind.id()));
    }
    // Two-trio plane bodies AAA222 (top 2) and 222333 (top 3): Low A-2 only.
    if m.kind.is_sequence() && !chain_only && m.length == 2 {
        match m.rank_symbol() {
            '2' => f.push(format!("aaa222_{}", m.kind.id())),
            '3' => f.push(format!("222333_{}", m.kind.id())),
            _ => {}
        }
    }
    if m.kind.id() == "trio_pair" && m.rank >= 13 {
        f.push("joker_trio_pair".into());
    }
    if m.kind.id() == "plane_pairs" && x == 2 && d == 2 {
        f.push("plane_pairs_xxdd_wings".into());
    }
    if !m.kind.is_bomb() && m.kind.id() != "single" && (x >= 2 || d >= 2) {
        f.push(format!("joker_pair_in_{}", m.kind.id()));
    }
    if m.kind.id() == "bomb" && m.length >= 5 {
        f.push("bomb_5_plus".into());
    }
    if m.kind.id() == "king_bomb" {
        f.push(format!("king_bomb_{}x{}d", x, d));
    }
    f
}

/// Run the oracle on `hands` hands; returns how often each feature occurred
/// among the leads.
fn run_oracle(preset: &str, hands: usize, seed: u64) -> BTreeMap<String, usize> {
    let e = engine(preset);
    let mut rng = Rng(seed);
    let mut seen = BTreeMap::new();
    for i in 0..hands {
        let n = 1 + rng.below(12);
        // Half plain random, a quarter dense, a quarter shaped.
        let how = [0, 1, 0, 2][i % 4];
        let hand = some_hand(&e, &mut rng, n, how);
        assert!(e.check_playable(&hand).is_ok(), "{preset}: bad hand {hand}");
        let prevs = random_prevs(&e, &mut rng, 4);
        if let Err(msg) = check_against_oracle(&e, &hand, &prevs) {
            let how = ["random", "dense", "shaped"][how];
            panic!("{preset} hand #{i} ({how}): {msg}");
        }
        for m in e.moves(&hand, None) {
            for f in features(&m) {
                *seen.entry(f).or_insert(0) += 1;
            }
        }
    }
    seen
}

/// Run the oracle and check that the hands really produced every feature
/// of `expected`, and no feature starting with one of `forbidden` (kinds
/// the preset lacks, joker combinations that are no king bomb there).
fn run_preset(preset: &str, seed: u64, expected: &[&str], forbidden: &[&str]) {
    let seen = run_oracle(preset, HANDS, seed);
    let missing: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|f| !seen.contains_key(*f))
        .collect();
    assert!(
        missing.is_empty(),
        "{preset}: the random hands never produced {missing:?}; seen {seen:?}"
    );
    let kings: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|f| f.starts_with("king_bomb_"))
        .collect();
    for f in seen.keys() {
        assert!(
            !forbidden.iter().any(|p| f.starts_with(p)),
            "{preset}: {f} should not exist; seen {seen:?}"
        );
        assert!(
            !f.starts_with("king_bomb_") || kings.contains(&f.as_str()),
            "{preset}: {f} is not a king bomb here; seen {seen:?}"
        );
    }
}

/// Kinds of every preset.
const BASIC: [&str; 10] = [
    "single",
    "pair",
    "trio",
    "trio_pair",
    "straight",
    "pair_straight",
    "trio_straight",
    "plane_pairs",
    "bomb",
    "king_bomb",
];
/// Kinds only the one-deck presets have.
const ONE_DECK_ONLY: [&str; 4] = [
    "trio_single",
    "plane_singles",
    "four_two_singles",
    "four_two_pairs",
];
/// Features of Low A-2 sequences and the plane order quirk.
const LOW_A2: [&str; 6] = [
    "low_a_straight",
    "low_a_pair_straight",
    "from_2_straight",
    "from_2_pair_straight",
    "from_2_trio_straight",
    "aaa222_plane_pairs",
];
const LOW_A2_PREFIXES: [&str; 4] = ["low_a_", "from_2_", "aaa222_", "222333_"];
const JOKER_PAIRS: [&str; 3] = [
    "joker_pair_in_pair",
    "joker_pair_in_trio_pair",
    "joker_pair_in_plane_pairs",
];
/// King bombs of the 3-deck presets: XXX, DDD, every 4, 5 and 6 jokers.
const KINGS_3DECK: [&str; 8] = [
    "king_bomb_3x0d",
    "king_bomb_0x3d",
    "king_bomb_3x1d",
    "king_bomb_2x2d",
    "king_bomb_1x3d",
    "king_bomb_3x2d",
    "king_bomb_2x3d",
    "king_bomb_3x3d",
];

fn all(parts: &[&[&'static str]]) -> Vec<&'static str> {
    parts.iter().flat_map(|p| p.iter().copied()).collect()
}

fn one_deck(preset: &str, seed: u64) {
    let expected = all(&[&BASIC, &ONE_DECK_ONLY, &["king_bomb_1x1d"]]);
    let mut forbidden = all(&[&LOW_A2_PREFIXES, &["joker_"]]);
    forbidden.push("bomb_5_plus");
    run_preset(preset, seed, &expected, &forbidden);
}

/// Big shaped hands (up to 20 cards of a few ranks) against the oracle.
fn run_big(preset: &str, hands: usize, seed: u64) {
    let e = engine(preset);
    let mut rng = Rng(seed);
    for i in 0..hands {
        let hand = big_shaped_hand(&e, &mut rng);
        let mut prevs = random_prevs(&e, &mut rng, 3);
        // A follow of the same shape: the biggest lead of another big hand.
        let other = big_shaped_hand(&e, &mut rng);
        if let Some(m) = e
            .moves(&other, None)
            .into_iter()
            .max_by_key(|m| m.cards.len())
        {
            prevs.push(m);
        }
        if let Err(msg) = check_against_oracle(&e, &hand, &prevs) {
            panic!("{preset} big hand #{i}: {msg}");
        }
    }
}

#[test]
fn big_shaped_hands_match_the_oracle_one_and_two_decks() {
    for (i, preset) in [
        "classic",
        "two-player",
        "laizi",
        "four-player",
        "five-player",
    ]
    .into_iter()
    .enumerate()
    {
        run_big(preset, BIG_HANDS, 300 + i as u64);
    }
}

#[test]
fn big_shaped_hands_match_the_oracle_three_and_four_decks() {
    for (i, preset) in [
        "five-player-3deck",
        "six-player-3v3",
        "six-player-3v3-kitty",
        "six-player-2v4",
        "six-player-teams",
    ]
    .into_iter()
    .enumerate()
    {
        run_big(preset, BIG_HANDS, 310 + i as u64);
    }
}

const BIG_HANDS: usize = 100;

/// Hand-picked hands per preset: the longest sequences, the whole joker
/// set, big bombs, Low A-2 corners. Some exceed 12 cards but have few ranks.
fn run_edge(preset: &str, hands: &[&str], seed: u64) {
    let e = engine(preset);
    let mut rng = Rng(seed);
    let mut prevs = random_prevs(&e, &mut rng, 30);
    // Every reading of every edge hand is also a follow to test against.
    for text in hands {
        let c = e
            .parse(text)
            .unwrap_or_else(|err| panic!("{preset}: {text}: {err}"));
        prevs.extend(e.classify(&c));
    }
    for text in hands {
        let hand = e.parse(text).unwrap();
        if let Err(msg) = check_against_oracle(&e, &hand, &prevs) {
            panic!("{preset} edge hand {text}: {msg}");
        }
    }
}

const HANDS: usize = 3000;

#[test]
fn classic_matches_the_oracle() {
    one_deck("classic", 101);
}

#[test]
fn two_player_matches_the_oracle() {
    one_deck("two-player", 102);
}

#[test]
fn laizi_natural_cards_match_the_oracle() {
    one_deck("laizi", 110);
}

#[test]
fn four_player_matches_the_oracle() {
    let expected = all(&[
        &BASIC,
        &JOKER_PAIRS,
        &["bomb_5_plus", "plane_pairs_xxdd_wings", "king_bomb_2x2d"],
    ]);
    let forbidden = all(&[&ONE_DECK_ONLY, &LOW_A2_PREFIXES, &["joker_trio_pair"]]);
    run_preset("four-player", 103, &expected, &forbidden);
}

#[test]
fn five_player_matches_the_oracle() {
    let expected = all(&[
        &BASIC,
        &[
            "bomb_5_plus",
            "king_bomb_2x0d",
            "king_bomb_0x2d",
            "king_bomb_2x1d",
            "king_bomb_1x2d",
            "king_bomb_2x2d",
        ],
    ]);
    let forbidden = all(&[
        &ONE_DECK_ONLY,
        &LOW_A2_PREFIXES,
        &["joker_", "plane_pairs_xxdd_wings"],
    ]);
    run_preset("five-player", 104, &expected, &forbidden);
}

#[test]
fn five_player_3deck_matches_the_oracle() {
    let expected = all(&[
        &BASIC,
        &LOW_A2,
        &JOKER_PAIRS,
        &KINGS_3DECK,
        &[
            "bomb_5_plus",
            "222333_plane_pairs",
            "plane_pairs_xxdd_wings",
        ],
    ]);
    let forbidden = all(&[&ONE_DECK_ONLY, &["joker_trio_pair"]]);
    run_preset("five-player-3deck", 105, &expected, &forbidden);
}

#[test]
fn six_player_3v3_matches_the_oracle() {
    let expected = all(&[&BASIC, &KINGS_3DECK, &["bomb_5_plus"]]);
    let forbidden = all(&[
        &ONE_DECK_ONLY,
        &LOW_A2_PREFIXES,
        &["joker_", "plane_pairs_xxdd_wings"],
    ]);
    run_preset("six-player-3v3", 106, &expected, &forbidden);
}

#[test]
fn six_player_3v3_kitty_matches_the_oracle() {
    let expected = all(&[
        &BASIC,
        &KINGS_3DECK,
        &JOKER_PAIRS,
        &["bomb_5_plus", "plane_pairs_xxdd_wings"],
    ]);
    let forbidden = all(&[&ONE_DECK_ONLY, &LOW_A2_PREFIXES, &["joker_trio_pair"]]);
    run_preset("six-player-3v3-kitty", 107, &expected, &forbidden);
}

/// King bombs of the 4-deck presets: XXX, DDD, every four jokers, five
/// jokers split 1-4, every six, seven and eight jokers (never 3-2 splits).
const KINGS_4DECK: [&str; 15] = [
    "king_bomb_3x0d",
    "king_bomb_0x3d",
    "king_bomb_4x0d",
    "king_bomb_3x1d",
    "king_bomb_2x2d",
    "king_bomb_1x3d",
    "king_bomb_0x4d",
    "king_bomb_4x1d",
    "king_bomb_1x4d",
    "king_bomb_4x2d",
    "king_bomb_3x3d",
    "king_bomb_2x4d",
    "king_bomb_4x3d",
    "king_bomb_3x4d",
    "king_bomb_4x4d",
];

fn four_deck(preset: &str, seed: u64) {
    let expected = all(&[
        &BASIC,
        &LOW_A2,
        &JOKER_PAIRS,
        &KINGS_4DECK,
        &[
            "bomb_5_plus",
            "222333_plane_pairs",
            "plane_pairs_xxdd_wings",
            "joker_trio_pair",
        ],
    ]);
    let forbidden = all(&[&ONE_DECK_ONLY]);
    run_preset(preset, seed, &expected, &forbidden);
}

#[test]
fn six_player_2v4_matches_the_oracle() {
    four_deck("six-player-2v4", 108);
}

#[test]
fn six_player_teams_matches_the_oracle() {
    four_deck("six-player-teams", 109);
}

#[test]
fn one_deck_edge_hands_match_the_oracle() {
    let hands = [
        "3456789TJQKA2XD",
        "333444555666XD",
        "KKKAAA222XD",
        "2222AAAAXD",
        "3333444455",
    ];
    for (i, preset) in ["classic", "two-player", "laizi"].into_iter().enumerate() {
        run_edge(preset, &hands, 200 + i as u64);
    }
}

#[test]
fn two_deck_edge_hands_match_the_oracle() {
    let hands = [
        "XXDD22222222",
        "XXDDAAA222",
        "333444XXDD",
        "3333344444XD",
        "33344455566XX",
        "AAKK22XXDD",
    ];
    for (i, preset) in ["four-player", "five-player"].into_iter().enumerate() {
        run_edge(preset, &hands, 210 + i as u64);
    }
}

#[test]
fn three_deck_edge_hands_match_the_oracle() {
    let hands = [
        "XXXDDD",
        "XXXDDD222222",
        "AAA222333XXDD",
        "AA2233445566",
        "A23456789TJQK",
        "AAA222888999",
        "222333XXDD",
        "KKKAAA2233",
        "888999777888",
        "333333333333",
    ];
    for (i, preset) in [
        "five-player-3deck",
        "six-player-3v3",
        "six-player-3v3-kitty",
    ]
    .into_iter()
    .enumerate()
    {
        run_edge(preset, &hands, 220 + i as u64);
    }
}

#[test]
fn four_deck_edge_hands_match_the_oracle() {
    let hands = [
        "XXXXDDDD",
        "XXXXDDDD2222",
        "2222222222222222",
        "AAA222333XXXDD",
        "AAA2228899XXDD",
        "222333XXDD",
        "KKKAAA2233",
        "A23456789TJQK",
        "AAAA2222XXXDD",
        "QQQKKKAAA2233",
    ];
    for (i, preset) in ["six-player-2v4", "six-player-teams"]
        .into_iter()
        .enumerate()
    {
        run_edge(preset, &hands, 230 + i as u64);
    }
}
