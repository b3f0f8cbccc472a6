//! DouZero 1.1.0's classic environment on the table: its deal layout, its
//! action lists (card sets) and its feature encoder (docs/rl.md).
//!
//! Seat 0 is DouZero's `landlord` (20 cards, leads), seat 1 `landlord_down`,
//! seat 2 `landlord_up`. A card set is a count row (`[u8; 16]`, the last
//! slot unused); its 54 features are four thermometer bits per rank 3..2
//! (rank-major, as DouZero's `_cards2array`), then the two jokers. The
//! encoder fills caller-owned buffers, so a binding can hand them out as
//! arrays without another copy.

use crate::cards::{Cards, SLOTS, SYMBOLS};
use crate::engine::Engine;
use crate::play::Move;
use crate::rules::Rules;
use crate::table::{Action, Rng, Table};
use crate::vecenv::kinds::describe;
use serde_json::json;
use std::collections::HashSet;
use std::sync::Arc;

pub type Row = [u8; SLOTS];

/// Features of one card set.
pub const FEATURES: usize = 54;
/// Plays in `z`, the oldest first.
pub const HISTORY: usize = 15;
/// `z` flattened: 15 plays of 54 features (DouZero shapes it 5 x 162).
pub const Z_LEN: usize = HISTORY * FEATURES;
/// `x_no_action` of the landlord and of a farmer.
pub const LANDLORD_WIDTH: usize = 319;
pub const FARMER_WIDTH: usize = 430;
/// Bombs one-hot width (0..14 bombs).
const BOMB_BITS: usize = 15;
/// DouZero's card value of each slot: 3..14 for 3..A, 17 for 2, 20 and 30
/// for the jokers.
pub const DZ_OF_SLOT: [u8; 15] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30];
/// Cards per seat, kitty included for the landlord.
pub const HAND_SIZES: [usize; 3] = [20, 17, 17];

/// The slot of a DouZero card value.
pub fn slot_of(card: i64) -> Option<usize> {
    DZ_OF_SLOT.iter().position(|&v| i64::from(v) == card)
}

/// The card features of `row` into `out[..54]`.
fn features(row: &Row, out: &mut [i8]) {
    for s in 0..13 {
        let c = row[s];
        for (b, o) in out[4 * s..4 * s + 4].iter_mut().enumerate() {
            *o = i8::from((b as u8) < c);
        }
    }
    out[52] = row[13] as i8;
    out[53] = row[14] as i8;
}

/// DouZero's one-hot of a card count: `n - 1` set, so 0 sets the last bit.
fn one_hot(n: usize, out: &mut [i8]) {
    out.fill(0);
    let at = if n == 0 { out.len() - 1 } else { n - 1 };
    out[at] = 1;
}

fn sum(row: &Row) -> usize {
    row.iter().map(|&c| c as usize).sum()
}

fn text(row: &Row) -> String {
    let mut out = String::with_capacity(20);
    for (s, &c) in row.iter().enumerate().take(15) {
        out.extend(std::iter::repeat_n(SYMBOLS[s], c as usize));
    }
    out
}

/// One deal of DouZero's game.
pub struct Game {
    engine: Arc<Engine>,
    table: Option<Table>,
    hands: [Row; 3],
    played: [Row; 3],
    /// Each seat's latest action (a pass: zeros).
    last: [Row; 3],
    /// Every action of the deal, passes as zeros.
    seq: Vec<Row>,
    bombs: usize,
    /// This moment's distinct card sets and the action each plays.
    rows: Vec<Row>,
    picks: Vec<Action>,
    order: Vec<(i8, usize)>,
    seen: HashSet<u128>,
    landlord_won: Option<bool>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    pub fn new() -> Game {
        let rules = Rules::preset("classic").expect("the classic preset");
        Game {
            engine: Arc::new(Engine::new(rules).expect("the classic engine")),
            table: None,
            hands: [[0; SLOTS]; 3],
            played: [[0; SLOTS]; 3],
            last: [[0; SLOTS]; 3],
            seq: Vec::with_capacity(128),
            bombs: 0,
            rows: Vec::with_capacity(256),
            picks: Vec::with_capacity(256),
            order: Vec::with_capacity(256),
            seen: HashSet::with_capacity(256),
            landlord_won: None,
        }
    }

