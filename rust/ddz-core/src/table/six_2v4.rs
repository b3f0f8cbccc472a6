//! Four decks, six players, two marked cards: `six-player-2v4` (新六人) and
//! `six-player-teams` (正反六人); docs/flow-six-player-2v4.md and
//! docs/flow-six-player-teams.md.
//!
//! Two dealt copies are marked: the public mark (its holder is known at
//! once) and the secret mark. The first landlord is picked by one round of
//! bids from the public-mark holder (`landlord_bidding`; nobody bids: the
//! holder), or is that holder; the secret-mark holder is the second. Then
//! either both landlords play against the four farmers, or the farmers pick
//! a side, three against three (`farmers_pick_sides`). One seat holding
//! both marks plays alone with the whole kitty. The kitty is shared
//! (`kitty_split`), the auto-win checks run (`auto_win`), the landlords
//! choose whether to show their hands, and the trick play follows.
//!
//! The stake is additive: N starts at 1 and each event adds to it.

use super::auction::{AllPass, Auction, Ended, Procedure};
use super::auto_win::BombTables;
use super::physical::{parse_identities, push_card, Card};
use super::roles::{ReportColumn, RoleSpec, RoleType, RoleValue, Seats};
use super::scoring::{spring_events, stake, Event, Settlement};
use super::six::Shares;
use super::{Action, Core, Cut, Deal, Family, FamilySpec, Phase, Report, Rng};
use crate::cards::{Cards, BIG_JOKER, LAIZI, SMALL_JOKER};
use crate::error::RulesError;
use crate::play::{Kind, Move};
use crate::py_words::py_repr;
use crate::rules::{KittySplit, Rules};
use serde_json::{json, Map, Value};
use std::fmt::Write;
use std::sync::Arc;

/// What `ddz.simulate` reports of a six-player-2v4 deal, and of a
/// six-player-teams deal.
const REPORTS_2V4: [ReportColumn; 2] = [
    ReportColumn::seat("landlord", "the big landlord"),
    ReportColumn::seat("second_landlord", "the secret mark's holder"),
];
const REPORTS_TEAMS: [ReportColumn; 2] = [
    ReportColumn::seat("landlord", "the main landlord"),
    ReportColumn::seat(
        "counter_landlord",
        "the counter landlord (-1 for a solo deal)",
    ),
];
/// Every column the family may report.
const REPORTS: [ReportColumn; 3] = [REPORTS_2V4[0], REPORTS_2V4[1], REPORTS_TEAMS[1]];

pub(super) static SPEC: FamilySpec = FamilySpec {
    name: "six-marked",
    flow: crate::rules::Flow::TwoMarks,
    check,
    new,
    reports: &REPORTS,
};

/// The rule sets this family can play to the end.
fn check(rules: &Rules) -> Result<(), RulesError> {
    super::six::common(rules)?;
    let bad = super::six::bad;
    if rules.decks != 4 {
        return bad(
            "decks",
            format!(
                "{} decks: the marked-card flow counts its joker events out of eight jokers, so it needs 4 decks",
                rules.decks
            ),
        );
    }
    if !rules.kitty.is_multiple_of(2) {
        return bad(
            "kitty",
            format!(
                "{} cards cannot be shared equally by two landlords",
                rules.kitty
            ),
        );
    }
    if rules.farmers_pick_sides && rules.anti_spring {
        return bad(
            "anti_spring",
            "a farmer leads when the farmers pick sides, so no side is the landlord that made the first lead".into(),
        );
    }
    Ok(())
}

fn new(rules: &Rules) -> Box<dyn Family> {
    let roles: &'static [RoleSpec] = match (rules.farmers_pick_sides, rules.landlord_bidding) {
        (false, _) => &TWO_V_FOUR,
        (true, false) => &TEAMS,
        (true, true) => &TEAMS_BIDDING,
    };
    let reports: &'static [ReportColumn] = match rules.farmers_pick_sides {
        false => &REPORTS_2V4,
        true => &REPORTS_TEAMS,
    };
    Box::new(Marked {
        procedure: rules.landlord_bidding.then(|| super::six::procedure(rules)),
        roles,
        reports,
        ..Marked::default()
    })
}

