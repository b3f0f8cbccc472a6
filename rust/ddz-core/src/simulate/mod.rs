//! Whole deals played in Rust by built-in policies. The presets the table
//! plays (`crate::table`: classic, two-player, four-player, laizi,
//! five-player, five-player-3deck) run on it, the policy choosing among its
//! legal actions (`chooser.rs`); the others still run their own loops here
//! (temporary, until their families join the table):
//! `six-player-2v4` and `six-player-teams` with their two marked cards
//! (`six2v4.rs`), and `six-player-3v3` and `six-player-3v3-kitty` with
//! their open and hidden landlords (`six3v3.rs`): every preset.
//!
//! The procedures mirror the Python `Game` flows (python/ddz/game/flows/)
//! decision for decision; a test replays recorded deals through `Game` and
//! compares the outcomes. Every game draws from its own generator, seeded
//! from (seed, game index), so results do not depend on the number of
//! threads.
//!
//! This file holds what the flows share: the generator, the policies, the
//! action and outcome types, physical cards where suits matter, the trick
//! loop and the spring rule. Shared too: `deck.rs` shuffles and cuts a
//! physical deck, `copies.rs` follows the copies of a marked rank through
//! the play, and `bidding.rs` takes bids of 1 to 3.

mod bidding;
mod chooser;
mod copies;
mod deck;
mod six2v4;
mod six3v3;

use crate::batch;
use crate::cards::{Cards, SYMBOLS};
use crate::engine::Engine;
use crate::play::Move;
use crate::rules::{Rules, PRESETS};
use rayon::prelude::*;
use std::fmt;

/// How the simulated players choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly among the legal actions.
    Random,
    /// What `ddz.agents.GreedyAgent` picks: the smallest play that beats
    /// (hint order), else pass; the smallest lead; the lowest open bid;
    /// declines every other option (no kick, keep hidden, no double).
    Greedy,
}

/// A decision of a simulated deal, as the Python `Game` spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Pass,
    Bid(u8),
    Call,
    Kick(bool),
    CounterKick(bool),
    /// Five-player reveal round: `keep` (false) or `reveal` (true).
    Reveal(bool),
    Double(bool),
    /// Five-player-3deck grab round: one more grab (a `pass` ends the turn).
    Grab,
    /// Five-player-3deck, the main landlord's choice: call a friend.
    CallFriend,
    /// Five-player-3deck: play alone, announcing a card held three times.
    HiddenSolo,
    /// Five-player-3deck: play alone openly.
    OpenSolo,
    /// Six-player-2v4 and -teams: `show` (true) or `no-show` (false).
    Show(bool),
    /// Six-player-teams: a farmer's side, `side:main` (false) or
    /// `side:counter` (true).
    Side(bool),
    /// A play, with the physical copies it takes of a rank whose identity
    /// matters (five-player: the marked card's rank).
    Play(Move, Option<Named>),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Pass => write!(f, "pass"),
            Action::Bid(b) => write!(f, "bid:{b}"),
            Action::Call => write!(f, "call"),
            Action::Kick(true) => write!(f, "kick"),
            Action::Kick(false) => write!(f, "no-kick"),
            Action::CounterKick(true) => write!(f, "counter-kick"),
            Action::CounterKick(false) => write!(f, "no-counter-kick"),
            Action::Reveal(true) => write!(f, "reveal"),
            Action::Reveal(false) => write!(f, "keep"),
            Action::Double(true) => write!(f, "double"),
            Action::Double(false) => write!(f, "no-double"),
            Action::Grab => write!(f, "grab"),
            Action::CallFriend => write!(f, "call-friend"),
            Action::HiddenSolo => write!(f, "hidden-solo"),
            Action::OpenSolo => write!(f, "open-solo"),
            Action::Show(true) => write!(f, "show"),
            Action::Show(false) => write!(f, "no-show"),
            Action::Side(false) => write!(f, "side:main"),
            Action::Side(true) => write!(f, "side:counter"),
            Action::Play(m, _) => write!(f, "{m}"),
        }
    }
}

