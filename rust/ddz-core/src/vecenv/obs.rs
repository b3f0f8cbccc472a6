//! What the seat to act sees, as fixed-size rows (docs/rl.md).
//!
//! Everything comes from the table's public state and its family's
//! secrecy hooks (`hands_seen_by`, `kitty_seen_by`, `observe`); the only
//! state kept here is a log of the trick play this env has seen (cards
//! played per seat, the current trick, the last K plays), recorded from
//! the actions as they are taken.
//!
//! Per-seat rows are relative to the seat to act: row `j` is seat
//! `(seat + j) % players`, so row 0 is always the seat itself.

use super::arrays::{per_env, slot_row};
use super::kinds::{describe_play, PASS};
use super::roles::RoleColumns;
use crate::cards::{Cards, SLOTS};
use crate::table::RoleValue;
use crate::table::{deal, scoring, Action, Table};

per_env!(Obs, ObsRow, |d| {
    seat: i8 = [],
    phase: i8 = [],
    hand: u8 = [SLOTS],
    cards_left: i16 = [d.players],
    played: u8 = [d.players, SLOTS],
    seen: bool = [d.players],
    seen_hands: u8 = [d.players, SLOTS],
    kitty_seen: bool = [],
    kitty: u8 = [SLOTS],
    to_beat: u8 = [SLOTS],
    to_beat_kind: i8 = [],
    to_beat_rank: i8 = [],
    to_beat_length: i8 = [],
    to_beat_seat: i8 = [],
    trick: u8 = [d.players, SLOTS],
    trick_state: i8 = [d.players],
    recent: u8 = [d.history, SLOTS],
    recent_seat: i8 = [d.history],
    recent_kind: i8 = [d.history],
    roles: i16 = [d.roles],
    side: i8 = [],
    partners: bool = [d.players],
    partners_known: bool = [d.players],
    multiplier: i64 = [],
});

/// What this env has seen of the trick play of the current deal, kept in
/// the form the observation rows take, so that writing them is row copies
/// rather than a walk over moves: per absolute seat, its played cards and
/// its trick row; and the last plays as ring rows.
#[derive(Clone, Debug)]
pub struct PlayLog {
    /// Cards each seat has played (absolute seats).
    played: Vec<[u8; SLOTS]>,
    /// Each seat's latest play in the current trick (zeros for a pass or
    /// for nothing yet), and its `trick_state` (-1 nothing yet, 0 passed,
    /// 1 played).
    trick: Vec<[u8; SLOTS]>,
    trick_state: Vec<i8>,
    /// The last `keep` plays and passes as `recent`, `recent_kind` and
    /// `recent_seat` (absolute here) show them. Each entry is written at
    /// `q` and at `q + keep`, so the `keep` most recent, most recent
    /// first, are always the one run `start..start + keep`: a copy, with
    /// no wrap to handle. Cards and kinds are the same for every viewer;
    /// only the seats are made relative.
    recent_cards: Vec<[u8; SLOTS]>,
    recent_kind: Vec<i8>,
    recent_seat: Vec<i8>,
    start: usize,
    keep: usize,
}

impl PlayLog {
    pub fn new(players: usize, keep: usize) -> PlayLog {
        let mut log = PlayLog {
            played: vec![[0; SLOTS]; players],
            trick: vec![[0; SLOTS]; players],
            trick_state: vec![-1; players],
            recent_cards: vec![[0; SLOTS]; 2 * keep],
            recent_kind: vec![-1; 2 * keep],
            recent_seat: vec![-1; 2 * keep],
            start: 0,
            keep,
        };
        log.clear();
        log
    }

    /// A new deal.
    pub fn clear(&mut self) {
        self.played.fill([0; SLOTS]);
        self.end_trick();
        self.recent_cards.fill([0; SLOTS]);
        self.recent_kind.fill(-1);
        self.recent_seat.fill(-1);
        self.start = 0;
    }

    fn end_trick(&mut self) {
        self.trick.fill([0; SLOTS]);
        self.trick_state.fill(-1);
    }

    /// `seat` took `action` in the play phase; `leading` says whether the
    /// table now waits for a new lead (the trick is over).
    pub fn record(&mut self, seat: usize, action: &Action, leading: bool) {
        let (cards, kind) = match action {
            Action::Play(m) => {
                self.played[seat] = (Cards(self.played[seat]) + m.cards).0;
                (m.cards.0, describe_play(m).0)
            }
            _ => ([0; SLOTS], PASS),
        };
        self.trick[seat] = cards;
        self.trick_state[seat] = i8::from(kind != PASS);
        if leading {
            self.end_trick();
        }
        if self.keep > 0 {
            self.start = self.start.checked_sub(1).unwrap_or(self.keep - 1);
            for q in [self.start, self.start + self.keep] {
                self.recent_cards[q] = cards;
                self.recent_kind[q] = kind;
                self.recent_seat[q] = seat as i8;
            }
        }
    }

    /// The ring's current run, most recent first: cards, kinds, seats.
    fn recent(&self) -> (&[[u8; SLOTS]], &[i8], &[i8]) {
        let run = self.start..self.start + self.keep;
        (
            &self.recent_cards[run.clone()],
            &self.recent_kind[run.clone()],
            &self.recent_seat[run],
        )
    }
}

