//! Batched environments for reinforcement learning: N tables stepped in
//! one call (docs/rl.md).
//!
//! Each env is a [`Table`] driven through its public API only: an action
//! is an index into the env's legal actions in `Game`'s order
//! (`Table::order_legal`: the plays in hint order, then the words; every
//! phase's decisions and the plays alike), a finished deal is settled and
//! replaced by the env's next deal at once, and the observation of the
//! seat to act is written into flat arrays ([`obs`]). Env `i` deals game
//! `k` of the series `seed + i` (`Table::seeded`), so a run does not
//! depend on the thread count.
//!
//! The seats need not all be the learner's ([`players`]): built-in
//! policies play theirs inside the step, and external players (a Python
//! callable) are asked for all their envs at once between the step's
//! first pass and `finish`. One env's stepping is [`env`]'s.

pub mod arrays;
pub mod douzero;
mod env;
pub mod ids;
pub mod kinds;
pub mod obs;
pub mod players;
pub mod roles;

use crate::batch::default_threads;
use crate::engine::Engine;
use crate::simulate::{Outcome, Seats};
use crate::table::{ActionTable, SetupError, Table};
use arrays::{per_env, Dims};
use env::{Ctx, Env};
use obs::{Obs, ObsRow};
use players::{Limits, Seating};
use rayon::prelude::*;
use roles::RoleColumns;
use std::fmt;
use std::sync::Arc;

pub use env::{Dealing, Wait};
pub use players::Player;

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

/// Envs per thread when the caller names no thread count: a thread more
/// only for each this many envs, so that a batch of 256 steps on one
/// thread, as fast as `threads=1` whatever else the machine runs, and a
/// large batch uses every core.
pub const ENVS_PER_THREAD: usize = 256;

/// The threads a batch of `envs` envs steps on when the caller names none:
/// one per `ENVS_PER_THREAD` envs, at most `DDZ_NUM_THREADS` or the cores.
pub fn default_threads_for(envs: usize) -> usize {
    (envs / ENVS_PER_THREAD).clamp(1, default_threads())
}

/// The most plays `recent` may keep.
pub const MAX_HISTORY: usize = 256;

/// What a finished deal pays each seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// The seat's score by the preset's scoring.
    Score,
    /// +1 to every seat of the winning side, -1 to every seat of the
    /// losing side (DouZero's "wp" objective, per seat).
    WinLoss,
    /// The winners share +1 and the losers -1 (each side's seats split
    /// its ±1 evenly), so every deal sums to 0.
    WinSplit,
    /// ±2^bombs to every seat of the winning / losing side, `bombs` the
    /// bombs (rockets included) played in the deal: DouZero's "adp".
    Adp,
}

/// Whose reward a step returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RewardFor {
    /// Every seat's, by absolute seat (`reward` is `[N, P]`).
    Seat,
    /// The seat whose action the step took (`reward` is `[N]`).
    Acting,
}

#[derive(Clone, Debug)]
pub struct Options {
    /// How many of the last plays and passes `recent` holds.
    pub history: usize,
    pub reward: Reward,
    pub reward_for: RewardFor,
    pub threads: usize,
    /// Who plays each seat, and how a deal opens; None: every seat is the
    /// learner's and the auction is played.
    pub seating: Option<Seating>,
    pub limits: Limits,
    /// Number the legal actions (`LegalArrays::ids`) by this table.
    pub ids: Option<Arc<ActionTable>>,
    /// Keep a dense mask over every id per env (needs `ids`).
    pub mask: bool,
    /// Write the acting seat's view of a deal as it ends or is cut.
    pub final_obs: bool,
    /// Write DouZero's features of the seat to act (`douzero`; one-landlord
    /// rule sets).
    pub douzero: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            history: 15,
            reward: Reward::Score,
            reward_for: RewardFor::Seat,
            threads: default_threads(),
            seating: None,
            limits: Limits::defaults(),
            ids: None,
            mask: false,
            final_obs: false,
            douzero: false,
        }
    }
}

per_env!(OutcomeArrays, OutcomeRow, |d| {
    reward: f32 = [d.rewards],
    terminated: bool = [],
    truncated: bool = [],
    scores: i64 = [d.players],
    winners: bool = [d.players],
    final_multiplier: i64 = [],
    length: i32 = [],
    episode: i64 = [],
    landlord: i8 = [],
    bombs: i32 = [],
});

