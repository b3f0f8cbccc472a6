//! A table rebuilt from one seat's observation alone, for a search whose
//! caller holds no table (`ddz.agents.SearchAgent` is handed the
//! observation dict and the legal actions only).
//!
//! Each family rebuilds its own tables: `rebuild` dispatches on the flow
//! with a match that names every flow (so a new family does not build
//! until it says how its tables are rebuilt), to the shared replay
//! (`build`, where the one-landlord and hidden-partner families need no
//! more) or to the family's file here (`six_3v3.rs`, `five3.rs`,
//! `six_2v4.rs`), which guesses what the seat did not see. Inside `build`
//! the flow matches name every flow too, no wildcard arm.
//!
//! The seat's hand, the hands it sees and a shown kitty are as observed;
//! the cards played come from the history (by rank: suits of other seats'
//! plays are not shown, and the one-landlord family never reads them); the
//! rest of the deck is dealt at random to the hidden places at their
//! sizes. The history is then replayed once on that deal. In the
//! one-landlord family and `five-player` (the hidden-partner family) the
//! history is public, so one replay reaches the moment. Where the seat
//! did not see a choice or cannot know where a card lies
//! (`six-player-3v3`, `five-player-3deck`, `six-player-2v4`,
//! `six-player-teams`: `six_3v3.rs`, `five3.rs`, `six_2v4.rs`), each try
//! guesses them and is kept once the replay shows the seat the very
//! observation it was given.
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
use crate::rules::{Flow, KittySplit, Rules};
use crate::table::physical::{parse_identities, push_card};
use crate::table::{deal, Action, Card, Deal, Rng, Table};
use serde_json::Value;
use std::sync::Arc;

mod five;
mod five3;
mod pins;
mod six_2v4;
mod six_3v3;

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
    /// A kitty share the seat took (the six-player families).
    pub kitty_share: Option<Vec<Card>>,
    /// `six-player-3v3`: the marked card's receiver and the open
    /// landlords in the order named.
    pub marked_holder: Option<usize>,
    pub open_landlords: Vec<usize>,
    /// The two-marks family: the landlords in the order named (the first,
    /// then unless solo the second); its public mark is `marked`, held by
    /// `marked_holder`.
    pub landlords: Vec<usize>,
    /// The two-marks family: the joker a seven-joker play laid aside, and
    /// the seat it was taken from.
    pub dead: Option<(usize, Card)>,
    /// The observation as given: a rebuild that must guess checks that
    /// the rebuilt table shows the seat the same.
    pub raw: Value,
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