const AUTO_WIN: RoleSpec = RoleSpec {
    key: "auto_win",
    ty: RoleType::SeatReason,
    doc: "a seat that won the deal outright from its hand before play, and why",
    seen: "everyone",
    label: ["won outright", "直接获胜"],
};
const BID: RoleSpec = RoleSpec {
    key: "bid",
    ty: RoleType::Count,
    doc: "the highest bid (0 before any, and where no auction is held)",
    seen: "everyone",
    label: ["bid", "叫分"],
};
const DEAD_CARD: RoleSpec = RoleSpec {
    key: "dead_card",
    ty: RoleType::SeatCard,
    doc:
        "the card whose holder plays as a farmer though it was marked (a dead mark), and that seat",
    seen: "everyone",
    label: ["dead card", "死牌"],
};
const KITTY_SHARE: RoleSpec = RoleSpec {
    key: "kitty_share",
    ty: RoleType::Cards,
    doc: "the kitty cards this seat took",
    seen: "the seat itself",
    label: ["your kitty share", "你分到的底牌"],
};
const LANDLORDS: RoleSpec = RoleSpec {
    key: "landlords",
    ty: RoleType::Seats,
    doc: "the landlords, the first then (unless solo) the second",
    seen: "everyone",
    label: ["landlord", "地主"],
};
const PUBLIC_MARK: RoleSpec = RoleSpec {
    key: "public_mark",
    ty: RoleType::SeatCard,
    doc: "the public mark and the seat holding that copy",
    seen: "everyone",
    label: ["public mark", "明牌"],
};
const SECRET_MARK: RoleSpec = RoleSpec {
    key: "secret_mark",
    ty: RoleType::SeatCard,
    doc: "the secret mark and the seat holding that copy",
    seen: "everyone once the deal is over",
    label: ["secret mark", "暗牌"],
};
const SHOWN: RoleSpec = RoleSpec {
    key: "shown",
    ty: RoleType::Seats,
    doc: "the seats that showed their hand",
    seen: "everyone",
    label: ["showed hand", "亮牌"],
};
const SOLO: RoleSpec = RoleSpec {
    key: "solo",
    ty: RoleType::Flag,
    doc: "the first landlord holds both marks and plays alone",
    seen: "everyone, once the first landlord is known",
    label: ["solo", "独打"],
};

/// Six-player-2v4's roles, sorted by key.
const TWO_V_FOUR: [RoleSpec; 11] = [
    AUTO_WIN,
    BID,
    RoleSpec {
        key: "big_landlord",
        ty: RoleType::Seat,
        doc: "the first landlord: the public mark's holder, or the auction's winner",
        seen: "everyone",
        label: ["big landlord", "大地主"],
    },
    DEAD_CARD,
    KITTY_SHARE,
    LANDLORDS,
    PUBLIC_MARK,
    RoleSpec {
        key: "second_landlord",
        ty: RoleType::Seat,
        doc: "the second landlord: the secret mark's holder (none when solo)",
        seen: "everyone, once it has become known",
        label: ["second landlord", "二地主"],
    },
    SECRET_MARK,
    SHOWN,
    SOLO,
];

const MAIN_LANDLORD: RoleSpec = RoleSpec {
    key: "main_landlord",
    ty: RoleType::Seat,
    doc: "the main side's landlord: the public mark's holder, or the auction's winner",
    seen: "everyone",
    label: ["main landlord", "正地主"],
};
const COUNTER_LANDLORD: RoleSpec = RoleSpec {
    key: "counter_landlord",
    ty: RoleType::Seat,
    doc: "the counter side's landlord: the secret mark's holder (none when solo)",
    seen: "everyone, once it has become known",
    label: ["counter landlord", "反地主"],
};
const SIDE: RoleSpec = RoleSpec {
    key: "side",
    ty: RoleType::Word,
    doc: "this seat's side, main or counter, once it has one",
    seen: "the seat itself",
    label: ["side", "阵营"],
};
const SIDES: RoleSpec = RoleSpec {
    key: "sides",
    ty: RoleType::Sides,
    doc: "every seat of each side",
    seen: "everyone once the deal is over",
    label: ["sides", "阵营"],
};
const TEAM: RoleSpec = RoleSpec {
    key: "team",
    ty: RoleType::Seats,
    doc: "the seats this seat knows are on its side, itself included, sorted",
    seen: "the seat itself",
    label: ["teammate", "队友"],
};

