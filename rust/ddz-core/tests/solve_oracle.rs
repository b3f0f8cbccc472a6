//! The solver against a plain minimax written here: no ordering, no table,
//! no shortcuts, on the engine's `moves` (not the solver's compact plays).
//! Random positions of up to 7 cards a hand, two and three hands, leads and
//! follows, with and without forbidden kinds, in four presets; and with two
//! threads sharing the table.

mod common;

use common::{engine, Rng};
use ddz_core::solve::{Options, Position, ShareReplies, Solver, FORBIDDABLE};
use ddz_core::{Cards, Engine, Kind, Move};

/// Does the side of `to_move` force going out first? Farmers (seats 1, 2 of
/// three) are one side.
fn minimax(
    e: &Engine,
    forbid: &[Kind],
    hands: &mut [Cards],
    to_move: usize,
    prev: Option<Move>,
    owner: usize,
) -> bool {
    let n = hands.len();
    let side = |s: usize| if n == 3 { (s != 0) as usize } else { s };
    let next = (to_move + 1) % n;
    let hand = hands[to_move];
    for m in e.moves(&hand, prev.as_ref()) {
        if forbid.contains(&m.kind) {
            continue;
        }
        hands[to_move] = hand - m.cards;
        let mine = hands[to_move].is_empty() || {
            let v = minimax(e, forbid, hands, next, Some(m), to_move);
            (side(next) == side(to_move)) == v
        };
        hands[to_move] = hand;
        if mine {
            return true;
        }
    }
    if prev.is_none() {
        return false;
    }
    let v = if next == owner {
        minimax(e, forbid, hands, next, None, next)
    } else {
        minimax(e, forbid, hands, next, prev, owner)
    };
    (side(next) == side(to_move)) == v
}

/// Random hands drawn from one deck, and a random play to beat (or a lead).
fn random_position(e: &Engine, rng: &mut Rng, n: usize, most: usize) -> Position {
    let mut deck = common::deck(e);
    let mut draw = |k: usize, rng: &mut Rng| {
        let mut c = Cards::EMPTY;
        for _ in 0..k {
            let i = rng.below(deck.len());
            c.0[deck.swap_remove(i)] += 1;
        }
        c
    };
    let hands: Vec<Cards> = (0..n).map(|_| draw(1 + rng.below(most), rng)).collect();
    let to_move = rng.below(n);
    let mut pos = Position::lead(hands, to_move);
    if rng.below(2) == 0 {
        let source = draw(1 + rng.below(6), rng);
        let plays = e.moves(&source, None);
        pos.prev = Some(plays[rng.below(plays.len())]);
        pos.prev_by = Some((to_move + 1 + rng.below(n - 1)) % n);
    }
    pos
}

fn random_forbid(rng: &mut Rng) -> Vec<Kind> {
    if rng.below(2) == 0 {
        return vec![];
    }
    FORBIDDABLE
        .into_iter()
        .filter(|_| rng.below(2) == 0)
        .collect()
}

fn agree(preset: &str, seed: u64, positions: usize, threads: usize) {
    // Helpers from the start, or these small solves would end first.
    agree_after(preset, seed, positions, threads, std::time::Duration::ZERO);
}

