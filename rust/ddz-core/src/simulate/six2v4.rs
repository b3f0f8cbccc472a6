//! `six-player-2v4` (新六人) and `six-player-teams` (正反六人): four decks,
//! six players, two marked cards (python/ddz/game/flows/six_2v4.py,
//! `TwoVsFourFlow` and `TeamsFlow`).
//!
//! Two dealt cards are marked: the public mark and the secret mark, each a
//! physical card at a seat. In `six-player-2v4` one round of bidding from
//! the public-mark holder picks the big landlord (nobody bids: the holder),
//! and the secret-mark holder is second landlord; in `six-player-teams` the
//! two holders are the main and the counter landlord and the four farmers
//! pick a side in turn (a full side is closed, so later turns may be
//! forced). One seat holding both marks plays alone with the whole kitty;
//! otherwise the sorted kitty is shared in snake order. Then the auto-win
//! checks (option `auto_win`), the show-hand round and trick play.
//!
//! The stake is additive (1 plus every event): +1 per card over six for a
//! rank bomb, +3 a king bomb of 5 or 6 jokers, +9 seven jokers, +6 all
//! eight (no play events in a solo deal), and +3, +6 or +9 for showing
//! hands. Seven jokers kill the last joker (`seven_star_kills_last_joker`):
//! it leaves its holder's hand, `X` before `D`, which may end the deal.
//!
//! The marks only decide the roles at the start, so after the deal the
//! hands are followed as counts; the records name the marks `card@seat`.

use super::deck::{Cut, KittyOrder};
use super::{Action, Card, Dealt, Outcome, Rng, Table};
use crate::cards::{Cards, BIG_JOKER, LAIZI, SLOTS, SMALL_JOKER, TWO};
use crate::engine::Engine;
use crate::play::Kind;

/// Which presets' flow.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Variant {
    TwoVsFour,
    Teams,
}

/// Python's `_bomb_tables`: which counts of one rank split wholly into
/// bombs, and which (small, big) joker counts into king bombs.
struct BombTables {
    rank_ok: Vec<bool>,
    joker_ok: Vec<Vec<bool>>,
}

impl BombTables {
    fn new(e: &Engine) -> Self {
        let rules = e.rules();
        let most = 4 * rules.decks as usize;
        let is = |cards: Cards, kind: Kind| e.classify(&cards).iter().any(|m| m.kind == kind);
        let sizes: Vec<usize> = (1..=most)
            .filter(|&k| {
                let mut c = Cards::EMPTY;
                c.0[0] = k as u8;
                is(c, Kind::Bomb)
            })
            .collect();
        let mut rank_ok = vec![false; most + 1];
        rank_ok[0] = true;
        for c in 1..=most {
            rank_ok[c] = sizes.iter().any(|&k| k <= c && rank_ok[c - k]);
        }
        let d = rules.decks as usize;
        let mut combos = Vec::new();
        for s in 0..=d {
            for b in 0..=d {
                let mut c = Cards::EMPTY;
                c.0[SMALL_JOKER] = s as u8;
                c.0[BIG_JOKER] = b as u8;
                if s + b > 0 && is(c, Kind::KingBomb) {
                    combos.push((s, b));
                }
            }
        }
        let mut joker_ok = vec![vec![false; d + 1]; d + 1];
        joker_ok[0][0] = true;
        for x in 0..=d {
            for y in 0..=d {
                if x + y > 0 {
                    joker_ok[x][y] = combos
                        .iter()
                        .any(|&(s, b)| s <= x && b <= y && joker_ok[x - s][y - b]);
                }
            }
        }
        BombTables { rank_ok, joker_ok }
    }

    /// Python's `all_bombs` for one hand (an empty hand counts as yes).
    fn all_bombs(&self, c: &Cards) -> bool {
        (0..=TWO).all(|r| self.rank_ok[c.get(r) as usize])
            && self.joker_ok[c.get(SMALL_JOKER) as usize][c.get(BIG_JOKER) as usize]
            && c.get(LAIZI) == 0
    }

    /// Python's `auto_win_reason(...) is not None`.
    fn auto_win(&self, e: &Engine, hand: &Cards) -> bool {
        let moves = e.moves(hand, None);
        if !moves.iter().any(|m| m.kind.is_bomb()) {
            return true; // no-bomb
        }
        self.all_bombs(hand)
            || moves.iter().any(|m| self.all_bombs(&(*hand - m.cards)))
            || moves.iter().any(|m| m.kind == Kind::Bomb && m.length >= 13)
    }
}

/// Python's `split_kitty` as counts: the kitty sorted low to high, dealt
/// first, second, second, first, first, second, ...
fn split_kitty(kitty: &Cards) -> (Cards, Cards) {
    let (mut first, mut second) = (Cards::EMPTY, Cards::EMPTY);
    let mut i = 0;
    for slot in 0..SLOTS {
        for _ in 0..kitty.get(slot) {
            if matches!(i % 4, 0 | 3) {
                first.0[slot] += 1;
            } else {
                second.0[slot] += 1;
            }
            i += 1;
        }
    }
    (first, second)
}

