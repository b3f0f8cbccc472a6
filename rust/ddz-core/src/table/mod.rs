//! The table: one deal of any preset as a steppable state machine.
//!
//! A [`Table`] is made from a rule set and a deal (given, or drawn from a
//! seeded generator). It answers its [`Phase`], the seat to act, the legal
//! actions, the observation of any seat and, once over, the result;
//! [`Table::apply`] takes one action and refuses an illegal one without
//! changing anything. `ddz.Game`, `ddz.simulate` and the batched
//! environments all run on it (docs/table.md).
//!
//! What every preset shares lives here and beside it: dealing
//! (`deal.rs`), auctions (`auction.rs`), trick play (`tricks.rs` and the
//! play phase below), scoring (`scoring.rs`), physical cards
//! (`physical.rs`). What differs is a [`Family`]: one file per flow
//! (`Rules::flow`, e.g. `landlord.rs`), registered in [`family_of`]. Within
//! a family a preset is data: the `Rules` options the family reads.

pub mod action;
pub mod auction;
pub mod deal;
mod five;
mod five3;
mod landlord;
pub mod marked;
pub mod physical;
mod resolve;
pub mod scoring;
mod six;
mod six_2v4;
mod six_3v3;
pub mod tricks;

pub use action::Action;
pub use deal::{Cut, Deal, Rng};
pub use physical::{Card, Hand};
pub use scoring::{Event, Settlement};

use crate::engine::Engine;
use crate::error::RulesError;
use crate::play::Move;
use crate::rules::{Flow, Rules};
use serde_json::{Map, Value};
use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;
use tricks::Tricks;

/// Where a deal stands. Each family uses some of the decision phases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Bid,
    Kick,
    Grab,
    /// Five-player-3deck: the main landlord's solo or friend call.
    Call,
    Reveal,
    Double,
    Show,
    ChooseSide,
    Play,
    Over,
}

impl Phase {
    /// As `Game.phase` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Bid => "bid",
            Phase::Kick => "kick",
            Phase::Grab => "grab",
            Phase::Call => "call",
            Phase::Reveal => "reveal",
            Phase::Double => "double",
            Phase::Show => "show",
            Phase::ChooseSide => "choose_side",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

/// An action the table refused, and why; the table is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal(pub String);

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Illegal {}

/// One role value as `Family::observe_ints` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntRole {
    /// Not known to the seat, or not decided yet (`null` in `observe`).
    Unknown,
    Seat(usize),
    Number(i64),
}

impl From<IntRole> for Value {
    fn from(r: IntRole) -> Value {
        match r {
            IntRole::Unknown => Value::Null,
            IntRole::Seat(s) => s.into(),
            IntRole::Number(x) => x.into(),
        }
    }
}

/// A family of presets: how roles are chosen, who sees what, and how a deal
/// is scored. The table runs the trick play and calls these hooks; a family
/// changes the shared state only through [`Core`].
///
/// A new family is one file implementing this trait, a new [`Flow`] and
/// one arm in [`family_of`] (docs/table.md).
pub trait Family: Send + Sync {
    fn clone_box(&self) -> Box<dyn Family>;