// ---------------------------------------------------------------------------
// Physical cards, for the presets where a card's suit matters
// ---------------------------------------------------------------------------

pub use crate::table::physical::{identities, Card, SUITS};

/// Cards low to high by rank then suit (Python's `sort_key` order).
fn sorted(cards: &[Card]) -> Vec<Card> {
    let mut sorted = cards.to_vec();
    sorted.sort_unstable();
    sorted
}

/// The physical copies of one rank that a play takes, counted by suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Named {
    pub rank: u8,
    pub suits: [u8; 4],
}

impl Named {
    /// The play's cards as the Python `Game` names them (`step(..., cards=)`):
    /// the named rank with suits, every other rank bare (any copy will do).
    pub fn ids(&self, cards: &Cards) -> String {
        let mut out = String::new();
        for (slot, &symbol) in SYMBOLS.iter().enumerate() {
            if slot == self.rank as usize {
                for (&suit, &n) in SUITS.iter().zip(&self.suits) {
                    for _ in 0..n {
                        out.push(symbol);
                        out.push(suit);
                    }
                }
            } else {
                out.extend(std::iter::repeat_n(symbol, cards.get(slot) as usize));
            }
        }
        out
    }
}

/// A deal with suits, and its marked card (five-player).
#[derive(Clone, Debug)]
pub struct Suited {
    pub hands: Vec<Vec<Card>>,
    /// In the order the record lists it: as dealt in six-player-3v3-kitty,
    /// whose open landlords take it from the top; sorted elsewhere, as the
    /// Python deals sort it.
    pub kitty: Vec<Card>,
    pub marked: Card,
    /// Six-player-2v4 and -teams: the public and the secret mark, each a
    /// card and the seat holding that copy (records write `card@seat`).
    pub marks: Option<[(Card, usize); 2]>,
}

/// The cards of one deal.
#[derive(Clone, Debug)]
pub struct Dealt {
    pub hands: Vec<Cards>,
    pub kitty: Cards,
    pub set_aside: Cards,
    pub first: usize,
    /// The same deal with suits, where identities matter (five-player).
    pub suited: Option<Suited>,
}

/// What happened in one simulated deal.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The landlord (five-player: the open landlord; six-player-3v3: the
    /// marked card's receiver, the first open landlord).
    pub landlord: usize,
    /// Five-player: the hidden landlord, None when the open landlord plays
    /// alone (1 v 4). Always None for the one-landlord presets.
    pub hidden_landlord: Option<usize>,
    /// Five-player: the partnership was public at the end (a reveal, or the
    /// copy of the marked card played).
    pub revealed: bool,
    /// Six-player-3v3: the open landlords in the order named (the first is
    /// `landlord`, the marked card's receiver), the hidden landlords, and
    /// those of them revealed by playing a copy of the marked card, in the
    /// order they were. Empty for the other presets.
    pub open_landlords: Vec<usize>,
    pub hidden_landlords: Vec<usize>,
    pub revealed_landlords: Vec<usize>,
    /// True when the landlord's side won.
    pub landlord_won: bool,
    /// Plays and passes in the trick phase.
    pub turns: u32,
    /// Bombs and king bombs played.
    pub bombs: u32,
    pub multiplier: i64,
    pub scores: Vec<i64>,
    /// Every deal dealt (redeals included) and every action, when recorded.
    pub deals: Vec<Dealt>,
    pub actions: Vec<(usize, Action)>,
    /// A deal played on the table, when recorded: its deals and actions as
    /// `Game` records write them (replaces `deals` and `actions`).
    pub record: Option<TableRecord>,
}

/// A table deal's record: its deals, and each action as `(seat, entry)`.
pub type TableRecord = (Vec<serde_json::Value>, Vec<(usize, serde_json::Value)>);

/// Why a rule set cannot be simulated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "simulate plays the presets' flows, and {:?} is no preset; the presets are: {}",
            self.0,
            PRESETS.join(", ")
        )
    }
}

impl std::error::Error for Unsupported {}

use crate::table::Rng;

/// The Python flow a preset plays.
#[derive(Clone, Copy)]
enum Flow {
    /// On the table (`chooser.rs`).
    Table,
    Six(six2v4::Variant),
    ThreeVThree(six3v3::Variant),
}