/// The legal actions of every env in CSR form: env `i`'s are rows
/// `offsets[i]..offsets[i + 1]`, in the order the step's indices count
/// (`Game`'s order: the plays in hint order, then the words).
#[derive(Clone, Debug, Default)]
pub struct LegalArrays {
    pub offsets: Vec<i64>,
    /// A play's cards (zeros for other decisions), 16 per row.
    pub cards: Vec<u8>,
    /// What the cards stand for (laizi), 16 per row.
    pub represents: Vec<u8>,
    pub kind: Vec<i8>,
    pub rank: Vec<i8>,
    pub length: Vec<i8>,
    /// Each action's fixed id (with an action table; else empty).
    pub ids: Vec<i32>,
}

impl LegalArrays {
    /// Room for `total` actions over `envs` envs, and the arrays as a step
    /// writes them.
    fn sized(&mut self, envs: usize, total: usize, ids: bool) -> LegalRows<'_> {
        use crate::cards::SLOTS;
        self.offsets.resize(envs + 1, 0);
        self.cards.resize(total * SLOTS, 0);
        self.represents.resize(total * SLOTS, 0);
        self.kind.resize(total, 0);
        self.rank.resize(total, 0);
        self.length.resize(total, 0);
        self.ids.resize(if ids { total } else { 0 }, 0);
        LegalRows {
            offsets: &mut self.offsets,
            cards: &mut self.cards,
            represents: &mut self.represents,
            kind: &mut self.kind,
            rank: &mut self.rank,
            length: &mut self.length,
            ids: ids.then_some(&mut self.ids[..]),
        }
    }
}

/// Buffers a caller brings for the legal actions (`VecEnv::finish`):
/// `offsets` of exactly `num_envs + 1`, the others with room for some
/// number of actions (16 slots per row for `cards` and `represents`;
/// `ids` when the env numbers its actions). Only the first
/// `offsets[num_envs]` actions' elements are written.
pub struct LegalRows<'a> {
    pub offsets: &'a mut [i64],
    pub cards: &'a mut [u8],
    pub represents: &'a mut [u8],
    pub kind: &'a mut [i8],
    pub rank: &'a mut [i8],
    pub length: &'a mut [i8],
    pub ids: Option<&'a mut [i32]>,
}