/// Python's `_kill_last_joker`: the last joker leaves the first hand
/// holding one, from `seat` round (a sorted hand gives `X` before `D`).
/// Returns the seat and the slot of the dead card.
fn kill_last_joker(hands: &mut [Cards], seat: usize) -> Option<(usize, usize)> {
    let n = hands.len();
    for s in (0..n).map(|i| (seat + i) % n) {
        for slot in [SMALL_JOKER, BIG_JOKER] {
            if hands[s].get(slot) > 0 {
                hands[s].0[slot] -= 1;
                return Some((s, slot));
            }
        }
    }
    None
}

pub(super) struct Deal<'e> {
    t: Table<'e>,
    variant: Variant,
}

impl<'e> Deal<'e> {
    pub(super) fn new(t: Table<'e>, variant: Variant) -> Self {
        Deal { t, variant }
    }

    /// A shuffled deal and two distinct dealt positions marked, uniformly
    /// (Python's `MarkedSixFlow.deal`): the public and the secret mark,
    /// each as (card, seat). `first` is the public mark's seat.
    fn deal(&mut self, rng: &mut Rng) -> (Dealt, [(Card, usize); 2]) {
        let cut = Cut::shuffled(self.t.rules(), rng);
        let positions = cut.in_hands().len();
        let a = rng.below(positions);
        let mut b = rng.below(positions - 1);
        if b >= a {
            b += 1;
        }
        let marks = [cut.at(a), cut.at(b)];
        let dealt = cut.dealt(marks[0], Some(marks), KittyOrder::Sorted, self.t.record);
        (dealt, marks)
    }

    pub(super) fn run(mut self, rng: &mut Rng) -> Outcome {
        let n = self.t.players();
        let (dealt, marks) = self.deal(rng);
        self.t.deal_log(&dealt);
        let (public, secret) = (marks[0].1, marks[1].1);
        let mut hands = dealt.hands.clone();

        // The first landlord: the big landlord by one round of bids from
        // the public-mark holder, who takes it if nobody bids (2v4; Python's
        // `BidOnce` with no forced seat), or that holder (teams).
        let first = match self.variant {
            Variant::TwoVsFour => self.t.bid_once(public, rng).map_or(public, |(h, _)| h),
            Variant::Teams => public,
        };
        let solo = secret == first;
        let landlords: Vec<usize> = if solo {
            vec![first]
        } else {
            vec![first, secret]
        };
        if solo {
            hands[first] = hands[first] + dealt.kitty;
        } else {
            let (a, b) = split_kitty(&dealt.kitty);
            hands[first] = hands[first] + a;
            hands[secret] = hands[secret] + b;
        }

        // Each seat's side: true with the first landlord.
        let mut side: Vec<bool> = (0..n).map(|s| s == first).collect();
        match self.variant {
            Variant::TwoVsFour => {
                for &s in &landlords {
                    side[s] = true;
                }
            }
            Variant::Teams if !solo => {
                // Farmers from the main landlord's left, two to a side.
                let order = (1..n)
                    .map(|i| (first + i) % n)
                    .filter(|s| !landlords.contains(s));
                let mut taken = [0u8; 2]; // main, counter
                for seat in order {
                    let open: Vec<bool> = [false, true]
                        .into_iter()
                        .filter(|&c| taken[c as usize] < 2)
                        .collect();
                    let counter = open[self.t.choose(open.len(), rng)];
                    taken[counter as usize] += 1;
                    side[seat] = !counter;
                    self.t.log(seat, Action::Side(counter));
                }
            }
            Variant::Teams => {}
        }

        let rules = self.t.rules();
        if rules.auto_win {
            let tables = BombTables::new(self.t.engine);
            for &seat in &landlords {
                if tables.auto_win(self.t.engine, &hands[seat]) {
                    let winners = side[seat];
                    return self.settle(&landlords, &side, winners, 1);
                }
            }
        }

        let mut count = 1i64;
        let mut shown = 0;
        for &seat in &landlords {
            let show = self.t.accepts(rng);
            shown += show as usize;
            self.t.log(seat, Action::Show(show));
        }
        if shown > 0 {
            count += if solo {
                9
            } else if shown == 1 {
                3
            } else {
                6
            };
        }

        let leader = match self.variant {
            Variant::TwoVsFour => first,
            Variant::Teams => {
                let mut leader = (first + n - 1) % n;
                if !solo && leader == secret {
                    leader = (leader + n - 1) % n;
                }
                leader
            }
        };
        let jokers = 2 * rules.decks;
        let kills = rules.seven_star_kills_last_joker;
        let (winner, _) = self
            .t
            .tricks(&mut hands, leader, rng, &mut |seat, m, hands| {
                if !solo {
                    match m.kind {
                        Kind::Bomb if m.length > 6 => count += m.length as i64 - 6,
                        Kind::KingBomb if m.length == jokers => count += 6,
                        Kind::KingBomb if m.length == jokers - 1 => count += 9,
                        Kind::KingBomb if m.length >= 5 => count += 3,
                        _ => {}
                    }
                }
                if kills && m.kind == Kind::KingBomb && m.length == jokers - 1 {
                    kill_last_joker(hands, seat);
                }
                None
            });
        let winners = side[winner];
        self.settle(&landlords, &side, winners, count)
    }