    /// Deal keys beyond `hands`, `kitty`, `set_aside` and `first`.
    fn deal_keys(&self) -> &'static [&'static str] {
        &[]
    }

    /// A fresh random deal (marked cards are chosen here) into `deal`,
    /// from `cut`, which the table has just shuffled with `rng`. `deal`
    /// holds an earlier deal whose buffers are reused: the hook replaces
    /// its hands, kitty, cards set aside, first seat and its own keys
    /// (`Cut::deal_into`, `Deal::set_text`). The family may remember what
    /// it drew for the `start` that follows at once, rather than read it
    /// back from `extra`. The hands are as dealt: the table sorts them
    /// (`Deal::sort_hands`) when it keeps a record, so nothing here may
    /// read their order. By default: a random first seat (as
    /// `Deal::shuffled`).
    fn deal(&mut self, _rules: &Rules, rng: &mut Rng, cut: &Cut, deal: &mut Deal) {
        cut.deal_plain_into(rng, deal);
    }

    /// Check a given deal's family keys (`deal.extra`).
    fn check_deal(&self, _rules: &Rules, _deal: &Deal) -> Result<(), String> {
        Ok(())
    }

    /// Fill in what a given deal may leave out (drawn from the table's
    /// generator), before it is recorded and started.
    fn complete(&self, _rules: &Rules, _deal: &mut Deal, _rng: &mut Rng) {}

    /// A new deal is on the table: reset every role and set the phase and
    /// the first seat to act.
    fn start(&mut self, t: &mut Core, deal: &Deal);

    /// The decisions open to `t.to_act` in the current (pre-play) phase, in
    /// the order `Game` lists them.
    fn legal(&self, t: &Core, out: &mut Vec<Action>);

    /// Take one legal pre-play decision of `seat`.
    fn apply(&mut self, t: &mut Core, seat: usize, action: Action);

    /// After `seat` played `m` (the physical `cards`, already out of the
    /// hand; on a table that keeps no record, only those of the ranks
    /// `plays_read_ranks` names). The family may end the deal here.
    fn on_play(&mut self, _t: &mut Core, _seat: usize, _m: &Move, _cards: &[Card]) {}

    /// Do counts suffice: the family is dealt by the default `deal`, its
    /// `start` reads only `deal.first`, and it never reads a suit (no
    /// hand's suits, no `cards` in `on_play`)? Then a table that keeps no
    /// record deals and follows the hands as counts only.
    fn counts_suffice(&self) -> bool {
        false
    }

    /// The ranks whose suits play reads (`cards` in `on_play`, a hand's
    /// suits), as a mask of slots; asked at each play, it must not change
    /// once play has begun. A table that keeps no record follows the suits
    /// of these ranks only: the other ranks leave the hands as counts, and
    /// `on_play` gets the cards of these ranks alone. Every rank by default
    /// (none where the counts suffice).
    fn plays_read_ranks(&self) -> u32 {
        if self.counts_suffice() {
            0
        } else {
            u32::MAX
        }
    }

    /// The result once `winner` has emptied their hand.
    fn finish(&mut self, t: &Core, winner: usize) -> Settlement;

    /// The roles `seat` may know, added to its observation.
    fn observe(&self, _t: &Core, _seat: usize, _out: &mut Map<String, Value>) {}

    /// The role keys of a family whose roles are all seats and numbers,
    /// sorted (the order of `observe`'s map): `observe_ints` gives their
    /// values by place here. None (the default) means: use `observe`.
    fn int_role_keys(&self) -> &'static [&'static str] {
        &[]
    }

    /// `observe`'s roles without JSON (`vecenv` reads them every step):
    /// `out[i]` gets the value of `int_role_keys()[i]`, for every key
    /// (`out` may be longer).
    fn observe_ints(&self, _t: &Core, _seat: usize, _out: &mut [IntRole]) {}

    /// Other seats whose whole hand `seat` may see now.
    fn hands_seen_by(&self, _t: &Core, _seat: usize) -> Vec<usize> {
        Vec::new()
    }

    /// May `seat` see the kitty now?
    fn kitty_seen_by(&self, _t: &Core, _seat: usize) -> bool {
        false
    }

    /// May `viewer` see that `seat` took `action`? Plays and most
    /// decisions are public; a family hides its secret choices.
    fn visible(&self, _t: &Core, _viewer: usize, _seat: usize, _action: &Action) -> bool {
        true
    }

    /// Roles as `ddz.simulate` reports them.
    fn roles(&self) -> Roles;
}

