//! Three decks, three landlords against three farmers, some of them hidden:
//! `six-player-3v3` (source 000) and `six-player-3v3-kitty` (source 002);
//! docs/flow-six-player-3v3.md.
//!
//! One dealt non-joker card is marked; its receiver is an open landlord.
//! Where the other two copies lie decides the rest: in two other hands, both
//! holders are hidden landlords; one with the receiver, the other holder is
//! hidden and a bidding adds an open landlord; both in one other hand, that
//! seat is open or hidden (`both_copies_open`) and a bidding adds the third;
//! all three with the receiver, the deal is won at once or two biddings add
//! two open landlords (`three_copies_win`). Copy holders and open landlords
//! only pass in a bidding; if all pass, the first seat that may bid takes it
//! at 1 (`forced_taker`). The open landlords share the kitty
//! (`kitty_split`), each seat may double once, and the receiver leads. Each
//! winner gets W = S x N, each loser pays it.

use super::auction::{AllPass, Auction, Ended, Procedure};
use super::physical::{parse_identities, push_card, Card};
use super::roles::{ReportColumn, RoleSpec, RoleType, RoleValue, Seats};
use super::scoring::{spring_events, stake, Event, Settlement};
use super::six::Shares;
use super::{Action, Core, Cut, Deal, Family, FamilySpec, Phase, Report, Rng};
use crate::error::RulesError;
use crate::play::{Kind, Move};
use crate::rules::{DoubleStep, KittySplit, Rules, TwoBids};
use serde_json::{json, Map, Value};

/// The most open and hidden landlords a deal names.
const OPEN_WIDTH: usize = 3;
const HIDDEN_WIDTH: usize = 2;

/// What `ddz.simulate` reports of a deal.
const REPORTS: [ReportColumn; 4] = [
    ReportColumn::seat(
        "landlord",
        "the marked card's receiver, the first open landlord",
    ),
    ReportColumn {
        key: "open_landlords",
        width: OPEN_WIDTH,
        flags: false,
        doc: "the open landlords in the order named, the receiver first, padded with -1",
    },
    ReportColumn {
        key: "hidden_landlords",
        width: HIDDEN_WIDTH,
        flags: false,
        doc: "the hidden landlords, padded with -1",
    },
    ReportColumn {
        key: "revealed",
        width: HIDDEN_WIDTH,
        flags: true,
        doc: "whether each hidden landlord played a copy of the marked card",
    },
];

pub(super) static SPEC: FamilySpec = FamilySpec {
    name: "six-3v3",
    flow: crate::rules::Flow::ThreeCopies,
    check,
    new,
    reports: &REPORTS,
};

/// The base S with two hidden landlords (there is no bidding).
const HIDDEN_BASE: i64 = 3;
/// What the receiver of all three copies collects from each other seat.
const AUTO_WIN_BASE: i64 = 2;
/// Smallest rank bomb that adds 1 to N.
const BIG_BOMB: usize = 6;

/// What a king bomb adds to N, by its number of jokers (3 to 6).
fn king_bomb_step(jokers: usize) -> i64 {
    match jokers {
        5 => 3,
        6 => 5,
        _ => 1,
    }
}