    /// A random deal in DouZero's layout: the shuffled deck's first 20 cards
    /// to the landlord (cards 17..20 are the kitty), the next 17 to
    /// `landlord_up`, the last 17 to `landlord_down`.
    pub fn deal(&mut self, rng: &mut Rng) {
        let mut deck = [0u8; 54];
        for (i, d) in deck.iter_mut().enumerate() {
            *d = if i < 52 {
                (i / 4) as u8
            } else {
                (i - 39) as u8
            };
        }
        rng.shuffle(&mut deck);
        let count = |cards: &[u8]| {
            let mut row = [0u8; SLOTS];
            for &s in cards {
                row[s as usize] += 1;
            }
            row
        };
        let hands = [count(&deck[..20]), count(&deck[37..]), count(&deck[20..37])];
        self.reset(hands, count(&deck[17..20]))
            .expect("a whole deck deals");
    }

    /// Start the deal `hands` (by seat; the landlord's holds `kitty`).
    pub fn reset(&mut self, hands: [Row; 3], kitty: Row) -> Result<(), String> {
        let mut whole = [0u8; SLOTS];
        for (seat, h) in hands.iter().enumerate() {
            if sum(h) != HAND_SIZES[seat] {
                return Err(format!(
                    "seat {seat} holds {} cards, not {}",
                    sum(h),
                    HAND_SIZES[seat]
                ));
            }
            for (w, c) in whole.iter_mut().zip(h) {
                *w += c;
            }
        }
        if whole[..13].iter().any(|&c| c != 4) || whole[13..].iter().ne([1, 1, 0].iter()) {
            return Err("the hands are not one whole 54-card deck".into());
        }
        if sum(&kitty) != 3 || !Cards(hands[0]).contains(&Cards(kitty)) {
            return Err("the kitty must be 3 of the landlord's cards".into());
        }
        let rest: Row = std::array::from_fn(|s| hands[0][s] - kitty[s]);
        let spec = json!({
            "first": 0,
            "hands": [text(&rest), text(&hands[1]), text(&hands[2])],
            "kitty": text(&kitty),
        });
        let rules = self.engine.rules();
        let deal = Table::parse_deal(rules, &spec).map_err(|e| e.0)?;
        let mut table = Table::new(self.engine.clone(), Rng(0), vec![deal]).map_err(|e| e.0)?;
        // Seat 0 bids 3: it takes the kitty and leads, as DouZero starts.
        table.apply(Action::Bid(3)).map_err(|e| e.0)?;
        self.table = Some(table);
        self.hands = hands;
        self.played = [[0; SLOTS]; 3];
        self.last = [[0; SLOTS]; 3];
        self.seq.clear();
        self.bombs = 0;
        self.landlord_won = None;
        self.list();
        Ok(())
    }

    /// The distinct card sets of this moment, in ddz's order by kind id:
    /// a set with several readings plays the one of lowest kind id
    /// (333444555666: the trio straight, as DouZero reads it).
    fn list(&mut self) {
        let Some(table) = self.table.as_mut() else {
            return;
        };
        let legal = table.legal();
        self.order.clear();
        self.order
            .extend(legal.iter().enumerate().map(|(i, a)| (describe(&a).0, i)));
        self.order.sort_by_key(|&(kind, _)| kind); // stable: hint order within a kind
        self.rows.clear();
        self.picks.clear();
        self.seen.clear();
        for &(_, i) in &self.order {
            let action = legal.get(i).expect("a listed index");
            let row = match action {
                Action::Play(m) => m.cards.0,
                _ => [0; SLOTS],
            };
            if self.seen.insert(Cards(row).key()) {
                self.rows.push(row);
                self.picks.push(action);
            }
        }
    }

    pub fn is_over(&self) -> bool {
        self.landlord_won.is_some() || self.table.is_none()
    }

    /// Did the landlord go out first (once the deal is over)?
    pub fn landlord_won(&self) -> Option<bool> {
        self.landlord_won
    }

    /// The seat to act.
    pub fn seat(&self) -> usize {
        self.table.as_ref().map_or(0, Table::to_act)
    }

