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
use super::kinds::{describe_play, phase_id, PASS};
use super::roles::RoleColumns;
use crate::cards::{Cards, SLOTS};
use crate::play::Move;
use crate::table::{deal, scoring, Action, Table};
use serde_json::Map;
use std::collections::VecDeque;

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
    multiplier: i64 = [],
});

/// What this env has seen of the trick play of the current deal.
#[derive(Clone, Debug)]
pub struct PlayLog {
    /// Cards each seat has played (absolute seats).
    played: Vec<Cards>,
    /// Each seat's latest action in the current trick: a play or a pass
    /// (`Some(None)`), or nothing yet.
    trick: Vec<Option<Option<Move>>>,
    /// The last plays and passes, most recent first.
    recent: VecDeque<(usize, Option<Move>)>,
    keep: usize,
}

impl PlayLog {
    pub fn new(players: usize, keep: usize) -> PlayLog {
        PlayLog {
            played: vec![Cards::EMPTY; players],
            trick: vec![None; players],
            recent: VecDeque::with_capacity(keep + 1),
            keep,
        }
    }

    /// A new deal.
    pub fn clear(&mut self) {
        self.played.fill(Cards::EMPTY);
        self.trick.fill(None);
        self.recent.clear();
    }

    /// `seat` took `action` in the play phase; `leading` says whether the
    /// table now waits for a new lead (the trick is over).
    pub fn record(&mut self, seat: usize, action: &Action, leading: bool) {
        let play = match action {
            Action::Play(m) => {
                self.played[seat] = self.played[seat] + m.cards;
                Some(*m)
            }
            _ => None,
        };
        self.trick[seat] = Some(play);
        if leading {
            self.trick.fill(None);
        }
        if self.keep > 0 {
            if self.recent.len() == self.keep {
                self.recent.pop_back();
            }
            self.recent.push_front((seat, play));
        }
    }
}

/// Fill `row` with what the seat to act at `table` may know.
pub fn write(
    row: &mut ObsRow<'_>,
    table: &Table,
    log: &PlayLog,
    roles: &RoleColumns,
    scratch: &mut Map<String, serde_json::Value>,
) {
    let core = table.core();
    let family = table.family();
    let n = core.players();
    let seat = core.to_act;
    // Both stay below 2n, so one subtraction stands for `% n` (a division
    // per use, many times a step).
    let wrap = |x: usize| if x >= n { x - n } else { x };
    let abs = |j: usize| wrap(seat + j);
    let rel = |s: usize| wrap(s + n - seat) as i8;
    row.seat[0] = seat as i8;
    row.phase[0] = phase_id(core.phase);
    *slot_row(row.hand, 0) = core.hands[seat].counts.0;
    for j in 0..n {
        let s = abs(j);
        row.cards_left[j] = core.hands[s].len() as i16;
        *slot_row(row.played, j) = log.played[s].0;
        let (state, cards) = match log.trick[s] {
            None => (-1, Cards::EMPTY),
            Some(None) => (0, Cards::EMPTY),
            Some(Some(m)) => (1, m.cards),
        };
        row.trick_state[j] = state;
        *slot_row(row.trick, j) = cards.0;
        row.seen[j] = false;
        *slot_row(row.seen_hands, j) = [0; SLOTS];
    }
    for s in family.hands_seen_by(core, seat) {
        let j = rel(s) as usize;
        row.seen[j] = true;
        *slot_row(row.seen_hands, j) = core.hands[s].counts.0;
    }
    let kitty_seen = family.kitty_seen_by(core, seat);
    row.kitty_seen[0] = kitty_seen;
    let kitty = if kitty_seen {
        deal::count(&core.kitty)
    } else {
        Cards::EMPTY
    };
    *slot_row(row.kitty, 0) = kitty.0;
    match (core.tricks.last, core.tricks.last_seat) {
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
    // The log's plays in order (walked, not indexed: a deque's index
    // costs a wrap per lookup), then empty rows.
    let mut kept = log.recent.iter();
    for i in 0..row.recent_seat.len() {
        let cells = slot_row(row.recent, i);
        match kept.next() {
            Some((s, play)) => {
                row.recent_seat[i] = rel(*s);
                match play {
                    Some(m) => {
                        *cells = m.cards.0;
                        row.recent_kind[i] = describe_play(m).0;
                    }
                    None => {
                        *cells = [0; SLOTS];
                        row.recent_kind[i] = PASS;
                    }
                }
            }
            None => {
                *cells = [0; SLOTS];
                row.recent_seat[i] = -1;
                row.recent_kind[i] = -1;
            }
        }
    }
    if !roles.is_empty() && !roles.write_ints(core, family, seat, row.roles) {
        // Nulls rather than `clear`: the map keeps its keys and nodes from
        // step to step, and a key the family leaves out this time reads as
        // null, which `RoleColumns` encodes as it does a missing key.
        scratch
            .values_mut()
            .for_each(|v| *v = serde_json::Value::Null);
        family.observe(core, seat, scratch);
        roles.write(scratch, seat, n, row.roles);
    }
    row.multiplier[0] = scoring::stake(&core.events);
}
