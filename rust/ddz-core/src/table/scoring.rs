//! Scoring: a stake built from named events, and settling it between sides.

use super::tricks::Tricks;
use crate::rules::Rules;
use serde_json::{json, Map, Value};

/// How an event changes the stake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Multiplies the stake (`["bomb", 2]`).
    Times(i64),
    /// Adds to a count that starts at 1 (`["double", "+1"]`: the presets
    /// that count up).
    Plus(i64),
}

/// One event of a deal that changes the stake: a bid, a bomb, a kick...
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub name: &'static str,
    pub effect: Effect,
}

impl Event {
    pub fn times(name: &'static str, factor: i64) -> Event {
        Event {
            name,
            effect: Effect::Times(factor),
        }
    }

    pub fn plus(name: &'static str, count: i64) -> Event {
        Event {
            name,
            effect: Effect::Plus(count),
        }
    }

    /// `[name, effect]` as records and observations write it.
    pub fn to_json(&self) -> Value {
        match self.effect {
            Effect::Times(k) => json!([self.name, k]),
            Effect::Plus(k) => json!([self.name, format!("+{k}")]),
        }
    }
}

/// The multiplier `events` build: factors multiply; counts add to 1.
pub fn stake(events: &[Event]) -> i64 {
    let (mut factor, mut count) = (1i64, 1i64);
    for e in events {
        match e.effect {
            Effect::Times(k) => factor = factor.saturating_mul(k),
            Effect::Plus(k) => count += k,
        }
    }
    factor.saturating_mul(count)
}

/// Spring (the losing side played no card) and, with `anti_spring`,
/// anti-spring (the landlords lost having made only the first lead).
pub fn spring_events(
    rules: &Rules,
    tricks: &Tricks,
    landlords: &[usize],
    landlords_won: bool,
) -> Vec<Event> {
    let plays = &tricks.plays_by_seat;
    let mut out = Vec::new();
    if rules.spring {
        let silent = (0..plays.len())
            .filter(|s| landlords.contains(s) != landlords_won)
            .all(|s| plays[s] == 0);
        if silent {
            out.push(Event::times("spring", 2));
        }
    }
    if rules.anti_spring && !landlords_won && landlords.iter().map(|&s| plays[s]).sum::<u32>() == 1
    {
        out.push(Event::times("anti-spring", 2));
    }
    out
}

/// How a deal ended: who won, each seat's score (summing to zero), the
/// multiplier and the events that built it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settlement {
    pub winners: Vec<usize>,
    pub scores: Vec<i64>,
    pub multiplier: i64,
    pub events: Vec<Event>,
    /// What a family adds to the result (`auto_win`: why a hand won
    /// without play).
    pub extra: Map<String, Value>,
}

impl Settlement {
    /// One landlord against every other seat: the landlord wins or loses
    /// the stake from each.
    pub fn one_landlord(players: usize, landlord: usize, won: bool, events: Vec<Event>) -> Self {
        let w = stake(&events);
        let sign = if won { 1 } else { -1 };
        let mut scores = vec![-sign * w; players];
        scores[landlord] = sign * w * (players as i64 - 1);
        let winners = if won {
            vec![landlord]
        } else {
            (0..players).filter(|&s| s != landlord).collect()
        };
        Settlement {
            winners,
            scores,
            multiplier: w,
            events,
            extra: Map::new(),
        }
    }

    /// A leader, with or without a partner, against every other seat
    /// (the five-player presets): each of the others wins or loses the
    /// stake; with a partner the leader settles two of them and the
    /// partner one, alone the leader settles them all.
    pub fn leader_and_partner(
        players: usize,
        leader: usize,
        partner: Option<usize>,
        won: bool,
        events: Vec<Event>,
    ) -> Self {
        let Some(partner) = partner else {
            return Settlement::one_landlord(players, leader, won, events);
        };
        let w = stake(&events);
        let sign = if won { 1 } else { -1 };
        let mut scores = vec![-sign * w; players];
        scores[leader] = sign * w * 2;
        scores[partner] = sign * w;
        let side = |s: &usize| (*s == leader || *s == partner) == won;
        Settlement {
            winners: (0..players).filter(side).collect(),
            scores,
            multiplier: w,
            events,
            extra: Map::new(),
        }
    }

    pub fn to_json(&self) -> Value {
        let mut out = json!({
            "winners": self.winners,
            "scores": self.scores,
            "multiplier": self.multiplier,
            "events": self.events.iter().map(Event::to_json).collect::<Vec<_>>(),
        });
        if let Value::Object(fields) = &mut out {
            fields.extend(self.extra.clone());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_multiply_and_counts_add() {
        let events = [
            Event::times("bid", 3),
            Event::times("bomb", 2),
            Event::plus("double", 1),
            Event::plus("bomb", 3),
        ];
        assert_eq!(stake(&events), 6 * 5);
        assert_eq!(stake(&[]), 1);
    }

    #[test]
    fn spring_counts_the_losing_side() {
        let r = Rules::preset("five-player").unwrap();
        let mut t = Tricks::new(5);
        t.plays_by_seat = vec![3, 0, 1, 0, 0];
        assert_eq!(spring_events(&r, &t, &[0, 2], true).len(), 1);
        t.plays_by_seat = vec![3, 1, 1, 0, 0];
        assert!(spring_events(&r, &t, &[0, 2], true).is_empty());
    }

    #[test]
    fn one_landlord_settles_with_each_farmer() {
        let s = Settlement::one_landlord(3, 1, false, vec![Event::times("bid", 2)]);
        assert_eq!(s.scores, vec![2, -4, 2]);
        assert_eq!(s.winners, vec![0, 2]);
    }
}
