//! The result arrays of a simulation, one row per deal, allocated once at
//! their final size so that a run keeps no memory per deal beyond them.

use super::Outcome;
use crate::batch::{check_size, TooBig};
use crate::rules::Flow;

/// Six-player-3v3 rows: open landlords and hidden landlords, padded with -1.
pub const OPEN_WIDTH: usize = 3;
pub const HIDDEN_WIDTH: usize = 2;

/// Which columns a flow reports beyond the landlord, the winner, turns,
/// bombs, multiplier and scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    None,
    /// `hidden_landlord` and `revealed` (the flows `hidden_partner`,
    /// `called_friend`, `two_marks`).
    Partner,
    /// The open and hidden landlord lists (`three_copies`).
    LandlordLists,
}

impl Extra {
    pub fn of(flow: Flow) -> Extra {
        match flow {
            Flow::OneLandlord => Extra::None,
            Flow::HiddenPartner | Flow::CalledFriend | Flow::TwoMarks => Extra::Partner,
            Flow::ThreeCopies => Extra::LandlordLists,
        }
    }
}

/// Columns of `games` outcomes (scores: `players` per row), with the
/// preset's `Extra` columns only.
#[derive(Debug, Default)]
pub struct Columns {
    pub players: usize,
    pub extra: Option<Extra>,
    pub landlord: Vec<i64>,
    pub landlord_won: Vec<bool>,
    pub hidden_landlord: Vec<i64>,
    pub revealed: Vec<bool>,
    pub turns: Vec<i64>,
    pub bombs: Vec<i64>,
    pub multiplier: Vec<i64>,
    pub scores: Vec<i64>,
    pub open_landlords: Vec<i64>,
    pub hidden_landlords: Vec<i64>,
    pub hidden_revealed: Vec<bool>,
}

/// Bytes of one row.
fn row_bytes(players: usize, extra: Extra) -> u64 {
    let base = 8 * 4 + 1 + 8 * players;
    let more = match extra {
        Extra::None => 0,
        Extra::Partner => 8 + 1,
        Extra::LandlordLists => 8 * (OPEN_WIDTH + HIDDEN_WIDTH) + HIDDEN_WIDTH,
    };
    (base + more) as u64
}

fn reserve<T>(v: &mut Vec<T>, n: usize, what: &dyn Fn() -> String) -> Result<(), TooBig> {
    v.try_reserve_exact(n).map_err(|_| TooBig {
        what: what(),
        bytes: (n as u64).checked_mul(std::mem::size_of::<T>() as u64),
        limit: None,
    })
}

impl Columns {
    /// Room for `games` rows, or `TooBig` naming the size and the limit.
    pub fn new(games: u64, players: usize, extra: Extra) -> Result<Self, TooBig> {
        let what = || format!("{games} deals");
        let bytes = games.checked_mul(row_bytes(players, extra));
        check_size(what, bytes)?;
        let n = games as usize;
        let mut c = Columns {
            players,
            extra: Some(extra),
            ..Columns::default()
        };
        reserve(&mut c.landlord, n, &what)?;
        reserve(&mut c.landlord_won, n, &what)?;
        if extra == Extra::Partner {
            reserve(&mut c.hidden_landlord, n, &what)?;
            reserve(&mut c.revealed, n, &what)?;
        }
        reserve(&mut c.turns, n, &what)?;
        reserve(&mut c.bombs, n, &what)?;
        reserve(&mut c.multiplier, n, &what)?;
        reserve(&mut c.scores, n * players, &what)?;
        if extra == Extra::LandlordLists {
            reserve(&mut c.open_landlords, n * OPEN_WIDTH, &what)?;
            reserve(&mut c.hidden_landlords, n * HIDDEN_WIDTH, &what)?;
            reserve(&mut c.hidden_revealed, n * HIDDEN_WIDTH, &what)?;
        }
        Ok(c)
    }

    pub fn len(&self) -> usize {
        self.landlord.len()
    }

    pub fn is_empty(&self) -> bool {
        self.landlord.is_empty()
    }

    /// Append one deal's row.
    pub fn push(&mut self, o: &Outcome) {
        self.landlord.push(o.landlord as i64);
        self.landlord_won.push(o.landlord_won);
        if self.extra == Some(Extra::Partner) {
            self.hidden_landlord
                .push(o.hidden_landlord.map_or(-1, |h| h as i64));
            self.revealed.push(o.revealed);
        }
        self.turns.push(o.turns as i64);
        self.bombs.push(o.bombs as i64);
        self.multiplier.push(o.multiplier);
        self.scores
            .extend((0..self.players).map(|s| o.scores.get(s).copied().unwrap_or(0)));
        if self.extra == Some(Extra::LandlordLists) {
            let padded = |seats: &[usize], i: usize| seats.get(i).map_or(-1, |&s| s as i64);
            self.open_landlords
                .extend((0..OPEN_WIDTH).map(|i| padded(&o.open_landlords, i)));
            self.hidden_landlords
                .extend((0..HIDDEN_WIDTH).map(|i| padded(&o.hidden_landlords, i)));
            self.hidden_revealed.extend((0..HIDDEN_WIDTH).map(|i| {
                o.hidden_landlords
                    .get(i)
                    .is_some_and(|h| o.revealed_landlords.contains(h))
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_too_big_for_memory_is_refused_before_any_work() {
        let e = Columns::new(10u64.pow(12), 3, Extra::None).unwrap_err();
        assert_eq!(e.bytes, Some(10u64.pow(12) * row_bytes(3, Extra::None)));
        assert!(e.to_string().contains("1000000000000 deals need"));
        let e = Columns::new(1 << 63, 6, Extra::LandlordLists).unwrap_err();
        assert_eq!(e.bytes, None);
        assert!(e.to_string().contains("more than 2**64 bytes"));
    }

    #[test]
    fn rows_keep_their_width() {
        let mut c = Columns::new(2, 6, Extra::LandlordLists).unwrap();
        let o = Outcome {
            scores: vec![1, -1, 1, -1, 1, -1],
            open_landlords: vec![2],
            hidden_landlords: vec![4, 5],
            revealed_landlords: vec![5],
            ..Outcome::default()
        };
        c.push(&o);
        c.push(&o);
        assert_eq!(c.len(), 2);
        assert_eq!(c.scores.len(), 12);
        assert!(c.hidden_landlord.is_empty());
        assert_eq!(&c.open_landlords[..3], &[2, -1, -1]);
        assert_eq!(&c.hidden_revealed[..2], &[false, true]);
    }
}