/// Six-player-teams' roles, sorted by key (with `bid` where the first
/// landlord is bid for).
const TEAMS: [RoleSpec; 13] = [
    AUTO_WIN,
    COUNTER_LANDLORD,
    DEAD_CARD,
    KITTY_SHARE,
    LANDLORDS,
    MAIN_LANDLORD,
    PUBLIC_MARK,
    SECRET_MARK,
    SHOWN,
    SIDE,
    SIDES,
    SOLO,
    TEAM,
];
const TEAMS_BIDDING: [RoleSpec; 14] = [
    AUTO_WIN,
    BID,
    COUNTER_LANDLORD,
    DEAD_CARD,
    KITTY_SHARE,
    LANDLORDS,
    MAIN_LANDLORD,
    PUBLIC_MARK,
    SECRET_MARK,
    SHOWN,
    SIDE,
    SIDES,
    SOLO,
    TEAM,
];

/// The first landlord's side (true) or the other (false), by seat.
type Side = bool;

#[derive(Clone, Default)]
struct Marked {
    procedure: Option<Procedure>,
    /// The roles of this rule set (`TWO_V_FOUR` or `TEAMS...`), and what
    /// it reports.
    roles: &'static [RoleSpec],
    reports: &'static [ReportColumn],
    public: (Card, usize),
    secret: (Card, usize),
    auction: Option<Auction>,
    /// The first landlord then, unless solo, the second.
    landlords: Vec<usize>,
    solo: Option<bool>,
    /// Each landlord's kitty share.
    shares: Shares,
    to_show: Vec<usize>,
    showed: Vec<usize>,
    show_done: bool,
    dead: Option<(usize, Card)>,
    auto_win: Option<(usize, &'static str)>,
    /// Farmers in picking order, and each seat's pick (true: the counter side).
    order: Vec<usize>,
    picks: [Option<bool>; 8],
    winning_side: Option<Side>,
    /// The marks `deal` drew, for the `start` that follows (a given deal
    /// is read from its keys instead).
    drawn: Option<[(Card, usize); 2]>,
    /// The auto-win checks' tables, made at the first check: they depend
    /// on the rule set alone.
    tables: Option<Arc<BombTables>>,
    /// A landlord's leads, listed by the auto-win checks.
    leads: Vec<Move>,
}

impl Marked {
    /// Forget the last deal's roles for a deal with these marks, keeping
    /// the lists' buffers and the rule set's tables (every field is named,
    /// so a new one cannot be left out).
    fn reset(&mut self, public: (Card, usize), secret: (Card, usize)) {
        let Marked {
            procedure: _,
            roles: _,
            reports: _,
            public: mark,
            secret: second,
            auction,
            landlords,
            solo,
            shares,
            to_show,
            showed,
            show_done,
            dead,
            auto_win,
            order,
            picks,
            winning_side,
            drawn,
            tables: _,
            leads: _,
        } = self;
        (*mark, *second) = (public, secret);
        landlords.clear();
        shares.clear();
        to_show.clear();
        showed.clear();
        order.clear();
        (*auction, *solo, *show_done, *dead) = (None, None, false, None);
        (*auto_win, *picks, *winning_side, *drawn) = (None, [None; 8], None, None);
    }

    /// A secret mark drawn again for a search's sample, before anyone
    /// learns it: any dealt copy but the public mark, uniformly.
    fn draw_secret(&self, t: &Core, rng: &mut Rng) -> (Card, usize) {
        let dealt: usize = t.hands.iter().map(|h| h.len()).sum();
        loop {
            let mut at = rng.below(dealt);
            let (seat, hand) = t
                .hands
                .iter()
                .enumerate()
                .find(|(_, h)| {
                    let here = at < h.len();
                    if !here {
                        at -= h.len();
                    }
                    here
                })
                .expect("a dealt card");
            let card = hand.cards()[at];
            // One copy of the public mark at its holder is taken.
            let public_copy = (card, seat) == self.public && hand.holds(card) == 1;
            if !public_copy {
                return (card, seat);
            }
        }
    }

