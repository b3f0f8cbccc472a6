use super::playout::{self, Sides};
use super::*;
use crate::engine::Engine;
use crate::policy::Policy;
use crate::rules::{Rules, PRESETS};
use crate::table::{deal, Card, Phase};
use std::sync::Arc;

fn engine(preset: &str) -> Arc<Engine> {
    Arc::new(Engine::new(Rules::preset(preset).unwrap()).unwrap())
}

/// A small fixed budget: decisions that repeat exactly.
const FAST: SearchBudget = SearchBudget {
    playouts: 24,
    budget_us: 0,
    threads: 1,
};

/// Every moment of deal `index` of `preset` played by random choices from
/// `seed`, as `(table, seat to act)`; at most `limit` of them.
fn moments(preset: &str, index: u64, seed: u64, limit: usize) -> Vec<Table> {
    let mut t = Table::seeded(engine(preset), seed, index).unwrap();
    let mut rng = Rng(seed ^ index);
    let mut out = Vec::new();
    while !t.is_over() && out.len() < limit {
        out.push(t.clone());
        let n = t.legal_unordered().len();
        t.apply_unordered(rng.below(n));
    }
    out
}

/// Every card of the table's places (hands, undealt kitty, set aside).
fn all_cards(t: &Table) -> Vec<Card> {
    let mut cards: Vec<Card> = t.core().hands().iter().flat_map(|h| h.cards()).collect();
    if !t.core().kitty_given() {
        cards.extend_from_slice(t.core().kitty());
    }
    cards.extend_from_slice(t.set_aside());
    cards.sort_unstable();
    cards
}

#[test]
fn every_sample_is_consistent_with_what_the_seat_sees() {
    // The sampled table shows the seat the same observation (its hand, the
    // hands it sees, sizes, kitty, history, roles, legal actions), holds
    // the same cards in all, and keeps a shown kitty in the landlord's hand.
    for preset in PRESETS {
        for index in 0..6 {
            for mut t in moments(preset, index, 11, 400).into_iter().step_by(7) {
                let seat = t.to_act();
                let sampler = Sampler::new(&t, seat);
                let want = t.observation(seat).to_json(preset);
                let cards = all_cards(&t);
                for k in 0..4 {
                    let mut s = sampler.table(&t, &mut Rng::for_game(k, index));
                    assert_eq!(s.observation(seat).to_json(preset), want, "{preset}");
                    assert_eq!(all_cards(&s), cards, "{preset}");
                    for other in 0..t.core().players() {
                        let (a, b) = (&s.core().hands()[other], &t.core().hands()[other]);
                        assert_eq!(a.len(), b.len(), "{preset}");
                    }
                    let shown = t.family().kitty_seen_by(t.core(), seat);
                    let one = t.rules().flow == crate::rules::Flow::OneLandlord;
                    if one && shown && t.core().kitty_given() && t.phase() == Phase::Play {
                        // The kitty less the landlord's plays is still theirs.
                        let landlord = t.report().landlord();
                        let mut left = deal::count(t.core().kitty());
                        for (by, action) in t.core().history() {
                            if let (true, crate::table::Action::Play(m)) = (*by == landlord, action)
                            {
                                for slot in 0..crate::cards::SLOTS {
                                    left.0[slot] = left.0[slot].saturating_sub(m.cards.get(slot));
                                }
                            }
                        }
                        let hand = &s.core().hands()[landlord].counts;
                        assert!(hand.contains(&left), "{preset}");
                    }
                }
            }
        }
    }
}

#[test]
fn the_search_never_takes_an_illegal_action() {
    for preset in PRESETS {
        let e = engine(preset);
        for index in 0..4 {
            let mut t = Table::seeded(e.clone(), 5, index).unwrap();
            let mut rng = Rng(index);
            let mut steps = 0;
            while !t.is_over() {
                let i = Policy::Search(FAST).choose(&mut t, &mut rng);
                let action = t.legal_unordered().get(i);
                let action = action.unwrap_or_else(|| panic!("{preset}: index {i} out of range"));
                t.apply(action).unwrap();
                steps += 1;
                assert!(steps < 5000, "{preset}: the deal does not end");
            }
        }
    }
}