    /// This moment's legal card sets (`[]`, the pass, as zeros).
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    pub fn hands(&self) -> &[Row; 3] {
        &self.hands
    }

    pub fn bombs(&self) -> usize {
        self.bombs
    }

    /// The play to beat, None when leading: the table's own trick.
    pub fn rival(&self) -> Option<&Move> {
        self.table.as_ref()?.core().tricks().last.as_ref()
    }

    /// The index of card set `row` among `rows()`.
    pub fn find(&self, row: &Row) -> Option<usize> {
        self.rows.iter().position(|r| r == row)
    }

    /// Play `rows()[i]`; true once the deal is over.
    pub fn step(&mut self, i: usize) -> Result<bool, String> {
        if self.is_over() {
            return Err("the deal is over".into());
        }
        let (Some(&row), Some(&action)) = (self.rows.get(i), self.picks.get(i)) else {
            return Err(format!(
                "no legal card set {i}: there are {}",
                self.rows.len()
            ));
        };
        let table = self.table.as_mut().expect("a deal in play");
        let seat = table.to_act();
        table.apply(action).map_err(|e| e.0)?;
        self.seq.push(row);
        self.last[seat] = row;
        if let Action::Play(m) = action {
            let (hand, played) = (&mut self.hands[seat], &mut self.played[seat]);
            for ((h, p), &c) in hand.iter_mut().zip(played.iter_mut()).zip(&row) {
                *h -= c;
                *p += c;
            }
            self.bombs += usize::from(m.kind.is_bomb());
        }
        if table.is_over() {
            self.landlord_won = Some(sum(&self.hands[0]) == 0);
            self.rows.clear();
            self.picks.clear();
            return Ok(true);
        }
        self.list();
        Ok(false)
    }

    /// The width of `x_no_action` for the seat to act.
    pub fn width(&self) -> usize {
        if self.seat() == 0 {
            LANDLORD_WIDTH
        } else {
            FARMER_WIDTH
        }
    }

    /// DouZero's last move: the latest action unless it is a pass, then the
    /// one before it (zeros when there is none).
    fn last_move(&self) -> Row {
        match self.seq.as_slice() {
            [.., a] if a.iter().any(|&c| c > 0) => *a,
            [.., b, _] => *b,
            _ => [0; SLOTS],
        }
    }

    /// `x_no_action` (`width()` values) and `z` (`Z_LEN`) of the seat to act.
    pub fn encode(&self, x_no_action: &mut [i8], z: &mut [i8]) {
        let seat = self.seat();
        let h = &self.hands;
        let others: Row = std::array::from_fn(|s| h[0][s] + h[1][s] + h[2][s] - h[seat][s]);
        let last_move = self.last_move();
        let (state, counts): (Vec<&Row>, [(usize, usize); 2]) = if seat == 0 {
            let s = vec![&h[0], &others, &last_move, &self.played[2], &self.played[1]];
            (s, [(sum(&h[2]), 17), (sum(&h[1]), 17)])
        } else {
            let mate = 3 - seat; // down (1) and up (2) are partners
            let p = &self.played;
            let s = vec![
                &h[seat],
                &others,
                &p[0],
                &p[mate],
                &last_move,
                &self.last[0],
                &self.last[mate],
            ];
            (s, [(sum(&h[0]), 20), (sum(&h[mate]), 17)])
        };
        let mut at = 0;
        for row in state {
            features(row, &mut x_no_action[at..at + FEATURES]);
            at += FEATURES;
        }
        for (n, size) in counts {
            one_hot(n, &mut x_no_action[at..at + size]);
            at += size;
        }
        x_no_action[at..at + BOMB_BITS].fill(0);
        x_no_action[at + self.bombs] = 1;
        debug_assert_eq!(at + BOMB_BITS, self.width());
        let recent = &self.seq[self.seq.len().saturating_sub(HISTORY)..];
        let pad = (HISTORY - recent.len()) * FEATURES;
        z[..pad].fill(0);
        for (row, out) in recent.iter().zip(z[pad..].chunks_exact_mut(FEATURES)) {
            features(row, out);
        }
    }

