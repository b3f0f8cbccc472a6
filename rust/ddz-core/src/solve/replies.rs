//! The first milliseconds of a solve on several threads: the root's
//! actions are taken in order, as on one thread, and the replies to each
//! are shared out between the solving thread and helpers. A short solve
//! is mostly one root action (the winning one, whose every reply must be
//! refuted), so sharing its replies puts both cores on it, where a split
//! of the root actions would leave the second core little to do. A reply
//! that is forced (a pass with nothing to beat the play) is taken, and
//! the actions after it are shared instead.
//!
//! Between jobs (an action refuted by its first reply leaves a helper
//! nothing to take), a helper searches the root actions after the
//! solving thread's, ahead of it: those before the winning action must
//! all be searched anyway, and the solving thread takes a verdict found
//! ahead instead of searching the action. A newly shared action calls a
//! search ahead off (what it proved is in the table, and it is taken up
//! again after the job).
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
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
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
    /// Its number on the board, and the board's `untaken`.
    number: u64,
    untaken: Arc<AtomicU64>,
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
    /// The number of the job whose replies are not all taken yet (0 when
    /// none; the most at the end): it calls off the searches ahead.
    untaken: Arc<AtomicU64>,
    /// The root action the solving thread decides now.
    current: AtomicUsize,
    /// The next root action a helper may search ahead of it.
    ahead: AtomicUsize,
    /// Verdicts for the root mover that helpers found ahead, by root
    /// action: 0 none, 1 lost, 2 won.
    found_ahead: Vec<AtomicU8>,
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
        if j + 1 >= job.replies.len() {
            // The last reply is taken: a search ahead need not stop for it.
            let _ =
                job.untaken
                    .compare_exchange(job.number, 0, Ordering::SeqCst, Ordering::Relaxed);
        }
        if j >= job.replies.len() || !search_reply(solver, job, me, cut, j) {
            return;
        }
    }
}

/// The next root action after the solving thread's to search ahead, if any.
fn take_ahead(board: &Board) -> Option<usize> {
    loop {
        let k = board.ahead.fetch_add(1, Ordering::Relaxed);
        if k >= board.found_ahead.len() {
            return None;
        }
        if k > board.current.load(Ordering::SeqCst) {
            return Some(k);
        }
    }
}

