//! `five-player`: the open landlord and the hidden landlord
//! (python/ddz/game/flows/five_player.py, `FivePlayerFlow`).
//!
//! One dealt card with a suit is marked; its holder is the open landlord,
//! takes the kitty and acts first. The holder of the other copy is the
//! hidden landlord, or nobody when the open landlord holds both (1 v 4).
//! Then a reveal round, a double round, and trick play from the open
//! landlord's lead.
//!
//! Which physical copy of a card leaves a hand decides when the partnership
//! becomes public, so this flow deals suited cards and follows the suits of
//! the marked rank through the play. The Python `Game` takes the lowest
//! suits of a rank first unless a play names its cards, and the policies
//! never name them, so the marked copy leaves a hand exactly when every
//! lower-suited copy of its rank in that hand has gone.

use super::copies::Copies;
use super::deck::{Cut, KittyOrder};
use super::{spring_factor, Action, Card, Dealt, Outcome, Rng, Table};
use crate::play::{Kind, Move};
use crate::rules::DoubleStep;

pub(super) struct Deal<'e> {
    t: Table<'e>,
}

/// The stake as Python's `scoring.stake` builds it from the events:
/// ×-events multiply, `"+1"` events add to a count that starts at 1.
struct Stake {
    factor: i64,
    count: i64,
}

impl Stake {
    fn value(&self) -> i64 {
        self.factor * self.count
    }
}

/// Does this play double the stake? Bombs of 5 cards or more, three jokers
/// and all four (the pairs `XX`/`DD` and 4-card bombs are bombs that do not).
fn doubles(m: &Move) -> bool {
    match m.kind {
        Kind::Bomb => m.length >= 5,
        Kind::KingBomb => m.length >= 3,
        _ => false,
    }
}

impl<'e> Deal<'e> {
    pub(super) fn new(t: Table<'e>) -> Self {
        Deal { t }
    }

    /// A shuffled deal with one dealt card with a suit marked, uniformly
    /// (Python's `marked_deal`); its holder is `first`. The open landlord's
    /// copies already include the kitty's, which they take at once.
    fn deal(&mut self, rng: &mut Rng) -> (Dealt, Copies) {
        let cut = Cut::shuffled(self.t.rules(), rng);
        let (marked, open) = cut.mark(rng, Card::suited);
        let mut copies = Copies::dealt(&cut, marked);
        copies.add(open, cut.kitty());
        let dealt = cut.dealt((marked, open), None, KittyOrder::Sorted, self.t.record);
        (dealt, copies)
    }

    pub(super) fn run(mut self, rng: &mut Rng) -> Outcome {
        let (dealt, mut copies) = self.deal(rng);
        self.t.deal_log(&dealt);
        let open = dealt.first;
        let mut hands = dealt.hands;
        hands[open] = hands[open] + dealt.kitty;
        let hidden = copies.partner_of(open);
        let mut stake = Stake {
            factor: 1,
            count: 1,
        };
        let mut revealed = self.reveal_round(open, hidden, &mut stake, rng);
        self.double_round(open, &mut stake, rng);

        let (winner, plays) = self.t.tricks(&mut hands, open, rng, &mut |seat, m, _| {
            if doubles(m) {
                stake.factor *= 2;
            }
            let named = copies.take(seat, m.cards.get(copies.rank))?;
            if !revealed && named.suits[copies.suit] > 0 {
                // The hidden landlord showed the copy, or the open landlord
                // playing alone has now played both.
                revealed = Some(seat) == hidden
                    || (hidden.is_none() && seat == open && !copies.holds_marked(open));
            }
            Some(named)
        });

        let landlords: Vec<usize> = std::iter::once(open).chain(hidden).collect();
        let won = landlords.contains(&winner);
        let w = stake.value() * spring_factor(self.t.rules(), &plays, &landlords, won);
        // The open landlord carries two farmers' worth, the hidden one.
        self.t.settle_five(open, hidden, won, w, revealed)
    }

    /// Every seat from the open landlord answers once. Farmers may only
    /// keep (they answer so that the turns give nothing away); a landlord
    /// may reveal, and the first reveal (×2) ends the round. Returns
    /// whether someone revealed.
    fn reveal_round(
        &mut self,
        open: usize,
        hidden: Option<usize>,
        stake: &mut Stake,
        rng: &mut Rng,
    ) -> bool {
        let n = self.t.players();
        for seat in (0..n).map(|i| (open + i) % n) {
            let landlord = seat == open || Some(seat) == hidden;
            let reveal = landlord && self.t.accepts(rng);
            self.t.log(seat, Action::Reveal(reveal));
            if reveal {
                stake.factor *= 2;
                return true;
            }
        }
        false
    }

    /// Every seat from the open landlord may double once: ×2, or +1 under
    /// `double_step = plus1`.
    fn double_round(&mut self, open: usize, stake: &mut Stake, rng: &mut Rng) {
        let n = self.t.players();
        let plus_one = self.t.rules().double_step == DoubleStep::Plus1;
        for seat in (0..n).map(|i| (open + i) % n) {
            let double = self.t.accepts(rng);
            self.t.log(seat, Action::Double(double));
            match (double, plus_one) {
                (false, _) => {}
                (true, false) => stake.factor *= 2,
                (true, true) => stake.count += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::deck::{count, is_whole_deck};
    use super::super::tests::engine;
    use super::super::{simulate, Policy};
    use super::*;

    #[test]
    fn recorded_deals_are_whole_decks_with_the_marked_card_at_first() {
        let e = engine("five-player");
        for o in simulate(&e, 200, 5, 1, Policy::Random, 200).unwrap() {
            let d = &o.deals[0];
            let s = d.suited.as_ref().unwrap();
            assert!(s.marked.suited() && s.hands[d.first].contains(&s.marked));
            for (cards, suited) in d.hands.iter().zip(&s.hands) {
                assert_eq!(*cards, count(suited));
            }
            assert_eq!(d.kitty, count(&s.kitty));
            assert!(is_whole_deck(s, e.rules()));
            // The hidden landlord holds the other copy; none when the open
            // landlord has both (dealt, or from the kitty).
            let other = (0..5).find(|&p| p != d.first && s.hands[p].contains(&s.marked));
            assert_eq!(o.hidden_landlord, other);
        }
    }

    #[test]
    fn scores_split_by_side() {
        let e = engine("five-player");
        let out = simulate(&e, 2000, 1, 2, Policy::Random, 0).unwrap();
        let solo = out.iter().filter(|o| o.hidden_landlord.is_none()).count();
        assert!(solo > 100 && solo < 1000, "1 v 4 in {solo} of 2000 deals");
        for o in &out {
            assert_eq!(o.scores.iter().sum::<i64>(), 0);
            let w = o.multiplier;
            let sign = if o.landlord_won { 1 } else { -1 };
            match o.hidden_landlord {
                None => assert_eq!(o.scores[o.landlord], 4 * sign * w),
                Some(h) => {
                    assert_ne!(h, o.landlord);
                    assert_eq!(
                        (o.scores[o.landlord], o.scores[h]),
                        (2 * sign * w, sign * w)
                    );
                }
            }
        }
    }

    #[test]
    fn greedy_keeps_and_never_doubles() {
        let e = engine("five-player");
        for o in simulate(&e, 300, 2, 1, Policy::Greedy, 300).unwrap() {
            let before_play = &o.actions[..10];
            assert!(before_play
                .iter()
                .all(|(_, a)| matches!(a, Action::Reveal(false) | Action::Double(false))));
        }
    }
}
