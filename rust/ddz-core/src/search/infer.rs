//! Inference from passes: a sample in which a seat passed an opponent's
//! play while holding an ordinary answer to it is unlikely, since players
//! (the built-in ones, and most people) beat an opponent when they can
//! without a bomb. Such samples are kept only with probability
//! `PASS_LIKELIHOOD` per pass they contradict (`sample.rs` draws again).
//!
//! Only passes against a public opponent count: in a family whose sides
//! are secret from the searching seat nothing is inferred, and a pass on a
//! partner's play says nothing.

use crate::cards::Cards;
use crate::engine::Engine;
use crate::generate::Sink;
use crate::play::Move;
use crate::table::{deal, Action, Card, Table};

/// The chance a player passes an opponent's play it could beat without a
/// bomb: the weight of a sample for each such pass it implies.
pub const PASS_LIKELIHOOD: f64 = 0.1;

/// One pass a hidden seat made facing an opponent's play.
#[derive(Clone, Debug)]
struct Pass {
    seat: usize,
    facing: Move,
    /// The cards the seat has played since: its hand at the pass is its
    /// hand now plus these.
    played_since: Cards,
}

/// One lead a hidden seat made: leads usually hold the leader's lowest
/// card (the built-in players always do so).
#[derive(Clone, Debug)]
struct Lead {
    seat: usize,
    /// The lowest rank slot in the lead.
    lowest: usize,
    /// The cards the seat has played from the lead on (the lead included).
    played_since: Cards,
}

/// The chance a lead leaves out a lower card the leader held.
pub const LEAD_LIKELIHOOD: f64 = 0.3;

/// What the history says about the hidden hands.
#[derive(Clone, Debug, Default)]
pub struct Evidence {
    passes: Vec<Pass>,
    leads: Vec<Lead>,
}

impl Evidence {
    /// The passes of the seats in `hidden` against a public opponent's play,
    /// read from `table`'s history of this deal. `opponents(a, b)` tells
    /// whether seats a and b are on opposite sides as every seat knows it
    /// (None: the sides are not public, and nothing is inferred).
    pub fn read(
        table: &Table,
        hidden: &[usize],
        opponents: Option<&dyn Fn(usize, usize) -> bool>,
    ) -> Evidence {
        let Some(opponents) = opponents else {
            return Evidence::default();
        };
        let t = table.core();
        let players = t.players();
        let history = t.history();
        let Some(start) = history
            .iter()
            .position(|(_, a)| matches!(a, Action::Play(_)))
        else {
            return Evidence::default();
        };
        // Each seat's plays from each point on: the total less those so far.
        let mut total = vec![Cards::default(); players];
        for (s, a) in &history[start..] {
            if let Action::Play(m) = a {
                total[*s] = total[*s] + m.cards;
            }
        }
        let mut so_far = vec![Cards::default(); players];
        let (mut last, mut passes): (Option<(usize, Move)>, usize) = (None, 0);
        let mut out = Vec::new();
        let mut leads = Vec::new();
        for (s, a) in &history[start..] {
            match a {
                Action::Play(m) => {
                    if last.is_none() && hidden.contains(s) {
                        let lowest = (0..crate::cards::SLOTS).find(|&r| m.cards.get(r) > 0);
                        leads.push(Lead {
                            seat: *s,
                            lowest: lowest.unwrap_or(0),
                            played_since: total[*s] - so_far[*s],
                        });
                    }
                    so_far[*s] = so_far[*s] + m.cards;
                    last = Some((*s, *m));
                    passes = 0;
                }
                Action::Pass => {
                    if let Some((by, facing)) = last {
                        if hidden.contains(s) && opponents(*s, by) {
                            out.push(Pass {
                                seat: *s,
                                facing,
                                played_since: total[*s] - so_far[*s],
                            });
                        }
                    }
                    passes += 1;
                    if passes == players - 1 {
                        last = None;
                        passes = 0;
                    }
                }
                _ => {}
            }
        }
        Evidence { passes: out, leads }
    }

    /// Is there anything to weigh?
    pub fn is_empty(&self) -> bool {
        self.passes.is_empty() && self.leads.is_empty()
    }

    /// The likelihood of the history given the hidden hands `hands`, up
    /// to a constant: the product of each contradicted pass's and lead's.
    pub fn likelihood(&self, engine: &Engine, hands: &[(usize, Vec<Card>)]) -> f64 {
        let passes = self.contradictions(engine, hands);
        let mut leads = 0;
        for l in &self.leads {
            let Some((_, cards)) = hands.iter().find(|(s, _)| *s == l.seat) else {
                continue;
            };
            let then = deal::count(cards) + l.played_since;
            leads += i32::from((0..l.lowest).any(|r| then.get(r) > 0));
        }
        PASS_LIKELIHOOD.powi(passes as i32) * LEAD_LIKELIHOOD.powi(leads)
    }

    /// How many recorded passes the hidden hands `hands` (seat, cards)
    /// contradict.
    pub fn contradictions(&self, engine: &Engine, hands: &[(usize, Vec<Card>)]) -> u32 {
        let mut n = 0;
        for p in &self.passes {
            let Some((_, cards)) = hands.iter().find(|(s, _)| *s == p.seat) else {
                continue;
            };
            let then = deal::count(cards) + p.played_since;
            let mut found = OrdinaryAnswer::default();
            engine.generate(&then, Some(&p.facing), &mut found);
            n += u32::from(found.0);
        }
        n
    }
}

/// Stops at the first answer that is not a bomb.
#[derive(Default)]
struct OrdinaryAnswer(bool);

impl Sink for OrdinaryAnswer {
    const COUNTING: bool = false;
    #[inline]
    fn push(&mut self, m: Move) {
        self.0 |= !m.kind.is_bomb();
    }
    #[inline]
    fn add(&mut self, _n: u64) {}
    #[inline]
    fn done(&self) -> bool {
        self.0
    }
}
