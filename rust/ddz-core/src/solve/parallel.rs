//! Two threads on one search, sharing the table ("lazy" sharing).
//!
//! Both threads take the root actions in the same order, and both search
//! the same action at once. The helper tries each position's first action
//! first too, and then the rest from the last back: where the first action
//! does not win, the position is most likely lost for its mover, and every
//! action must be refuted anyway, so the two threads refute them from the
//! two ends and meet in the middle. Each entry of the table they share is an
//! exact verdict, so what one thread proves the other finds instead of
//! searching it; whichever finishes a root action first records its
//! verdict, and the other leaves that action for the next. Verdicts and the
//! winning root actions are those of one thread: the same root order, so
//! with `all` off the first winning action in that order is the one named.

use super::lists::Keyed;
use super::search::{Solver, State};
use super::table::Key;
use crate::play::Move;
use std::sync::atomic::Ordering::{Relaxed, SeqCst};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// Threads that search together; more are taken as this many (the second
/// thread's varied order is the only other order).
pub(super) const THREADS: usize = 2;

/// The threads publish the position they are in at each depth up to
/// this one, and steer apart in the positions above it (deeper, the
/// subtrees are small, and tracking them costs more than it saves: 16 and
/// 24 searched more positions in all than 8 on the puzzles and deals tried).
const SPLIT_DEPTH: usize = 8;

/// Where the threads of one search are.
pub(super) struct Team {
    /// The key id of the position each thread is in, at each depth (0: none).
    path: [[AtomicU64; SPLIT_DEPTH]; THREADS],
}

impl Team {
    fn new() -> Team {
        Team {
            path: std::array::from_fn(|_| std::array::from_fn(|_| AtomicU64::new(0))),
        }
    }
}

/// One thread's place in a team.
pub(super) struct Member {
    team: Arc<Team>,
    me: usize,
}

impl Member {
    /// The thread is now in the position of `key` at `depth`.
    #[inline]
    pub fn enter(&self, depth: usize, key: Option<&Key>) {
        if depth < SPLIT_DEPTH {
            let id = key.map_or(0, Key::id);
            self.team.path[self.me][depth].store(id, Relaxed);
        }
    }

    /// The order of the tries at a position of `depth` (`list`: its plays,
    /// the pass before play `pass_at`), or None for the usual order. It
    /// changes only where the other thread is in this position too, in
    /// child `k`. The main thread leaves `k` to the end. The helper follows
    /// it into `k` while `k` is the first try (most often the one that wins,
    /// so nothing else is worth searching yet); once `k` is a later one,
    /// every try before it failed, the position most likely needs every try
    /// refuted, and the helper takes them from the last back.
    pub fn order(
        &self,
        st: &State,
        depth: usize,
        list: &[Keyed],
        pass_at: usize,
    ) -> Option<Vec<usize>> {
        if depth + 1 >= SPLIT_DEPTH {
            return None;
        }
        let other = &self.team.path[1 - self.me];
        let id = |c: &State| c.key().map_or(0, |k| k.id());
        let here = id(st);
        if here == 0 || other[depth].load(Relaxed) != here {
            return None; // alone here
        }
        let there = other[depth + 1].load(Relaxed);
        let n = list.len();
        let k = (0..=n).find(|&i| {
            (i == pass_at && id(&st.pass()) == there)
                || list
                    .get(i)
                    .is_some_and(|p| id(&st.play(&p.play())) == there)
        })?;
        if self.me == 0 {
            Some((0..=n).filter(|&i| i != k).chain([k]).collect())
        } else if k == 0 {
            None
        } else {
            Some((0..k).chain((k + 1..=n).rev()).chain([k]).collect())
        }
    }
}

/// What the root search found: the verdict, the winning actions, the positions.
pub(super) type RootResult = (Option<bool>, Vec<Option<Move>>, u64);

const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;

/// The root's verdicts, and who is searching what.
struct Root {
    verdicts: Vec<AtomicU8>,
    /// The root action each thread is on.
    working: [AtomicUsize; THREADS],
    /// Set to stop a thread's search (its action was decided by the other,
    /// or the whole search is over).
    cancel: [Arc<AtomicBool>; THREADS],
    /// The search is over: answered, or out of budget.
    over: AtomicBool,
    all: bool,
    /// Positions each thread searched.
    nodes: [AtomicU64; THREADS],
    team: Arc<Team>,
}

impl Root {
    fn new(actions: usize, all: bool) -> Root {
        Root {
            verdicts: (0..actions).map(|_| AtomicU8::new(UNKNOWN)).collect(),
            working: std::array::from_fn(|_| AtomicUsize::new(usize::MAX)),
            cancel: std::array::from_fn(|_| Arc::new(AtomicBool::new(false))),
            over: AtomicBool::new(false),
            all,
            nodes: std::array::from_fn(|_| AtomicU64::new(0)),
            team: Arc::new(Team::new()),
        }
    }

    fn end(&self) {
        self.over.store(true, SeqCst);
        self.cancel.iter().for_each(|c| c.store(true, SeqCst));
    }

    /// Record action `i`'s verdict and stop the other thread's search of it.
    fn decide(&self, me: usize, i: usize, win: bool) {
        let v = if win { WIN } else { LOSS };
        let _ = self.verdicts[i].compare_exchange(UNKNOWN, v, SeqCst, SeqCst);
        // Stored before the other thread's action is read, and that thread
        // stores its action before reading the verdict: one of the two sees
        // the other (a stale cancel only makes a search start again).
        for other in (0..THREADS).filter(|&t| t != me) {
            if self.working[other].load(SeqCst) == i {
                self.cancel[other].store(true, SeqCst);
            }
        }
    }

