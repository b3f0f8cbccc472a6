//! The roles a seat knows, as one integer column per role key.
//!
//! A family tells each seat its roles as a JSON map (`Family::observe`,
//! the keys `Game.observation` shows). The columns are that map's keys,
//! found once per rule set; each value becomes one `i16` by its shape, so a
//! new family needs no code here (docs/rl.md lists the encodings):
//!
//! - unknown or none (`null`): -1
//! - a flag: 0 or 1; a number: itself
//! - a seat (keys naming a seat: `landlord`, `deputy`, `marked_holder`,
//!   ...): the seat relative to the viewer, 0 being the viewer
//! - a list of seats (or of `[seat, ...]` pairs): a bit mask of relative seats
//! - a card identity (`"9h"`): `slot * 4 + suit`
//! - a role word (`"farmer"`): its place in [`ROLE_WORDS`]
//! - a map with a `seat` (`{"card": .., "seat": 2}`): that relative seat
//! - anything else: -2

use crate::table::physical::parse_identities;
use crate::table::{Core, Family, IntRole};
use serde_json::{Map, Value};

/// Role words, numbered by their place here.
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

/// The most keys a family's `observe_ints` gives.
const MAX_INT_KEYS: usize = 16;

/// Parts of a key's name that mark its value as a seat.
const SEAT_WORDS: [&str; 8] = [
    "landlord", "deputy", "holder", "seat", "partner", "leader", "friend", "winner",
];

/// Does `key` hold seats (rather than counts)?
pub fn is_seat_key(key: &str) -> bool {
    !key.contains("count") && SEAT_WORDS.iter().any(|w| key.contains(w))
}

/// Turns role maps into columns, relative to the viewing seat.
#[derive(Clone, Debug)]
pub struct RoleColumns {
    pub keys: Vec<String>,
    seat_key: Vec<bool>,
    /// Each column's place in the family's `int_role_keys`, where those
    /// keys give every column (`write_ints`); empty otherwise.
    int_places: Vec<usize>,
}

impl RoleColumns {
    /// Columns `keys`; `int_keys`, the family's `int_role_keys`.
    pub fn new(keys: Vec<String>, int_keys: &[&str]) -> RoleColumns {
        let seat_key = keys.iter().map(|k| is_seat_key(k)).collect();
        let place = |k: &String| int_keys.iter().position(|i| i == k);
        let int_places = match int_keys.len() <= MAX_INT_KEYS {
            true => keys.iter().map(place).collect::<Option<_>>(),
            false => None,
        };
        RoleColumns {
            keys,
            seat_key,
            int_places: int_places.unwrap_or_default(),
        }
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Write `roles` (as `viewer` of `players` seats sees them) into `out`,
    /// one value per key.
    pub fn write(
        &self,
        roles: &Map<String, Value>,
        viewer: usize,
        players: usize,
        out: &mut [i16],
    ) {
        let rel = seat_from(viewer, players);
        for (j, key) in self.keys.iter().enumerate() {
            out[j] = match roles.get(key) {
                None => -1,
                Some(v) => encode(v, self.seat_key[j], &rel),
            };
        }
    }

    /// As `write`, from the family's `observe_ints` (no JSON map built);
    /// false, with `out` untouched, where the family has no such form.
    pub fn write_ints(
        &self,
        t: &Core,
        family: &dyn Family,
        viewer: usize,
        out: &mut [i16],
    ) -> bool {
        if self.int_places.is_empty() {
            return false;
        }
        let rel = seat_from(viewer, t.players());
        let mut given = [IntRole::Unknown; MAX_INT_KEYS];
        family.observe_ints(t, viewer, &mut given);
        for (j, (o, &at)) in out.iter_mut().zip(&self.int_places).enumerate() {
            *o = match given[at] {
                IntRole::Unknown => -1,
                IntRole::Seat(s) => number(s as i64, self.seat_key[j], &rel),
                IntRole::Number(x) => number(x, self.seat_key[j], &rel),
            };
        }
        true
    }
}

/// A number: a seat (relative) under a seat key, else itself.
/// Absolute seat -> seat relative to `viewer`. A seat is below
/// `players`, so one subtraction does the `% players` (a division per call
/// otherwise, several times a step); a larger number takes the division.
fn seat_from(viewer: usize, players: usize) -> impl Fn(u64) -> i16 {
    let shift = players - viewer % players;
    move |s: u64| {
        let d = s as usize + shift;
        (if d < players {
            d
        } else if d < 2 * players {
            d - players
        } else {
            d % players
        }) as i16
    }
}

fn number<F: Fn(u64) -> i16 + ?Sized>(x: i64, seat: bool, rel: &F) -> i16 {
    if seat && x >= 0 {
        rel(x as u64)
    } else {
        x.clamp(i16::MIN.into(), i16::MAX.into()) as i16
    }
}

fn encode(v: &Value, seat: bool, rel: &dyn Fn(u64) -> i16) -> i16 {
    match v {
        Value::Null => -1,
        Value::Bool(b) => i16::from(*b),
        Value::Number(n) => n.as_i64().map_or(-2, |x| number(x, seat, rel)),
        Value::String(s) => word_or_card(s),
        Value::Array(items) => {
            let mut mask = 0i16;
            for item in items {
                let s = match item {
                    Value::Array(pair) => pair.first().and_then(Value::as_u64),
                    other => other.as_u64(),
                };
                match s {
                    Some(s) => mask |= 1 << rel(s),
                    None => return -2,
                }
            }
            mask
        }
        Value::Object(fields) => match fields.get("seat").and_then(Value::as_u64) {
            Some(s) => rel(s),
            None => -2,
        },
    }
}

fn word_or_card(s: &str) -> i16 {
    if let Some(i) = ROLE_WORDS.iter().position(|w| *w == s) {
        return i as i16;
    }
    match parse_identities(s).as_deref() {
        Ok([one]) => i16::from(one.slot) * 4 + i16::from(one.suit.unwrap_or(0)),
        _ => -2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn columns(v: Value, viewer: usize) -> Vec<i16> {
        let Value::Object(map) = v else { panic!() };
        let cols = RoleColumns::new(map.keys().cloned().collect(), &[]);
        let mut out = vec![0; cols.len()];
        cols.write(&map, viewer, 5, &mut out);
        out
    }

    #[test]
    fn each_shape_has_its_encoding() {
        // Keys sort: bid, grabs, hidden_count, landlord, mark, marked, role, solo, x.
        let v = json!({
            "landlord": 3, "bid": 2, "hidden_count": 2, "solo": null, "role": "deputy",
            "marked": "9h", "grabs": [[4, "AAA"], [0, "KK"]],
            "mark": {"card": "9h", "seat": 1}, "x": "??",
        });
        assert_eq!(
            columns(v, 1),
            vec![2, 0b11000, 2, 2, 0, 6 * 4 + 2, 5, -1, -2]
        );
    }

    #[test]
    fn seat_keys_are_told_by_name() {
        assert!(is_seat_key("hidden_landlord"));
        assert!(is_seat_key("marked_holder"));
        assert!(!is_seat_key("hidden_count"));
        assert!(!is_seat_key("bid"));
    }
}
