//! The playout policy: how every seat plays a sample out to the end. Fast
//! (a few hint keys a turn) and better than greedy (docs/bots.md has the
//! measurements):
//! - a play that empties the hand is always taken;
//! - a seat does not beat its partner's play (one-landlord deals, where
//!   the sides are public), unless the `Style` says partners take over:
//!   then it beats it with its smallest play of the same kind;
//! - a lead sheds the lowest rank in the largest group it can (a straight
//!   from it, a trio with a kicker) rather than alone;
//! - a bomb is kept unless the seat it would beat is close to going out,
//!   or it leaves few cards;
//! - against a seat down to one card, a lead avoids a single where it can.
//!
//! Pre-play decisions are the greedy player's (`Policy::Greedy`).

use crate::cards::Cards;
use crate::engine::Engine;
use crate::play::{Kind, Move};
use crate::policy::greedy_word;
use crate::solve::fewest::Fewest;
use crate::table::{Phase, Table};
use std::cell::RefCell;

/// Hands of at most this many cards are planned (the fewest plays that
/// empty them, `solve::fewest`); larger ones play by the plain rules.
const PLAN_CARDS: usize = 20;
/// The memo of planned hands a thread keeps (bytes).
const PLAN_MEMORY: usize = 8 << 20;

thread_local! {
    /// The fewest-plays memo of the engine last planned on this thread,
    /// by `Engine::id`.
    static PLANS: RefCell<Option<(u64, Fewest)>> = const { RefCell::new(None) };
}

/// Kinds the plan leaves out: plays with kickers (wings). Planning with
/// them costs ten times as much on a 20-card hand; without them a play
/// that takes a kicker along simply leaves one play fewer.
const UNPLANNED: u32 = (1 << Kind::TrioSingle as u32)
    | (1 << Kind::TrioPair as u32)
    | (1 << Kind::PlaneSingles as u32)
    | (1 << Kind::PlanePairs as u32)
    | (1 << Kind::FourTwoSingles as u32)
    | (1 << Kind::FourTwoPairs as u32);

/// The fewest plays without kickers that empty `hand` under `e`'s rules.
fn fewest(e: &Engine, hand: Cards) -> u8 {
    PLANS.with_borrow_mut(|slot| {
        let id = e.id();
        let memo = match slot {
            Some((at, m)) if *at == id => m,
            _ => &mut slot.insert((id, Fewest::new(PLAN_MEMORY))).1,
        };
        memo.of(e, UNPLANNED, hand)
    })
}

/// A bomb is spent against a seat holding at most this many cards, or when
/// at most this many cards are left after it.
const BOMB_WHEN: usize = 4;

/// The sides as a playout reads them: a sample's roles are all drawn, so
/// its playouts play with the sides known (read once play begins).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sides {
    /// Each seat's side, once read.
    of: Option<[Option<u8>; 8]>,
}

impl Sides {
    fn refresh(&mut self, table: &Table) {
        if self.of.is_none() && table.phase() == Phase::Play {
            let t = table.core();
            let mut of = [None; 8];
            for (s, side) in of.iter_mut().enumerate().take(t.players()) {
                *side = table.family().side_of(t, s);
            }
            self.of = Some(of);
        }
    }

    fn partners(&self, a: usize, b: usize) -> bool {
        self.of
            .is_some_and(|of| a != b && of[a].is_some() && of[a] == of[b])
    }
}

/// How the playouts play the seats, where the searching seat chooses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// A seat facing its partner's play beats it with its smallest play
    /// of the same kind, where it has one (else it passes). The lone
    /// landlord's search plays its farmers so: farmers who cannot see each
    /// other's hands take over from each other, and modelling that won
    /// the landlord two to five points of WP against every opponent
    /// measured (docs/bots.md).
    pub partners_take_over: bool,
    /// This seat, facing an opponent's play, beats it with its smallest
    /// play of the same kind where it has one (else plays as usual). A
    /// farmer's search plays the landlord so in the samples where the
    /// landlord has followed that way all deal: half a point to a point of
    /// WP against the rule agent in paired duels, none measurably lost
    /// against a stronger landlord (docs/bots.md).
    pub eager: Option<usize>,
}

