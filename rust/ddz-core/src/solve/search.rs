//! The search: boolean negamax with move ordering and the table.

use super::answers::Answers;
use super::fewest::Fewest;
use super::lists::{left_of, order_key, First, Keyed, Listed, Lists};
use super::reuse;
use super::transposition::{pack, Key, TranspositionTable};
use super::{kind_mask, Options, Position, Solution, SolveError, FORBIDDABLE};
use crate::cards::Cards;
use crate::engine::Engine;
use crate::generate::Target;
use crate::play::{Move, Play};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A position inside the search: fixed-size, copied freely.
#[derive(Clone, Copy, Debug)]
pub(super) struct State {
    hands: [Cards; 3],
    n: u8,
    pub(super) to_move: u8,
    /// The seat whose play is on the table (the mover itself on a lead).
    owner: u8,
    target: Target,
}

impl State {
    /// The table key; None when a hand does not pack (no table then).
    #[inline]
    fn key(&self) -> Option<Key> {
        let h = |s: usize| pack(&self.hands[s]);
        Some(if self.n == 2 {
            // One against one is symmetric: key by mover and other.
            let me = self.to_move as usize;
            Key::new([h(me)?, h(1 - me)?, 0], self.target.key())
        } else {
            Key::new(
                [h(0)?, h(1)?, h(2)?],
                self.target.key() | (self.to_move as u32) << 28 | (self.owner as u32) << 30,
            )
        })
    }

    fn next_seat(&self) -> u8 {
        (self.to_move + 1) % self.n
    }

    fn play(&self, p: &Play) -> State {
        let mut next = *self;
        let me = self.to_move as usize;
        next.hands[me] = self.hands[me] - p.cards;
        next.to_move = self.next_seat();
        next.owner = self.to_move;
        next.target = p.to_beat;
        next
    }

    fn pass(&self) -> State {
        let mut next = *self;
        next.to_move = self.next_seat();
        if next.to_move == self.owner {
            next.target = Target::Lead;
        }
        next
    }

    /// The position after `action` of the mover's `list` (not `Listed`).
    fn after(&self, list: &[Keyed], action: First) -> State {
        match action {
            First::Pass => self.pass(),
            First::Play(i) => self.play(&list[i as usize].play()),
            First::Listed => unreachable!("an action, not the list's order"),
        }
    }

    /// No seat of the other side can beat `p` (so the mover leads again).
    fn opponents_cannot_answer(&self, answers: &mut Answers, engine: &Engine, p: &Play) -> bool {
        (0..self.n).all(|s| {
            s == self.to_move
                || self.same_side(s, self.to_move)
                || !answers.can_answer(engine, &self.hands[s as usize], p.to_beat)
        })
    }

    /// Does the mover order by what won before (`Lists::learn`)? Not the
    /// landlord of three hands: what won against one pair of farmers' hands
    /// misleads against the next (with it, the solve bench's two worst
    /// three-hand deals took 1.4 and 2.7 times the positions: docs/solver.md).
    fn learns(&self) -> bool {
        self.n == 2 || self.to_move != 0
    }

    /// The play to beat is a partner's (three hands: the other farmer's).
    fn partner_owns(&self) -> bool {
        self.owner != self.to_move && self.same_side(self.owner, self.to_move)
    }

    fn same_side(&self, a: u8, b: u8) -> bool {
        if self.n == 3 {
            (a == 0) == (b == 0)
        } else {
            a == b
        }
    }
}

