//! Property tests on random `classic` and `two-player` hands: random subsets
//! of the 54-card deck of 0..=20 cards, with a play to answer drawn from the
//! leads of a second, disjoint random hand.
//!
//! For leads and follows alike:
//! - every generated move is one of the readings `classify` gives its cards;
//! - every move's cards are non-empty and contained in the hand;
//! - no duplicates; `count_moves == moves().len()`;
//! - `hint()` is a permutation of `moves()`, bombs last, weakest first;
//! - every follow beats the play it answers (and is not beaten back by it);
//! - the follows are exactly the leads that beat the play;
//! - every reading of a lead's cards is itself a lead;
//! - nothing beats the rocket, and no play beats itself.

mod common;
use common::*;
use ddz_core::{Cards, Engine, Move};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::TestCaseError;
use std::collections::HashSet;

/// A shuffled deck cut into a hand of 0..=20 cards and another hand of 1..=20
/// cards (fewer if the deck runs out), plus an index choosing one of the
/// other hand's leads.
fn cut(d: Vec<usize>) -> impl Strategy<Value = (Cards, Cards, Index)> {
    (
        Just(d).prop_shuffle(),
        0..=20usize,
        1..=20usize,
        any::<Index>(),
    )
        .prop_map(|(d, n, m, idx)| {
            let n = n.min(d.len());
            let m = m.min(d.len() - n);
            let mut hand = Cards::EMPTY;
            let mut other = Cards::EMPTY;
            for &slot in &d[..n] {
                hand.0[slot] += 1;
            }
            for &slot in &d[n..n + m] {
                other.0[slot] += 1;
            }
            (hand, other, idx)
        })
}

/// Two disjoint random hands from the whole deck.
fn deal(preset: &'static str) -> impl Strategy<Value = (Cards, Cards, Index)> {
    cut(deck(&engine(preset)))
}

/// Two disjoint random hands from the cards of a window of 3..=7 consecutive
/// ranks plus the 2s and jokers: dense hands, rich in trios, planes and bombs.
fn dense_deal(preset: &'static str) -> impl Strategy<Value = (Cards, Cards, Index)> {
    let d = deck(&engine(preset));
    (0..12usize, 3..=7usize).prop_flat_map(move |(lo, width)| {
        let window: Vec<usize> = d
            .iter()
            .copied()
            .filter(|&s| (lo..lo + width).contains(&s) || s >= 12)
            .collect();
        cut(window)
    })
}

/// A random subset of the deck of 1..=20 cards.
fn subset(preset: &'static str) -> impl Strategy<Value = Cards> {
    let d = deck(&engine(preset));
    proptest::sample::subsequence(d, 1..=20).prop_map(|slots| {
        let mut c = Cards::EMPTY;
        for slot in slots {
            c.0[slot] += 1;
        }
        c
    })
}

fn rocket(e: &Engine) -> Move {
    *e.classify(&cards("XD"))
        .iter()
        .find(|m| m.kind.id() == "king_bomb")
        .expect("XD is the rocket")
}

/// Checks every move of `hand` answering `prev`; returns the moves.
fn check_moves(e: &Engine, hand: &Cards, prev: Option<&Move>) -> Result<Vec<Move>, TestCaseError> {
    let moves = e.moves(hand, prev);
    let ctx = || {
        format!(
            "hand {hand} prev {:?}",
            prev.map(|p| (p.to_string(), p.kind))
        )
    };
    let set: HashSet<Move> = moves.iter().copied().collect();
    prop_assert_eq!(set.len(), moves.len(), "{}: duplicate moves", ctx());
    prop_assert_eq!(
        e.count_moves(hand, prev),
        moves.len() as u64,
        "{}: count_moves",
        ctx()
    );
    for m in &moves {
        prop_assert!(!m.cards.is_empty(), "{}: empty move", ctx());
        prop_assert!(hand.contains(&m.cards), "{}: {} not in hand", ctx(), m);
        prop_assert_eq!(m.represents, m.cards, "{}: {} represents", ctx(), m);
        prop_assert!(
            e.classify(&m.cards).contains(m),
            "{}: {} {:?} is not a reading of its cards: {:?}",
            ctx(),
            m,
            m,
            e.classify(&m.cards)
        );
        prop_assert!(!e.beats(m, m), "{}: {} beats itself", ctx(), m);
        if let Some(p) = prev {
            prop_assert!(e.beats(m, p), "{}: {} does not beat the play", ctx(), m);
            prop_assert!(!e.beats(p, m), "{}: the play beats back {}", ctx(), m);
        }
    }
    // hint: a permutation of moves, bombs last, weakest first.
    let hint = e.hint(hand, prev);
    prop_assert_eq!(hint.len(), moves.len(), "{}: hint length", ctx());
    let hint_set: HashSet<Move> = hint.iter().copied().collect();
    prop_assert!(hint_set == set, "{}: hint is not a permutation", ctx());
    let first_bomb = hint
        .iter()
        .position(|m| m.kind.is_bomb())
        .unwrap_or(hint.len());
    prop_assert!(
        hint[first_bomb..].iter().all(|m| m.kind.is_bomb()),
        "{}: a non-bomb hinted after a bomb",
        ctx()
    );
    let mut last: Vec<Move> = Vec::new(); // last hinted move of each (kind, length)
    let mut last_bomb: Option<Move> = None;
    for m in &hint {
        if m.kind.is_bomb() {
            if let Some(b) = last_bomb {
                prop_assert!(!e.beats(&b, m), "{}: bomb {} hinted before {}", ctx(), b, m);
            }
            last_bomb = Some(*m);
        } else {
            match last
                .iter_mut()
                .find(|l| l.kind == m.kind && l.length == m.length)
            {
                Some(l) => {
                    prop_assert!(
                        !e.beats(l, m),
                        "{}: {} hinted before weaker {}",
                        ctx(),
                        l,
                        m
                    );
                    *l = *m;
                }
                None => last.push(*m),
            }
        }
    }
    Ok(moves)
}

