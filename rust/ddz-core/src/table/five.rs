//! `five-player`: the open landlord and the hidden landlord
//! (docs/flow-five-player.md).
//!
//! The marked card's holder is the open landlord and takes the kitty
//! unseen; the holder of the other copy is the hidden landlord, or nobody
//! when the open landlord holds both (1 v 4). Every seat in turn then
//! answers `keep` or `reveal` (farmers may only keep, so that the turns
//! give nothing away), then `no-double` or `double`; the open landlord
//! leads. Options read: `double_step`, `doubling_bomb`, `spring`,
//! `anti_spring`.

use super::marked::{check_markable, marked_card, marked_deal};
use super::roles::{ReportColumn, RoleSpec, RoleType, RoleValue};
use super::scoring::{spring_events, Event, Settlement};
use super::{Action, Card, Core, Cut, Deal, Family, FamilySpec, Phase, Report, Rng};
use crate::error::{in_range, RulesError};
use crate::play::{Kind, Move};
use crate::rules::{DoubleStep, Rules};

/// What `ddz.simulate` reports of a deal.
const REPORTS: [ReportColumn; 3] = [
    ReportColumn::seat("landlord", "the open landlord"),
    ReportColumn::seat(
        "hidden_landlord",
        "the hidden landlord (-1 when the open landlord plays alone, 1 v 4)",
    ),
    ReportColumn {
        key: "revealed",
        width: 1,
        flags: true,
        doc: "the partnership was public by the end (a reveal, or the other copy played)",
    },
];

pub(super) static SPEC: FamilySpec = FamilySpec {
    name: "five-player",
    flow: crate::rules::Flow::HiddenPartner,
    check,
    new,
    reports: &REPORTS,
};

/// The rule sets this family can play to the end.
fn check(rules: &Rules) -> Result<(), RulesError> {
    check_five(
        rules,
        2,
        "the marked card has exactly one other copy, the hidden landlord's",
    )?;
    // A rank bomb's size, in cards.
    in_range(
        "doubling_bomb",
        rules.doubling_bomb.into(),
        4,
        rules.max_bomb().into(),
    )
}

pub(super) fn bad(option: &'static str, why: &str) -> Result<(), RulesError> {
    Err(RulesError::Conflict {
        option,
        why: why.into(),
    })
}

/// What both five-player families need: five seats (a partner settles one
/// farmer's worth and the leader two), `decks` decks (so that the role
/// card has the copies the flow counts on), every card dealt and no laizi.
pub(super) fn check_five(rules: &Rules, decks: u8, why_decks: &str) -> Result<(), RulesError> {
    if rules.players != 5 {
        return bad(
            "players",
            "the five-player flows seat 5: a leader settling two farmers' worth and a partner one balance three farmers",
        );
    }
    if rules.decks != decks {
        return bad(
            "decks",
            &format!(
                "the {} flow plays {decks} decks: {why_decks}",
                rules.flow.name()
            ),
        );
    }
    if rules.set_aside != 0 {
        return bad(
            "set_aside",
            "the five-player flows deal every card, so that every copy of a role card is in a hand",
        );
    }
    if rules.laizi != 0 {
        return bad("laizi", "the five-player flows have no wild cards");
    }
    check_markable(rules).map_err(|why| RulesError::Conflict {
        option: "hand_size",
        why,
    })
}

fn new(_rules: &Rules) -> Box<dyn Family> {
    Box::new(FivePlayer {
        marked: Card { slot: 0, suit: 0 },
        open: 0,
        hidden: None,
        revealed: false,
        turns: 0,
        winner: None,
        open_played: 0,
        drawn: None,
    })
}

