//! The result arrays of a simulation, one row per deal, allocated once at
//! their final size so that a run keeps no memory per deal beyond them.

use super::Outcome;
use crate::batch::{check_size, TooBig};

/// Six-player-3v3 rows: open landlords and hidden landlords, padded with -1.
pub const OPEN_WIDTH: usize = 3;
pub const HIDDEN_WIDTH: usize = 2;

/// Columns of `games` outcomes (scores: `players` per row; the landlord
/// lists only when `landlord_lists`).
#[derive(Debug, Default)]
pub struct Columns {
    pub players: usize,
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
fn row_bytes(players: usize, landlord_lists: bool) -> u64 {
    let base = 8 * 5 + 2 + 8 * players;
    let lists = 8 * (OPEN_WIDTH + HIDDEN_WIDTH) + HIDDEN_WIDTH;
    (base + if landlord_lists { lists } else { 0 }) as u64
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
    pub fn new(games: u64, players: usize, landlord_lists: bool) -> Result<Self, TooBig> {
        let what = || format!("{games} deals");
        let bytes = games.checked_mul(row_bytes(players, landlord_lists));
        check_size(what, bytes)?;
        let n = games as usize;
        let mut c = Columns {
            players,
            ..Columns::default()
        };
        reserve(&mut c.landlord, n, &what)?;
        reserve(&mut c.landlord_won, n, &what)?;
        reserve(&mut c.hidden_landlord, n, &what)?;
        reserve(&mut c.revealed, n, &what)?;
        reserve(&mut c.turns, n, &what)?;
        reserve(&mut c.bombs, n, &what)?;
        reserve(&mut c.multiplier, n, &what)?;
        reserve(&mut c.scores, n * players, &what)?;
        if landlord_lists {
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
        self.hidden_landlord
            .push(o.hidden_landlord.map_or(-1, |h| h as i64));
        self.revealed.push(o.revealed);
        self.turns.push(o.turns as i64);
        self.bombs.push(o.bombs as i64);
        self.multiplier.push(o.multiplier);
        self.scores
            .extend((0..self.players).map(|s| o.scores.get(s).copied().unwrap_or(0)));
        if self.open_landlords.capacity() > 0 {
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
        let e = Columns::new(10u64.pow(12), 3, false).unwrap_err();
        assert_eq!(e.bytes, Some(10u64.pow(12) * row_bytes(3, false)));
        assert!(e.to_string().contains("1000000000000 deals need"));
        let e = Columns::new(1 << 63, 6, true).unwrap_err();
        assert_eq!(e.bytes, None);
        assert!(e.to_string().contains("more than 2**64 bytes"));
    }

    #[test]
    fn rows_keep_their_width() {
        let mut c = Columns::new(2, 6, true).unwrap();
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
        assert_eq!(&c.open_landlords[..3], &[2, -1, -1]);
        assert_eq!(&c.hidden_revealed[..2], &[false, true]);
    }
}
