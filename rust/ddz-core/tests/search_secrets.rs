//! What a seat cannot see must not steer its search, in every family.
//!
//! For each preset, twin tables are dealt: the second is the first with the
//! whole hands of two other seats swapped. Wherever a family derives a
//! secret role from the cards (a hidden partner holding a marked copy, a
//! called friend, a secret mark), the twins' secret roles are swapped with
//! the hands. Both tables then take the same actions; at each decision of
//! the viewing seat that it cannot tell apart (the same observation), the
//! search must choose the same action. A family whose `redeal_roles` kept
//! the true roles would let its samples play the real partner, and the
//! twins would part.
//!
//! In the play, the swapped seats pass while they may, and the twins are
//! followed until one of them must lead (a play would leave their hands
//! holding different suits of the same ranks, which the observation does
//! not show but the hidden pool does).

use ddz_core::search::{decide, SearchBudget};
use ddz_core::table::{Action, Deal, Phase, Rng, Table};
use ddz_core::{Engine, Rules, PRESETS};
use std::sync::Arc;

/// A small fixed budget: decisions that repeat exactly, cheaply.
const FAST: SearchBudget = SearchBudget {
    playouts: 12,
    budget_us: 0,
    threads: 1,
    ..SearchBudget::DEFAULT
};

/// `deal` with the hands of seats `a` and `b` swapped.
fn swapped(deal: &Deal, a: usize, b: usize) -> Deal {
    let mut twin = deal.clone();
    twin.hands.swap(a, b);
    twin
}

/// Follow the twins with random actions; compare the viewer's searches.
/// Returns how many decisions were compared.
fn compare(preset: &str, mut x: Table, mut y: Table, viewer: usize, swapped: [usize; 2]) -> usize {
    let mut rng = Rng(viewer as u64 + 17);
    let mut compared = 0;
    let mut steps = 0;
    while !x.is_over() && steps < 60 && compared < 4 {
        steps += 1;
        let seat = x.to_act();
        if seat == viewer && x.legal().len() > 1 {
            if x.observation(viewer).to_json(preset) != y.observation(viewer).to_json(preset) {
                return compared; // the viewer can tell them apart
            }
            let (dx, dy) = (decide(&mut x, FAST, 5), decide(&mut y, FAST, 5));
            let pick = |t: &Table, i| t.legal_unordered().get(i);
            assert_eq!(
                pick(&x, dx.index),
                pick(&y, dy.index),
                "{preset}: seat {viewer} decided differently when seats {swapped:?} \
                 swapped their hands and the roles they hold"
            );
            compared += 1;
        }
        let n = x.legal_unordered().len();
        let mut action: Action = x.legal_unordered().get(rng.below(n)).unwrap();
        if x.phase() == Phase::Play && swapped.contains(&seat) {
            // A swapped seat passes while it may, so the twins stay twins.
            if !x.legal_unordered().iter().any(|a| a == Action::Pass) {
                return compared;
            }
            action = Action::Pass;
        }
        x.apply(action).unwrap();
        if y.apply(action).is_err() {
            return compared;
        }
    }
    compared
}

#[test]
fn swapping_two_hidden_seats_hands_and_roles_leaves_the_search_decision() {
    let mut total = 0;
    for preset in PRESETS {
        let rules = Rules::preset(preset).unwrap();
        if rules.players < 3 {
            continue; // no two seats hidden from a third
        }
        let engine = Arc::new(Engine::new(rules).unwrap());
        let mut compared = 0;
        for index in 0..24u64 {
            let t = Table::seeded(engine.clone(), 31, index).unwrap();
            let deal = t.deals()[0].clone();
            let players = deal.hands.len();
            let viewer = index as usize % players;
            let others: Vec<usize> = (0..players).filter(|&s| s != viewer).collect();
            let a = others[index as usize % others.len()];
            let b = others[(index as usize + 1) % others.len()];
            if a == b || deal.hands[a].len() != deal.hands[b].len() {
                continue;
            }
            let twin = swapped(&deal, a, b);
            let (Ok(x), Ok(y)) = (
                Table::new(engine.clone(), Rng(1), vec![deal]),
                Table::new(engine.clone(), Rng(1), vec![twin]),
            ) else {
                continue;
            };
            compared += compare(preset, x, y, viewer, [a, b]);
        }
        assert!(compared > 0, "{preset}: no decision was compared");
        total += compared;
    }
    assert!(total >= 2 * PRESETS.len(), "{total}");
}