fn flow_of(preset: &str) -> Result<Flow, Unsupported> {
    if preset == "six-player-2v4" {
        return Ok(Flow::Six(six2v4::Variant::TwoVsFour));
    }
    if preset == "six-player-teams" {
        return Ok(Flow::Six(six2v4::Variant::Teams));
    }
    if preset == "six-player-3v3" {
        return Ok(Flow::ThreeVThree(six3v3::Variant::NoKitty));
    }
    if preset == "six-player-3v3-kitty" {
        return Ok(Flow::ThreeVThree(six3v3::Variant::Kitty));
    }
    crate::table::family_of(preset)
        .map(|_| Flow::Table)
        .ok_or_else(|| Unsupported(preset.to_string()))
}

/// Play `games` deals on `threads` threads; deal `i` uses generator
/// (seed, i). The first `record` outcomes keep their deals and actions.
pub fn simulate(
    engine: &Engine,
    games: usize,
    seed: u64,
    threads: usize,
    policy: Policy,
    record: usize,
) -> Result<Vec<Outcome>, Unsupported> {
    simulate_from(engine, 0, games, seed, threads, policy, record)
}

/// As `simulate`, for deals `first .. first + games` of the same series, so
/// a long run can be played in parts with the same results.
pub fn simulate_from(
    engine: &Engine,
    first: usize,
    games: usize,
    seed: u64,
    threads: usize,
    policy: Policy,
    record: usize,
) -> Result<Vec<Outcome>, Unsupported> {
    let flow = flow_of(&engine.rules().preset)?;
    let shared = std::sync::Arc::new(engine.clone());
    let play = |i: usize| {
        let index = (first + i) as u64;
        let mut rng = Rng::for_game(seed, index);
        let table = || Table::new(engine, policy, i < record);
        match flow {
            Flow::Table => chooser::play(&shared, seed, index, policy, i < record),
            Flow::Six(variant) => six2v4::Deal::new(table(), variant).run(&mut rng),
            Flow::ThreeVThree(variant) => six3v3::Deal::new(table(), variant).run(&mut rng),
        }
    };
    Ok(batch::run_on(threads, || {
        (0..games)
            .into_par_iter()
            .with_min_len(64)
            .map(play)
            .collect()
    }))
}

/// A flow's hook after each play (see `Table::tricks`): the seat, the play
/// and every hand; returns the physical copies to record with the play.
type OnPlay<'a> = dyn FnMut(usize, &Move, &mut [Cards]) -> Option<Named> + 'a;

/// What every flow shares while it plays one deal: the rules, the policy,
/// the record and the trick loop.
struct Table<'e> {
    engine: &'e Engine,
    policy: Policy,
    record: bool,
    out: Outcome,
    buf: Vec<Move>,
}

impl<'e> Table<'e> {
    fn new(engine: &'e Engine, policy: Policy, record: bool) -> Self {
        Table {
            engine,
            policy,
            record,
            out: Outcome::default(),
            buf: Vec::with_capacity(512),
        }
    }

