//! Root splitting: each thread takes the next untried root action until one
//! wins. The threads share the solver's table without a lock (each entry is
//! an exact verdict, so what one thread proves, the other reuses; `table`
//! says how) and keep their own fewest-plays memos (the memos' share of the
//! bound split between them). They run on a pool kept for that many
//! threads (`batch::run_on`), whose threads stay, so each keeps its buffers
//! from one solve to the next (see `reuse`).
//!
//! The first worker starts at once; the others join only if the solve is
//! still running after `Options::helpers_after` (10 ms by default: about
//! where a second thread on the root actions starts to shorten a solve,
//! docs/solver.md), so a quick solve costs one core and asking for every
//! core is a safe default.

use super::search::{Solver, State};
use super::{Position, SolveError};
use crate::play::Move;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Instant;

/// What the root search found: the verdict, the winning actions, the positions.
pub(super) type RootResult = (Option<bool>, Vec<Option<Move>>, u64, usize);

/// One worker's verdicts (root action index, verdict), positions and memory.
type WorkerResult = (Vec<(usize, Option<bool>)>, u64, usize);

/// Set when the first worker is done, so helpers still waiting stay out.
#[derive(Default)]
struct Gate {
    done: Mutex<bool>,
    bell: Condvar,
}

impl Gate {
    /// Wait until `until`; true if the solve is still running then.
    fn still_running_at(&self, until: Instant) -> bool {
        let mut done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        while !*done {
            let now = Instant::now();
            if now >= until {
                return true;
            }
            done = match self.bell.wait_timeout(done, until - now) {
                Ok((d, _)) => d,
                Err(e) => e.into_inner().0,
            };
        }
        false
    }

    fn close(&self) {
        *self.done.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.bell.notify_all();
    }
}

pub(super) fn root(
    solver: &mut Solver<'_>,
    _pos: &Position,
    root: &State,
    clock: Instant,
) -> Result<RootResult, SolveError> {
    let actions = solver.actions(root);
    let threads = solver.options().threads.clamp(1, actions.len().max(1));
    let mut options = solver.options().clone();
    options.threads = 1;
    options.max_memory /= threads;
    // The node budget is one pool the workers draw on.
    let budget = options.max_nodes.take().map(AtomicU64::new);
    let all = options.all;
    let engine = solver.engine();
    let me = root.to_move;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let gate = Gate::default();
    let helpers_from = clock + options.helpers_after;
    let table = solver.table();
    let work = |worker: usize| -> WorkerResult {
        if worker > 0 && !gate.still_running_at(helpers_from) {
            return (Vec::new(), 0, 0);
        }
        let mut solver = Solver::sharing(engine, options.clone(), table, worker);
        solver.set_stop(&stop);
        solver.start_budget(clock);
        if let Some(b) = &budget {
            solver.draw_nodes_from(b);
        }
        let mut found = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= actions.len() || stop.load(Ordering::Relaxed) {
                break;
            }
            let v = solver.value_of(me, &actions[i].1);
            found.push((i, v));
            if v.is_none() || (v == Some(true) && !all) {
                // Out of budget, or a win that answers the question.
                stop.store(true, Ordering::Relaxed);
                break;
            }
        }
        if worker == 0 {
            gate.close();
        }
        (found, solver.nodes(), solver.worker_memory())
    };
    // One job a worker (with_max_len), so idle pool threads take them at once.
    let outcomes: Vec<WorkerResult> = crate::batch::run_on(threads, || {
        (0..threads)
            .into_par_iter()
            .with_max_len(1)
            .map(work)
            .collect()
    });
    let nodes = outcomes.iter().map(|r| r.1).sum();
    let memory = outcomes.iter().map(|r| r.2).sum();
    let mut results: Vec<(usize, Option<bool>)> = outcomes.into_iter().flat_map(|r| r.0).collect();
    results.sort_unstable_by_key(|&(i, _)| i);
    let wins: Vec<Option<Move>> = results
        .iter()
        .filter(|(_, v)| *v == Some(true))
        .map(|&(i, _)| actions[i].0)
        .collect();
    let decided = results.len() == actions.len() && results.iter().all(|(_, v)| v.is_some());
    let win = if !wins.is_empty() {
        Some(true)
    } else if decided {
        Some(false)
    } else {
        None
    };
    Ok((win, wins, nodes, memory))
}
