//! The playout policy: how every seat plays a sample out to the end. Fast
//! (a few hint keys a turn) and better than greedy (docs/bots.md has the
//! measurements):
//! - a play that empties the hand is always taken;
//! - a seat does not beat its partner's play (one-landlord deals, where
//!   the sides are public);
//! - a lead sheds the lowest rank in the largest group it can (a straight
//!   from it, a trio with a kicker) rather than alone;
//! - a bomb is kept unless the seat it would beat is close to going out,
//!   or it leaves few cards;
//! - against a seat down to one card, a lead avoids a single where it can.
//!
//! Pre-play decisions are the greedy player's (`Policy::Greedy`).

use crate::engine::Engine;
use crate::play::Move;
use crate::policy::greedy_word;
use crate::rules::Flow;
use crate::table::{Phase, Table};

/// A bomb is spent against a seat holding at most this many cards, or when
/// at most this many cards are left after it.
const BOMB_WHEN: usize = 4;

/// The sides as a playout knows them: the landlord of a one-landlord deal
/// once play begins (public then), else nobody's partner is known.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sides {
    landlord: Option<usize>,
}

impl Sides {
    /// Read the landlord once the table is in play (a report's landlord is
    /// only meaningful then).
    fn refresh(&mut self, table: &Table) {
        if self.landlord.is_none()
            && table.phase() == Phase::Play
            && table.rules().flow == Flow::OneLandlord
            && table.rules().players > 2
        {
            self.landlord = Some(table.report().landlord());
        }
    }

    fn partners(&self, a: usize, b: usize) -> bool {
        self.landlord.is_some_and(|l| a != l && b != l)
    }
}

/// The playout policy's pick among `table.legal_unordered()`.
pub fn choose(table: &Table, sides: &mut Sides) -> usize {
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
        (Some(_), Some(by)) => {
            if sides.partners(by, seat) {
                return pass;
            }
            if let Some(i) = smallest(e, plays, |m| !m.kind.is_bomb()) {
                return i;
            }
            let close = t.hands()[by].len() <= BOMB_WHEN;
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

/// Play `table` out with the playout policy; false if it did not end
/// within `MAX_STEPS` actions.
pub fn play_out(table: &mut Table) -> bool {
    let mut sides = Sides::default();
    for _ in 0..MAX_STEPS {
        if table.is_over() {
            return true;
        }
        let i = choose(table, &mut sides);
        table.apply_unordered(i);
    }
    table.is_over()
}