/// The rule sets this family can play to the end.
fn check(rules: &Rules) -> Result<(), RulesError> {
    super::six::common(rules)?;
    let bad = super::six::bad;
    let name = format!("the {} flow", rules.flow.name());
    if rules.decks != 3 {
        return bad(
            "decks",
            format!(
                "{name} names its landlords by the three copies of the marked card, so it needs 3 decks, not {}",
                rules.decks
            ),
        );
    }
    if rules.set_aside != 0 {
        return bad(
            "set_aside",
            format!("{name} needs every copy of the marked card dealt; set no cards aside"),
        );
    }
    if !rules.kitty.is_multiple_of(6) {
        return bad(
            "kitty",
            format!(
                "{} cards cannot be shared equally by one, two or three open landlords; use a multiple of 6",
                rules.kitty
            ),
        );
    }
    // A dealt suited card with no copy in the kitty must exist: each kitty
    // card rules out at most two dealt copies, and at most the six jokers
    // are dealt unsuited.
    let dealt = 6 * rules.hand_size as usize;
    if dealt < 6 + 2 * rules.kitty as usize + 1 {
        return bad(
            "hand_size",
            format!(
                "{} cards a hand with {} in the kitty may leave no card to mark",
                rules.hand_size, rules.kitty
            ),
        );
    }
    if let Some(k) = rules.king_bombs.iter().find(|k| k.small + k.big < 3) {
        return bad(
            "king_bombs",
            format!(
                "the 3 v 3 stake has no step for a king bomb of {} jokers; king bombs need 3 to 6",
                k.small + k.big
            ),
        );
    }
    for (option, on) in [
        ("landlord_bidding", rules.landlord_bidding),
        ("farmers_pick_sides", rules.farmers_pick_sides),
    ] {
        if on {
            return bad(
                option,
                format!(
                    "{name} has no such step (it belongs to the two_marks flow); it must be false"
                ),
            );
        }
    }
    Ok(())
}

fn new(rules: &Rules) -> Box<dyn Family> {
    Box::new(ThreeVThree {
        procedure: super::six::procedure(rules),
        ..ThreeVThree::default()
    })
}

/// The roles every seat is told, sorted by key.
const ROLES: [RoleSpec; 10] = [
    RoleSpec {
        key: "base",
        ty: RoleType::Count,
        doc: "the base of the stake once the auction is over",
        seen: "everyone",
        label: ["base", "底分"],
    },
    RoleSpec {
        key: "bid",
        ty: RoleType::Count,
        doc: "the highest bid so far (none before the first bid)",
        seen: "everyone",
        label: ["bid", "叫分"],
    },
    RoleSpec {
        key: "hidden_count",
        ty: RoleType::Count,
        doc: "how many hidden landlords the deal has",
        seen: "everyone",
        label: ["hidden landlords", "暗地主人数"],
    },
    RoleSpec {
        key: "kitty_share",
        ty: RoleType::Cards,
        doc: "the kitty cards this seat took",
        seen: "the seat itself",
        label: ["your kitty share", "你分到的底牌"],
    },
    RoleSpec {
        key: "landlords",
        ty: RoleType::Seats,
        doc: "the landlords this seat knows of, sorted: the open ones, the revealed hidden ones, itself if hidden; all at the end",
        seen: "as the doc says",
        label: ["landlord", "地主"],
    },
    RoleSpec {
        key: "marked",
        ty: RoleType::Card,
        doc: "the marked card: the copies' holders are the landlords",
        seen: "everyone",
        label: ["marked card", "标记牌"],
    },
    RoleSpec {
        key: "marked_holder",
        ty: RoleType::Seat,
        doc: "the seat that received the marked card, the first open landlord",
        seen: "everyone",
        label: ["marked card holder", "标记牌"],
    },
    RoleSpec {
        key: "open_landlords",
        ty: RoleType::Seats,
        doc: "the open landlords, in the order named, the marked card's receiver first",
        seen: "everyone",
        label: ["open landlord", "明地主"],
    },
    RoleSpec {
        key: "revealed",
        ty: RoleType::Seats,
        doc: "the hidden landlords revealed by playing a copy of the marked card, in that order",
        seen: "everyone",
        label: ["revealed landlord", "亮明的暗地主"],
    },
    RoleSpec {
        key: "role",
        ty: RoleType::Word,
        doc: "the seat's own role: open-landlord, hidden-landlord or farmer (none while bidding)",
        seen: "the seat itself",
        label: ["role", "身份"],
    },
];