    fn teams(t: &Core) -> bool {
        t.rules().farmers_pick_sides
    }

    fn sides_done(&self, t: &Core) -> bool {
        !Self::teams(t)
            || self.solo == Some(true)
            || self.picks.iter().flatten().count() == self.order.len()
    }

    /// Is `seat` on the first landlord's side?
    fn first_side(&self, t: &Core, seat: usize) -> Side {
        let first = self.landlords.first() == Some(&seat);
        if !Self::teams(t) {
            return self.landlords.contains(&seat);
        }
        if first || self.solo == Some(true) {
            return first;
        }
        if self.landlords.get(1) == Some(&seat) {
            return false;
        }
        self.picks[seat] == Some(false)
    }

    /// `seat`'s side as it knows it (true: the counter side) and the team
    /// it knows it plays in, in six-player-teams.
    fn side_and_team(&self, t: &Core, seat: usize) -> (Option<bool>, Option<Vec<usize>>) {
        let (main, counter) = (
            self.landlords.first().copied(),
            self.landlords.get(1).copied(),
        );
        if self.solo == Some(true) {
            let team = if main == Some(seat) {
                vec![seat]
            } else {
                (0..t.players()).filter(|&s| Some(s) != main).collect()
            };
            (None, Some(team))
        } else if self.landlords.contains(&seat) {
            let mine = self.first_side(t, seat);
            let team = if self.sides_done(t) {
                self.side_seats(t, mine)
            } else {
                vec![seat]
            };
            (Some(!mine), Some(team))
        } else if let Some(counter_side) = self.picks[seat] {
            let leader = if counter_side { counter } else { main };
            let leader = leader.expect("a landlord of each side");
            let mut team = vec![seat, leader];
            team.sort_unstable();
            (Some(counter_side), Some(team))
        } else {
            (None, None)
        }
    }

    fn side_seats(&self, t: &Core, side: Side) -> Vec<usize> {
        (0..t.players())
            .filter(|&s| self.first_side(t, s) == side)
            .collect()
    }

    /// The first landlord is known: the second, the kitty, then the sides,
    /// the auto-win checks or the show-hand round.
    fn landlord_chosen(&mut self, t: &mut Core, first: usize) {
        let solo = self.secret.1 == first;
        self.solo = Some(solo);
        self.landlords.clear();
        self.landlords.push(first);
        if !solo {
            self.landlords.push(self.secret.1);
        }
        let how = t.rules().kitty_split;
        self.shares.share(&t.kitty, &self.landlords, how);
        for (seat, share) in self.shares.iter() {
            t.give(*seat, share);
        }
        t.kitty_given = true;
        if Self::teams(t) && !solo {
            let n = t.players();
            let landlords = &self.landlords;
            self.order.clear();
            self.order.extend(
                (1..n)
                    .map(|i| (first + i) % n)
                    .filter(|s| !landlords.contains(s)),
            );
            t.phase = Phase::ChooseSide;
            t.to_act = self.order[0];
        } else {
            self.before_play(t);
        }
    }

    /// Every role is settled: the auto-win checks, else the show-hand round.
    fn before_play(&mut self, t: &mut Core) {
        if t.rules().auto_win {
            let tables = self
                .tables
                .get_or_insert_with(|| Arc::new(BombTables::new(t.engine())))
                .clone();
            for i in 0..self.landlords.len() {
                let seat = self.landlords[i];
                let hand = &t.hands[seat].counts;
                if let Some(reason) = tables.auto_win(t.engine(), hand, &mut self.leads) {
                    self.auto_win = Some((seat, reason));
                    t.to_act = seat;
                    let side = self.first_side(t, seat);
                    let result = self.settle(t, side, Vec::new());
                    t.end(result);
                    return;
                }
            }
        }
        self.to_show.clear();
        self.to_show.extend(self.landlords.iter().rev());
        t.phase = Phase::Show;
        t.to_act = *self.to_show.last().expect("a landlord");
    }

    fn leader(&self, t: &Core) -> usize {
        let n = t.players();
        let first = self.landlords[0];
        if !Self::teams(t) {
            return first;
        }
        let mut leader = (first + n - 1) % n;
        if self.landlords.get(1) == Some(&leader) {
            leader = (leader + n - 1) % n;
        }
        leader
    }

