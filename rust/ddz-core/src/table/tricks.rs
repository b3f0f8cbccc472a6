//! Trick play: lead, follow or pass; once every other seat has passed, the
//! last player leads a new trick.

use crate::play::Move;

#[derive(Clone, Debug)]
pub struct Tricks {
    /// The play to beat, None when leading.
    pub last: Option<Move>,
    pub last_seat: Option<usize>,
    passes: usize,
    /// Plays (not passes) made by each seat: the spring rule reads them.
    pub plays_by_seat: Vec<u32>,
}

impl Tricks {
    pub fn new(players: usize) -> Self {
        Tricks {
            last: None,
            last_seat: None,
            passes: 0,
            plays_by_seat: vec![0; players],
        }
    }

    /// A new deal: no play yet.
    pub fn reset(&mut self) {
        self.last = None;
        self.last_seat = None;
        self.passes = 0;
        self.plays_by_seat.fill(0);
    }

    pub fn leading(&self) -> bool {
        self.last.is_none()
    }

    pub fn play(&mut self, seat: usize, m: Move) {
        self.last = Some(m);
        self.last_seat = Some(seat);
        self.passes = 0;
        self.plays_by_seat[seat] += 1;
    }

    pub fn pass(&mut self) {
        self.passes += 1;
        if self.passes == self.plays_by_seat.len() - 1 {
            self.last = None;
            self.passes = 0;
        }
    }
}
