//! The search player: determinized Monte-Carlo search on the table, with
//! the exact endgame solver at the leaves once the hands are small.
//!
//! For a decision of seat `s`, every candidate action is tried on the same
//! samples: deals of the cards `s` cannot see, consistent with what it has
//! seen (`sample.rs`), each a copy of the table with those cards dealt
//! again (no history is replayed). Each candidate is applied to the sample
//! and the deal finished by the playout policy (`playout.rs`), or solved
//! exactly when the hands are small (`leaf.rs`); the value is a win for
//! `s`'s side. A farmer's playouts play the landlord as an eager follower
//! in the samples whose hands make its follows so far eager (`infer.rs`).
//! Long candidate lists are cut to one reading per kind, rank
//! and length (the smallest kickers), and the budget is spent by
//! sequential halving: each round plays the surviving candidates on fresh
//! shared samples and keeps the better half.
//!
//! Sample `k` of a decision draws from its own generator, seeded from the
//! decision's seed and `k`, and the rounds sum their samples in order: so
//! at a fixed playout budget the decision is the same on any number of
//! threads. A time budget stops between samples (then the result depends
//! on the machine's speed).
//!
//! Where the family keeps roles secret from `s` (a hidden partner, a
//! secret mark, the farmers' sides), each sample draws them again from its
//! hands (`Family::redeal_roles`), so the search never reads them. On a
//! table that keeps no record of the cards played it decides as the greedy
//! player does. docs/bots.md describes the method and its measurements.

pub mod analysis;
mod infer;
mod leaf;
pub mod levels;
pub mod playout;
pub mod rank;
/// Moved to `table::from_view` (a family's own job); the old path stays.
pub use crate::table::from_view as rebuild;
pub mod sample;

pub use sample::Sampler;

use crate::batch::run_on;
use crate::table::{Action, Rng, Table};
use playout::Style;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// How much one decision may search: at most `playouts` candidate
/// playouts and at most `budget_us` microseconds (0: no time limit), on
/// `threads` threads; and how well it picks: `level` 1 to 8, 8 the full
/// strength, lower ones pick among close candidates with noise
/// (`levels.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchBudget {
    pub playouts: u32,
    pub budget_us: u32,
    pub threads: u8,
    pub level: u8,
}

impl SearchBudget {
    /// The default: what `Policy::from_name("search")` plays.
    pub const DEFAULT: SearchBudget = SearchBudget {
        playouts: 1000,
        budget_us: 40_000,
        threads: 1,
        level: levels::TOP,
    };
}

impl Default for SearchBudget {
    fn default() -> Self {
        SearchBudget::DEFAULT
    }
}

/// Candidate lists longer than this are cut to one reading per kind, rank
/// and length before the search.
const LONG_LIST: usize = 12;

/// What one decision found.
#[derive(Clone, Debug, Default)]
pub struct Decision {
    /// The chosen action's index in `table.legal_unordered()`.
    pub index: usize,
    /// Samples dealt and candidate playouts played.
    pub samples: u32,
    pub playouts: u32,
    /// Did the search run (false: one legal action, or the fallback)?
    pub searched: bool,
}

/// Choose for the seat to act on `table` (not over) within `budget`; the
/// samples draw from `seed`. `table`'s plays may be put in hint order.
pub fn decide(table: &mut Table, budget: SearchBudget, seed: u64) -> Decision {
    let seat = table.to_act();
    let n = table.legal().len();
    if n <= 1 {
        return Decision::default();
    }
    if !table.is_recorded() {
        let index = crate::policy::Policy::Greedy.choose(table, &mut Rng(seed));
        return Decision {
            index,
            ..Decision::default()
        };
    }
    let legal = table.legal_unordered();
    let actions: Vec<Action> = legal.iter().collect();
    if budget.level < levels::TOP {
        // A weaker level still always goes out when it can.
        let held = table.core().hands()[seat].len();
        let out = actions
            .iter()
            .position(|a| matches!(a, Action::Play(m) if m.cards.len() == held));
        if let Some(index) = out {
            return Decision {
                index,
                ..Decision::default()
            };
        }
        if let Some(habit) = levels::habit(budget.level, seed) {
            let pass = actions.iter().position(|&a| a == Action::Pass);
            let index = match (habit, pass) {
                (levels::Habit::Timid, Some(i)) => i,
                _ => crate::policy::Policy::Greedy.choose(table, &mut Rng(seed)),
            };
            return Decision {
                index,
                ..Decision::default()
            };
        }
    }
    let candidates = shortlist(&actions);
    let sampler = Sampler::new(table, seat);
    let search = Search {
        exact: levels::exact(budget.level),
        ..Search::new(table, &sampler, &actions, seed)
    };
    let keep = if budget.level < levels::TOP {
        levels::KEEP
    } else {
        1
    };
    let run = search.halving(&candidates, budget, keep, 0);
    let best = if budget.level < levels::TOP {
        levels::pick(&run.alive, |c| run.mean(c), budget.level, seed)
    } else {
        run.best()
    };
    let (samples, playouts) = (run.next as u32, run.playouts);
    Decision {
        index: best,
        samples,
        playouts,
        searched: true,
    }
}

/// The candidates searched (indices into `actions`, in hint order): all of
/// a short list; of a long one, the first reading (smallest kickers) of
/// each kind, rank and length, and every word.
fn shortlist(actions: &[Action]) -> Vec<usize> {
    if actions.len() <= LONG_LIST {
        return (0..actions.len()).collect();
    }
    let mut seen: Vec<(u8, u8, u8)> = Vec::new();
    let mut out = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        match a {
            Action::Play(m) => {
                let key = (m.kind as u8, m.rank, m.length);
                if !seen.contains(&key) {
                    seen.push(key);
                    out.push(i);
                }
            }
            _ => out.push(i),
        }
    }
    out
}

