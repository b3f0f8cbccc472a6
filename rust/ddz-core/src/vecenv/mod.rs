//! Batched environments for reinforcement learning: N tables stepped in
//! one call (docs/rl.md).
//!
//! Each env is a [`Table`] driven through its public API only: an action
//! is an index into the env's legal actions (`Table::legal_unordered`, so
//! every phase's decisions and the plays alike), a finished deal is
//! settled and replaced by the env's next deal at once, and the
//! observation of the seat to act is written into flat arrays
//! ([`obs`]). Env `i` deals game `k` of the series `seed + i`
//! (`Table::seeded`), so a run does not depend on the thread count.

pub mod arrays;
pub mod ids;
pub mod kinds;
pub mod obs;
pub mod roles;

use crate::batch::default_threads;
use crate::engine::Engine;
use crate::table::RoleValue;
use crate::table::{Action, Phase, Rng, SetupError, Table};
use arrays::{per_env, Dims};
use obs::{Obs, ObsRow, PlayLog};
use rayon::prelude::*;
use roles::RoleColumns;
use std::fmt;
use std::sync::Arc;

/// The one place the envs choose their threads: the batch module's pools
/// (one per thread count, kept for reuse).
fn on_pool<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    crate::batch::run_on(threads, work)
}

/// Envs per unit of parallel work.
const MIN_ENVS: usize = 8;

/// At most this many envs step on the calling thread, with no pool.
const SERIAL_ENVS: usize = 2 * MIN_ENVS;

/// Do `envs` envs step on the calling thread?
fn serial(envs: usize, threads: usize) -> bool {
    envs <= SERIAL_ENVS || threads <= 1
}

/// Deals over at once skipped in a row before the env gives up and stays
/// over (only a rule set whose every deal ends at the deal could get there).
const MAX_SKIPPED: usize = 1000;

/// The most plays `recent` may keep.
pub const MAX_HISTORY: usize = 256;

/// What a finished deal pays each seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// The seat's score by the preset's scoring.
    Score,
    /// +1 for a winner, -1 for a loser.
    WinLoss,
}

#[derive(Clone, Debug)]
pub struct Options {
    /// How many of the last plays and passes `recent` holds.
    pub history: usize,
    pub reward: Reward,
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            history: 15,
            reward: Reward::Score,
            threads: default_threads(),
        }
    }
}

per_env!(Outcome, OutcomeRow, |d| {
    reward: f32 = [d.players],
    terminated: bool = [],
    scores: i64 = [d.players],
    winners: bool = [d.players],
    final_multiplier: i64 = [],
    length: i32 = [],
    episode: i64 = [],
    landlord: i8 = [],
});

/// The legal actions of every env in CSR form: env `i`'s are rows
/// `offsets[i]..offsets[i + 1]`, in the order the step's indices count.
#[derive(Clone, Debug, Default)]
pub struct Legal {
    pub offsets: Vec<i64>,
    /// A play's cards (zeros for other decisions), 16 per row.
    pub cards: Vec<u8>,
    /// What the cards stand for (laizi), 16 per row.
    pub represents: Vec<u8>,
    pub kind: Vec<i8>,
    pub rank: Vec<i8>,
    pub length: Vec<i8>,
}

impl Legal {
    /// Room for `total` actions over `envs` envs, and the arrays as a step
    /// writes them.
    fn sized(&mut self, envs: usize, total: usize) -> LegalRows<'_> {
        use crate::cards::SLOTS;
        self.offsets.resize(envs + 1, 0);
        self.cards.resize(total * SLOTS, 0);
        self.represents.resize(total * SLOTS, 0);
        self.kind.resize(total, 0);
        self.rank.resize(total, 0);
        self.length.resize(total, 0);
        LegalRows {
            offsets: &mut self.offsets,
            cards: &mut self.cards,
            represents: &mut self.represents,
            kind: &mut self.kind,
            rank: &mut self.rank,
            length: &mut self.length,
        }
    }
}