#[derive(Clone)]
struct FivePlayer {
    marked: Card,
    open: usize,
    /// The hidden landlord, or None when the open landlord plays 1 v 4.
    hidden: Option<usize>,
    /// The team is public: someone revealed, or the copy was played.
    revealed: bool,
    /// Copies of the marked card the open landlord has played (public:
    /// played cards are face up).
    open_played: u8,
    /// Answers given in the current round.
    turns: usize,
    winner: Option<usize>,
    /// The card `deal` marked, for the `start` that follows (a given deal
    /// is read from its `marked` key instead).
    drawn: Option<Card>,
}

/// The roles every seat is told, sorted by key.
const ROLES: [RoleSpec; 7] = [
    RoleSpec {
        key: "hidden_landlord",
        ty: RoleType::Seat,
        doc: "the holder of the marked card's other copy, the open landlord's partner (none in a 1 v 4 deal)",
        seen: "the two landlords; everyone once the partnership is revealed",
        label: ["hidden landlord", "暗地主"],
    },
    RoleSpec {
        key: "landlord",
        ty: RoleType::Seat,
        doc: "the open landlord (the same as open_landlord)",
        seen: "everyone",
        label: ["landlord", "地主"],
    },
    RoleSpec {
        key: "marked",
        ty: RoleType::Card,
        doc: "the marked card: its holder is the open landlord",
        seen: "everyone",
        label: ["marked card", "标记牌"],
    },
    RoleSpec {
        key: "open_landlord",
        ty: RoleType::Seat,
        doc: "the holder of the marked card, who takes the kitty",
        seen: "everyone",
        label: ["open landlord", "明地主"],
    },
    RoleSpec {
        key: "revealed",
        ty: RoleType::Flag,
        doc: "the partnership is public: a landlord revealed, or the other copy was played",
        seen: "everyone",
        label: ["revealed", "已亮明"],
    },
    RoleSpec {
        key: "role",
        ty: RoleType::Word,
        doc: "the seat's own role: open-landlord, hidden-landlord or farmer",
        seen: "the seat itself",
        label: ["role", "身份"],
    },
    RoleSpec {
        key: "solo",
        ty: RoleType::Flag,
        doc: "the open landlord plays alone (holds both copies), 1 v 4",
        seen: "as hidden_landlord",
        label: ["1 v 4", "一打四"],
    },
];

/// Bombs of `doubling_bomb` cards or more double the stake, each under its
/// own name.
const BOMB_NAMES: [&str; 17] = [
    "bomb-0", "bomb-1", "bomb-2", "bomb-3", "bomb-4", "bomb-5", "bomb-6", "bomb-7", "bomb-8",
    "bomb-9", "bomb-10", "bomb-11", "bomb-12", "bomb-13", "bomb-14", "bomb-15", "bomb-16",
];

impl FivePlayer {
    fn is_landlord(&self, seat: usize) -> bool {
        seat == self.open || Some(seat) == self.hidden
    }

    /// The landlords, open first, without allocating (`finish` runs
    /// every deal).
    fn landlords(&self) -> ([usize; 2], usize) {
        (
            [self.open, self.hidden.unwrap_or(self.open)],
            1 + self.hidden.is_some() as usize,
        )
    }

    fn knows_team(&self, seat: usize) -> bool {
        self.revealed || self.is_landlord(seat)
    }
}

