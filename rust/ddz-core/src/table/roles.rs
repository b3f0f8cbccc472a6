//! Roles declared once per family: what each role key means, its type, who
//! may see it, and its words for people. Everything else that shows roles
//! is derived from these declarations: the observation's JSON and Python
//! dicts, the batched environments' role columns and their bounds, the
//! typed observation views of `ddz.types`, the CLI's and the browser's
//! labels (docs/roles.md).
//!
//! A family lists its roles as [`RoleSpec`]s (sorted by key: the order
//! observations list them) and gives their values as [`RoleValue`]s, one
//! per spec, as one seat may know them (`Family::role_values`).

use super::physical::{identities, Card};
use serde_json::{json, Value};

/// The type of a role's value. Every value may also be unknown (`None` in
/// Python, `null` in JSON): not decided yet, or hidden from the seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoleType {
    /// One seat (`3`).
    Seat,
    /// Seats, in the order the spec's doc gives (`[4, 3]`).
    Seats,
    /// A whole number: a bid, a base, a count (`3`).
    Count,
    /// Yes or no (`true`).
    Flag,
    /// One card identity (`"9h"`).
    Card,
    /// Cards (`"3c4c5c"`).
    Cards,
    /// One of the words [`ROLE_WORDS`] lists (`"farmer"`): the viewing
    /// seat's own role or side.
    Word,
    /// A card and the seat holding that copy (`{"card": "9h", "seat": 2}`).
    SeatCard,
    /// A seat and why (`{"seat": 2, "reason": "..."}`).
    SeatReason,
    /// Claims of cards by seat, in order (`[[4, "AAA"], [0, "KK"]]`).
    Claims,
    /// The two sides' seats (`{"main": [..], "counter": [..]}`).
    Sides,
}

impl RoleType {
    /// As `Rules.roles()` and docs/roles.md name it.
    pub fn name(self) -> &'static str {
        match self {
            RoleType::Seat => "seat",
            RoleType::Seats => "seats",
            RoleType::Count => "count",
            RoleType::Flag => "flag",
            RoleType::Card => "card",
            RoleType::Cards => "cards",
            RoleType::Word => "word",
            RoleType::SeatCard => "seat_card",
            RoleType::SeatReason => "seat_reason",
            RoleType::Claims => "claims",
            RoleType::Sides => "sides",
        }
    }
}

/// The role words, numbered by their place here (the batched environments'
/// role columns carry that number).
pub const ROLE_WORDS: [&str; 11] = [
    "farmer",
    "landlord",
    "open-landlord",
    "hidden-landlord",
    "main-landlord",
    "deputy",
    "counter-landlord",
    "big-landlord",
    "second-landlord",
    "main",
    "counter",
];

/// One role a family tells its seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoleSpec {
    /// The observation's key.
    pub key: &'static str,
    pub ty: RoleType,
    /// What it is, in one sentence.
    pub doc: &'static str,
    /// Who may see it, and when; unknown to the others.
    pub seen: &'static str,
    /// Its name for people, English then Chinese: for a seat or seats, the
    /// name of a seat it names (`"landlord"`, a badge); else the value's.
    pub label: [&'static str; 2],
}

/// Up to eight seats, in order, without allocating (tables have at most
/// six).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seats {
    len: u8,
    seats: [u8; 8],
}

impl Seats {
    pub fn of(seats: &[usize]) -> Seats {
        let mut out = Seats::default();
        for &s in seats {
            out.push(s);
        }
        out
    }

