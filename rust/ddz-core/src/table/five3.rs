//! `five-player-3deck` (新五人): grab, then solo or call a friend
//! (docs/flow-five-player-3deck.md).
//!
//! One grab round from the marked card's holder: on its turn a seat says
//! `grab` as many times as it has grabs left (pairs, then trios, of `D`,
//! `X` and the marked rank ♠ ♥ ♣ ♦, strongest first), then `pass`. The
//! strongest grab makes the main landlord and the number of grabs is the
//! base (nobody grabs: the holder, at `no_grab_base`). The main landlord
//! takes the kitty; with `auto_win` a hand without a pair, with a bomb of
//! 10 or more or without any bomb wins at once. Otherwise the main landlord
//! calls a friend (the lowest identity held twice: the holder of its third
//! copy is the deputy), plays a hidden solo (announcing the lowest identity
//! held three times, like a friend call) or an open solo, and leads.
//! Options read: `score_scheme`, `level_points`, `no_grab_base`,
//! `auto_win`, `spring`, `anti_spring`.

use super::five::check_five;
use super::marked::{marked_card, marked_deal};
use super::physical::Hand;
use super::roles::{ReportColumn, RoleSpec, RoleType, RoleValue};
use super::scoring::{spring_events, Event, Settlement};
use super::{Action, Card, Core, Cut, Deal, Family, FamilySpec, Phase, Report, Rng};
use crate::cards::{BIG_JOKER, SMALL_JOKER, TWO};
use crate::error::{in_range, RulesError};
use crate::play::Move;
use crate::rules::{Rules, ScoreScheme};

/// What `ddz.simulate` reports of a deal.
const REPORTS: [ReportColumn; 3] = [
    ReportColumn::seat("landlord", "the main landlord"),
    ReportColumn::seat("deputy", "the called friend (-1 for a solo or an auto-win)"),
    ReportColumn {
        key: "revealed",
        width: 1,
        flags: true,
        doc: "the called card was shown in play",
    },
];

pub(super) static SPEC: FamilySpec = FamilySpec {
    name: "five-player-3deck",
    flow: crate::rules::Flow::CalledFriend,
    check,
    new,
    reports: &REPORTS,
};

/// The most grabs a deal can hold: six identities grab, at most twice each.
const MOST_GRABS: u8 = 12;

fn check(rules: &Rules) -> Result<(), RulesError> {
    check_five(
        rules,
        3,
        "the friend is the holder of the third copy of a card held twice",
    )?;
    in_range("level_points", rules.level_points.into(), 1, 1000)?;
    in_range(
        "no_grab_base",
        rules.no_grab_base.into(),
        1,
        MOST_GRABS.into(),
    )
}

fn new(_rules: &Rules) -> Box<dyn Family> {
    Box::new(FivePlayer3Deck::default())
}

/// A grab's strength: (size, -position), trios above pairs, then `D`, `X`,
/// the marked rank ♠ ♥ ♣ ♦.
type Strength = (u8, i8);

/// One grab a hand can make: the identity shown, as a pair or a trio.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Grab {
    card: Card,
    size: u8,
    strength: Strength,
}

/// The identities that grab, strongest first: `D`, `X`, then `rank`
/// ♠ ♥ ♣ ♦.
pub(crate) fn grab_order(rank: u8) -> [Card; 6] {
    let joker = |slot: usize| Card {
        slot: slot as u8,
        suit: 0,
    };
    let suited = |suit: u8| Card { slot: rank, suit };
    [
        joker(BIG_JOKER),
        joker(SMALL_JOKER),
        suited(3),
        suited(2),
        suited(1),
        suited(0),
    ]
}

/// The grabs `hand` may make, in the order it makes them: identities in
/// `grab_order`, each as a pair and, with a third copy, again as a trio.
fn grab_units(hand: &Hand, rank: u8) -> Vec<Grab> {
    let mut units = Vec::new();
    for (i, card) in grab_order(rank).into_iter().enumerate() {
        for size in [2, 3] {
            if hand.holds(card) >= size {
                let strength = (size, -(i as i8));
                units.push(Grab {
                    card,
                    size,
                    strength,
                });
            }
        }
    }
    units
}

