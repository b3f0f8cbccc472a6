//! `five-player-3deck`: the deal must fit what the seat saw of it. The
//! marked card is its holder's; each grab shown is its grabber's (and the
//! first it could make); the main landlord held the called card twice (a
//! friend call) or three times (a hidden solo), and no lower card just as
//! often; a friend call's third copy is the deputy's. The seat does not see
//! a friend call or a hidden solo in its history, nor, mostly, who the
//! deputy is: each try guesses them, pins the cards it knows of to their
//! seats, deals the rest at random, moves the main landlord's lower pairs
//! away, and is kept if the replay shows the seat its observation.

use super::pins::{pin, Pin, Pins};
use super::{build, shows_the_same, Adjust, Guess, View};
use crate::engine::Engine;
use crate::table::physical::parse_identities;
use crate::table::{grab_order, Action, Card, Rng, Table};
use serde_json::Value;
use std::sync::Arc;

/// Tries before the rebuild gives up (most fail on a grab: a random hand
/// may hold a stronger grab than the one its seat showed first).
const MOST_TRIED: u64 = 200;

fn one_card(v: &Value, key: &str) -> Result<Option<Card>, String> {
    let Some(text) = v.get(key).and_then(Value::as_str) else {
        return Ok(None);
    };
    let named = parse_identities(text)?;
    let one = named.first().ok_or(format!("'{key}' names no card"))?;
    Ok(Some(Card {
        slot: one.slot,
        suit: one.suit.unwrap_or(0),
    }))
}