impl LegalRows<'_> {
    /// How many actions' rows fit.
    pub fn room(&self) -> usize {
        use crate::cards::SLOTS;
        let ids = self.ids.as_ref().map_or(usize::MAX, |i| i.len());
        (self.cards.len() / SLOTS)
            .min(self.represents.len() / SLOTS)
            .min(self.kind.len())
            .min(self.rank.len())
            .min(self.length.len())
            .min(ids)
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

fn clear(out: &mut OutcomeRow<'_>) {
    out.reward.fill(0.0);
    out.terminated[0] = false;
    out.truncated[0] = false;
    out.scores.fill(0);
    out.winners.fill(false);
    out.final_multiplier[0] = 0;
    out.length[0] = 0;
    out.episode[0] = 0;
    out.landlord[0] = -1;
    out.bombs[0] = 0;
}

/// What a pass over the envs does to each.
#[derive(Clone, Copy)]
enum Job<'a> {
    /// Deal afresh and play up to the first decision a caller takes.
    Reset,
    /// The learner's action of each env.
    Step(&'a [i64]),
    /// An external player's action for some envs (`usize::MAX`: none).
    Answer(&'a [usize]),
    /// Only write the observations still to be written.
    Pending,
}

/// `num_envs` tables of one rule set, stepped together. See the module docs.
///
/// A step is `begin_step`, then, while envs wait for external players,
/// `waiting`/`write_side`/`answer`, then `finish`; `step` and `reset` do
/// it all when no seat is external.
pub struct VecEnv {
    engine: Arc<Engine>,
    envs: Vec<Env>,
    seed: u64,
    /// `Dealing::Once`: env `i` plays deal `first + i` of the series.
    first: u64,
    dealing: Dealing,
    options: Options,
    seating: Seating,
    seats: Seats,
    dims: Dims,
    roles: RoleColumns,
    obs: Obs,
    outcome: OutcomeArrays,
    final_obs: Option<Obs>,
    legal: LegalArrays,
    /// Per env, its row of every id (`Options::mask`).
    mask: Vec<bool>,
    /// Legal actions per env, from the last step (scratch).
    counts: Vec<usize>,
    /// The envs whose rows `write_side` wrote, in row order, and the rows.
    side_envs: Vec<usize>,
    side_obs: Obs,
    side_legal: LegalArrays,
    side_mask: Vec<bool>,
    /// Answers of an `answer` call, by env (scratch).
    answers: Vec<usize>,
    /// DouZero's features (`Options::douzero`): the layout, and per env the
    /// context row, `z` and the position.
    dz: Option<DouZero>,
}

/// DouZero's features of every env's seat to act.
#[derive(Clone, Debug)]
pub struct DouZero {
    pub layout: douzero::Layout,
    /// `[N, layout.width]`.
    pub context: Vec<i8>,
    /// `[N, HISTORY, layout.features]`.
    pub history: Vec<i8>,
    /// `[N]`: 0 the landlord, then the seats after it; -1 outside the play.
    pub position: Vec<i8>,
    /// `[M, layout.action_features]`: each legal action's features, in the
    /// legal rows' order.
    pub actions: Vec<i8>,
}

impl VecEnv {
    /// `num_envs` envs of `engine`'s rule set, dealt from `seed` and reset.
    /// External players must be answered (`reset_begin`): this is for
    /// seatings without them.
    pub fn new(
        engine: Arc<Engine>,
        num_envs: usize,
        seed: u64,
        options: Options,
    ) -> Result<VecEnv, SetupError> {
        let mut out = VecEnv::built(engine, num_envs, seed, 0, Dealing::Series, options)?;
        if out.seating.externals() > 0 {
            return Err(SetupError(
                "a seating with external players is stepped with begin_step".into(),
            ));
        }
        out.reset(None);
        Ok(out)
    }

    /// Envs not yet dealt: `reset_begin` deals them.
    pub fn built(
        engine: Arc<Engine>,
        num_envs: usize,
        seed: u64,
        first: u64,
        dealing: Dealing,
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
        if options.mask && options.ids.is_none() {
            return Err(SetupError("a mask needs the action ids".into()));
        }
        let probe = Table::seeded(engine.clone(), seed, 0)?;
        let players = engine.rules().players as usize;
        let seating = options
            .seating
            .clone()
            .unwrap_or_else(|| Seating::learners(players));
        seating.check(players).map_err(SetupError)?;
        seating.opening.check(engine.rules()).map_err(SetupError)?;
        let roles = RoleColumns::new(probe.family().role_specs());
        let dims = Dims {
            envs: num_envs,
            players,
            history: options.history,
            roles: roles.len(),
            rewards: match options.reward_for {
                RewardFor::Seat => players,
                RewardFor::Acting => 1,
            },
        };
        let ids = options.ids.as_ref().map_or(0, |t| t.len());
        let dz = match options.douzero {
            true => {
                let layout = douzero::Layout::new(engine.rules()).map_err(SetupError)?;
                Some(DouZero {
                    context: vec![0; num_envs * layout.width],
                    history: vec![0; num_envs * douzero::HISTORY * layout.features],
                    position: vec![-1; num_envs],
                    actions: Vec::new(),
                    layout,
                })
            }
            false => None,
        };
        let mut env = Env::new(probe, seed, options.history);
        if let Some(dz) = &dz {
            env.dz = Some(douzero::Log::new(&dz.layout));
        }
        Ok(VecEnv {
            envs: vec![env; num_envs],
            engine,
            seed,
            first,
            dealing,
            seats: seating.seats(),
            seating,
            options: Options {
                threads: options.threads.max(1),
                ..options
            },
            dims,
            roles,
            obs: Obs::new(&dims),
            outcome: OutcomeArrays::new(&dims),
            final_obs: None,
            legal: LegalArrays::default(),
            mask: Vec::new(),
            counts: vec![0; num_envs],
            side_envs: Vec::new(),
            side_obs: Obs::default(),
            side_legal: LegalArrays::default(),
            side_mask: Vec::new(),
            answers: vec![usize::MAX; num_envs],
            dz,
        }
        .with_buffers(ids))
    }

    fn with_buffers(mut self, ids: usize) -> VecEnv {
        if self.options.final_obs {
            self.final_obs = Some(Obs::new(&self.dims));
        }
        if self.options.mask {
            self.mask = vec![false; self.envs.len() * ids];
        }
        self
    }

    /// Every env to the first deal of its series (`seed` replaces the
    /// seed when given), with a fresh observation.
    pub fn reset(&mut self, seed: Option<u64>) {
        self.reset_begin(seed);
        self.finish(None).expect("no external player waits");
    }

    /// As `reset`, up to the first decision of each env a caller takes:
    /// external players' turns are answered next, then `finish`.
    pub fn reset_begin(&mut self, seed: Option<u64>) {
        self.reseed(seed);
        self.pass(Job::Reset);
    }

    /// Every env back to its first deal (`seed` replacing the seed).
    fn reseed(&mut self, seed: Option<u64>) {
        if let Some(seed) = seed {
            self.seed = seed;
        }
        for (i, env) in self.envs.iter_mut().enumerate() {
            (env.seed, env.episode) = match self.dealing {
                Dealing::Series => (self.seed.wrapping_add(i as u64), 0),
                Dealing::Once => (self.seed, self.first.wrapping_add(i as u64)),
            };
        }
    }

    /// One action per env: an index into that env's legal actions. A bad
    /// index refuses the whole step, and no env moves.
    pub fn step(&mut self, actions: &[i64]) -> Result<(), BadAction> {
        if self.seating.externals() > 0 {
            return Err(BadAction(
                "external players are answered between begin_step and finish".into(),
            ));
        }
        self.begin_step(actions)?;
        self.finish(None)?;
        Ok(())
    }

    /// As `step`, up to each env's next decision a caller takes (external
    /// players' turns are answered next, then `finish`).
    pub fn begin_step(&mut self, actions: &[i64]) -> Result<(), BadAction> {
        self.check_actions(actions)?;
        self.pass(Job::Step(actions));
        Ok(())
    }

    /// The legal index of action id `id` in env `i`'s latest moment.
    pub fn index_of_id(&self, i: usize, id: i64) -> Option<usize> {
        let ids = &self.envs.get(i)?.ids;
        ids.iter().position(|&x| i64::from(x) == id)
    }

    /// Ids turned into legal indices (`step` by id); an id that is not
    /// legal is refused naming the env.
    pub fn indices_of_ids(&self, ids: &[i64]) -> Result<Vec<i64>, BadAction> {
        if self.options.ids.is_none() {
            return Err(BadAction(
                "this env numbers no actions: make it with legal_ids=True to step by id".into(),
            ));
        }
        self.check_length(ids)?;
        let index = |(i, &id): (usize, &i64)| {
            self.index_of_id(i, id).map(|x| x as i64).ok_or_else(|| {
                BadAction(format!(
                    "actions[{i}] is {id}: action id {id} is not legal in env {i} now"
                ))
            })
        };
        ids.iter().enumerate().map(index).collect()
    }

    /// The envs waiting for external player `k`, in order.
    pub fn waiting(&self, k: u8) -> Vec<usize> {
        let envs = self.envs.iter().enumerate();
        envs.filter_map(|(i, e)| (e.wait == Wait::External(k)).then_some(i))
            .collect()
    }

    /// Write the observations and legal actions of `envs` (each waiting
    /// for an external player) as rows `0..envs.len()` of the side
    /// buffers (`side_obs`, `side_legal`, `side_mask`).
    pub fn write_side(&mut self, envs: &[usize]) -> Result<(), BadAction> {
        if let Some(&bad) = envs.iter().find(|&&i| {
            self.envs
                .get(i)
                .is_none_or(|e| !matches!(e.wait, Wait::External(_)))
        }) {
            return Err(BadAction(format!("env {bad} waits for no external player")));
        }
        let dims = Dims {
            envs: envs.len(),
            ..self.dims
        };
        if self.side_obs.seat.len() < envs.len() {
            self.side_obs = Obs::new(&Dims {
                envs: self.envs.len(),
                ..self.dims
            });
        }
        let counts: Vec<usize> = envs
            .iter()
            .map(|&i| self.envs[i].table.legal_unordered().len())
            .collect();
        let mut rows = self.side_obs.rows(&dims);
        for (row, &i) in rows.iter_mut().zip(envs) {
            let env = &mut self.envs[i];
            let seat = env.table.to_act();
            obs::write(
                row,
                &env.table,
                seat,
                &env.log,
                &self.roles,
                &mut env.scratch,
            );
        }
        drop(rows);
        let chosen: Vec<&Env> = envs.iter().map(|&i| &self.envs[i]).collect();
        let total: usize = counts.iter().sum();
        let with_ids = self.options.ids.is_some();
        let rows = self.side_legal.sized(envs.len(), total, with_ids);
        write_offsets(rows.offsets, &counts);
        fill_rows(rows, chosen.iter().copied());
        if self.options.mask {
            let width = self.options.ids.as_ref().map_or(0, |t| t.len());
            self.side_mask.clear();
            self.side_mask.resize(envs.len() * width, false);
            for (row, env) in self.side_mask.chunks_mut(width).zip(&chosen) {
                for &id in &env.ids {
                    row[id as usize] = true;
                }
            }
        }
        self.side_envs = envs.to_vec();
        Ok(())
    }

    /// The side buffers `write_side` last wrote: the envs, their
    /// observations (rows `0..envs.len()`), legal actions and mask.
    pub fn side(&self) -> (&[usize], &Obs, &LegalArrays, &[bool]) {
        (
            &self.side_envs,
            &self.side_obs,
            &self.side_legal,
            &self.side_mask,
        )
    }

    /// External player `k`'s answers: legal index `indices[j]` for env
    /// `envs[j]`. Checked first: a bad answer moves no env.
    pub fn answer(&mut self, k: u8, envs: &[usize], indices: &[i64]) -> Result<(), BadAction> {
        if envs.len() != indices.len() {
            return Err(BadAction(format!(
                "{} answers for {} envs",
                indices.len(),
                envs.len()
            )));
        }
        for (&i, &a) in envs.iter().zip(indices) {
            let Some(env) = self.envs.get(i).filter(|e| e.wait == Wait::External(k)) else {
                return Err(BadAction(format!("env {i} does not wait for player {k}")));
            };
            let count = env.table.legal_unordered().len() as i64;
            if !(0..count).contains(&a) {
                return Err(BadAction(format!(
                    "the answer for env {i} is {a}: it has {count} legal actions, 0..{}",
                    count - 1
                )));
            }
        }
        let mut answers = std::mem::take(&mut self.answers);
        answers.fill(usize::MAX);
        for (&i, &a) in envs.iter().zip(indices) {
            answers[i] = a as usize;
        }
        self.pass(Job::Answer(&answers));
        self.answers = answers;
        Ok(())
    }

    /// Is any env waiting for an external player?
    pub fn any_external(&self) -> bool {
        self.envs
            .iter()
            .any(|e| matches!(e.wait, Wait::External(_)))
    }

    /// End a step or reset once no env waits for an external player:
    /// the observations not yet written, then the legal actions (into the
    /// env's own `LegalArrays` when `legal` is None; into `legal` if they fit,
    /// else only its offsets) and the mask. Returns the number of legal
    /// actions.
    pub fn finish(&mut self, legal: Option<LegalRows<'_>>) -> Result<usize, BadAction> {
        if self.any_external() {
            return Err(BadAction("envs still wait for external players".into()));
        }
        if let Some(l) = &legal {
            self.check_legal(l)?;
        }
        if self.envs.iter().any(|e| e.obs_pending) {
            self.pass(Job::Pending);
        }
        let parallel = !serial(self.envs.len(), self.options.threads);
        let with_ids = self.options.ids.is_some();
        let (envs, counts, own) = (&self.envs, &self.counts, &mut self.legal);
        let write = || write_legal(own, legal, envs, counts, parallel, with_ids);
        let total = match parallel {
            true => on_pool(self.options.threads, write),
            false => write(),
        };
        if self.options.mask {
            self.update_mask(parallel);
        }
        if self.dz.is_some() {
            self.write_douzero(parallel);
        }
        Ok(total)
    }

    /// DouZero's features of each env waiting for a learner (zeros, and
    /// position -1, for the others).
    fn write_douzero(&mut self, parallel: bool) {
        let Some(dz) = self.dz.as_mut() else {
            return;
        };
        let layout = &dz.layout;
        let (w, zw) = (layout.width, douzero::HISTORY * layout.features);
        type Rows<'a> = (((&'a mut [i8], &'a mut [i8]), &'a mut i8), &'a Env);
        let write = |(((ctx, z), pos), env): Rows<'_>| {
            *pos = match (&env.dz, env.wait) {
                (Some(log), Wait::Learner) if !env.table.is_over() => {
                    let seat = env.table.to_act();
                    douzero::write(layout, &env.table, seat, log, env.bombs, ctx, z)
                }
                _ => {
                    ctx.fill(0);
                    z.fill(0);
                    -1
                }
            };
        };
        let (ctx, hist, pos) = (&mut dz.context, &mut dz.history, &mut dz.position);
        let envs = &self.envs;
        // Each legal action's features, one piece per env (its count of rows).
        let af = layout.action_features;
        let total: usize = self.counts.iter().sum();
        dz.actions.resize(total * af, 0);
        let pieces = split(&mut dz.actions, &self.counts, af);
        let actions = |(env, out): (&Env, &mut [i8])| {
            if out.is_empty() {
                return;
            }
            let legal = env.table.legal_unordered();
            let mut rows = out.chunks_exact_mut(af);
            for (m, o) in legal.plays.iter().zip(rows.by_ref()) {
                layout.action(&m.cards.0, &m.represents.0, o);
            }
            for o in rows {
                o.fill(0);
            }
        };
        match parallel {
            true => on_pool(self.options.threads, || {
                ctx.par_chunks_mut(w)
                    .zip(hist.par_chunks_mut(zw))
                    .zip(pos.par_iter_mut())
                    .zip(envs.par_iter())
                    .with_min_len(MIN_ENVS)
                    .for_each(write)
            }),
            false => ctx
                .chunks_mut(w)
                .zip(hist.chunks_mut(zw))
                .zip(pos.iter_mut())
                .zip(envs.iter())
                .for_each(write),
        }
        match parallel {
            true => on_pool(self.options.threads, || {
                envs.par_iter()
                    .zip(pieces)
                    .with_min_len(MIN_ENVS)
                    .for_each(actions)
            }),
            false => envs.iter().zip(pieces).for_each(actions),
        }
    }

    /// DouZero's features of the last step (`Options::douzero`).
    pub fn douzero(&self) -> Option<&DouZero> {
        self.dz.as_ref()
    }

    /// Each env's row of the mask to its legal ids: the ids set before
    /// are cleared, the new ones set (only the entries that change).
    fn update_mask(&mut self, parallel: bool) {
        let width = self.options.ids.as_ref().map_or(0, |t| t.len());
        let update = |(row, env): (&mut [bool], &mut Env)| {
            for &id in &env.masked {
                row[id as usize] = false;
            }
            for &id in &env.ids {
                row[id as usize] = true;
            }
            env.masked.clone_from(&env.ids);
        };
        let (mask, envs) = (&mut self.mask, &mut self.envs);
        match parallel {
            true => on_pool(self.options.threads, || {
                mask.par_chunks_mut(width).zip(envs).for_each(update)
            }),
            false => mask.chunks_mut(width).zip(envs).for_each(update),
        }
    }

    /// How many legal actions env `i` has now.
    pub fn legal_len(&self, i: usize) -> usize {
        self.counts.get(i).copied().unwrap_or(0)
    }

    /// How many legal actions the envs have, all told (`M`).
    pub fn legal_count(&self) -> usize {
        self.counts.iter().sum()
    }

    /// The legal actions of the last step or reset, offsets and rows,
    /// written into `legal`, which must have room for all of them.
    pub fn legal_into(&self, legal: LegalRows<'_>) -> Result<(), BadAction> {
        let total = self.legal_count();
        self.check_legal(&legal)?;
        if legal.room() < total {
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
        if legal.ids.is_some() != self.options.ids.is_some() {
            return Err(BadAction(
                "legal ids are given exactly when the env numbers its actions".into(),
            ));
        }
        Ok(())
    }

    fn check_length(&self, actions: &[i64]) -> Result<(), BadAction> {
        let n = self.envs.len();
        if actions.len() != n {
            return Err(BadAction(format!(
                "actions has {} entries, one per env is {n}",
                actions.len()
            )));
        }
        Ok(())
    }

    fn check_actions(&self, actions: &[i64]) -> Result<(), BadAction> {
        self.check_length(actions)?;
        if self.any_external() {
            return Err(BadAction(
                "envs still wait for external players: answer them and finish first".into(),
            ));
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

    /// Do `job` to every env, whole blocks of envs per task, then write
    /// the observation of each env now waiting for a learner seat (an
    /// env waiting for an external player has its row written by
    /// `finish`, once answered).
    fn pass(&mut self, job: Job<'_>) {
        let dims = self.dims;
        let ids = self.options.ids.clone();
        let ctx = Ctx {
            seating: &self.seating,
            seats: &self.seats,
            limits: self.options.limits,
            reward: self.options.reward,
            reward_for: self.options.reward_for,
            dealing: self.dealing,
            roles: &self.roles,
            ids: ids.as_deref(),
        };
        let roles = &self.roles;
        // A seat that searches costs milliseconds a decision: one env per
        // task, and a pool at any batch size, so that every thread works.
        let searching = self.seats.searches();
        let per_task = if searching { 1 } else { MIN_ENVS };
        let mut obs = std::mem::take(&mut self.obs);
        let mut outcome = std::mem::take(&mut self.outcome);
        let mut fin = self.final_obs.take();
        {
            let mut obs_all = obs.all();
            let mut out_all = outcome.all();
            let obs_blocks = obs_all.blocks(&dims, per_task);
            let out_blocks = out_all.blocks(&dims, per_task);
            let mut fin_all = fin.as_mut().map(Obs::all);
            let fin_blocks: Vec<Option<ObsRow<'_>>> = match fin_all.as_mut() {
                Some(f) => f.blocks(&dims, per_task).into_iter().map(Some).collect(),
                None => (0..obs_blocks.len()).map(|_| None).collect(),
            };
            let block = |b: usize,
                         envs: &mut [Env],
                         mut o: ObsRow<'_>,
                         mut r: OutcomeRow<'_>,
                         mut f: Option<ObsRow<'_>>,
                         counts: &mut [usize]| {
                for (k, env) in envs.iter_mut().enumerate() {
                    let i = b * per_task + k;
                    let mut out = r.env(k, &dims);
                    let mut fin_row = f.as_mut().map(|f| f.env(k, &dims));
                    let moved = match job {
                        Job::Reset => {
                            env.restart(&ctx, &mut out);
                            true
                        }
                        Job::Step(a) => {
                            env.step(a[i] as usize, &ctx, &mut out, fin_row.as_mut());
                            true
                        }
                        Job::Answer(a) if a[i] != usize::MAX => {
                            env.answer(a[i], &ctx, &mut out, fin_row.as_mut());
                            true
                        }
                        Job::Answer(_) => false,
                        Job::Pending => env.obs_pending,
                    };
                    if !moved {
                        continue;
                    }
                    env.obs_pending = false;
                    counts[k] = 0;
                    match env.wait {
                        Wait::Learner => {
                            let (table, seat) = (&env.table, env.table.to_act());
                            let mut row = o.env(k, &dims);
                            obs::write(&mut row, table, seat, &env.log, roles, &mut env.scratch);
                            counts[k] = table.legal_unordered().len();
                        }
                        Wait::External(_) => env.obs_pending = true,
                        Wait::Done => {}
                    }
                }
            };
            let envs = &mut self.envs;
            let counts = &mut self.counts;
            if !searching && serial(envs.len(), self.options.threads) {
                // No pool to wake: for a few envs that costs more than the work.
                envs.chunks_mut(per_task)
                    .zip(obs_blocks)
                    .zip(out_blocks)
                    .zip(fin_blocks)
                    .zip(counts.chunks_mut(per_task))
                    .enumerate()
                    .for_each(|(b, ((((e, o), r), f), c))| block(b, e, o, r, f, c));
            } else {
                on_pool(self.options.threads, || {
                    envs.par_chunks_mut(per_task)
                        .zip(obs_blocks)
                        .zip(out_blocks)
                        .zip(fin_blocks)
                        .zip(counts.par_chunks_mut(per_task))
                        .enumerate()
                        .for_each(|(b, ((((e, o), r), f), c))| block(b, e, o, r, f, c));
                });
            }
        }
        self.obs = obs;
        self.outcome = outcome;
        self.final_obs = fin;
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

    pub fn seating(&self) -> &Seating {
        &self.seating
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

    /// The acting seat's view of each deal the last step ended or cut
    /// (`Options::final_obs`; rows of other envs are stale).
    pub fn final_obs(&self) -> Option<&Obs> {
        self.final_obs.as_ref()
    }

    /// Rewards, terminations, truncations and the results of the deals
    /// the last step finished.
    pub fn outcome(&self) -> &OutcomeArrays {
        &self.outcome
    }

    pub fn legal(&self) -> &LegalArrays {
        &self.legal
    }

    /// The dense mask, `num_envs` rows of every id (`Options::mask`).
    pub fn mask(&self) -> &[bool] {
        &self.mask
    }

    /// Env `i`'s deal as `seat` sees it now (any seat, not only the one
    /// to act), as a one-env observation; None for no such env or seat.
    pub fn view(&self, i: usize, seat: usize) -> Option<Obs> {
        let env = self.envs.get(i)?;
        if seat >= self.dims.players {
            return None;
        }
        let dims = Dims {
            envs: 1,
            ..self.dims
        };
        let mut out = Obs::new(&dims);
        let mut rows = out.rows(&dims);
        let mut scratch = Vec::new();
        obs::write(
            &mut rows[0],
            &env.table,
            seat,
            &env.log,
            &self.roles,
            &mut scratch,
        );
        drop(rows);
        Some(out)
    }

    /// Env `i`'s table (its current deal).
    pub fn table(&self, i: usize) -> &Table {
        &self.envs[i].table
    }

    /// What env `i` waits for.
    pub fn wait(&self, i: usize) -> Wait {
        self.envs[i].wait
    }

    /// The results of the envs' one deal each (`Dealing::Once`), in env
    /// order; None for an env whose deal is not over.
    pub fn outcomes(&self) -> Vec<Option<Outcome>> {
        self.envs.iter().map(|e| e.finished.clone()).collect()
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
    own: &mut LegalArrays,
    given: Option<LegalRows<'_>>,
    envs: &[Env],
    counts: &[usize],
    parallel: bool,
    ids: bool,
) -> usize {
    let total: usize = counts.iter().sum();
    let rows = match given {
        Some(rows) => rows,
        None => own.sized(envs.len(), total, ids),
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

/// The legal actions' rows (not the offsets) into `legal`, which has room;
/// an env that waits for no learner (its deal done) has none.
fn fill_legal(legal: LegalRows<'_>, envs: &[Env], counts: &[usize], parallel: bool) {
    use crate::cards::SLOTS;
    // One piece of each array per block of envs, as the steps ran.
    let per_block: Vec<usize> = counts.chunks(MIN_ENVS).map(|c| c.iter().sum()).collect();
    let cards = split(legal.cards, &per_block, SLOTS);
    let represents = split(legal.represents, &per_block, SLOTS);
    let kind = split(legal.kind, &per_block, 1);
    let rank = split(legal.rank, &per_block, 1);
    let length = split(legal.length, &per_block, 1);
    let ids: Vec<Option<&mut [i32]>> = match legal.ids {
        Some(ids) => split(ids, &per_block, 1).into_iter().map(Some).collect(),
        None => per_block.iter().map(|_| None).collect(),
    };
    let pieces = cards
        .into_iter()
        .zip(represents)
        .zip(kind)
        .zip(rank)
        .zip(length)
        .zip(ids)
        .map(|(((((c, p), k), r), l), i)| LegalRows {
            offsets: &mut [],
            cards: c,
            represents: p,
            kind: k,
            rank: r,
            length: l,
            ids: i,
        });
    // (An env with no legal action, its one deal done, has no rows.)
    let fill = |((envs, counts), rows): ((&[Env], &[usize]), LegalRows<'_>)| {
        let live = envs.iter().zip(counts).filter(|(_, &c)| c > 0);
        fill_rows(rows, live.map(|(e, _)| e));
    };
    if parallel {
        envs.par_chunks(MIN_ENVS)
            .zip(counts.par_chunks(MIN_ENVS))
            .zip(pieces.collect::<Vec<_>>())
            .for_each(fill);
    } else {
        envs.chunks(MIN_ENVS)
            .zip(counts.chunks(MIN_ENVS))
            .zip(pieces)
            .for_each(fill);
    }
}

/// The legal rows of `envs`, one after another, into `rows` (which has
/// room): in `legal_unordered`'s order, which is `Game`'s once the env
/// waits (the plays in hint order, then the words).
fn fill_rows<'e>(rows: LegalRows<'_>, envs: impl Iterator<Item = &'e Env>) {
    use crate::cards::SLOTS;
    // Each action's five row pieces, walked together (no index per
    // element, so no bounds check per element).
    let mut out = rows.cards.as_chunks_mut::<SLOTS>().0.iter_mut().zip(
        rows.represents.as_chunks_mut::<SLOTS>().0.iter_mut().zip(
            rows.kind
                .iter_mut()
                .zip(rows.rank.iter_mut().zip(rows.length.iter_mut())),
        ),
    );
    let mut ids = rows.ids.map(|i| i.iter_mut());
    for env in envs {
        let legal = env.table.legal_unordered();
        for (m, (c, (p, (k, (r, l))))) in legal.plays.iter().zip(out.by_ref()) {
            (*c, *p) = (m.cards.0, m.represents.0);
            (*k, *r, *l) = kinds::describe_play(m);
        }
        for (word, (c, (p, (k, (r, l))))) in legal.words.iter().zip(out.by_ref()) {
            (*c, *p) = ([0; SLOTS], [0; SLOTS]);
            (*k, *r, *l) = kinds::describe(word);
        }
        if let Some(ids) = ids.as_mut() {
            for (&id, out) in env.ids.iter().zip(ids.by_ref()) {
                *out = id as i32;
            }
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod seating_tests;