/// Every identity of a three-deck hand, low to high (the order cards are
/// called in: rank, then suit ♦ ♣ ♥ ♠; jokers last).
fn identities() -> impl Iterator<Item = Card> {
    let suited = (0..=TWO as u8).flat_map(|slot| (0..4).map(move |suit| Card { slot, suit }));
    let jokers = [SMALL_JOKER, BIG_JOKER].map(|slot| Card {
        slot: slot as u8,
        suit: 0,
    });
    suited.chain(jokers)
}

/// The lowest identity `hand` holds exactly `copies` of.
fn lowest_held(hand: &Hand, copies: u8) -> Option<Card> {
    identities().find(|&c| hand.holds(c) == copies)
}

/// Why the main landlord wins outright with the kitty, if they do: no
/// card held exactly twice, a bomb of 10 or more, or no bomb at all.
fn auto_win(rules: &Rules, hand: &Hand) -> Option<&'static str> {
    if lowest_held(hand, 2).is_none() {
        return Some("no-pair");
    }
    let counts = &hand.counts;
    if (0..=TWO).any(|r| counts.get(r) >= 10) {
        return Some("big-bomb");
    }
    let (small, big) = (counts.get(SMALL_JOKER), counts.get(BIG_JOKER));
    let bomb = (0..=TWO).any(|r| counts.get(r) >= 4)
        || rules
            .king_bombs
            .iter()
            .any(|kb| small >= kb.small && big >= kb.big);
    (!bomb).then_some("no-bomb")
}

/// The roles every seat is told, sorted by key.
const ROLES: [RoleSpec; 12] = [
    RoleSpec {
        key: "base",
        ty: RoleType::Count,
        doc: "the base of the stake: the number of grabs (or the no-grab base)",
        seen: "everyone",
        label: ["base", "底分"],
    },
    RoleSpec {
        key: "called",
        ty: RoleType::Card,
        doc: "the card the main landlord named to call a friend, or announced for a hidden solo",
        seen: "everyone, once named",
        label: ["called card", "叫的牌"],
    },
    RoleSpec {
        key: "deputy",
        ty: RoleType::Seat,
        doc: "the called friend: the holder of the called card",
        seen: "the deputy itself; everyone once the called card is played",
        label: ["deputy", "副地主"],
    },
    RoleSpec {
        key: "grabs",
        ty: RoleType::Claims,
        doc: "the grabs so far, in order: each seat and the pair or trio it showed",
        seen: "everyone",
        label: ["grabs", "抢地主"],
    },
    RoleSpec {
        key: "landlord",
        ty: RoleType::Seat,
        doc: "the main landlord (the same as main_landlord)",
        seen: "everyone",
        label: ["landlord", "地主"],
    },
    RoleSpec {
        key: "main_landlord",
        ty: RoleType::Seat,
        doc: "the seat whose grab was strongest, or the marked card's holder when nobody grabs",
        seen: "everyone",
        label: ["main landlord", "正地主"],
    },
    RoleSpec {
        key: "marked",
        ty: RoleType::Card,
        doc: "the marked card: its holder bids first and lands the deal when nobody grabs",
        seen: "everyone",
        label: ["marked card", "标记牌"],
    },
    RoleSpec {
        key: "marked_holder",
        ty: RoleType::Seat,
        doc: "the holder of the marked card",
        seen: "everyone",
        label: ["marked card holder", "标记牌"],
    },
    RoleSpec {
        key: "open_solo",
        ty: RoleType::Flag,
        doc: "the main landlord plays alone openly (false: it called a friend or went hidden solo)",
        seen: "everyone, once chosen",
        label: ["open solo", "明独"],
    },
    RoleSpec {
        key: "revealed",
        ty: RoleType::Flag,
        doc: "the called card has been played, so the deputy is known",
        seen: "everyone",
        label: ["revealed", "已亮明"],
    },
    RoleSpec {
        key: "role",
        ty: RoleType::Word,
        doc: "the seat's own role: main-landlord, deputy or farmer",
        seen: "the seat itself",
        label: ["role", "身份"],
    },
    RoleSpec {
        key: "solo",
        ty: RoleType::Flag,
        doc: "the main landlord plays without a deputy (an open or a hidden solo)",
        seen: "the landlords; everyone after an open solo or the reveal",
        label: ["solo", "独打"],
    },
];