    pub fn push(&mut self, seat: usize) {
        self.seats[self.len as usize] = seat as u8;
        self.len += 1;
    }

    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.seats[..self.len as usize].iter().map(|&s| s as usize)
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A role's value, of its spec's type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoleValue {
    Unknown,
    Seat(usize),
    Seats(Seats),
    Count(i64),
    Flag(bool),
    Card(Card),
    Cards(Vec<Card>),
    Word(&'static str),
    SeatCard(usize, Card),
    SeatReason(usize, &'static str),
    /// `(seat, card, copies)`: the seat claimed `copies` of `card`'s rank.
    Claims(Vec<(usize, Card, u8)>),
    Sides(Seats, Seats),
}

impl From<Option<usize>> for RoleValue {
    fn from(seat: Option<usize>) -> RoleValue {
        seat.map_or(RoleValue::Unknown, RoleValue::Seat)
    }
}

impl From<Option<bool>> for RoleValue {
    fn from(flag: Option<bool>) -> RoleValue {
        flag.map_or(RoleValue::Unknown, RoleValue::Flag)
    }
}

impl From<Option<Card>> for RoleValue {
    fn from(card: Option<Card>) -> RoleValue {
        card.map_or(RoleValue::Unknown, RoleValue::Card)
    }
}

impl RoleValue {
    /// Some seats, or unknown.
    pub fn seats(seats: Option<&[usize]>) -> RoleValue {
        seats.map_or(RoleValue::Unknown, |s| RoleValue::Seats(Seats::of(s)))
    }

    /// Some cards, or unknown.
    pub fn cards(cards: Option<&[Card]>) -> RoleValue {
        cards.map_or(RoleValue::Unknown, |c| RoleValue::Cards(c.to_vec()))
    }

    /// Does this value fit a role of type `ty`?
    pub fn fits(&self, ty: RoleType) -> bool {
        matches!(
            (self, ty),
            (RoleValue::Unknown, _)
                | (RoleValue::Seat(_), RoleType::Seat)
                | (RoleValue::Seats(_), RoleType::Seats)
                | (RoleValue::Count(_), RoleType::Count)
                | (RoleValue::Flag(_), RoleType::Flag)
                | (RoleValue::Card(_), RoleType::Card)
                | (RoleValue::Cards(_), RoleType::Cards)
                | (RoleValue::Word(_), RoleType::Word)
                | (RoleValue::SeatCard(..), RoleType::SeatCard)
                | (RoleValue::SeatReason(..), RoleType::SeatReason)
                | (RoleValue::Claims(_), RoleType::Claims)
                | (RoleValue::Sides(..), RoleType::Sides)
        )
    }

    /// As observations hold it in JSON.
    pub fn to_json(&self) -> Value {
        let seats = |s: &Seats| Value::Array(s.iter().map(Value::from).collect());
        match self {
            RoleValue::Unknown => Value::Null,
            RoleValue::Seat(s) => (*s).into(),
            RoleValue::Seats(s) => seats(s),
            RoleValue::Count(x) => (*x).into(),
            RoleValue::Flag(b) => (*b).into(),
            RoleValue::Card(c) => c.to_string().into(),
            RoleValue::Cards(c) => identities(c).into(),
            RoleValue::Word(w) => (*w).into(),
            RoleValue::SeatCard(s, c) => json!({"card": c.to_string(), "seat": s}),
            RoleValue::SeatReason(s, r) => json!({"seat": s, "reason": r}),
            RoleValue::Claims(claims) => {
                let claim =
                    |&(s, c, n): &(usize, Card, u8)| json!([s, c.to_string().repeat(n as usize)]);
                Value::Array(claims.iter().map(claim).collect())
            }
            RoleValue::Sides(main, counter) => {
                json!({"main": seats(main), "counter": seats(counter)})
            }
        }
    }

    /// The value as one integer of a batched environment's role column,
    /// seats relative to the viewer (`rel`: absolute seat -> relative):
    /// unknown -1; a seat (or a seat with a card or a reason) its relative
    /// seat; seats (or claims) a bit mask of relative seats; a count
    /// itself; a flag 0 or 1; a card `slot * 4 + suit`; a word its place
    /// in [`ROLE_WORDS`]; what one integer cannot hold (cards, sides) -2.
    pub fn column(&self, rel: &dyn Fn(usize) -> i16) -> i16 {
        let mask =
            |seats: &mut dyn Iterator<Item = usize>| seats.fold(0i16, |m, s| m | 1 << rel(s));
        match self {
            RoleValue::Unknown => -1,
            RoleValue::Seat(s) | RoleValue::SeatCard(s, _) | RoleValue::SeatReason(s, _) => rel(*s),
            RoleValue::Seats(s) => mask(&mut s.iter()),
            RoleValue::Claims(c) => mask(&mut c.iter().map(|&(s, _, _)| s)),
            RoleValue::Count(x) => (*x).clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            RoleValue::Flag(b) => i16::from(*b),
            RoleValue::Card(c) => i16::from(c.slot) * 4 + i16::from(c.suit),
            RoleValue::Word(w) => ROLE_WORDS
                .iter()
                .position(|x| x == w)
                .map_or(-2, |i| i as i16),
            RoleValue::Cards(_) | RoleValue::Sides(..) => -2,
        }
    }
}

/// The bounds of a role column of type `ty` at a table of `players` seats
/// (the Gymnasium spaces read them): `(low, high)`.
pub fn column_bounds(ty: RoleType, players: usize) -> (i16, i16) {
    match ty {
        RoleType::Seat | RoleType::SeatCard | RoleType::SeatReason => (-1, players as i16 - 1),
        RoleType::Seats | RoleType::Claims => (-1, (1 << players) - 1),
        RoleType::Count => (-1, i16::MAX),
        RoleType::Flag => (-1, 1),
        RoleType::Card => (-1, 16 * 4 - 1),
        RoleType::Word => (-1, ROLE_WORDS.len() as i16 - 1),
        RoleType::Cards | RoleType::Sides => (-2, -1),
    }
}

/// A column `ddz.simulate` reports for every deal (docs/types.md): seats
/// (`width` of them, padded with -1 where fewer) or yes/no flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportColumn {
    pub key: &'static str,
    pub width: usize,
    /// Flags (booleans) rather than seats.
    pub flags: bool,
    pub doc: &'static str,
}

impl ReportColumn {
    /// A column of one seat.
    pub const fn seat(key: &'static str, doc: &'static str) -> ReportColumn {
        ReportColumn {
            key,
            width: 1,
            flags: false,
            doc,
        }
    }
}

/// What a deal reports at its end (`Family::report`): whether the
/// landlord's side won, and each of the family's report columns' values,
/// flattened in column order (seats, -1 for none; flags 0 or 1). The first
/// column is always `landlord`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub landlord_won: bool,
    pub values: Vec<i64>,
}

impl Report {
    /// The seat of the `landlord` column.
    pub fn landlord(&self) -> usize {
        self.values.first().map_or(0, |&s| s.max(0) as usize)
    }

