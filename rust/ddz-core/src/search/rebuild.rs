//! A table rebuilt from one seat's observation alone, for a search whose
//! caller holds no table (`ddz.agents.SearchAgent` is handed the
//! observation dict and the legal actions only).
//!
//! The seat's hand, the hands it sees and a shown kitty are as observed;
//! the cards played come from the history (by rank: suits of other seats'
//! plays are not shown, and the one-landlord family never reads them); the
//! rest of the deck is dealt at random to the hidden places at their
//! sizes. The history is then replayed once on that deal. The
//! one-landlord family and `five-player` (the hidden-partner family): their
//! histories are public, so every decision can be replayed. The other
//! families leave choices the seat did not see out of its history.
//!
//! In `five-player` the marked card's two copies are placed first: the open
//! landlord was dealt one, the hidden landlord (where the seat knows it)
//! the other, in its hand or, where the observation says it was played (a
//! hand the seat sees lacks it, or the partnership came out without a
//! `reveal`), in one of its plays of that rank. A copy whose holder the
//! seat does not know is dealt at random with the other hidden cards, and
//! no play of another seat is given a copy (that would have revealed it).

use crate::cards::Cards;
use crate::engine::Engine;
use crate::rules::Flow;
use crate::table::physical::{parse_identities, push_card};
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
    /// `five-player`: the marked card, the hidden landlord where the seat
    /// knows it, whether it knows the open landlord plays alone (1 v 4),
    /// and whether the partnership is public.
    pub marked: Option<Card>,
    pub hidden_landlord: Option<usize>,
    pub solo: Option<bool>,
    pub revealed: bool,
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
            marked: text("marked")
                .map(cards_of)
                .transpose()?
                .and_then(|cards| cards.first().copied()),
            hidden_landlord: v
                .get("hidden_landlord")
                .and_then(Value::as_u64)
                .map(|s| s as usize),
            solo: v.get("solo").and_then(Value::as_bool),
            revealed: v.get("revealed").and_then(Value::as_bool) == Some(true),
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

/// Take cards of `counts` out of `from`, lowest suits first; None (and
/// `from` untouched) if it lacks some.
fn take(from: &mut Vec<Card>, counts: &Cards) -> Option<Vec<Card>> {
    if !deal::count(from).contains(counts) {
        return None;
    }
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
    let marked = match rules.flow {
        Flow::OneLandlord => None,
        Flow::HiddenPartner => Some(view.marked.ok_or("the observation has no 'marked' card")?),
        flow => {
            return Err(format!(
            "a search from an observation plays the one-landlord presets and five-player, not {}",
            flow.name()
        ))
        }
    };
    let n = rules.players as usize;
    if view.hand_sizes.len() != n || view.seat >= n {
        return Err("the observation is not of this rule set's table".into());
    }
    if view.landlord.is_some_and(|s| s >= n) {
        return Err(format!("the observation's landlord is no seat of {n}"));
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
    // five-player: the marked card's copies the seat cannot see, kept out
    // of the deck until they are placed.
    let mut places = match (marked, taker) {
        (Some(m), Some(open)) => Some(Places::new(
            view,
            &now,
            (m, open),
            &mut deck,
            &kitty_left,
            &plays_counts,
        )),
        (Some(_), None) => {
            return Err("five-player: the kitty is not with the open landlord".into())
        }
        _ => None,
    };
    // The cards played, by seat: the kitty's taker's from the kitty first;
    // and each play's place there (seat, start), in history order.
    let mut plays: Vec<Vec<Card>> = vec![Vec::new(); n];
    let mut spans: Vec<(usize, usize, usize)> = Vec::new();
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
        if let Some(p) = places.as_mut() {
            p.copies_for_play(s, &mut want, &mut plays[s]);
        }
        let got = take(&mut deck, &want).ok_or(format!("history: seat {s} played {text}"))?;
        plays[s].extend(got);
        spans.push((s, start, plays[s].len()));
    }
    // Copies pinned to a hidden hand, by seat.
    let mut pinned: Vec<Vec<Card>> = vec![Vec::new(); n];
    if let Some(p) = places {
        p.finish(&mut plays, &mut pinned, &mut deck)?;
    }
    let named: Vec<Vec<Card>> = spans
        .iter()
        .map(|&(s, start, end)| plays[s][start..end].to_vec())
        .collect();
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
            let mut cards = std::mem::take(&mut pinned[s]);
            if Some(s) == taker {
                cards.append(&mut kitty_left);
            }
            let need = view.hand_sizes[s]
                .checked_sub(cards.len())
                .ok_or("hand sizes")?;
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
            // Taken unseen: any of the landlord's cards stand for it, but
            // a marked copy (it was dealt one).
            let k = rules.kitty as usize;
            let mut kitty = Vec::with_capacity(k);
            for at in (0..hands[t].len()).rev() {
                if kitty.len() < k && Some(hands[t][at]) != marked {
                    kitty.push(hands[t].remove(at));
                }
            }
            if kitty.len() < k {
                return Err("the landlord's hand".into());
            }
            kitty
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
    if let Some(m) = marked {
        given.set_text("marked", |text| push_card(text, m));
    }
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
    if marked.is_some() {
        // The copies were placed as the seat knows them: the roles it sees
        // come out the same.
        let shown = table.observation(view.seat).to_json("");
        let same = |key: &str, want: Value| shown.get(key).cloned().unwrap_or(Value::Null) == want;
        let hidden = view.hidden_landlord.map_or(Value::Null, Value::from);
        let solo = view.solo.map_or(Value::Null, Value::from);
        if !(same("hidden_landlord", hidden)
            && same("solo", solo)
            && same("revealed", view.revealed.into()))
        {
            return Err("the marked card's copies do not fit the roles observed".into());
        }
    }
    Ok(table)
}

