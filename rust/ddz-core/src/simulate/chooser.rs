//! Deals played on the table (`crate::table`) by a built-in policy: the
//! policy only chooses among the table's legal actions.

use super::{Outcome, Policy, TableRecord};
use crate::engine::Engine;
use crate::play::Move;
use crate::table::{Action, Legal, Phase, Rng, Table};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::sync::Arc;

/// The index of the action `policy` takes among `legal` (plays as
/// generated, then the words).
fn choose(policy: Policy, engine: &Engine, legal: Legal<'_>, rng: &mut Rng) -> usize {
    match policy {
        Policy::Random => rng.below(legal.len()),
        Policy::Greedy => greedy(engine, legal),
    }
}

/// What `ddz.agents.GreedyAgent` takes: the smallest play (hint order),
/// else pass; the lowest bid or a call; else a decline (`no-…`, `keep`),
/// else pass, else the first choice.
fn greedy(engine: &Engine, legal: Legal<'_>) -> usize {
    if let Some(i) = smallest(engine, legal.plays) {
        return i;
    }
    let words = legal.words;
    let at = |want: &dyn Fn(&Action) -> bool| words.iter().position(want);
    let pick = at(&|a| matches!(a, Action::Bid(_) | Action::Call))
        .or_else(|| at(&declines))
        .or_else(|| at(&|a| *a == Action::Pass))
        .unwrap_or(0);
    legal.plays.len() + pick
}

/// The index of the first play smallest by `hint_key`: the packed head of
/// the key decides, and the whole key only breaks its ties.
fn smallest(engine: &Engine, plays: &[Move]) -> Option<usize> {
    let (first, rest) = plays.split_first()?;
    let (mut best, mut head) = (0, engine.hint_head(first));
    for (i, m) in rest.iter().enumerate().map(|(i, m)| (i + 1, m)) {
        let h = engine.hint_head(m);
        if h < head || (h == head && engine.hint_key(m) < engine.hint_key(&plays[best])) {
            (best, head) = (i, h);
        }
    }
    Some(best)
}

/// The words `GreedyAgent` reads as declining (they start with `no-`).
fn declines(a: &Action) -> bool {
    a.word().is_some_and(|w| w.starts_with("no-"))
}

thread_local! {
    /// One table per thread, reused deal after deal (its buffers stay).
    static TABLE: RefCell<Option<Table>> = const { RefCell::new(None) };
}

/// Play deal `index` of the series `seed` on the table.
pub(super) fn play(
    engine: &Arc<Engine>,
    seed: u64,
    index: u64,
    policy: Policy,
    record: bool,
) -> Outcome {
    TABLE.with_borrow_mut(|slot| {
        let rng = Rng::for_game(seed, index);
        let table = match slot {
            Some(t) if Arc::ptr_eq(t.shared_engine(), engine) => t,
            _ => slot.insert(
                Table::new(engine.clone(), rng.clone(), Vec::new())
                    .expect("rules checked when built"),
            ),
        };
        // Only a recorded deal keeps its log (the results are the same).
        match record {
            true => table.restart(rng),
            false => table.restart_unrecorded(rng),
        }
        play_on(table, engine, seed, index, policy, record)
    })
}

fn play_on(
    table: &mut Table,
    engine: &Engine,
    seed: u64,
    index: u64,
    policy: Policy,
    record: bool,
) -> Outcome {
    // The choices draw from their own generator, the deals from the table's.
    let mut rng = Rng::for_game(!seed, index);
    let mut out = Outcome::default();
    while !table.is_over() {
        let playing = table.phase() == Phase::Play;
        let legal = table.legal_unordered();
        let i = choose(policy, engine, legal, &mut rng);
        if playing {
            out.turns += 1;
            out.bombs += legal.plays.get(i).is_some_and(|m| m.kind.is_bomb()) as u32;
        }
        table.apply_unordered(i);
    }
    let result = table.result().expect("the deal is over");
    let roles = table.roles();
    out.landlord = roles.landlord;
    out.hidden_landlord = roles.hidden_landlord;
    out.revealed = roles.revealed;
    out.open_landlords = roles.open_landlords;
    out.hidden_landlords = roles.hidden_landlords;
    out.revealed_landlords = roles.revealed_landlords;
    out.landlord_won = roles.landlord_won;
    out.multiplier = result.multiplier;
    out.scores = result.scores.clone();
    if record {
        out.record = Some(record_of(table));
    }
    out
}

/// The deals and actions as `Game` records hold them.
fn record_of(table: &Table) -> TableRecord {
    let deals = table.deals().iter().map(|d| d.to_json()).collect();
    let actions = table
        .actions()
        .iter()
        .map(|taken| {
            let entry = match taken.action {
                Action::Play(m) => json!({
                    "play": m.cards.to_string(),
                    "kind": m.kind.id(),
                    "rank": m.rank_symbol().to_string(),
                    "length": m.length,
                    "ids": crate::table::physical::identities(table.cards_of(taken)),
                }),
                word => Value::String(word.to_string()),
            };
            (taken.seat, entry)
        })
        .collect();
    (deals, actions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn the_smallest_play_is_the_first_smallest_by_the_whole_hint_key() {
        // Many random hands and leads of several rule sets: the packed
        // scan must pick what `min_by_key(hint_key)` picks.
        for preset in ["classic", "laizi", "six-player-3v3"] {
            let e = Engine::new(Rules::preset(preset).unwrap()).unwrap();
            let mut t = Table::seeded(Arc::new(e.clone()), 5, 0).unwrap();
            let mut rng = Rng(9);
            for game in 0..40 {
                t.restart(Rng::for_game(3, game));
                while !t.is_over() {
                    let legal = t.legal_unordered();
                    let want = legal
                        .plays
                        .iter()
                        .enumerate()
                        .min_by_key(|(_, m)| e.hint_key(m))
                        .map(|(i, _)| i);
                    assert_eq!(smallest(&e, legal.plays), want, "{preset}");
                    let pick = rng.below(legal.len());
                    t.apply_unordered(pick);
                }
            }
        }
    }
}
