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
use crate::table::{Action, Phase, Rng, SetupError, Table};
use arrays::{per_env, slot_row, Dims};
use obs::{Obs, ObsRow, PlayLog};
use rayon::prelude::*;
use roles::RoleColumns;
use serde_json::Map;
use std::collections::BTreeSet;
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
    scratch: Map<String, serde_json::Value>,
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
            let leading = self.table.core().tricks.leading();
            self.log.record(seat, &action, leading);
        }
        clear(out);
        let Some(result) = self.table.result() else {
            return;
        };
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
        out.landlord[0] = self.table.roles().landlord as i8;
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
        let mut keys = BTreeSet::new();
        for s in 0..players {
            let mut roles = Map::new();
            probe.family().observe(probe.core(), s, &mut roles);
            keys.extend(roles.keys().cloned());
        }
        let roles = RoleColumns::new(keys.into_iter().collect());
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
            scratch: Map::new(),
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
        if let Some(seed) = seed {
            self.seed = seed;
        }
        for (i, env) in self.envs.iter_mut().enumerate() {
            env.seed = self.seed.wrapping_add(i as u64);
            env.episode = 0;
        }
        self.run(None);
    }

    /// One action per env: an index into that env's legal actions. A bad
    /// index refuses the whole step, and no env moves.
    pub fn step(&mut self, actions: &[i64]) -> Result<(), BadAction> {
        let n = self.envs.len();
        if actions.len() != n {
            return Err(BadAction(format!(
                "actions has {} entries, one per env is {n}",
                actions.len()
            )));
        }
        let offsets = &self.legal.offsets;
        for (i, &a) in actions.iter().enumerate() {
            let count = offsets[i + 1] - offsets[i];
            if !(0..count).contains(&a) {
                return Err(BadAction(format!(
                    "actions[{i}] is {a}: env {i} has {count} legal actions, 0..{}",
                    count - 1
                )));
            }
        }
        self.run(Some(actions));
        Ok(())
    }

    /// Step (or, without actions, deal afresh) every env, then write the
    /// observations and the legal actions.
    fn run(&mut self, actions: Option<&[i64]>) {
        let dims = self.dims;
        let roles = &self.roles;
        let reward = self.options.reward;
        let envs = &mut self.envs;
        // Whole blocks of envs per task: each env's rows are cut from its
        // block's inside the task, not listed one by one beforehand.
        let obs_blocks = self.obs.blocks(&dims, MIN_ENVS);
        let out_blocks = self.outcome.blocks(&dims, MIN_ENVS);
        let counts = &mut self.counts;
        counts.resize(envs.len(), 0);
        let legal = &mut self.legal;
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
            fill_legal(legal, envs, counts, false);
            return;
        }
        on_pool(self.options.threads, || {
            envs.par_chunks_mut(MIN_ENVS)
                .zip(obs_blocks)
                .zip(out_blocks)
                .zip(counts.par_chunks_mut(MIN_ENVS))
                .enumerate()
                .for_each(|(b, (((envs, o), r), counts))| block(b, envs, o, r, counts));
            fill_legal(legal, envs, counts, true);
        });
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

fn fill_legal(legal: &mut Legal, envs: &[Env], counts: &[usize], parallel: bool) {
    let total: usize = counts.iter().sum();
    legal.offsets.clear();
    legal.offsets.push(0);
    let mut at = 0i64;
    for &c in counts {
        at += c as i64;
        legal.offsets.push(at);
    }
    use crate::cards::SLOTS;
    legal.cards.resize(total * SLOTS, 0);
    legal.represents.resize(total * SLOTS, 0);
    legal.kind.resize(total, 0);
    legal.rank.resize(total, 0);
    legal.length.resize(total, 0);
    // One piece of each array per block of envs, as the steps ran.
    let per_block: Vec<usize> = counts.chunks(MIN_ENVS).map(|c| c.iter().sum()).collect();
    let cards = split(&mut legal.cards, &per_block, SLOTS);
    let represents = split(&mut legal.represents, &per_block, SLOTS);
    let kind = split(&mut legal.kind, &per_block, 1);
    let rank = split(&mut legal.rank, &per_block, 1);
    let length = split(&mut legal.length, &per_block, 1);
    let fill = |envs: &[Env],
                cards: &mut [u8],
                represents: &mut [u8],
                kind: &mut [i8],
                rank: &mut [i8],
                length: &mut [i8]| {
        // In `legal_unordered`'s order: the plays, then the words.
        let mut k = 0;
        for env in envs {
            let legal = env.table.legal_unordered();
            for m in legal.plays {
                *slot_row(cards, k) = m.cards.0;
                *slot_row(represents, k) = m.represents.0;
                (kind[k], rank[k], length[k]) = kinds::describe_play(m);
                k += 1;
            }
            for word in legal.words {
                *slot_row(cards, k) = [0; SLOTS];
                *slot_row(represents, k) = [0; SLOTS];
                (kind[k], rank[k], length[k]) = kinds::describe(word);
                k += 1;
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