#[derive(Clone)]
struct ThreeVThree {
    procedure: Procedure,
    marked: Card,
    holder: usize,
    /// Open landlords in the order named, the receiver first.
    open: Vec<usize>,
    hidden: Vec<usize>,
    revealed: Vec<usize>,
    /// The winning bid of each round so far, and the rounds to hold.
    bids: Vec<u8>,
    rounds: usize,
    auction: Option<Auction>,
    base: Option<i64>,
    shares: Shares,
    doubles_left: usize,
    landlords_won: bool,
    /// Copies of the marked card each seat has played (public: played
    /// cards are face up).
    played: [u8; 8],
    /// The card `deal` marked, for the `start` that follows (a given deal
    /// is read from its `marked` key instead).
    drawn: Option<Card>,
}

impl Default for ThreeVThree {
    fn default() -> Self {
        ThreeVThree {
            procedure: Procedure::Rounds,
            marked: Card { slot: 0, suit: 0 },
            holder: 0,
            open: Vec::new(),
            hidden: Vec::new(),
            revealed: Vec::new(),
            bids: Vec::new(),
            rounds: 0,
            auction: None,
            base: None,
            shares: Shares::default(),
            doubles_left: 0,
            landlords_won: false,
            played: [0; 8],
            drawn: None,
        }
    }
}

/// The marked card a given deal names: one suited card, no copy in the
/// kitty, held by `first`.
fn marked_of(deal: &Deal) -> Result<Card, String> {
    let raw = deal.extra.get("marked");
    let card = match raw {
        Some(Value::String(text)) => match parse_identities(text).ok().as_deref() {
            Some([one]) if (one.slot as usize) <= crate::cards::TWO && one.suit.is_some() => Card {
                slot: one.slot,
                suit: one.suit.unwrap_or(0),
            },
            _ => None.ok_or_else(|| {
                format!("deal['marked'] must be one suited non-joker card like '9h', not '{text}'")
            })?,
        },
        other => {
            let shown = other.map_or("None".to_string(), Value::to_string);
            return Err(format!(
                "deal['marked'] must be one suited non-joker card like '9h', not {shown}"
            ));
        }
    };
    if deal.kitty.contains(&card) {
        return Err(format!("deal['marked'] {card}: a copy lies in the kitty"));
    }
    if !deal.hands[deal.first].contains(&card) {
        return Err(format!(
            "deal['first'] must be the marked card's receiver: seat {} holds no {card}",
            deal.first
        ));
    }
    let copies: usize = deal
        .hands
        .iter()
        .map(|h| h.iter().filter(|&&c| c == card).count())
        .sum();
    if copies != 3 {
        return Err(format!(
            "this flow needs all three copies of {card} in the hands"
        ));
    }
    Ok(card)
}

/// Seats as a mask.
fn seats(seats: &[usize]) -> u32 {
    seats.iter().fold(0, |bits, &s| bits | 1 << s)
}

/// A bit per suited identity (rank slot and suit: 13 x 4 bits).
fn identity_bit(c: Card) -> u64 {
    1 << (u32::from(c.slot) * 4 + u32::from(c.suit))
}

/// The cards of `seat` that may be marked: suited, no copy in the kitty.
fn markable(deal: &Deal, seat: usize) -> Vec<Card> {
    let out: Vec<Card> = deal.hands[seat]
        .iter()
        .copied()
        .filter(|c| c.suited() && !deal.kitty.contains(c))
        .collect();
    out
}

impl ThreeVThree {
    /// Forget the last deal's roles for a deal whose marked card is
    /// `marked`, received by `holder`, keeping the lists' buffers (every
    /// field is named, so a new one cannot be left out).
    fn reset(&mut self, marked: Card, holder: usize) {
        let ThreeVThree {
            procedure: _,
            marked: mark,
            holder: receiver,
            open,
            hidden,
            revealed,
            bids,
            rounds,
            auction,
            base,
            shares,
            doubles_left,
            landlords_won,
            played,
            drawn,
        } = self;
        (*mark, *receiver) = (marked, holder);
        open.clear();
        open.push(holder);
        hidden.clear();
        revealed.clear();
        bids.clear();
        shares.clear();
        (*rounds, *auction, *base) = (0, None, None);
        (*doubles_left, *landlords_won, *drawn) = (0, false, None);
        *played = [0; 8];
    }