/// Buffers a caller brings for the legal actions (`VecEnv::step_into`):
/// `offsets` of exactly `num_envs + 1`, the others with room for some
/// number of actions (16 slots per row for `cards` and `represents`).
/// Only the first `offsets[num_envs]` actions' elements are written.
pub struct LegalRows<'a> {
    pub offsets: &'a mut [i64],
    pub cards: &'a mut [u8],
    pub represents: &'a mut [u8],
    pub kind: &'a mut [i8],
    pub rank: &'a mut [i8],
    pub length: &'a mut [i8],
}

impl LegalRows<'_> {
    /// How many actions' rows fit.
    pub fn room(&self) -> usize {
        use crate::cards::SLOTS;
        (self.cards.len() / SLOTS)
            .min(self.represents.len() / SLOTS)
            .min(self.kind.len())
            .min(self.rank.len())
            .min(self.length.len())
    }
}

/// A step refused before any env moved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadAction(pub String);

impl fmt::Display for BadAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadAction {}

#[derive(Clone)]
struct Env {
    table: Table,
    seed: u64,
    episode: u64,
    decisions: i32,
    log: PlayLog,
    scratch: Vec<RoleValue>,
    /// The env's outcome row holds a result (its last step ended a deal):
    /// the next step clears it. Else it is clear already, and is left so
    /// (the rows are the env's own and persist from step to step).
    settled: bool,
}

impl Env {
    /// Deal game `episode` of the series `seed` (as `Table::seeded` would),
    /// on the same table to keep its buffers. A deal that is over as soon
    /// as it is dealt (an auto-win: nobody decides anything) is skipped
    /// for the series' next one, so the env always has a seat to act;
    /// `info["episode"]` shows the gap (docs/rl.md).
    fn deal(&mut self) {
        for _ in 0..MAX_SKIPPED {
            self.table.restart(Rng::for_game(self.seed, self.episode));
            if !self.table.is_over() {
                break;
            }
            self.episode += 1;
        }
        self.decisions = 0;
        self.log.clear();
    }

    /// Take legal action `i`; settle and deal again if the deal ends.
    fn step(&mut self, i: usize, reward: Reward, out: &mut OutcomeRow<'_>) {
        let seat = self.table.to_act();
        let in_play = self.table.phase() == Phase::Play;
        let action: Action = self
            .table
            .legal_unordered()
            .get(i)
            .expect("indices are checked");
        self.table.apply_unordered(i);
        self.decisions += 1;
        if in_play {
            let leading = self.table.core().tricks().leading();
            self.log.record(seat, &action, leading);
        }
        if self.settled {
            clear(out);
            self.settled = false;
        }
        let Some(result) = self.table.result() else {
            return;
        };
        self.settled = true;
        out.terminated[0] = true;
        out.scores.copy_from_slice(&result.scores);
        for &w in &result.winners {
            out.winners[w] = true;
        }
        for (s, r) in out.reward.iter_mut().enumerate() {
            *r = match reward {
                Reward::Score => result.scores[s] as f32,
                Reward::WinLoss if out.winners[s] => 1.0,
                Reward::WinLoss => -1.0,
            };
        }
        out.final_multiplier[0] = result.multiplier;
        out.length[0] = self.decisions;
        out.episode[0] = self.episode as i64;
        out.landlord[0] = self.table.report().landlord() as i8;
        self.episode += 1;
        self.deal();
    }
}

fn clear(out: &mut OutcomeRow<'_>) {
    out.reward.fill(0.0);
    out.terminated[0] = false;
    out.scores.fill(0);
    out.winners.fill(false);
    out.final_multiplier[0] = 0;
    out.length[0] = 0;
    out.episode[0] = 0;
    out.landlord[0] = -1;
}

/// `num_envs` tables of one rule set, stepped together. See the module docs.
pub struct VecEnv {
    engine: Arc<Engine>,
    envs: Vec<Env>,
    seed: u64,
    options: Options,
    dims: Dims,
    roles: RoleColumns,
    obs: Obs,
    outcome: Outcome,
    legal: Legal,
    /// Legal actions per env, from the last step (scratch).
    counts: Vec<usize>,
}