/// Values kept by absolute seat into `out` relative to `seat`: entry `j`
/// is seat `(seat + j) % n`, the seats from `seat` on, then those before.
/// An element at a time, not as two slice copies: the pieces are a few
/// bytes long, and a copy of a length known only when running is a call.
#[inline]
fn rotate<T: Copy>(out: &mut [T], by_seat: &[T], seat: usize) {
    let later = by_seat[seat..].iter().chain(&by_seat[..seat]);
    for (o, v) in out.iter_mut().zip(later) {
        *o = *v;
    }
}

/// `rotate` of 16-slot rows.
#[inline]
fn rotate_rows(out: &mut [u8], by_seat: &[[u8; SLOTS]], seat: usize) {
    rotate(out.as_chunks_mut::<SLOTS>().0, by_seat, seat);
}

/// Fill `row` with what `seat` at `table` may know: the seat to act, or
/// (a deal's final observation) the seat that acted last.
pub fn write(
    row: &mut ObsRow<'_>,
    table: &Table,
    seat: usize,
    log: &PlayLog,
    roles: &RoleColumns,
    scratch: &mut Vec<RoleValue>,
) {
    let core = table.core();
    let family = table.family();
    let n = core.players();
    // Both stay below 2n, so one subtraction stands for `% n` (a division
    // per use, many times a step).
    let wrap = |x: usize| if x >= n { x - n } else { x };
    let rel = |s: usize| wrap(s + n - seat) as i8;
    row.seat[0] = seat as i8;
    row.phase[0] = core.phase().id() as i8;
    *slot_row(row.hand, 0) = core.hands()[seat].counts.0;
    let hands = core.hands()[seat..].iter().chain(&core.hands()[..seat]);
    for (left, hand) in row.cards_left.iter_mut().zip(hands) {
        *left = hand.len() as i16;
    }
    rotate_rows(row.played, &log.played, seat);
    rotate_rows(row.trick, &log.trick, seat);
    rotate(row.trick_state, &log.trick_state, seat);
    // Element loops again (not `fill`, a call for a few bytes).
    for (seen, hand) in row
        .seen
        .iter_mut()
        .zip(row.seen_hands.as_chunks_mut::<SLOTS>().0)
    {
        (*seen, *hand) = (false, [0; SLOTS]);
    }
    for s in family.hands_seen_by(core, seat) {
        let j = rel(s) as usize;
        row.seen[j] = true;
        *slot_row(row.seen_hands, j) = core.hands()[s].counts.0;
    }
    let kitty_seen = family.kitty_seen_by(core, seat);
    row.kitty_seen[0] = kitty_seen;
    let kitty = if kitty_seen {
        deal::count(core.kitty())
    } else {
        Cards::EMPTY
    };
    *slot_row(row.kitty, 0) = kitty.0;
    match (core.tricks().last, core.tricks().last_seat) {
        (Some(m), Some(by)) => {
            let (kind, rank, length) = describe_play(&m);
            *slot_row(row.to_beat, 0) = m.cards.0;
            row.to_beat_kind[0] = kind;
            row.to_beat_rank[0] = rank;
            row.to_beat_length[0] = length;
            row.to_beat_seat[0] = rel(by);
        }
        _ => {
            *slot_row(row.to_beat, 0) = [0; SLOTS];
            row.to_beat_kind[0] = -1;
            row.to_beat_rank[0] = 0;
            row.to_beat_length[0] = 0;
            row.to_beat_seat[0] = -1;
        }
    }
    let (cards, kinds, seats) = log.recent();
    row.recent.copy_from_slice(cards.as_flattened());
    row.recent_kind.copy_from_slice(kinds);
    // Each absolute seat's relative one, looked up: an empty slot's -1
    // reads entry 15 (-1 & 15), which no seat has (six at most). No
    // arithmetic or check per entry.
    let mut rel_of = [-1i8; 16];
    for (s, r) in rel_of.iter_mut().enumerate().take(n.min(15)) {
        *r = rel(s);
    }
    for (out, &s) in row.recent_seat.iter_mut().zip(seats) {
        *out = rel_of[usize::from(s as u8 & 15)];
    }
    if !roles.is_empty() {
        roles.write(core, family, seat, scratch, row.roles);
    }
    write_sides(row, table, seat, scratch);
    row.multiplier[0] = scoring::stake(core.events());
}

thread_local! {
    /// The referee's role values (scratch for `write_sides`).
    static REFEREE: std::cell::RefCell<Vec<RoleValue>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The generic role tensor (docs/rl.md, "Sides"): `side`, the viewer's side
/// (1 the landlord's, 0 the other, -1 not settled); `partners[j]`, relative
/// seat `j` plays on the viewer's side (row 0, the viewer, always once
/// settled); `partners_known[j]`, the viewer may know seat `j`'s side. A
/// viewer knows every seat's side when it knows every role the referee
/// knows; else only its own (a partial knowledge of a secret family is
/// shown as unknown). Unknown seats' `partners` are false.
fn write_sides(row: &mut ObsRow<'_>, table: &Table, seat: usize, scratch: &mut Vec<RoleValue>) {
    let core = table.core();
    let family = table.family();
    let n = core.players();
    let mine = family.side_of(core, seat);
    row.side[0] = mine.map_or(-1, |s| s as i8);
    let all_known = mine.is_some()
        && REFEREE.with_borrow_mut(|referee| {
            family.role_values(core, Some(seat), scratch);
            family.role_values(core, None, referee);
            scratch == referee
        });
    for j in 0..n {
        let s = if seat + j >= n {
            seat + j - n
        } else {
            seat + j
        };
        let known = mine.is_some() && (j == 0 || all_known);
        row.partners_known[j] = known;
        row.partners[j] = known && family.side_of(core, s) == mine;
    }
}
