//! The root search: the root's actions in order until one wins (or, with
//! `all`, every one). On several threads the actions are shared out: each
//! thread takes the next untried one. The threads use the solver's table,
//! without a lock (`table` says how), and each has memos of its own (the
//! memos' share of the bound split between them).
//!
//! The solver first searches alone, exactly as on one thread, for
//! `Options::helpers_after` (10 ms by default: about where a second thread
//! on the root actions starts to shorten a solve, docs/solver.md). A solve
//! done by then costs one core and starts no thread, so asking for every
//! core is a safe default. Otherwise the search pauses (what it proved so
//! far is in the table, so taking up the same root action again costs
//! little), helper threads start for this solve alone, and all of them
//! take the remaining root actions. Threads of the solve's own, rather than
//! a shared pool, so that one long solve never holds up another.

use super::search::{Solver, State};
use super::ShareReplies;
use crate::play::Move;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the root search found: the verdict, the winning actions, the
/// positions, and the memory the helpers' memos held.
pub(super) type RootResult = (Option<bool>, Vec<Option<Move>>, u64, usize);

/// Verdicts by root action index.
type Found = Vec<(usize, Option<bool>)>;

/// Does `v`, found for one root action, settle the root?
fn settles(v: Option<bool>, all: bool) -> bool {
    v.is_none() || (v == Some(true) && !all)
}

/// Take root actions from `next` until none are left or one at or before
/// them has settled the root (see `settles`). `cut` is the lowest action
/// that settled it so far: the actions before it are still searched to
/// the end, so the winning play reported without `all` is the first in
/// search order, as on one thread, and the same whatever the timing.
fn take_actions(
    solver: &mut Solver<'_>,
    actions: &[(Option<Move>, State)],
    me: u8,
    next: &AtomicUsize,
    cut: &AtomicUsize,
) -> Found {
    let all = solver.options().all;
    let mut found = Vec::new();
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= actions.len() || i > cut.load(Ordering::Relaxed) {
            break;
        }
        let v = solver.value_of_root_action(me, i, &actions[i].1);
        if v.is_none() && cut.load(Ordering::Relaxed) < i {
            break; // stopped: an earlier action settled the root
        }
        found.push((i, v));
        if settles(v, all) {
            // Out of budget stops every action; a win, those after it.
            cut.fetch_min(if v.is_none() { 0 } else { i }, Ordering::Relaxed);
            break;
        }
    }
    found
}