fn run_deal(e: &Engine, hand: &Cards, other: &Cards, idx: &Index) -> Result<(), TestCaseError> {
    let leads = check_moves(e, hand, None)?;
    let lead_set: HashSet<Move> = leads.iter().copied().collect();
    let rocket = rocket(e);
    for m in &leads {
        prop_assert!(!e.beats(m, &rocket), "{} beats the rocket", m);
        for r in e.classify(&m.cards) {
            prop_assert!(
                lead_set.contains(&r),
                "hand {}: reading {} {:?} missing",
                hand,
                r,
                r
            );
        }
    }
    let other_leads = e.moves(other, None);
    prop_assert_eq!(other_leads.is_empty(), other.is_empty());
    if other_leads.is_empty() {
        return Ok(());
    }
    let prev = *idx.get(&other_leads);
    run_whole(e, &prev.cards)?;
    let follows = check_moves(e, hand, Some(&prev))?;
    let follow_set: HashSet<Move> = follows.iter().copied().collect();
    let want: HashSet<Move> = leads
        .iter()
        .copied()
        .filter(|m| e.beats(m, &prev))
        .collect();
    prop_assert!(
        follow_set == want,
        "hand {} prev {} {:?}: follows {:?} != leads that beat it {:?}",
        hand,
        prev,
        prev.kind,
        follow_set.difference(&want).collect::<Vec<_>>(),
        want.difference(&follow_set).collect::<Vec<_>>()
    );
    Ok(())
}

/// The readings of a whole card set are exactly the leads of that hand that
/// use all of it.
fn run_whole(e: &Engine, c: &Cards) -> Result<(), TestCaseError> {
    let mut readings = e.classify(c);
    for r in &readings {
        prop_assert_eq!(r.cards, *c);
        prop_assert!(!e.beats(r, r));
    }
    let mut whole: Vec<Move> = e
        .moves(c, None)
        .into_iter()
        .filter(|m| m.cards == *c)
        .collect();
    let key = |m: &Move| (m.kind, m.rank, m.length);
    readings.sort_by_key(key);
    whole.sort_by_key(key);
    prop_assert_eq!(readings, whole, "readings of {}", c);
    Ok(())
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(4096))]

    #[test]
    fn classic_moves_are_consistent((hand, other, idx) in deal("classic")) {
        run_deal(&engine("classic"), &hand, &other, &idx)?;
    }

    #[test]
    fn two_player_moves_are_consistent((hand, other, idx) in deal("two-player")) {
        run_deal(&engine("two-player"), &hand, &other, &idx)?;
    }

    #[test]
    fn classic_dense_moves_are_consistent((hand, other, idx) in dense_deal("classic")) {
        run_deal(&engine("classic"), &hand, &other, &idx)?;
    }

    #[test]
    fn two_player_dense_moves_are_consistent((hand, other, idx) in dense_deal("two-player")) {
        run_deal(&engine("two-player"), &hand, &other, &idx)?;
    }

    #[test]
    fn classic_whole_hand_readings_are_leads(c in subset("classic")) {
        run_whole(&engine("classic"), &c)?;
    }

    #[test]
    fn two_player_whole_hand_readings_are_leads(c in subset("two-player")) {
        run_whole(&engine("two-player"), &c)?;
    }
}
