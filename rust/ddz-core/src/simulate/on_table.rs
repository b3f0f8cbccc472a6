//! Deals played on the table (`crate::table`): a built-in policy is only a
//! chooser over the table's legal actions. The presets whose family plays
//! on the table (the five-player presets so far) run here; the outcome and
//! the record are read back from the table.

use super::{Action, Dealt, Named, Outcome, Policy, Suited};
use crate::engine::Engine;
use crate::table::physical::{parse_identities, Card};
use crate::table::{self, Phase, Rng, Table};
use std::sync::Arc;

/// Play game `index` of the series `seed` to the end with `policy`.
pub(super) fn run(
    engine: &Arc<Engine>,
    seed: u64,
    index: u64,
    policy: Policy,
    record: bool,
) -> Outcome {
    let mut t = Table::seeded(engine.clone(), seed, index).expect("the rule set was checked");
    // The choices draw from their own stream, apart from the deal's.
    let mut rng = Rng::for_game(seed ^ 0x5EED_C401_CE5E_ED00, index);
    let mut turns = 0;
    while !t.is_over() {
        turns += (t.phase() == Phase::Play) as u32;
        let pick = choose(&t, policy, &mut rng);
        t.apply_unordered(pick);
    }
    outcome(&t, turns, record)
}

/// The index in `legal_unordered()` that `policy` takes: random takes any
/// action uniformly; greedy its smallest play in hint order when it has
/// one, else the first word (pass, keep, no-double, the first option).
fn choose(t: &Table, policy: Policy, rng: &mut Rng) -> usize {
    let legal = t.legal_unordered();
    match policy {
        Policy::Random => rng.below(legal.len()),
        Policy::Greedy => {
            let e = t.engine();
            let best = legal
                .plays
                .iter()
                .enumerate()
                .min_by_key(|(_, m)| e.hint_key(m));
            best.map_or(legal.plays.len(), |(i, _)| i)
        }
    }
}

fn outcome(t: &Table, turns: u32, record: bool) -> Outcome {
    let result = t.result().expect("the deal is over");
    let roles = t.roles();
    let bombs = t.core().history.iter();
    let bombs = bombs.filter(|(_, a)| matches!(a, table::Action::Play(m) if m.kind.is_bomb()));
    let mut out = Outcome {
        landlord: roles.landlord,
        hidden_landlord: roles.hidden_landlord,
        revealed: roles.revealed,
        open_landlords: roles.open_landlords,
        hidden_landlords: roles.hidden_landlords,
        revealed_landlords: roles.revealed_landlords,
        landlord_won: roles.landlord_won,
        turns,
        bombs: bombs.count() as u32,
        multiplier: result.multiplier,
        scores: result.scores.clone(),
        ..Outcome::default()
    };
    if record {
        let deals = t.deals().iter().map(dealt);
        out.deals = deals.collect();
        let marked = out
            .deals
            .last()
            .and_then(|d| d.suited.as_ref())
            .map(|s| s.marked);
        for taken in t.actions() {
            let action = match taken.action {
                table::Action::Play(m) => {
                    Action::Play(m, marked.and_then(|c| named(t.cards_of(taken), c)))
                }
                word => word_of(word),
            };
            out.actions.push((taken.seat, action));
        }
    }
    out
}

/// The copies of `marked`'s rank that a play took, if any.
fn named(cards: &[Card], marked: Card) -> Option<Named> {
    let mut suits = [0u8; 4];
    for c in cards.iter().filter(|c| c.slot == marked.slot) {
        suits[c.suit as usize] += 1;
    }
    (suits != [0; 4]).then_some(Named {
        rank: marked.slot,
        suits,
    })
}

/// A table deal as `simulate` records it, with suits and the marked card.
fn dealt(d: &table::Deal) -> Dealt {
    let count = table::deal::count;
    let marked = d.extra.get("marked").and_then(|v| v.as_str());
    let marked = marked
        .and_then(|m| parse_identities(m).ok())
        .and_then(|ids| {
            let one = ids.first()?;
            Some(Card {
                slot: one.slot,
                suit: one.suit?,
            })
        });
    Dealt {
        hands: d.hands.iter().map(|h| count(h)).collect(),
        kitty: count(&d.kitty),
        set_aside: count(&d.set_aside),
        first: d.first,
        suited: marked.map(|marked| Suited {
            hands: d.hands.clone(),
            kitty: d.kitty.clone(),
            marked,
            marks: None,
        }),
    }
}

/// The simulate spelling of a table decision (they name the same words).
fn word_of(a: table::Action) -> Action {
    use table::Action as T;
    match a {
        T::Pass => Action::Pass,
        T::Bid(b) => Action::Bid(b),
        T::Call => Action::Call,
        T::Grab => Action::Grab,
        T::Reveal(r) => Action::Reveal(r),
        T::Double(d) => Action::Double(d),
        T::Show(s) => Action::Show(s),
        T::Kick(k) => Action::Kick(k),
        T::CounterKick(k) => Action::CounterKick(k),
        T::OpenSolo => Action::OpenSolo,
        T::HiddenSolo => Action::HiddenSolo,
        T::CallFriend => Action::CallFriend,
        T::Side(s) => Action::Side(s),
        T::Play(m) => Action::Play(m, None),
    }
}

#[cfg(test)]
mod tests {
    use super::super::deck::is_whole_deck;
    use super::super::tests::engine;
    use super::super::{simulate, Policy};
    use super::*;

    #[test]
    fn five_player_deals_record_whole_decks_and_split_by_side() {
        for preset in ["five-player", "five-player-3deck"] {
            let e = engine(preset);
            for policy in [Policy::Random, Policy::Greedy] {
                let out = simulate(&e, 300, 4, 2, policy, 100).unwrap();
                for (i, o) in out.iter().enumerate() {
                    assert_eq!(o.scores.iter().sum::<i64>(), 0);
                    let sign = if o.landlord_won { 1 } else { -1 };
                    let w = o.multiplier;
                    match o.hidden_landlord {
                        None => assert_eq!(o.scores[o.landlord], 4 * sign * w),
                        Some(h) => assert_eq!(
                            (o.scores[o.landlord], o.scores[h]),
                            (2 * sign * w, sign * w)
                        ),
                    }
                    if i >= 100 {
                        continue;
                    }
                    let d = &o.deals[0];
                    let s = d.suited.as_ref().unwrap();
                    assert!(s.marked.suited() && s.hands[d.first].contains(&s.marked));
                    assert!(is_whole_deck(s, e.rules()));
                    let pre_play: Vec<Action> = o.actions.iter().take(5).map(|(_, a)| *a).collect();
                    match (preset, policy) {
                        // The other copy's holder is the hidden landlord.
                        ("five-player", _) => {
                            let other =
                                (0..5).find(|&p| p != d.first && s.hands[p].contains(&s.marked));
                            let kitty = s.kitty.contains(&s.marked);
                            assert!(
                                o.hidden_landlord == other
                                    || (kitty && o.hidden_landlord.is_none())
                            );
                        }
                        // Greedy never grabs: the holder leads at base 1.
                        (_, Policy::Greedy) => {
                            assert_eq!(o.landlord, d.first);
                            assert_eq!(pre_play, vec![Action::Pass; 5]);
                        }
                        _ => {}
                    }
                    if (preset, policy) == ("five-player", Policy::Greedy) {
                        assert!(o.actions[..10].iter().all(|(_, a)| matches!(
                            a,
                            Action::Reveal(false) | Action::Double(false)
                        )));
                    }
                }
            }
        }
    }
}
