//! The analysis against a plain brute force on small positions.

use super::*;
use crate::rules::Rules;

fn engine() -> Engine {
    Engine::new(Rules::preset("classic").unwrap()).unwrap()
}

/// Every legal action of the mover (None passes), forbidden kinds out.
fn legal(engine: &Engine, pos: &Position, forbid: &[Kind]) -> Vec<Option<Move>> {
    let hand = pos.hands[pos.to_move];
    let mut out: Vec<Option<Move>> = engine
        .moves(&hand, pos.prev.as_ref())
        .into_iter()
        .filter(|m| !forbid.contains(&m.kind))
        .map(Some)
        .collect();
    if pos.prev.is_some() {
        out.push(None);
    }
    out
}

/// Plain minimax: does the landlord's side win?
fn brute_wins(engine: &Engine, pos: &Position, forbid: &[Kind]) -> bool {
    if let Some(s) = pos.finished() {
        return pos.side(s) == 0;
    }
    let landlord = pos.side(pos.to_move) == 0;
    let mut children = legal(engine, pos, forbid)
        .into_iter()
        .map(|a| brute_wins(engine, &pos.after(a.as_ref()), forbid));
    if landlord {
        children.any(|w| w)
    } else {
        children.all(|w| w)
    }
}

/// Plain minimax of the plays to the landlord's going out, in a won position.
fn brute_length(engine: &Engine, pos: &Position, forbid: &[Kind]) -> u32 {
    if pos.finished().is_some() {
        return 0;
    }
    let landlord = pos.side(pos.to_move) == 0;
    let values = legal(engine, pos, forbid).into_iter().filter_map(|a| {
        let child = pos.after(a.as_ref());
        (!landlord || brute_wins(engine, &child, forbid))
            .then(|| a.is_some() as u32 + brute_length(engine, &child, forbid))
    });
    if landlord {
        values.min().unwrap()
    } else {
        values.max().unwrap()
    }
}

fn position(engine: &Engine, hands: &[&str]) -> Vec<Cards> {
    hands.iter().map(|h| engine.parse(h).unwrap()).collect()
}

#[test]
fn longest_defence_matches_brute_force() {
    let engine = engine();
    let rules = Rules::preset("classic").unwrap();
    let mut won = 0;
    for index in 0..60 {
        let n = if index % 3 == 0 { 3 } else { 2 };
        let (min, max) = if n == 3 { (2, 4) } else { (3, 6) };
        let hands = candidate(&rules, 7, index, n, min, max).unwrap();
        let root = Position::lead(hands.clone(), 0);
        let forbid: &[Kind] = if index % 4 == 1 {
            &[Kind::TrioSingle]
        } else {
            &[]
        };
        let wins = brute_wins(&engine, &root, forbid);
        let limits = Limits {
            screen: false,
            ..Limits::default()
        };
        match analyse(&engine, &hands, forbid, &limits).unwrap() {
            Verdict::Lost => assert!(!wins, "{hands:?}"),
            Verdict::Unknown => panic!("budget ran out on {hands:?}"),
            Verdict::Refused { .. } => assert!(wins, "{hands:?}"),
            Verdict::Won(a) => {
                assert!(wins, "{hands:?}");
                won += 1;
                assert_eq!(a.plays, brute_length(&engine, &root, forbid), "{hands:?}");
                // The line: the landlord's side goes out, in `plays` plays,
                // and each defence reply is one of the longest.
                let mut pos = root.clone();
                for (seat, action) in &a.line {
                    assert_eq!(*seat, pos.to_move);
                    if pos.side(*seat) != 0 {
                        let best = legal(&engine, &pos, forbid)
                            .into_iter()
                            .map(|b| {
                                b.is_some() as u32
                                    + brute_length(&engine, &pos.after(b.as_ref()), forbid)
                            })
                            .max()
                            .unwrap();
                        let got = action.is_some() as u32
                            + brute_length(&engine, &pos.after(action.as_ref()), forbid);
                        assert_eq!(got, best, "{hands:?} at {pos:?}");
                    }
                    pos = pos.after(action.as_ref());
                }
                assert_eq!(pos.finished().map(|s| pos.side(s)), Some(0));
                let played = a.line.iter().filter(|(_, x)| x.is_some()).count();
                assert_eq!(played as u32, a.plays);
            }
        }
    }
    assert!(won > 10, "only {won} won positions");
}

