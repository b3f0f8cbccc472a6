//! One env of a batch: a table, what it has seen of the play, and the
//! stepping of its deal from one decision a caller takes to the next.
//!
//! After the learner's action (or an external player's) the env plays on
//! by itself: built-in policies' turns, the scripted opening, the end of
//! a deal (settled into the outcome row, then the next deal dealt), a cut
//! (truncation), until a seat the caller plays is to act.

use super::obs::{self, ObsRow, PlayLog};
use super::players::{Limits, Player, Seating};
use super::roles::RoleColumns;
use super::{OutcomeRow, Reward, RewardFor};
use crate::simulate::seats::{scripted, Generators};
use crate::simulate::{Opening, Outcome, Seats};
use crate::table::{Action, ActionTable, Phase, Rng, RoleValue, Settlement, Table};

/// Deals over at once skipped in a row before the env gives up and stays
/// over (only a rule set whose every deal ends at the deal could get there).
const MAX_SKIPPED: usize = 1000;

/// How an env's deals follow each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dealing {
    /// Game after game of the env's own series; a deal over as soon as it
    /// is dealt (an auto-win) is skipped, and so is a deal that ends
    /// before any learner seat acts.
    Series,
    /// One deal, played to its end, then the env is done (`ddz.evaluate`).
    Once,
}

/// What an env waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    Learner,
    External(u8),
    /// Its one deal is over (`Dealing::Once`).
    Done,
}

/// What every env of a batch reads while stepping.
pub(super) struct Ctx<'a> {
    pub seating: &'a Seating,
    pub seats: &'a Seats,
    pub limits: Limits,
    pub reward: Reward,
    pub reward_for: RewardFor,
    pub dealing: Dealing,
    pub roles: &'a RoleColumns,
    pub ids: Option<&'a ActionTable>,
}

#[derive(Clone)]
pub(super) struct Env {
    pub table: Table,
    /// The env's series and the game of it being played.
    pub seed: u64,
    pub episode: u64,
    /// Decisions of the deal so far, every seat's (redeals included).
    pub decisions: i32,
    /// The learner's decisions in the deal (`Limits::max_decisions`).
    pub learner_decisions: u32,
    /// Plays and passes, and bombs, of the deal (`Dealing::Once`'s outcome).
    pub turns: u32,
    pub bombs: u32,
    pub log: PlayLog,
    pub scratch: Vec<RoleValue>,
    /// Each seat's generator for the built-in policies, this deal's.
    pub rngs: Generators,
    pub wait: Wait,
    /// The learner seat whose action the step took.
    pub acting: usize,
    /// Does an end of deal go into the outcome row (a step's), or is it
    /// a deal nobody asked about (dealt by a reset and ended before any
    /// learner seat acted)?
    pub reporting: bool,
    /// The env's outcome row holds a result (this step or the last ended
    /// a deal): the next step clears it first. Else it is clear already,
    /// and is left so (the rows persist from step to step).
    pub settled: bool,
    /// The ids of the legal actions of the moment (with an action table).
    pub ids: Vec<u32>,
    /// The ids set in the env's row of the mask.
    pub masked: Vec<u32>,
    /// The observation row is to be written (the env waited for an
    /// external player during the step's first pass).
    pub obs_pending: bool,
    /// The result of the env's one deal (`Dealing::Once`).
    pub finished: Option<Outcome>,
    /// The play as DouZero's features read it (`Options::douzero`).
    pub dz: Option<super::douzero::Log>,
}

impl Env {
    pub fn new(table: Table, seed: u64, history: usize) -> Env {
        let players = table.rules().players as usize;
        Env {
            table,
            seed,
            episode: 0,
            decisions: 0,
            learner_decisions: 0,
            turns: 0,
            bombs: 0,
            log: PlayLog::new(players, history),
            scratch: Vec::new(),
            rngs: Seats::All(crate::policy::Policy::Random).generators(seed, 0, players),
            wait: Wait::Learner,
            acting: 0,
            reporting: false,
            settled: false,
            ids: Vec::new(),
            masked: Vec::new(),
            obs_pending: false,
            finished: None,
            dz: None,
        }
    }

