//! Inference from the other seats' turns. A sample in which a seat passed
//! an opponent's play while holding an ordinary answer to it is unlikely,
//! since players (the built-in ones, and most people) beat an opponent
//! when they can without a bomb. Such samples are kept only with probability
//! `PASS_LIKELIHOOD` per pass they contradict (`sample.rs` draws again).
//!
//! Only passes against a public opponent count: in a family whose sides
//! are secret from the searching seat nothing is inferred, and a pass on a
//! partner's play says nothing.
//!
//! Leads weigh the same way (a lead usually holds the leader's lowest
//! card), and so does a turn on a few cards that did not empty a hand
//! able to go out in one play: everyone goes out when they can.
//!
//! The same turns also tell how a seat follows: `Evidence::follows_eagerly`
//! says whether a sample's hand makes every answer a seat gave an opponent
//! its smallest of the same kind, which the search then models (mod.rs).

use crate::cards::Cards;
use crate::engine::Engine;
use crate::play::Move;
use crate::table::{deal, Action, Card, Table};

/// The chance a player passes an opponent's play it could beat without a
/// bomb: the weight of a sample for each such pass it implies.
pub const PASS_LIKELIHOOD: f64 = 0.1;

/// One turn a hidden seat took facing an opponent's play.
#[derive(Clone, Debug)]
struct Follow {
    seat: usize,
    facing: Move,
    /// Its play (None: it passed).
    answer: Option<Move>,
    /// The cards the seat has played since, this turn's included: its
    /// hand at the turn is its hand now plus these.
    played_since: Cards,
}

/// A seat is read as an eager follower once it has followed opponents at
/// least this often, each time as one would (docs/bots.md).
const EAGER_FOLLOWS: usize = 2;

/// One lead a hidden seat made: leads usually hold the leader's lowest
/// card (the built-in players always do so).
#[derive(Clone, Debug)]
struct Lead {
    seat: usize,
    /// The lowest rank slot in the lead.
    lowest: usize,
    /// The cards the seat has played from the lead on (the lead included).
    played_since: Cards,
}

/// The chance a lead leaves out a lower card the leader held.
pub const LEAD_LIKELIHOOD: f64 = 0.3;

/// One turn (a play or a pass) of a hidden seat on at most `STAY_CARDS`
/// cards that did not empty its hand.
#[derive(Clone, Debug)]
struct Stay {
    seat: usize,
    /// The play it faced (None: it led).
    facing: Option<Move>,
    /// The cards the seat has played from that turn on.
    played_since: Cards,
}

/// Turns on at most this many cards are read for a missed way out (a
/// bigger hand is rarely one play, and each check costs a generation).
const STAY_CARDS: usize = 8;

/// The chance a seat able to empty its hand in one play does not.
pub const STAY_LIKELIHOOD: f64 = 0.05;

/// What the history says about the hidden hands.
#[derive(Clone, Debug, Default)]
pub struct Evidence {
    follows: Vec<Follow>,
    leads: Vec<Lead>,
    stays: Vec<Stay>,
}

