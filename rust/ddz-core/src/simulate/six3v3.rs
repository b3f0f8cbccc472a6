//! `six-player-3v3` (source 000, no kitty) and `six-player-3v3-kitty`
//! (source 002, 12 cards for the open landlords): three landlords against
//! three farmers, some of them hidden (python/ddz/game/flows/six_3v3.py,
//! `ThreeVThreeFlow`).
//!
//! One dealt non-joker card is marked (with a kitty, only a card of which
//! no copy lies there); its receiver is an open landlord. Three decks hold
//! two more copies, and where they lie decides the rest: in two other
//! hands, both holders are hidden landlords; one with the receiver, the
//! other holder is hidden and a bidding adds an open landlord; both in one
//! other hand, that seat is open (no kitty) or hidden (kitty) and a bidding
//! adds the third; all three with the receiver, the deal is won at once (no
//! kitty) or two biddings add two open landlords (kitty). Copy holders and
//! open landlords may only pass in a bidding. The open landlords take the
//! kitty from the top as dealt, in the order they were named; each seat may
//! double (+1 to N) and the receiver leads. Winners get W = S x N, losers
//! lose it.
//!
//! A hidden landlord becomes public by playing a physical copy of the
//! marked card, so the suits of the marked rank are followed through the
//! play: Python's `Game` takes the lowest suits first, and the records name
//! the copies each play takes ("ids").

use super::copies::Copies;
use super::deck::{count, Cut, KittyOrder};
use super::{Action, Card, Dealt, Outcome, Rng, Table};
use crate::play::{Kind, Move};

/// Which source's rules.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Variant {
    /// `six-player-3v3` (source 000): no kitty.
    NoKitty,
    /// `six-player-3v3-kitty` (source 002): a 12-card kitty.
    Kitty,
}

/// The base S with two hidden landlords (there is no bidding).
const HIDDEN_BASE: i64 = 3;
/// What the receiver of all three copies collects from each other seat
/// (source 000).
const AUTO_WIN_BASE: i64 = 2;
/// Smallest rank bomb that adds 1 to N.
const BIG_BOMB: u8 = 6;

/// What a play adds to N: a king bomb by its jokers (Python's
/// `KING_BOMB_STEP`), a rank bomb of `BIG_BOMB` cards or more 1.
fn n_step(m: &Move) -> i64 {
    match m.kind {
        Kind::KingBomb => match m.length {
            3 | 4 => 1,
            5 => 3,
            6 => 5,
            jokers => unreachable!("no king bomb of {jokers} jokers in these presets"),
        },
        Kind::Bomb if m.length >= BIG_BOMB => 1,
        _ => 0,
    }
}

/// A bit per identity (rank slot and suit), to tell which lie in the kitty.
fn identity_bit(c: &Card) -> u64 {
    1 << (c.slot as u32 * 4 + c.suit as u32)
}

/// The seats holding the two copies of the marked card besides the
/// receiver's, lowest first, a seat twice if it holds both (Python's `a, b`).
fn other_copies(copies: &Copies, receiver: usize) -> (usize, usize) {
    let mut seats = (0..copies.held.len()).flat_map(|s| {
        let held = copies.held[s][copies.suit] - (s == receiver) as u8;
        std::iter::repeat_n(s, held as usize)
    });
    let a = seats.next().expect("three copies in the hands");
    let b = seats.next().expect("three copies in the hands");
    debug_assert_eq!(seats.next(), None);
    (a, b)
}

pub(super) struct Deal<'e> {
    t: Table<'e>,
    variant: Variant,
}

impl<'e> Deal<'e> {
    pub(super) fn new(t: Table<'e>, variant: Variant) -> Self {
        Deal { t, variant }
    }

    /// A shuffled deal, the kitty left in dealt order, and one dealt
    /// non-joker card with no copy in the kitty marked, uniformly among all
    /// such cards in the hands (Python's `ThreeVThreeFlow.deal`); its
    /// receiver is `first`. Also returns the kitty and the copies of the
    /// marked rank in each hand.
    fn deal(&mut self, rng: &mut Rng) -> (Dealt, Vec<Card>, Copies) {
        let cut = Cut::shuffled(self.t.rules(), rng);
        let in_kitty = cut.kitty().iter().fold(0, |bits, c| bits | identity_bit(c));
        let markable = |c: Card| c.suited() && in_kitty & identity_bit(&c) == 0;
        let (marked, receiver) = cut.mark(rng, markable);
        let copies = Copies::dealt(&cut, marked);
        let dealt = cut.dealt((marked, receiver), None, KittyOrder::AsDealt, self.t.record);
        (dealt, cut.kitty().to_vec(), copies)
    }