    /// Deal game `episode` of the series `seed` (as `Table::seeded` would),
    /// on the same table to keep its buffers. In a series, a deal over as
    /// soon as it is dealt (an auto-win: nobody decides anything) is
    /// skipped for the next one, so the env always has a seat to act;
    /// `info["episode"]` shows the gap (docs/rl.md).
    fn deal(&mut self, ctx: &Ctx<'_>) {
        for _ in 0..MAX_SKIPPED {
            self.table.restart(Rng::for_game(self.seed, self.episode));
            if ctx.dealing == Dealing::Once || !self.table.is_over() {
                break;
            }
            self.episode += 1;
        }
        self.decisions = 0;
        self.learner_decisions = 0;
        self.turns = 0;
        self.bombs = 0;
        self.log.clear();
        if let Some(dz) = self.dz.as_mut() {
            dz.clear();
        }
        let players = self.table.rules().players as usize;
        self.rngs = ctx.seats.generators(self.seed, self.episode, players);
    }

    /// Deal afresh (a reset), and play up to the first decision a caller
    /// takes. Nothing is reported.
    pub fn restart(&mut self, ctx: &Ctx<'_>, out: &mut OutcomeRow<'_>) {
        super::clear(out);
        self.settled = false;
        self.reporting = false;
        self.finished = None;
        self.deal(ctx);
        self.advance(ctx, out, None);
    }

    /// Take the learner's legal action `i` (an index into the moment's
    /// list), then play on.
    pub fn step(
        &mut self,
        i: usize,
        ctx: &Ctx<'_>,
        out: &mut OutcomeRow<'_>,
        fin: Option<&mut ObsRow<'_>>,
    ) {
        if self.settled {
            super::clear(out);
            self.settled = false;
        }
        self.reporting = true;
        self.acting = self.table.to_act();
        self.take(i);
        self.learner_decisions += 1;
        self.advance(ctx, out, fin);
    }

    /// Take an external player's legal action `i`, then play on.
    pub fn answer(
        &mut self,
        i: usize,
        ctx: &Ctx<'_>,
        out: &mut OutcomeRow<'_>,
        fin: Option<&mut ObsRow<'_>>,
    ) {
        self.take(i);
        self.advance(ctx, out, fin);
    }

