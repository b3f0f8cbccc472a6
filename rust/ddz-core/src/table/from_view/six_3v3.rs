//! `six-player-3v3` and `six-player-3v3-kitty`: where the marked card's
//! three copies lie decides how many biddings were held, who was barred
//! from them, who is hidden and who shares the kitty. The observation
//! tells the seat the outcome, not the places, so the rebuild tries the
//! places the seat cannot rule out (each unseen copy in a hidden hand or in
//! one of a seat's plays of that rank) in an order drawn from the seed,
//! and keeps the first whose replay shows the seat the very observation
//! it was given.

use super::{build, shows_the_same, Guess, Placement, View};
use crate::cards::Cards;
use crate::engine::Engine;
use crate::table::{Card, Rng, Table};
use std::sync::Arc;

/// Most placements tried: three copies over the hidden hands and the
/// plays of the marked rank; most fail at the first bids.
const MOST_TRIED: usize = 600;

pub(super) fn rebuild(engine: Arc<Engine>, view: &View, seed: u64) -> Result<Table, String> {
    let engine = super::shared_as_dealt(engine)?;
    let marked = view.marked.ok_or("the observation has no 'marked' card")?;
    let holder = view
        .marked_holder
        .ok_or("the observation has no 'marked_holder'")?;
    let n = view.hand_sizes.len();
    let seen = |s: usize| -> Option<&Vec<Card>> {
        match s == view.seat {
            true => Some(&view.hand),
            false => view.seen.iter().find(|(at, _)| *at == s).map(|(_, h)| h),
        }
    };
    let count = |cards: &[Card]| cards.iter().filter(|&&c| c == marked).count();
    let in_sight: usize = (0..n).filter_map(seen).map(|h| count(h)).sum();
    let unseen = 3usize
        .checked_sub(in_sight)
        .ok_or("more than three copies of the marked card")?;
    // Where an unseen copy may be: a hidden hand, or one play of its rank
    // (the plays numbered in history order: which play held it decides
    // when a hidden landlord was revealed).
    let rank = Cards::of(marked.slot as usize, 1);
    let mut spots: Vec<(usize, Option<usize>)> = (0..n)
        .filter(|&s| seen(s).is_none() && view.hand_sizes[s] > 0)
        .map(|s| (s, None))
        .collect();
    let plays = view
        .history
        .iter()
        .filter_map(|(by, text)| Some((*by, super::played(&engine, text)?)));
    for (k, (by, cards)) in plays.enumerate() {
        if cards.contains(&rank) {
            spots.push((by, Some(k)));
        }
    }
    let mut placements: Vec<Vec<(usize, Option<usize>)>> = Vec::new();
    multisets(&spots, unseen, &mut Vec::new(), &mut placements);
    // The receiver was dealt a copy.
    let receiver_seen = seen(holder).is_some_and(|h| count(h) > 0);
    placements.retain(|p| receiver_seen || p.iter().any(|(s, _)| *s == holder));
    let mut rng = Rng(seed ^ 0x3c0_91e5);
    rng.shuffle(&mut placements);
    let mut last = String::from("no place for the marked card's copies fits");
    for (i, at) in placements.iter().take(MOST_TRIED).enumerate() {
        let guess = Guess {
            copies: Some(at),
            ..Guess::default()
        };
        match build(engine.clone(), view, seed.wrapping_add(i as u64), guess) {
            Ok(mut table) => match shows_the_same(&mut table, view) {
                true => return Ok(table),
                false => last = "the rebuilt table shows the seat another observation".into(),
            },
            Err(e) => last = e,
        }
    }
    Err(format!("six-player-3v3: {last}"))
}

/// Every multiset of `k` items of `from` (by index, non-decreasing).
fn multisets<T: Clone>(from: &[T], k: usize, at: &mut Vec<usize>, out: &mut Vec<Vec<T>>) {
    if at.len() == k {
        out.push(at.iter().map(|&i| from[i].clone()).collect());
        return;
    }
    let start = at.last().copied().unwrap_or(0);
    for i in start..from.len() {
        at.push(i);
        multisets(from, k, at, out);
        at.pop();
    }
}

/// The unseen copies and where each goes: (seat, the number of the play
/// that held it, or None for the hand).
pub(super) struct Copies {
    copies: Vec<Card>,
    /// The places not yet filled.
    at: Vec<(usize, Option<usize>)>,
    /// The plays made up so far.
    plays: usize,
    /// The seats whose hands the observation shows.
    known: Vec<bool>,
    hand_sizes: Vec<usize>,
}

impl Copies {
    /// Take the unseen copies of `marked` out of `deck`, to go to `at`.
    pub(super) fn new(
        marked: Card,
        at: &[(usize, Option<usize>)],
        now: &[Option<Vec<Card>>],
        hand_sizes: &[usize],
        deck: &mut Vec<Card>,
    ) -> Result<Copies, String> {
        let mut copies = Vec::new();
        while let Some(i) = deck.iter().position(|c| *c == marked) {
            copies.push(deck.remove(i));
        }
        if copies.len() != at.len() {
            return Err("the marked card's copies do not fit".into());
        }
        Ok(Copies {
            copies,
            at: at.to_vec(),
            plays: 0,
            known: now.iter().map(Option::is_some).collect(),
            hand_sizes: hand_sizes.to_vec(),
        })
    }
}

impl Placement for Copies {
    fn copies_for_play(&mut self, s: usize, want: &mut Cards, cards: &mut Vec<Card>) {
        let slot = self.copies.first().map_or(0, |c| c.slot as usize);
        let play = Some(self.plays);
        self.plays += 1;
        while want.get(slot) > 0 {
            let Some(i) = self.at.iter().position(|&p| p == (s, play)) else {
                break;
            };
            let Some(copy) = self.copies.pop() else {
                break;
            };
            self.at.swap_remove(i);
            cards.push(copy);
            *want = *want - Cards::of(slot, 1);
        }
    }

    fn finish(
        mut self: Box<Self>,
        _plays: &mut [Vec<Card>],
        pinned: &mut [Vec<Card>],
        _deck: &mut Vec<Card>,
    ) -> Result<Option<Box<dyn super::Adjust>>, String> {
        for (s, play) in std::mem::take(&mut self.at) {
            let room = self.hand_sizes[s] > pinned[s].len();
            if play.is_some() || self.known[s] || !room {
                return Err(format!("seat {s} has no place for a marked copy"));
            }
            let copy = self.copies.pop().ok_or("the marked card's copies")?;
            pinned[s].push(copy);
        }
        Ok(None)
    }
}