    pub(super) fn run(mut self, rng: &mut Rng) -> Outcome {
        let n = self.t.players();
        let (dealt, kitty, mut copies) = self.deal(rng);
        self.t.deal_log(&dealt);
        let receiver = dealt.first;
        let kitty_rules = self.variant == Variant::Kitty;

        // The roles by where the other two copies lie; then the rounds of
        // bidding, the seat each first round starts after, and the seats
        // that may only pass.
        let mut open = vec![receiver];
        let mut hidden = Vec::new();
        let (a, b) = other_copies(&copies, receiver);
        let (rounds, mut after, mut barred) = if a != b && a != receiver && b != receiver {
            hidden = vec![a, b];
            (0, receiver, vec![])
        } else if a == receiver && b == receiver {
            if !kitty_rules {
                return self.auto_win(receiver);
            }
            (2, receiver, vec![receiver])
        } else if a == receiver || b == receiver {
            // Case (1): a second copy with the receiver.
            let third = if a == receiver { b } else { a };
            hidden = vec![third];
            (1, receiver, vec![receiver, third])
        } else if kitty_rules {
            // Case (2), source 002: the double holder is hidden.
            hidden = vec![a];
            (1, receiver, vec![receiver, a])
        } else {
            // Case (2), source 000: the double holder is announced.
            open.push(a);
            (1, a, vec![receiver, a])
        };
        let mut base = HIDDEN_BASE;
        for round in 0..rounds {
            let (landlord, bid) = self.bidding(after, &barred, rng);
            open.push(landlord);
            base = if round == 0 { bid } else { base.max(bid) };
            after = landlord;
            barred.clone_from(&open);
        }

        // The kitty from the top, in equal shares, in the order named.
        let mut hands = dealt.hands;
        if !kitty.is_empty() {
            let size = kitty.len() / open.len();
            for (share, &seat) in kitty.chunks(size).zip(&open) {
                hands[seat] = hands[seat] + count(share);
                copies.add(seat, share);
            }
        }

        // N: 1, +1 per double, and the bombs' steps.
        let mut count_n = 1i64;
        for seat in (0..n).map(|i| (receiver + i) % n) {
            let double = self.t.accepts(rng);
            self.t.log(seat, Action::Double(double));
            count_n += double as i64;
        }

        let mut revealed = Vec::new();
        let (winner, _) = self.t.tricks(&mut hands, receiver, rng, &mut |seat, m, _| {
            count_n += n_step(m);
            let named = copies.take(seat, m.cards.get(copies.rank));
            let shows = named.is_some_and(|x| x.suits[copies.suit] > 0);
            if shows && hidden.contains(&seat) && !revealed.contains(&seat) {
                revealed.push(seat);
            }
            named
        });

        let landlord = |s: usize| open.contains(&s) || hidden.contains(&s);
        let won = landlord(winner);
        let w = base * count_n;
        let out = &mut self.t.out;
        out.scores = (0..n)
            .map(|s| if landlord(s) == won { w } else { -w })
            .collect();
        out.landlord = receiver;
        out.landlord_won = won;
        out.multiplier = w;
        out.open_landlords = open;
        out.hidden_landlords = hidden;
        out.revealed_landlords = revealed;
        self.t.out
    }

    /// Source 000, all three copies with the receiver: the deal ends before
    /// any bidding, and the receiver collects the base from each seat.
    fn auto_win(mut self, receiver: usize) -> Outcome {
        let n = self.t.players();
        let out = &mut self.t.out;
        out.scores = (0..n)
            .map(|s| {
                if s == receiver {
                    AUTO_WIN_BASE * (n as i64 - 1)
                } else {
                    -AUTO_WIN_BASE
                }
            })
            .collect();
        out.landlord = receiver;
        out.landlord_won = true;
        out.multiplier = AUTO_WIN_BASE;
        out.open_landlords = vec![receiver];
        self.t.out
    }

