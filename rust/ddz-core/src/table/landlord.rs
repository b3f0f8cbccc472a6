//! One landlord against the rest: classic, two-player, four-player, laizi.
//!
//! The presets differ only in `Rules` options this family reads: how the
//! landlord is chosen (`bidding`, `strong_hand_bids`), whether kicks follow
//! a bid of 3 (`kicks`, `kick_factor`), who sees the kitty
//! (`kitty_shown`) and which bombs double (`doubling_bomb`).

use super::auction::{AllPass, Auction, Ended, Procedure};
use super::roles::{ReportColumn, RoleSpec, RoleType, RoleValue};
use super::scoring::{spring_events, Event, Settlement};
use super::{Action, Card, Core, Deal, Family, FamilySpec, Phase, Report, Rng};
use crate::cards::{BIG_JOKER, SMALL_JOKER, TWO};
use crate::error::{in_range, RulesError};
use crate::play::{Kind, Move};
use crate::rules::{Bidding, Rules};

/// What `ddz.simulate` reports of a deal.
const REPORTS: [ReportColumn; 1] = [ReportColumn::seat("landlord", "the landlord")];

pub(super) static SPEC: FamilySpec = FamilySpec {
    name: "landlord",
    flow: crate::rules::Flow::OneLandlord,
    check,
    new,
    reports: &REPORTS,
};

fn bad(option: &'static str, why: &str) -> Result<(), RulesError> {
    Err(RulesError::Conflict {
        option,
        why: why.into(),
    })
}

/// The rule sets this family can play to the end.
fn check(rules: &Rules) -> Result<(), RulesError> {
    if rules.kicks && rules.bidding != Bidding::Once {
        return bad(
            "kicks",
            "kicks go to the seats that have not bid, which needs bidding \"once\"",
        );
    }
    in_range("kick_factor", rules.kick_factor.into(), 1, 16)?;
    // A rank bomb's size, in cards.
    let largest = rules.max_bomb().max(4);
    in_range(
        "doubling_bomb",
        rules.doubling_bomb.into(),
        4,
        largest.into(),
    )
}

fn new(rules: &Rules) -> Box<dyn Family> {
    let procedure = match rules.bidding {
        Bidding::Rounds => Procedure::Rounds,
        Bidding::Call => Procedure::Call,
        Bidding::Once => Procedure::Once,
    };
    Box::new(Landlord {
        procedure,
        auction: Auction::new(procedure, rules.players as usize, 0, AllPass::Redeal),
        landlord: None,
        kickers: Vec::new(),
        kicked: false,
        countering: false,
        winner: None,
    })
}

/// The roles every seat is told, sorted by key.
const ROLES: [RoleSpec; 2] = [
    RoleSpec {
        key: "bid",
        ty: RoleType::Count,
        doc: "the highest bid so far, which the deal is played for (none where the landlord is called)",
        seen: "everyone",
        label: ["bid", "叫分"],
    },
    RoleSpec {
        key: "landlord",
        ty: RoleType::Seat,
        doc: "the landlord, once the auction has named one",
        seen: "everyone",
        label: ["landlord", "地主"],
    },
];

#[derive(Clone)]
struct Landlord {
    procedure: Procedure,
    auction: Auction,
    landlord: Option<usize>,
    /// Seats still to choose whether to kick, in bidding order.
    kickers: Vec<usize>,
    kicked: bool,
    /// The landlord's answer to the kicks.
    countering: bool,
    winner: Option<usize>,
}

/// Holds the big joker with a 2 or with the small joker.
fn strong(t: &Core, seat: usize) -> bool {
    let h = &t.hands[seat].counts;
    h.get(BIG_JOKER) > 0 && (h.get(TWO) > 0 || h.get(SMALL_JOKER) > 0)
}

impl Landlord {
    fn chosen(&mut self, t: &mut Core, seat: usize, bid: u8, forced: bool) {
        self.landlord = Some(seat);
        let name = if forced { "forced-bid" } else { "bid" };
        t.events.push(Event::times(name, i64::from(bid)));
        if t.rules().kicks && bid == 3 {
            let bidders = self.auction.bidders;
            let mut order: Vec<usize> = self.auction.order().collect();
            order.retain(|&s| bidders >> s & 1 == 0);
            order.reverse(); // popped from the end
            self.kickers = order;
            if let Some(first) = self.kickers.pop() {
                t.phase = Phase::Kick;
                t.to_act = first;
                return;
            }
        }
        self.begin(t);
    }

    fn begin(&mut self, t: &mut Core) {
        let landlord = self.landlord.expect("a landlord before play");
        t.give_kitty(landlord);
        t.begin_play(landlord);
    }
}

impl Family for Landlord {
    fn clone_box(&self) -> Box<dyn Family> {
        Box::new(self.clone())
    }

    fn start(&mut self, t: &mut Core, deal: &Deal) {
        let n = t.players();
        let all_pass = if t.rules().strong_hand_bids {
            AllPass::FirstFlagged((0..n).filter(|&s| strong(t, s)).fold(0, |m, s| m | 1 << s))
        } else {
            AllPass::Redeal
        };
        self.auction = Auction::new(self.procedure, n, deal.first, all_pass);
        self.landlord = None;
        self.kickers.clear();
        self.kicked = false;
        self.countering = false;
        self.winner = None;
        t.phase = Phase::Bid;
        t.to_act = deal.first;
    }