    fn shown(&self) -> Vec<usize> {
        if !self.show_done {
            return Vec::new();
        }
        let mut out: Vec<usize> = self.landlords.clone();
        out.retain(|s| self.showed.contains(s));
        out
    }

    /// The result when `side` won with these events.
    fn settle(&mut self, t: &Core, side: Side, events: Vec<Event>) -> Settlement {
        self.winning_side = Some(side);
        let n = t.players();
        let w = stake(&events);
        let solo = self.solo == Some(true);
        let teams = Self::teams(t);
        let scores = (0..n)
            .map(|s| {
                let sign = if self.first_side(t, s) == side { 1 } else { -1 };
                let weight = if solo {
                    if s == self.landlords[0] {
                        n as i64 - 1
                    } else {
                        1
                    }
                } else if teams {
                    if self.landlords.contains(&s) {
                        2
                    } else {
                        1
                    }
                } else if s == self.landlords[0] {
                    3
                } else {
                    1
                };
                sign * w * weight
            })
            .collect();
        let mut extra = Map::new();
        if teams {
            extra.insert("sides".into(), self.sides(t).to_json());
        } else {
            extra.insert("landlords".into(), json!(self.landlords));
        }
        if let Some(win) = self.auto_win {
            extra.insert(
                "auto_win".into(),
                RoleValue::SeatReason(win.0, win.1).to_json(),
            );
        }
        Settlement {
            winners: self.side_seats(t, side),
            scores,
            multiplier: w,
            events,
            extra,
        }
    }

    /// Every seat of each side, as the role `sides` gives it.
    fn sides(&self, t: &Core) -> RoleValue {
        let side = |main| Seats::of(&self.side_seats(t, main));
        RoleValue::Sides(side(true), side(false))
    }
}

/// A mark of a given deal, `"9h"` or `"9h@2"`: the card and the seat holding
/// the marked copy.
fn parse_mark(key: &str, value: Option<&Value>, deal: &Deal) -> Result<(Card, usize), String> {
    let Some(Value::String(text)) = value else {
        let shown = value.map_or("None".to_string(), py_repr);
        return Err(format!(
            "deal['{key}'] must be a card such as '9h' or '9h@2', not {shown}"
        ));
    };
    let (card_text, seat_text) = match text.split_once('@') {
        Some((c, s)) => (c, Some(s)),
        None => (text.as_str(), None),
    };
    let named = parse_identities(card_text)?;
    let card = match named[..] {
        [one] if one.suit.is_some() && one.slot as usize != LAIZI => Card {
            slot: one.slot,
            suit: one.suit.unwrap_or(0),
        },
        _ => {
            return Err(format!(
                "deal['{key}'] = '{text}' must name one card with its suit ('9h') or a joker ('X', 'D'), optionally followed by '@seat'"
            ))
        }
    };
    let holders: Vec<usize> = (0..deal.hands.len())
        .filter(|&s| deal.hands[s].contains(&card))
        .collect();
    if let Some(seat_text) = seat_text {
        let seat = seat_text
            .parse::<usize>()
            .ok()
            .filter(|&s| s < deal.hands.len() && seat_text.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| {
                format!(
                    "deal['{key}'] = '{text}': the seat after '@' must be 0..{}",
                    deal.hands.len() - 1
                )
            })?;
        if !holders.contains(&seat) {
            return Err(format!(
                "deal['{key}'] = '{text}': seat {seat} holds no {card}"
            ));
        }
        return Ok((card, seat));
    }
    match holders[..] {
        [seat] => Ok((card, seat)),
        _ => {
            let place = if holders.is_empty() {
                "no hand".to_string()
            } else {
                format!("seats {holders:?}")
            };
            Err(format!(
                "deal['{key}'] = '{text}': {card} is in {place}; name the holder as '{card}@seat'"
            ))
        }
    }
}

fn marks(deal: &Deal, preset: &str) -> Result<[(Card, usize); 2], String> {
    if !deal.extra.contains_key("marked") || !deal.extra.contains_key("secret") {
        return Err(format!(
            "a '{preset}' deal needs 'marked' and 'secret' cards"
        ));
    }
    let public = parse_mark("marked", deal.extra.get("marked"), deal)?;
    let secret = parse_mark("secret", deal.extra.get("secret"), deal)?;
    if public == secret
        && deal.hands[public.1]
            .iter()
            .filter(|&&c| c == public.0)
            .count()
            < 2
    {
        return Err(format!(
            "deal marks one {} of seat {} twice; the two marks are two different cards",
            public.0, public.1
        ));
    }
    Ok([public, secret])
}

impl Family for Marked {
    fn clone_box(&self) -> Box<dyn Family> {
        Box::new(self.clone())
    }