pub(super) fn rebuild(engine: Arc<Engine>, view: &View, seed: u64) -> Result<Table, String> {
    let raw = &view.raw;
    let n = view.hand_sizes.len();
    let marked = view.marked.ok_or("the observation has no 'marked' card")?;
    let holder = view
        .marked_holder
        .ok_or("the observation has no 'marked_holder'")?;
    // Each grab shown: (seat, its cards).
    let mut grabs: Vec<(usize, Vec<Card>)> = Vec::new();
    for (seat, text) in super::seat_pairs(raw, "grabs")? {
        if seat >= n {
            return Err(format!("grabs: no seat {seat}"));
        }
        grabs.push((seat, super::cards_of(&text)?));
    }
    let main = view.landlord;
    let called = one_card(raw, "called")?;
    let deputy = raw
        .get("deputy")
        .and_then(Value::as_u64)
        .map(|s| s as usize);
    let solo = raw.get("solo").and_then(Value::as_bool);
    if main.is_some_and(|s| s >= n) || deputy.is_some_and(|s| s >= n) {
        return Err("the observation names a landlord that is no seat".into());
    }
    let mut last = String::from("no deal fits the observation");
    for attempt in 0..MOST_TRIED {
        let mut rng = Rng(seed ^ attempt.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        // A friend call or a hidden solo, where the seat cannot tell.
        let friend = match (called, solo) {
            (None, _) => None,
            (Some(_), Some(solo)) => Some(!solo),
            (Some(_), None) => Some(attempt % 3 != 2),
        };
        let mut pins = vec![Pin {
            seat: holder,
            card: marked,
            played: None,
        }];
        if let (Some(called), Some(main), Some(friend)) = (called, main, friend) {
            let revealed = view.revealed;
            if friend {
                pin(&mut pins, main, called, &[None, None]);
                // The third copy: the deputy's, played once it is known to
                // all, else still in its hand.
                // A seat but the main landlord known to hold a copy (the
                // marked card's holder) is the deputy.
                let holds = pins.iter().find(|p| p.seat != main && p.card == called);
                let deputy = match deputy.or(holds.map(|p| p.seat)) {
                    Some(d) => d,
                    None => {
                        let hidden: Vec<usize> = (0..n)
                            .filter(|&s| s != main && s != view.seat)
                            .filter(|&s| view.seen.iter().all(|(at, _)| *at != s))
                            .collect();
                        *hidden
                            .get(rng.below(hidden.len().max(1)))
                            .ok_or("no seat for the deputy")?
                    }
                };
                pin(
                    &mut pins,
                    deputy,
                    called,
                    &[(deputy != view.seat).then_some(revealed)],
                );
            } else {
                // A hidden solo shows at the first copy played.
                let played = match revealed {
                    true => [Some(true), None, None],
                    false => [Some(false); 3],
                };
                pin(&mut pins, main, called, &played);
            }
        }
        // The grabs: each seat showed the cards of its largest grab of an
        // identity.
        for (seat, cards) in &grabs {
            let card = cards[0];
            let have = pins.iter().filter(|p| p.seat == *seat && p.card == card);
            for _ in have.count()..cards.len() {
                pins.push(Pin {
                    seat: *seat,
                    card,
                    played: None,
                });
            }
        }
        let mut limits = Limits {
            most: grab_limits(&grabs, marked.slot),
            main: None,
            kitty: main.map(|m| (m, engine.rules().kitty as usize)),
            pins: pins.iter().map(|p| (p.seat, p.card)).collect(),
        };
        if let (Some(called), Some(main), Some(friend)) = (called, main, friend) {
            limits.main = Some((main, called, if friend { 2 } else { 3 }));
        }
        let unseen = match friend {
            Some(true) => [Action::CallFriend],
            _ => [Action::HiddenSolo],
        };
        let guess = Guess {
            pins: Some(Pins::new(pins, &view.hand_sizes, Some(Box::new(limits)))),
            unseen: if friend.is_some() { &unseen } else { &[] },
            ..Guess::default()
        };
        match build(engine.clone(), view, rng.0, guess) {
            Ok(mut table) => match shows_the_same(&mut table, view) {
                true => return Ok(table),
                false => last = "the rebuilt table shows the seat another observation".into(),
            },
            Err(e) => last = e,
        }
    }
    Err(format!("five-player-3deck: {last}"))
}

/// The most copies of each grabbing identity a seat that grabbed can have
/// been dealt: a seat grabs its units strongest first, so it held no pair
/// of an identity stronger than its last grab but those it grabbed, and of
/// those no more copies than it grabbed (a trio would have come next).
fn grab_limits(grabs: &[(usize, Vec<Card>)], rank: u8) -> Vec<(usize, Card, usize)> {
    let order = grab_order(rank);
    let place = |c: Card| order.iter().position(|&o| o == c);
    let mut most = Vec::new();
    let seats: Vec<usize> = grabs.iter().map(|(s, _)| *s).collect();
    for (i, &seat) in seats.iter().enumerate() {
        if seats[..i].contains(&seat) {
            continue;
        }
        let mine: Vec<(usize, usize)> = grabs
            .iter()
            .filter(|(s, _)| *s == seat)
            .filter_map(|(_, cards)| Some((place(*cards.first()?)?, cards.len())))
            .collect();
        let Some(&(last, _)) = mine.last() else {
            continue;
        };
        for (at, &card) in order.iter().enumerate().take(last) {
            let grabbed = mine.iter().filter(|(p, _)| *p == at).map(|(_, n)| *n).max();
            most.push((seat, card, grabbed.unwrap_or(1)));
        }
    }
    most
}

/// What a hand cannot have held, given what its seat did before the
/// play: more copies than the grabs allow (bar those the kitty brought
/// after), and for the main landlord a card below the called one held as
/// often as the called one (it would have been called instead). A copy
/// too many trades places with another seat's card: a hidden hand's, or a
/// played card of the same rank (plays show ranks, not suits).
struct Limits {
    /// (seat, card, most copies dealt).
    most: Vec<(usize, Card, usize)>,
    /// (main landlord, called card, copies it held).
    main: Option<(usize, Card, usize)>,
    /// (the kitty's taker, its size): copies beyond the grabs it may hold.
    kitty: Option<(usize, usize)>,
    /// Cards pinned to a seat: left with it.
    pins: Vec<(usize, Card)>,
}

/// Trades a deal may make before it is given up.
const MOST_TRADES: usize = 40;

/// Where a card lies: (seat, in its plays, index).
type Spot = (usize, bool, usize);

impl Limits {
    /// The copies `seat` held beyond the grabs' limits, by card.
    fn beyond(&self, seat: usize, held: impl Fn(Card) -> usize) -> Vec<(Card, usize)> {
        (self.most.iter())
            .filter(|&&(s, _, _)| s == seat)
            .filter_map(|&(_, c, most)| Some((c, held(c).checked_sub(most).filter(|&n| n > 0)?)))
            .collect()
    }

    /// The cards `seat` holds (or held, counting its plays) too many of.
    fn faults(&self, seat: usize, hand: &[Card], played: &[Card]) -> Vec<Card> {
        let held = |c: Card| hand.iter().chain(played).filter(|&&x| x == c).count();
        let beyond = self.beyond(seat, held);
        let room = match self.kitty {
            Some((taker, size)) if taker == seat => size,
            _ => 0,
        };
        let mut out: Vec<Card> = match beyond.iter().map(|(_, n)| n).sum::<usize>() > room {
            true => beyond.into_iter().map(|(c, _)| c).collect(),
            false => Vec::new(),
        };
        if let Some((main, called, copies)) = self.main {
            if main == seat {
                let mut lower: Vec<Card> = (hand.iter().chain(played).copied())
                    .filter(|&c| c < called)
                    .collect();
                lower.sort_unstable();
                lower.dedup();
                out.extend(lower.into_iter().filter(|&c| held(c) == copies));
            }
        }
        out
    }

    /// Whether `seat` may give up a copy of `c`: it holds more than those
    /// pinned to it.
    fn movable(&self, seat: usize, hand: &[Card], played: &[Card], c: Card) -> bool {
        let pinned = self.pins.iter().filter(|p| **p == (seat, c)).count();
        hand.iter().chain(played).filter(|&&x| x == c).count() > pinned
    }
}

impl Adjust for Limits {
    fn adjust(
        &self,
        hands: &mut [Vec<Card>],
        plays: &mut [Vec<Card>],
        known: &[bool],
        rng: &mut Rng,
    ) -> Result<(), String> {
        let n = hands.len();
        let faults = |hands: &[Vec<Card>], plays: &[Vec<Card>], s: usize| {
            self.faults(s, &hands[s], &plays[s]).len()
        };
        let at = |hands: &[Vec<Card>], plays: &[Vec<Card>], (s, played, i): Spot| match played {
            true => plays[s][i],
            false => hands[s][i],
        };
        let set = |hands: &mut [Vec<Card>], plays: &mut [Vec<Card>], (s, played, i): Spot, c| {
            match played {
                true => plays[s][i] = c,
                false => hands[s][i] = c,
            }
        };
        // Every spot a trade may touch: hidden hands, and every play.
        let spots: Vec<Spot> = (0..n)
            .flat_map(|s| {
                let hand = (!known[s])
                    .then_some(0..hands[s].len())
                    .into_iter()
                    .flatten();
                let hand = hand.map(move |i| (s, false, i));
                (0..plays[s].len()).map(move |i| (s, true, i)).chain(hand)
            })
            .collect();
        for _ in 0..MOST_TRADES {
            let fault = (0..n).find_map(|s| {
                let first = self.faults(s, &hands[s], &plays[s]).first().copied();
                first.map(|c| (s, c))
            });
            let Some((s, c)) = fault else {
                return Ok(());
            };
            if !self.movable(s, &hands[s], &plays[s], c) {
                return Err(format!("seat {s}'s {c} cannot move"));
            }
            // Trades of a copy of `c` that leave the two seats with fewer
            // faults between them.
            let mut options: Vec<(Spot, Spot)> = Vec::new();
            let mine: Vec<Spot> = (spots.iter().copied())
                .filter(|&spot| spot.0 == s && at(hands, plays, spot) == c)
                .collect();
            for from in mine {
                for &to in &spots {
                    let (o, d) = (to.0, at(hands, plays, to));
                    let same_rank = d.slot == c.slot;
                    if o == s || d == c || ((from.1 || to.1) && !same_rank) {
                        continue;
                    }
                    if !self.movable(o, &hands[o], &plays[o], d) {
                        continue;
                    }
                    let before = faults(hands, plays, s) + faults(hands, plays, o);
                    set(hands, plays, from, d);
                    set(hands, plays, to, c);
                    if faults(hands, plays, s) + faults(hands, plays, o) < before {
                        options.push((from, to));
                    }
                    set(hands, plays, from, c);
                    set(hands, plays, to, d);
                }
            }
            if options.is_empty() {
                return Err(format!("no seat can take seat {s}'s {c}"));
            }
            let (from, to) = options[rng.below(options.len())];
            let d = at(hands, plays, to);
            set(hands, plays, from, d);
            set(hands, plays, to, c);
        }
        Err("the hands break the grabs' limits".into())
    }

    fn kitty_first(&self, seat: usize, cards: &[Card]) -> Vec<Card> {
        let held = |c: Card| cards.iter().filter(|&&x| x == c).count();
        let beyond = self.beyond(seat, held);
        let copies = beyond
            .into_iter()
            .flat_map(|(c, k)| std::iter::repeat_n(c, k));
        copies
            .take(self.kitty.map_or(0, |(_, size)| size))
            .collect()
    }
}
