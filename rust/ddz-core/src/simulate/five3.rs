//! `five-player-3deck` (新五人): grab, then solo or call a friend
//! (python/ddz/game/flows/five_player.py, `FivePlayer3DeckFlow`).
//!
//! One dealt card with a suit is marked; its holder acts first. One grab
//! round from the holder: on its turn a seat grabs as many times as it has
//! grabs left (pairs, then trios, of `D`, `X` and the marked rank ♠ ♥ ♣ ♦,
//! strongest first), then passes. The strongest grab makes the main
//! landlord; the base is the number of grabs (nobody grabs: the holder,
//! base 1). The main landlord takes the kitty; with `auto_win` a hand
//! without a pair, or with a bomb of 10+, or without any bomb wins at once.
//! Otherwise the main landlord calls a friend (the lowest identity held
//! twice; its third copy's holder is the deputy), plays a hidden solo
//! (announcing the lowest identity held three times) or an open solo, and
//! leads the trick play.
//!
//! The deputy (or a hidden solo) becomes public when the called card
//! leaves the hand, so the suits of the called rank are followed through
//! the play: Python's `Game` takes the lowest suits first, and the records
//! name the copies each play takes ("ids").

use super::copies::Copies;
use super::deck::{Cut, KittyOrder};
use super::{spring_factor, Action, Card, Dealt, Outcome, Rng, Table};
use crate::cards::{Cards, BIG_JOKER, SLOTS, SMALL_JOKER};
use crate::rules::{Rules, ScoreScheme};

/// Points of one ordinary player before the base (Python's `LEVEL_POINTS`).
const LEVEL_POINTS: i64 = 1;

/// How many copies of each identity a hand holds, at `slot * 4 + suit`
/// (suit 0 for jokers), so index order is Python's `sort_key` order.
type Ids = [u8; SLOTS * 4];

fn ids_of(cards: &[Card]) -> Ids {
    let mut ids = [0u8; SLOTS * 4];
    for c in cards {
        ids[c.slot as usize * 4 + c.suit as usize] += 1;
    }
    ids
}

/// A grab's strength as Python compares it: (size, -position), trios above
/// pairs, then `D`, `X`, the marked rank ♠ ♥ ♣ ♦.
type Strength = (u8, i8);

/// The grabs a hand may make, in the order it makes them (Python's
/// `grab_units`, strengths only).
fn grab_units(ids: &Ids, rank: usize) -> Vec<Strength> {
    let order = [
        BIG_JOKER * 4,
        SMALL_JOKER * 4,
        rank * 4 + 3,
        rank * 4 + 2,
        rank * 4 + 1,
        rank * 4,
    ];
    let mut units = Vec::new();
    for (i, &id) in order.iter().enumerate() {
        for size in [2, 3] {
            if ids[id] >= size {
                units.push((size, -(i as i8)));
            }
        }
    }
    units
}

/// Why the main landlord wins outright with the kitty (Python's
/// `_auto_win`), if they do.
fn auto_win(rules: &Rules, ids: &Ids, hand: &Cards) -> bool {
    if !ids.contains(&2) {
        return true; // no pair
    }
    let ranks = |slot: usize| hand.get(slot);
    if (0..SMALL_JOKER).any(|r| ranks(r) >= 10) {
        return true; // a big bomb
    }
    let bomb = (0..SMALL_JOKER).any(|r| ranks(r) >= 4)
        || rules
            .king_bombs
            .iter()
            .any(|kb| ranks(SMALL_JOKER) >= kb.small && ranks(BIG_JOKER) >= kb.big);
    !bomb // no bomb
}

pub(super) struct Deal<'e> {
    t: Table<'e>,
}

/// The main landlord's choice after the grab.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Choice {
    CallFriend,
    HiddenSolo,
    OpenSolo,
}

impl<'e> Deal<'e> {
    pub(super) fn new(t: Table<'e>) -> Self {
        Deal { t }
    }

    /// A shuffled deal with one dealt card with a suit marked, uniformly
    /// (Python's `marked_deal`); its holder is `first`. Also returns each
    /// hand's and the kitty's identities.
    fn deal(&mut self, rng: &mut Rng) -> (Dealt, Vec<Ids>, Ids, Card) {
        let n = self.t.players();
        let cut = Cut::shuffled(self.t.rules(), rng);
        let (marked, holder) = cut.mark(rng, Card::suited);
        let ids = (0..n).map(|s| ids_of(cut.hand(s))).collect();
        let dealt = cut.dealt((marked, holder), None, KittyOrder::Sorted, self.t.record);
        (dealt, ids, ids_of(cut.kitty()), marked)
    }