/// Off the main line too: after every winning first action of the landlord
/// (not only the main line's), the reply `longest_defence` names resists as
/// long as the brute force's longest; after a losing one, and with the
/// landlord to move, there is no such reply.
#[test]
fn longest_defence_off_the_main_line_matches_brute_force() {
    let engine = engine();
    let rules = Rules::preset("classic").unwrap();
    let (mut measured, mut refused) = (0, 0);
    for index in 0..40 {
        let n = if index % 3 == 0 { 3 } else { 2 };
        let (min, max) = if n == 3 { (2, 4) } else { (3, 6) };
        let hands = candidate(&rules, 8, index, n, min, max).unwrap();
        let root = Position::lead(hands.clone(), 0);
        let limits = Limits::default();
        assert_eq!(longest_defence(&engine, &root, &[], &limits), Ok(None));
        for a in legal(&engine, &root, &[]) {
            let pos = root.after(a.as_ref());
            if pos.finished().is_some() {
                continue;
            }
            let got = longest_defence(&engine, &pos, &[], &limits).unwrap();
            if !brute_wins(&engine, &pos, &[]) {
                assert_eq!(got, None, "{hands:?} after {a:?}");
                refused += 1;
                continue;
            }
            let reply = got.unwrap_or_else(|| panic!("no reply: {hands:?} after {a:?}"));
            let length = |b: Option<Move>| {
                b.is_some() as u32 + brute_length(&engine, &pos.after(b.as_ref()), &[])
            };
            let best = legal(&engine, &pos, &[]).into_iter().map(length).max();
            assert_eq!(Some(length(reply)), best, "{hands:?} after {a:?}");
            measured += 1;
        }
    }
    assert!(
        measured > 20 && refused > 20,
        "{measured} measured, {refused} refused"
    );
}

#[test]
fn two_different_winning_first_plays_are_not_unique() {
    let engine = engine();
    // 2 and 3 against a 5: only the 2 wins (then the 3 goes out); after
    // the 3 the defence goes out with its 5.
    let hands = position(&engine, &["23", "5"]);
    let Verdict::Won(a) = analyse(&engine, &hands, &[], &Limits::default()).unwrap() else {
        panic!("won")
    };
    assert!(a.unique());
    assert_eq!(a.losing_first_moves, 1);
    // A and 2 against a 5: leading A or 2 both win, then the other goes
    // out: two different winning first plays.
    let hands = position(&engine, &["A2", "5"]);
    let v = analyse(&engine, &hands, &[], &Limits::default()).unwrap();
    assert!(
        matches!(
            v,
            Verdict::Refused {
                why: Refusal::NoLosingFirstMove,
                ..
            }
        ),
        "{v:?}"
    );
    // Add a losing first play (the 3): A and 2 still both win.
    let hands = position(&engine, &["3A2", "5"]);
    let v = analyse(&engine, &hands, &[], &Limits::default()).unwrap();
    assert_eq!(
        v,
        Verdict::Refused {
            why: Refusal::NotUnique,
            first_moves: 3,
            losing_first_moves: 1
        }
    );
}

#[test]
fn kickers_do_not_make_a_second_solution() {
    let engine = engine();
    // 3334 or 3335 win (the pair of kings cannot answer a trio with a
    // single, and the other single then goes out); every other lead gives
    // the kings a single to take, and they go out.
    let hands = position(&engine, &["33345", "KK"]);
    let Verdict::Won(a) = analyse(&engine, &hands, &[], &Limits::default()).unwrap() else {
        panic!("won")
    };
    let first = a.line[0].1.unwrap();
    assert_eq!(first.kind, Kind::TrioSingle, "{:?}", a.line);
    assert_eq!(a.first_moves - a.losing_first_moves, 2); // 3334 and 3335
    assert!(a.unique(), "{:?}", a.line);
}

#[test]
fn losing_positions_are_lost() {
    let engine = engine();
    let hands = position(&engine, &["34", "2"]);
    assert_eq!(
        analyse(&engine, &hands, &[], &Limits::default()).unwrap(),
        Verdict::Lost
    );
}

#[test]
fn many_threads_give_the_same_verdicts() {
    let engine = engine();
    let rules = Rules::preset("classic").unwrap();
    let positions: Vec<Vec<Cards>> = (0..24)
        .map(|i| candidate(&rules, 3, i, 2, 4, 7).unwrap())
        .collect();
    let one = analyse_many(&engine, &positions, &[], &Limits::default(), 1);
    let two = analyse_many(&engine, &positions, &[], &Limits::default(), 2);
    assert_eq!(one, two);
}
