//! The state every family shares.

use super::tricks::Tricks;
use super::{Action, Card, Event, Hand, Phase, Settlement};
use crate::engine::Engine;
use crate::rules::Rules;
use std::sync::Arc;

/// The state every family shares, and the only way a family changes it.
/// Families (inside `table`) read and write its fields; everyone else reads
/// them through the getters below.
#[derive(Clone)]
pub struct Core {
    pub(super) engine: Arc<Engine>,
    pub(super) phase: Phase,
    pub(super) to_act: usize,
    pub(super) hands: Vec<Hand>,
    pub(super) kitty: Vec<Card>,
    pub(super) kitty_given: bool,
    /// What has changed the stake so far.
    pub(super) events: Vec<Event>,
    pub(super) tricks: Tricks,
    /// This deal's actions, in order.
    pub(super) history: Vec<(usize, Action)>,
    pub(super) result: Option<Settlement>,
    pub(super) redeal: bool,
}

impl Core {
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn to_act(&self) -> usize {
        self.to_act
    }

    pub fn hands(&self) -> &[Hand] {
        &self.hands
    }

    /// The kitty as dealt (taken or not: see `kitty_given`).
    pub fn kitty(&self) -> &[Card] {
        &self.kitty
    }

    pub fn kitty_given(&self) -> bool {
        self.kitty_given
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn tricks(&self) -> &Tricks {
        &self.tricks
    }

    /// This deal's actions, in order.
    pub fn history(&self) -> &[(usize, Action)] {
        &self.history
    }

    pub fn result(&self) -> Option<&Settlement> {
        self.result.as_ref()
    }

    pub fn rules(&self) -> &Rules {
        self.engine.rules()
    }

    pub fn players(&self) -> usize {
        self.engine.rules().players as usize
    }

    /// The seat after `seat`.
    pub fn next(&self, seat: usize) -> usize {
        (seat + 1) % self.players()
    }

    /// Everyone passed: deal again once this action is done.
    pub fn redeal(&mut self) {
        self.redeal = true;
    }

    /// `seat` takes `cards` (a share of the kitty); the kitty counts as
    /// given once `kitty_given` is set.
    pub fn give(&mut self, seat: usize, cards: &[Card]) {
        self.hands[seat].add(cards);
    }

    /// The whole kitty to `seat`.
    pub fn give_kitty(&mut self, seat: usize) {
        let kitty = std::mem::take(&mut self.kitty);
        self.give(seat, &kitty);
        self.kitty = kitty;
        self.kitty_given = true;
    }

    pub fn begin_play(&mut self, leader: usize) {
        self.phase = Phase::Play;
        self.to_act = leader;
    }

    /// A new deal's hands and kitty are in: forget the last deal's state.
    pub(super) fn new_deal(&mut self) {
        self.kitty_given = false;
        self.events.clear();
        self.tricks.reset();
        self.history.clear();
        self.result = None;
        self.redeal = false;
    }

    /// The deal is over (someone went out, or an auto-win).
    pub fn end(&mut self, result: Settlement) {
        self.phase = Phase::Over;
        self.result = Some(result);
    }
}