/// The playout policy's pick among `table.legal_unordered()`.
pub fn choose(table: &Table, sides: &mut Sides, style: Style) -> usize {
    let legal = table.legal_unordered();
    if table.phase() != Phase::Play {
        return legal.plays.len() + greedy_word(legal.words);
    }
    sides.refresh(table);
    let t = table.core();
    let e = table.engine();
    let seat = t.to_act();
    let held = t.hands()[seat].len();
    let plays = legal.plays;
    let pass = plays.len();
    if let Some(i) = plays.iter().position(|m| m.cards.len() == held) {
        return i;
    }
    let tricks = t.tricks();
    match (tricks.last, tricks.last_seat) {
        (Some(last), Some(by)) => {
            let smallest_same = || smallest(e, plays, |m| m.same_shape(&last));
            if sides.partners(by, seat) {
                return match style.partners_take_over {
                    true => smallest_same().unwrap_or(pass),
                    false => pass,
                };
            }
            if style.eager == Some(seat) {
                if let Some(i) = smallest_same() {
                    return i;
                }
            }
            let close = t.hands()[by].len() <= BOMB_WHEN;
            if held <= PLAN_CARDS {
                let hand = t.hands()[seat].counts;
                let now = i32::from(fewest(e, hand));
                let best = plays
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| !m.kind.is_bomb())
                    .map(|(i, m)| (i32::from(fewest(e, hand - m.cards)) - now, e.hint_key(m), i))
                    .min();
                if let Some((cost, _, i)) = best {
                    if cost <= 0 || close {
                        return i;
                    }
                }
            } else if let Some(i) = smallest(e, plays, |m| !m.kind.is_bomb()) {
                return i;
            }
            match smallest(e, plays, |m| m.kind.is_bomb()) {
                Some(i) if close || held - plays[i].cards.len() <= BOMB_WHEN => i,
                _ => pass,
            }
        }
        _ => lead(table, sides, plays),
    }
}

/// A lead: the largest non-bomb group holding the lowest rank in hand
/// (ties: the smallest by hint order); against a next opponent down to
/// one card, not a single if anything else will do.
fn lead(table: &Table, sides: &Sides, plays: &[Move]) -> usize {
    let t = table.core();
    let e = table.engine();
    let seat = t.to_act();
    let hand = &t.hands()[seat].counts;
    let next = t.next(seat);
    let danger = !sides.partners(seat, next) && t.hands()[next].len() == 1;
    let low = (0..crate::cards::SLOTS).find(|&s| hand.get(s) > 0);
    if t.hands()[seat].len() <= PLAN_CARDS {
        let opponent_short = (0..t.players())
            .any(|s| s != seat && !sides.partners(s, seat) && t.hands()[s].len() <= 2);
        if let Some(i) = planned_lead(table, sides, plays, opponent_short) {
            return i;
        }
    }
    let mut best: Option<usize> = None;
    for (i, m) in plays.iter().enumerate() {
        if m.kind.is_bomb() || (danger && m.cards.len() == 1) {
            continue;
        }
        if low.is_some_and(|s| m.cards.get(s) == 0) && !danger {
            continue;
        }
        best = match best {
            None => Some(i),
            Some(b) => {
                let (lm, lb) = (m.cards.len(), plays[b].cards.len());
                let better = lm > lb || (lm == lb && e.hint_key(m) < e.hint_key(&plays[b]));
                Some(if better { i } else { b })
            }
        };
    }
    best.or_else(|| {
        // Only singles (or bombs) lead: against one card, the highest single.
        let singles = |m: &Move| m.cards.len() == 1;
        match danger {
            true => largest(e, plays, singles),
            false => None,
        }
    })
    .or_else(|| smallest(e, plays, |_| true))
    .unwrap_or(0)
}

/// A planned lead: a play opponents cannot answer that leaves one play
/// to go out; else, among the non-bomb plays holding the lowest card (not
/// a single against a next opponent on one card), the one leaving the
/// fewest plays, then the most cards, then the smallest.
fn planned_lead(table: &Table, sides: &Sides, plays: &[Move], danger: bool) -> Option<usize> {
    let t = table.core();
    let e = table.engine();
    let seat = t.to_act();
    let hand = t.hands()[seat].counts;
    let low = (0..crate::cards::SLOTS).find(|&s| hand.get(s) > 0)?;
    if fewest(e, hand) == 2 {
        let unanswered = |m: &Move| {
            (0..t.players())
                .filter(|&s| s != seat && !sides.partners(s, seat))
                .all(|s| !e.can_answer(&t.hands()[s].counts, Some(m)))
        };
        let finishing = plays
            .iter()
            .position(|m| fewest(e, hand - m.cards) == 1 && unanswered(m));
        if finishing.is_some() {
            return finishing;
        }
    }
    // Feed a partner next in turn who is about to go out.
    let next = t.next(seat);
    if sides.partners(seat, next) && t.hands()[next].len() <= 2 {
        let size = t.hands()[next].len();
        if let Some(i) = smallest(e, plays, |m| !m.kind.is_bomb() && m.cards.len() == size) {
            return Some(i);
        }
    }
    // Against an opponent on one or two cards, no single or pair they
    // could answer with them.
    let short = |m: &Move| {
        danger
            && (0..t.players()).any(|s| {
                s != seat && !sides.partners(s, seat) && t.hands()[s].len() == m.cards.len()
            })
    };
    let best = |with_low: bool| {
        plays
            .iter()
            .enumerate()
            .filter(|(_, m)| !m.kind.is_bomb() && !short(m))
            .filter(|(_, m)| !with_low || m.cards.get(low) > 0)
            .map(|(i, m)| {
                let left = fewest(e, hand - m.cards);
                (left, std::cmp::Reverse(m.cards.len()), e.hint_key(m), i)
            })
            .min()
            .map(|(_, _, _, i)| i)
    };
    best(true).or_else(|| best(false))
}

