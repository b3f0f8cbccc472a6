//! Choosing a landlord by bids or calls. An auction is a small state
//! machine: `legal` lists a seat's choices, `apply` records one, and
//! `ended` says how it finished (a taker and bid, or a redeal).

use super::action::Action;

/// How an auction finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// `seat` takes it at `bid`; `forced` when nobody bid and a rule made
    /// a seat take it at 1.
    Taken { seat: usize, bid: u8, forced: bool },
    /// Everyone passed: deal again.
    Redeal,
}

/// The procedures the presets use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Procedure {
    /// Bids 1-3 or pass, each above the standing bid, round and round. Ends
    /// at a 3, or once every other seat has passed since the last bid.
    Rounds,
    /// Call or pass in turn; the first call takes it at 1.
    Call,
    /// Each seat bids once, in order; a 3 ends it at once.
    Once,
}

/// What happens when every seat passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllPass {
    Redeal,
    /// The first seat in bidding order whose flag is set must take it at 1
    /// (laizi: a strong hand); redeal when none is.
    FirstFlagged(u32),
    /// The first seat in bidding order that may bid takes it at 1.
    FirstEligible,
}

#[derive(Clone, Debug)]
pub struct Auction {
    procedure: Procedure,
    players: usize,
    pub first: usize,
    /// Seats that take their turn but may only pass (a bit per seat).
    barred: u32,
    all_pass: AllPass,
    pub bid: u8,
    pub high: Option<usize>,
    passes: usize,
    turns: usize,
    /// Seats that have had their turn (a bit per seat).
    pub bidders: u32,
    pub ended: Option<Ended>,
}

impl Auction {
    pub fn new(procedure: Procedure, players: usize, first: usize, all_pass: AllPass) -> Self {
        Auction {
            procedure,
            players,
            first,
            barred: 0,
            all_pass,
            bid: 0,
            high: None,
            passes: 0,
            turns: 0,
            bidders: 0,
            ended: None,
        }
    }

    /// The seats that may only pass (a bit per seat).
    pub fn barred(&self) -> u32 {
        self.barred
    }

    /// Bar other seats (a search's sample, whose copies lie elsewhere).
    pub fn set_barred(&mut self, barred: u32) {
        self.barred = barred;
    }

    /// The same auction where `barred` seats (a bit per seat) may only pass.
    pub fn barring(mut self, barred: u32) -> Self {
        self.barred = barred;
        self
    }

    /// The seats in bidding order.
    pub fn order(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.players).map(|i| (self.first + i) % self.players)
    }

    pub fn legal(&self, seat: usize, out: &mut Vec<Action>) {
        out.push(Action::Pass);
        if self.barred >> seat & 1 == 1 {
            return;
        }
        match self.procedure {
            Procedure::Call => out.push(Action::Call),
            Procedure::Rounds | Procedure::Once => {
                out.extend((self.bid + 1..=3).map(Action::Bid));
            }
        }
    }

    /// Record `seat`'s legal `action`.
    pub fn apply(&mut self, seat: usize, action: Action) {
        self.turns += 1;
        self.bidders |= 1 << seat;
        match action {
            Action::Call => {
                self.ended = Some(Ended::Taken {
                    seat,
                    bid: 1,
                    forced: false,
                });
                return;
            }
            Action::Bid(b) => {
                self.bid = b;
                self.high = Some(seat);
                self.passes = 0;
            }
            _ => self.passes += 1,
        }
        let everyone_had_a_turn = match self.procedure {
            Procedure::Once => self.turns == self.players,
            Procedure::Call | Procedure::Rounds => {
                self.high.is_none() && self.passes == self.players
            }
        };
        let taken = |seat| Ended::Taken {
            seat,
            bid: self.bid,
            forced: false,
        };
        self.ended = match self.high {
            Some(h) if self.bid == 3 => Some(taken(h)),
            Some(h) if self.procedure == Procedure::Rounds && self.passes == self.players - 1 => {
                Some(taken(h))
            }
            Some(h) if everyone_had_a_turn => Some(taken(h)),
            None if everyone_had_a_turn => Some(self.nobody_bid()),
            _ => None,
        };
    }

    fn nobody_bid(&self) -> Ended {
        let forced = |seat| Ended::Taken {
            seat,
            bid: 1,
            forced: true,
        };
        let pick = match self.all_pass {
            AllPass::Redeal => None,
            AllPass::FirstFlagged(flags) => self.order().find(|&s| flags >> s & 1 == 1),
            AllPass::FirstEligible => self.order().find(|&s| self.barred >> s & 1 == 0),
        };
        pick.map_or(Ended::Redeal, forced)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(mut a: Auction, actions: &[Action]) -> Option<Ended> {
        let mut seat = a.first;
        for &action in actions {
            let mut legal = Vec::new();
            a.legal(seat, &mut legal);
            assert!(legal.contains(&action), "{action} for {seat}: {legal:?}");
            a.apply(seat, action);
            seat = (seat + 1) % a.players;
        }
        a.ended
    }

    use Action::{Bid, Pass};

    #[test]
    fn rounds_end_at_three_or_when_the_others_pass() {
        let a = || Auction::new(Procedure::Rounds, 3, 1, AllPass::Redeal);
        let taken = |seat, bid| {
            Some(Ended::Taken {
                seat,
                bid,
                forced: false,
            })
        };
        assert_eq!(run(a(), &[Bid(1), Bid(3)]), taken(2, 3));
        assert_eq!(run(a(), &[Bid(1), Pass, Pass]), taken(1, 1));
        assert_eq!(run(a(), &[Pass, Bid(1), Pass]), None);
        assert_eq!(run(a(), &[Pass, Bid(1), Pass, Pass]), taken(2, 1));
        assert_eq!(run(a(), &[Pass, Pass, Pass]), Some(Ended::Redeal));
    }

    #[test]
    fn once_round_and_the_forced_taker() {
        let strong = 1 << 0;
        let a = || Auction::new(Procedure::Once, 3, 1, AllPass::FirstFlagged(strong));
        assert_eq!(
            run(a(), &[Pass, Pass, Pass]),
            Some(Ended::Taken {
                seat: 0,
                bid: 1,
                forced: true
            })
        );
        let taken = Ended::Taken {
            seat: 2,
            bid: 2,
            forced: false,
        };
        assert_eq!(run(a(), &[Bid(1), Bid(2), Pass]), Some(taken));
        let none = Auction::new(Procedure::Once, 3, 0, AllPass::FirstFlagged(0));
        assert_eq!(run(none, &[Pass, Pass, Pass]), Some(Ended::Redeal));
    }

    #[test]
    fn calls_and_barred_seats() {
        let c = Auction::new(Procedure::Call, 2, 1, AllPass::Redeal);
        let called = Ended::Taken {
            seat: 0,
            bid: 1,
            forced: false,
        };
        assert_eq!(run(c.clone(), &[Pass, Action::Call]), Some(called));
        assert_eq!(run(c, &[Pass, Pass]), Some(Ended::Redeal));
        let barred = Auction::new(Procedure::Rounds, 3, 0, AllPass::FirstEligible).barring(1);
        let mut legal = Vec::new();
        barred.legal(0, &mut legal);
        assert_eq!(legal, vec![Pass]);
        let forced = Ended::Taken {
            seat: 1,
            bid: 1,
            forced: true,
        };
        assert_eq!(run(barred, &[Pass, Pass, Pass]), Some(forced));
    }
}