    /// One round of Python's `BarredBidding` from the seat after `after`:
    /// bids above the standing bid, round and round, until a 3 or five
    /// passes after a bid. `barred` seats take their turn but may only
    /// pass. If all six pass, the first seat in order that is not barred
    /// takes it at 1. Returns the new open landlord and the bid.
    fn bidding(&mut self, after: usize, barred: &[usize], rng: &mut Rng) -> (usize, i64) {
        let n = self.t.players();
        let first = (after + 1) % n;
        if let Some((seat, bid)) = self.t.bid_around(first, barred, rng) {
            return (seat, i64::from(bid));
        }
        let taker = (0..n)
            .map(|i| (first + i) % n)
            .find(|s| !barred.contains(s))
            .expect("a seat may bid");
        (taker, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::super::deck::is_whole_deck;
    use super::super::tests::engine;
    use super::super::{identities, simulate, Policy};
    use super::*;

    #[test]
    fn bombs_add_to_n_as_in_python() {
        let e = engine("six-player-3v3");
        let step_of = |cards: &str| {
            let moves = e.classify(&crate::cards::Cards::parse(cards).unwrap());
            moves.iter().map(n_step).max().unwrap()
        };
        // KING_BOMB_STEP = {3: 1, 4: 1, 5: 3, 6: 5}; rank bombs of 6+: 1.
        let cases = [
            ("XXX", 1),
            ("XXDD", 1),
            ("XXXDD", 3),
            ("XXXDDD", 5),
            ("33333", 0),
            ("333333", 1),
            ("333333333333", 1),
        ];
        for (cards, step) in cases {
            assert_eq!(step_of(cards), step, "{cards}");
        }
    }

    #[test]
    fn roles_follow_the_copies_and_scores_follow_the_sides() {
        for preset in ["six-player-3v3", "six-player-3v3-kitty"] {
            let e = engine(preset);
            let mut unsorted_kitties = 0;
            for policy in [Policy::Random, Policy::Greedy] {
                for o in simulate(&e, 300, 6, 2, policy, 300).unwrap() {
                    let d = &o.deals[0];
                    let s = d.suited.as_ref().unwrap();
                    assert!(is_whole_deck(s, e.rules()));
                    assert!(s.marked.suited() && !s.kitty.contains(&s.marked));
                    let kitty: String = s.kitty.iter().map(Card::to_string).collect();
                    unsorted_kitties += (kitty != identities(&s.kitty)) as usize;

                    let holders: Vec<usize> = (0..6)
                        .flat_map(|p| {
                            let k = s.hands[p].iter().filter(|&&c| c == s.marked).count();
                            std::iter::repeat_n(p, k)
                        })
                        .collect();
                    assert_eq!(holders.len(), 3);
                    assert_eq!(o.open_landlords[0], d.first);
                    assert_eq!(o.landlord, d.first);
                    assert_eq!(o.scores.iter().sum::<i64>(), 0);
                    let w = o.multiplier;
                    if holders.iter().all(|&p| p == d.first) && preset == "six-player-3v3" {
                        assert_eq!((o.open_landlords.len(), o.turns, w), (1, 0, 2));
                        assert_eq!(o.scores[d.first], 10);
                        continue;
                    }
                    let mut landlords = o.open_landlords.clone();
                    landlords.extend(&o.hidden_landlords);
                    landlords.sort_unstable();
                    landlords.dedup();
                    assert_eq!(landlords.len(), 3);
                    assert!(holders.iter().all(|p| landlords.contains(p)));
                    assert!(o
                        .revealed_landlords
                        .iter()
                        .all(|r| o.hidden_landlords.contains(r)));
                    for (seat, &score) in o.scores.iter().enumerate() {
                        let with_landlords = landlords.contains(&seat) == o.landlord_won;
                        assert_eq!(score, if with_landlords { w } else { -w });
                    }
                    if policy == Policy::Greedy {
                        // Nobody doubles: the base and big bombs only.
                        assert!(o.actions.iter().all(|(_, a)| *a != Action::Double(true)));
                    }
                }
            }
            // The kitty is recorded as dealt, which is seldom sorted.
            if preset == "six-player-3v3-kitty" {
                assert!(unsorted_kitties > 500, "{unsorted_kitties}");
            }
        }
    }
}
