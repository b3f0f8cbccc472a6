//! Root splitting: each thread takes the next untried root action until one
//! wins. The threads share the solver's table behind a lock (each entry is
//! an exact verdict, so what one thread proves, the other reuses) and keep
//! their own fewest-plays memos (the memo's share of the bound split out).

use super::search::{Solver, State};
use super::{Position, SolveError};
use crate::play::Move;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// What the root search found: the verdict, the winning actions, the positions.
pub(super) type RootResult = (Option<bool>, Vec<Option<Move>>, u64);

/// One worker's verdicts (root action index, verdict) and its positions.
type WorkerResult = (Vec<(usize, Option<bool>)>, u64);

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
    options.max_nodes = options.max_nodes.map(|n| n / threads as u64);
    let all = options.all;
    let engine = solver.engine();
    let me = root.to_move;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let table = Mutex::new(solver.take_table());
    let outcomes: Vec<WorkerResult> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let (options, actions, next, stop) = (options.clone(), &actions, &next, &stop);
                let table = &table;
                scope.spawn(move || {
                    let mut worker = Solver::new(engine, options);
                    worker.set_stop(stop);
                    worker.share_table(table);
                    worker.start_budget(clock);
                    let mut found = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= actions.len() || stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let v = worker.value_of(me, &actions[i].1);
                        found.push((i, v));
                        if v.is_none() || (v == Some(true) && !all) {
                            // Out of budget, or a win that answers the question.
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                    (found, worker.nodes())
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_default())
            .collect()
    });
    solver.put_table(table.into_inner().unwrap_or_else(|e| e.into_inner()));
    let nodes = outcomes.iter().map(|(_, n)| n).sum();
    let mut results: Vec<(usize, Option<bool>)> =
        outcomes.into_iter().flat_map(|(r, _)| r).collect();
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
    Ok((win, wins, nodes))
}
