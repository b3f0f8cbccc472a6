//! Whole deals played in Rust by built-in policies, for the presets with one
//! landlord (classic, two-player, four-player, laizi).
//!
//! The procedures mirror the Python `Game` flow (python/ddz/game/flows/
//! landlord.py) decision for decision; a test replays recorded deals
//! through `Game` and compares the outcomes. Every game draws from its own
//! generator, seeded from (seed, game index), so results do not depend on
//! the number of threads.

use crate::batch;
use crate::cards::{Cards, BIG_JOKER, SMALL_JOKER, TWO};
use crate::engine::Engine;
use crate::play::{Kind, Move};
use rayon::prelude::*;
use std::fmt;

/// How the simulated players choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly among the legal actions.
    Random,
    /// The smallest play that beats (hint order), else pass; the smallest
    /// lead; the lowest open bid; never kicks.
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
    Play(Move),
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
            Action::Play(m) => write!(f, "{m}"),
        }
    }
}

/// The cards of one deal.
#[derive(Clone, Debug)]
pub struct Dealt {
    pub hands: Vec<Cards>,
    pub kitty: Cards,
    pub set_aside: Cards,
    pub first: usize,
}

/// What happened in one simulated deal.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub landlord: usize,
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
}

/// Why a rule set cannot be simulated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "simulate does not play {:?} yet; it plays classic, two-player, four-player and laizi",
            self.0
        )
    }
}

impl std::error::Error for Unsupported {}

/// SplitMix64: small, fast, and the same on every platform.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Auction {
    /// Bids 1-3 round and round (classic, four-player).
    Bid,
    /// Call or pass (two-player).
    Call,
    /// One bid each, kicks after a 3 (laizi).
    BidOnce,
}

fn auction_of(preset: &str) -> Result<Auction, Unsupported> {
    match preset {
        "classic" | "four-player" => Ok(Auction::Bid),
        "two-player" => Ok(Auction::Call),
        "laizi" => Ok(Auction::BidOnce),
        other => Err(Unsupported(other.to_string())),
    }
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
    let auction = auction_of(&engine.rules().preset)?;
    let play = |i: usize| {
        let index = (first + i) as u64;
        let mut rng = Rng(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        rng.next();
        Deal::new(engine, auction, policy, i < record).run(&mut rng)
    };
    Ok(batch::run_on(threads, || {
        (0..games)
            .into_par_iter()
            .with_min_len(64)
            .map(play)
            .collect()
    }))
}

struct Deal<'e> {
    engine: &'e Engine,
    auction: Auction,
    policy: Policy,
    record: bool,
    out: Outcome,
    buf: Vec<Move>,
}

impl<'e> Deal<'e> {
    fn new(engine: &'e Engine, auction: Auction, policy: Policy, record: bool) -> Self {
        Deal {
            engine,
            auction,
            policy,
            record,
            out: Outcome::default(),
            buf: Vec::with_capacity(512),
        }
    }

    fn log(&mut self, seat: usize, action: Action) {
        if self.record {
            self.out.actions.push((seat, action));
        }
    }

    fn deal(&mut self, rng: &mut Rng) -> Dealt {
        let rules = self.engine.rules();
        let mut deck: Vec<u8> = (0..16u8)
            .flat_map(|s| std::iter::repeat_n(s, rules.copies(s as usize) as usize))
            .collect();
        // Fisher-Yates.
        for i in (1..deck.len()).rev() {
            deck.swap(i, rng.below(i + 1));
        }
        let n = rules.players as usize;
        let size = rules.hand_size as usize;
        let pile = |cards: &[u8]| {
            let mut c = Cards::EMPTY;
            for &s in cards {
                c.0[s as usize] += 1;
            }
            c
        };
        let hands = (0..n)
            .map(|i| pile(&deck[i * size..(i + 1) * size]))
            .collect();
        let rest = &deck[n * size..];
        let kitty = pile(&rest[..rules.kitty as usize]);
        let set_aside = pile(&rest[rules.kitty as usize..]);
        Dealt {
            hands,
            kitty,
            set_aside,
            first: rng.below(n),
        }
    }

    fn run(mut self, rng: &mut Rng) -> Outcome {
        let n = self.engine.rules().players as usize;
        let (dealt, landlord, mut stake) = loop {
            let dealt = self.deal(rng);
            if self.record {
                self.out.deals.push(dealt.clone());
            }
            if let Some((landlord, bid)) = self.choose_landlord(&dealt, rng) {
                break (dealt, landlord, bid);
            }
        };
        if self.auction == Auction::BidOnce && stake == 3 {
            stake *= self.kicks(&dealt, landlord, rng);
        }
        let mut hands = dealt.hands.clone();
        hands[landlord] = hands[landlord] + dealt.kitty;
        self.out.landlord = landlord;
        let (winner, doublings, plays) = self.tricks(&mut hands, landlord, rng);
        stake <<= doublings;
        let landlord_won = winner == landlord;
        let options = self.engine.rules();
        if options.spring {
            let farmers_silent = (0..n).all(|s| s == landlord || plays[s] == 0);
            if landlord_won && farmers_silent {
                stake *= 2;
            }
        }
        if options.anti_spring && !landlord_won && plays[landlord] == 1 {
            stake *= 2;
        }
        let sign = if landlord_won { 1 } else { -1 };
        let mut scores = vec![-sign * stake; n];
        scores[landlord] = sign * stake * (n as i64 - 1);
        self.out.landlord_won = landlord_won;
        self.out.multiplier = stake;
        self.out.scores = scores;
        self.out
    }