/// A helper: the replies of each job posted, and between jobs the root
/// actions after the solving thread's, searched ahead (the root actions
/// are decided in order, and those before a win must all be searched, so
/// a helper with no replies to take would otherwise wait). A new job
/// calls off a search ahead: what it proved so far is in the table.
fn helper_loop(
    solver: &mut Solver<'_>,
    board: &Board,
    actions: &[(Option<crate::play::Move>, State)],
    me: u8,
    cut: &AtomicUsize,
) {
    let mut seen = 0;
    // A root action whose search ahead a job called off: taken up again.
    let mut resume = None;
    loop {
        let job = {
            let g = board.job.lock().unwrap_or_else(|e| e.into_inner());
            if g.2 {
                return;
            }
            let new = g.0 != seen;
            seen = g.0;
            new.then(|| g.1.clone()).flatten()
        };
        if let Some(job) = job {
            work(solver, &job, me, cut);
            continue;
        }
        let current = board.current.load(Ordering::SeqCst);
        let k = resume
            .take()
            .filter(|&k| k > current)
            .or_else(|| take_ahead(board));
        if let Some(k) = k {
            solver.interrupt_on(Some((Arc::clone(&board.untaken), seen)));
            // Root action 0 for the cut: closing a job never stops it.
            match solver.value_of_root_action(me, 0, &actions[k].1) {
                Some(v) => board.found_ahead[k].store(1 + v as u8, Ordering::SeqCst),
                None => resume = Some(k),
            }
            solver.interrupt_on(None);
            solver.clear_stop_unless_paused();
            continue;
        }
        let mut g = board.job.lock().unwrap_or_else(|e| e.into_inner());
        while g.0 == seen && !g.2 {
            g = board.changed.wait(g).unwrap_or_else(|e| e.into_inner());
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
    #[cfg(test)]
    if BUSY_LOOKS.with(|b| b.replace(b.get().saturating_sub(1)) > 0) {
        return false;
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
    /// The next this many looks on this thread find no core free, whatever
    /// the policy (after them, `Always` finds one).
    pub(super) static BUSY_LOOKS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// Solves on this thread let the helpers search every later root
    /// action ahead before the first is decided.
    static AHEAD_FIRST: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Verdicts this thread took from a helper's search ahead.
    static TAKEN_AHEAD: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
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
        untaken: Arc::new(AtomicU64::new(0)),
        current: AtomicUsize::new(from),
        ahead: AtomicUsize::new(from + 1),
        found_ahead: actions.iter().map(|_| AtomicU8::new(0)).collect(),
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
                helper_loop(&mut helper, board, actions, me, &cut);
                board.nodes.fetch_add(helper.nodes(), Ordering::Relaxed);
                board
                    .memory
                    .fetch_add(helper.memo_bytes(), Ordering::Relaxed);
            });
        }
        #[cfg(test)]
        if AHEAD_FIRST.with(|a| a.get()) {
            let start = Instant::now();
            while board.found_ahead[from + 1..]
                .iter()
                .any(|v| v.load(Ordering::SeqCst) == 0)
            {
                assert!(
                    start.elapsed().as_secs() < 60,
                    "the helpers did not search ahead"
                );
                std::thread::yield_now();
            }
        }
        while phase.from < actions.len() {
            board.current.store(phase.from, Ordering::SeqCst);
            let child = &actions[phase.from].1;
            let ahead = board.found_ahead[phase.from].load(Ordering::SeqCst);
            let epoch = phase.from + 1;
            // A verdict a helper found ahead saves even listing the replies.
            let replies = (ahead == 0).then(|| solver.replies(me, child)).flatten();
            #[cfg(test)]
            TAKEN_AHEAD.with(|t| t.set(t.get() + (ahead > 0) as usize));
            let v = match (ahead, replies) {
                (1 | 2, _) => Some(ahead == 2),
                (_, None) => solver.value_of_root_action(me, usize::MAX - epoch, child),
                (_, Some((replies, any))) => {
                    let done = replies.iter().map(|_| AtomicBool::new(false)).collect();
                    let job = {
                        let mut g = board.job.lock().unwrap_or_else(|e| e.into_inner());
                        g.0 += 1;
                        let job = Arc::new(Job {
                            replies,
                            done,
                            any,
                            next: AtomicUsize::new(0),
                            closed: AtomicBool::new(false),
                            decided: Mutex::new(None),
                            stopped: AtomicBool::new(false),
                            epoch,
                            number: g.0,
                            untaken: Arc::clone(&board.untaken),
                        });
                        g.1 = Some(Arc::clone(&job));
                        board.untaken.store(g.0, Ordering::SeqCst);
                        job
                    };
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
        board.untaken.store(u64::MAX, Ordering::SeqCst);
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
    use crate::solve::{Position, Solver};
    use crate::{Engine, Rules};

    /// Positions of two and three hands from a shuffled deck (a small
    /// generator of its own: the crate's tests share no dealer here).
    fn positions(engine: &Engine, count: usize) -> Vec<Position> {
        let mut deck: Vec<char> = "3456789TJQKA2".chars().flat_map(|c| [c; 4]).collect();
        deck.extend(['X', 'D']);
        let mut seed = 2026u64;
        let mut below = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        (0..count)
            .map(|case| {
                for i in (1..deck.len()).rev() {
                    deck.swap(i, below(i + 1));
                }
                let sizes: &[usize] = if case % 2 == 0 { &[9, 8] } else { &[6, 5, 5] };
                let mut at = 0;
                let hands = sizes
                    .iter()
                    .map(|&n| {
                        at += n;
                        engine
                            .parse(&deck[at - n..at].iter().collect::<String>())
                            .unwrap()
                    })
                    .collect();
                Position::lead(hands, below(sizes.len()))
            })
            .collect()
    }

    /// The verdicts a helper finds ahead are the solving thread's own: with
    /// every later root action searched ahead before the first is decided,
    /// the verdict and every winning play are those of one thread.
    #[test]
    fn verdicts_found_ahead_agree_with_one_thread() {
        let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
        AHEAD_FIRST.with(|a| a.set(true));
        TAKEN_AHEAD.with(|t| t.set(0));
        for pos in positions(&engine, 40) {
            let one = Solver::new(
                &engine,
                Options {
                    all: true,
                    ..Options::default()
                },
            )
            .solve(&pos)
            .unwrap();
            for all in [true, false] {
                let options = Options {
                    all,
                    threads: 2,
                    share_replies: ShareReplies::Always,
                    share_replies_after: std::time::Duration::ZERO,
                    ..Options::default()
                };
                let two = Solver::new(&engine, options).solve(&pos).unwrap();
                let want = if all {
                    one.plays.clone()
                } else {
                    one.plays.iter().take(1).copied().collect()
                };
                assert_eq!((two.win, two.plays), (one.win, want), "{:?}", pos.hands);
            }
        }
        AHEAD_FIRST.with(|a| a.set(false));
        assert!(
            TAKEN_AHEAD.with(|t| t.get()) > 100,
            "few verdicts were taken from ahead"
        );
    }

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