#[derive(Clone, Default)]
struct FivePlayer3Deck {
    marked: Option<Card>,
    holder: usize,
    /// Each seat's grabs, and how many it has made.
    units: Vec<Vec<Grab>>,
    used: Vec<usize>,
    /// Every grab made, public: (seat, grab).
    grabs: Vec<(usize, Grab)>,
    best: Option<(Strength, usize)>,
    base: u32,
    passes: usize,
    /// The main landlord, once the grab is over.
    landlord: Option<usize>,
    /// `OpenSolo`, `HiddenSolo` or `CallFriend`.
    choice: Option<Action>,
    /// The card announced to all (friend call or hidden solo).
    called: Option<Card>,
    deputy: Option<usize>,
    /// The deputy (or the hidden solo) is public.
    revealed: bool,
    /// Copies of the called card the main landlord has played (public:
    /// played cards are face up).
    lord_played: u8,
    winner: Option<usize>,
    /// The card `deal` marked, for the `start` that follows.
    drawn: Option<Card>,
}

impl FivePlayer3Deck {
    fn power(t: &Core) -> bool {
        t.rules().score_scheme == ScoreScheme::Power
    }

    /// `2^base` under the power scheme, else `base` (saturating: the base
    /// is at most `MOST_GRABS`).
    fn scaled(t: &Core, base: u32) -> i64 {
        if Self::power(t) {
            1i64 << base.min(62)
        } else {
            i64::from(base)
        }
    }

    fn landlord(&self) -> usize {
        self.landlord.expect("a main landlord after the grab")
    }

    fn side(&self) -> Vec<usize> {
        std::iter::once(self.landlord())
            .chain(self.deputy)
            .collect()
    }

    fn grab_over(&mut self, t: &mut Core) {
        let landlord = match self.best {
            None => {
                self.base = u32::from(t.rules().no_grab_base);
                self.holder
            }
            Some((_, seat)) => seat,
        };
        self.landlord = Some(landlord);
        t.events
            .push(Event::times("base", Self::scaled(t, self.base)));
        t.events
            .push(Event::times("level", i64::from(t.rules().level_points)));
        t.give_kitty(landlord);
        let reason = if t.rules().auto_win {
            auto_win(t.rules(), &t.hands[landlord])
        } else {
            None
        };
        if let Some(reason) = reason {
            let mut result =
                Settlement::leader_and_partner(t.players(), landlord, None, true, t.events.clone());
            result.extra.insert("auto_win".into(), reason.into());
            self.winner = Some(landlord);
            t.end(result); // `to_act` stays the last seat to pass, as it was
            return;
        }
        t.phase = Phase::Call;
        t.to_act = landlord;
    }

    fn call(&mut self, t: &mut Core, action: Action) {
        let landlord = self.landlord();
        self.choice = Some(action);
        let hand = &t.hands[landlord];
        match action {
            Action::OpenSolo => {
                let factor = if Self::power(t) {
                    Self::scaled(t, self.base)
                } else {
                    2
                };
                t.events.push(Event::times("open-solo", factor));
            }
            _ => {
                let copies = if action == Action::HiddenSolo { 3 } else { 2 };
                let called = lowest_held(hand, copies).expect("offered only when held");
                self.called = Some(called);
                if action == Action::CallFriend {
                    let n = t.players();
                    self.deputy = (0..n).find(|&s| s != landlord && t.hands[s].holds(called) > 0);
                }
            }
        }
        t.begin_play(landlord);
    }
}

impl Family for FivePlayer3Deck {
    fn clone_box(&self) -> Box<dyn Family> {
        Box::new(self.clone())
    }

