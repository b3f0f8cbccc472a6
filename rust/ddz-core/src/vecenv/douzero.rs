//! DouZero's features for a batch of envs (`VecEnv(..., features="douzero")`,
//! docs/rl.md "DouZero features"): per env the context of the seat to act
//! (DouZero's `x_no_action`) and its last plays (`z`), per legal action the
//! action's card features. In classic they are DouZero 1.1.0's `get_obs`;
//! the other one-landlord presets extend them: a card set's features are a
//! thermometer of each slot's count as wide as the deck's copies of it
//! (4 a rank a deck, a joker once a deck, the wild cards), the seats beyond
//! three add their rows in the same places, and a wild play's action row
//! adds what its cards stand for.
//!
//! The context of the landlord: its hand, the other hands together, the
//! last move, the cards each farmer played (the one before the landlord
//! first, so classic's `landlord_up` then `landlord_down`), each farmer's
//! cards left (one-hot), the bombs played (one-hot). Of a farmer: its hand,
//! the other hands, the landlord's played cards, each other farmer's (in
//! seat order from the viewer), the last move, the landlord's last action,
//! each other farmer's, the landlord's cards left, each other farmer's,
//! the bombs.

use crate::cards::{Cards, SLOTS};
use crate::rules::{Flow, Rules};
use crate::table::{Action, Phase, Table};
use std::collections::VecDeque;

pub type Row = [u8; SLOTS];

/// Plays in `z`, the oldest first.
pub const HISTORY: usize = 15;
/// The bombs one-hot: 0..14 (more bombs count as 14).
const BOMB_BITS: usize = 15;

/// The widths of one rule set's features.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Thermometer width of each slot (its copies in the deck).
    widths: [usize; SLOTS],
    players: usize,
    farmer_hand: usize,
    landlord_hand: usize,
    /// Features of one card set.
    pub features: usize,
    /// Features of one legal action (a wild preset adds what it stands for).
    pub action_features: usize,
    /// `x_no_action` of the landlord and of a farmer; `width` the larger.
    pub landlord_width: usize,
    pub farmer_width: usize,
    pub width: usize,
    wild: bool,
}

impl Layout {
    /// The layout of a one-landlord rule set (classic, two-player,
    /// four-player, laizi); else why not.
    pub fn new(rules: &Rules) -> Result<Layout, String> {
        if rules.flow != Flow::OneLandlord {
            return Err(format!(
                "DouZero's features need a one-landlord rule set (classic, two-player, \
                 four-player, laizi), not {:?} (flow {})",
                rules.preset,
                rules.flow.name()
            ));
        }
        let widths: [usize; SLOTS] = std::array::from_fn(|s| rules.copies(s) as usize);
        let features: usize = widths.iter().sum();
        let n = rules.players as usize;
        let (farmer_hand, landlord_hand) = (
            rules.hand_size as usize,
            (rules.hand_size + rules.kitty) as usize,
        );
        let landlord_width = (n + 2) * features + (n - 1) * farmer_hand + BOMB_BITS;
        let farmer_width =
            (2 * n + 1) * features + landlord_hand + (n - 2) * farmer_hand + BOMB_BITS;
        let wild = rules.laizi > 0;
        Ok(Layout {
            widths,
            players: n,
            farmer_hand,
            landlord_hand,
            features,
            action_features: if wild { 2 * features } else { features },
            landlord_width,
            farmer_width,
            width: landlord_width.max(farmer_width),
            wild,
        })
    }

    /// The features of card set `row` into `out[..features]`.
    pub fn cards(&self, row: &Row, out: &mut [i8]) {
        let mut at = 0;
        for (&c, &w) in row.iter().zip(&self.widths) {
            for (b, o) in out[at..at + w].iter_mut().enumerate() {
                *o = i8::from(b < c as usize);
            }
            at += w;
        }
    }

    /// The features of a legal action, from its `cards` and `represents`
    /// rows, into `out[..action_features]`.
    pub fn action(&self, cards: &Row, represents: &Row, out: &mut [i8]) {
        self.cards(cards, &mut out[..self.features]);
        if self.wild {
            self.cards(represents, &mut out[self.features..2 * self.features]);
        }
    }
}

/// What an env has seen of a deal's play, as DouZero keeps it.
#[derive(Clone, Debug, Default)]
pub struct Log {
    /// The last `HISTORY` actions of the play, passes as zeros, oldest first.
    seq: VecDeque<Row>,
    /// Each seat's latest action of the deal (a pass: zeros).
    last: Vec<Row>,
    /// Each seat's played cards.
    played: Vec<Row>,
}

impl Log {
    pub fn new(players: usize) -> Log {
        Log {
            seq: VecDeque::with_capacity(HISTORY + 1),
            last: vec![[0; SLOTS]; players],
            played: vec![[0; SLOTS]; players],
        }
    }

    pub fn clear(&mut self) {
        self.seq.clear();
        self.last.fill([0; SLOTS]);
        self.played.fill([0; SLOTS]);
    }