    /// Python's `_settle` of either flow: `winners` is the winning side
    /// (true: the first landlord's), `stake` the multiplier.
    fn settle(mut self, landlords: &[usize], side: &[bool], winners: bool, stake: i64) -> Outcome {
        let n = self.t.players() as i64;
        let solo = landlords.len() == 1;
        let scores = (0..side.len())
            .map(|s| {
                let sign = if side[s] == winners { 1 } else { -1 };
                let weight = match (self.variant, solo) {
                    (_, true) => {
                        if s == landlords[0] {
                            n - 1
                        } else {
                            1
                        }
                    }
                    (Variant::TwoVsFour, false) => {
                        if s == landlords[0] {
                            3
                        } else {
                            1
                        }
                    }
                    (Variant::Teams, false) => {
                        if landlords.contains(&s) {
                            2
                        } else {
                            1
                        }
                    }
                };
                sign * stake * weight
            })
            .collect();
        let out = &mut self.t.out;
        out.landlord = landlords[0];
        out.hidden_landlord = landlords.get(1).copied();
        out.landlord_won = winners;
        out.multiplier = stake;
        out.scores = scores;
        self.t.out
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::engine;
    use super::super::{simulate, Policy};
    use super::*;

    #[test]
    fn auto_win_agrees_with_python() {
        // Python's `auto_win_reason` for each hand (None: no auto-win).
        let cases = [
            ("3456789TJQKA2XD3456789TJQKA2XD", true), // all-bombs-after-one-play
            ("33334444", true),                       // all-bombs
            ("333344445", true),                      // all-bombs-after-one-play
            ("3333444456", false),
            ("3333333333333", true),
            ("33333333333334", true),
            ("XXXDDD", true),
            ("XXXDDDD3333", true),
            ("XXD4444", false),
            ("345678", true), // no-bomb
            ("XXXXDDDD33334444K", true),
            ("333333333333347", true), // bomb-13
            ("333333333333Q47", false),
            ("XXXDDDQ", true),
        ];
        let e = engine("six-player-2v4");
        let tables = BombTables::new(&e);
        for (hand, wins) in cases {
            let cards = Cards::parse(hand).unwrap();
            assert_eq!(tables.auto_win(&e, &cards), wins, "{hand}");
        }
    }

    #[test]
    fn the_dead_joker_is_the_next_one_round() {
        let mut hands: Vec<Cards> = ["33", "4", "", "5D", "X6", "DX"]
            .iter()
            .map(|h| Cards::parse(h).unwrap())
            .collect();
        assert_eq!(kill_last_joker(&mut hands, 2), Some((3, BIG_JOKER)));
        assert_eq!(hands[3], Cards::parse("5").unwrap());
        assert_eq!(kill_last_joker(&mut hands, 5), Some((5, SMALL_JOKER)));
        assert_eq!(hands[5], Cards::parse("D").unwrap());
        let mut none = vec![Cards::parse("3").unwrap(); 6];
        assert_eq!(kill_last_joker(&mut none, 0), None);
    }

    #[test]
    fn kitty_shares_go_in_snake_order() {
        let (a, b) = split_kitty(&Cards::parse("3456789TJQKA").unwrap());
        assert_eq!(a, Cards::parse("367TJA").unwrap());
        assert_eq!(b, Cards::parse("4589QK").unwrap());
    }

    #[test]
    fn scores_balance_and_follow_the_roles() {
        for preset in ["six-player-2v4", "six-player-teams"] {
            let e = engine(preset);
            for policy in [Policy::Random, Policy::Greedy] {
                for o in simulate(&e, 300, 4, 2, policy, 300).unwrap() {
                    assert_eq!(o.scores.iter().sum::<i64>(), 0);
                    let s = o.deals[0].suited.as_ref().unwrap();
                    let [(public, at), (secret, secret_at)] = s.marks.unwrap();
                    assert!(s.hands[at].contains(&public) && s.hands[secret_at].contains(&secret));
                    let sign = if o.landlord_won { 1 } else { -1 };
                    let w = o.multiplier;
                    match (preset, o.hidden_landlord) {
                        (_, None) => assert_eq!(o.scores[o.landlord], 5 * sign * w),
                        ("six-player-2v4", Some(h)) => {
                            assert_eq!(
                                (o.scores[o.landlord], o.scores[h]),
                                (3 * sign * w, sign * w)
                            )
                        }
                        (_, Some(h)) => {
                            assert_eq!(
                                (o.scores[o.landlord], o.scores[h]),
                                (2 * sign * w, -2 * sign * w)
                            )
                        }
                    }
                }
            }
        }
    }
}