    fn deal_keys(&self) -> &'static [&'static str] {
        &["marked"]
    }

    fn deal(&mut self, _rules: &Rules, rng: &mut super::Rng, cut: &Cut, deal: &mut Deal) {
        self.drawn = Some(marked_deal(rng, cut, deal));
    }

    fn check_deal(&self, rules: &Rules, deal: &Deal) -> Result<(), String> {
        marked_card(rules, deal).map(|_| ())
    }

    fn start(&mut self, t: &mut Core, deal: &Deal) {
        let drawn = self.drawn.take();
        let marked = drawn.unwrap_or_else(|| marked_card(t.rules(), deal).expect("checked"));
        *self = FivePlayer3Deck {
            marked: Some(marked),
            holder: deal.first,
            units: t.hands.iter().map(|h| grab_units(h, marked.slot)).collect(),
            used: vec![0; t.players()],
            ..FivePlayer3Deck::default()
        };
        t.phase = Phase::Grab;
        t.to_act = deal.first;
    }

    fn legal(&self, t: &Core, out: &mut Vec<Action>) {
        let seat = t.to_act;
        if t.phase == Phase::Grab {
            out.push(Action::Pass);
            if self.used[seat] < self.units[seat].len() {
                out.push(Action::Grab);
            }
            return;
        }
        let hand = &t.hands[seat];
        if lowest_held(hand, 2).is_some() {
            out.push(Action::CallFriend);
        }
        if lowest_held(hand, 3).is_some() {
            out.push(Action::HiddenSolo);
        }
        out.push(Action::OpenSolo);
    }

    fn apply(&mut self, t: &mut Core, seat: usize, action: Action) {
        if t.phase != Phase::Grab {
            return self.call(t, action);
        }
        if action == Action::Grab {
            let grab = self.units[seat][self.used[seat]];
            self.used[seat] += 1;
            self.grabs.push((seat, grab));
            self.base += 1;
            if self.best.is_none_or(|(b, _)| grab.strength > b) {
                self.best = Some((grab.strength, seat));
            }
            return; // the same seat may grab again
        }
        self.passes += 1;
        if self.passes == t.players() {
            self.grab_over(t);
        } else {
            t.to_act = t.next(seat);
        }
    }

    /// Play reads the called card's copies alone (chosen before play).
    fn plays_read_ranks(&self) -> u32 {
        self.called.map_or(0, |c| 1 << c.slot)
    }

    fn on_play(&mut self, _t: &mut Core, seat: usize, _m: &Move, cards: &[Card]) {
        let Some(called) = self.called else { return };
        if Some(seat) == self.landlord {
            self.lord_played += cards.iter().filter(|&&c| c == called).count() as u8;
        }
        if self.revealed || !cards.contains(&called) {
            return;
        }
        // A hidden solo shows at the first copy played: copies look alike.
        let hidden_solo = self.choice == Some(Action::HiddenSolo);
        if Some(seat) == self.deputy || (Some(seat) == self.landlord && hidden_solo) {
            self.revealed = true;
        }
    }

    fn finish(&mut self, t: &Core, winner: usize) -> Settlement {
        self.winner = Some(winner);
        let side = self.side();
        let won = side.contains(&winner);
        let mut events = t.events.clone();
        events.extend(spring_events(t.rules(), &t.tricks, &side, won));
        Settlement::leader_and_partner(t.players(), self.landlord(), self.deputy, won, events)
    }

    fn role_specs(&self) -> &'static [RoleSpec] {
        &ROLES
    }

    fn role_values(&self, _t: &Core, viewer: Option<usize>, out: &mut Vec<RoleValue>) {
        let knows_team = self.choice.is_some()
            && (self.choice == Some(Action::OpenSolo)
                || self.revealed
                || viewer
                    .is_none_or(|seat| Some(seat) == self.landlord || Some(seat) == self.deputy));
        let role = viewer.map(|seat| {
            if Some(seat) == self.landlord {
                "main-landlord"
            } else if Some(seat) == self.deputy {
                "deputy"
            } else {
                "farmer"
            }
        });
        let grabs = self.grabs.iter().map(|(s, g)| (*s, g.card, g.size));
        let deputy = self
            .deputy
            .filter(|&d| self.revealed || viewer.is_none_or(|seat| seat == d));
        out.clear();
        out.push(RoleValue::Count(self.base.into()));
        out.push(self.called.into());
        out.push(deputy.into());
        out.push(RoleValue::Claims(grabs.collect()));
        out.push(self.landlord.into());
        out.push(self.landlord.into());
        out.push(self.marked.into());
        out.push(RoleValue::Seat(self.holder));
        out.push(self.choice.map(|c| c == Action::OpenSolo).into());
        out.push(RoleValue::Flag(self.revealed));
        out.push(role.map_or(RoleValue::Unknown, RoleValue::Word));
        out.push(knows_team.then_some(self.deputy.is_none()).into());
    }

    fn side_of(&self, _t: &Core, seat: usize) -> Option<u8> {
        let lord =
            self.choice.is_some() && (Some(seat) == self.landlord || Some(seat) == self.deputy);
        self.choice.map(|_| u8::from(lord))
    }

    fn known_cards(&self, t: &Core, seat: usize, out: &mut Vec<(usize, Card)>) {
        if t.phase == Phase::Grab {
            // A grab shows its cards; the largest grab of each card counts.
            for &(s, g) in &self.grabs {
                let more = self
                    .grabs
                    .iter()
                    .any(|&(o, h)| o == s && h.card == g.card && h.size > g.size);
                if s != seat && !more {
                    out.extend(std::iter::repeat_n((s, g.card), g.size.into()));
                }
            }
        }
        // A called card: the main landlord held two copies (three in a
        // hidden solo, which looks the same), less those it played since.
        if let (Some(called), Some(lord)) = (self.called, self.landlord) {
            if lord != seat && !self.revealed {
                let left = 2u8.saturating_sub(self.lord_played);
                out.extend(std::iter::repeat_n((lord, called), left.into()));
            }
        }
    }

    fn redeal_roles(&mut self, t: &Core, seat: usize, _rng: &mut Rng) -> bool {
        if t.phase == Phase::Grab {
            // Each seat's grabs anew from its hand: those made so far must
            // be the first it would make.
            for s in (0..t.players()).filter(|&s| s != seat) {
                let units = grab_units(&t.hands[s], self.marked.map_or(0, |m| m.slot));
                let made = self.grabs.iter().filter(|(o, _)| *o == s).map(|(_, g)| *g);
                if !made.zip(&units).all(|(g, u)| g == *u) || units.len() < self.used[s] {
                    return false;
                }
                self.units[s] = units;
            }
            return true;
        }
        let (Some(called), Some(lord)) = (self.called, self.landlord) else {
            return true; // no call yet, or an open solo: nothing is hidden
        };
        let knows = self.revealed || seat == self.deputy.unwrap_or(usize::MAX);
        if knows {
            return true;
        }
        let holder = (0..t.players()).find(|&s| s != lord && t.hands[s].holds(called) > 0);
        if seat == lord {
            // The landlord's own choice stands; its friend is wherever the
            // third copy now lies.
            if self.choice == Some(Action::CallFriend) {
                self.deputy = holder;
                return holder.is_some();
            }
            return true;
        }
        let dealt = t.hands[lord].holds(called) + self.lord_played;
        match (dealt, holder) {
            // A hidden solo shows at its first copy played.
            (3, None) if self.lord_played == 0 => {
                (self.choice, self.deputy) = (Some(Action::HiddenSolo), None);
                true
            }
            (2, Some(d)) => {
                (self.choice, self.deputy) = (Some(Action::CallFriend), Some(d));
                true
            }
            _ => false,
        }
    }

    fn kitty_seen_by(&self, t: &Core, seat: usize) -> bool {
        t.kitty_given && Some(seat) == self.landlord
    }

    fn visible(&self, _t: &Core, viewer: usize, seat: usize, action: &Action) -> bool {
        // A hidden solo and a friend call look alike: both announce a card.
        viewer == seat || !matches!(action, Action::HiddenSolo | Action::CallFriend)
    }

    fn report_columns(&self) -> &'static [ReportColumn] {
        &REPORTS
    }

    fn report(&self, out: &mut Report) {
        let landlord = self.landlord.unwrap_or(self.holder);
        out.landlord_won = self
            .winner
            .is_some_and(|w| w == landlord || Some(w) == self.deputy);
        out.values.clear();
        out.seat(Some(landlord));
        out.seat(self.deputy);
        out.flag(self.revealed);
    }
}

