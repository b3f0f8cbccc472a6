//! Determinizing: deal the cards one seat cannot see again, consistently
//! with everything it has seen.
//!
//! What the seat cannot see is the cards of the hidden places (the hands
//! it is not shown, the kitty while undealt and unshown, the cards set
//! aside). Which cards those are together is public (the deck less its own
//! hand, the hands it sees, the kitty it saw and every card played); only
//! how they are split is secret. So a sample pools them, sorts the pool
//! (the order the true split left them in must not steer the draw), keeps
//! the cards a hidden hand is publicly known to hold (a shown kitty the
//! landlord has not played yet) and deals the rest at random to the hidden
//! places, each at its size.

use super::infer::Evidence;
use crate::cards::Cards;
use crate::engine::Engine;
use crate::rules::Flow;
use crate::table::{deal, Action, Card, Phase, Redeal, Rng, Table};

/// How many deals a sample draws at most to find one the passes in the
/// history make likely (then it keeps the least unlikely).
const TRIES: usize = 48;

/// What one seat cannot see at one moment, ready to be dealt again.
#[derive(Clone, Debug)]
pub struct Sampler {
    /// The seat whose view this is.
    pub seat: usize,
    /// Hidden hands: (seat, cards publicly known to be in it, its size).
    hands: Vec<(usize, Vec<Card>, usize)>,
    /// The size of the hidden kitty (undealt, unseen), if any.
    kitty: Option<usize>,
    set_aside: usize,
    /// Every hidden card not publicly placed, sorted.
    pool: Vec<Card>,
    /// What the other seats' turns say about their hands.
    evidence: Evidence,
}

impl Sampler {
    /// The hidden places of `table` as `seat` sees them. The table must
    /// keep its record (`Table::is_recorded`): the cards played are read
    /// from it.
    pub fn new(table: &Table, seat: usize) -> Sampler {
        let t = table.core();
        let family = table.family();
        let seen = family.hands_seen_by(t, seat);
        let kitty_seen = family.kitty_seen_by(t, seat);
        let hidden_seats: Vec<usize> = (0..t.players())
            .filter(|&s| s != seat && !seen.contains(&s))
            .collect();
        let mut pool: Vec<Card> = Vec::new();
        let mut hands = Vec::with_capacity(hidden_seats.len());
        let known = known_kitty(table, seat, kitty_seen);
        for &s in &hidden_seats {
            let hand = &t.hands()[s];
            pool.extend(hand.cards());
            hands.push((s, Vec::new(), hand.len()));
        }
        let kitty = (!t.kitty_given() && !kitty_seen).then(|| {
            pool.extend_from_slice(t.kitty());
            t.kitty().len()
        });
        pool.extend_from_slice(table.set_aside());
        pool.sort_unstable();
        // Cards the family says `seat` knows are in a hidden hand.
        let mut known_cards = Vec::new();
        family.known_cards(t, seat, &mut known_cards);
        for (holder, card) in known_cards {
            let Some((_, pinned, _)) = hands.iter_mut().find(|(s, _, _)| *s == holder) else {
                continue;
            };
            if let Some(at) = pool.iter().position(|c| *c == card) {
                pinned.push(pool.remove(at));
            }
        }
        // The known cards by rank, each the lowest copy of its rank in the
        // pool (the suits of plays are not in the observation).
        if let Some((taker, counts)) = known {
            if let Some((_, pinned, _)) = hands.iter_mut().find(|(s, _, _)| *s == taker) {
                for slot in 0..crate::cards::SLOTS {
                    for _ in 0..counts.get(slot) {
                        if let Some(at) = pool.iter().position(|c| c.slot as usize == slot) {
                            pinned.push(pool.remove(at));
                        }
                    }
                }
            }
        }
        let hidden: Vec<usize> = hands.iter().map(|(s, _, _)| *s).collect();
        // Inference needs the sides public: a one-landlord deal in play.
        let evidence = match public_landlord(table) {
            Some(l) => Evidence::read(table, &hidden, Some(&|a, b| (a == l) != (b == l))),
            None => Evidence::default(),
        };
        Sampler {
            seat,
            hands,
            kitty,
            set_aside: table.set_aside().len(),
            pool,
            evidence,
        }
    }

