//! The first milliseconds of a solve on several threads: the root's
//! actions are taken in order, as on one thread, and the replies to each
//! are shared out between the solving thread and helpers. A short solve
//! is mostly one root action (the winning one, whose every reply must be
//! refuted), so sharing its replies puts both cores on it, where a split
//! of the root actions would leave the second core little to do.
//!
//! The helpers are threads of a pool kept for this (so their memos stay
//! mapped between solves, as a solving thread's do); they share the
//! solver's table. A reply that decides the root action (a refutation, or
//! a win where the replier is on the mover's side) stops the others. The
//! verdict of every root action is exact, and the root actions are
//! decided in order, so the winning play is the one a single thread finds.

use super::search::{Solver, State};
use super::{Options, ShareReplies};
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Instant;

/// One root action's replies, shared out.
struct Job {
    /// The positions after each reply.
    replies: Vec<State>,
    /// The root mover's side wins when any reply leads to its win (the
    /// replier is its partner); otherwise only when every reply does.
    any: bool,
    next: AtomicUsize,
    /// A reply decided the action, or a search stopped: take no more.
    closed: AtomicBool,
    /// The decisive verdict for the root mover, once found.
    decided: Mutex<Option<bool>>,
    /// A search ran out of budget or reached the pause.
    stopped: AtomicBool,
    /// Replies searched to a verdict that did not decide, by index.
    done: Vec<AtomicBool>,
    /// Searched as root action `usize::MAX - epoch`: the cut stops it
    /// once it falls below that, and leaves later jobs alone.
    epoch: usize,
}

impl Job {
    fn index(&self) -> usize {
        usize::MAX - self.epoch
    }

    /// Stop every search of this job (and of no later one).
    fn close(&self, cut: &AtomicUsize) {
        self.closed.store(true, Ordering::SeqCst);
        cut.fetch_min(self.index() - 1, Ordering::SeqCst);
    }
}

/// What the solving thread hands the helpers.
struct Board {
    /// The job in hand and its number; None with `quit`.
    job: Mutex<(u64, Option<Arc<Job>>, bool)>,
    changed: Condvar,
    /// The helpers' positions and memo bytes, added as they leave.
    nodes: AtomicU64,
    memory: AtomicUsize,
}

/// The machine's cores, asked once (on Linux it reads cgroup files).
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The helpers' pool: one thread less than the machine has.
fn pool() -> &'static ThreadPool {
    static POOL: OnceLock<ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        let n = cores();
        ThreadPoolBuilder::new()
            .num_threads(n.saturating_sub(1).max(1))
            .thread_name(|i| format!("ddz-solve-{i}"))
            .build()
            .expect("a thread pool for the solver's helpers")
    })
}

/// Search reply `j` of `job`; false once the job is closed.
fn search_reply(solver: &mut Solver<'_>, job: &Job, me: u8, cut: &AtomicUsize, j: usize) -> bool {
    if job.closed.load(Ordering::SeqCst) {
        return false;
    }
    match solver.value_of_root_action(me, job.index(), &job.replies[j]) {
        Some(w) if w == job.any => {
            *job.decided.lock().unwrap_or_else(|e| e.into_inner()) = Some(w);
            job.close(cut);
            false
        }
        Some(_) => {
            job.done[j].store(true, Ordering::SeqCst);
            true
        }
        None => {
            if !job.closed.load(Ordering::SeqCst) {
                // Out of budget, or paused: not a verdict.
                job.stopped.store(true, Ordering::SeqCst);
                job.close(cut);
            }
            solver.clear_stop_unless_paused();
            false
        }
    }
}

/// Search replies of `job` until none is left to take or the job is closed.
fn work(solver: &mut Solver<'_>, job: &Job, me: u8, cut: &AtomicUsize) {
    loop {
        let j = job.next.fetch_add(1, Ordering::Relaxed);
        if j >= job.replies.len() || !search_reply(solver, job, me, cut, j) {
            return;
        }
    }
}

fn helper_loop(solver: &mut Solver<'_>, board: &Board, me: u8, cut: &AtomicUsize) {
    let mut seen = 0;
    loop {
        let job = {
            let mut g = board.job.lock().unwrap_or_else(|e| e.into_inner());
            while g.0 == seen && !g.2 {
                g = board.changed.wait(g).unwrap_or_else(|e| e.into_inner());
            }
            if g.2 {
                return;
            }
            seen = g.0;
            g.1.clone()
        };
        if let Some(job) = job {
            work(solver, &job, me, cut);
        }
    }
}

/// What `search` found: the verdicts of root actions `0..` in order, and
/// the index where it stopped (at the pause, or at the end).
pub(super) struct Phase {
    pub found: Vec<(usize, Option<bool>)>,
    pub from: usize,
    pub settled: bool,
    /// The helpers' positions and memo bytes.
    pub nodes: u64,
    pub memory: usize,
}

/// Is sharing the replies worth waking `threads - 1` helpers now? With
/// `WhenIdle`, only when the machine runs fewer tasks than it has cores
/// (this thread among them), so that each helper finds a core: with every
/// core busy a helper rarely runs, and the solving thread repeats the
/// replies it left (docs/solver.md, "Sharing the replies").
pub(super) fn worth_sharing(policy: ShareReplies, threads: usize) -> bool {
    #[cfg(test)]
    if PRETEND_BUSY.with(|b| b.get()) {
        return policy == ShareReplies::Always;
    }
    match policy {
        ShareReplies::Never => false,
        ShareReplies::Always => true,
        ShareReplies::WhenIdle => match runnable_tasks() {
            // The count is the whole system's (a container sees its host's),
            // so it is weighed against every CPU online, not this process's share.
            Some(running) => threads <= cores() && running + threads - 1 <= online_cpus(),
            None => threads <= cores(),
        },
    }
}