/// Where `five-player`'s marked copies were dealt, as far as the seat
/// knows, while the plays are made up and after.
struct Places<'a> {
    now: &'a [Option<Vec<Card>>],
    marked: Card,
    open: usize,
    hand_sizes: &'a [usize],
    /// A kitty the seat saw: its cards stay where they are placed.
    kitty: &'a [Card],
    /// The copies not yet placed (out of the deck).
    copies: Vec<Card>,
    /// Each seat's copies not in a hand the seat sees, not yet placed.
    owed: Vec<usize>,
    /// Whether a seat's copy was played (the partnership came out by a play).
    played: Vec<bool>,
    /// Copies owed to no one: the open landlord may hold both unbeknown.
    spare: usize,
    /// How many more copies the plays must hold (the other cards of that
    /// rank are too few for them).
    short: usize,
}

impl<'a> Places<'a> {
    /// Take the unseen copies of `marked` out of `deck` and work out who was
    /// dealt them; `plays` are the history's plays, `kitty` a shown kitty's
    /// cards not yet placed.
    fn new(
        view: &'a View,
        now: &'a [Option<Vec<Card>>],
        (marked, open): (Card, usize),
        deck: &mut Vec<Card>,
        kitty: &[Card],
        plays: &[(usize, Cards, &str)],
    ) -> Places<'a> {
        let n = now.len();
        let mut copies = Vec::new();
        while let Some(at) = deck.iter().position(|c| *c == marked) {
            copies.push(deck.remove(at));
        }
        let count = |cards: &[Card]| cards.iter().filter(|&&c| c == marked).count();
        // The copies each seat held once the kitty was taken.
        let mut dealt = vec![0usize; n];
        dealt[open] += 1;
        match (view.hidden_landlord, view.solo) {
            (Some(h), _) if h != open && h < n => dealt[h] += 1,
            (_, Some(true)) => dealt[open] += 1,
            _ => {}
        }
        let mut played = vec![false; n];
        // Revealed without a `reveal`: the hidden landlord played its copy
        // (or the open landlord, alone, both of its own).
        if view.revealed && !view.history.iter().any(|(_, a)| a == "reveal") {
            match view.hidden_landlord {
                Some(h) if h != open && h < n => played[h] = true,
                _ => played[open] = true,
            }
        }
        let owed: Vec<usize> = (0..n)
            .map(|s| {
                let seen = now[s].as_deref().map_or(0, count);
                if s != open {
                    return dealt[s].saturating_sub(seen);
                }
                // The open landlord holds a shown kitty's copies wherever
                // they are placed (the hand it shows meets them first), and
                // was dealt at least one of its own.
                let kitty = view.kitty.as_deref().map_or(0, count);
                let own = seen.saturating_sub(kitty);
                (dealt[s].saturating_sub(own + kitty)).max(1usize.saturating_sub(own))
            })
            .collect();
        let slot = marked.slot as usize;
        let wanted: usize = plays.iter().map(|(_, c, _)| usize::from(c.get(slot))).sum();
        let other =
            usize::from(deal::count(deck).get(slot)) + usize::from(deal::count(kitty).get(slot));
        Places {
            now,
            marked,
            open,
            hand_sizes: &view.hand_sizes,
            kitty: view.kitty.as_deref().unwrap_or_default(),
            spare: copies.len().saturating_sub(owed.iter().sum()),
            short: wanted.saturating_sub(other),
            copies,
            owed,
            played,
        }
    }

    /// The copies seat `s`'s next play takes before the deck (out of
    /// `want`, into `cards`): those it owes where the other cards of the
    /// rank run short or its copy was played, and, running short, a copy
    /// owed to no one if `s` is the open landlord.
    fn copies_for_play(&mut self, s: usize, want: &mut Cards, cards: &mut Vec<Card>) {
        let slot = self.marked.slot as usize;
        while want.get(slot) > 0 {
            let owes = self.owed[s] > 0 && (self.short > 0 || self.played[s]);
            let unbeknown = self.owed[s] == 0 && s == self.open && self.spare > 0 && self.short > 0;
            if !(owes || unbeknown) {
                break;
            }
            let Some(copy) = self.copies.pop() else {
                break;
            };
            cards.push(copy);
            *want = *want - Cards::of(slot, 1);
            self.short = self.short.saturating_sub(1);
            match owes {
                true => self.owed[s] -= 1,
                false => self.spare -= 1,
            }
        }
    }

    /// Give each seat still owed a copy one: pinned in a hand the seat
    /// cannot see, else in one of its plays of that rank; the copies left
    /// go back to the deck.
    fn finish(
        mut self,
        plays: &mut [Vec<Card>],
        pinned: &mut [Vec<Card>],
        deck: &mut Vec<Card>,
    ) -> Result<(), String> {
        for (s, &k) in self.owed.iter().enumerate() {
            for _ in 0..k {
                let copy = (self.copies.pop()).ok_or("the marked card's copies do not fit")?;
                let room = self.hand_sizes[s] > pinned[s].len();
                if self.now[s].is_none() && room && !self.played[s] {
                    pinned[s].push(copy);
                    continue;
                }
                let other = |c: &Card| c.slot == self.marked.slot && *c != self.marked;
                let at = (plays[s].iter())
                    .position(|c| other(c) && !self.kitty.contains(c))
                    .or_else(|| plays[s].iter().position(other))
                    .ok_or(format!(
                        "seat {s} holds no copy of the marked card {}",
                        self.marked
                    ))?;
                deck.push(std::mem::replace(&mut plays[s][at], copy));
            }
        }
        deck.append(&mut self.copies);
        deck.sort_unstable();
        Ok(())
    }
}