/// The first play smallest by hint order among those `keep` accepts.
fn smallest(e: &Engine, plays: &[Move], keep: impl Fn(&Move) -> bool) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, m) in plays.iter().enumerate().filter(|(_, m)| keep(m)) {
        if best.is_none_or(|b| e.hint_key(m) < e.hint_key(&plays[b])) {
            best = Some(i);
        }
    }
    best
}

/// The last play largest by hint order among those `keep` accepts.
fn largest(e: &Engine, plays: &[Move], keep: impl Fn(&Move) -> bool) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, m) in plays.iter().enumerate().filter(|(_, m)| keep(m)) {
        if best.is_none_or(|b| e.hint_key(m) >= e.hint_key(&plays[b])) {
            best = Some(i);
        }
    }
    best
}

/// The most actions a playout takes before it is called a draw (a deal
/// ends long before; redeals after all-pass auctions could go on).
pub const MAX_STEPS: usize = 2000;

/// Play `table` on with the playout policy until, in the play phase, the
/// hands hold at most `cards` in all, or the deal ends (or `MAX_STEPS`).
pub fn play_until(table: &mut Table, cards: usize, style: Style) {
    let in_hands = |t: &Table| t.core().hands().iter().map(|h| h.len()).sum::<usize>();
    play_while(table, style, |t| {
        t.phase() != Phase::Play || in_hands(t) > cards
    });
}

/// Play `table` out with the playout policy; false if it did not end
/// within `MAX_STEPS` actions.
pub fn play_out(table: &mut Table, style: Style) -> bool {
    play_while(table, style, |_| true);
    table.is_over()
}