impl Evidence {
    /// The turns of the seats in `hidden` that weigh or tell their habits,
    /// read from `table`'s history of this deal. `opponents(a, b)` tells
    /// whether seats a and b are on opposite sides as every seat knows it
    /// (None: the sides are not public, and nothing is inferred).
    pub fn read(
        table: &Table,
        hidden: &[usize],
        opponents: Option<&dyn Fn(usize, usize) -> bool>,
    ) -> Evidence {
        let Some(opponents) = opponents else {
            return Evidence::default();
        };
        let t = table.core();
        let players = t.players();
        let history = t.history();
        let Some(start) = history
            .iter()
            .position(|(_, a)| matches!(a, Action::Play(_)))
        else {
            return Evidence::default();
        };
        // Each seat's plays from each point on: the total less those so far.
        let mut total = vec![Cards::default(); players];
        for (s, a) in &history[start..] {
            if let Action::Play(m) = a {
                total[*s] = total[*s] + m.cards;
            }
        }
        let mut so_far = vec![Cards::default(); players];
        let (mut last, mut passes): (Option<(usize, Move)>, usize) = (None, 0);
        let mut follows = Vec::new();
        let mut leads = Vec::new();
        let mut stays = Vec::new();
        for (s, a) in &history[start..] {
            // What the seat played from this turn on, this one included.
            let played_since = total[*s] - so_far[*s];
            let hidden_seat = hidden.contains(s);
            if hidden_seat && matches!(a, Action::Play(_) | Action::Pass) {
                let held = t.hands()[*s].len() + played_since.len();
                let went_out = matches!(a, Action::Play(m) if m.cards.len() == held);
                if held <= STAY_CARDS && !went_out {
                    stays.push(Stay {
                        seat: *s,
                        facing: last.map(|(_, m)| m),
                        played_since,
                    });
                }
            }
            if let (Some((by, facing)), Action::Play(_) | Action::Pass) = (last, a) {
                if hidden_seat && opponents(*s, by) {
                    follows.push(Follow {
                        seat: *s,
                        facing,
                        answer: match a {
                            Action::Play(m) => Some(*m),
                            _ => None,
                        },
                        played_since,
                    });
                }
            }
            match a {
                Action::Play(m) => {
                    if last.is_none() && hidden_seat {
                        let lowest = (0..crate::cards::SLOTS).find(|&r| m.cards.get(r) > 0);
                        leads.push(Lead {
                            seat: *s,
                            lowest: lowest.unwrap_or(0),
                            played_since,
                        });
                    }
                    so_far[*s] = so_far[*s] + m.cards;
                    last = Some((*s, *m));
                    passes = 0;
                }
                Action::Pass => {
                    passes += 1;
                    if passes == players - 1 {
                        last = None;
                        passes = 0;
                    }
                }
                _ => {}
            }
        }
        Evidence {
            follows,
            leads,
            stays,
        }
    }

    /// The passes among the follows: the turns inference weighs.
    fn passes(&self) -> impl Iterator<Item = &Follow> {
        self.follows.iter().filter(|f| f.answer.is_none())
    }

    /// Is there anything to weigh?
    pub fn is_empty(&self) -> bool {
        self.passes().next().is_none() && self.leads.is_empty() && self.stays.is_empty()
    }

    /// Did `seat`, holding `now` in a sample, follow opponents at least
    /// `EAGER_FOLLOWS` times and answer each with its smallest play of the
    /// same kind and length where it held one (passing or bombing only
    /// where it held none)?
    pub fn follows_eagerly(&self, engine: &Engine, seat: usize, now: Cards) -> bool {
        let follows = || self.follows.iter().filter(move |f| f.seat == seat);
        // (The count is the same in every sample: check it before any hand.)
        follows().count() >= EAGER_FOLLOWS
            && follows().all(|f| {
                let hand = now + f.played_since;
                let smaller = |m: &Move| match f.answer {
                    Some(a) if a.same_shape(&f.facing) => m.same_shape(&a) && m.rank < a.rank,
                    _ => m.same_shape(&f.facing),
                };
                !engine.can_answer_with(&hand, Some(&f.facing), smaller)
            })
    }

    /// The likelihood of the history given the hidden hands `hands`, up
    /// to a constant: the product of each contradicted turn's.
    pub fn likelihood(&self, engine: &Engine, hands: &[(usize, Vec<Card>)]) -> f64 {
        let c = self.contradictions(engine, hands);
        PASS_LIKELIHOOD.powi(c.passes as i32)
            * LEAD_LIKELIHOOD.powi(c.leads as i32)
            * STAY_LIKELIHOOD.powi(c.stays as i32)
    }