/// An exact solver over one rule set. The table persists between calls, so
/// asking again in a later position of the same game costs little.
pub struct Solver<'e> {
    engine: &'e Engine,
    forbid: u32,
    options: Options,
    /// The table, held by every thread of a root split (every entry is an
    /// exact verdict, so what one thread proves serves all; `table` says
    /// how sharing is safe without a lock).
    table: Arc<TranspositionTable>,
    /// Other threads use the table now: stores claim their way first.
    sharing: bool,
    /// This thread's number among the workers (its counter in the table).
    worker: usize,
    /// A helper's table from the thread's last solver, handed on unused.
    spare_table: Option<TranspositionTable>,
    fewest: Fewest,
    lists: Lists,
    answers: Answers,
    /// Ordered play lists, one per depth (no allocation per node).
    pool: Vec<Vec<Keyed>>,
    nodes: u64,
    node_limit: u64,
    /// Under several threads, the node budget they draw on together.
    shared_budget: Option<Arc<AtomicU64>>,
    workers_memory: usize,
    deadline: Option<Instant>,
    aborted: bool,
    /// Stop the search at this moment, to go on with helpers (not a budget).
    pause: Option<Instant>,
    /// The search stopped at `pause`: its None is not an unknown verdict.
    paused: bool,
    /// Under a root split, the lowest root action that settled the root
    /// so far: a search of a later one is moot and stops.
    cut: Option<Arc<AtomicUsize>>,
    /// The root action this thread searches now.
    root_action: usize,
    /// A speculative search stops once this counter passes this value
    /// (the solving thread has work it needs more, `replies`).
    interrupt: Option<(Arc<AtomicU64>, u64)>,
    /// Lead plays for the control check, one list per level.
    spare: Vec<Vec<Keyed>>,
}

/// The buffers go to the thread's next solver (see `reuse`).
impl Drop for Solver<'_> {
    fn drop(&mut self) {
        // A helper hands on its spare; the owner (the one holder left) its table.
        let table = self.spare_table.take().or_else(|| {
            Arc::get_mut(&mut self.table).map(|t| std::mem::replace(t, TranspositionTable::empty()))
        });
        let (fewest_keys, fewest_values) = self.fewest.take_buffers();
        let (list_slots, arena) = self.lists.take_buffers();
        reuse::give(reuse::Buffers {
            table,
            fewest_keys,
            fewest_values,
            list_slots,
            arena,
            answers: self.answers.take_buffer(),
        });
    }
}

/// The control check looks this many plays ahead: a play no opponent can
/// answer, then up to this many more, the last going out.
const CONTROL_PLAYS: u32 = 2;

impl<'e> Solver<'e> {
    pub fn new(engine: &'e Engine, options: Options) -> Solver<'e> {
        // Three quarters of the bound for the table (less the answer
        // memo's 1/64), an eighth each for the fewest-plays memo and the
        // ordered lists.
        let memory = options.max_memory.max(1 << 16);
        let mut b = reuse::take();
        let table = TranspositionTable::reusing(memory / 4 * 3 - memory / 64, b.table.take());
        Solver::with_parts(engine, options, b, Arc::new(table))
    }

    fn with_parts(
        engine: &'e Engine,
        options: Options,
        b: reuse::Buffers,
        table: Arc<TranspositionTable>,
    ) -> Solver<'e> {
        // Under a root split every thread has memos of its own.
        let memos = options.max_memory.max(1 << 16) / options.threads.max(1);
        Solver {
            engine,
            forbid: kind_mask(&options.forbid),
            table,
            sharing: false,
            worker: 0,
            spare_table: None,
            fewest: Fewest::reusing(memos / 8, b.fewest_keys, b.fewest_values),
            lists: Lists::reusing(memos / 8, b.list_slots, b.arena),
            answers: Answers::reusing(memos / 64, b.answers),
            options,
            pool: Vec::new(),
            nodes: 0,
            node_limit: u64::MAX,
            shared_budget: None,
            workers_memory: 0,
            deadline: None,
            aborted: false,
            pause: None,
            paused: false,
            cut: None,
            root_action: 0,
            interrupt: None,
            spare: Vec::new(),
        }
    }

    /// Bytes the table and the memos hold now, with the memos of the
    /// workers of the last solve on several threads (freed since).
    pub fn memory(&self) -> usize {
        self.table.bytes() + self.memo_bytes() + self.workers_memory
    }

    /// What the memos hold (a helper's share; the table is counted once,
    /// by its owner).
    pub(super) fn memo_bytes(&self) -> usize {
        self.fewest.bytes() + self.lists.bytes() + self.answers.bytes()
    }