impl VecEnv {
    /// `num_envs` envs of `engine`'s rule set, dealt from `seed` and reset.
    pub fn new(
        engine: Arc<Engine>,
        num_envs: usize,
        seed: u64,
        options: Options,
    ) -> Result<VecEnv, SetupError> {
        if num_envs == 0 {
            return Err(SetupError("num_envs must be at least 1".into()));
        }
        if options.history > MAX_HISTORY {
            return Err(SetupError(format!(
                "history must be 0..{MAX_HISTORY}, not {}",
                options.history
            )));
        }
        let probe = Table::seeded(engine.clone(), seed, 0)?;
        let players = engine.rules().players as usize;
        let roles = RoleColumns::new(probe.family().role_specs());
        let dims = Dims {
            envs: num_envs,
            players,
            history: options.history,
            roles: roles.len(),
        };
        let env = Env {
            table: probe,
            seed,
            episode: 0,
            decisions: 0,
            log: PlayLog::new(players, options.history),
            scratch: Vec::new(),
            settled: false,
        };
        let mut out = VecEnv {
            envs: vec![env; num_envs],
            engine,
            seed,
            options: Options {
                threads: options.threads.max(1),
                ..options
            },
            dims,
            roles,
            obs: Obs::new(&dims),
            outcome: Outcome::new(&dims),
            legal: Legal::default(),
            counts: Vec::new(),
        };
        out.reset(None);
        Ok(out)
    }

    /// Every env to the first deal of its series (`seed` replaces the
    /// seed when given), with a fresh observation.
    pub fn reset(&mut self, seed: Option<u64>) {
        self.reseed(seed);
        self.run_own(None, None);
    }

    /// Every env back to game 0 of its series (`seed` replacing the seed).
    fn reseed(&mut self, seed: Option<u64>) {
        if let Some(seed) = seed {
            self.seed = seed;
        }
        for (i, env) in self.envs.iter_mut().enumerate() {
            env.seed = self.seed.wrapping_add(i as u64);
            env.episode = 0;
        }
    }

    /// As `reset`, the legal actions written into the caller's buffers
    /// (see `step_legal_into`).
    pub fn reset_legal_into(
        &mut self,
        seed: Option<u64>,
        legal: LegalRows<'_>,
    ) -> Result<usize, BadAction> {
        self.check_legal(&legal)?;
        self.reseed(seed);
        Ok(self.run_own(None, Some(legal)))
    }

    /// One action per env: an index into that env's legal actions. A bad
    /// index refuses the whole step, and no env moves.
    pub fn step(&mut self, actions: &[i64]) -> Result<(), BadAction> {
        self.check_actions(actions)?;
        self.run_own(Some(actions), None);
        Ok(())
    }

    /// As `step`, the legal actions written into the caller's buffers
    /// instead of the env's own (which `legal()` goes on showing as the
    /// last `step` or `reset` left them): buffers the caller keeps from
    /// step to step, so that nothing is allocated. Returns the number of
    /// legal actions, `M`; the offsets are always written, the rows only
    /// if `legal` has room for them (else the caller makes room and calls
    /// `legal_into`).
    pub fn step_legal_into(
        &mut self,
        actions: &[i64],
        legal: LegalRows<'_>,
    ) -> Result<usize, BadAction> {
        self.check_legal(&legal)?;
        self.check_actions(actions)?;
        Ok(self.run_own(Some(actions), Some(legal)))
    }

    /// How many legal actions the envs have, all told (`M`).
    pub fn legal_count(&self) -> usize {
        self.counts.iter().sum()
    }

    /// The legal actions of the last step or reset, offsets and rows,
    /// written into `legal`, which must have room for all of them.
    pub fn legal_into(&self, legal: LegalRows<'_>) -> Result<(), BadAction> {
        let total = self.legal_count();
        if legal.offsets.len() != self.envs.len() + 1 || legal.room() < total {
            return Err(BadAction(format!(
                "legal buffers hold {} actions, {total} are needed",
                legal.room()
            )));
        }
        write_offsets(legal.offsets, &self.counts);
        let parallel = !serial(self.envs.len(), self.options.threads);
        let fill = || fill_legal(legal, &self.envs, &self.counts, parallel);
        if parallel {
            on_pool(self.options.threads, fill);
        } else {
            fill();
        }
        Ok(())
    }

    fn check_legal(&self, legal: &LegalRows<'_>) -> Result<(), BadAction> {
        if legal.offsets.len() != self.envs.len() + 1 {
            return Err(BadAction(format!(
                "legal offsets hold {} entries, not num_envs + 1",
                legal.offsets.len()
            )));
        }
        Ok(())
    }

