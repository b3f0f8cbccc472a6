//! Where a table's deals come from: the given ones first, then fresh ones
//! drawn from its generator.

use super::deal::{self, Cut, Deal, Rng};
use super::{Card, Family};
use crate::rules::Rules;
use std::collections::VecDeque;

/// How much of each deal a table keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// Every deal and action, the hands sorted.
    Recorded,
    /// No record (`Table::restart_unrecorded`): only the result is read.
    Unrecorded,
    /// No record, and the hands dealt and followed as counts only (a
    /// family whose counts suffice).
    Counted,
}

/// How a table draws its next deal. It stands apart from the game state
/// because it outlasts each deal: the deck, the cut and a finished deal's
/// buffers are kept from deal to deal, and `ddz.simulate` switches it to
/// the unrecorded or counted mode for speed.
#[derive(Clone)]
pub(super) struct Dealer {
    rng: Rng,
    mode: Mode,
    /// Given deals still to play (a record's redeals), before drawing.
    queued: VecDeque<Deal>,
    /// The rule set's physical deck, unshuffled, and the deck being dealt.
    fresh_deck: Vec<Card>,
    cut: Cut,
    /// A finished deal whose buffers the next drawn deal reuses.
    spare: Deal,
}

impl Dealer {
    pub(super) fn new(rules: &Rules, rng: Rng, given: Vec<Deal>) -> Dealer {
        Dealer {
            rng,
            mode: Mode::Recorded,
            queued: given.into(),
            fresh_deck: deal::physical_deck(rules),
            cut: Cut::fresh(rules),
            spare: Deal::default(),
        }
    }

    /// Start over in `mode`, drawing from `rng` and dropping any queued
    /// deals; the table's finished `deals` are taken back.
    pub(super) fn restart(&mut self, rng: Rng, mode: Mode, deals: &mut Vec<Deal>) {
        self.mode = mode;
        self.rng = rng;
        self.queued.clear();
        self.take_back(deals);
    }

    /// Deal a playout's later deals (`Table::redealt`) from `rng`, keeping
    /// no record: it must not learn the real next deal.
    pub(super) fn for_playout(&mut self, rng: Rng) {
        self.queued.clear();
        if self.mode == Mode::Recorded {
            self.mode = Mode::Unrecorded;
        }
        self.rng = rng;
    }

    pub(super) fn is_recording(&self) -> bool {
        self.mode == Mode::Recorded
    }

    /// Is the next deal dealt as counts (`next_counted`)?
    pub(super) fn next_is_counted(&self) -> bool {
        self.mode == Mode::Counted && self.queued.is_empty()
    }

    /// The next deal, given or drawn, completed by `family`.
    pub(super) fn next(&mut self, rules: &Rules, family: &mut dyn Family) -> Deal {
        let mut deal = match self.queued.pop_front() {
            Some(d) => d,
            None => {
                let mut deal = std::mem::take(&mut self.spare);
                self.cut.reshuffle(&self.fresh_deck, &mut self.rng);
                family.deal(rules, &mut self.rng, &self.cut, &mut deal);
                if self.is_recording() {
                    deal.sort_hands();
                }
                deal
            }
        };
        family.complete(rules, &mut deal, &mut self.rng);
        deal
    }

    /// A fresh deal as counts: the same draws as `Deal::shuffled` (the
    /// same cards for a seed), answered as the first seat and the cut,
    /// whose unsorted hands and kitty are the deal.
    pub(super) fn next_counted(&mut self) -> (usize, &Cut) {
        self.cut.reshuffle(&self.fresh_deck, &mut self.rng);
        let first = self.rng.below(self.cut.players());
        (first, &self.cut)
    }

    /// Empty the table's finished `deals`, keeping the last one's buffers
    /// for the next drawn deal to refill.
    pub(super) fn take_back(&mut self, deals: &mut Vec<Deal>) {
        // (A deal dealt on counts has no buffers worth keeping.)
        if self.mode != Mode::Counted {
            if let Some(last) = deals.pop() {
                self.spare = last;
            }
        }
        deals.clear();
    }
}