/// Two hidden hands of `t` (not `seat`'s, nor shown to it) and a card of
/// each that differs, for a swap; None when there are no two such.
fn hidden_pair(t: &Table, seat: usize, rng: &mut Rng) -> Option<(usize, Card, usize, Card)> {
    let seen = t.family().hands_seen_by(t.core(), seat);
    let hidden: Vec<usize> = (0..t.core().players())
        .filter(|&s| s != seat && !seen.contains(&s) && !t.core().hands()[s].is_empty())
        .collect();
    if hidden.len() < 2 {
        return None;
    }
    let (a, b) = (hidden[0], hidden[1 + rng.below(hidden.len() - 1)]);
    let ca = t.core().hands()[a].cards();
    let cb = t.core().hands()[b].cards();
    let x = ca[rng.below(ca.len())];
    let y = *cb.iter().find(|&&c| c != x)?;
    Some((a, x, b, y))
}

#[test]
fn moving_hidden_cards_between_opponents_leaves_the_decision_unchanged() {
    for preset in PRESETS {
        let mut rng = Rng(3);
        for index in 0..4 {
            for t in moments(preset, index, 21, 300).into_iter().step_by(5) {
                let seat = t.to_act();
                let Some((a, x, b, y)) = hidden_pair(&t, seat, &mut rng) else {
                    continue;
                };
                let mut moved = t.clone();
                moved.swap_cards(a, x, b, y).unwrap();
                let mut t = t;
                let want = decide(&mut t, FAST, 99);
                let got = decide(&mut moved, FAST, 99);
                let action = |t: &Table, i| t.legal_unordered().get(i);
                assert_eq!(
                    action(&t, want.index),
                    action(&moved, got.index),
                    "{preset}"
                );
            }
        }
    }
}

#[test]
fn one_and_two_threads_decide_alike() {
    for preset in ["classic", "laizi", "two-player", "four-player"] {
        for index in 0..3 {
            for t in moments(preset, index, 8, 200).into_iter().step_by(9) {
                let (mut a, mut b) = (t.clone(), t);
                let two = SearchBudget { threads: 2, ..FAST };
                let (x, y) = (decide(&mut a, FAST, 5), decide(&mut b, two, 5));
                assert_eq!(
                    a.legal_unordered().get(x.index),
                    b.legal_unordered().get(y.index)
                );
                assert_eq!((x.samples, x.playouts), (y.samples, y.playouts), "{preset}");
            }
        }
    }
}

#[test]
fn a_hidden_pool_holds_what_the_seat_cannot_see() {
    // Classic at the first bid: two hands and the kitty are hidden.
    let t = Table::seeded(engine("classic"), 1, 0).unwrap();
    let s = Sampler::new(&t, t.to_act());
    assert!(s.hides_anything());
    let d = s.draw(&mut Rng(1));
    assert_eq!(d.hands.len(), 2);
    assert_eq!(d.kitty.as_ref().map(Vec::len), Some(3));
    let mut drawn: Vec<Card> = d.hands.iter().flat_map(|(_, c)| c.clone()).collect();
    drawn.extend(d.kitty.unwrap());
    let mut want: Vec<Card> = d
        .hands
        .iter()
        .flat_map(|(s, _)| t.core().hands()[*s].cards())
        .collect();
    want.extend_from_slice(t.core().kitty());
    drawn.sort_unstable();
    want.sort_unstable();
    assert_eq!(deal::count(&drawn), deal::count(&want));
    assert_eq!(drawn, want);
}

/// How a duel's side plays: the search at a budget, the playout policy or
/// the greedy player.
#[derive(Clone, Copy)]
enum Player {
    Search(SearchBudget),
    Playout,
    Greedy,
}

fn pick(p: Player, t: &mut Table, rng: &mut Rng) -> usize {
    match p {
        Player::Search(b) => decide(t, b, rng.next_u64()).index,
        Player::Playout => playout::choose(t, &mut Sides::default()),
        Player::Greedy => Policy::Greedy.choose(t, rng),
    }
}