    /// The seats dealt the other two copies of the marked card, lowest
    /// first (a seat twice if it was dealt both; the receiver where fewer
    /// than two lie elsewhere): each seat's copies in hand and played.
    fn other_copies(&self, t: &Core) -> (usize, usize) {
        let holder = self.holder;
        let mut copies = (0..t.players()).flat_map(|s| {
            let dealt = t.hands[s].holds(self.marked) + self.played[s];
            let held = dealt.saturating_sub(u8::from(s == holder));
            std::iter::repeat_n(s, held as usize)
        });
        (
            copies.next().unwrap_or(holder),
            copies.next().unwrap_or(holder),
        )
    }

    /// An auction from the seat after `after`, the seats in the mask
    /// `bits` barred.
    fn bidding(&mut self, t: &mut Core, after: usize, bits: u32) {
        let n = t.players();
        let first = (after + 1) % n;
        let all_pass = if t.rules().forced_taker {
            AllPass::FirstEligible
        } else {
            AllPass::Redeal
        };
        self.auction = Some(Auction::new(self.procedure, n, first, all_pass).barring(bits));
        t.phase = Phase::Bid;
        t.to_act = first;
    }

    fn roles_settled(&mut self, t: &mut Core) {
        self.auction = None;
        let event = if self.hidden.len() == 2 {
            Event::times("base", HIDDEN_BASE)
        } else {
            let bids = self.bids.iter().map(|&b| i64::from(b));
            let base = match t.rules().two_bids_base {
                TwoBids::Higher => bids.max(),
                TwoBids::Sum => Some(bids.sum()),
                TwoBids::First => self.bids.first().map(|&b| i64::from(b)),
                TwoBids::Last => self.bids.last().map(|&b| i64::from(b)),
            };
            Event::times("bid", base.expect("a bid"))
        };
        let super::scoring::Effect::Times(base) = event.effect else {
            unreachable!("the base multiplies")
        };
        self.base = Some(base);
        t.events.push(event);
        if !t.kitty.is_empty() {
            let how = t.rules().kitty_split;
            self.shares.share(&t.kitty, &self.open, how);
            for (seat, share) in self.shares.iter() {
                t.give(*seat, share);
            }
            t.kitty_given = true;
        }
        self.doubles_left = t.players();
        t.phase = Phase::Double;
        t.to_act = self.holder;
    }

    /// The landlords low to high, on the stack (`finish` runs every
    /// deal): the seats, and how many.
    fn landlords(&self) -> ([usize; 8], usize) {
        let mut all = [0; 8];
        let mut n = 0;
        for &seat in self.open.iter().chain(&self.hidden) {
            all[n] = seat;
            n += 1;
        }
        all[..n].sort_unstable();
        (all, n)
    }

    /// Each winner +W, each loser -W; `alone` (the auto-win): the lone
    /// landlord collects W from each of the five.
    fn settle(&mut self, t: &Core, won: bool, alone: bool, events: Vec<Event>) -> Settlement {
        self.landlords_won = won;
        let n = t.players();
        let (seats, count) = self.landlords();
        let landlords = &seats[..count];
        let w = stake(&events);
        let winners: Vec<usize> = (0..n).filter(|s| landlords.contains(s) == won).collect();
        let scores = (0..n)
            .map(|s| match (winners.contains(&s), alone) {
                (true, true) => w * (n as i64 - 1),
                (true, false) => w,
                (false, _) => -w,
            })
            .collect();
        let mut extra = Map::new();
        extra.insert("landlords".into(), json!(landlords));
        Settlement {
            winners,
            scores,
            multiplier: w,
            events,
            extra,
        }
    }
}