    fn check_actions(&self, actions: &[i64]) -> Result<(), BadAction> {
        let n = self.envs.len();
        if actions.len() != n {
            return Err(BadAction(format!(
                "actions has {} entries, one per env is {n}",
                actions.len()
            )));
        }
        for (i, &a) in actions.iter().enumerate() {
            let count = self.counts[i] as i64;
            if !(0..count).contains(&a) {
                return Err(BadAction(format!(
                    "actions[{i}] is {a}: env {i} has {count} legal actions, 0..{}",
                    count - 1
                )));
            }
        }
        Ok(())
    }

    /// `run` into the env's own observation and outcome arrays (which
    /// keep their memory: they are never resized).
    fn run_own(&mut self, actions: Option<&[i64]>, legal: Option<LegalRows<'_>>) -> usize {
        let mut obs = std::mem::take(&mut self.obs);
        let mut outcome = std::mem::take(&mut self.outcome);
        let total = self.run(actions, obs.all(), outcome.all(), legal);
        self.obs = obs;
        self.outcome = outcome;
        total
    }

    /// Step (or, without actions, deal afresh) every env, then write the
    /// observations and the legal actions (into the env's own `Legal`
    /// when `legal` is None; into `legal` if the actions fit, else only
    /// its offsets). Returns the number of legal actions.
    fn run(
        &mut self,
        actions: Option<&[i64]>,
        mut obs: ObsRow<'_>,
        mut outcome: OutcomeRow<'_>,
        legal: Option<LegalRows<'_>>,
    ) -> usize {
        let dims = self.dims;
        let roles = &self.roles;
        let reward = self.options.reward;
        let envs = &mut self.envs;
        // Whole blocks of envs per task: each env's rows are cut from its
        // block's inside the task, not listed one by one beforehand.
        let obs_blocks = obs.blocks(&dims, MIN_ENVS);
        let out_blocks = outcome.blocks(&dims, MIN_ENVS);
        let counts = &mut self.counts;
        counts.resize(envs.len(), 0);
        let own = &mut self.legal;
        let block = |b: usize,
                     envs: &mut [Env],
                     mut o: ObsRow<'_>,
                     mut r: OutcomeRow<'_>,
                     counts: &mut [usize]| {
            for (k, env) in envs.iter_mut().enumerate() {
                let mut out = r.env(k, &dims);
                match actions {
                    Some(a) => env.step(a[b * MIN_ENVS + k] as usize, reward, &mut out),
                    None => {
                        env.deal();
                        clear(&mut out);
                        env.settled = false;
                    }
                }
                let table = &env.table;
                obs::write(
                    &mut o.env(k, &dims),
                    table,
                    &env.log,
                    roles,
                    &mut env.scratch,
                );
                counts[k] = table.legal_unordered().len();
            }
        };
        if serial(envs.len(), self.options.threads) {
            // No pool to wake: for a few envs that costs more than the work.
            envs.chunks_mut(MIN_ENVS)
                .zip(obs_blocks)
                .zip(out_blocks)
                .zip(counts.chunks_mut(MIN_ENVS))
                .enumerate()
                .for_each(|(b, (((envs, o), r), counts))| block(b, envs, o, r, counts));
            return write_legal(own, legal, envs, counts, false);
        }
        on_pool(self.options.threads, || {
            envs.par_chunks_mut(MIN_ENVS)
                .zip(obs_blocks)
                .zip(out_blocks)
                .zip(counts.par_chunks_mut(MIN_ENVS))
                .enumerate()
                .for_each(|(b, (((envs, o), r), counts))| block(b, envs, o, r, counts));
            write_legal(own, legal, envs, counts, true)
        })
    }