    fn deal_keys(&self) -> &'static [&'static str] {
        &["marked", "secret"]
    }

    /// A shuffled deal and two distinct dealt copies marked, uniformly: the
    /// public and the secret mark. `first` is the public mark's seat (for
    /// reading; the marks decide who acts).
    fn deal(&mut self, rules: &Rules, rng: &mut Rng, cut: &Cut, deal: &mut Deal) {
        let positions = cut.in_hands().len();
        let a = rng.below(positions);
        let mut b = rng.below(positions - 1);
        if b >= a {
            b += 1;
        }
        let (public, secret) = (cut.at(a), cut.at(b));
        cut.deal_into(public.1, rules.kitty_split == KittySplit::Snake, deal);
        for (key, (card, seat)) in [("marked", public), ("secret", secret)] {
            deal.set_text(key, |text| {
                push_card(text, card);
                write!(text, "@{seat}").expect("a string takes any text");
            });
        }
        self.drawn = Some([public, secret]);
    }

    fn check_deal(&self, rules: &Rules, deal: &Deal) -> Result<(), String> {
        marks(deal, &rules.preset).map(|_| ())
    }

    fn start(&mut self, t: &mut Core, deal: &Deal) {
        let drawn = self.drawn.take();
        let [public, secret] =
            drawn.unwrap_or_else(|| marks(deal, &t.rules().preset).expect("a checked deal"));
        self.reset(public, secret);
        match self.procedure {
            Some(procedure) => {
                let n = t.players();
                self.auction = Some(Auction::new(procedure, n, public.1, AllPass::Redeal));
                t.phase = Phase::Bid;
                t.to_act = public.1;
            }
            None => self.landlord_chosen(t, public.1),
        }
    }

    fn legal(&self, t: &Core, out: &mut Vec<Action>) {
        match t.phase {
            Phase::Bid => {
                let auction = self.auction.as_ref().expect("bidding");
                auction.legal(t.to_act, out);
            }
            Phase::ChooseSide => {
                // A side holding two farmers is full; the other is then the
                // only choice (a forced turn, so the turns tell nothing).
                for counter in [false, true] {
                    let taken = self.picks.iter().filter(|&&p| p == Some(counter)).count();
                    if taken < 2 {
                        out.push(Action::Side(counter));
                    }
                }
            }
            _ => out.extend([Action::Show(true), Action::Show(false)]),
        }
    }

    fn apply(&mut self, t: &mut Core, seat: usize, action: Action) {
        match t.phase {
            Phase::Bid => {
                let auction = self.auction.as_mut().expect("bidding");
                auction.apply(seat, action);
                match auction.ended {
                    None => t.to_act = t.next(seat),
                    // Nobody bid: the public-mark holder is the big landlord.
                    Some(Ended::Redeal) => self.landlord_chosen(t, self.public.1),
                    Some(Ended::Taken { seat, .. }) => self.landlord_chosen(t, seat),
                }
            }
            Phase::ChooseSide => {
                let Action::Side(counter) = action else {
                    unreachable!("a side")
                };
                self.picks[seat] = Some(counter);
                let picked = self.picks.iter().flatten().count();
                match self.order.get(picked) {
                    Some(&next) => t.to_act = next,
                    None => self.before_play(t),
                }
            }
            _ => {
                if action == Action::Show(true) {
                    self.showed.push(seat);
                }
                self.to_show.pop();
                if let Some(&next) = self.to_show.last() {
                    t.to_act = next;
                    return;
                }
                // Both chose: only now do the choices, the event and the hands appear.
                self.show_done = true;
                let shown = self.showed.len() as i64;
                if shown > 0 {
                    t.events.push(match (self.solo == Some(true), shown) {
                        (true, _) => Event::plus("show-solo", 9),
                        (false, 1) => Event::plus("show", 3),
                        _ => Event::plus("show-both", 6),
                    });
                }
                let leader = self.leader(t);
                t.begin_play(leader);
            }
        }
    }