pub(super) fn search(solver: &mut Solver<'_>, root: &State, clock: Instant) -> RootResult {
    let actions = solver.actions(root);
    let threads = solver.options().threads.clamp(1, actions.len().max(1));
    let (all, me) = (solver.options().all, root.to_move);
    let after = solver.options().helpers_after;
    // Alone first, until the pause, or (sharing the replies) until
    // `share_replies_after`.
    let mut found = Vec::new();
    let mut from = 0;
    // The positions and memo bytes of the replies phase's helpers.
    let (mut early_nodes, mut early_memory) = (0, 0);
    let options = solver.options();
    let share = threads > 1
        && after > Duration::ZERO
        && options.max_nodes.is_none()
        && options.share_replies != ShareReplies::Never
        && options.share_replies_after < after;
    let alone = if share {
        options.share_replies_after
    } else {
        after
    };
    // Searches root actions from `from` on alone, until `until` (None: to
    // the end); the root's result if one of them settles it.
    let alone_until = |solver: &mut Solver<'_>,
                       until: Option<Instant>,
                       from: &mut usize,
                       found: &mut Found|
     -> Option<RootResult> {
        solver.pause_at(until);
        while *from < actions.len() {
            let v = solver.value_of(me, &actions[*from].1);
            if solver.resume_if_paused() {
                break; // action `from` is taken up again after the pause
            }
            found.push((*from, v));
            *from += 1;
            if settles(v, all) {
                return Some(finish(&actions, found.clone(), all, solver.nodes(), 0));
            }
        }
        solver.pause_at(None);
        None
    };
    if (after > Duration::ZERO || threads == 1) && !(share && alone == Duration::ZERO) {
        let until = (threads > 1).then(|| clock + alone);
        if let Some(r) = alone_until(solver, until, &mut from, &mut found) {
            return r;
        }
    }
    let policy = solver.options().share_replies;
    if share && from < actions.len() {
        // No core free: alone on, looking again once the search has run
        // alone as long again (so a task that held a core for a moment does
        // not keep the helper out of the whole solve), up to the pause.
        let mut free = super::replies::worth_sharing(policy, threads);
        while !free && from < actions.len() && Instant::now() < clock + after {
            let wait = clock.elapsed().max(alone).max(Duration::from_micros(100));
            let until = (Instant::now() + wait).min(clock + after);
            if let Some(r) = alone_until(solver, Some(until), &mut from, &mut found) {
                return r;
            }
            free = super::replies::worth_sharing(policy, threads);
        }
        if free && from < actions.len() && Instant::now() < clock + after {
            // Until the pause, each root action's replies are shared out.
            solver.pause_at(Some(clock + after));
            let phase = super::replies::search(solver, &actions, from, me, threads, clock, |v| {
                settles(v, all)
            });
            found.extend(phase.found);
            from = phase.from;
            (early_nodes, early_memory) = (phase.nodes, phase.memory);
            if phase.settled || from == actions.len() {
                let nodes = solver.nodes() + early_nodes;
                return finish(&actions, found, all, nodes, early_memory);
            }
            solver.resume_if_paused();
            solver.pause_at(None);
        }
    }
    // The root split's helpers, too, only while a core is free for each
    // (`helpers_when_idle`): on a busy machine two threads were slower than
    // one, long solves too (docs/solver.md). Alone on meanwhile, looking
    // again after `helpers_after`, then at growing intervals.
    if solver.options().helpers_when_idle && threads > 1 && after > Duration::ZERO {
        // One free core is enough to start: the helpers take what they can.
        // Each look pauses the search (the action is taken up again), so the
        // looks grow twice as far apart each time, up to a second.
        let mut wait = after;
        while from < actions.len() && !super::replies::worth_sharing(ShareReplies::WhenIdle, 2) {
            let until = Some(Instant::now() + wait);
            wait = (wait * 2).min(Duration::from_secs(1)).max(after);
            if let Some(mut r) = alone_until(solver, until, &mut from, &mut found) {
                (r.2, r.3) = (r.2 + early_nodes, r.3 + early_memory);
                return r;
            }
        }
    }
    if from == actions.len() {
        return finish(
            &actions,
            found,
            all,
            solver.nodes() + early_nodes,
            early_memory,
        );
    }
    // With helpers: the rest of the node budget is one pool they all draw on.
    let mut options = solver.options().clone();
    options.threads = 1;
    options.max_memory /= threads;
    let budget = options
        .max_nodes
        .take()
        .map(|n| Arc::new(AtomicU64::new(n.saturating_sub(solver.nodes()))));
    let engine = solver.engine();
    let next = AtomicUsize::new(from);
    let cut = Arc::new(AtomicUsize::new(usize::MAX));
    let table = solver.share(Arc::clone(&cut));
    if let Some(b) = &budget {
        solver.draw_nodes_from(Arc::clone(b));
    }
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for worker in 1..threads {
            let (options, table, cut) = (options.clone(), Arc::clone(&table), Arc::clone(&cut));
            let (budget, actions, next, results) = (&budget, &actions, &next, &results);
            scope.spawn(move || {
                let mut helper = Solver::helper(engine, options, table, worker, Arc::clone(&cut));
                helper.start_budget(clock);
                if let Some(b) = budget {
                    helper.draw_nodes_from(Arc::clone(b));
                }
                let found = take_actions(&mut helper, actions, me, next, &cut);
                let mut r = results.lock().unwrap_or_else(|e| e.into_inner());
                r.push((found, helper.nodes(), helper.memo_bytes()));
            });
        }
        found.extend(take_actions(solver, &actions, me, &next, &cut));
    });
    solver.done_sharing();
    let (mut nodes, mut memory) = (solver.nodes() + early_nodes, early_memory);
    for (f, n, m) in results.into_inner().unwrap_or_else(|e| e.into_inner()) {
        found.extend(f);
        nodes += n;
        memory += m;
    }
    finish(&actions, found, all, nodes, memory)
}