    pub fn num_envs(&self) -> usize {
        self.envs.len()
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn dims(&self) -> Dims {
        self.dims
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The role columns of `obs.roles`, in order.
    pub fn role_keys(&self) -> &[String] {
        &self.roles.keys
    }

    /// The observations of the last reset or step.
    pub fn obs(&self) -> &Obs {
        &self.obs
    }

    /// Rewards, terminations and the results of the deals the last step
    /// finished.
    pub fn outcome(&self) -> &Outcome {
        &self.outcome
    }

    pub fn legal(&self) -> &Legal {
        &self.legal
    }

    /// Env `i`'s table (its current deal).
    pub fn table(&self, i: usize) -> &Table {
        &self.envs[i].table
    }
}

/// `buf` cut into consecutive pieces of `counts[i] * width` elements.
fn split<'a, T>(mut buf: &'a mut [T], counts: &[usize], width: usize) -> Vec<&'a mut [T]> {
    let mut out = Vec::with_capacity(counts.len());
    for &c in counts {
        let (head, tail) = buf.split_at_mut(c * width);
        out.push(head);
        buf = tail;
    }
    out
}

/// The offsets of `counts`, and the rows into `given` if they fit (else
/// its offsets only) or into `own` resized to fit. Returns the total.
fn write_legal(
    own: &mut Legal,
    given: Option<LegalRows<'_>>,
    envs: &[Env],
    counts: &[usize],
    parallel: bool,
) -> usize {
    let total: usize = counts.iter().sum();
    let rows = match given {
        Some(rows) => rows,
        None => own.sized(envs.len(), total),
    };
    write_offsets(rows.offsets, counts);
    if rows.room() >= total {
        fill_legal(rows, envs, counts, parallel);
    }
    total
}

/// `offsets[i]`: where env `i`'s legal actions start (`counts` summed).
fn write_offsets(offsets: &mut [i64], counts: &[usize]) {
    offsets[0] = 0;
    let mut at = 0i64;
    for (o, &c) in offsets[1..].iter_mut().zip(counts) {
        at += c as i64;
        *o = at;
    }
}

/// The legal actions' rows (not the offsets) into `legal`, which has room.
fn fill_legal(legal: LegalRows<'_>, envs: &[Env], counts: &[usize], parallel: bool) {
    use crate::cards::SLOTS;
    // One piece of each array per block of envs, as the steps ran.
    let per_block: Vec<usize> = counts.chunks(MIN_ENVS).map(|c| c.iter().sum()).collect();
    let cards = split(legal.cards, &per_block, SLOTS);
    let represents = split(legal.represents, &per_block, SLOTS);
    let kind = split(legal.kind, &per_block, 1);
    let rank = split(legal.rank, &per_block, 1);
    let length = split(legal.length, &per_block, 1);
    let fill = |envs: &[Env],
                cards: &mut [u8],
                represents: &mut [u8],
                kind: &mut [i8],
                rank: &mut [i8],
                length: &mut [i8]| {
        // Each action's five row pieces, walked together (no index per
        // element, so no bounds check per element).
        let mut rows = cards.as_chunks_mut::<SLOTS>().0.iter_mut().zip(
            represents
                .as_chunks_mut::<SLOTS>()
                .0
                .iter_mut()
                .zip(kind.iter_mut().zip(rank.iter_mut().zip(length.iter_mut()))),
        );
        // In `legal_unordered`'s order: the plays, then the words.
        for env in envs {
            let legal = env.table.legal_unordered();
            for (m, (c, (p, (k, (r, l))))) in legal.plays.iter().zip(rows.by_ref()) {
                (*c, *p) = (m.cards.0, m.represents.0);
                (*k, *r, *l) = kinds::describe_play(m);
            }
            for (word, (c, (p, (k, (r, l))))) in legal.words.iter().zip(rows.by_ref()) {
                (*c, *p) = ([0; SLOTS], [0; SLOTS]);
                (*k, *r, *l) = kinds::describe(word);
            }
        }
    };
    let pieces = cards
        .into_iter()
        .zip(represents)
        .zip(kind)
        .zip(rank)
        .zip(length);
    if parallel {
        envs.par_chunks(MIN_ENVS)
            .zip(pieces.collect::<Vec<_>>())
            .for_each(|(envs, ((((c, p), k), r), l))| fill(envs, c, p, k, r, l));
    } else {
        envs.chunks(MIN_ENVS)
            .zip(pieces)
            .for_each(|(envs, ((((c, p), k), r), l))| fill(envs, c, p, k, r, l));
    }
}

#[cfg(test)]
mod tests;