/// A list of seats (none where the key is missing or null).
fn seats_of(v: &Value, key: &str) -> Result<Vec<usize>, String> {
    let Some(list) = v.get(key).filter(|l| !l.is_null()) else {
        return Ok(Vec::new());
    };
    let list = list
        .as_array()
        .ok_or(format!("'{key}' is not a list of seats"))?;
    list.iter()
        .map(|s| {
            s.as_u64()
                .map(|s| s as usize)
                .ok_or(format!("'{key}' is not a list of seats"))
        })
        .collect()
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
        let history = seat_pairs(v, "history")?;
        let mut view = View {
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
            kitty_share: text("kitty_share").map(cards_of).transpose()?,
            marked_holder: v
                .get("marked_holder")
                .and_then(Value::as_u64)
                .map(|s| s as usize),
            open_landlords: seats_of(v, "open_landlords")?,
            landlords: seats_of(v, "landlords")?,
            dead: None,
            raw: v.clone(),
        };
        // The two-marks family shows its public mark and a dead card as
        // {card, seat}.
        if let Some((seat, card)) = seat_card(v, "public_mark")? {
            (view.marked, view.marked_holder) = (Some(card), Some(seat));
        }
        view.dead = seat_card(v, "dead_card")?;
        Ok(view)
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

/// The `{card, seat}` under `key`, if it is there.
fn seat_card(v: &Value, key: &str) -> Result<Option<(usize, Card)>, String> {
    let Some(found) = v.get(key).filter(|m| m.is_object()) else {
        return Ok(None);
    };
    let card = found.get("card").and_then(Value::as_str);
    let card = cards_of(card.ok_or(format!("'{key}' has no card"))?)?;
    let card = *card.first().ok_or(format!("'{key}' names no card"))?;
    Ok(Some((seat_of(found, "seat")?, card)))
}

/// The `[seat, text]` pairs listed under `key` (none if it is absent).
fn seat_pairs(v: &Value, key: &str) -> Result<Vec<(usize, String)>, String> {
    let items = v.get(key).and_then(Value::as_array).into_iter().flatten();
    items
        .map(|item| {
            let pair = item.as_array().filter(|p| p.len() == 2);
            let entry = pair.and_then(|p| Some((p[0].as_u64()? as usize, p[1].as_str()?)));
            let (seat, text) = entry.ok_or(format!("{key}: an entry is not [seat, text]"))?;
            Ok((seat, text.to_string()))
        })
        .collect()
}

/// Take cards of `counts` out of `from`, each the first of its rank there;
/// None (and `from` untouched) if it lacks some.
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

/// How the copies of a marked card the seat cannot see are placed while
/// the plays are made up (`copies_for_play`) and after (`finish`).
trait Placement {
    /// The copies seat `s`'s next play takes before the deck: out of
    /// `want`, into `cards`.
    fn copies_for_play(&mut self, s: usize, want: &mut Cards, cards: &mut Vec<Card>);

    /// Place the copies still unplaced, pinned in a hidden hand
    /// (`pinned`) or swapped into a play (`plays`); the rest go back to
    /// `deck`. What it returns adjusts the hidden hands once dealt.
    fn finish(
        self: Box<Self>,
        plays: &mut [Vec<Card>],
        pinned: &mut [Vec<Card>],
        deck: &mut Vec<Card>,
    ) -> Result<Option<Box<dyn Adjust>>, String>;
}

/// A change to the hidden hands once dealt (`hands`: what each seat holds
/// now, `plays`: what it played, whose suits are a guess; `known`: the
/// hands the seat sees, left alone) so that they fit what the seat knows.
trait Adjust {
    fn adjust(
        &self,
        hands: &mut [Vec<Card>],
        plays: &mut [Vec<Card>],
        known: &[bool],
        rng: &mut Rng,
    ) -> Result<(), String>;

    /// The cards of `cards` (a kitty taker's, hand and plays) that must
    /// have come from the kitty it took unseen.
    fn kitty_first(&self, _seat: usize, _cards: &[Card]) -> Vec<Card> {
        Vec::new()
    }
}

/// A table at the moment `view` shows, the hidden cards dealt from `seed`.
pub fn rebuild(engine: Arc<Engine>, view: &View, seed: u64) -> Result<Table, String> {
    let n = engine.rules().players as usize;
    if view.hand_sizes.len() != n || view.seat >= n {
        return Err("the observation is not of this rule set's table".into());
    }
    let no_seat = |s: &usize| *s >= n;
    if view.landlord.is_some_and(|s| s >= n)
        || view.marked_holder.is_some_and(|s| s >= n)
        || view.open_landlords.iter().any(no_seat)
        || view.landlords.iter().any(no_seat)
        || view.dead.is_some_and(|(s, _)| s >= n)
    {
        return Err(format!(
            "the observation names a landlord that is no seat of {n}"
        ));
    }
    match engine.rules().flow {
        Flow::OneLandlord | Flow::HiddenPartner => build(engine, view, seed, Guess::default()),
        Flow::ThreeCopies => six_3v3::rebuild(engine, view, seed),
        Flow::CalledFriend => five3::rebuild(engine, view, seed),
        Flow::TwoMarks => six_2v4::rebuild(engine, view, seed),
    }
}

/// `engine`, or where it splits the kitty snake-wise (sorted, then dealt
/// first, second, second, first, ...) its twin that shares the kitty as
/// dealt: the rebuilt table then gives each taker the share the rebuild
/// chose. The split is over by the moment the seat sees and the rule sets
/// differ in nothing else, so the search plays the same from there.
fn shared_as_dealt(engine: Arc<Engine>) -> Result<Arc<Engine>, String> {
    if engine.rules().kitty_split != KittySplit::Snake {
        return Ok(engine);
    }
    let rules = Rules {
        kitty_split: KittySplit::InOrder,
        ..engine.rules().clone()
    };
    Ok(Arc::new(Engine::new(rules).map_err(|e| e.to_string())?))
}

/// Does the rebuilt `table` show the seat the observation it was given
/// (every key but the preset's name)?
fn shows_the_same(table: &mut Table, view: &View) -> bool {
    let shown = table.observation(view.seat).to_json("");
    let Value::Object(shown) = shown else {
        return false;
    };
    shown
        .iter()
        .all(|(key, value)| key == "preset" || view.raw.get(key) == Some(value))
}

/// What a rebuild that must guess chose for one try.
#[derive(Default)]
struct Guess<'a> {
    /// `six-player-3v3`: where the marked card's unseen copies lie (seat,
    /// the number of the play that held it, or None for the hand).
    copies: Option<&'a [(usize, Option<usize>)]>,
    /// `five-player-3deck`: what the seat knows was dealt where.
    pins: Option<pins::Pins>,
    /// Actions the seat did not see, made where the history cannot go on
    /// (one of those legal there, at random).
    unseen: &'a [Action],
    /// The two-marks family: the secret mark's holder, where known.
    secret: Option<usize>,
}