    /// Forget every stored verdict.
    pub fn clear(&mut self) {
        if let Some(t) = Arc::get_mut(&mut self.table) {
            t.clear();
        }
    }

    /// Decide whether the side to move can force going out first, and how.
    pub fn solve(&mut self, pos: &Position) -> Result<Solution, SolveError> {
        let root = self.check(pos)?;
        let clock = Instant::now();
        self.start_budget(clock);
        let (win, plays, nodes, helpers) = super::root::search(self, &root, clock);
        self.workers_memory = helpers;
        Ok(Solution {
            win,
            plays,
            nodes,
            seconds: clock.elapsed().as_secs_f64(),
        })
    }

    /// The actions open at `pos` in search order (None is a pass), for a
    /// caller that follows a line of play.
    pub fn ordered_actions(&mut self, pos: &Position) -> Result<Vec<Option<Move>>, SolveError> {
        let root = self.check(pos)?;
        Ok(self.actions(&root).into_iter().map(|(a, _)| a).collect())
    }

    /// A line of play from `pos` to the end: the winning side plays its
    /// first winning action, the losing side its first action in search
    /// order. Stops early when the budget runs out.
    pub fn line(&mut self, pos: &Position) -> Result<Vec<(usize, Option<Move>)>, SolveError> {
        let mut pos = pos.clone();
        let mut out = Vec::new();
        let all = std::mem::replace(&mut self.options.all, false);
        while pos.finished().is_none() {
            let s = self.solve(&pos)?;
            let action = match s.win {
                Some(true) => s.plays[0],
                Some(false) => self.ordered_actions(&pos)?[0],
                None => break,
            };
            out.push((pos.to_move, action));
            pos = pos.after(action.as_ref());
        }
        self.options.all = all;
        Ok(out)
    }