    fn rules(&self) -> &'e Rules {
        self.engine.rules()
    }

    fn players(&self) -> usize {
        self.engine.rules().players as usize
    }

    fn log(&mut self, seat: usize, action: Action) {
        if self.record {
            self.out.actions.push((seat, action));
        }
    }

    fn deal_log(&mut self, dealt: &Dealt) {
        if self.record {
            self.out.deals.push(dealt.clone());
        }
    }

    /// A yes/no option whose "no" the greedy policy always takes (kick,
    /// reveal, double): random takes it with probability 1/2.
    fn accepts(&self, rng: &mut Rng) -> bool {
        self.policy == Policy::Random && rng.below(2) == 1
    }

    /// One of `options` choices listed in Python's order: random takes any
    /// uniformly, greedy the first.
    fn choose(&self, options: usize, rng: &mut Rng) -> usize {
        match self.policy {
            Policy::Random => rng.below(options),
            Policy::Greedy => 0,
        }
    }

    /// Trick play from `leader`'s lead until a hand is empty. `on_play`
    /// runs after each play has left the hand, as the Python flow's
    /// `on_play` does, and returns the physical copies to record with it;
    /// it may take cards from the hands (six-player: the dead joker). Then,
    /// as in Python's `Game`, the player wins with an empty hand, else the
    /// first seat whose hand is empty. Returns (winner, plays per seat).
    ///
    /// `on_play` is dynamic so that one copy of this loop serves every flow:
    /// with a single caller, the move generator is inlined here (a generic
    /// loop, one copy per flow, made greedy deals about 12% slower).
    fn tricks(
        &mut self,
        hands: &mut [Cards],
        leader: usize,
        rng: &mut Rng,
        on_play: &mut OnPlay<'_>,
    ) -> (usize, Vec<u32>) {
        let e = self.engine;
        let n = hands.len();
        let mut plays = vec![0u32; n];
        let mut last: Option<Move> = None;
        let mut passes = 0;
        let mut seat = leader;
        let mut buf = std::mem::take(&mut self.buf);
        loop {
            self.out.turns += 1;
            e.moves_into(&hands[seat], last.as_ref(), &mut buf);
            let choice = match self.policy {
                Policy::Random => {
                    // Python lists pass after the plays when following.
                    let options = buf.len() + last.is_some() as usize;
                    let pick = rng.below(options);
                    buf.get(pick).copied()
                }
                Policy::Greedy => buf.iter().min_by_key(|m| e.hint_key(m)).copied(),
            };
            match choice {
                None => {
                    self.log(seat, Action::Pass);
                    passes += 1;
                    if passes == n - 1 {
                        last = None;
                        passes = 0;
                    }
                }
                Some(m) => {
                    hands[seat] = hands[seat] - m.cards;
                    plays[seat] += 1;
                    if m.kind.is_bomb() {
                        self.out.bombs += 1;
                    }
                    let named = on_play(seat, &m, hands);
                    self.log(seat, Action::Play(m, named));
                    let out = if hands[seat].is_empty() {
                        Some(seat)
                    } else {
                        hands.iter().position(Cards::is_empty)
                    };
                    if let Some(winner) = out {
                        self.buf = buf;
                        return (winner, plays);
                    }
                    last = Some(m);
                    passes = 0;
                }
            }
            seat = (seat + 1) % n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    /// The engine of a preset, for the flows' tests too.
    pub(super) fn engine(preset: &str) -> Engine {
        Engine::new(Rules::preset(preset).unwrap()).unwrap()
    }

    #[test]
    fn same_results_whatever_the_threads() {
        for preset in ["classic", "five-player"] {
            let e = engine(preset);
            let one = simulate(&e, 500, 7, 1, Policy::Random, 0).unwrap();
            let two = simulate(&e, 500, 7, 2, Policy::Random, 0).unwrap();
            for (a, b) in one.iter().zip(&two) {
                assert_eq!(
                    (a.landlord, &a.scores, a.turns),
                    (b.landlord, &b.scores, b.turns)
                );
            }
            assert!(one.iter().all(|o| o.scores.iter().sum::<i64>() == 0));
        }
    }

    #[test]
    fn every_preset_plays_and_other_rule_sets_are_refused() {
        for preset in PRESETS {
            let e = engine(preset);
            assert_eq!(simulate(&e, 1, 0, 1, Policy::Random, 0).unwrap().len(), 1);
        }
        // A rule set renamed from a preset has no flow to follow.
        let house = Rules {
            preset: "house-rules".into(),
            ..Rules::preset("classic").unwrap()
        };
        let e = Engine::new(house).unwrap();
        let refused = simulate(&e, 1, 0, 1, Policy::Random, 0).unwrap_err();
        assert!(refused.to_string().contains("\"house-rules\" is no preset"));
    }

    #[test]
    fn named_copies_spell_the_whole_play() {
        let named = Named {
            rank: 6,
            suits: [1, 0, 1, 0],
        };
        let cards = Cards::parse("8899T").unwrap();
        assert_eq!(named.ids(&cards), "889d9hT");
    }
}