    /// `x_batch` (one row per legal card set: `x_no_action`, then the set's
    /// features) and `z_batch` (`z` per row), as f32, from `encode`'s output.
    pub fn encode_batch(
        &self,
        x_no_action: &[i8],
        z: &[i8],
        x_batch: &mut [f32],
        z_batch: &mut [f32],
    ) {
        let w = x_no_action.len();
        let mut set = [0i8; FEATURES];
        for (i, row) in self.rows.iter().enumerate() {
            let out = &mut x_batch[i * (w + FEATURES)..(i + 1) * (w + FEATURES)];
            for (o, &x) in out[..w].iter_mut().zip(x_no_action) {
                *o = f32::from(x);
            }
            features(row, &mut set);
            for (o, &x) in out[w..].iter_mut().zip(&set) {
                *o = f32::from(x);
            }
        }
        let (first, rest) = z_batch.split_at_mut(Z_LEN.min(z_batch.len()));
        for (o, &x) in first.iter_mut().zip(z) {
            *o = f32::from(x);
        }
        for out in rest.chunks_exact_mut(Z_LEN) {
            out.copy_from_slice(first);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_game(seed: u64) -> (Game, Rng) {
        let mut rng = Rng(seed);
        let mut g = Game::new();
        g.deal(&mut rng);
        (g, rng)
    }

    #[test]
    fn a_deal_is_douzeros_layout_and_the_landlord_leads() {
        let (g, _) = random_game(1);
        assert_eq!(g.seat(), 0);
        assert_eq!(g.hands().map(|h| sum(&h)), [20, 17, 17]);
        assert!(!g.rows().contains(&[0; SLOTS]), "no pass when leading");
        assert_eq!(g.width(), LANDLORD_WIDTH);
    }

    #[test]
    fn bad_deals_are_refused() {
        let mut g = Game::new();
        let mut hands = [[0u8; SLOTS]; 3];
        hands[0][0] = 20;
        assert!(g.reset(hands, [0; SLOTS]).is_err());
        let (mut g, _) = random_game(2);
        let hands = *g.hands();
        let not_held: Row = std::array::from_fn(|s| u8::from(hands[0][s] == 0 && s < 3));
        assert!(g.reset(hands, not_held).is_err());
    }

    /// Random play to the end of many deals: the encoder's invariants.
    #[test]
    fn features_follow_the_deal() {
        for seed in 0..40 {
            let (mut g, mut rng) = random_game(seed);
            loop {
                let w = g.width();
                let (mut x, mut z) = (vec![9i8; w], vec![9i8; Z_LEN]);
                g.encode(&mut x, &mut z);
                let seat = g.seat();
                // The own hand, then the other two hands, as thermometers.
                let mut own = [0i8; FEATURES];
                features(&g.hands()[seat], &mut own);
                assert_eq!(&x[..FEATURES], &own);
                let held: usize = x[..2 * FEATURES].iter().map(|&b| b as usize).sum();
                assert_eq!(held, 54 - g.seq.iter().map(sum).sum::<usize>());
                assert_eq!(x[w - BOMB_BITS + g.bombs()], 1);
                assert!(x.iter().chain(&z).all(|&b| b == 0 || b == 1));
                let m = g.rows().len();
                let (mut xb, mut zb) = (vec![0f32; m * (w + FEATURES)], vec![0f32; m * Z_LEN]);
                g.encode_batch(&x, &z, &mut xb, &mut zb);
                for (i, row) in g.rows().iter().enumerate() {
                    let r = &xb[i * (w + FEATURES)..(i + 1) * (w + FEATURES)];
                    assert!(r[..w].iter().zip(&x).all(|(&a, &b)| a == f32::from(b)));
                    let n: f32 = r[w..].iter().sum();
                    assert_eq!(n as usize, sum(row));
                    assert!(zb[i * Z_LEN..(i + 1) * Z_LEN]
                        .iter()
                        .zip(&z)
                        .all(|(&a, &b)| a == f32::from(b)));
                }
                assert_eq!(g.find(&g.rows()[m - 1]), Some(m - 1));
                if g.step(rng.below(m)).unwrap() {
                    break;
                }
            }
            assert!(g.step(0).is_err());
            let won = g.landlord_won().unwrap();
            assert_eq!(won, sum(&g.hands()[0]) == 0);
        }
    }
}