#[cfg(test)]
mod tests {
    use super::super::five::tests::{deal_with, engine, play_out, reported_partner};
    use super::super::{check_rules, Rng, Table};
    use super::*;
    use serde_json::{json, Value};

    fn rules() -> Rules {
        Rules::preset("five-player-3deck").unwrap()
    }

    fn pass_all(t: &mut Table) {
        for _ in 0..5 {
            t.apply(Action::Pass).unwrap();
        }
    }

    #[test]
    fn grabs_run_strongest_first() {
        // Marked rank 9 (slot 6): DD, XXX, 9s9s, 9d9d9d.
        let hand = Hand::of(&super::super::deal::physical_deck(&rules())[..0]);
        assert!(grab_units(&hand, 6).is_empty());
        let c = |slot: usize, suit| Card {
            slot: slot as u8,
            suit,
        };
        let mut cards = vec![c(BIG_JOKER, 0); 2];
        cards.extend([c(SMALL_JOKER, 0); 3]);
        cards.extend([c(6, 3); 2]);
        cards.extend([c(6, 0); 3]);
        let strengths: Vec<Strength> = grab_units(&Hand::of(&cards), 6)
            .iter()
            .map(|g| g.strength)
            .collect();
        assert_eq!(
            strengths,
            vec![(2, 0), (2, -1), (3, -1), (2, -2), (2, -5), (3, -5)]
        );
    }

