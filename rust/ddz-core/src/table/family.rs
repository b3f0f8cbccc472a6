//! A family of presets: the hooks a flow implements, and the registry of
//! families by flow.

use super::roles::{Report, ReportColumn, RoleSpec, RoleValue};
use super::{five, five3, landlord, six_2v4, six_3v3};
use super::{Action, Card, Core, Cut, Deal, Rng, Settlement};
use crate::error::RulesError;
use crate::play::Move;
use crate::rules::{Flow, Rules};

/// A family of presets: how roles are chosen, who sees what, and how a deal
/// is scored. The table runs the trick play and calls these hooks; a family
/// changes the shared state only through [`Core`].
///
/// A new family is one file implementing this trait, a new [`Flow`] and
/// one arm in [`family_of`] (docs/table.md, docs/extending.md).
///
/// The hooks that say what a seat may know (`side_of`, `known_cards`,
/// `redeal_roles`, `visible`) have no default: a default right for a
/// family without secrets (keep the true roles, show every decision)
/// would hand a family with secrets' search or views what they must not
/// hold, and no compile error would say so. A family without secrets
/// writes the one-line answer, saying why it is right.
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

    /// The roles this family tells its seats (`roles.rs`), sorted by key:
    /// the order observations list them. The same for every moment of a
    /// rule set.
    fn role_specs(&self) -> &'static [RoleSpec];

    /// Each role's value as `viewer` may know it now, one per
    /// `role_specs()` entry, in that order, into `out` (cleared first).
    /// `viewer` None is the referee, who knows everything.
    fn role_values(&self, t: &Core, viewer: Option<usize>, out: &mut Vec<RoleValue>);

    /// The side `seat` plays on, as the referee knows it (seats on one
    /// side share the number), or None while the sides are not settled.
    /// A search's playouts read it on their samples, where every role is
    /// drawn (`redeal_roles`) and so may be read.
    fn side_of(&self, t: &Core, seat: usize) -> Option<u8>;

    /// Cards `seat` knows are in another seat's hidden hand (an unplayed
    /// marked copy with its announced holder), into `out` as (holder,
    /// card): a search's samples leave them there. None in a family
    /// without marked cards.
    fn known_cards(&self, t: &Core, seat: usize, out: &mut Vec<(usize, Card)>);

    /// A search's sample of what `seat` cannot see: the hidden places were
    /// just dealt again, consistently with what `seat` sees and with
    /// `known_cards`. Every role `seat` does not know is derived anew from
    /// these hands or drawn from `rng`, never read from the roles as they
    /// were (those are secret from `seat`); what `seat` knows stays. False
    /// when no roles fit these hands: the sampler deals again. Only a
    /// family whose roles are all public (`role_specs`' `seen` says
    /// everyone) may keep them as they are.
    fn redeal_roles(&mut self, t: &Core, seat: usize, rng: &mut Rng) -> bool;

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
    fn visible(&self, t: &Core, viewer: usize, seat: usize, action: &Action) -> bool;

    /// The columns `ddz.simulate` reports for this rule set, `landlord`
    /// first (one of the `reports` of its `FamilySpec`).
    fn report_columns(&self) -> &'static [ReportColumn];

    /// What the deal reports, once over: the values of `report_columns`.
    fn report(&self, out: &mut Report);
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
    /// Every column its rule sets may report to `ddz.simulate`.
    pub reports: &'static [ReportColumn],
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

/// The roles a rule set's family tells its seats, in observation order.
pub fn role_specs(rules: &Rules) -> &'static [RoleSpec] {
    (family_of(rules.flow).new)(rules).role_specs()
}

/// `ddz.simulate`'s role columns for `rules`, the same keys for every rule
/// set: every family's columns, in the registry's order, each as `rules`'
/// family reports it (its `Some(offset)` in the family's values) or, where
/// it does not, padded at the width of the first family that has it.
pub fn report_layout(rules: &Rules) -> Vec<(ReportColumn, Option<usize>)> {
    let own = (family_of(rules.flow).new)(rules).report_columns();
    let mut layout: Vec<(ReportColumn, Option<usize>)> = Vec::new();
    for flow in Flow::ALL {
        for column in family_of(flow).reports {
            if layout.iter().any(|(c, _)| c.key == column.key) {
                continue;
            }
            let mut at = 0;
            let mine = own.iter().find(|c| {
                let found = c.key == column.key;
                if !found {
                    at += c.width;
                }
                found
            });
            layout.push(match mine {
                Some(c) => (*c, Some(at)),
                None => (*column, None),
            });
        }
    }
    layout
}

/// Refuse a rule set its flow could not play to the end.
pub fn check_rules(rules: &Rules) -> Result<(), RulesError> {
    (family_of(rules.flow).check)(rules)
}

impl Rules {
    /// Refuse a rule set the engine or its flow could not play to the
    /// end, naming the option at fault. Here, beside the registry of
    /// families, so that the rule data reads nothing of the table.
    pub fn check(&self) -> Result<(), RulesError> {
        crate::engine::validate(self)?;
        check_rules(self)
    }
}

impl Clone for Box<dyn Family> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}