    /// How many recorded turns the hidden hands `hands` (seat, cards)
    /// contradict, of each sort.
    pub fn contradictions(&self, engine: &Engine, hands: &[(usize, Vec<Card>)]) -> Contradictions {
        // The seat's hand at a turn: its hand now and what it played since.
        let then = |seat: usize, since: Cards| {
            let (_, cards) = hands.iter().find(|(s, _)| *s == seat)?;
            Some(deal::count(cards) + since)
        };
        let mut c = Contradictions::default();
        for p in self.passes() {
            if let Some(hand) = then(p.seat, p.played_since) {
                let ordinary = |m: &Move| !m.kind.is_bomb();
                c.passes += u32::from(engine.can_answer_with(&hand, Some(&p.facing), ordinary));
            }
        }
        for l in &self.leads {
            if let Some(hand) = then(l.seat, l.played_since) {
                c.leads += u32::from((0..l.lowest).any(|r| hand.get(r) > 0));
            }
        }
        for st in &self.stays {
            if let Some(hand) = then(st.seat, st.played_since) {
                let emptying = |m: &Move| m.cards.len() == hand.len();
                c.stays += u32::from(engine.can_answer_with(&hand, st.facing.as_ref(), emptying));
            }
        }
        c
    }
}

/// The turns a deal of the hidden hands contradicts: passes holding an
/// ordinary answer, leads without the lowest card, turns that could have
/// emptied the hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Contradictions {
    pub passes: u32,
    pub leads: u32,
    pub stays: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Policy;
    use crate::rules::Rules;
    use crate::table::{Phase, Rng};
    use std::sync::Arc;

    /// What the real table shows at `seat`'s turn about `action`: a pass
    /// facing an opponent while holding an ordinary answer, a lead without
    /// the lowest card, a turn on few cards that did not go out though a
    /// legal play would have.
    fn oracle(t: &Table, action: Action, landlord: usize) -> Contradictions {
        let core = t.core();
        let seat = core.to_act();
        let hand = core.hands()[seat].counts;
        let plays = t.legal_unordered().plays;
        let tricks = core.tricks();
        let opposed = |a: usize, b: usize| (a == landlord) != (b == landlord);
        let mut c = Contradictions::default();
        match (action, tricks.last, tricks.last_seat) {
            (Action::Pass, Some(_), Some(by)) if opposed(seat, by) => {
                c.passes = u32::from(plays.iter().any(|m| !m.kind.is_bomb()));
            }
            (Action::Play(m), None, _) => {
                let lowest = (0..crate::cards::SLOTS).find(|&r| hand.get(r) > 0).unwrap();
                c.leads = u32::from(m.cards.get(lowest) == 0);
            }
            _ => {}
        }
        let went_out = matches!(action, Action::Play(m) if m.cards == hand);
        let could = plays.iter().any(|m| m.cards == hand);
        c.stays = u32::from(hand.len() <= STAY_CARDS && could && !went_out);
        c
    }

    fn add(a: &mut Contradictions, b: Contradictions) {
        a.passes += b.passes;
        a.leads += b.leads;
        a.stays += b.stays;
    }

    #[test]
    fn the_evidence_finds_in_the_true_hands_what_each_turn_showed() {
        // Random players skip ways out, pass answers and lead high. At every
        // moment of play, the evidence read from the history, weighed on
        // the true hands, counts for each viewer exactly the turns of the
        // other seats that the real tables showed as contradictions: in
        // every one-landlord preset (two decks, two seats, wild cards).
        for (preset, deals) in [
            ("classic", 200),
            ("two-player", 100),
            ("four-player", 60),
            ("laizi", 100),
        ] {
            let seen = evidence_against_the_tables(preset, deals);
            // Each sort of turn came up often enough to be tested.
            assert!(
                seen.passes > 50 && seen.leads > 50 && seen.stays > 10,
                "{preset}: {seen:?}"
            );
        }
    }

    /// Plays `deals` deals of `preset` at random, checking the evidence at
    /// every moment of play; the contradictions the tables showed in all.
    fn evidence_against_the_tables(preset: &str, deals: u64) -> Contradictions {
        let e = Arc::new(Engine::new(Rules::preset(preset).unwrap()).unwrap());
        let mut seen = Contradictions::default();
        for index in 0..deals {
            let mut t = Table::seeded(e.clone(), 11, index).unwrap();
            let players = t.core().players();
            let mut rng = Rng::for_game(5, index);
            let mut shown = vec![Contradictions::default(); players];
            while !t.is_over() {
                let i = Policy::Random.choose(&mut t, &mut rng);
                if t.phase() != Phase::Play {
                    t.apply_unordered(i);
                    continue;
                }
                let landlord = t.report().landlord();
                for viewer in 0..players {
                    let hidden: Vec<usize> = (0..players).filter(|&s| s != viewer).collect();
                    let opposed = |a: usize, b: usize| (a == landlord) != (b == landlord);
                    let evidence = Evidence::read(&t, &hidden, Some(&opposed));
                    let hands: Vec<(usize, Vec<Card>)> = hidden
                        .iter()
                        .map(|&s| (s, t.core().hands()[s].cards()))
                        .collect();
                    let mut want = Contradictions::default();
                    for &s in &hidden {
                        add(&mut want, shown[s]);
                    }
                    let got = evidence.contradictions(&e, &hands);
                    assert_eq!(got, want, "{preset}, deal {index}");
                }
                let seat = t.to_act();
                let action = t.legal_unordered().get(i).unwrap();
                let c = oracle(&t, action, landlord);
                add(&mut shown[seat], c);
                add(&mut seen, c);
                t.apply_unordered(i);
            }
        }
        seen
    }

    /// The smallest rank among `plays` of the shape of `facing` (None:
    /// there is none).
    fn smallest_same(plays: &[Move], facing: &Move) -> Option<u8> {
        plays
            .iter()
            .filter(|m| m.same_shape(facing))
            .map(|m| m.rank)
            .min()
    }

    #[test]
    fn an_eager_follower_is_told_from_the_true_turns() {
        // The landlord follows the farmers mostly with its smallest play of
        // the same kind, now and then at random. At every moment of play,
        // each farmer's evidence read on the landlord's true hand calls it
        // eager exactly when it has followed at least twice and every time
        // so, as the real tables showed.
        let e = Arc::new(Engine::new(Rules::preset("classic").unwrap()).unwrap());
        let (mut eager, mut not) = (0, 0);
        for index in 0..200 {
            let mut t = Table::seeded(e.clone(), 13, index).unwrap();
            let mut rng = Rng::for_game(3, index);
            let (mut follows, mut all_eager) = (0, true);
            while !t.is_over() {
                let mut i = Policy::Greedy.choose(&mut t, &mut rng);
                if t.phase() != Phase::Play {
                    t.apply_unordered(i);
                    continue;
                }
                let landlord = t.report().landlord();
                let opposed = |a: usize, b: usize| (a == landlord) != (b == landlord);
                for farmer in (0..3).filter(|&s| s != landlord) {
                    let hidden: Vec<usize> = (0..3).filter(|&s| s != farmer).collect();
                    let evidence = Evidence::read(&t, &hidden, Some(&opposed));
                    let hand = t.core().hands()[landlord].counts;
                    let called = evidence.follows_eagerly(&e, landlord, hand);
                    assert_eq!(called, all_eager && follows >= 2, "deal {index}");
                    if farmer == t.core().next(landlord) {
                        *(if called { &mut eager } else { &mut not }) += 1;
                    }
                }
                let core = t.core();
                if let (true, Some(last)) = (core.to_act() == landlord, core.tricks().last) {
                    if rng.below(5) == 0 {
                        i = Policy::Random.choose(&mut t, &mut rng);
                    }
                    follows += 1;
                    let low = smallest_same(t.legal_unordered().plays, &last);
                    all_eager &= match (low, t.legal_unordered().get(i)) {
                        (None, _) => true,
                        (Some(r), Some(Action::Play(m))) => m.same_shape(&last) && m.rank == r,
                        _ => false,
                    };
                }
                t.apply_unordered(i);
            }
        }
        assert!(eager > 200 && not > 200, "{eager} eager, {not} not");
    }
}