struct Search<'a> {
    table: &'a Table,
    /// The opponent landlord whose follows the samples are read for.
    landlord_to_read: Option<usize>,
    sampler: &'a Sampler,
    actions: &'a [Action],
    seat: usize,
    seed: u64,
    /// Solve small positions at the leaves (`leaf::value`).
    exact: bool,
}

impl<'a> Search<'a> {
    /// The search of `table`'s seat to act over `actions` (its legal
    /// actions), its samples drawn by `sampler` from `seed`.
    fn new(table: &'a Table, sampler: &'a Sampler, actions: &'a [Action], seed: u64) -> Self {
        let seat = table.to_act();
        // A farmer against a lone landlord of three hands reads the
        // landlord's follows (the landlord's own search models its
        // farmers: leaf.rs).
        let landlord_to_read = table
            .position()
            .and_then(|sp| leaf::lone_landlord(&sp))
            .filter(|&l| l != seat);
        Search {
            table,
            landlord_to_read,
            sampler,
            actions,
            seat,
            seed,
            exact: true,
        }
    }

    /// Sequential halving over `candidates`, down to `keep` of them, on
    /// samples from `first` on: the survivors and their sums.
    fn halving(&self, candidates: &[usize], budget: SearchBudget, keep: usize, first: u64) -> Run {
        let start = Instant::now();
        let limit = (budget.budget_us > 0).then(|| Duration::from_micros(budget.budget_us.into()));
        let mut run = Run {
            alive: candidates.to_vec(),
            sums: vec![0.0f64; self.actions.len()],
            seen: vec![0u32; self.actions.len()],
            next: first,
            playouts: 0,
            timed_out: false,
        };
        let keep = keep.max(1);
        let rounds = (usize::BITS - (run.alive.len() - 1).leading_zeros()).max(1) as usize;
        for _ in 0..rounds {
            // A level's last round (down to `keep`) spends what is left.
            let last = keep > 1 && run.alive.len() <= keep;
            let share = match last {
                true => budget.playouts.saturating_sub(run.playouts) as usize,
                false => budget.playouts as usize / rounds,
            };
            let per = (share / run.alive.len()).max(1) as u64;
            let rows = self.round(
                &run.alive,
                run.next..run.next + per,
                budget.threads,
                start,
                limit,
            );
            run.next += per;
            run.add(&rows);
            if run.timed_out || run.alive.len() <= keep {
                break;
            }
            // The better half (at least `keep`), ties to the earlier
            // (smaller) candidate.
            let mut ranked = run.alive.clone();
            ranked.sort_by(|&a, &b| run.mean(b).total_cmp(&run.mean(a)).then(a.cmp(&b)));
            ranked.truncate(run.alive.len().div_ceil(2).max(keep));
            run.alive.retain(|c| ranked.contains(c));
        }
        run
    }

    /// The values of `alive` on each sample of `range`, in order; None for
    /// a sample skipped because the time ran out.
    fn round(
        &self,
        alive: &[usize],
        range: std::ops::Range<u64>,
        threads: u8,
        start: Instant,
        limit: Option<Duration>,
    ) -> Vec<Option<Vec<f64>>> {
        let one = |k: u64| {
            if limit.is_some_and(|l| start.elapsed() > l) {
                return None;
            }
            Some(self.sample_values(alive, k))
        };
        match threads {
            0 | 1 => range.map(one).collect(),
            n => run_on(n.into(), || range.into_par_iter().map(one).collect()),
        }
    }

    /// Every candidate of `alive` played on sample `k`.
    fn sample_values(&self, alive: &[usize], k: u64) -> Vec<f64> {
        let mut rng = Rng::for_game(self.seed, k);
        let Some(base) = self.sampler.table(self.table, &mut rng) else {
            return vec![0.5; alive.len()];
        };
        let style = Style {
            eager: self
                .landlord_to_read
                .filter(|&l| self.sampler.follows_eagerly(&base, l)),
            ..Style::default()
        };
        alive
            .iter()
            .map(|&c| {
                let mut t = base.clone();
                if t.apply(self.actions[c]).is_err() {
                    return 0.0; // (the seat's own choices never depend on hidden cards)
                }
                leaf::value(&mut t, self.seat, style, self.exact)
            })
            .collect()
    }
}

/// A halving's state: the candidates alive, each action's sum of values
/// and samples, the next sample's number and the playouts played.
pub(crate) struct Run {
    pub alive: Vec<usize>,
    pub sums: Vec<f64>,
    pub seen: Vec<u32>,
    pub next: u64,
    pub playouts: u32,
    pub timed_out: bool,
}

impl Run {
    fn mean(&self, c: usize) -> f64 {
        self.sums[c] / f64::from(self.seen[c].max(1))
    }

    /// The best alive candidate, ties to the earlier.
    fn best(&self) -> usize {
        self.alive
            .iter()
            .copied()
            .reduce(|a, b| if self.mean(b) > self.mean(a) { b } else { a })
            .unwrap_or(0)
    }

    /// Add a round's rows (the alive candidates' values per sample).
    fn add(&mut self, rows: &[Option<Vec<f64>>]) {
        for row in rows.iter().flatten() {
            for (&c, v) in self.alive.iter().zip(row) {
                self.sums[c] += v;
                self.seen[c] += 1;
                self.playouts += 1;
            }
        }
        self.timed_out |= rows.iter().any(Option::is_none);
    }
}

pub mod rule_agent;
#[cfg(test)]
mod tests;