    pub(super) fn run(mut self, rng: &mut Rng) -> Outcome {
        let n = self.t.players();
        let (dealt, mut ids, kitty_ids, marked) = self.deal(rng);
        self.t.deal_log(&dealt);
        let holder = dealt.first;
        let mut hands = dealt.hands;
        let power = self.t.rules().score_scheme == ScoreScheme::Power;

        let (landlord, base) = self.grab_round(holder, &ids, marked.slot as usize, rng);
        let base_points = if power { 1i64 << base } else { base as i64 };
        let points = base_points * LEVEL_POINTS;
        hands[landlord] = hands[landlord] + dealt.kitty;
        for (have, &extra) in ids[landlord].iter_mut().zip(&kitty_ids) {
            *have += extra;
        }

        if self.t.rules().auto_win && auto_win(self.t.rules(), &ids[landlord], &hands[landlord]) {
            return self.t.settle_five(landlord, None, true, points, false);
        }

        // The choice, in Python's order of the options.
        let held = &ids[landlord];
        let mut options = Vec::with_capacity(3);
        if held.contains(&2) {
            options.push(Choice::CallFriend);
        }
        if held.contains(&3) {
            options.push(Choice::HiddenSolo);
        }
        options.push(Choice::OpenSolo);
        let choice = options[self.t.choose(options.len(), rng)];
        self.t.log(
            landlord,
            match choice {
                Choice::CallFriend => Action::CallFriend,
                Choice::HiddenSolo => Action::HiddenSolo,
                Choice::OpenSolo => Action::OpenSolo,
            },
        );
        let mut factor = 1;
        let mut called = None;
        let mut deputy = None;
        match choice {
            Choice::OpenSolo => factor = if power { 1i64 << base } else { 2 },
            Choice::HiddenSolo | Choice::CallFriend => {
                let size = if choice == Choice::HiddenSolo { 3 } else { 2 };
                let id = held.iter().position(|&k| k == size).expect("listed");
                if choice == Choice::CallFriend {
                    deputy = (0..n).find(|&s| s != landlord && ids[s][id] > 0);
                    assert!(deputy.is_some(), "the called card's other copy is dealt");
                }
                called = Some(id);
            }
        }

        // Follow the suits of the called rank (jokers have none: any copy
        // is the called card).
        let mut copies = called.filter(|&id| id < SMALL_JOKER * 4).map(|id| Copies {
            rank: id / 4,
            suit: id % 4,
            held: ids
                .iter()
                .map(|h| {
                    [
                        h[id & !3],
                        h[(id & !3) + 1],
                        h[(id & !3) + 2],
                        h[(id & !3) + 3],
                    ]
                })
                .collect(),
        });
        let shows = |seat: usize| {
            Some(seat) == deputy || (seat == landlord && choice == Choice::HiddenSolo)
        };
        let mut revealed = false;
        let (winner, plays) = self.t.tricks(&mut hands, landlord, rng, &mut |seat, m, _| {
            let id = called?;
            let (named, holds) = match copies.as_mut() {
                Some(c) => {
                    let named = c.take(seat, m.cards.get(c.rank));
                    (named, named.is_some_and(|x| x.suits[c.suit] > 0))
                }
                None => (None, m.cards.get(id / 4) > 0),
            };
            if holds && shows(seat) {
                revealed = true;
            }
            named
        });

        let side: Vec<usize> = std::iter::once(landlord).chain(deputy).collect();
        let won = side.contains(&winner);
        let p = points * factor * spring_factor(self.t.rules(), &plays, &side, won);
        // Python's `_settle`: the deputy settles p, the main landlord 2p, a
        // solo landlord 4p.
        self.t.settle_five(landlord, deputy, won, p, revealed)
    }

    /// One grab round from the marked card's holder: each seat grabs while
    /// it may and will, then passes. Returns the main landlord and the base.
    fn grab_round(
        &mut self,
        holder: usize,
        ids: &[Ids],
        rank: usize,
        rng: &mut Rng,
    ) -> (usize, u32) {
        let n = self.t.players();
        let mut best: Option<(Strength, usize)> = None;
        let mut base = 0u32;
        for seat in (0..n).map(|i| (holder + i) % n) {
            for strength in grab_units(&ids[seat], rank) {
                // Python lists 'pass' then 'grab' while grabs are left.
                if !self.t.accepts(rng) {
                    break;
                }
                self.t.log(seat, Action::Grab);
                base += 1;
                if best.is_none_or(|(b, _)| strength > b) {
                    best = Some((strength, seat));
                }
            }
            self.t.log(seat, Action::Pass);
        }
        match best {
            None => (holder, 1),
            Some((_, seat)) => (seat, base),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::deck::is_whole_deck;
    use super::super::tests::engine;
    use super::super::{simulate, Policy};
    use super::*;

    #[test]
    fn grabs_run_strongest_first() {
        // Marked rank 9 (slot 6): DD, XXX, 9s9s, 9d9d9d.
        let mut ids = [0u8; SLOTS * 4];
        ids[BIG_JOKER * 4] = 2;
        ids[SMALL_JOKER * 4] = 3;
        ids[6 * 4 + 3] = 2;
        ids[6 * 4] = 3;
        let units = grab_units(&ids, 6);
        assert_eq!(
            units,
            vec![(2, 0), (2, -1), (3, -1), (2, -2), (2, -5), (3, -5)]
        );
        assert_eq!(units.iter().max(), Some(&(3, -1)));
    }

    #[test]
    fn recorded_deals_are_whole_decks_and_scores_split() {
        let e = engine("five-player-3deck");
        for policy in [Policy::Random, Policy::Greedy] {
            for o in simulate(&e, 300, 4, 2, policy, 300).unwrap() {
                let d = &o.deals[0];
                let s = d.suited.as_ref().unwrap();
                assert!(s.marked.suited() && s.hands[d.first].contains(&s.marked));
                assert!(is_whole_deck(s, e.rules()));
                assert_eq!(o.scores.iter().sum::<i64>(), 0);
                let sign = if o.landlord_won { 1 } else { -1 };
                let w = o.multiplier;
                match o.hidden_landlord {
                    None => assert_eq!(o.scores[o.landlord], 4 * sign * w),
                    Some(h) => assert_eq!(
                        (o.scores[o.landlord], o.scores[h]),
                        (2 * sign * w, sign * w)
                    ),
                }
                if policy == Policy::Greedy {
                    // Nobody grabs: the holder leads at base 1.
                    assert_eq!(o.landlord, d.first);
                    assert!(o.actions[..5].iter().all(|(_, a)| *a == Action::Pass));
                }
            }
        }
    }
}
