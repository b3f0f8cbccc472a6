//! The table: one deal of any preset as a steppable state machine.
//!
//! A [`Table`] is made from a rule set and a deal (given, or drawn from a
//! seeded generator). It answers its [`Phase`], the seat to act, the legal
//! actions, the observation of any seat and, once over, the result;
//! [`Table::apply`] takes one action and refuses an illegal one without
//! changing anything. `ddz.Game`, `ddz.simulate` and the batched
//! environments all run on it (docs/table.md).
//!
//! This file holds the table itself: setting up, dealing and listing the
//! legal actions of each moment. Beside it, one job a file: the shared
//! state families change (`core.rs`), the family hooks and their registry
//! (`family.rs`), taking an action (`acting.rs`), what a seat may see
//! (`observation.rs`), moving hidden cards for secrecy tests (`swap.rs`),
//! drawing the next deal (`dealer.rs`); dealing (`deal.rs`), auctions
//! (`auction.rs`), trick play (`tricks.rs`), scoring (`scoring.rs`),
//! physical cards (`physical.rs`). What differs between presets is a
//! [`Family`]: one file per flow (`Rules::flow`, e.g. `landlord.rs`),
//! registered in [`family_of`]. Within a family a preset is data: the
//! `Rules` options the family reads.

mod acting;
pub mod action;
pub mod action_table;
pub mod auction;
mod auto_win;
mod core;
pub mod deal;
mod dealer;
mod family;
mod five;
mod five3;
pub mod from_view;
pub(crate) use five3::grab_order;
mod landlord;
pub mod marked;
mod observation;
pub mod physical;
mod position;
pub mod record;
mod resolve;
pub mod roles;
mod sampled;
pub mod scoring;
mod six;
mod six_2v4;
mod six_3v3;
mod swap;
pub mod tricks;

pub use self::core::Core;
pub use action::{Action, Phase};
pub use action_table::ActionTable;
pub use deal::{Cut, Deal, Rng};
pub use family::{check_rules, family_of, report_layout, role_specs, Family, FamilySpec};
pub use observation::{Legal, Observation};
pub use physical::{Card, Hand};
pub use position::SolverPosition;
pub use record::{Record, RecordError};
pub use roles::{Report, ReportColumn, RoleSpec, RoleType, RoleValue};
pub use sampled::Redeal;
pub use scoring::{Event, Settlement};

use crate::engine::Engine;
use crate::play::Move;
use crate::rules::Rules;
use dealer::{Dealer, Mode};
use serde_json::Value;
use std::fmt;
use std::sync::Arc;
use tricks::Tricks;

/// An action the table refused, and why; the table is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal(pub String);

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Illegal {}

/// One action as records keep it: the seat, the action and, for a play,
/// the physical cards that left the hand (`cards` indexes `Table::cards`).
#[derive(Clone, Debug)]
pub struct Taken {
    pub seat: usize,
    pub action: Action,
    pub cards: std::ops::Range<u32>,
}