/// The secret mark of the two-marks family: a dealt copy held by `holder`
/// (where the seat knows it) or by any seat, never the public mark's own.
fn secret_mark(
    hands: &[Vec<Card>],
    public: (Card, usize),
    holder: Option<usize>,
    rng: &mut Rng,
) -> Result<(Card, usize), String> {
    let mut options: Vec<(Card, usize)> = Vec::new();
    for (s, hand) in hands.iter().enumerate() {
        if holder.is_none_or(|h| h == s) {
            options.extend(hand.iter().map(|&c| (c, s)));
        }
    }
    if let Some(at) = options.iter().position(|&o| o == public) {
        options.remove(at);
    }
    match options.is_empty() {
        true => Err("no card is left for the secret mark".into()),
        false => Ok(options[rng.below(options.len())]),
    }
}

/// The table `view` shows, replayed on one deal: the hidden cards dealt
/// from `seed`, placed as `guess` says.
fn build(engine: Arc<Engine>, view: &View, seed: u64, guess: Guess) -> Result<Table, String> {
    let rules = engine.rules().clone();
    let n = rules.players as usize;
    let marked = match rules.flow {
        Flow::OneLandlord => None,
        Flow::HiddenPartner | Flow::CalledFriend | Flow::ThreeCopies | Flow::TwoMarks => {
            Some(view.marked.ok_or("the observation has no 'marked' card")?)
        }
    };
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
    // card not set aside. Its takers: the landlord, or the open landlords
    // in the order named (`six-player-3v3-kitty`), who share it.
    let in_hands: usize = view.hand_sizes.iter().sum::<usize>()
        + plays_counts.iter().map(|(_, c, _)| c.len()).sum::<usize>()
        + usize::from(view.dead.is_some());
    let given = rules.kitty > 0 && in_hands + rules.set_aside as usize == deck.len();
    let takers: Vec<usize> = match (given, rules.flow) {
        (false, _) => Vec::new(),
        (true, Flow::ThreeCopies) => view.open_landlords.clone(),
        (true, Flow::TwoMarks) => view.landlords.clone(),
        (true, Flow::OneLandlord | Flow::HiddenPartner | Flow::CalledFriend) => {
            vec![view.landlord.ok_or("a kitty taken but no landlord")?]
        }
    };
    if given && (takers.is_empty() || !(rules.kitty as usize).is_multiple_of(takers.len())) {
        return Err("the kitty's takers do not fit the observation".into());
    }
    // The kitty cards the seat saw and who took them: the whole kitty
    // (its one taker) or the seat's own share.
    let shown: Option<(usize, Vec<Card>)> = match (&view.kitty, &view.kitty_share) {
        (Some(k), _) => Some((
            *takers.first().ok_or("a kitty shown but not taken")?,
            k.clone(),
        )),
        (None, Some(k)) if takers.contains(&view.seat) => Some((view.seat, k.clone())),
        (None, Some(_)) => return Err("a kitty share but the seat took none".into()),
        (None, None) => None,
    };
    let owner = shown.as_ref().map(|(s, _)| *s);
    // The shown kitty's cards not yet placed: their taker holds or played them.
    let mut kitty_left = shown.as_ref().map(|(_, k)| k.clone()).unwrap_or_default();
    remove(&mut deck, &kitty_left)?;
    // A dead card was its seat's, laid aside when the play made it so.
    if let Some((_, card)) = view.dead {
        remove(&mut deck, &[card])?;
    }
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
            match at.filter(|_| Some(s) == owner) {
                Some(at) => {
                    kitty_left.remove(at);
                }
                None => remove(&mut deck, std::slice::from_ref(c))?,
            }
        }
    }
    // The marked card's copies the seat cannot see, kept out of the deck
    // until they are placed.
    let mut places: Option<Box<dyn Placement + '_>> = match (rules.flow, marked) {
        (Flow::HiddenPartner, Some(m)) => {
            let open = *takers
                .first()
                .ok_or("five-player: the kitty is not with the open landlord")?;
            let places =
                five::Places::new(view, &now, (m, open), &mut deck, &kitty_left, &plays_counts);
            Some(Box::new(places))
        }
        (Flow::ThreeCopies, Some(m)) => {
            let at = (guess.copies).ok_or("no places for the marked card's copies")?;
            Some(Box::new(six_3v3::Copies::new(
                m,
                at,
                &now,
                &view.hand_sizes,
                &mut deck,
            )?))
        }
        (Flow::CalledFriend | Flow::TwoMarks, _) => {
            let mut pins = guess
                .pins
                .ok_or("no places for the cards the seat knows of")?;
            pins.take_from(&now, owner.map(|o| (o, &kitty_left[..])), &mut deck)?;
            Some(Box::new(pins))
        }
        // No marked card (`marked` is None only in the one-landlord flow).
        (Flow::OneLandlord, _) | (Flow::HiddenPartner | Flow::ThreeCopies, None) => None,
    };
    // The cards played, by seat: the shown kitty's taker's from the kitty
    // first; and each play's place there (seat, start), in history order.
    // Which copies of a rank a play held is a guess too (suits decide a
    // five-player-3deck call).
    Rng(seed ^ 0x5eed).shuffle(&mut deck);
    let mut plays: Vec<Vec<Card>> = vec![Vec::new(); n];
    let mut spans: Vec<(usize, usize, usize)> = Vec::new();
    for (s, counts, text) in plays_counts {
        let start = plays[s].len();
        let mut want = counts;
        if Some(s) == owner {
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
    let known: Vec<bool> = now.iter().map(Option::is_some).collect();
    let adjust = match places {
        Some(p) => p.finish(&mut plays, &mut pinned, &mut deck)?,
        None => None,
    };
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
            if Some(s) == owner {
                cards.append(&mut kitty_left);
            }
            let need = view.hand_sizes[s]
                .checked_sub(cards.len())
                .ok_or("hand sizes")?;
            cards.extend(draw(need)?);
            *held = Some(cards);
        }
    }
    let mut hands: Vec<Vec<Card>> = now.into_iter().map(Option::unwrap_or_default).collect();
    if let Some(adjust) = &adjust {
        adjust.adjust(&mut hands, &mut plays, &known, &mut rng)?;
    }
    let named: Vec<Vec<Card>> = spans
        .iter()
        .map(|&(s, start, end)| plays[s][start..end].to_vec())
        .collect();
    // The deal: each hand now plus its plays, less the kitty its takers got.
    for (h, p) in hands.iter_mut().zip(&plays) {
        h.extend_from_slice(p);
    }
    // five-player-3deck: the kitty came after the grab, which the taker's
    // jokers and marked-rank cards decided; they stay out of it.
    let keeps = |c: Card| {
        rules.flow == Flow::CalledFriend
            && (!c.suited() || marked.is_some_and(|m| m.slot == c.slot))
    };
    let mut kitty = Vec::with_capacity(rules.kitty as usize);
    match takers.len() {
        0 => kitty = draw(rules.kitty as usize)?,
        takers_count => {
            let share = rules.kitty as usize / takers_count;
            for &t in &takers {
                match &shown {
                    Some((s, cards)) if *s == t => {
                        remove(&mut hands[t], cards)?;
                        kitty.extend_from_slice(cards);
                    }
                    // Taken unseen: any of the taker's cards stand for its
                    // share, but a marked copy (it was dealt those).
                    _ => {
                        let first = adjust.as_ref().map(|a| a.kitty_first(t, &hands[t]));
                        let first = first.unwrap_or_default();
                        remove(&mut hands[t], &first)?;
                        kitty.extend_from_slice(&first);
                        let mut got = first.len();
                        for at in (0..hands[t].len()).rev() {
                            let card = hands[t][at];
                            if got < share && Some(card) != marked && !keeps(card) {
                                kitty.push(hands[t].remove(at));
                                got += 1;
                            }
                        }
                        if got < share {
                            return Err("the landlord's hand".into());
                        }
                    }
                }
            }
        }
    }
    if let Some((seat, card)) = view.dead {
        hands[seat].push(card);
    }
    let set_aside = draw(rules.set_aside as usize)?;
    let first = match rules.flow {
        Flow::ThreeCopies | Flow::CalledFriend | Flow::TwoMarks => view
            .marked_holder
            .ok_or("the observation has no 'marked_holder'")?,
        Flow::OneLandlord | Flow::HiddenPartner => {
            view.history.first().map_or(view.to_act, |(s, _)| *s)
        }
    };
    let mut given = Deal {
        hands,
        kitty,
        set_aside,
        first,
        ..Deal::default()
    };
    let two_marks = rules.flow == Flow::TwoMarks;
    if let Some(m) = marked {
        // The two-marks family writes its marks with their holders.
        let held_by = |text: &mut String, card: Card, seat: usize| {
            push_card(text, card);
            if two_marks {
                text.push_str(&format!("@{seat}"));
            }
        };
        given.set_text("marked", |text| held_by(text, m, first));
        if two_marks {
            let (card, seat) = secret_mark(&given.hands, (m, first), guess.secret, &mut rng)?;
            given.set_text("secret", |text| held_by(text, card, seat));
        }
    }
    given.sort_hands();
    let mut table = Table::new(engine, Rng(seed ^ 1), vec![given]).map_err(|e| e.0)?;
    let mut named = named.into_iter();
    // An action the seat did not see: one of `guess.unseen` legal there.
    let mut pick = Rng(seed ^ 0x0b5e);
    let mut unseen = |table: &mut Table| {
        let legal = table.legal();
        let fits: Vec<Action> = (guess.unseen.iter())
            .filter(|a| legal.contains(a))
            .copied()
            .collect();
        (!fits.is_empty()).then(|| fits[pick.below(fits.len())])
    };
    for (s, text) in &view.history {
        // The legal action spelled so (a laizi play as `cards=represents`).
        let found = |table: &mut Table| {
            let here = !table.is_over() && table.to_act() == *s;
            here.then(|| table.legal().iter().find(|a| a.to_string() == *text))
                .flatten()
        };
        while found(&mut table).is_none() {
            let Some(action) = unseen(&mut table).filter(|_| !table.is_over()) else {
                break;
            };
            table.apply_named(action, &[]).map_err(|e| e.0)?;
        }
        if table.is_over() || table.to_act() != *s {
            return Err(format!("history: seat {s} cannot act at '{text}'"));
        }
        let action =
            found(&mut table).ok_or(format!("history: '{text}' is not legal for seat {s}"))?;
        let cards = match action {
            crate::table::Action::Play(_) => named.next().unwrap_or_default(),
            _ => Vec::new(),
        };
        table.apply_named(action, &cards).map_err(|e| e.0)?;
    }
    while table.to_act() != view.to_act && !table.is_over() {
        let Some(action) = unseen(&mut table) else {
            break;
        };
        table.apply_named(action, &[]).map_err(|e| e.0)?;
    }
    let sizes: Vec<usize> = table.core().hands().iter().map(|h| h.len()).collect();
    if sizes != view.hand_sizes || table.to_act() != view.to_act {
        return Err("the replayed history does not reach the observed moment".into());
    }
    if rules.flow == Flow::HiddenPartner {
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