fn agree_after(
    preset: &str,
    seed: u64,
    positions: usize,
    threads: usize,
    helpers_after: std::time::Duration,
) {
    let e = engine(preset);
    let mut rng = Rng(seed);
    let (mut wins, mut follows) = (0, 0);
    for case in 0..positions {
        let n = 2 + case % 2;
        let most = if n == 2 { 7 } else { 5 + rng.below(3) };
        let pos = random_position(&e, &mut rng, n, most);
        let forbid = random_forbid(&mut rng);
        let mut solver = Solver::new(
            &e,
            Options {
                forbid: forbid.clone(),
                all: true,
                max_memory: 1 << 22,
                threads,
                helpers_after,
                share_replies: ShareReplies::Always,
                share_replies_after: std::time::Duration::ZERO,
                ..Options::default()
            },
        );
        let got = solver.solve(&pos).unwrap();
        let mut hands = pos.hands.clone();
        let owner = pos.owner().unwrap_or(pos.to_move);
        let want = minimax(&e, &forbid, &mut hands, pos.to_move, pos.prev, owner);
        let ctx = || {
            let h: Vec<String> = pos.hands.iter().map(|h| h.to_string()).collect();
            format!(
                "{preset} case {case}: hands {h:?} to_move {} prev {:?} by {:?} forbid {forbid:?}",
                pos.to_move,
                pos.prev.map(|m| m.to_string()),
                pos.prev_by
            )
        };
        assert_eq!(got.win, Some(want), "{}", ctx());
        // Every winning action the solver names wins against every reply,
        // and every action it leaves out loses.
        let mut named = 0;
        let actions = solver.ordered_actions(&pos).unwrap();
        for a in &actions {
            let child = pos.after(a.as_ref());
            let mover_wins = child.finished().is_some() || {
                let mut hands = child.hands.clone();
                let v = minimax(
                    &e,
                    &forbid,
                    &mut hands,
                    child.to_move,
                    child.prev,
                    child.owner().unwrap_or(child.to_move),
                );
                (child.side(child.to_move) == pos.side(pos.to_move)) == v
            };
            let is_named = got.plays.contains(a);
            named += is_named as usize;
            assert_eq!(is_named, mover_wins, "{}: action {:?}", ctx(), a);
        }
        assert_eq!(named, got.plays.len(), "{}", ctx());
        wins += want as usize;
        follows += pos.prev.is_some() as usize;
    }
    // The sample holds both verdicts and both kinds of turn.
    assert!(wins > positions / 10 && wins < positions * 9 / 10, "{wins}");
    assert!(follows > positions / 3, "{follows}");
}

#[test]
fn classic_agrees_with_minimax() {
    agree("classic", 1, 4000, 1);
}

#[test]
fn four_player_two_decks_agrees_with_minimax() {
    agree("four-player", 2, 2500, 1);
}

#[test]
fn six_player_four_decks_low_a2_agrees_with_minimax() {
    agree("six-player-2v4", 3, 1500, 1);
}

#[test]
fn laizi_as_cards_agrees_with_minimax() {
    agree("laizi", 4, 2000, 1);
}

/// Two threads share one table across the root actions: what either
/// proves must still be exact, so the verdicts and the winning actions
/// agree with the minimax as well.
#[test]
fn two_threads_sharing_a_table_agree_with_minimax() {
    agree("classic", 5, 600, 2);
}

/// Before the pause, two threads share out each root action's replies:
/// the verdicts and the winning actions agree with the minimax too.
#[test]
fn two_threads_sharing_replies_agree_with_minimax() {
    agree_after("classic", 8, 600, 2, std::time::Duration::from_secs(3600));
    agree_after("laizi", 9, 300, 2, std::time::Duration::from_secs(3600));
}

