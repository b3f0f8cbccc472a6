//! The auto-win check of the six-player marked-card families
//! (`six_2v4.rs`): whether a landlord's hand wins without play, from
//! tables of which card counts split wholly into bombs.

use crate::cards::{Cards, BIG_JOKER, LAIZI, SMALL_JOKER, TWO};
use crate::engine::Engine;
use crate::play::{Kind, Move};

/// Which counts of one rank split wholly into bombs, and which (small, big)
/// joker counts into king bombs, for the auto-win checks.
pub(super) struct BombTables {
    rank_ok: Vec<bool>,
    joker_ok: Vec<Vec<bool>>,
}

impl BombTables {
    pub(super) fn new(e: &Engine) -> Self {
        let rules = e.rules();
        let most = 4 * rules.decks as usize;
        let is = |cards: Cards, kind: Kind| e.classify(&cards).iter().any(|m| m.kind == kind);
        let sizes: Vec<usize> = (1..=most)
            .filter(|&k| is(Cards::of(0, k as u8), Kind::Bomb))
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

    /// Does the hand split wholly into bombs and king bombs? (An empty hand
    /// does.)
    fn all_bombs(&self, c: &Cards) -> bool {
        (0..=TWO).all(|r| self.rank_ok[c.get(r) as usize])
            && self.joker_ok[c.get(SMALL_JOKER) as usize][c.get(BIG_JOKER) as usize]
            && c.get(LAIZI) == 0
    }

    /// Why this landlord's hand wins without play, or None: no bomb at all,
    /// all bombs, all bombs after some lead, or a bomb of 13 or more cards.
    pub(super) fn auto_win(
        &self,
        e: &Engine,
        hand: &Cards,
        moves: &mut Vec<Move>,
    ) -> Option<&'static str> {
        e.moves_into(hand, None, moves);
        if !moves.iter().any(|m| m.kind.is_bomb()) {
            return Some("no-bomb");
        }
        if self.all_bombs(hand) {
            return Some("all-bombs");
        }
        if moves.iter().any(|m| self.all_bombs(&(*hand - m.cards))) {
            return Some("all-bombs-after-one-play");
        }
        moves
            .iter()
            .any(|m| m.kind == Kind::Bomb && m.length >= 13)
            .then_some("bomb-13")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn auto_win_reasons() {
        let e = Engine::new(Rules::preset("six-player-2v4").unwrap()).unwrap();
        let tables = BombTables::new(&e);
        let cases = [
            ("XXXDDDD33333333", Some("all-bombs")),
            ("XXXXDDDD", Some("all-bombs")),
            ("XXDDD3333", Some("all-bombs-after-one-play")),
            ("XXXDD3333", Some("all-bombs-after-one-play")),
            ("3333456", None),
            ("333444555", Some("no-bomb")),
            ("333333333333345", Some("bomb-13")),
            ("33333333333333334", Some("all-bombs-after-one-play")),
            ("3333444456", None),
            ("XXD4444", None),
            ("333333333333Q47", None),
        ];
        for (hand, reason) in cases {
            let cards = Cards::parse(hand).unwrap();
            assert_eq!(
                tables.auto_win(&e, &cards, &mut Vec::new()),
                reason,
                "{hand}"
            );
        }
    }
}