    /// Does `sample`, dealt by this sampler, make `seat` a seat that has
    /// always followed opponents with its smallest play of the same kind?
    pub fn follows_eagerly(&self, sample: &Table, seat: usize) -> bool {
        let now = sample.core().hands()[seat].counts;
        self.evidence.follows_eagerly(sample.engine(), seat, now)
    }

    /// Are there hidden cards at all (else every sample is the table)?
    pub fn hides_anything(&self) -> bool {
        !self.pool.is_empty()
    }

    /// One deal of the hidden cards, drawn from `rng`.
    pub fn draw(&self, rng: &mut Rng) -> Redeal {
        let mut pool = self.pool.clone();
        rng.shuffle(&mut pool);
        let mut rest = &pool[..];
        let mut take = |n: usize| {
            let (now, later) = rest.split_at(n);
            rest = later;
            now.to_vec()
        };
        let hands = self
            .hands
            .iter()
            .map(|(s, pinned, size)| {
                let mut cards = pinned.clone();
                cards.extend(take(size - pinned.len()));
                (*s, cards)
            })
            .collect();
        let kitty = self.kitty.map(&mut take);
        let set_aside = Some(take(self.set_aside));
        Redeal {
            seat: self.seat,
            hands,
            kitty,
            set_aside,
        }
    }

    /// One deal of the hidden cards weighed by the evidence: a deal is
    /// kept with the probability `Evidence::likelihood` gives it, else
    /// another is drawn (at most `TRIES`, then the least contradicting).
    pub fn draw_likely(&self, engine: &Engine, rng: &mut Rng) -> Redeal {
        let mut best: Option<(f64, Redeal)> = None;
        for _ in 0..TRIES {
            let redeal = self.draw(rng);
            if self.evidence.is_empty() {
                return redeal;
            }
            let p = self.evidence.likelihood(engine, &redeal.hands);
            if p >= 1.0 || unit(rng) < p {
                return redeal;
            }
            if best.as_ref().is_none_or(|(b, _)| p > *b) {
                best = Some((p, redeal));
            }
        }
        best.map(|(_, r)| r).unwrap_or_default()
    }

    /// A table of one sample: `table` with the hidden cards dealt from
    /// `rng`, and the roles they imply. Deals into which the family's
    /// roles cannot fit are drawn again, at most `TRIES` times: then None
    /// (the search counts the sample as a draw for every candidate rather
    /// than fall back on the true roles, which are secret).
    pub fn table(&self, table: &Table, rng: &mut Rng) -> Option<Table> {
        for _ in 0..TRIES {
            let redeal = self.draw_likely(table.engine(), rng);
            let next = Rng(rng.next_u64());
            if let Some(t) = table.redealt(&redeal, next) {
                return Some(t);
            }
        }
        None
    }
}

/// A uniform draw in [0, 1).
fn unit(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// The landlord of a one-landlord deal in play with three or more seats
/// (everyone knows the sides then); None elsewhere. With two seats every
/// other seat is an opponent: the landlord is then read the same way.
fn public_landlord(table: &Table) -> Option<usize> {
    let one = table.rules().flow == Flow::OneLandlord;
    (one && table.phase() == Phase::Play).then(|| table.report().landlord())
}

/// The kitty cards `seat` knows are still in a hidden hand, by rank: in
/// a one-landlord deal whose kitty it saw given, the kitty less what the
/// landlord has played since. (With several decks a dealt copy may match
/// a kitty card: the hand then holds more of it, never fewer.)
fn known_kitty(table: &Table, seat: usize, kitty_seen: bool) -> Option<(usize, Cards)> {
    let t = table.core();
    if table.rules().flow != Flow::OneLandlord || !t.kitty_given() || !kitty_seen {
        return None;
    }
    let taker = table.report().landlord();
    if taker == seat {
        return None;
    }
    let mut left = deal::count(t.kitty());
    for (s, action) in t.history() {
        if let (true, Action::Play(m)) = (*s == taker, action) {
            for slot in 0..crate::cards::SLOTS {
                left.0[slot] = left.0[slot].saturating_sub(m.cards.get(slot));
            }
        }
    }
    Some((taker, left))
}