    /// A helper of a root split: it searches with `table`, the owner's,
    /// as worker number `worker`, under the split's `cut`.
    pub(super) fn helper(
        engine: &'e Engine,
        options: Options,
        table: Arc<TranspositionTable>,
        worker: usize,
        cut: Arc<AtomicUsize>,
    ) -> Solver<'e> {
        let mut b = reuse::take();
        let spare = b.table.take();
        let mut s = Solver::with_parts(engine, options, b, table);
        s.spare_table = spare;
        s.worker = worker;
        s.sharing = true;
        s.cut = Some(cut);
        s
    }

    /// The owner's part in a root split: its table shared until
    /// `done_sharing`, its searches under the split's `cut`.
    pub(super) fn share(&mut self, cut: Arc<AtomicUsize>) -> Arc<TranspositionTable> {
        self.sharing = true;
        self.cut = Some(cut);
        Arc::clone(&self.table)
    }

    pub(super) fn done_sharing(&mut self) {
        self.sharing = false;
        self.cut = None;
        self.shared_budget = None;
    }

    /// Does the side of `me` win after root action `index`, reaching `child`?
    pub(super) fn value_of_root_action(
        &mut self,
        me: u8,
        index: usize,
        child: &State,
    ) -> Option<bool> {
        self.root_action = index;
        self.value_of(me, child)
    }

    pub(super) fn start_budget(&mut self, clock: Instant) {
        self.nodes = 0;
        self.aborted = false;
        self.pause = None;
        self.paused = false;
        self.node_limit = self.options.max_nodes.unwrap_or(u64::MAX);
        self.deadline = self
            .options
            .max_seconds
            .map(|s| clock + std::time::Duration::from_secs_f64(s.clamp(0.0, 1e9)));
    }

    /// Take the rest of the node budget from `budget`, shared with other
    /// workers, a chunk at a time (so a budget of a few positions is kept).
    pub(super) fn draw_nodes_from(&mut self, budget: Arc<AtomicU64>) {
        self.shared_budget = Some(budget);
        self.node_limit = self.nodes;
    }

    /// Stop searching at `at` (see `paused`); None searches on.
    pub(super) fn pause_at(&mut self, at: Option<Instant>) {
        self.pause = at;
        self.paused = false;
    }

    /// Did a search stop at the pause (the flag is kept)?
    pub(super) fn paused_now(&self) -> bool {
        self.paused
    }

    /// Search on after a stop that was not the budget's (another thread
    /// decided what this one searched); a spent budget stops it again.
    pub(super) fn clear_stop_unless_paused(&mut self) {
        if !self.paused {
            self.aborted = false;
        }
    }

    /// The replies at `child`, the position a root action reaches, to
    /// share out between threads, and whether the root mover's side wins
    /// when any of them leads to its win (the replier is its partner) or
    /// only when all do. A forced action (a pass with nothing to beat the
    /// play) is taken, and the actions after it are shared instead. None
    /// when there is nothing to share: the game is over there, the table
    /// has it, or every action on the way is forced to the end.
    pub(super) fn replies(&mut self, me: u8, child: &State) -> Option<(Vec<State>, bool)> {
        let mut at = *child;
        loop {
            let prev_seat = (at.to_move + at.n - 1) % at.n;
            if at.hands[prev_seat as usize].is_empty() {
                return None;
            }
            if at.key().is_some_and(|k| self.table.get(&k).is_some()) {
                return None;
            }
            let mut list = self.actions(&at);
            if list.len() == 1 {
                at = list.swap_remove(0).1;
                continue;
            }
            let any = at.same_side(at.to_move, me);
            return Some((list.into_iter().map(|(_, s)| s).collect(), any));
        }
    }

    /// Did the last search stop at the pause? If so, search on from here
    /// without one.
    pub(super) fn resume_if_paused(&mut self) -> bool {
        let paused = std::mem::take(&mut self.paused);
        if paused {
            self.aborted = false;
            self.pause = None;
        }
        paused
    }

    /// More of the shared budget: false when it is spent.
    #[cold]
    fn draw(&mut self) -> bool {
        const CHUNK: u64 = 1024;
        let Some(budget) = &self.shared_budget else {
            return false;
        };
        let took = budget.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
            (left > 0).then(|| left - left.min(CHUNK))
        });
        match took {
            Ok(left) => {
                self.node_limit += left.min(CHUNK);
                true
            }
            Err(_) => false,
        }
    }

    pub(super) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Did helpers search in the last solve?
    #[cfg(test)]
    pub(super) fn helpers_ran(&self) -> bool {
        self.workers_memory > 0
    }

    pub(super) fn options(&self) -> &Options {
        &self.options
    }

    pub(super) fn engine(&self) -> &'e Engine {
        self.engine
    }

    /// Check a position and turn it into a search state.
    pub(super) fn check(&self, pos: &Position) -> Result<State, SolveError> {
        let n = pos.hands.len();
        if !(2..=3).contains(&n) {
            return Err(SolveError::Hands(n));
        }
        if pos.to_move >= n {
            return Err(SolveError::Seat {
                seat: pos.to_move,
                hands: n,
            });
        }
        if let Some(k) = self
            .options
            .forbid
            .iter()
            .find(|k| !FORBIDDABLE.contains(k))
        {
            return Err(SolveError::Forbid(*k));
        }
        if let Some(seat) = pos.finished() {
            return Err(SolveError::Empty(seat));
        }
        let all = pos.hands.iter().fold(Cards::EMPTY, |a, &h| a + h);
        self.engine
            .check_cards(&all)
            .map_err(|e| SolveError::TooManyCards(e.to_string()))?;
        let owner = match (pos.prev, pos.prev_by) {
            (None, _) => pos.to_move,
            (Some(_), Some(s)) if s >= n || s == pos.to_move => {
                return Err(SolveError::PrevBy(format!(
                    "seat {s} cannot have made the play seat {} must answer",
                    pos.to_move
                )))
            }
            (Some(_), by) => by.unwrap_or((pos.to_move + n - 1) % n),
        };
        let mut hands = [Cards::EMPTY; 3];
        hands[..n].copy_from_slice(&pos.hands);
        Ok(State {
            hands,
            n: n as u8,
            to_move: pos.to_move as u8,
            owner: owner as u8,
            target: match &pos.prev {
                None => Target::Lead,
                Some(m) => self.engine.to_beat(m),
            },
        })
    }

    /// The root's actions as full moves, with the state each leads to, in search order.
    pub(super) fn actions(&mut self, st: &State) -> Vec<(Option<Move>, State)> {
        let hand = st.hands[st.to_move as usize];
        let mut moves: Vec<Move> = Vec::new();
        self.engine.generate_target(&hand, st.target, &mut moves);
        moves.retain(|m| self.forbid >> m.kind as u32 & 1 == 0);
        let mut out: Vec<(u32, Option<Move>, State)> = moves
            .into_iter()
            .map(|m| {
                let p = Play::of(self.engine, &m);
                (self.order_key(&hand, &p), Some(m), st.play(&p))
            })
            .collect();
        out.sort_by_key(|&(k, _, _)| k);
        if !st.target.is_lead() {
            out.push((u32::MAX, None, st.pass()));
        }
        out.into_iter().map(|(_, a, s)| (a, s)).collect()
    }

    /// Does the side of `me` win after reaching `child`?
    pub(super) fn value_of(&mut self, me: u8, child: &State) -> Option<bool> {
        let prev_seat = (child.to_move + child.n - 1) % child.n;
        if child.hands[prev_seat as usize].is_empty() {
            return Some(child.same_side(prev_seat, me));
        }
        let v = self.win(child, 0)?;
        Some(if child.same_side(child.to_move, me) {
            v
        } else {
            !v
        })
    }

    fn order_key(&mut self, hand: &Cards, p: &Play) -> u32 {
        order_key(self.fewest.of(self.engine, self.forbid, *hand - p.cards), p)
    }

    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.aborted || (self.nodes > self.node_limit && !self.draw()) {
            self.aborted = true;
        } else if self.nodes & 255 == 0 && self.cut_off() {
            self.aborted = true; // another thread settled what this one searches
        } else if self.nodes & 1023 == 0 {
            let now = (self.deadline.is_some() || self.pause.is_some()).then(Instant::now);
            let late = self.deadline.is_some_and(|d| now.is_some_and(|n| n >= d));
            let cut = self.cut.as_ref().map(|c| c.load(Ordering::Relaxed));
            let stopped = cut.is_some_and(|c| c < self.root_action);
            self.paused = self.pause.is_some_and(|p| now.is_some_and(|n| n >= p));
            self.aborted = late || stopped || self.paused;
        }
        !self.aborted
    }

    /// Has the split's cut passed the root action this thread searches,
    /// or has a speculative search been called off?
    #[inline]
    fn cut_off(&self) -> bool {
        self.cut
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed) < self.root_action)
            || self
                .interrupt
                .as_ref()
                .is_some_and(|(c, v)| c.load(Ordering::Relaxed) > *v)
    }

    /// Search on only while `counter` stays at or below `value` (None: no such stop).
    pub(super) fn interrupt_on(&mut self, stop: Option<(Arc<AtomicU64>, u64)>) {
        self.interrupt = stop;
    }

    /// Can the side to move at `st` force going out first? None: out of budget.
    fn win(&mut self, st: &State, depth: usize) -> Option<bool> {
        if !self.tick() {
            return None;
        }
        let me = st.to_move as usize;
        let hand = st.hands[me];
        if self.pool.len() <= depth {
            self.pool.resize_with(depth + 1, Default::default);
        }
        let key = st.key();
        if let Some(k) = &key {
            self.table.prefetch(k); // the probe below waits less for it
        }
        if !st.target.is_lead() && !self.answers.can_answer(self.engine, &hand, st.target) {
            // A forced pass: not worth a table entry (the lead after it has one).
            return self.child_wins(st, &st.pass(), depth);
        }
        if let Some(v) = key.and_then(|k| self.table.get(&k)) {
            return Some(v);
        }
        let mut list = std::mem::take(&mut self.pool[depth]);
        let listed = self.ordered(hand, st.target, &mut list);
        // A play that empties the hand leaves 0 plays, so it sorts first.
        let result = if list.first().is_some_and(|k| left_of(k.key) == 0) {
            Some(true) // out in one play: not worth a table entry
        } else {
            let before = self.nodes;
            let v = self.search(st, depth, &list, listed);
            // A win the control check found (no position searched below)
            // costs one list lookup to find again: not worth an entry.
            if let (Some(v), Some(key), true) = (v, key, self.nodes > before) {
                let work = (64 - (self.nodes - before).leading_zeros()) as u8;
                if self.sharing {
                    self.table.put::<true>(&key, v, work, self.worker);
                } else {
                    self.table.put::<false>(&key, v, work, 0);
                }
            }
            v
        };
        self.pool[depth] = list;
        result
    }

    /// The plays of `hand` answering `target`, ordered; returns the fewest
    /// plays that empty `hand` and what to try first.
    #[inline]
    fn ordered(&mut self, hand: Cards, target: Target, out: &mut Vec<Keyed>) -> Listed {
        self.lists.ordered(
            self.engine,
            self.forbid,
            &mut self.fewest,
            hand,
            target,
            out,
        )
    }

    /// `list`: the mover's plays in order; `listed`: the fewest plays of
    /// its hand and what to try first.
    fn search(&mut self, st: &State, depth: usize, list: &[Keyed], listed: Listed) -> Option<bool> {
        let hand = st.hands[st.to_move as usize];
        // A play no opponent can answer, after which the hand goes out
        // through plays no opponent can answer: a win without a search.
        for kp in list.iter().take_while(|k| left_of(k.key) <= CONTROL_PLAYS) {
            let p = kp.play();
            if st.opponents_cannot_answer(&mut self.answers, self.engine, &p)
                && self.controls(st, hand - p.cards, left_of(kp.key), 0)
            {
                return Some(true);
            }
        }
        // A pass keeps the hand whole: it is tried after every play that
        // leaves no more plays to make than the hand needs now.
        let pass_at = if st.target.is_lead() {
            usize::MAX
        } else {
            list.partition_point(|k| left_of(k.key) <= listed.now as u32)
        };
        // What won here after another action was tried first goes first.
        let (learning, partner) = (st.learns(), st.partner_owns());
        let first = if learning {
            listed.first(partner)
        } else {
            First::Listed
        };
        if first != First::Listed && self.child_wins(st, &st.after(list, first), depth)? {
            return Some(true);
        }
        let mut tried = first != First::Listed;
        for i in 0..=list.len() {
            let pass = (i == pass_at).then_some(First::Pass);
            let play = (i < list.len()).then_some(First::Play(i as u16));
            for action in [pass, play].into_iter().flatten() {
                if action == first {
                    continue;
                }
                if self.child_wins(st, &st.after(list, action), depth)? {
                    if tried && learning {
                        self.lists.learn(hand, st.target, partner, action);
                    }
                    return Some(true);
                }
                tried = true;
            }
        }
        Some(false)
    }

    /// Does the side that moved at `st` win by reaching `child`?
    #[inline]
    fn child_wins(&mut self, st: &State, child: &State, depth: usize) -> Option<bool> {
        let v = self.win(child, depth + 1)?;
        Some(child.same_side(child.to_move, st.to_move) == v)
    }

    /// Can the mover, leading with `rest` (which needs `left` plays), go
    /// out through plays that no opponent can answer, the last excepted?
    /// Opponents' hands do not change while they pass, so this is exact.
    fn controls(&mut self, st: &State, rest: Cards, left: u32, level: usize) -> bool {
        if left <= 1 {
            return true; // empty, or one play that goes out
        }
        if self.spare.len() <= level {
            self.spare.resize_with(level + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.spare[level]);
        self.ordered(rest, Target::Lead, &mut list);
        // Every play leaves at least `left - 1` plays: those that leave
        // exactly that many sort first.
        let mut found = false;
        for kp in list.iter().take_while(|k| left_of(k.key) + 1 == left) {
            let p = kp.play();
            if st.opponents_cannot_answer(&mut self.answers, self.engine, &p)
                && self.controls(st, rest - p.cards, left - 1, level + 1)
            {
                found = true;
                break;
            }
        }
        self.spare[level] = list;
        found
    }
}