/// The roles at the end of a deal, for `ddz.simulate`'s columns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Roles {
    pub landlord: usize,
    pub hidden_landlord: Option<usize>,
    pub revealed: bool,
    pub open_landlords: Vec<usize>,
    pub hidden_landlords: Vec<usize>,
    pub revealed_landlords: Vec<usize>,
    pub landlord_won: bool,
}

/// A family as registered: the flow it plays, the check that refuses
/// the rule sets it cannot play, and how to make its state.
pub struct FamilySpec {
    pub name: &'static str,
    pub flow: Flow,
    /// Called when a `Rules` is built: an `Err` refuses the rule set before
    /// any deal starts.
    pub check: fn(&Rules) -> Result<(), RulesError>,
    pub new: fn(&Rules) -> Box<dyn Family>,
}

/// The family that plays `flow`: the registry of families (every flow has
/// one).
pub fn family_of(flow: Flow) -> &'static FamilySpec {
    match flow {
        Flow::OneLandlord => &landlord::SPEC,
        Flow::HiddenPartner => &five::SPEC,
        Flow::CalledFriend => &five3::SPEC,
        Flow::TwoMarks => &six_2v4::SPEC,
        Flow::ThreeCopies => &six_3v3::SPEC,
    }
}

/// Refuse a rule set its flow could not play to the end.
pub fn check_rules(rules: &Rules) -> Result<(), RulesError> {
    (family_of(rules.flow).check)(rules)
}

/// The state every family shares, and the only way a family changes it.
#[derive(Clone)]
pub struct Core {
    engine: Arc<Engine>,
    pub phase: Phase,
    pub to_act: usize,
    pub hands: Vec<Hand>,
    pub kitty: Vec<Card>,
    pub kitty_given: bool,
    /// What has changed the stake so far.
    pub events: Vec<Event>,
    pub tricks: Tricks,
    /// This deal's actions, in order.
    pub history: Vec<(usize, Action)>,
    pub result: Option<Settlement>,
    redeal: bool,
}