    #[test]
    fn the_seed_grab_example_makes_base_6_and_the_trio_holder_main() {
        // The seed's hands, rotated so that the 9h9h9h holder is seat 0.
        let hands = ["9h9h9h9c", "9s9cX", "9s9s9d9c", "DD9d9d", "XXD"];
        let r = Rules {
            auto_win: false,
            ..rules()
        };
        let deal = deal_with(&r, &hands, "7d7d7d7c", "9h", 0);
        let mut t = Table::new(engine(r), Rng(0), vec![deal]).unwrap();
        let mut counts = Vec::new();
        for seat in 0..5 {
            assert_eq!((t.phase(), t.to_act()), (Phase::Grab, seat));
            let mut k = 0;
            while t.legal().contains(&Action::Grab) {
                t.apply(Action::Grab).unwrap();
                k += 1;
            }
            t.apply(Action::Pass).unwrap();
            counts.push(k);
        }
        assert_eq!(counts, [2, 0, 1, 2, 1]);
        let view = t.observation(3).to_json("five-player-3deck");
        let grabs = json!([
            [0, "9h9h"],
            [0, "9h9h9h"],
            [2, "9s9s"],
            [3, "DD"],
            [3, "9d9d"],
            [4, "XX"]
        ]);
        assert_eq!(
            (&view["grabs"], &view["base"], &view["main_landlord"]),
            (&grabs, &json!(6), &json!(0))
        );
        assert_eq!(
            t.core().events,
            [Event::times("base", 6), Event::times("level", 1)]
        );
        assert_eq!(
            (t.phase(), t.to_act(), t.core().hands[0].len()),
            (Phase::Call, 0, 38)
        );
    }

    #[test]
    fn nobody_grabbing_gives_the_holder_the_no_grab_base() {
        let r = Rules {
            auto_win: false,
            no_grab_base: 3,
            level_points: 5,
            score_scheme: ScoreScheme::Power,
            ..rules()
        };
        let deal = deal_with(&r, &["", "9h"], "", "9h", 1);
        let mut t = Table::new(engine(r), Rng(0), vec![deal]).unwrap();
        pass_all(&mut t);
        assert_eq!((t.phase(), t.to_act()), (Phase::Call, 1));
        assert_eq!(
            t.core().events,
            [Event::times("base", 8), Event::times("level", 5)]
        );
        t.apply(Action::OpenSolo).unwrap();
        assert_eq!(super::super::scoring::stake(&t.core().events), 8 * 5 * 8);
    }