    /// Take legal action `i` of the moment, keeping the play log.
    #[inline]
    fn take(&mut self, i: usize) {
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
            self.turns += 1;
            if let Action::Play(m) = &action {
                self.bombs += u32::from(m.kind.is_bomb());
            }
            let leading = self.table.core().tricks().leading();
            self.log.record(seat, &action, leading);
            if let Some(dz) = self.dz.as_mut() {
                dz.record(seat, &action);
            }
        }
    }

    /// Play on until a seat the caller plays is to act (or, dealing once,
    /// the deal is over): built-in policies, the scripted opening, the
    /// ends and cuts of deals.
    fn advance(
        &mut self,
        ctx: &Ctx<'_>,
        out: &mut OutcomeRow<'_>,
        mut fin: Option<&mut ObsRow<'_>>,
    ) {
        loop {
            if self.table.is_over() {
                if self.settle(ctx, out, fin.as_deref_mut()) {
                    return;
                }
                continue;
            }
            if self.cut_due(ctx) {
                if self.cut(ctx, out, fin.as_deref_mut()) {
                    return;
                }
                continue;
            }
            let seat = self.table.to_act();
            let scripted_opening = ctx.seating.opening == Opening::SeatZeroLandlord;
            if scripted_opening && self.table.phase() != Phase::Play {
                let i = scripted(&self.table);
                self.take(i);
                continue;
            }
            match ctx.seating.players[seat] {
                Player::Policy(p) => {
                    let i = p.choose(&mut self.table, self.rngs.of(seat));
                    self.take(i);
                }
                Player::Learner => return self.wait_for(Wait::Learner, ctx),
                Player::External(k) => return self.wait_for(Wait::External(k), ctx),
            }
        }
    }

    /// Stop at a decision a caller takes: its legal actions in `Game`'s
    /// order, and their ids.
    fn wait_for(&mut self, wait: Wait, ctx: &Ctx<'_>) {
        self.wait = wait;
        self.table.order_legal();
        if let Some(table) = ctx.ids {
            self.ids.clear();
            let legal = self.table.legal_unordered();
            let id = |a: Action| {
                table
                    .id(&a)
                    .unwrap_or_else(|| panic!("{a} has no action id"))
            };
            self.ids.extend(legal.iter().map(id));
        }
    }

    /// Is the deal to be cut before its next decision?
    fn cut_due(&self, ctx: &Ctx<'_>) -> bool {
        let Limits {
            max_redeals,
            max_decisions,
        } = ctx.limits;
        let redealt = max_redeals.is_some_and(|m| self.table.redeals() > m);
        let learner = || ctx.seating.players[self.table.to_act()] == Player::Learner;
        redealt || (max_decisions.is_some_and(|m| self.learner_decisions >= m) && learner())
    }

    /// The deal is over: its result into the outcome row (the first end of
    /// a step only), then the next deal. Returns true when the env stops
    /// here (dealing once; or no deal of the series could be played).
    fn settle(
        &mut self,
        ctx: &Ctx<'_>,
        out: &mut OutcomeRow<'_>,
        fin: Option<&mut ObsRow<'_>>,
    ) -> bool {
        let result = self.table.result().expect("the deal is over");
        if ctx.dealing == Dealing::Once {
            self.finished = Some(Outcome {
                report: self.table.report(),
                turns: self.turns,
                bombs: self.bombs,
                multiplier: result.multiplier,
                scores: result.scores.clone(),
                record: None,
            });
            self.wait = Wait::Done;
            return true;
        }
        if self.reporting && !self.settled {
            self.settled = true;
            out.terminated[0] = true;
            out.scores.copy_from_slice(&result.scores);
            for &w in &result.winners {
                out.winners[w] = true;
            }
            match ctx.reward_for {
                RewardFor::Seat => {
                    for (s, r) in out.reward.iter_mut().enumerate() {
                        *r = seat_reward(ctx.reward, result, s, self.bombs);
                    }
                }
                RewardFor::Acting => {
                    out.reward[0] = seat_reward(ctx.reward, result, self.acting, self.bombs)
                }
            }
            out.final_multiplier[0] = result.multiplier;
            out.length[0] = self.decisions;
            out.episode[0] = self.episode as i64;
            out.landlord[0] = self.table.report().landlord() as i8;
            out.bombs[0] = self.bombs as i32;
            self.write_final(ctx, fin);
        }
        self.next_deal(ctx)
    }

    /// Cut the deal (a limit is reached): `truncated` in the outcome row,
    /// then the next deal.
    fn cut(
        &mut self,
        ctx: &Ctx<'_>,
        out: &mut OutcomeRow<'_>,
        fin: Option<&mut ObsRow<'_>>,
    ) -> bool {
        if ctx.dealing == Dealing::Once {
            self.wait = Wait::Done;
            return true;
        }
        if self.reporting && !self.settled {
            self.settled = true;
            out.truncated[0] = true;
            out.length[0] = self.decisions;
            out.episode[0] = self.episode as i64;
            self.write_final(ctx, fin);
        }
        self.next_deal(ctx)
    }

    /// The acting seat's view of the deal as it ended or was cut.
    fn write_final(&mut self, ctx: &Ctx<'_>, fin: Option<&mut ObsRow<'_>>) {
        if let Some(row) = fin {
            let (table, log) = (&self.table, &self.log);
            obs::write(row, table, self.acting, log, ctx.roles, &mut self.scratch);
        }
    }

    /// Deal the series' next game. True if even that one cannot be
    /// played (the env stays over, with no legal action).
    fn next_deal(&mut self, ctx: &Ctx<'_>) -> bool {
        self.episode += 1;
        self.deal(ctx);
        if self.table.is_over() {
            self.wait = Wait::Learner;
            self.ids.clear();
            return true;
        }
        false
    }
}

/// What a finished deal pays `seat` (`Reward`): its score; ±1 as its side
/// won or lost; that ±1 split among the side's seats (a deal sums to 0);
/// or ±2^bombs as its side won or lost.
fn seat_reward(reward: Reward, result: &Settlement, seat: usize, bombs: u32) -> f32 {
    let sign = || {
        let (won, n) = (result.winners.len(), result.scores.len());
        match (won, result.winners.contains(&seat)) {
            (0, _) => 0.0,
            _ if won == n => 0.0,
            (_, true) => 1.0,
            (_, false) => -1.0,
        }
    };
    match reward {
        Reward::Score => result.scores[seat] as f32,
        Reward::WinLoss => sign(),
        // 2^bombs, capped where f32 stays exact (no deal plays 64 bombs).
        Reward::Adp => sign() * (2f32).powi(bombs.min(63) as i32),
        Reward::WinSplit => {
            let won = result.winners.len();
            let lost = result.scores.len() - won;
            match (result.winners.contains(&seat), won, lost) {
                (_, 0, _) | (_, _, 0) => 0.0,
                (true, w, _) => 1.0 / w as f32,
                (false, _, l) => -1.0 / l as f32,
            }
        }
    }
}