    fn legal(&self, t: &Core, out: &mut Vec<Action>) {
        match t.phase {
            Phase::Bid => self.auction.legal(t.to_act, out),
            _ if self.countering => {
                out.extend([Action::CounterKick(true), Action::CounterKick(false)])
            }
            _ => out.extend([Action::Kick(true), Action::Kick(false)]),
        }
    }

    fn apply(&mut self, t: &mut Core, seat: usize, action: Action) {
        match t.phase {
            Phase::Bid => {
                self.auction.apply(seat, action);
                match self.auction.ended {
                    None => t.to_act = t.next(seat),
                    Some(Ended::Redeal) => t.redeal(),
                    Some(Ended::Taken { seat, bid, forced }) => self.chosen(t, seat, bid, forced),
                }
            }
            _ if !self.countering => {
                if action == Action::Kick(true) {
                    self.kicked = true;
                    t.events
                        .push(Event::times("kick", i64::from(t.rules().kick_factor)));
                }
                if let Some(next) = self.kickers.pop() {
                    t.to_act = next;
                } else if self.kicked {
                    self.countering = true;
                    t.to_act = self.landlord.expect("kicks follow a landlord");
                } else {
                    self.begin(t);
                }
            }
            _ => {
                if action == Action::CounterKick(true) {
                    let factor = i64::from(t.rules().kick_factor);
                    t.events.push(Event::times("counter-kick", factor));
                }
                self.begin(t);
            }
        }
    }

    fn on_play(&mut self, t: &mut Core, _seat: usize, m: &Move, _cards: &[Card]) {
        match m.kind {
            Kind::KingBomb => t.events.push(Event::times("rocket", 2)),
            Kind::Bomb if m.length >= t.rules().doubling_bomb => {
                t.events.push(Event::times("bomb", 2))
            }
            _ => {}
        }
    }

    fn finish(&mut self, t: &Core, winner: usize) -> Settlement {
        let landlord = self.landlord.expect("a landlord before play");
        let won = winner == landlord;
        self.winner = Some(winner);
        let mut events = t.events.clone();
        events.extend(spring_events(t.rules(), &t.tricks, &[landlord], won));
        Settlement::one_landlord(t.players(), landlord, won, events)
    }

    fn role_specs(&self) -> &'static [RoleSpec] {
        &ROLES
    }

    fn role_values(&self, _t: &Core, _viewer: Option<usize>, out: &mut Vec<RoleValue>) {
        // A call carries no bid; a bid of 0 is no bid yet.
        let bid = self.procedure != Procedure::Call && self.auction.bid > 0;
        out.clear();
        out.push(match bid {
            true => RoleValue::Count(self.auction.bid.into()),
            false => RoleValue::Unknown,
        });
        out.push(self.landlord.into());
    }

    fn counts_suffice(&self) -> bool {
        true
    }

    fn side_of(&self, _t: &Core, seat: usize) -> Option<u8> {
        self.landlord.map(|l| u8::from(l == seat))
    }

    fn known_cards(&self, _t: &Core, _seat: usize, _out: &mut Vec<(usize, Card)>) {
        // No marked cards: a hidden hand holds no card known to be there.
    }

    fn redeal_roles(&mut self, _t: &Core, _seat: usize, _rng: &mut Rng) -> bool {
        true // every role (the bid, the landlord) is public
    }

    fn kitty_seen_by(&self, t: &Core, seat: usize) -> bool {
        t.kitty_given && (t.rules().kitty_shown || Some(seat) == self.landlord)
    }

    fn visible(&self, _t: &Core, _viewer: usize, _seat: usize, _action: &Action) -> bool {
        true // every decision is public
    }

    fn report_columns(&self) -> &'static [ReportColumn] {
        &REPORTS
    }

    fn report(&self, out: &mut Report) {
        let landlord = self.landlord.unwrap_or(0);
        out.landlord_won = self.winner == Some(landlord);
        out.values.clear();
        out.seat(Some(landlord));
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Rng, Table};
    use super::*;
    use crate::engine::Engine;
    use std::sync::Arc;

    fn table(preset: &str, seed: u64) -> Table {
        let e = Arc::new(Engine::new(Rules::preset(preset).unwrap()).unwrap());
        Table::seeded(e, seed, 0).unwrap()
    }

    #[test]
    fn every_preset_plays_to_a_zero_sum_result() {
        for preset in SPEC.flow.presets() {
            for seed in 0..20 {
                let mut t = table(preset, seed);
                let mut rng = Rng(seed);
                while !t.is_over() {
                    let n = t.legal().len();
                    let a = t.legal().get(rng.below(n)).unwrap();
                    t.apply(a).unwrap();
                }
                let r = t.result().unwrap();
                assert_eq!(r.scores.iter().sum::<i64>(), 0, "{preset}");
                assert!(r.multiplier >= 1);
            }
        }
    }

    #[test]
    fn an_illegal_action_changes_nothing() {
        let mut t = table("classic", 1);
        let before = (t.phase(), t.to_act(), t.actions().len());
        let err = t.apply(Action::Kick(true)).unwrap_err();
        assert!(err.0.contains("'kick' is not allowed"), "{err}");
        assert_eq!(before, (t.phase(), t.to_act(), t.actions().len()));
    }
}
