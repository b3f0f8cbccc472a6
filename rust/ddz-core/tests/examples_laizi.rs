//! Worked examples of the laizi preset (docs/rules.md#laizi, seed 004).

mod common;
use common::*;
use ddz_core::Move;

/// Every reading of `text` as "actual=represented kind rank length".
fn readings(text: &str) -> Vec<String> {
    let e = engine("laizi");
    let mut out: Vec<String> = e
        .classify(&cards(text))
        .iter()
        .map(|m| format!("{m} {} {} {}", m.kind.id(), m.rank_symbol(), m.length))
        .collect();
    out.sort();
    out
}

fn reading(text: &str, kind: &str) -> Move {
    let e = engine("laizi");
    let found: Vec<Move> = e
        .classify(&cards(text))
        .into_iter()
        .filter(|m| m.kind.id() == kind)
        .collect();
    assert_eq!(found.len(), 1, "{text} as {kind}: {found:?}");
    found[0]
}

#[test]
fn laizi_complete_groups_and_sequences() {
    assert_eq!(readings("44556L"), ["44556L=445566 pair_straight 6 3"]);
    assert_eq!(
        readings("5678L"),
        ["5678L=45678 straight 8 5", "5678L=56789 straight 9 5"]
    );
    assert_eq!(readings("5L"), ["5L=55 pair 5 1"]);
    assert_eq!(readings("9LL"), ["9LL=999 trio 9 1"]);
    assert_eq!(
        readings("XL"),
        Vec::<String>::new(),
        "a laizi is never a joker"
    );
    assert_eq!(
        readings("L"),
        ["L=3 single 3 1"],
        "only as a hand's last cards"
    );
    assert_eq!(readings("LL"), ["LL=33 pair 3 1"]);
}

#[test]
fn a_laizi_kicker_stays_a_laizi() {
    assert_eq!(
        readings("333L"),
        ["333L trio_single 3 1", "333L=3333 bomb 3 4"]
    );
    assert_eq!(
        readings("333LL"),
        ["333LL trio_pair 3 1", "333LL=33333 bomb 3 5"]
    );
    assert_eq!(readings("3335L"), ["3335L=33355 trio_pair 3 1"]);
    assert_eq!(readings("33355L"), ["33355L=333355 four_two_singles 3 1"]);
    assert_eq!(readings("3334445L"), ["3334445L plane_singles 4 2"]);
}

#[test]
fn soft_bombs_represent_four_of_a_rank() {
    assert_eq!(reading("333L", "bomb").represents, cards("3333"));
    assert_eq!(reading("77LL", "bomb").represents, cards("7777"));
    assert_eq!(reading("4444L", "bomb").represents, cards("44444"));
    assert_eq!(reading("5555LL", "bomb").represents, cards("555555"));
}

#[test]
fn bomb_ladder_hi_rocket_hard_soft() {
    let e = engine("laizi");
    let soft = reading("333L", "bomb");
    let soft_high = reading("22LL", "bomb");
    let hard = reading("3333", "bomb");
    let hard_high = reading("2222", "bomb");
    let rocket = reading("XD", "king_bomb");
    let hi_five = reading("333LL", "bomb");
    let hi_five_high = reading("5555L", "bomb");
    let hi_five_low = reading("4444L", "bomb");
    let hi_six = reading("3333LL", "bomb");
    let ladder = [
        soft,
        soft_high,
        hard,
        hard_high,
        rocket,
        hi_five,
        hi_five_low,
        hi_five_high,
        hi_six,
    ];
    for (i, a) in ladder.iter().enumerate() {
        for b in &ladder[..i] {
            assert!(
                e.beats(a, b) && !e.beats(b, a),
                "{a} should beat {b} and not the reverse"
            );
        }
    }
    assert!(e.beats(&reading("444L", "bomb"), &reading("333L", "bomb")));
    assert!(e.beats(&soft, &reading("AAA2", "trio_single")));
}

#[test]
fn every_reading_of_a_laizi_hand_is_generated_once() {
    let e = engine("laizi");
    let hand = cards("34556LL");
    let leads = e.moves(&hand, None);
    let straights: Vec<String> = leads
        .iter()
        .filter(|m| m.kind.id() == "straight")
        .map(|m| m.to_string())
        .collect();
    assert!(straights.contains(&"3456L=34567".to_string()));
    assert!(straights.contains(&"456LL=45678".to_string()));
    assert_eq!(e.count_moves(&hand, None), leads.len() as u64);
}