    /// `seat` took `action` in the play.
    pub fn record(&mut self, seat: usize, action: &Action) {
        let row = match action {
            Action::Play(m) => {
                self.played[seat] = (Cards(self.played[seat]) + m.cards).0;
                m.cards.0
            }
            _ => [0; SLOTS],
        };
        self.last[seat] = row;
        if self.seq.len() == HISTORY {
            self.seq.pop_front();
        }
        self.seq.push_back(row);
    }

    /// DouZero's last move: the latest action unless it is a pass, then
    /// the one before it (zeros when there is none).
    fn last_move(&self) -> Row {
        let n = self.seq.len();
        match (n.checked_sub(1).map(|i| self.seq[i]), n.checked_sub(2)) {
            (Some(a), _) if a.iter().any(|&c| c > 0) => a,
            (Some(_), Some(i)) => self.seq[i],
            _ => [0; SLOTS],
        }
    }
}

/// DouZero's one-hot of a card count: `n - 1` set, so 0 sets the last bit.
fn one_hot(n: usize, out: &mut [i8]) {
    out.fill(0);
    let at = if n == 0 {
        out.len() - 1
    } else {
        (n - 1).min(out.len() - 1)
    };
    out[at] = 1;
}

/// The landlord of `table`, once settled.
fn landlord(table: &Table) -> Option<usize> {
    let (core, family) = (table.core(), table.family());
    (0..core.players()).find(|&s| family.side_of(core, s) == Some(1))
}

/// The context (`ctx`, `width` values, zero-padded past the viewer's own
/// width) and `z` (`HISTORY * features`) of `seat` at `table`; its DouZero
/// position (0 the landlord, then the seats after it), or -1 outside the
/// play (all zeros then).
pub fn write(
    layout: &Layout,
    table: &Table,
    seat: usize,
    log: &Log,
    bombs: u32,
    ctx: &mut [i8],
    z: &mut [i8],
) -> i8 {
    let core = table.core();
    let l = match landlord(table) {
        Some(l) if core.phase() == Phase::Play => l,
        _ => {
            ctx.fill(0);
            z.fill(0);
            return -1;
        }
    };
    let n = layout.players;
    let f = layout.features;
    let at_seat = |k: usize| (l + k) % n;
    let hands = core.hands();
    let own = hands[seat].counts.0;
    let mut others = [0u8; SLOTS];
    for (_, h) in hands.iter().enumerate().filter(|&(s, _)| s != seat) {
        for (o, c) in others.iter_mut().zip(h.counts.0) {
            *o += c;
        }
    }
    let last_move = log.last_move();
    let mut rows: Vec<&Row> = Vec::with_capacity(2 * n + 1);
    let mut counts: Vec<(usize, usize)> = Vec::with_capacity(n);
    let left = |s: usize| hands[s].len();
    rows.push(&own);
    rows.push(&others);
    if seat == l {
        rows.push(&last_move);
        // The farmers from the one before the landlord back round.
        for k in (1..n).rev() {
            rows.push(&log.played[at_seat(k)]);
            counts.push((left(at_seat(k)), layout.farmer_hand));
        }
    } else {
        let mates: Vec<usize> = (1..n).map(|k| (seat + k) % n).filter(|&s| s != l).collect();
        rows.push(&log.played[l]);
        rows.extend(mates.iter().map(|&s| &log.played[s]));
        rows.push(&last_move);
        rows.push(&log.last[l]);
        rows.extend(mates.iter().map(|&s| &log.last[s]));
        counts.push((left(l), layout.landlord_hand));
        counts.extend(mates.iter().map(|&s| (left(s), layout.farmer_hand)));
    }
    let mut at = 0;
    for row in rows {
        layout.cards(row, &mut ctx[at..at + f]);
        at += f;
    }
    for (c, size) in counts {
        one_hot(c, &mut ctx[at..at + size]);
        at += size;
    }
    ctx[at..at + BOMB_BITS].fill(0);
    ctx[at + (bombs as usize).min(BOMB_BITS - 1)] = 1;
    ctx[at + BOMB_BITS..].fill(0);
    let pad = (HISTORY - log.seq.len()) * f;
    z[..pad].fill(0);
    for (row, out) in log.seq.iter().zip(z[pad..].chunks_exact_mut(f)) {
        layout.cards(row, out);
    }
    ((seat + n - l) % n) as i8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_widths_are_douzeros_in_classic_and_grow_with_the_deck() {
        let classic = Layout::new(&Rules::preset("classic").unwrap()).unwrap();
        assert_eq!(classic.features, 54);
        assert_eq!((classic.landlord_width, classic.farmer_width), (319, 430));
        let four = Layout::new(&Rules::preset("four-player").unwrap()).unwrap();
        assert_eq!(four.features, 108);
        let laizi = Layout::new(&Rules::preset("laizi").unwrap()).unwrap();
        assert_eq!((laizi.features, laizi.action_features), (56, 112));
        assert!(Layout::new(&Rules::preset("five-player").unwrap()).is_err());
    }
}
