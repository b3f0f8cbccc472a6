//! What a seat may see: its observation, and the legal actions of a moment.

use super::roles::{RoleSpec, RoleValue};
use super::{physical, Action, Card, Event, Hand, Phase, Settlement, Table};
use crate::play::Move;
use serde_json::{Map, Value};

/// The legal actions of a moment: the plays (when playing) then the words
/// (`pass` when following; the decisions of a pre-play phase).
#[derive(Clone, Copy, Debug)]
pub struct Legal<'a> {
    pub plays: &'a [Move],
    pub words: &'a [Action],
}

impl Legal<'_> {
    pub fn len(&self) -> usize {
        self.plays.len() + self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: usize) -> Option<Action> {
        match self.plays.get(i) {
            Some(&m) => Some(Action::Play(m)),
            None => self.words.get(i - self.plays.len()).copied(),
        }
    }

    pub fn contains(&self, action: &Action) -> bool {
        match action {
            Action::Play(m) => self.plays.contains(m),
            word => self.words.contains(word),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = Action> + '_ {
        let plays = self.plays.iter().map(|&m| Action::Play(m));
        plays.chain(self.words.iter().copied())
    }
}

impl Table {
    /// The indices in this deal's history of the actions `seat` may see
    /// (the observation's `history`; bindings cache each entry's text).
    pub fn visible_history(&self, seat: usize) -> impl Iterator<Item = usize> + '_ {
        let (t, f) = (&self.core, self.family.as_ref());
        let history = t.history.iter().enumerate();
        history.filter_map(move |(i, (s, a))| f.visible(t, seat, *s, a).then_some(i))
    }

    /// Everything `seat` may know now, and nothing more (docs/game.md lists
    /// the keys). `seat` must be a seat of the table.
    pub fn observation(&mut self, seat: usize) -> Observation {
        self.observe(seat, true)
    }

    /// The same, its `hand` and `history` left empty: the bindings spell
    /// the seat's own hand only when it changed and render the history from
    /// cached texts (`visible_history`), rather than copy them at each step.
    pub fn observation_bare(&mut self, seat: usize) -> Observation {
        self.observe(seat, false)
    }

    fn observe(&mut self, seat: usize, full: bool) -> Observation {
        let with_legal = seat == self.core.to_act && self.core.phase != Phase::Over;
        let legal = with_legal.then(|| self.legal().iter().collect());
        let t = &self.core;
        let f = self.family.as_ref();
        let mut roles = Vec::with_capacity(f.role_specs().len());
        f.role_values(t, Some(seat), &mut roles);
        let mut seen = f.hands_seen_by(t, seat);
        seen.sort_unstable();
        Observation {
            seat,
            phase: t.phase,
            to_act: t.to_act,
            hand: match full {
                true => t.hands[seat].cards(),
                false => Vec::new(),
            },
            hand_sizes: t.hands.iter().map(Hand::len).collect(),
            kitty: f.kitty_seen_by(t, seat).then(|| t.kitty.clone()),
            seen_hands: seen.into_iter().map(|s| (s, t.hands[s].cards())).collect(),
            history: match full {
                true => self.visible_history(seat).map(|i| t.history[i]).collect(),
                false => Vec::new(),
            },
            to_beat: t.tricks.last,
            events: t.events.clone(),
            result: t.result.clone(),
            role_specs: f.role_specs(),
            roles,
            legal,
        }
    }
}

/// What one seat may know at one moment.
#[derive(Clone, Debug)]
pub struct Observation {
    pub seat: usize,
    pub phase: Phase,
    pub to_act: usize,
    pub hand: Vec<Card>,
    pub hand_sizes: Vec<usize>,
    /// The kitty, when this seat may see it.
    pub kitty: Option<Vec<Card>>,
    /// Other seats' hands this seat may see, by seat.
    pub seen_hands: Vec<(usize, Vec<Card>)>,
    /// This deal's actions this seat may see.
    pub history: Vec<(usize, Action)>,
    pub to_beat: Option<Move>,
    pub events: Vec<Event>,
    pub result: Option<Settlement>,
    /// The family's roles (`landlord`, `bid`, ...) and their values as
    /// this seat knows them, one per spec.
    pub role_specs: &'static [RoleSpec],
    pub roles: Vec<RoleValue>,
    /// The legal actions, when this seat is to act.
    pub legal: Option<Vec<Action>>,
}

impl Observation {
    /// As `Game.observation` returns it, as JSON (the binding builds its
    /// Python dict directly, for speed; Rust callers and tests use this).
    pub fn to_json(&self, preset: &str) -> Value {
        let ids = |cards: &[Card]| physical::identities(cards);
        let mut out = Map::new();
        out.insert("seat".into(), self.seat.into());
        out.insert("preset".into(), preset.into());
        out.insert("phase".into(), self.phase.name().into());
        out.insert("to_act".into(), self.to_act.into());
        out.insert("hand".into(), ids(&self.hand).into());
        out.insert("hand_sizes".into(), self.hand_sizes.clone().into());
        out.insert(
            "kitty".into(),
            self.kitty.as_deref().map_or(Value::Null, |k| ids(k).into()),
        );
        let seen: Map<String, Value> = self
            .seen_hands
            .iter()
            .map(|(s, h)| (s.to_string(), ids(h).into()))
            .collect();
        out.insert("seen_hands".into(), Value::Object(seen));
        let history: Vec<Value> = self
            .history
            .iter()
            .map(|(s, a)| Value::Array(vec![(*s).into(), a.to_string().into()]))
            .collect();
        out.insert("history".into(), history.into());
        out.insert(
            "to_beat".into(),
            self.to_beat.map_or(Value::Null, |m| m.to_string().into()),
        );
        let events: Vec<Value> = self.events.iter().map(Event::to_json).collect();
        out.insert("events".into(), events.into());
        out.insert(
            "result".into(),
            self.result
                .as_ref()
                .map_or(Value::Null, Settlement::to_json),
        );
        for (spec, value) in self.role_specs.iter().zip(&self.roles) {
            out.insert(spec.key.into(), value.to_json());
        }
        if let Some(legal) = &self.legal {
            let words: Vec<Value> = legal.iter().map(|a| a.to_string().into()).collect();
            out.insert("legal_actions".into(), words.into());
        }
        Value::Object(out)
    }
}