    #[test]
    fn a_hand_without_a_pair_wins_at_once() {
        let distinct: String = "3456789TJQ"
            .chars()
            .flat_map(|r| "dchs".chars().map(move |s| format!("{r}{s}")))
            .collect();
        let (hand, kitty) = distinct.split_at(62);
        let deal = deal_with(&rules(), &[hand], &kitty[..14], "3d", 0);
        let mut t = Table::new(engine(rules()), Rng(0), vec![deal]).unwrap();
        pass_all(&mut t);
        assert_eq!((t.phase(), t.to_act()), (Phase::Over, 4));
        let result = t.result().unwrap().to_json();
        assert_eq!(result["auto_win"], json!("no-pair"));
        assert_eq!(result["scores"], json!([4, -1, -1, -1, -1]));
    }

    #[test]
    fn a_hidden_solo_announces_its_card_like_a_friend_call() {
        let r = Rules {
            auto_win: false,
            ..rules()
        };
        let solo = deal_with(&r, &["3d3d3d7d7d7c7c"], "", "7d", 0);
        let friend = deal_with(&r, &["3d3d7d7d7c7c", "3d"], "", "7d", 0);
        let mut a = Table::new(engine(r.clone()), Rng(0), vec![solo]).unwrap();
        let mut b = Table::new(engine(r), Rng(0), vec![friend]).unwrap();
        pass_all(&mut a);
        pass_all(&mut b);
        assert!(a.legal().contains(&Action::HiddenSolo));
        assert!(!b.legal().contains(&Action::HiddenSolo));
        a.apply(Action::HiddenSolo).unwrap();
        b.apply(Action::CallFriend).unwrap();
        for t in [&mut a, &mut b] {
            let farmer = t.observation(4).to_json("five-player-3deck");
            assert_eq!(
                (&farmer["called"], &farmer["solo"], &farmer["deputy"]),
                (&json!("3d"), &Value::Null, &Value::Null)
            );
            assert!(farmer["history"].as_array().unwrap().len() == 5);
        }
        assert_eq!(reported_partner(&b), Some(1));
        assert_eq!(
            b.observation(1).to_json("five-player-3deck")["deputy"],
            json!(1)
        );
        let three = *a
            .engine()
            .classify(&crate::Cards::parse("3").unwrap())
            .first()
            .unwrap();
        a.apply(Action::Play(three)).unwrap();
        assert_eq!(a.report().values[2], 1, "revealed");
        b.apply(Action::Play(three)).unwrap(); // the main landlord's own copy
        assert_eq!(b.report().values[2], 0, "not revealed");
    }

    #[test]
    fn random_deals_finish_under_both_schemes() {
        for seed in 0..100 {
            let scheme = [ScoreScheme::Multiply, ScoreScheme::Power][seed as usize % 2];
            let r = Rules {
                score_scheme: scheme,
                ..rules()
            };
            let mut t = Table::seeded(engine(r), seed, 0).unwrap();
            play_out(&mut t, &mut Rng(seed));
            let (r, report) = (t.result().unwrap(), t.report());
            assert_eq!(r.scores.iter().sum::<i64>(), 0);
            let sign = if report.landlord_won { 1 } else { -1 };
            let (p, landlord) = (r.multiplier, report.landlord());
            match reported_partner(&t) {
                None => assert_eq!(r.scores[landlord], 4 * sign * p),
                Some(d) => assert_eq!((r.scores[landlord], r.scores[d]), (2 * sign * p, sign * p)),
            }
        }
    }

    #[test]
    fn rule_sets_it_cannot_play_are_refused() {
        let refused = |r: Rules, option: &str| {
            let err = check_rules(&r).unwrap_err().to_string();
            assert!(err.contains(option), "{option}: {err}");
        };
        refused(
            Rules {
                decks: 2,
                hand_size: 21,
                kitty: 3,
                ..rules()
            },
            "decks",
        );
        refused(
            Rules {
                level_points: 0,
                ..rules()
            },
            "level_points",
        );
        refused(
            Rules {
                no_grab_base: 13,
                ..rules()
            },
            "no_grab_base",
        );
        refused(
            Rules {
                hand_size: 1,
                kitty: 157,
                ..rules()
            },
            "hand_size",
        );
    }
}