/// Deal `index` of classic with the auction played greedily, then played
/// out by `landlord` against `farmers`: did the landlord win, and its score.
fn duel_deal(e: &Arc<Engine>, index: u64, landlord: Player, farmers: Player) -> (bool, i64) {
    let mut t = Table::seeded(e.clone(), 77, index).unwrap();
    let mut rng = Rng::for_game(78, index);
    while !t.is_over() && t.phase() != Phase::Play {
        let i = Policy::Greedy.choose(&mut t, &mut rng);
        t.apply_unordered(i);
    }
    let l = t.report().landlord();
    while !t.is_over() {
        let p = if t.to_act() == l { landlord } else { farmers };
        let i = pick(p, &mut t, &mut rng);
        t.apply_unordered(i);
    }
    let score = t.result().unwrap().scores[l];
    (score > 0, score)
}

/// `a` against `b` in classic, every deal twice with the sides swapped:
/// (WP as landlord, WP as farmers, WP, mean score a deal).
fn duel(a: Player, b: Player, deals: u64) -> (f64, f64, f64, f64) {
    let e = engine("classic");
    let rows: Vec<(bool, i64, bool, i64)> = (0..deals)
        .into_par_iter()
        .map(|i| {
            let (w1, s1) = duel_deal(&e, i, a, b);
            let (w2, s2) = duel_deal(&e, i, b, a);
            (w1, s1, !w2, -s2)
        })
        .collect();
    let n = deals as f64;
    let landlord = rows.iter().filter(|r| r.0).count() as f64 / n;
    let farmers = rows.iter().filter(|r| r.2).count() as f64 / n;
    // A farmer's score is half the landlord's swing (two farmers).
    let adp = rows.iter().map(|r| (r.1 + r.3) as f64 / 2.0).sum::<f64>() / n;
    (landlord, farmers, (landlord + farmers) / 2.0, adp)
}

#[test]
#[ignore = "a measurement: cargo test --release -p ddz-core duel -- --ignored --nocapture"]
fn duel_figures() {
    let deals: u64 = std::env::var("DDZ_DUEL_DEALS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let show = |name: &str, r: (f64, f64, f64, f64)| {
        println!(
            "{name}: WP landlord {:.3} farmers {:.3} overall {:.3}, landlord-score a deal {:+.2}",
            r.0, r.1, r.2, r.3
        )
    };
    show(
        "playout vs greedy",
        duel(Player::Playout, Player::Greedy, deals),
    );
    let mut b = SearchBudget::DEFAULT;
    if let Some(p) = std::env::var("DDZ_DUEL_PLAYOUTS")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        b.playouts = p;
    }
    println!("search budget: {b:?}, {deals} deals a side");
    show(
        "search vs greedy",
        duel(Player::Search(b), Player::Greedy, deals),
    );
}

#[test]
fn a_table_rebuilt_from_an_observation_shows_the_seat_the_same() {
    // Every moment of one-landlord deals: the rebuilt table's observation
    // for the seat is the one it was given (hand, sizes, kitty, history,
    // roles, legal actions), and the search there decides as on the table.
    for preset in ["classic", "two-player", "four-player", "laizi"] {
        let e = engine(preset);
        for index in 0..5 {
            for mut t in moments(preset, index, 31, 400).into_iter().step_by(3) {
                let seat = t.to_act();
                let want = t.observation(seat).to_json(preset);
                let view = rebuild::View::from_json(&want).unwrap();
                let mut r = rebuild::rebuild(e.clone(), &view, 4).unwrap_or_else(|err| {
                    panic!("{preset}: {err}\n{want}");
                });
                assert_eq!(r.observation(seat).to_json(preset), want, "{preset}");
                let (a, b) = (decide(&mut t, FAST, 3), decide(&mut r, FAST, 3));
                assert_eq!(
                    t.legal_unordered().get(a.index),
                    r.legal_unordered().get(b.index)
                );
            }
        }
    }
}

#[test]
fn a_rebuild_refuses_what_it_cannot_replay() {
    let e = engine("five-player");
    let mut t = Table::seeded(e.clone(), 1, 0).unwrap();
    let view = rebuild::View::from_json(&t.observation(0).to_json("five-player")).unwrap();
    let err = rebuild::rebuild(e, &view, 0).err().unwrap();
    assert!(err.contains("one-landlord"), "{err}");
    let bad = serde_json::json!({"seat": 0, "hand": "3d"});
    assert!(rebuild::View::from_json(&bad).is_err());
}