    /// The auction: Some((landlord, bid)), or None for a redeal.
    fn choose_landlord(&mut self, dealt: &Dealt, rng: &mut Rng) -> Option<(usize, i64)> {
        let n = self.engine.rules().players as usize;
        let greedy = self.policy == Policy::Greedy;
        let mut high: Option<usize> = None;
        let mut bid = 0u8;
        let mut seat = dealt.first;
        match self.auction {
            Auction::Call => {
                for _ in 0..n {
                    let call = greedy || rng.below(2) == 1;
                    if call {
                        self.log(seat, Action::Call);
                        return Some((seat, 1));
                    }
                    self.log(seat, Action::Pass);
                    seat = (seat + 1) % n;
                }
                None
            }
            Auction::Bid => {
                let mut passes = 0;
                loop {
                    // Options: pass, then bid + 1 ..= 3.
                    let options = 1 + 3 - bid as usize;
                    let pick = if greedy {
                        1.min(options - 1)
                    } else {
                        rng.below(options)
                    };
                    if pick == 0 {
                        self.log(seat, Action::Pass);
                        passes += 1;
                    } else {
                        bid += pick as u8;
                        high = Some(seat);
                        passes = 0;
                        self.log(seat, Action::Bid(bid));
                    }
                    if bid == 3 || (high.is_some() && passes == n - 1) {
                        return high.map(|h| (h, bid as i64));
                    }
                    if high.is_none() && passes == n {
                        return None;
                    }
                    seat = (seat + 1) % n;
                }
            }
            Auction::BidOnce => {
                for _ in 0..n {
                    let options = 1 + 3 - bid as usize;
                    let pick = if greedy {
                        1.min(options - 1)
                    } else {
                        rng.below(options)
                    };
                    if pick == 0 {
                        self.log(seat, Action::Pass);
                    } else {
                        bid += pick as u8;
                        high = Some(seat);
                        self.log(seat, Action::Bid(bid));
                        if bid == 3 {
                            break;
                        }
                    }
                    seat = (seat + 1) % n;
                }
                if let Some(h) = high {
                    return Some((h, bid as i64));
                }
                // Nobody bid: the first seat holding D with a 2, or X and D, must take it.
                (0..n)
                    .map(|i| (dealt.first + i) % n)
                    .find(|&s| {
                        let h = &dealt.hands[s];
                        h.get(BIG_JOKER) > 0 && (h.get(TWO) > 0 || h.get(SMALL_JOKER) > 0)
                    })
                    .map(|s| (s, 1))
            }
        }
    }

    /// Laizi after a bid of 3: the seats that did not bid may kick, then the
    /// landlord may counter-kick. Returns the factor (2 per kick).
    fn kicks(&mut self, dealt: &Dealt, landlord: usize, rng: &mut Rng) -> i64 {
        let n = self.engine.rules().players as usize;
        // Seats after the landlord in bidding order have not bid yet.
        let bidders = (landlord + n - dealt.first) % n + 1;
        let mut factor = 1;
        let mut kicked = false;
        for i in bidders..n {
            let seat = (dealt.first + i) % n;
            let kick = self.policy == Policy::Random && rng.below(2) == 1;
            self.log(seat, Action::Kick(kick));
            if kick {
                factor *= 2;
                kicked = true;
            }
        }
        if kicked {
            let counter = self.policy == Policy::Random && rng.below(2) == 1;
            self.log(landlord, Action::CounterKick(counter));
            if counter {
                factor *= 2;
            }
        }
        factor
    }

    /// Trick play from the landlord's lead. Returns (winner, doublings, plays per seat).
    fn tricks(
        &mut self,
        hands: &mut [Cards],
        leader: usize,
        rng: &mut Rng,
    ) -> (usize, u32, Vec<u32>) {
        let e = self.engine;
        let n = hands.len();
        let doubling_bomb = if e.rules().preset == "four-player" {
            6
        } else {
            4
        };
        let mut plays = vec![0u32; n];
        let mut doublings = 0;
        let mut last: Option<Move> = None;
        let mut passes = 0;
        let mut seat = leader;
        let mut buf = std::mem::take(&mut self.buf);
        loop {
            self.out.turns += 1;
            e.moves_into(&hands[seat], last.as_ref(), &mut buf);
            let choice = match self.policy {
                Policy::Random => {
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
                    self.log(seat, Action::Play(m));
                    hands[seat] = hands[seat] - m.cards;
                    plays[seat] += 1;
                    if m.kind.is_bomb() {
                        self.out.bombs += 1;
                        if m.kind == Kind::KingBomb || m.length >= doubling_bomb {
                            doublings += 1;
                        }
                    }
                    if hands[seat].is_empty() {
                        self.buf = buf;
                        return (seat, doublings, plays);
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

    #[test]
    fn same_results_whatever_the_threads() {
        let e = Engine::new(Rules::preset("classic").unwrap()).unwrap();
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

    #[test]
    fn other_presets_are_refused() {
        let e = Engine::new(Rules::preset("six-player-2v4").unwrap()).unwrap();
        assert!(simulate(&e, 1, 0, 1, Policy::Random, 0).is_err());
    }
}