    /// The eighth joker's kill takes a joker, which has no suit.
    fn plays_read_ranks(&self) -> u32 {
        0
    }

    fn on_play(&mut self, t: &mut Core, seat: usize, m: &Move, _cards: &[Card]) {
        let jokers = 2 * t.rules().decks;
        if self.solo != Some(true) {
            let event = match m.kind {
                Kind::Bomb if m.length > 6 => Some(Event::plus("bomb", i64::from(m.length) - 6)),
                Kind::KingBomb if m.length == jokers => Some(Event::plus("eight-jokers", 6)),
                Kind::KingBomb if m.length + 1 == jokers => Some(Event::plus("seven-jokers", 9)),
                Kind::KingBomb if m.length >= 5 => Some(Event::plus("king-bomb", 3)),
                _ => None,
            };
            t.events.extend(event);
        }
        if m.kind == Kind::KingBomb
            && m.length + 1 == jokers
            && t.rules().seven_star_kills_last_joker
        {
            // The eighth joker leaves its holder's hand, face up, for good:
            // the first seat holding one from the player round, X before D.
            let n = t.players();
            for s in (0..n).map(|i| (seat + i) % n) {
                for slot in [SMALL_JOKER, BIG_JOKER] {
                    if t.hands[s].counts.get(slot) > 0 {
                        let mut one = Cards::EMPTY;
                        one.0[slot] = 1;
                        let mut taken = Vec::with_capacity(1);
                        t.hands[s].take(&one, &[], &mut taken);
                        self.dead = Some((s, taken[0]));
                        return;
                    }
                }
            }
        }
    }

    fn finish(&mut self, t: &Core, winner: usize) -> Settlement {
        let side = self.first_side(t, winner);
        let mut events = t.events.clone();
        // The first landlord's side, on the stack (`finish` runs every deal).
        let (mut first_side, mut count) = ([0; 8], 0);
        for seat in (0..t.players()).filter(|&s| self.first_side(t, s)) {
            first_side[count] = seat;
            count += 1;
        }
        let first_side = &first_side[..count];
        events.extend(spring_events(t.rules(), &t.tricks, first_side, side));
        self.settle(t, side, events)
    }

