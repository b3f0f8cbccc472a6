//! One landlord against the rest: classic, two-player, four-player, laizi
//! (python/ddz/game/flows/landlord.py).

use super::{spring_factor, Action, Dealt, Outcome, Policy, Rng, Table};
use crate::cards::{Cards, BIG_JOKER, SMALL_JOKER, TWO};
use crate::play::Kind;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Auction {
    /// Bids 1-3 round and round (classic, four-player).
    Bid,
    /// Call or pass (two-player).
    Call,
    /// One bid each, kicks after a 3 (laizi).
    BidOnce,
}

pub(super) fn auction_of(preset: &str) -> Option<Auction> {
    match preset {
        "classic" | "four-player" => Some(Auction::Bid),
        "two-player" => Some(Auction::Call),
        "laizi" => Some(Auction::BidOnce),
        _ => None,
    }
}

pub(super) struct Deal<'e> {
    t: Table<'e>,
    auction: Auction,
}

impl<'e> Deal<'e> {
    pub(super) fn new(t: Table<'e>, auction: Auction) -> Self {
        Deal { t, auction }
    }

    fn deal(&mut self, rng: &mut Rng) -> Dealt {
        let rules = self.t.rules();
        let mut deck: Vec<u8> = (0..16u8)
            .flat_map(|s| std::iter::repeat_n(s, rules.copies(s as usize) as usize))
            .collect();
        rng.shuffle(&mut deck);
        let n = rules.players as usize;
        let size = rules.hand_size as usize;
        let pile = |cards: &[u8]| {
            let mut c = Cards::EMPTY;
            for &s in cards {
                c.0[s as usize] += 1;
            }
            c
        };
        let hands = (0..n)
            .map(|i| pile(&deck[i * size..(i + 1) * size]))
            .collect();
        let rest = &deck[n * size..];
        let kitty = pile(&rest[..rules.kitty as usize]);
        let set_aside = pile(&rest[rules.kitty as usize..]);
        Dealt {
            hands,
            kitty,
            set_aside,
            first: rng.below(n),
            suited: None,
        }
    }

    pub(super) fn run(mut self, rng: &mut Rng) -> Outcome {
        let n = self.t.players();
        let (dealt, landlord, mut stake) = loop {
            let dealt = self.deal(rng);
            self.t.deal_log(&dealt);
            if let Some((landlord, bid)) = self.choose_landlord(&dealt, rng) {
                break (dealt, landlord, bid);
            }
        };
        if self.auction == Auction::BidOnce && stake == 3 {
            stake *= self.kicks(&dealt, landlord, rng);
        }
        let mut hands = dealt.hands.clone();
        hands[landlord] = hands[landlord] + dealt.kitty;
        self.t.out.landlord = landlord;
        // Four-player doubles for rank bombs of 6 cards or more only.
        let doubling_bomb = if self.t.rules().preset == "four-player" {
            6
        } else {
            4
        };
        let mut doublings = 0;
        let (winner, plays) = self.t.tricks(&mut hands, landlord, rng, &mut |_, m, _| {
            let doubles = match m.kind {
                Kind::KingBomb => true,
                Kind::Bomb => m.length >= doubling_bomb,
                _ => false,
            };
            doublings += doubles as u32;
            None
        });
        stake <<= doublings;
        let landlord_won = winner == landlord;
        stake *= spring_factor(self.t.rules(), &plays, &[landlord], landlord_won);
        let sign = if landlord_won { 1 } else { -1 };
        let mut scores = vec![-sign * stake; n];
        scores[landlord] = sign * stake * (n as i64 - 1);
        self.t.out.landlord_won = landlord_won;
        self.t.out.multiplier = stake;
        self.t.out.scores = scores;
        self.t.out
    }

    /// The auction: Some((landlord, bid)), or None for a redeal.
    fn choose_landlord(&mut self, dealt: &Dealt, rng: &mut Rng) -> Option<(usize, i64)> {
        let n = self.t.players();
        let first = dealt.first;
        let taken = match self.auction {
            Auction::Call => {
                let greedy = self.t.policy == Policy::Greedy;
                for seat in (0..n).map(|i| (first + i) % n) {
                    let call = greedy || rng.below(2) == 1;
                    if call {
                        self.t.log(seat, Action::Call);
                        return Some((seat, 1));
                    }
                    self.t.log(seat, Action::Pass);
                }
                None
            }
            Auction::Bid => self.t.bid_around(first, &[], rng),
            Auction::BidOnce => self.t.bid_once(first, rng).or_else(|| {
                // Nobody bid: the first seat holding D with a 2, or X and D, must take it.
                (0..n)
                    .map(|i| (first + i) % n)
                    .find(|&s| {
                        let h = &dealt.hands[s];
                        h.get(BIG_JOKER) > 0 && (h.get(TWO) > 0 || h.get(SMALL_JOKER) > 0)
                    })
                    .map(|s| (s, 1))
            }),
        };
        taken.map(|(seat, bid)| (seat, i64::from(bid)))
    }

    /// Laizi after a bid of 3: the seats that did not bid may kick, then the
    /// landlord may counter-kick. Returns the factor (2 per kick).
    fn kicks(&mut self, dealt: &Dealt, landlord: usize, rng: &mut Rng) -> i64 {
        let n = self.t.players();
        // Seats after the landlord in bidding order have not bid yet.
        let bidders = (landlord + n - dealt.first) % n + 1;
        let mut factor = 1;
        let mut kicked = false;
        for i in bidders..n {
            let seat = (dealt.first + i) % n;
            let kick = self.t.accepts(rng);
            self.t.log(seat, Action::Kick(kick));
            if kick {
                factor *= 2;
                kicked = true;
            }
        }
        if kicked {
            let counter = self.t.accepts(rng);
            self.t.log(landlord, Action::CounterKick(counter));
            if counter {
                factor *= 2;
            }
        }
        factor
    }
}