impl Family for ThreeVThree {
    fn clone_box(&self) -> Box<dyn Family> {
        Box::new(self.clone())
    }

    fn deal_keys(&self) -> &'static [&'static str] {
        &["marked"]
    }

    /// A shuffled deal, the kitty as dealt (or sorted for a snake split), and
    /// one dealt suited card with no copy in the kitty marked, uniformly; its
    /// receiver is `first`.
    fn deal(&mut self, rules: &Rules, rng: &mut Rng, cut: &Cut, deal: &mut Deal) {
        // A bit per identity in the kitty: the mark's filter runs twice
        // over every dealt card, where a scan of the kitty cost a fifth of
        // a random deal's instructions.
        let in_kitty = cut
            .kitty()
            .iter()
            .fold(0, |bits, c| bits | identity_bit(*c));
        let (marked, receiver) = cut.mark(rng, |c| c.suited() && in_kitty & identity_bit(c) == 0);
        cut.deal_into(receiver, rules.kitty_split == KittySplit::Snake, deal);
        deal.set_text("marked", |text| push_card(text, marked));
        self.drawn = Some(marked);
    }

    fn check_deal(&self, _rules: &Rules, deal: &Deal) -> Result<(), String> {
        if deal.extra.contains_key("marked") {
            return marked_of(deal).map(|_| ());
        }
        if markable(deal, deal.first).is_empty() {
            return Err(format!(
                "seat {} holds no card that may be marked",
                deal.first
            ));
        }
        Ok(())
    }

    /// A given deal may leave out the marked card: one of the `first`
    /// seat's cards is drawn and written into the deal.
    fn complete(&self, _rules: &Rules, deal: &mut Deal, rng: &mut Rng) {
        if !deal.extra.contains_key("marked") {
            let choices = markable(deal, deal.first);
            let card = choices[rng.below(choices.len())];
            deal.extra.insert("marked".into(), card.to_string().into());
        }
    }

    fn start(&mut self, t: &mut Core, deal: &Deal) {
        let drawn = self.drawn.take();
        let marked = drawn.unwrap_or_else(|| marked_of(deal).expect("a checked deal"));
        let holder = deal.first;
        self.reset(marked, holder);
        let (a, b) = self.other_copies(t);
        let rules = t.rules();
        if a != b && a != holder && b != holder {
            self.hidden.extend([a, b]);
            self.roles_settled(t);
        } else if a == holder && b == holder {
            if rules.three_copies_win {
                t.to_act = holder;
                t.events.push(Event::times("auto-win", AUTO_WIN_BASE));
                let result = self.settle(t, true, true, t.events.clone());
                t.end(result);
                return;
            }
            self.rounds = 2;
            self.bidding(t, holder, seats(&[holder]));
        } else if a == holder || b == holder {
            // A second copy with the receiver: the third holder is hidden.
            let third = if a == holder { b } else { a };
            self.hidden.push(third);
            self.rounds = 1;
            self.bidding(t, holder, seats(&[holder, third]));
        } else {
            // Another seat holds both other copies.
            self.rounds = 1;
            if rules.both_copies_open {
                self.open.push(a);
                self.bidding(t, a, seats(&[holder, a]));
            } else {
                self.hidden.push(a);
                self.bidding(t, holder, seats(&[holder, a]));
            }
        }
    }

    fn legal(&self, t: &Core, out: &mut Vec<Action>) {
        match (&self.auction, t.phase) {
            (Some(auction), Phase::Bid) => auction.legal(t.to_act, out),
            _ => out.extend([Action::Double(true), Action::Double(false)]),
        }
    }

    fn apply(&mut self, t: &mut Core, seat: usize, action: Action) {
        if t.phase == Phase::Double {
            if action == Action::Double(true) {
                t.events.push(match t.rules().double_step {
                    DoubleStep::Plus1 => Event::plus("double", 1),
                    DoubleStep::X2 => Event::times("double", 2),
                });
            }
            self.doubles_left -= 1;
            if self.doubles_left > 0 {
                t.to_act = t.next(seat);
            } else {
                t.begin_play(self.holder);
            }
            return;
        }
        let auction = self.auction.as_mut().expect("bidding");
        auction.apply(seat, action);
        match auction.ended {
            None => t.to_act = t.next(seat),
            Some(Ended::Redeal) => t.redeal(),
            Some(Ended::Taken {
                seat: taker, bid, ..
            }) => {
                self.open.push(taker);
                self.bids.push(bid);
                if self.bids.len() < self.rounds {
                    let barred = seats(&self.open);
                    self.bidding(t, taker, barred);
                } else {
                    self.roles_settled(t);
                }
            }
        }
    }

    /// Play reads the marked card's copies alone.
    fn plays_read_ranks(&self) -> u32 {
        1 << self.marked.slot
    }

    fn on_play(&mut self, t: &mut Core, seat: usize, m: &Move, cards: &[Card]) {
        self.played[seat] += cards.iter().filter(|&&c| c == self.marked).count() as u8;
        if self.hidden.contains(&seat)
            && !self.revealed.contains(&seat)
            && cards.contains(&self.marked)
        {
            self.revealed.push(seat);
        }
        let size = m.cards.len();
        match m.kind {
            Kind::KingBomb => t
                .events
                .push(Event::plus("king-bomb", king_bomb_step(size))),
            Kind::Bomb if size >= BIG_BOMB => t.events.push(Event::plus("bomb", 1)),
            _ => {}
        }
    }

    fn finish(&mut self, t: &Core, winner: usize) -> Settlement {
        let (seats, count) = self.landlords();
        let landlords = &seats[..count];
        let won = landlords.contains(&winner);
        let mut events = t.events.clone();
        events.extend(spring_events(t.rules(), &t.tricks, landlords, won));
        self.settle(t, won, false, events)
    }

    fn role_specs(&self) -> &'static [RoleSpec] {
        &ROLES
    }

    fn role_values(&self, t: &Core, viewer: Option<usize>, out: &mut Vec<RoleValue>) {
        let mut landlords: Vec<usize> = self.open.iter().chain(&self.revealed).copied().collect();
        if t.phase == Phase::Over || viewer.is_none() {
            landlords.extend(&self.hidden); // the deal is over: nothing is secret
        } else if let Some(seat) = viewer.filter(|s| self.hidden.contains(s)) {
            landlords.push(seat); // a hidden landlord knows their own role
        }
        landlords.sort_unstable();
        landlords.dedup();
        let role = viewer.and_then(|seat| {
            if self.open.contains(&seat) {
                Some("open-landlord")
            } else if self.hidden.contains(&seat) {
                Some("hidden-landlord")
            } else if t.phase == Phase::Bid {
                None
            } else {
                Some("farmer")
            }
        });
        let bid = match &self.auction {
            Some(a) => i64::from(a.bid),
            None => self.base.unwrap_or(0),
        };
        let share = viewer.and_then(|seat| self.shares.iter().find(|(s, _)| *s == seat));
        out.clear();
        out.push(self.base.map_or(RoleValue::Unknown, RoleValue::Count));
        out.push(match bid {
            0 => RoleValue::Unknown,
            bid => RoleValue::Count(bid),
        });
        out.push(RoleValue::Count(self.hidden.len() as i64));
        out.push(RoleValue::cards(share.map(|(_, c)| &c[..])));
        out.push(RoleValue::Seats(Seats::of(&landlords)));
        out.push(RoleValue::Card(self.marked));
        out.push(RoleValue::Seat(self.holder));
        out.push(RoleValue::Seats(Seats::of(&self.open)));
        out.push(RoleValue::Seats(Seats::of(&self.revealed)));
        out.push(role.map_or(RoleValue::Unknown, RoleValue::Word));
    }

    fn side_of(&self, t: &Core, seat: usize) -> Option<u8> {
        let landlord = self.open.contains(&seat) || self.hidden.contains(&seat);
        (t.phase != Phase::Bid).then_some(u8::from(landlord))
    }

    fn known_cards(&self, t: &Core, seat: usize, out: &mut Vec<(usize, Card)>) {
        // The receiver keeps the marked card until it plays a copy. Plays
        // show ranks only: once it has played that rank, another seat
        // cannot tell whether the copy left.
        let slot = self.marked.slot as usize;
        let played_rank = t.history.iter().any(|(by, a)| {
            *by == self.holder && matches!(a, Action::Play(m) if m.cards.get(slot) > 0)
        });
        if seat != self.holder && !played_rank {
            out.push((self.holder, self.marked));
        }
    }

    fn redeal_roles(&mut self, t: &Core, seat: usize, _rng: &mut Rng) -> bool {
        if self
            .hidden
            .iter()
            .all(|h| *h == seat || self.revealed.contains(h))
        {
            return true; // `seat` knows every landlord
        }
        // The hidden landlords are where the other copies now lie; the
        // public facts must still hold: how many are hidden, the revealed
        // ones among them, the open landlords the copies named.
        let (a, b) = self.other_copies(t);
        let holder = self.holder;
        // (The hidden landlords, the rounds of bidding), as `start` reads them.
        let (hidden, rounds): (Vec<usize>, usize) = if a != b && a != holder && b != holder {
            (vec![a, b], 0)
        } else if a == holder && b == holder {
            (Vec::new(), 2)
        } else if a == holder || b == holder {
            (vec![if a == holder { b } else { a }], 1)
        } else if t.rules().both_copies_open {
            if self.open.get(1) != Some(&a) {
                return false;
            }
            (Vec::new(), 1)
        } else {
            (vec![a], 1)
        };
        let same_shape = hidden.len() == self.hidden.len()
            && rounds == self.rounds
            && self.revealed.iter().all(|r| hidden.contains(r))
            && hidden.contains(&seat) == self.hidden.contains(&seat)
            && hidden.iter().all(|h| !self.open.contains(h));
        if !same_shape {
            return false;
        }
        if let Some(auction) = self.auction.as_mut() {
            // The hidden landlords pass by force: none of them may have bid.
            let bid = |s: usize| {
                t.history
                    .iter()
                    .any(|(by, a)| *by == s && matches!(a, Action::Bid(_)))
            };
            if hidden.iter().any(|&h| bid(h)) {
                return false;
            }
            let barred = auction.barred() & !seats(&self.hidden) | seats(&hidden);
            auction.set_barred(barred);
        }
        self.hidden = hidden;
        true
    }

    fn kitty_seen_by(&self, t: &Core, seat: usize) -> bool {
        let lone_taker = self.shares.len() == 1 && self.shares[0].0 == seat;
        t.kitty_given && (lone_taker || t.rules().kitty_shown)
    }

    fn visible(&self, _t: &Core, _viewer: usize, _seat: usize, _action: &Action) -> bool {
        true // the hidden landlords hold copies; their decisions are public
    }

    fn report_columns(&self) -> &'static [ReportColumn] {
        &REPORTS
    }

    fn report(&self, out: &mut Report) {
        out.landlord_won = self.landlords_won;
        out.values.clear();
        out.seat(Some(self.holder));
        out.seats(&self.open, OPEN_WIDTH);
        out.seats(&self.hidden, HIDDEN_WIDTH);
        for i in 0..HIDDEN_WIDTH {
            let shown = self
                .hidden
                .get(i)
                .is_some_and(|h| self.revealed.contains(h));
            out.flag(shown);
        }
    }
}