/// Play `table` on with the playout policy while `go_on` says so and the
/// deal is not over, for at most `MAX_STEPS` actions.
fn play_while(table: &mut Table, style: Style, go_on: impl Fn(&Table) -> bool) {
    let mut sides = Sides::default();
    for _ in 0..MAX_STEPS {
        if table.is_over() || !go_on(table) {
            return;
        }
        let i = choose(table, &mut sides, style);
        table.apply_unordered(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use std::sync::Arc;

    #[test]
    fn play_until_stops_at_the_first_play_moment_that_small() {
        // From the deal (auction and all), the playout stops at the first
        // moment of play whose hands hold at most 12 cards, or at the end,
        // and playing on from there ends the deal as one playout would.
        let e = Arc::new(Engine::new(Rules::preset("classic").unwrap()).unwrap());
        let mut stops = 0;
        for index in 0..200 {
            let mut t = Table::seeded(e.clone(), 7, index).unwrap();
            let mut whole = t.clone();
            assert!(play_out(&mut whole, Style::default()));
            play_until(&mut t, 12, Style::default());
            let in_hands: usize = t.core().hands().iter().map(|h| h.len()).sum();
            assert!(t.is_over() || (t.phase() == Phase::Play && in_hands <= 12));
            let stopped_early = !t.is_over();
            assert!(play_out(&mut t, Style::default()));
            let scores = |t: &Table| t.result().map(|r| r.scores.clone());
            assert_eq!(scores(&t), scores(&whole), "deal {index}");
            stops += usize::from(stopped_early);
        }
        // (About one deal in six gets that far before a hand empties.)
        assert!(stops >= 10, "only {stops} of 200 playouts stopped early");
    }

    /// A moment of a classic playout where a seat faces another's play
    /// and cannot go out.
    struct Facing<'a> {
        table: &'a Table,
        sides: Sides,
        /// The default style's choice there.
        chosen: usize,
        last: Move,
        by: usize,
        deal: u64,
    }

    /// Plays 300 classic deals in the default style, showing `at` every
    /// moment a seat faces another seat's play and cannot go out.
    fn each_facing(seed: u64, mut at: impl FnMut(Facing)) {
        let e = Arc::new(Engine::new(Rules::preset("classic").unwrap()).unwrap());
        for deal in 0..300 {
            let mut t = Table::seeded(e.clone(), seed, deal).unwrap();
            let mut sides = Sides::default();
            while !t.is_over() {
                let chosen = choose(&t, &mut sides, Style::default());
                let core = t.core();
                let held = core.hands()[core.to_act()].len();
                let out = t
                    .legal_unordered()
                    .plays
                    .iter()
                    .any(|m| m.cards.len() == held);
                if let (Some(last), Some(by), false) =
                    (core.tricks().last, core.tricks().last_seat, out)
                {
                    at(Facing {
                        table: &t,
                        sides,
                        chosen,
                        last,
                        by,
                        deal,
                    });
                }
                t.apply_unordered(chosen);
            }
        }
    }

    /// A play's kind, rank and length (its kickers aside).
    fn reading(m: &Move) -> (Kind, u8, u8) {
        (m.kind, m.rank, m.length)
    }

    /// The smallest play of `last`'s kind and length among `plays`.
    fn smallest_same<'a>(plays: &'a [Move], last: &Move) -> Option<&'a Move> {
        plays
            .iter()
            .filter(|m| m.same_shape(last))
            .min_by_key(|m| m.rank)
    }

    #[test]
    fn partners_take_over_only_in_that_style() {
        // At every moment a farmer faces its partner's play: by default it
        // passes; with partners taking over it beats the play with its
        // smallest play of the same kind where it has one (else passes).
        let (mut faced, mut took_over) = (0, 0);
        each_facing(9, |f| {
            let seat = f.table.to_act();
            if !f.sides.partners(f.by, seat) {
                return;
            }
            faced += 1;
            let plays = f.table.legal_unordered().plays;
            let pass = plays.len();
            assert_eq!(
                f.chosen, pass,
                "deal {}: no pass on a partner by default",
                f.deal
            );
            let style = Style {
                partners_take_over: true,
                ..Style::default()
            };
            let j = choose(f.table, &mut f.sides.clone(), style);
            match smallest_same(plays, &f.last) {
                Some(low) => {
                    took_over += 1;
                    assert_eq!(reading(&plays[j]), reading(low), "deal {}", f.deal);
                }
                None => assert_eq!(j, pass, "deal {}", f.deal),
            }
        });
        assert!(
            faced > 300 && took_over > 50,
            "{faced} faced, {took_over} taken over"
        );
    }

    #[test]
    fn an_eager_seat_follows_with_its_smallest_play_of_the_same_kind() {
        // At every moment a seat faces an opponent's play: made the eager
        // seat, it answers with its smallest play of the same kind where it
        // has one, else as by default; another seat made eager changes
        // nothing.
        let (mut faced, mut eager, mut differed) = (0, 0, 0);
        each_facing(7, |f| {
            let seat = f.table.to_act();
            if f.sides.partners(f.by, seat) {
                return;
            }
            faced += 1;
            let style = |s: usize| Style {
                eager: Some(s),
                ..Style::default()
            };
            let other = f.table.core().next(seat);
            assert_eq!(
                choose(f.table, &mut f.sides.clone(), style(other)),
                f.chosen
            );
            let j = choose(f.table, &mut f.sides.clone(), style(seat));
            let plays = f.table.legal_unordered().plays;
            match smallest_same(plays, &f.last) {
                Some(low) => {
                    eager += 1;
                    differed += usize::from(j != f.chosen);
                    assert_eq!(reading(&plays[j]), reading(low), "deal {}", f.deal);
                }
                None => assert_eq!(j, f.chosen, "deal {}", f.deal),
            }
        });
        // Often the default answers so too; the style must differ at times.
        assert!(
            faced > 1000 && eager > 300 && differed > 30,
            "{faced} faced, {eager} eager, {differed} differed"
        );
    }

    #[test]
    fn the_plan_memo_tells_rule_sets_apart_whatever_their_address() {
        // Engines built in turn into one local often land at one address;
        // a memo keyed by address answered the first rule set's plan for
        // the next (A2345 is a straight in six-player-2v4, five singles in
        // classic).
        for _ in 0..4 {
            for (preset, want) in [("classic", 5), ("six-player-2v4", 1)] {
                let e = Engine::new(Rules::preset(preset).unwrap()).unwrap();
                let hand = e.parse("A2345").unwrap();
                assert_eq!(fewest(&e, hand), want, "{preset}");
            }
        }
    }
}