/// Positions too large for the minimax but large enough that both threads
/// search at once (the helper joining from the start): two threads name
/// the same verdict and the same winning root actions as one, with `all`
/// on and off, leads and follows, two and three hands; and under a budget
/// of positions a verdict, when there is one, is still the exact one.
#[test]
fn two_threads_agree_with_one_on_larger_positions() {
    for (preset, seed) in [("classic", 6), ("laizi", 7)] {
        let e = engine(preset);
        let mut rng = Rng(seed);
        for case in 0..60 {
            let n = 2 + case % 2;
            let most = if n == 2 { 11 } else { 7 };
            let pos = random_position(&e, &mut rng, n, most);
            let forbid = random_forbid(&mut rng);
            let solve = |threads: usize, all: bool, max_nodes: Option<u64>| {
                let options = Options {
                    forbid: forbid.clone(),
                    all,
                    threads,
                    max_nodes,
                    helpers_after: std::time::Duration::ZERO,
                    ..Options::default()
                };
                Solver::new(&e, options).solve(&pos).unwrap()
            };
            // Helpers joining after `after` ms: the replies are shared out
            // before, from `alone` µs on (a pause mid-action, at 50 µs).
            let solve_after = |threads: usize, all: bool, (after, alone): (u64, u64)| {
                let options = Options {
                    forbid: forbid.clone(),
                    all,
                    threads,
                    helpers_after: std::time::Duration::from_millis(after),
                    share_replies: ShareReplies::Always,
                    share_replies_after: std::time::Duration::from_micros(alone),
                    ..Options::default()
                };
                Solver::new(&e, options).solve(&pos).unwrap()
            };
            let one = solve(1, true, None);
            let h: Vec<String> = pos.hands.iter().map(|h| h.to_string()).collect();
            let ctx = format!(
                "{preset} case {case}: {h:?} {:?} by {:?}",
                pos.prev, pos.prev_by
            );
            for after in [(0, 0), (3_600_000, 0), (1, 0), (3_600_000, 50)] {
                let two = solve_after(2, true, after);
                assert_eq!((&two.win, &two.plays), (&one.win, &one.plays), "{ctx}");
                let first = solve_after(2, false, after);
                assert_eq!(first.win, one.win, "{ctx}");
                assert_eq!(
                    first.plays,
                    one.plays.first().map(|p| vec![*p]).unwrap_or_default(),
                    "{ctx}"
                );
            }
            for _ in 0..2 {
                let two = solve(2, true, None);
                assert_eq!((&two.win, &two.plays), (&one.win, &one.plays), "{ctx}");
                let first = solve(2, false, None);
                assert_eq!(first.win, one.win, "{ctx}");
                assert_eq!(
                    first.plays,
                    one.plays.first().map(|p| vec![*p]).unwrap_or_default(),
                    "{ctx}"
                );
            }
            let budget = solve(2, false, Some(one.nodes / 3));
            assert!(budget.win.is_none() || budget.win == one.win, "{ctx}");
        }
    }
}

/// Threads draw on one node budget: a solve that runs out stops within a
/// position a thread of it, with an unknown verdict, however soon the
/// helpers join.
#[test]
fn threads_share_one_node_budget() {
    let e = engine("classic");
    // 17 v 17, lost for the leader after some 47 million positions.
    let hands = vec![
        e.parse("33455669TTTJQQKA2").unwrap(),
        e.parse("34456677889JKAA2D").unwrap(),
    ];
    for budget in [1, 10, 5_000, 300_000] {
        for (threads, after) in [(1, 0), (2, 0), (2, 10), (3, 1)] {
            let options = Options {
                threads,
                max_nodes: Some(budget),
                helpers_after: std::time::Duration::from_millis(after),
                ..Options::default()
            };
            let s = Solver::new(&e, options)
                .solve(&Position::lead(hands.clone(), 0))
                .unwrap();
            assert_eq!(s.win, None, "budget {budget}, {threads} threads");
            assert!(s.nodes <= budget + threads as u64, "{} > {budget}", s.nodes);
        }
    }
}

/// The core additions the solver stands on: the early-exit answer check
/// agrees with listing every answer, and target keys are unique.
#[test]
fn can_answer_and_target_keys_agree_with_moves() {
    for preset in ["classic", "four-player", "six-player-2v4", "laizi"] {
        let e = engine(preset);
        let mut rng = Rng(9);
        let mut keys = std::collections::HashMap::new();
        for _ in 0..1500 {
            let size = 1 + rng.below(17);
            let hand = common::random_hand(&e, &mut rng, size);
            let size = 1 + rng.below(8);
            let source = common::random_hand(&e, &mut rng, size);
            let plays = e.moves(&source, None);
            let prev = plays[rng.below(plays.len())];
            for p in [None, Some(prev)] {
                let want = !e.moves(&hand, p.as_ref()).is_empty();
                assert_eq!(
                    e.can_answer(&hand, p.as_ref()),
                    want,
                    "{preset} {hand} {p:?}"
                );
            }
            let t = e.to_beat(&prev);
            assert_eq!(
                *keys.entry(t.key()).or_insert(t),
                t,
                "{preset}: two targets, one key"
            );
            assert_eq!(hand.packed().is_some(), hand.0.iter().all(|&n| n < 16));
        }
    }
}