impl Family for FivePlayer {
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
        self.marked = drawn.unwrap_or_else(|| marked_card(t.rules(), deal).expect("checked"));
        self.open = deal.first;
        t.give_kitty(self.open);
        let n = t.players();
        self.hidden = (0..n).find(|&s| s != self.open && t.hands[s].holds(self.marked) > 0);
        self.revealed = false;
        self.open_played = 0;
        self.turns = 0;
        self.winner = None;
        t.phase = Phase::Reveal;
        t.to_act = self.open;
    }

    fn legal(&self, t: &Core, out: &mut Vec<Action>) {
        match t.phase {
            Phase::Reveal if self.is_landlord(t.to_act) => {
                out.extend([Action::Reveal(false), Action::Reveal(true)])
            }
            Phase::Reveal => out.push(Action::Reveal(false)),
            _ => out.extend([Action::Double(false), Action::Double(true)]),
        }
    }

    fn apply(&mut self, t: &mut Core, seat: usize, action: Action) {
        let n = t.players();
        self.turns += 1;
        if t.phase == Phase::Reveal {
            if action == Action::Reveal(true) {
                // One reveal is enough: nothing is left to hide.
                self.revealed = true;
                t.events.push(Event::times("reveal", 2));
            }
            if self.revealed || self.turns == n {
                self.turns = 0;
                t.phase = Phase::Double;
                t.to_act = self.open;
            } else {
                t.to_act = t.next(seat);
            }
            return;
        }
        if action == Action::Double(true) {
            t.events.push(match t.rules().double_step {
                DoubleStep::X2 => Event::times("double", 2),
                DoubleStep::Plus1 => Event::plus("double", 1),
            });
        }
        if self.turns == n {
            t.begin_play(self.open);
        } else {
            t.to_act = t.next(seat);
        }
    }

    /// Play reads the marked card's copies alone.
    fn plays_read_ranks(&self) -> u32 {
        1 << self.marked.slot
    }

    fn on_play(&mut self, t: &mut Core, seat: usize, m: &Move, cards: &[Card]) {
        match m.kind {
            Kind::Bomb if m.length >= t.rules().doubling_bomb => t
                .events
                .push(Event::times(BOMB_NAMES[m.length as usize], 2)),
            Kind::KingBomb if m.length >= 3 => {
                let name = if m.length == 4 {
                    "sky-king"
                } else {
                    "three-jokers"
                };
                t.events.push(Event::times(name, 2))
            }
            _ => {}
        }
        if seat == self.open {
            let copies = cards.iter().filter(|&&c| c == self.marked).count();
            self.open_played += copies as u8;
        }
        if self.revealed || !cards.contains(&self.marked) {
            return;
        }
        if Some(seat) == self.hidden {
            self.revealed = true;
        } else if self.hidden.is_none()
            && seat == self.open
            && t.hands[seat].holds(self.marked) == 0
        {
            self.revealed = true; // both copies played by the open landlord: 1 v 4
        }
    }

    fn finish(&mut self, t: &Core, winner: usize) -> Settlement {
        self.winner = Some(winner);
        let (seats, n) = self.landlords();
        let landlords = &seats[..n];
        let won = landlords.contains(&winner);
        let mut events = t.events.clone();
        events.extend(spring_events(t.rules(), &t.tricks, landlords, won));
        Settlement::leader_and_partner(t.players(), self.open, self.hidden, won, events)
    }

    fn role_specs(&self) -> &'static [RoleSpec] {
        &ROLES
    }

    fn role_values(&self, _t: &Core, viewer: Option<usize>, out: &mut Vec<RoleValue>) {
        let knows = viewer.is_none_or(|seat| self.knows_team(seat));
        let role = viewer.map(|seat| {
            if seat == self.open {
                "open-landlord"
            } else if Some(seat) == self.hidden {
                "hidden-landlord"
            } else {
                "farmer"
            }
        });
        out.clear();
        out.push(match knows {
            true => self.hidden.into(),
            false => RoleValue::Unknown,
        });
        out.push(RoleValue::Seat(self.open));
        out.push(RoleValue::Card(self.marked));
        out.push(RoleValue::Seat(self.open));
        out.push(RoleValue::Flag(self.revealed));
        out.push(role.map_or(RoleValue::Unknown, RoleValue::Word));
        out.push(knows.then_some(self.hidden.is_none()).into());
    }

    fn hands_seen_by(&self, _t: &Core, seat: usize) -> Vec<usize> {
        // While the partnership is secret, the two landlords see each other.
        match self.hidden {
            Some(hidden) if !self.revealed && seat == self.open => vec![hidden],
            Some(hidden) if !self.revealed && seat == hidden => vec![self.open],
            _ => Vec::new(),
        }
    }

    fn side_of(&self, _t: &Core, seat: usize) -> Option<u8> {
        Some(u8::from(self.is_landlord(seat)))
    }

    fn known_cards(&self, _t: &Core, seat: usize, out: &mut Vec<(usize, Card)>) {
        // Until the open landlord plays a copy of the marked card, it
        // holds the one it was dealt.
        if seat != self.open && !self.knows_team(seat) && self.open_played == 0 {
            out.push((self.open, self.marked));
        }
    }

    fn redeal_roles(&mut self, t: &Core, seat: usize, _rng: &mut Rng) -> bool {
        if self.knows_team(seat) {
            return true;
        }
        // The partner is whoever now holds the other copy; none when the
        // open landlord holds (or played) both.
        let holder =
            (0..t.players()).find(|&s| s != self.open && t.hands[s].holds(self.marked) > 0);
        self.hidden = holder;
        true
    }

    fn kitty_seen_by(&self, t: &Core, seat: usize) -> bool {
        t.kitty_given && seat == self.open
    }

    fn visible(&self, _t: &Core, _viewer: usize, _seat: usize, _action: &Action) -> bool {
        true // the partner is a card's holder, no decision: every decision is public
    }

    fn report_columns(&self) -> &'static [ReportColumn] {
        &REPORTS
    }

    fn report(&self, out: &mut Report) {
        out.landlord_won = self.winner.is_some_and(|w| self.is_landlord(w));
        out.values.clear();
        out.seat(Some(self.open));
        out.seat(self.hidden);
        out.flag(self.revealed);
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::deal::physical_deck;
    use super::super::physical::parse_identities;
    use super::super::{Rng, Table};
    use super::*;
    use crate::engine::Engine;
    use serde_json::{json, Value};
    use std::sync::Arc;

    /// The partner a table reports to `ddz.simulate` (the second column of
    /// both five-player families).
    pub(in crate::table) fn reported_partner(t: &Table) -> Option<usize> {
        usize::try_from(t.report().values[1]).ok()
    }

    pub(in super::super) fn engine(rules: Rules) -> Arc<Engine> {
        Arc::new(Engine::new(rules).unwrap())
    }

    /// Every seat's observation, as JSON.
    fn views(t: &mut Table) -> Vec<Value> {
        let preset = t.rules().preset.clone();
        (0..t.rules().players as usize)
            .map(|s| t.observation(s).to_json(&preset))
            .collect()
    }

    /// Play `t` out with random choices; every few steps an illegal
    /// action must be refused and change nothing that any seat sees.
    pub(in super::super) fn play_out(t: &mut Table, rng: &mut Rng) {
        let wrong = [
            Action::Bid(2),
            Action::Grab,
            Action::Reveal(true),
            Action::OpenSolo,
            Action::Pass,
        ];
        let mut steps = 0;
        while !t.is_over() {
            if steps % 7 == 0 {
                let bad = wrong[rng.below(wrong.len())];
                if !t.legal().contains(&bad) {
                    let before = (views(t), t.actions().len());
                    assert!(t.apply(bad).is_err());
                    assert_eq!(before, (views(t), t.actions().len()));
                }
            }
            let n = t.legal().len();
            let a = t.legal().get(rng.below(n)).unwrap();
            t.apply(a).unwrap();
            steps += 1;
        }
        assert!(t.apply(Action::Pass).is_err());
    }

    /// A deal holding the `fixed` cards (every card with its suit; jokers
    /// bare), the rest of the deck shuffled in.
    pub(in super::super) fn deal_with(
        rules: &Rules,
        fixed: &[&str],
        kitty: &str,
        marked: &str,
        first: usize,
    ) -> Deal {
        let mut pool: Vec<Card> = physical_deck(rules);
        let mut places: Vec<Vec<Card>> = Vec::new();
        let n = rules.players as usize;
        for text in fixed
            .iter()
            .copied()
            .chain(std::iter::repeat_n("", n - fixed.len()))
            .chain([kitty])
        {
            let mut place = Vec::new();
            for named in parse_identities(text).unwrap() {
                let card = Card {
                    slot: named.slot,
                    suit: named.suit.expect("suited"),
                };
                let at = pool.iter().position(|&c| c == card).expect("in the deck");
                place.push(pool.remove(at));
            }
            places.push(place);
        }
        Rng(7).shuffle(&mut pool);
        let sizes = std::iter::repeat_n(rules.hand_size, n).chain([rules.kitty]);
        for (place, size) in places.iter_mut().zip(sizes) {
            while place.len() < size as usize {
                place.push(pool.remove(0));
            }
        }
        let text = |cards: &[Card]| cards.iter().map(Card::to_string).collect::<String>();
        let hands: Vec<String> = places[..n].iter().map(|h| text(h)).collect();
        let spec =
            json!({"hands": hands, "kitty": text(&places[n]), "marked": marked, "first": first});
        Table::parse_deal(rules, &spec).unwrap()
    }

    fn rules() -> Rules {
        Rules::preset("five-player").unwrap()
    }

    #[test]
    fn random_deals_finish_and_split_by_side() {
        let mut solos = 0;
        for (seed, step) in (0..150).zip([DoubleStep::X2, DoubleStep::Plus1].iter().cycle()) {
            let r = Rules {
                double_step: *step,
                ..rules()
            };
            let mut t = Table::seeded(engine(r), seed, 0).unwrap();
            let deal = &t.deals()[0];
            let marked = marked_card(t.rules(), deal).unwrap();
            // The hidden landlord holds the other copy (none: the open
            // landlord has both, dealt or from the kitty).
            let open = deal.first;
            let other = (0..5).find(|&s| s != open && deal.hands[s].contains(&marked));
            assert_eq!((t.report().landlord(), reported_partner(&t)), (open, other));
            solos += other.is_none() as usize;
            play_out(&mut t, &mut Rng(seed));
            let r = t.result().unwrap();
            assert_eq!(r.scores.iter().sum::<i64>(), 0);
            let sign = if t.report().landlord_won { 1 } else { -1 };
            let w = r.multiplier;
            assert!(w >= 1);
            match reported_partner(&t) {
                None => assert_eq!(r.scores[open], 4 * sign * w),
                Some(h) => assert_eq!((r.scores[open], r.scores[h]), (2 * sign * w, sign * w)),
            }
        }
        assert!(solos > 0 && solos < 60, "{solos}");
    }

    #[test]
    fn farmers_may_only_keep_and_one_reveal_ends_the_round() {
        let r = rules();
        let deal = deal_with(&r, &["9h3d", "", "9h9c"], "", "9h", 0);
        let mut t = Table::new(engine(r), Rng(0), vec![deal]).unwrap();
        assert_eq!(
            (t.phase(), t.to_act(), reported_partner(&t)),
            (Phase::Reveal, 0, Some(2))
        );
        assert_eq!(t.core().hands[0].len(), 24);
        let seen: Vec<Vec<usize>> = (0..5)
            .map(|s| t.family().hands_seen_by(t.core(), s))
            .collect();
        assert_eq!(seen, vec![vec![2], vec![], vec![0], vec![], vec![]]);
        t.apply(Action::Reveal(false)).unwrap();
        assert_eq!(
            t.legal().iter().collect::<Vec<_>>(),
            vec![Action::Reveal(false)]
        );
        assert!(t.apply(Action::Reveal(true)).is_err());
        t.apply(Action::Reveal(false)).unwrap();
        t.apply(Action::Reveal(true)).unwrap(); // the hidden landlord
        assert_eq!((t.phase(), t.to_act()), (Phase::Double, 0));
        assert_eq!(t.core().events, vec![Event::times("reveal", 2)]);
        assert!(t.family().hands_seen_by(t.core(), 0).is_empty());
        let view = t.observation(4).to_json("five-player");
        assert_eq!(
            (&view["hidden_landlord"], &view["solo"]),
            (&json!(2), &json!(false))
        );
    }

    #[test]
    fn big_bombs_and_three_jokers_double() {
        let r = rules();
        let deal = deal_with(&r, &["XXD3d3d3c3c3h4d4d4c4c"], "", "4c", 0);
        let mut t = Table::new(engine(r.clone()), Rng(0), vec![deal]).unwrap();
        for _ in 0..10 {
            let first = t.legal().get(0).unwrap(); // keep, no-double
            t.apply(first).unwrap();
        }
        let play = |t: &mut Table, text: &str| {
            let m = *t
                .engine()
                .classify(&crate::Cards::parse(text).unwrap())
                .iter()
                .find(|m| m.kind.is_bomb())
                .unwrap();
            t.apply(Action::Play(m)).unwrap();
            for _ in 0..4 {
                t.apply(Action::Pass).unwrap();
            }
        };
        play(&mut t, "XXD");
        play(&mut t, "33333");
        play(&mut t, "4444");
        let names: Vec<&str> = t.core().events.iter().map(|e| e.name).collect();
        assert_eq!(names, ["three-jokers", "bomb-5"]);
    }

    #[test]
    fn simulate_plays_both_presets_on_the_table() {
        use crate::simulate::{simulate, Policy};
        for preset in ["five-player", "five-player-3deck"] {
            let e = Engine::new(Rules::preset(preset).unwrap()).unwrap();
            for policy in [Policy::Random, Policy::Greedy] {
                for o in simulate(&e, 200, 4, 2, policy, 50).unwrap() {
                    assert_eq!(o.scores.iter().sum::<i64>(), 0);
                    let sign = if o.report.landlord_won { 1 } else { -1 };
                    let w = o.multiplier;
                    let landlord = o.report.landlord();
                    // Both families report the partner second.
                    match usize::try_from(o.report.values[1]).ok() {
                        None => assert_eq!(o.scores[landlord], 4 * sign * w),
                        Some(h) => {
                            assert_eq!((o.scores[landlord], o.scores[h]), (2 * sign * w, sign * w))
                        }
                    }
                    let Some(text) = &o.record else {
                        continue;
                    };
                    let record = crate::table::Record::parse(text).unwrap();
                    let words: Vec<String> = (record.actions.iter().take(10))
                        .filter_map(|e| e.action.word().map(str::to_string))
                        .collect();
                    match (preset, policy) {
                        // Greedy keeps and never doubles.
                        ("five-player", Policy::Greedy) => {
                            assert!(
                                words
                                    .iter()
                                    .all(|w| ["keep", "no-double"].contains(&w.as_str())),
                                "{words:?}"
                            )
                        }
                        // Greedy never grabs: the marked card's holder leads at base 1.
                        (_, Policy::Greedy) => {
                            assert_eq!(words[..5], ["pass"; 5]);
                            assert_eq!(json!(o.report.landlord()), record.deals[0]["first"]);
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    #[test]
    fn rule_sets_it_cannot_play_are_refused() {
        let refused = |r: Rules, option: &str| {
            let err = super::super::check_rules(&r).unwrap_err().to_string();
            assert!(err.contains(option), "{option}: {err}");
        };
        refused(
            Rules {
                players: 4,
                hand_size: 26,
                kitty: 4,
                ..rules()
            },
            "players",
        );
        refused(
            Rules {
                decks: 3,
                hand_size: 31,
                kitty: 7,
                ..rules()
            },
            "decks",
        );
        refused(
            Rules {
                hand_size: 20,
                set_aside: 5,
                ..rules()
            },
            "set_aside",
        );
        refused(
            Rules {
                doubling_bomb: 9,
                ..rules()
            },
            "doubling_bomb",
        );
    }
}