/// The root's verdict from the verdicts of its actions (without `all`,
/// threads may have proved more than one win: the first in order counts).
fn finish(
    actions: &[(Option<Move>, State)],
    mut found: Found,
    all: bool,
    nodes: u64,
    memory: usize,
) -> RootResult {
    found.sort_unstable_by_key(|&(i, _)| i);
    let mut wins: Vec<Option<Move>> = found
        .iter()
        .filter(|(_, v)| *v == Some(true))
        .map(|&(i, _)| actions[i].0)
        .collect();
    if !all {
        wins.truncate(1);
    }
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

#[cfg(test)]
mod tests {
    use crate::solve::{Options, Position, ShareReplies, Solver};
    use crate::{Engine, Rules};
    use std::time::{Duration, Instant};

    /// The 13-v-12 puzzle of docs/solver.md, the leader to move.
    fn puzzle(engine: &Engine) -> Position {
        let hands = vec![
            engine.parse("DAQQJJT999844").unwrap(),
            engine.parse("X22AAT886633").unwrap(),
        ];
        Position::lead(hands, 0)
    }

    /// When the replies phase finds no core free, the solve goes on alone
    /// to `helpers_after`, as without the phase: it does not start the
    /// root split early. (More helpers than cores never find them free.)
    #[test]
    fn no_core_free_keeps_the_solve_alone_until_the_pause() {
        let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
        let pos = puzzle(&engine);
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) + 1;
        for alone in [Duration::ZERO, Duration::from_micros(50)] {
            let options = Options {
                threads,
                helpers_after: Duration::from_secs(3600),
                share_replies_after: alone,
                helpers_when_idle: false,
                ..Options::default()
            };
            let mut solver = Solver::new(&engine, options);
            assert_eq!(solver.solve(&pos).unwrap().win, Some(true));
            assert!(!solver.helpers_ran(), "a helper joined after {alone:?}");
        }
    }

    /// A machine busy at the first look shares the replies at a later one:
    /// a task that held a core for a moment does not keep the helper out.
    #[test]
    fn a_core_freed_later_still_gets_the_replies_shared() {
        let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
        let pos = puzzle(&engine);
        let want = Solver::new(&engine, Options::default())
            .solve(&pos)
            .unwrap();
        let options = Options {
            threads: 2,
            helpers_after: Duration::from_secs(3600),
            share_replies: ShareReplies::Always,
            share_replies_after: Duration::from_micros(100),
            helpers_when_idle: false,
            ..Options::default()
        };
        // The second look comes once the solve has run alone as long again:
        // a solve kept off its core that long could end before it, so a
        // helper must join in one of three.
        let joined = (0..3).any(|_| {
            crate::solve::replies::BUSY_LOOKS.with(|b| b.set(1));
            let mut solver = Solver::new(&engine, options.clone());
            let got = solver.solve(&pos).unwrap();
            let left = crate::solve::replies::BUSY_LOOKS.with(|b| b.replace(0));
            assert_eq!(left, 0, "the solve looked only once");
            assert_eq!((&got.win, &got.plays), (&want.win, &want.plays));
            solver.helpers_ran()
        });
        assert!(joined, "no helper joined after the second look");
    }

    /// With `helpers_when_idle` and no core free, the root split's helpers
    /// never join: the solve goes on alone,
    /// pausing and looking again from time to time, to the same answer.
    #[test]
    fn no_core_free_keeps_the_root_split_out() {
        let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
        let pos = puzzle(&engine);
        let mut one = Solver::new(&engine, Options::default());
        let want = one.solve(&pos).unwrap();
        let options = Options {
            threads: 2,
            helpers_after: Duration::from_micros(200),
            ..Options::default()
        };
        let mut solver = Solver::new(&engine, options);
        crate::solve::replies::PRETEND_BUSY.with(|b| b.set(true));
        let got = solver.solve(&pos).unwrap();
        crate::solve::replies::PRETEND_BUSY.with(|b| b.set(false));
        assert_eq!((got.win, got.plays), (want.win, want.plays));
        assert!(!solver.helpers_ran(), "a helper joined");
    }

    /// The helpers join a solve still running at `helpers_after`, also when
    /// the root actions searched before that moment were quick ones.
    #[test]
    fn helpers_join_once_the_pause_comes_after_quick_actions() {
        let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
        // 17 v 17, lost for the leader: its first root action is refuted in
        // some 58,000 positions, the whole in some 47 million.
        let hands = vec![
            engine.parse("33455669TTTJQQKA2").unwrap(),
            engine.parse("34456677889JKAA2D").unwrap(),
        ];
        let pos = Position::lead(hands, 0);
        let first = {
            let mut alone = Solver::new(&engine, Options::default());
            let root = alone.check(&pos).unwrap();
            let (_, child) = alone.actions(&root).swap_remove(0);
            let clock = Instant::now();
            alone.start_budget(clock);
            assert!(alone.value_of(0, &child).is_some());
            clock.elapsed()
        };
        let options = Options {
            threads: 2,
            max_nodes: Some(700_000),
            helpers_after: first * 3 + Duration::from_millis(1),
            helpers_when_idle: false,
            ..Options::default()
        };
        let mut solver = Solver::new(&engine, options);
        assert_eq!(solver.solve(&pos).unwrap().win, None);
        assert!(solver.helpers_ran(), "no helper joined");
    }
}