/// One deal on the table. See the module docs.
#[derive(Clone)]
pub struct Table {
    core: Core,
    family: Box<dyn Family>,
    dealer: Dealer,
    deals: Vec<Deal>,
    actions: Vec<Taken>,
    /// The physical cards of every play in `actions`.
    cards: Vec<Card>,
    /// The legal plays (play phase) and words of the current moment.
    plays: Vec<Move>,
    words: Vec<Action>,
    /// Are `plays` in hint order (the order `Game` lists them)?
    ordered: bool,
    /// Scratch for putting `plays` in hint order (kept from moment to
    /// moment, so that ordering allocates nothing).
    order_keys: Vec<((u64, u128), u32)>,
    order_plays: Vec<Move>,
    /// Times the cards were dealt again (everyone passed) since the
    /// table was set up or restarted.
    redeals: u32,
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
        let n = rules.players as usize;
        for deal in &given {
            // (A deal parsed from JSON is checked so already; one built in
            // Rust may not be.)
            if deal.hands.len() != n || deal.first >= n {
                return Err(SetupError(format!(
                    "a deal needs {n} hands and a first seat 0..{}",
                    n - 1
                )));
            }
            family
                .check_deal(rules, deal)
                .map_err(|e| SetupError(e.to_string()))?;
        }
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
            dealer: Dealer::new(rules, rng, given),
            deals: Vec::new(),
            actions: Vec::with_capacity(room),
            cards: Vec::with_capacity(rules.deck_size()),
            plays: Vec::with_capacity(256),
            words: Vec::with_capacity(8),
            ordered: false,
            order_keys: Vec::with_capacity(256),
            order_plays: Vec::with_capacity(256),
            redeals: 0,
        };
        table.start();
        Ok(table)
    }

    /// Start over with a fresh deal drawn from `rng`, forgetting the record
    /// but keeping the buffers (a simulation plays many deals on one table).
    pub fn restart(&mut self, rng: Rng) {
        self.restart_as(rng, Mode::Recorded);
    }

    /// As `restart`, keeping no record of the new deal: `actions()` and
    /// `Core::history` stay empty, `deals()` holds only the deal being
    /// played and, where the family's counts suffice, the deal is dealt and
    /// followed as counts only (no suits, nothing sorted). For `ddz.simulate`, which
    /// reads only the result: every log push and physical card it skips
    /// is work and memory traffic at every step. The result is the same as
    /// `restart`'s; observations of such a table are not meaningful.
    pub(crate) fn restart_unrecorded(&mut self, rng: Rng) {
        let mode = match self.family.counts_suffice() {
            true => Mode::Counted,
            false => Mode::Unrecorded,
        };
        self.restart_as(rng, mode);
    }

    fn restart_as(&mut self, rng: Rng, mode: Mode) {
        self.dealer.restart(rng, mode, &mut self.deals);
        self.actions.clear();
        self.cards.clear();
        self.redeals = 0;
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
        if self.dealer.next_is_counted() {
            return self.start_counted();
        }
        let deal = self.dealer.next(self.core.rules(), self.family.as_mut());
        let t = &mut self.core;
        for (hand, cards) in t.hands.iter_mut().zip(&deal.hands) {
            *hand = Hand::of(cards);
        }
        t.kitty.clone_from(&deal.kitty);
        t.new_deal();
        self.family.start(t, &deal);
        if !self.dealer.is_recording() {
            self.dealer.take_back(&mut self.deals);
        }
        self.deals.push(deal);
        self.refresh();
    }

    /// As `start` with a fresh deal, for a family whose counts suffice:
    /// the hands are counted straight from the dealer's cut, without
    /// suits, and the deal kept is its first seat alone.
    fn start_counted(&mut self) {
        let (first, cut) = self.dealer.next_counted();
        let t = &mut self.core;
        for (seat, hand) in t.hands.iter_mut().enumerate() {
            *hand = Hand::counted(cut.hand(seat));
        }
        t.kitty.clear();
        t.kitty.extend_from_slice(cut.kitty());
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

    /// How many times the cards have been dealt again (everyone passed
    /// the auction) since the table was set up or restarted.
    pub fn redeals(&self) -> u32 {
        self.redeals
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
        self.order_legal();
        self.legal_unordered()
    }

    /// Put this moment's plays in hint order, the order `Game`, `VecEnv`
    /// and the adapters list them in: a stable sort by `hint_key`, done
    /// as a sort of packed integers (`Engine::hint_rank`, with the place
    /// as the tie-break) in buffers kept from moment to moment.
    pub fn order_legal(&mut self) {
        if self.ordered {
            return;
        }
        self.ordered = true;
        if self.plays.len() < 2 {
            return;
        }
        let e = &self.core.engine;
        self.order_keys.clear();
        let ranked = self.plays.iter().enumerate();
        self.order_keys
            .extend(ranked.map(|(i, m)| (e.hint_rank(m), i as u32)));
        // Follows come out of the generator in hint order already (one
        // kind, ranks ascending, then the bombs): nothing to move.
        if self.order_keys.is_sorted() {
            return;
        }
        self.order_keys.sort_unstable();
        self.order_plays.clear();
        let plays = &self.plays;
        self.order_plays
            .extend(self.order_keys.iter().map(|&(_, i)| plays[i as usize]));
        std::mem::swap(&mut self.plays, &mut self.order_plays);
    }

    /// Are the plays of `legal_unordered()` in hint order now?
    pub fn is_ordered(&self) -> bool {
        self.ordered
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

    /// What the deal reports to `ddz.simulate` (meaningful once over).
    pub fn report(&self) -> Report {
        let mut out = Report::default();
        self.family.report(&mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PRESETS;

    #[test]
    fn each_flow_has_its_family() {
        for flow in crate::rules::Flow::ALL {
            assert_eq!(family_of(flow).flow, flow);
        }
    }

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
    fn plays_are_ordered_as_a_stable_sort_by_the_hint_key() {
        // Every moment of random deals of every preset (leads of whole
        // hands, laizi readings, multi-deck bombs): the packed sort must
        // list the plays exactly as a stable sort by `hint_key` does.
        for preset in PRESETS {
            let engine = Arc::new(Engine::new(Rules::preset(preset).unwrap()).unwrap());
            let mut t = Table::seeded(engine.clone(), 11, 0).unwrap();
            let mut rng = Rng(4);
            for game in 0..12 {
                t.restart(Rng::for_game(8, game));
                while !t.is_over() {
                    let mut want = t.legal_unordered().plays.to_vec();
                    want.sort_by_cached_key(|m| engine.hint_key(m));
                    assert_eq!(t.legal().plays, &want[..], "{preset} {game}");
                    let n = t.legal_unordered().len();
                    t.apply_unordered(rng.below(n));
                }
            }
        }
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
                assert_eq!(reused.report(), fresh.report(), "{preset} {index}");
                if recorded {
                    let json = |t: &Table| t.deals().iter().map(Deal::to_json).collect::<Vec<_>>();
                    assert_eq!(json(&reused), json(&fresh), "{preset} {index}");
                }
                let steps = (play_out(&mut reused, index), play_out(&mut fresh, index));
                assert_eq!(steps.0, steps.1, "{preset} {index}");
                assert_eq!(reused.report(), fresh.report(), "{preset} {index}");
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