    /// Has the question been answered: without `all`, a win whose every
    /// earlier action (in root order) is known lost.
    fn answered(&self) -> bool {
        !self.all
            && self
                .verdicts
                .iter()
                .map(|v| v.load(SeqCst))
                .take_while(|&v| v != UNKNOWN)
                .any(|v| v == WIN)
    }

    /// The root action a thread takes next: the main thread the first
    /// undecided one; the helper the same one while it is the first action
    /// (it most often wins, and the two search it together), and once the
    /// first has lost, the last undecided one the main thread is not on,
    /// so that where every action must be refuted they refute two at once.
    fn pick(&self, me: usize) -> Option<usize> {
        let n = self.verdicts.len();
        let undecided = |i: &usize| self.verdicts[*i].load(SeqCst) == UNKNOWN;
        let lowest = (0..n).find(undecided)?;
        let theirs = self.working[0].load(SeqCst);
        if me == 0 || theirs == usize::MAX || theirs == 0 {
            return Some(lowest);
        }
        Some(
            (0..n)
                .rev()
                .find(|i| undecided(i) && *i != theirs)
                .unwrap_or(lowest),
        )
    }

    /// One thread's part: root actions until the question is answered.
    fn run(
        &self,
        me: usize,
        worker: &mut Solver<'_>,
        actions: &[(Option<Move>, State)],
        mover: u8,
    ) {
        while let Some(i) = self.pick(me) {
            if self.over.load(SeqCst) {
                break;
            }
            self.working[me].store(i, SeqCst);
            if self.verdicts[i].load(SeqCst) != UNKNOWN {
                continue;
            }
            match worker.value_of(mover, &actions[i].1) {
                Some(v) => self.decide(me, i, v),
                // Stopped from outside: the action is decided (or the stop
                // was stale), so look again.
                None if self.cancel[me].swap(false, SeqCst) && !self.over.load(SeqCst) => {
                    worker.resume()
                }
                None => {
                    self.end(); // out of budget
                    break;
                }
            }
            if self.answered() {
                self.end();
                break;
            }
        }
        self.nodes[me].store(worker.nodes(), SeqCst);
    }
}

/// Helper threads not in use. A solve takes one only if one is free, so
/// that solves on many threads at once never wait for each other's
/// helpers: those that find none search on their own thread alone.
static FREE_HELPERS: AtomicUsize = AtomicUsize::new(THREADS);

/// Take a free helper thread, if there is one.
fn take_helper() -> bool {
    FREE_HELPERS
        .fetch_update(SeqCst, SeqCst, |n| n.checked_sub(1))
        .is_ok()
}

/// Gives a helper thread back when dropped.
struct Release;

impl Drop for Release {
    fn drop(&mut self) {
        FREE_HELPERS.fetch_add(1, SeqCst);
    }
}

/// Threads kept for the helpers, so that each keeps its buffers between
/// solves (see `reuse`); None if the system would not start them.
fn helpers() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(THREADS)
            .thread_name(|i| format!("ddz-solve-{i}"))
            .build()
            .ok()
    })
    .as_ref()
}

/// The root search on two threads: `solver` on the caller's thread, a
/// helper on a kept thread, one table between them.
pub(super) fn root(solver: &mut Solver<'_>, root: &State, clock: Instant) -> RootResult {
    let actions = solver.actions(root);
    let state = Root::new(actions.len(), solver.options().all);
    let mover = root.to_move;
    let Some(pool) = helpers().filter(|_| take_helper()) else {
        state.run(0, solver, &actions, mover);
        return outcome(&state, &actions, solver);
    };
    let engine = solver.engine();
    let mut options = solver.options().clone();
    // The helper's own memos and lists: a sixteenth of the bound more.
    options.max_memory /= 4;
    let table = Arc::new(Mutex::new(solver.take_table()));
    solver.share_table(table.clone());
    solver.set_stop(Some(state.cancel[0].clone()));
    let team = state.team.clone();
    solver.join(Some(Member {
        team: team.clone(),
        me: 0,
    }));
    pool.in_place_scope(|scope| {
        let (state, actions, table, team) = (&state, &actions, table.clone(), team.clone());
        scope.spawn(move |_| {
            let _release = Release; // even if the search panics
            if !state.over.load(SeqCst) {
                let mut helper = Solver::new(engine, options);
                helper.share_table(table);
                helper.set_stop(Some(state.cancel[1].clone()));
                helper.join(Some(Member { team, me: 1 }));
                helper.start_budget(clock);
                state.run(1, &mut helper, actions, mover);
            }
        });
        state.run(0, solver, actions, mover);
    });
    solver.set_stop(None);
    solver.join(None);
    drop(solver.take_table()); // the empty one kept aside
    let shared = Arc::try_unwrap(table).map_or_else(
        |_| unreachable!("the helper has ended"),
        |m| m.into_inner().unwrap_or_else(|e| e.into_inner()),
    );
    solver.put_table(shared);
    outcome(&state, &actions, solver)
}

fn outcome(state: &Root, actions: &[(Option<Move>, State)], solver: &mut Solver<'_>) -> RootResult {
    let verdicts: Vec<u8> = state.verdicts.iter().map(|v| v.load(SeqCst)).collect();
    let wins: Vec<Option<Move>> = verdicts
        .iter()
        .zip(actions)
        .filter(|(&v, _)| v == WIN)
        .map(|(_, (a, _))| *a)
        .collect();
    let nodes: Vec<u64> = state.nodes.iter().map(|n| n.load(SeqCst)).collect();
    solver.set_thread_nodes(nodes.clone());
    let win = if !wins.is_empty() {
        Some(true)
    } else if verdicts.iter().all(|&v| v == LOSS) {
        Some(false)
    } else {
        None
    };
    (win, wins, nodes.iter().sum())
}