/// The CPUs online in the whole system (Linux: the `cpuN` lines of
/// /proc/stat), asked once; this process's cores elsewhere.
fn online_cpus() -> usize {
    static ONLINE: OnceLock<usize> = OnceLock::new();
    *ONLINE.get_or_init(|| {
        std::fs::read_to_string("/proc/stat")
            .ok()
            .map(|t| {
                t.lines()
                    .filter(|l| {
                        l.strip_prefix("cpu")
                            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
                    })
                    .count()
            })
            .filter(|&n| n > 0)
            .unwrap_or_else(cores)
    })
}

#[cfg(test)]
thread_local! {
    /// Tests on this thread see a machine with no core free.
    pub(super) static PRETEND_BUSY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The tasks running or waiting for a core now, this thread included
/// (Linux: the fourth field of /proc/loadavg, "running/total").
fn runnable_tasks() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let field = text.split_whitespace().nth(3)?;
    field.split('/').next()?.parse().ok()
}

/// The root actions in order from `from`, each one's replies shared with
/// `threads - 1` helpers, until one settles the root, all are done, or the
/// pause comes (the solver's `pause_at` is set by the caller).
pub(super) fn search(
    solver: &mut Solver<'_>,
    actions: &[(Option<crate::play::Move>, State)],
    from: usize,
    me: u8,
    threads: usize,
    clock: Instant,
    settles: impl Fn(Option<bool>) -> bool,
) -> Phase {
    let cut = Arc::new(AtomicUsize::new(usize::MAX));
    let table = solver.share(Arc::clone(&cut));
    let mut options: Options = solver.options().clone();
    options.threads = 1;
    options.max_memory /= threads;
    let engine = solver.engine();
    let board = Board {
        job: Mutex::new((0, None, false)),
        changed: Condvar::new(),
        nodes: AtomicU64::new(0),
        memory: AtomicUsize::new(0),
    };
    let helpers = (threads - 1).min(pool().current_num_threads());
    let mut phase = Phase {
        found: Vec::new(),
        from,
        settled: false,
        nodes: 0,
        memory: 0,
    };
    pool().in_place_scope(|scope| {
        for worker in 1..=helpers {
            let (options, table, cut, board) = (
                options.clone(),
                Arc::clone(&table),
                Arc::clone(&cut),
                &board,
            );
            scope.spawn(move |_| {
                let mut helper = Solver::helper(engine, options, table, worker, Arc::clone(&cut));
                helper.start_budget(clock);
                helper_loop(&mut helper, board, me, &cut);
                board.nodes.fetch_add(helper.nodes(), Ordering::Relaxed);
                board
                    .memory
                    .fetch_add(helper.memo_bytes(), Ordering::Relaxed);
            });
        }
        while phase.from < actions.len() {
            let child = &actions[phase.from].1;
            let replies = solver.replies(me, child);
            let epoch = phase.from + 1;
            let v = match replies {
                None => solver.value_of_root_action(me, usize::MAX - epoch, child),
                Some((replies, any)) => {
                    let done = replies.iter().map(|_| AtomicBool::new(false)).collect();
                    let job = Arc::new(Job {
                        replies,
                        done,
                        any,
                        next: AtomicUsize::new(0),
                        closed: AtomicBool::new(false),
                        decided: Mutex::new(None),
                        stopped: AtomicBool::new(false),
                        epoch,
                    });
                    {
                        let mut g = board.job.lock().unwrap_or_else(|e| e.into_inner());
                        g.0 += 1;
                        g.1 = Some(Arc::clone(&job));
                    }
                    board.changed.notify_all();
                    work(solver, &job, me, &cut);
                    // Replies a helper still searches: search them here too
                    // rather than wait (a helper may be off its core; the
                    // table makes the second search of one cheap).
                    for j in 0..job.replies.len() {
                        if !job.done[j].load(Ordering::SeqCst)
                            && !search_reply(solver, &job, me, &cut, j)
                        {
                            break;
                        }
                    }
                    job.close(&cut);
                    let decided = *job.decided.lock().unwrap_or_else(|e| e.into_inner());
                    match decided {
                        Some(w) => Some(w),
                        None if job.stopped.load(Ordering::SeqCst) => None,
                        None => Some(!any),
                    }
                }
            };
            if solver.paused_now() {
                break; // this action is taken up again after the pause
            }
            phase.found.push((phase.from, v));
            phase.from += 1;
            if settles(v) {
                phase.settled = true;
                break;
            }
        }
        let mut g = board.job.lock().unwrap_or_else(|e| e.into_inner());
        g.2 = true;
        drop(g);
        board.changed.notify_all();
    });
    solver.done_sharing();
    phase.nodes = board.nodes.load(Ordering::Relaxed);
    phase.memory = board.memory.load(Ordering::Relaxed);
    phase
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_decides_whether_replies_are_shared() {
        assert!(!worth_sharing(ShareReplies::Never, 2));
        assert!(worth_sharing(ShareReplies::Always, 2));
        // More helpers than the machine has cores never find one free each.
        assert!(!worth_sharing(ShareReplies::WhenIdle, cores() + 1));
        if cfg!(target_os = "linux") {
            // This thread is running while it reads the count.
            assert!(runnable_tasks().is_some_and(|n| n >= 1));
            assert!(online_cpus() >= cores());
        }
    }
}
