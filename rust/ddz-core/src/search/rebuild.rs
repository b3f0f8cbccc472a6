//! A table rebuilt from one seat's observation alone, for a search whose
//! caller holds no table (`ddz.agents.SearchAgent` is handed the
//! observation dict and the legal actions only).
//!
//! The seat's hand, the hands it sees and a shown kitty are as observed;
//! the cards played come from the history (by rank: suits of other seats'
//! plays are not shown, and the one-landlord family never reads them); the
//! rest of the deck is dealt at random to the hidden places at their
//! sizes. The history is then replayed once on that deal. Only the
//! one-landlord family: its history is public, so every decision can be
//! replayed (the other families hide some, and their marked cards).

use crate::cards::Cards;
use crate::engine::Engine;
use crate::rules::Flow;
use crate::table::physical::parse_identities;
use crate::table::{deal, Card, Deal, Rng, Table};
use serde_json::Value;
use std::sync::Arc;

/// What the rebuild reads of an observation (`Game.observation`'s keys).
#[derive(Clone, Debug, Default)]
pub struct View {
    pub seat: usize,
    pub to_act: usize,
    pub hand: Vec<Card>,
    pub hand_sizes: Vec<usize>,
    pub kitty: Option<Vec<Card>>,
    pub seen: Vec<(usize, Vec<Card>)>,
    /// (seat, action as the observation spells it).
    pub history: Vec<(usize, String)>,
    pub landlord: Option<usize>,
}

fn cards_of(text: &str) -> Result<Vec<Card>, String> {
    let named = parse_identities(text)?;
    Ok(named
        .into_iter()
        .map(|n| Card {
            slot: n.slot,
            suit: n.suit.unwrap_or(0),
        })
        .collect())
}

fn seat_of(v: &Value, key: &str) -> Result<usize, String> {
    v.get(key)
        .and_then(Value::as_u64)
        .map(|s| s as usize)
        .ok_or(format!("the observation has no seat '{key}'"))
}

impl View {
    /// Read the keys an observation as JSON holds (`seen_hands` keyed by
    /// seat numbers as text; `history` as `[seat, action]` pairs).
    pub fn from_json(v: &Value) -> Result<View, String> {
        let text = |key: &str| v.get(key).and_then(Value::as_str);
        let hand = cards_of(text("hand").ok_or("the observation has no 'hand'")?)?;
        let hand_sizes = v
            .get("hand_sizes")
            .and_then(Value::as_array)
            .ok_or("the observation has no 'hand_sizes'")?
            .iter()
            .map(|n| {
                n.as_u64()
                    .map(|n| n as usize)
                    .ok_or("a hand size is not a count")
            })
            .collect::<Result<Vec<_>, _>>()?;
        let kitty = text("kitty").map(cards_of).transpose()?;
        let mut seen = Vec::new();
        if let Some(hands) = v.get("seen_hands").and_then(Value::as_object) {
            for (seat, cards) in hands {
                let seat = seat
                    .parse()
                    .map_err(|_| format!("seen_hands: no seat {seat}"))?;
                seen.push((seat, cards_of(cards.as_str().unwrap_or(""))?));
            }
        }
        let mut history = Vec::new();
        for item in v
            .get("history")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let pair = item.as_array().filter(|p| p.len() == 2);
            let entry = pair.and_then(|p| Some((p[0].as_u64()? as usize, p[1].as_str()?)));
            let (seat, action) = entry.ok_or("a history entry is not [seat, action]")?;
            history.push((seat, action.to_string()));
        }
        Ok(View {
            seat: seat_of(v, "seat")?,
            to_act: seat_of(v, "to_act")?,
            hand,
            hand_sizes,
            kitty,
            seen,
            history,
            landlord: v
                .get("landlord")
                .and_then(Value::as_u64)
                .map(|s| s as usize),
        })
    }
}

/// The cards of a play's text (`cards` or `cards=represents`); None for a word.
fn played(engine: &Engine, text: &str) -> Option<Cards> {
    let cards = text.split('=').next()?;
    if crate::table::Action::parse(cards).is_some() {
        return None;
    }
    engine.parse(cards).ok().filter(|c| !c.is_empty())
}

/// Take cards of `counts` out of `from`, lowest suits first; None if it
/// lacks some.
fn take(from: &mut Vec<Card>, counts: &Cards) -> Option<Vec<Card>> {
    let mut out = Vec::with_capacity(counts.len());
    for slot in 0..crate::cards::SLOTS {
        for _ in 0..counts.get(slot) {
            let at = from.iter().position(|c| c.slot as usize == slot)?;
            out.push(from.remove(at));
        }
    }
    Some(out)
}

fn remove(from: &mut Vec<Card>, cards: &[Card]) -> Result<(), String> {
    for c in cards {
        let at = from
            .iter()
            .position(|x| x == c)
            .ok_or(format!("{c} is not in the deck"))?;
        from.remove(at);
    }
    Ok(())
}