impl Core {
    pub fn engine(&self) -> &Engine {
        &self.engine
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
    fn new_deal(&mut self) {
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

/// One action as records keep it: the seat, the action and, for a play,
/// the physical cards that left the hand (`cards` indexes `Table::cards`).
#[derive(Clone, Debug)]
pub struct Taken {
    pub seat: usize,
    pub action: Action,
    pub cards: std::ops::Range<u32>,
}

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

/// One deal on the table. See the module docs.
#[derive(Clone)]
pub struct Table {
    core: Core,
    family: Box<dyn Family>,
    rng: Rng,
    /// Given deals still to play (a record's redeals), before drawing.
    queued: VecDeque<Deal>,
    deals: Vec<Deal>,
    actions: Vec<Taken>,
    /// The physical cards of every play in `actions`.
    cards: Vec<Card>,
    /// The legal plays (play phase) and words of the current moment.
    plays: Vec<Move>,
    words: Vec<Action>,
    /// Are `plays` in hint order (the order `Game` lists them)?
    ordered: bool,
    /// Keep the record (see `restart_unrecorded`)?
    recording: bool,
    /// Deal and follow the hands as counts only (no record, and a family
    /// whose counts suffice)?
    counts_only: bool,
    /// The rule set's physical deck, unshuffled, and the deck being dealt
    /// (kept from deal to deal).
    fresh_deck: Vec<Card>,
    cut: Cut,
    /// A finished deal whose buffers the next drawn deal reuses.
    spare: Deal,
}

impl Clone for Box<dyn Family> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Why a table could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

impl Table {
    /// A table for `engine`'s rule set. Its deals come from `given` first
    /// (in order: a record's redeals), then from `rng`.
    pub fn new(engine: Arc<Engine>, rng: Rng, given: Vec<Deal>) -> Result<Table, SetupError> {
        let rules = engine.rules();
        let spec = family_of(rules.flow);
        (spec.check)(rules).map_err(|e| SetupError(e.to_string()))?;
        let family = (spec.new)(rules);
        for deal in &given {
            family
                .check_deal(rules, deal)
                .map_err(|e| SetupError(e.to_string()))?;
        }
        let n = rules.players as usize;
        // Room for a long deal's actions up front: growing these vectors
        // step by step cost whole deals about a tenth of their time.
        let room = 2 * rules.deck_size();
        let core = Core {
            engine: engine.clone(),
            phase: Phase::Over,
            to_act: 0,
            hands: vec![Hand::default(); n],
            kitty: Vec::new(),
            kitty_given: false,
            events: Vec::new(),
            tricks: Tricks::new(n),
            history: Vec::with_capacity(room),
            result: None,
            redeal: false,
        };
        let mut table = Table {
            core,
            family,
            rng,
            queued: given.into(),
            deals: Vec::new(),
            actions: Vec::with_capacity(room),
            cards: Vec::with_capacity(rules.deck_size()),
            plays: Vec::with_capacity(256),
            words: Vec::with_capacity(8),
            ordered: false,
            recording: true,
            counts_only: false,
            fresh_deck: deal::physical_deck(rules),
            cut: Cut::fresh(rules),
            spare: Deal::default(),
        };
        table.start();
        Ok(table)
    }

    /// Start over with a fresh deal drawn from `rng`, forgetting the record
    /// but keeping the buffers (a simulation plays many deals on one table).
    pub fn restart(&mut self, rng: Rng) {
        self.restart_recording(rng, true);
    }

    /// As `restart`, keeping no record of the new deal: `actions()` and
    /// `Core::history` stay empty, `deals()` holds only the deal being
    /// played and, where the family's counts suffice, the deal is dealt and
    /// followed as counts only (no suits, nothing sorted). For `ddz.simulate`, which
    /// reads only the result: every log push and physical card it skips
    /// is work and memory traffic at every step. The result is the same as
    /// `restart`'s; observations of such a table are not meaningful.
    pub(crate) fn restart_unrecorded(&mut self, rng: Rng) {
        self.restart_recording(rng, false);
    }

    fn restart_recording(&mut self, rng: Rng, recording: bool) {
        self.recording = recording;
        self.counts_only = !recording && self.family.counts_suffice();
        self.rng = rng;
        self.queued.clear();
        // (A deal dealt on counts has no buffers worth keeping.)
        if !self.counts_only {
            self.keep_last_deal_as_spare();
        }
        self.deals.clear();
        self.actions.clear();
        self.cards.clear();
        self.start();
    }

    /// Game `index` of a series seeded `seed` (as `ddz.simulate` deals).
    pub fn seeded(engine: Arc<Engine>, seed: u64, index: u64) -> Result<Table, SetupError> {
        Table::new(engine, Rng::for_game(seed, index), Vec::new())
    }

    /// A deal given as `{"hands": [...], "kitty": "...", ...}` (or as a
    /// record stores it), checked for this rule set and family.
    pub fn parse_deal(rules: &Rules, spec: &Value) -> Result<Deal, SetupError> {
        let family = (family_of(rules.flow).new)(rules);
        let deal = Deal::from_json(rules, spec, family.deal_keys()).map_err(SetupError)?;
        family.check_deal(rules, &deal).map_err(SetupError)?;
        Ok(deal)
    }

    fn start(&mut self) {
        if self.counts_only && self.queued.is_empty() {
            return self.start_counted();
        }
        let mut deal = match self.queued.pop_front() {
            Some(d) => d,
            None => {
                let mut deal = std::mem::take(&mut self.spare);
                self.cut.reshuffle(&self.fresh_deck, &mut self.rng);
                let (rules, rng) = (self.core.engine.rules(), &mut self.rng);
                self.family.deal(rules, rng, &self.cut, &mut deal);
                if self.recording {
                    deal.sort_hands();
                }
                deal
            }
        };
        self.family
            .complete(self.core.rules(), &mut deal, &mut self.rng);
        let t = &mut self.core;
        for (hand, cards) in t.hands.iter_mut().zip(&deal.hands) {
            *hand = Hand::of(cards);
        }
        t.kitty.clone_from(&deal.kitty);
        t.new_deal();
        self.family.start(t, &deal);
        if !self.recording {
            self.keep_last_deal_as_spare();
            self.deals.clear();
        }
        self.deals.push(deal);
        self.refresh();
    }

    /// Keep the last deal's buffers for the next drawn deal to refill.
    fn keep_last_deal_as_spare(&mut self) {
        if let Some(last) = self.deals.pop() {
            self.spare = last;
        }
    }

    /// As `start` with a fresh deal, for a family whose counts suffice:
    /// the same draws as `Deal::shuffled` (the same cards for a seed), but
    /// the hands are counted straight from a reused deck, unsorted and
    /// without suits, and the deal kept is its first seat alone.
    fn start_counted(&mut self) {
        self.cut.reshuffle(&self.fresh_deck, &mut self.rng);
        let first = self.rng.below(self.cut.players());
        let t = &mut self.core;
        for (seat, hand) in t.hands.iter_mut().enumerate() {
            *hand = Hand::counted(self.cut.hand(seat));
        }
        t.kitty.clear();
        t.kitty.extend_from_slice(self.cut.kitty());
        t.new_deal();
        let deal = Deal {
            first,
            ..Deal::default()
        };
        self.family.start(t, &deal);
        self.deals.clear();
        self.deals.push(deal);
        self.refresh();
    }

    /// List the legal actions of the new moment (plays unordered).
    fn refresh(&mut self) {
        self.plays.clear();
        self.words.clear();
        self.ordered = false;
        match self.core.phase {
            Phase::Over => {}
            Phase::Play => {
                let t = &self.core;
                let hand = &t.hands[t.to_act].counts;
                t.engine
                    .moves_into(hand, t.tricks.last.as_ref(), &mut self.plays);
                if !t.tricks.leading() {
                    self.words.push(Action::Pass);
                }
            }
            _ => self.family.legal(&self.core, &mut self.words),
        }
    }

    // ---- what the table shows ------------------------------------------

    pub fn engine(&self) -> &Engine {
        &self.core.engine
    }

    pub fn shared_engine(&self) -> &Arc<Engine> {
        &self.core.engine
    }

    pub fn rules(&self) -> &Rules {
        self.core.rules()
    }

    pub fn phase(&self) -> Phase {
        self.core.phase
    }

    pub fn to_act(&self) -> usize {
        self.core.to_act
    }

    pub fn is_over(&self) -> bool {
        self.core.phase == Phase::Over
    }

    /// The shared state (hands, kitty, events, tricks, this deal's history).
    pub fn core(&self) -> &Core {
        &self.core
    }

    pub fn family(&self) -> &dyn Family {
        self.family.as_ref()
    }

    /// Every deal dealt so far (redeals included), the current one last.
    pub fn deals(&self) -> &[Deal] {
        &self.deals
    }

    /// Every action so far, over all deals.
    pub fn actions(&self) -> &[Taken] {
        &self.actions
    }

    /// The physical cards a taken play moved.
    pub fn cards_of(&self, taken: &Taken) -> &[Card] {
        &self.cards[taken.cards.start as usize..taken.cards.end as usize]
    }

    /// The legal actions in the order `Game` lists them: plays in hint
    /// order (smallest first, bombs last), then `pass`.
    pub fn legal(&mut self) -> Legal<'_> {
        if !self.ordered {
            let e = &self.core.engine;
            self.plays.sort_by_cached_key(|m| e.hint_key(m));
            self.ordered = true;
        }
        self.legal_unordered()
    }

    /// The same actions, the plays in whatever order they were listed (for
    /// choosers to whom the order does not matter).
    pub fn legal_unordered(&self) -> Legal<'_> {
        Legal {
            plays: &self.plays,
            words: &self.words,
        }
    }

    /// The result once the deal is over.
    pub fn result(&self) -> Option<&Settlement> {
        self.core.result.as_ref()
    }

    pub fn roles(&self) -> Roles {
        self.family.roles()
    }

    // ---- acting ----------------------------------------------------------

    /// Take `action` for the seat to act; an illegal action is refused and
    /// nothing changes.
    pub fn apply(&mut self, action: Action) -> Result<(), Illegal> {
        self.apply_named(action, &[])
    }

    /// As `apply`, naming the physical copies a play takes (the rest go
    /// lowest suit first). The named cards must be in the hand and be the
    /// play's cards.
    pub fn apply_named(&mut self, action: Action, named: &[Card]) -> Result<(), Illegal> {
        self.check(&action)?;
        if !named.is_empty() {
            let Action::Play(m) = action else {
                return Err(Illegal(format!("{action} names no cards")));
            };
            if deal::count(named) != m.cards {
                return Err(Illegal(format!(
                    "the cards {} are not the play {m}",
                    physical::identities(named)
                )));
            }
            let hand = &self.core.hands[self.core.to_act];
            let wanted = Hand::of(named);
            if let Some(c) = named.iter().find(|c| wanted.holds(**c) > hand.holds(**c)) {
                return Err(Illegal(format!(
                    "seat {} does not hold {c}",
                    self.core.to_act
                )));
            }
        }
        self.take(action, named);
        Ok(())
    }

    /// The physical cards `text` names in the hand of the seat to act
    /// (`"9h9s"`; a rank without a suit is the lowest copy not yet named).
    pub fn name_cards(&self, text: &str) -> Result<Vec<Card>, Illegal> {
        let seat = self.core.to_act;
        let mut hand = self.core.hands[seat].clone();
        let mut out = Vec::new();
        for named in physical::parse_identities(text).map_err(Illegal)? {
            let card = match named.suit {
                Some(suit) => Card {
                    slot: named.slot,
                    suit,
                },
                None => {
                    let copy = (0..4u8)
                        .map(|suit| Card {
                            slot: named.slot,
                            suit,
                        })
                        .find(|&c| hand.holds(c) > 0);
                    copy.unwrap_or(Card {
                        slot: named.slot,
                        suit: 0,
                    })
                }
            };
            if hand.holds(card) == 0 {
                let shown = if named.suit.is_some() || !card.suited() {
                    card.to_string()
                } else {
                    crate::cards::SYMBOLS[card.slot as usize].to_string()
                };
                return Err(Illegal(format!("seat {seat} does not hold {shown}")));
            }
            hand.take(&deal::count(&[card]), &[card], &mut Vec::new());
            out.push(card);
        }
        Ok(out)
    }

    /// Take the `i`-th legal action of `legal_unordered()` (a chooser's
    /// pick: no check needed). Panics if `i` is out of range.
    #[inline(always)]
    pub fn apply_unordered(&mut self, i: usize) {
        let action = self.legal_unordered().get(i).expect("a legal index");
        self.take(action, &[]);
    }

    fn check(&self, action: &Action) -> Result<(), Illegal> {
        let t = &self.core;
        if t.phase == Phase::Over {
            return Err(Illegal("the deal is over".into()));
        }
        if self.legal_unordered().contains(action) {
            return Ok(());
        }
        let seat = t.to_act;
        match action {
            Action::Play(m) if t.phase == Phase::Play => {
                if !t.hands[seat].counts.contains(&m.cards) {
                    return Err(Illegal(format!("seat {seat} does not hold {}", m.cards)));
                }
                match &t.tricks.last {
                    None => Err(Illegal(format!("{m} is not a legal lead"))),
                    Some(last) => Err(Illegal(format!("{m} does not beat {last}"))),
                }
            }
            _ => Err(self.not_allowed(&format!("'{action}'"))),
        }
    }

    /// Do a legal action.
    #[inline(always)]
    fn take(&mut self, action: Action, named: &[Card]) {
        let seat = self.core.to_act;
        let start = self.cards.len() as u32;
        match action {
            Action::Play(m) => {
                let hand = &mut self.core.hands[seat];
                if self.recording || !named.is_empty() {
                    hand.take(&m.cards, named, &mut self.cards);
                } else {
                    let followed = self.family.plays_read_ranks();
                    hand.take_lowest(&m.cards, followed, &mut self.cards);
                }
                let range = start..self.cards.len() as u32;
                if self.recording {
                    self.actions.push(Taken {
                        seat,
                        action,
                        cards: range.clone(),
                    });
                    self.core.history.push((seat, action));
                }
                let t = &mut self.core;
                t.tricks.play(seat, m);
                let cards = &self.cards[range.start as usize..range.end as usize];
                self.family.on_play(t, seat, &m, cards);
                if t.phase != Phase::Over {
                    let out = if t.hands[seat].is_empty() {
                        Some(seat)
                    } else {
                        t.hands.iter().position(Hand::is_empty)
                    };
                    match out {
                        Some(winner) => {
                            let result = self.family.finish(t, winner);
                            t.end(result);
                        }
                        None => t.to_act = t.next(seat),
                    }
                }
                if !self.recording {
                    self.cards.truncate(start as usize);
                }
            }
            Action::Pass if self.core.phase == Phase::Play => {
                self.log(seat, action);
                let t = &mut self.core;
                t.tricks.pass();
                t.to_act = t.next(seat);
            }
            word => {
                self.log(seat, word);
                self.family.apply(&mut self.core, seat, word);
                if self.core.redeal {
                    self.start();
                    return;
                }
            }
        }
        self.refresh();
    }

    fn log(&mut self, seat: usize, action: Action) {
        if !self.recording {
            return;
        }
        let at = self.cards.len() as u32;
        self.actions.push(Taken {
            seat,
            action,
            cards: at..at,
        });
        self.core.history.push((seat, action));
    }

    /// Swap card `a` of place `pa` with card `b` of place `pb` (see
    /// `place`). For secrecy tests: a seat's observation must not
    /// change when cards it cannot see move.
    #[doc(hidden)]
    pub fn swap_cards(&mut self, pa: usize, a: Card, pb: usize, b: Card) -> Result<(), String> {
        self.remove_from(pa, a)?;
        if let Err(e) = self.remove_from(pb, b) {
            self.add_to(pa, a);
            return Err(e);
        }
        self.add_to(pa, b);
        self.add_to(pb, a);
        self.refresh();
        Ok(())
    }

    /// Places for `swap_cards`: 0..players are hands, then the kitty, then
    /// the cards set aside.
    fn place(&mut self, place: usize) -> Option<&mut Vec<Card>> {
        let n = self.core.players();
        if place == n {
            Some(&mut self.core.kitty)
        } else if place == n + 1 {
            self.deals.last_mut().map(|d| &mut d.set_aside)
        } else {
            None
        }
    }

    fn remove_from(&mut self, place: usize, c: Card) -> Result<(), String> {
        if place < self.core.players() {
            let hand = &mut self.core.hands[place];
            if hand.holds(c) == 0 {
                return Err(format!("seat {place} does not hold {c}"));
            }
            hand.take(&deal::count(&[c]), &[c], &mut Vec::new());
            return Ok(());
        }
        let cards = self.place(place).ok_or(format!("no place {place}"))?;
        let at = cards
            .iter()
            .position(|x| *x == c)
            .ok_or(format!("{c} is not there"))?;
        cards.remove(at);
        Ok(())
    }

    fn add_to(&mut self, place: usize, c: Card) {
        if place < self.core.players() {
            self.core.hands[place].add(&[c]);
        } else if let Some(cards) = self.place(place) {
            cards.push(c);
            cards.sort_unstable();
        }
    }

    // ---- what a seat may see ---------------------------------------------

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

    /// The same, its `hand`, `history` and `roles` left empty: the bindings
    /// spell the seat's own hand only when it changed, render the history
    /// from cached texts (`visible_history`) and the roles from the family's
    /// `observe_ints` where it has them, rather than copy or build JSON at
    /// each step.
    pub fn observation_bare(&mut self, seat: usize) -> Observation {
        self.observe(seat, false)
    }

    fn observe(&mut self, seat: usize, full: bool) -> Observation {
        let with_legal = seat == self.core.to_act && self.core.phase != Phase::Over;
        let legal = with_legal.then(|| self.legal().iter().collect());
        let t = &self.core;
        let f = self.family.as_ref();
        let mut roles = Map::new();
        if full {
            f.observe(t, seat, &mut roles);
        }
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
    /// The family's roles (`landlord`, `bid`, ...).
    pub roles: Map<String, Value>,
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
        out.extend(self.roles.clone());
        if let Some(legal) = &self.legal {
            let words: Vec<Value> = legal.iter().map(|a| a.to_string().into()).collect();
            out.insert("legal_actions".into(), words.into());
        }
        Value::Object(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PRESETS;

    /// Play `t` out with choices drawn from `seed`; the actions taken.
    fn play_out(t: &mut Table, seed: u64) -> usize {
        let mut rng = Rng(seed);
        let mut steps = 0;
        while !t.is_over() {
            let n = t.legal_unordered().len();
            t.apply_unordered(rng.below(n));
            steps += 1;
        }
        steps
    }

    #[test]
    fn a_restarted_table_deals_and_plays_as_a_fresh_one() {
        // A restart refills the last deal's buffers (deal, cut, the
        // family's lists), recorded or not: nothing of an earlier deal may
        // show through in the next one.
        for preset in PRESETS {
            let engine = Arc::new(Engine::new(Rules::preset(preset).unwrap()).unwrap());
            let mut reused = Table::seeded(engine.clone(), 0, 0).unwrap();
            for index in 0..40 {
                let rng = Rng::for_game(3, index);
                let recorded = index % 3 != 1;
                match recorded {
                    true => reused.restart(rng.clone()),
                    false => reused.restart_unrecorded(rng.clone()),
                }
                let mut fresh = Table::new(engine.clone(), rng, Vec::new()).unwrap();
                let (a, b) = (reused.core(), fresh.core());
                let counts = |t: &Core| t.hands.iter().map(|h| h.counts).collect::<Vec<_>>();
                assert_eq!(counts(a), counts(b), "{preset} {index}");
                // (A deal played on counts keeps its kitty as dealt.)
                let kitty = |t: &Core| deal::count(&t.kitty);
                assert_eq!((a.phase, a.to_act, kitty(a)), (b.phase, b.to_act, kitty(b)));
                assert_eq!(reused.roles(), fresh.roles(), "{preset} {index}");
                if recorded {
                    let json = |t: &Table| t.deals().iter().map(Deal::to_json).collect::<Vec<_>>();
                    assert_eq!(json(&reused), json(&fresh), "{preset} {index}");
                }
                let steps = (play_out(&mut reused, index), play_out(&mut fresh, index));
                assert_eq!(steps.0, steps.1, "{preset} {index}");
                assert_eq!(reused.roles(), fresh.roles(), "{preset} {index}");
                let scores = |t: &Table| t.result().unwrap().scores.clone();
                assert_eq!(scores(&reused), scores(&fresh), "{preset} {index}");
                if recorded {
                    let (x, y) = (reused.result().unwrap(), fresh.result().unwrap());
                    assert_eq!(x.to_json(), y.to_json(), "{preset} {index}");
                }
            }
        }
    }
}
