//! Root splitting: each thread takes the next untried root action until one
//! wins. The solver itself is the first worker, on the calling thread; the
//! helpers run on a pool kept for them (`batch::scope_on`), whose threads
//! stay, so each keeps its buffers from one solve to the next (see
//! `reuse`). They all use the solver's table, without a lock (`table` says
//! how), and each has memos of its own (the memos' share of the bound
//! split between them).
//!
//! The helpers join only if the solve is still running after
//! `Options::helpers_after` (10 ms by default: about where a second thread
//! on the root actions starts to shorten a solve, docs/solver.md), so a
//! quick solve costs one core and asking for every core is a safe default.
//! Only one pool thread waits for that moment; it starts the others.

use super::search::{Solver, State};
use crate::play::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

/// What the root search found: the verdict, the winning actions, the
/// positions, and the memory the helpers' memos held.
pub(super) type RootResult = (Option<bool>, Vec<Option<Move>>, u64, usize);

/// Verdicts by root action index.
type Found = Vec<(usize, Option<bool>)>;

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

/// Take root actions from `next` until none are left, one wins (unless
/// `all`), or the budget runs out.
fn take_actions(
    solver: &mut Solver<'_>,
    actions: &[(Option<Move>, State)],
    me: u8,
    next: &AtomicUsize,
    stop: &AtomicBool,
) -> Found {
    let all = solver.options().all;
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
    found
}

pub(super) fn root(solver: &mut Solver<'_>, root: &State, clock: Instant) -> RootResult {
    let actions = solver.actions(root);
    let threads = solver.options().threads.clamp(1, actions.len().max(1));
    let mut options = solver.options().clone();
    options.threads = 1;
    options.max_memory /= threads;
    // The node budget is one pool every worker draws on.
    let budget = options
        .max_nodes
        .take()
        .map(|n| Arc::new(AtomicU64::new(n)));
    let engine = solver.engine();
    let me = root.to_move;
    let (next, gate) = (AtomicUsize::new(0), Gate::default());
    let stop = Arc::new(AtomicBool::new(false));
    let table = solver.share(Arc::clone(&stop));
    if let Some(b) = &budget {
        solver.draw_nodes_from(Arc::clone(b));
    }
    let helpers_from = clock + options.helpers_after;
    let results = Mutex::new(Vec::new());
    let help = |worker: usize| {
        let stop = Arc::clone(&stop);
        let mut helper = Solver::helper(
            engine,
            options.clone(),
            Arc::clone(&table),
            worker,
            stop.clone(),
        );
        helper.start_budget(clock);
        if let Some(b) = &budget {
            helper.draw_nodes_from(Arc::clone(b));
        }
        let found = take_actions(&mut helper, &actions, me, &next, &stop);
        let mut r = results.lock().unwrap_or_else(|e| e.into_inner());
        r.push((found, helper.nodes(), helper.worker_memory()));
    };
    let (help, gate_ref) = (&help, &gate);
    let mut found = crate::batch::scope_on(threads - 1, |scope| {
        // One job waits; only a solve still running wakes the other helpers.
        if threads > 1 {
            scope.spawn(move |scope| {
                if gate_ref.still_running_at(helpers_from) {
                    for worker in 2..threads {
                        scope.spawn(move |_| help(worker));
                    }
                    help(1);
                }
            });
        }
        let found = take_actions(solver, &actions, me, &next, &stop);
        gate.close();
        found
    });
    solver.done_sharing();
    let mut nodes = solver.nodes();
    let mut memory = 0;
    for (f, n, m) in results.into_inner().unwrap_or_else(|e| e.into_inner()) {
        found.extend(f);
        nodes += n;
        memory += m;
    }
    found.sort_unstable_by_key(|&(i, _)| i);
    let wins: Vec<Option<Move>> = found
        .iter()
        .filter(|(_, v)| *v == Some(true))
        .map(|&(i, _)| actions[i].0)
        .collect();
    let decided = found.len() == actions.len() && found.iter().all(|(_, v)| v.is_some());
    let win = if !wins.is_empty() {
        Some(true)
    } else if decided {
        Some(false)
    } else {
        None
    };
    (win, wins, nodes, memory)
}