/// A table at the moment `view` shows, the hidden cards dealt from `seed`.
pub fn rebuild(engine: Arc<Engine>, view: &View, seed: u64) -> Result<Table, String> {
    let rules = engine.rules().clone();
    if rules.flow != Flow::OneLandlord {
        return Err(format!(
            "a search from an observation plays the one-landlord presets only, not {}",
            rules.flow.name()
        ));
    }
    let n = rules.players as usize;
    if view.hand_sizes.len() != n || view.seat >= n {
        return Err("the observation is not of this rule set's table".into());
    }
    let mut deck = deal::physical_deck(&rules);
    deck.sort_unstable();
    let mut plays_counts: Vec<(usize, Cards, &str)> = Vec::new();
    for (s, text) in &view.history {
        if let Some(counts) = played(&engine, text) {
            if *s >= n {
                return Err(format!("history: no seat {s}"));
            }
            plays_counts.push((*s, counts, text));
        }
    }
    // The kitty is in the hands once the hands and the plays hold every
    // card not set aside; its taker is the landlord.
    let in_hands: usize = view.hand_sizes.iter().sum::<usize>()
        + plays_counts.iter().map(|(_, c, _)| c.len()).sum::<usize>();
    let given = in_hands + rules.set_aside as usize == deck.len();
    let taker = match given {
        true => Some(view.landlord.ok_or("a kitty taken but no landlord")?),
        false => None,
    };
    // A shown kitty's cards not yet placed: its taker holds or played them.
    let mut kitty_left = view.kitty.clone().unwrap_or_default();
    remove(&mut deck, &kitty_left)?;
    // What each seat holds now, where known (first: a play of another
    // seat must not take a card seen here).
    let mut now: Vec<Option<Vec<Card>>> = vec![None; n];
    now[view.seat] = Some(view.hand.clone());
    for (s, cards) in &view.seen {
        if *s < n && *s != view.seat {
            now[*s] = Some(cards.clone());
        }
    }
    for (s, cards) in now.iter().enumerate() {
        for c in cards.iter().flatten() {
            let at = kitty_left.iter().position(|x| x == c);
            match at.filter(|_| Some(s) == taker) {
                Some(at) => {
                    kitty_left.remove(at);
                }
                None => remove(&mut deck, std::slice::from_ref(c))?,
            }
        }
    }
    // The cards played, by seat: the kitty's taker's from the kitty first.
    let mut plays: Vec<Vec<Card>> = vec![Vec::new(); n];
    // Each play's physical cards, in history order (named at the replay,
    // so that the hands end as observed).
    let mut named: Vec<Vec<Card>> = Vec::new();
    for (s, counts, text) in plays_counts {
        let start = plays[s].len();
        let mut want = counts;
        if Some(s) == taker {
            let mut from_kitty = Cards::default();
            for slot in 0..crate::cards::SLOTS {
                let k = kitty_left
                    .iter()
                    .filter(|c| c.slot as usize == slot)
                    .count() as u8;
                from_kitty.0[slot] = k.min(want.get(slot));
            }
            plays[s].extend(take(&mut kitty_left, &from_kitty).ok_or("the kitty")?);
            want = want - from_kitty;
        }
        let got = take(&mut deck, &want).ok_or(format!("history: seat {s} played {text}"))?;
        plays[s].extend(got);
        named.push(plays[s][start..].to_vec());
    }
    let mut rng = Rng(seed);
    rng.shuffle(&mut deck);
    let mut pool = deck.into_iter();
    let mut draw = |k: usize| -> Result<Vec<Card>, String> {
        let cards: Vec<Card> = pool.by_ref().take(k).collect();
        match cards.len() == k {
            true => Ok(cards),
            false => Err("the hand sizes do not fit the deck".into()),
        }
    };
    for (s, held) in now.iter_mut().enumerate() {
        if held.is_none() {
            let pinned = if Some(s) == taker {
                std::mem::take(&mut kitty_left)
            } else {
                Vec::new()
            };
            let need = view.hand_sizes[s]
                .checked_sub(pinned.len())
                .ok_or("hand sizes")?;
            let mut cards = pinned;
            cards.extend(draw(need)?);
            *held = Some(cards);
        }
    }
    // The deal: each hand now plus its plays, less the kitty its taker got.
    let mut hands: Vec<Vec<Card>> = now.into_iter().map(Option::unwrap_or_default).collect();
    for (h, p) in hands.iter_mut().zip(&plays) {
        h.extend_from_slice(p);
    }
    let kitty = match (view.kitty.clone(), taker) {
        (Some(k), Some(t)) => {
            remove(&mut hands[t], &k)?;
            k
        }
        (None, None) => draw(rules.kitty as usize)?,
        (None, Some(t)) => {
            // Taken unseen: any of the landlord's cards stand for it.
            let k = rules.kitty as usize;
            let at = hands[t].len().checked_sub(k).ok_or("the landlord's hand")?;
            hands[t].split_off(at)
        }
        (Some(_), None) => return Err("a kitty shown but not taken".into()),
    };
    let set_aside = draw(rules.set_aside as usize)?;
    let first = view.history.first().map_or(view.to_act, |(s, _)| *s);
    let mut given = Deal {
        hands,
        kitty,
        set_aside,
        first,
        ..Deal::default()
    };
    given.sort_hands();
    let mut table = Table::new(engine, Rng(seed ^ 1), vec![given]).map_err(|e| e.0)?;
    let mut named = named.into_iter();
    for (s, text) in &view.history {
        if table.is_over() || table.to_act() != *s {
            return Err(format!("history: seat {s} cannot act at '{text}'"));
        }
        // The legal action spelled so (a laizi play as `cards=represents`).
        let found = table.legal().iter().find(|a| a.to_string() == *text);
        let action = found.ok_or(format!("history: '{text}' is not legal for seat {s}"))?;
        let cards = match action {
            crate::table::Action::Play(_) => named.next().unwrap_or_default(),
            _ => Vec::new(),
        };
        table.apply_named(action, &cards).map_err(|e| e.0)?;
    }
    let sizes: Vec<usize> = table.core().hands().iter().map(|h| h.len()).collect();
    if sizes != view.hand_sizes || table.to_act() != view.to_act {
        return Err("the replayed history does not reach the observed moment".into());
    }
    Ok(table)
}