    /// Append `seats`, padded with -1 to `width`.
    pub fn seats(&mut self, seats: &[usize], width: usize) {
        let padded = (0..width).map(|i| seats.get(i).map_or(-1, |&s| s as i64));
        self.values.extend(padded);
    }

    /// Append one seat, or -1.
    pub fn seat(&mut self, seat: Option<usize>) {
        self.values.push(seat.map_or(-1, |s| s as i64));
    }

    pub fn flag(&mut self, flag: bool) {
        self.values.push(i64::from(flag));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_has_its_json_and_column() {
        let rel = |s: usize| ((s + 5 - 1) % 5) as i16; // viewer 1 of 5
        let nine_h = Card { slot: 6, suit: 2 };
        let ace = Card { slot: 11, suit: 0 };
        let cases: Vec<(RoleValue, Value, i16)> = vec![
            (RoleValue::Unknown, Value::Null, -1),
            (RoleValue::Seat(3), json!(3), 2),
            (RoleValue::Seats(Seats::of(&[4, 0])), json!([4, 0]), 0b11000),
            (RoleValue::Count(2), json!(2), 2),
            (RoleValue::Flag(true), json!(true), 1),
            (RoleValue::Card(nine_h), json!("9h"), 6 * 4 + 2),
            (RoleValue::Cards(vec![nine_h, ace]), json!("9hAd"), -2),
            (RoleValue::Word("deputy"), json!("deputy"), 5),
            (
                RoleValue::SeatCard(1, nine_h),
                json!({"card": "9h", "seat": 1}),
                0,
            ),
            (
                RoleValue::SeatReason(2, "bombs"),
                json!({"seat": 2, "reason": "bombs"}),
                1,
            ),
            (
                RoleValue::Claims(vec![(4, ace, 3), (0, nine_h, 2)]),
                json!([[4, "AdAdAd"], [0, "9h9h"]]),
                0b11000,
            ),
        ];
        for (value, want_json, want_column) in cases {
            assert_eq!(value.to_json(), want_json, "{value:?}");
            assert_eq!(value.column(&rel), want_column, "{value:?}");
        }
    }

    #[test]
    fn a_column_stays_within_its_bounds() {
        let rel = |s: usize| s as i16;
        let card = Card { slot: 15, suit: 3 };
        let values = [
            (RoleType::Seat, RoleValue::Seat(5)),
            (
                RoleType::Seats,
                RoleValue::Seats(Seats::of(&[0, 1, 2, 3, 4, 5])),
            ),
            (RoleType::Flag, RoleValue::Flag(false)),
            (RoleType::Card, RoleValue::Card(card)),
            (RoleType::Word, RoleValue::Word("counter")),
            (RoleType::Cards, RoleValue::Cards(vec![card])),
        ];
        for (ty, v) in values {
            let (lo, hi) = column_bounds(ty, 6);
            assert!((lo..=hi).contains(&v.column(&rel)), "{ty:?}");
            assert!(v.fits(ty) && RoleValue::Unknown.fits(ty));
            assert!((lo..=hi).contains(&-1) || ty == RoleType::Cards);
        }
    }
}
