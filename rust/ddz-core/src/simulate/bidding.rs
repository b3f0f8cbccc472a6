//! Bids of 1 to 3 as the Python flows take them: each seat passes or bids
//! above the standing bid, and a 3 ends the bidding. Round and round
//! (classic, four-player, six-player-3v3) or once round (laizi,
//! six-player-2v4); what follows when nobody bids is each flow's own.

use super::{Action, Policy, Rng, Table};

impl Table<'_> {
    /// Bids round and round from `first` until a 3, or until every other
    /// seat has passed after a bid. `barred` seats take their turn but may
    /// only pass. Returns the high bidder and the bid, or None when every
    /// seat passed.
    pub(super) fn bid_around(
        &mut self,
        first: usize,
        barred: &[usize],
        rng: &mut Rng,
    ) -> Option<(usize, u8)> {
        let n = self.players();
        let mut bid = 0u8;
        let mut high = None;
        let mut passes = 0;
        let mut seat = first;
        loop {
            match self.bid_turn(seat, bid, !barred.contains(&seat), rng) {
                None => passes += 1,
                Some(raised) => {
                    bid = raised;
                    high = Some(seat);
                    passes = 0;
                }
            }
            match high {
                Some(h) if bid == 3 || passes == n - 1 => return Some((h, bid)),
                None if passes == n => return None,
                _ => {}
            }
            seat = (seat + 1) % n;
        }
    }

    /// One turn each from `first`; a 3 ends it early. Returns the high
    /// bidder and the bid, or None when every seat passed.
    pub(super) fn bid_once(&mut self, first: usize, rng: &mut Rng) -> Option<(usize, u8)> {
        let n = self.players();
        let mut bid = 0u8;
        let mut high = None;
        for seat in (0..n).map(|i| (first + i) % n) {
            if let Some(raised) = self.bid_turn(seat, bid, true, rng) {
                bid = raised;
                high = Some(seat);
                if bid == 3 {
                    break;
                }
            }
        }
        high.map(|h| (h, bid))
    }

    /// `seat`'s turn over the standing `bid`; a seat that may not bid
    /// passes without a draw. Returns the new bid, or None for a pass.
    fn bid_turn(&mut self, seat: usize, bid: u8, may_bid: bool, rng: &mut Rng) -> Option<u8> {
        // Python lists pass, then bid:bid+1 ..= bid:3; greedy bids lowest.
        let raise = match self.policy {
            _ if !may_bid => 0,
            Policy::Random => rng.below(1 + 3 - bid as usize) as u8,
            Policy::Greedy => 1,
        };
        if raise == 0 {
            self.log(seat, Action::Pass);
            return None;
        }
        self.log(seat, Action::Bid(bid + raise));
        Some(bid + raise)
    }
}