    fn role_specs(&self) -> &'static [RoleSpec] {
        self.roles
    }

    fn role_values(&self, t: &Core, viewer: Option<usize>, out: &mut Vec<RoleValue>) {
        let over = t.phase == Phase::Over;
        let (main, counter) = (self.landlords.first(), self.landlords.get(1));
        let mark = |(card, seat): (Card, usize)| RoleValue::SeatCard(seat, card);
        out.clear();
        for spec in self.roles {
            out.push(match spec.key {
                "auto_win" => self
                    .auto_win
                    .map_or(RoleValue::Unknown, |(s, why)| RoleValue::SeatReason(s, why)),
                "bid" => RoleValue::Count(self.auction.as_ref().map_or(0, |a| a.bid.into())),
                "big_landlord" | "main_landlord" => main.copied().into(),
                "second_landlord" | "counter_landlord" => counter.copied().into(),
                "dead_card" => self
                    .dead
                    .map_or(RoleValue::Unknown, |(s, c)| RoleValue::SeatCard(s, c)),
                "kitty_share" => {
                    let share = viewer.and_then(|v| self.shares.iter().find(|(s, _)| *s == v));
                    RoleValue::cards(share.map(|(_, c)| &c[..]))
                }
                "landlords" => RoleValue::Seats(Seats::of(&self.landlords)),
                "public_mark" => mark(self.public),
                "secret_mark" if over || viewer.is_none() => mark(self.secret),
                "secret_mark" => RoleValue::Unknown,
                "shown" => RoleValue::Seats(Seats::of(&self.shown())),
                "side" => match viewer.and_then(|v| self.side_and_team(t, v).0) {
                    Some(counter) => RoleValue::Word(if counter { "counter" } else { "main" }),
                    None => RoleValue::Unknown,
                },
                "team" => {
                    RoleValue::seats(viewer.and_then(|v| self.side_and_team(t, v).1).as_deref())
                }
                "sides" if over || (viewer.is_none() && self.sides_done(t)) => self.sides(t),
                "sides" => RoleValue::Unknown,
                "solo" => self.solo.into(),
                other => unreachable!("six-player role {other} has no value"),
            });
        }
    }

    fn hands_seen_by(&self, _t: &Core, seat: usize) -> Vec<usize> {
        let mut shown = self.shown();
        shown.retain(|&s| s != seat);
        shown
    }

    fn side_of(&self, t: &Core, seat: usize) -> Option<u8> {
        let settled = !self.landlords.is_empty() && self.sides_done(t);
        settled.then(|| u8::from(self.first_side(t, seat)))
    }

    fn known_cards(&self, _t: &Core, _seat: usize, _out: &mut Vec<(usize, Card)>) {
        // Nothing pinned (as ever): the samples may move the public mark
        // away from its holder. Pinning it would change seeded decisions.
    }

    fn redeal_roles(&mut self, t: &Core, seat: usize, rng: &mut Rng) -> bool {
        if t.phase == Phase::Bid {
            self.secret = self.draw_secret(t, rng);
        }
        let landlord_knows = self.landlords.contains(&seat) && self.sides_done(t);
        if Self::teams(t) && self.solo == Some(false) && !landlord_knows {
            // The picks `seat` has not seen, drawn again in picking order
            // among the sides still open.
            let mut taken = [0u8; 2];
            for i in 0..self.order.len() {
                let farmer = self.order[i];
                let Some(mut counter) = self.picks[farmer] else {
                    break;
                };
                if farmer != seat {
                    let open: Vec<bool> = [false, true]
                        .into_iter()
                        .filter(|&c| taken[usize::from(c)] < 2)
                        .collect();
                    counter = open[rng.below(open.len())];
                }
                if taken[usize::from(counter)] == 2 {
                    return false;
                }
                taken[usize::from(counter)] += 1;
                self.picks[farmer] = Some(counter);
            }
        }
        if t.phase == Phase::Show {
            // The other landlord's answer, if given, is unseen until both have.
            let answered = |s: &usize| !self.to_show.contains(s);
            let others: Vec<usize> = self
                .landlords
                .iter()
                .copied()
                .filter(|s| *s != seat && answered(s))
                .collect();
            self.showed.retain(|s| !others.contains(s));
            self.showed
                .extend(others.into_iter().filter(|_| rng.below(2) == 1));
        }
        true
    }

    fn kitty_seen_by(&self, t: &Core, _seat: usize) -> bool {
        t.kitty_given && t.rules().kitty_shown
    }

    fn visible(&self, t: &Core, viewer: usize, seat: usize, action: &Action) -> bool {
        if viewer == seat || t.phase == Phase::Over {
            return true;
        }
        match action {
            // A landlord learns its own farmers once every farmer has a side.
            Action::Side(counter) => {
                self.sides_done(t)
                    && self.landlords.contains(&viewer)
                    && self.first_side(t, viewer) != *counter
            }
            Action::Show(_) => self.show_done,
            _ => true,
        }
    }

    fn report_columns(&self) -> &'static [ReportColumn] {
        self.reports
    }

    fn report(&self, out: &mut Report) {
        out.landlord_won = self.winning_side == Some(true);
        out.values.clear();
        out.seat(Some(self.landlords.first().copied().unwrap_or(0)));
        out.seat(self.landlords.get(1).copied());
    }
}

#[cfg(test)]
mod tests {
    use super::super::six::testing::{play_random, table};
    use super::*;

    #[test]
    fn random_deals_finish_zero_sum_and_refuse_illegal_actions() {
        for preset in SPEC.flow.presets() {
            for seed in 0..40 {
                let t = play_random(table(preset, seed), seed);
                let r = t.result().unwrap();
                assert_eq!(r.scores.iter().sum::<i64>(), 0, "{preset} {seed}");
                assert!(r.multiplier >= 1);
            }
        }
    }
}
