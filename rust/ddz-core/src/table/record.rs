//! A table's record: the rule set, the seed, every deal dealt (redeals
//! included) and every action with the physical cards each play moved.
//! One format (`FORMAT`, the last of `FORMATS`; docs/game.md#records),
//! written and read here for everyone: `Game.to_json`/`Game.from_json`,
//! `ddz.simulate`'s records and the server's stored deals.
//!
//! The text is what Python's `json.dumps` wrote when records were made in
//! Python (`", "` and `": "` between items, keys in their order), so a
//! record's text does not depend on who made it.

use super::physical;
use super::{Action, Deal, Phase, Table};
use crate::engine::Engine;
use crate::options::OptionSpec;
use crate::play::{Kind, Move};
use crate::py_words::{json_type, py_repr};
use crate::rules::Rules;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::fmt;
use std::io;
use std::sync::Arc;

/// Every format `Record::parse` reads, oldest first. Version 2 added the
/// table's game-flow options; a first-format rule dict lacks them, and they
/// take their preset's values (`Rules::from_json`). Each option declares
/// the format it first appeared in (`OptionSpec::since`, in `rules.rs`).
pub const FORMATS: [&str; 2] = ["ddz-game/1", "ddz-game/2"];

impl OptionSpec {
    /// The record format the option first appeared in (`since`). Here,
    /// beside the formats, so that the rule options read nothing of the
    /// table.
    pub fn format(&self) -> &'static str {
        FORMATS[self.since as usize - 1]
    }
}

/// The format records are written in: the newest.
pub const FORMAT: &str = FORMATS[FORMATS.len() - 1];

/// Why a record could not be read or replayed, with the seat and phase
/// of the action at fault and its text, where one is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub message: String,
    pub seat: Option<usize>,
    pub phase: Option<Phase>,
    pub text: Option<String>,
}

impl RecordError {
    /// An error of the record's text, not of one action.
    pub fn text(message: impl Into<String>) -> RecordError {
        RecordError::new(message)
    }

    fn new(message: impl Into<String>) -> RecordError {
        RecordError {
            message: message.into(),
            seat: None,
            phase: None,
            text: None,
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RecordError {}

/// One recorded action: the seat, the action and, for a play, the
/// physical cards it took from the hand as identities (`"9h9s"`; a rank
/// without a suit is any copy).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub seat: usize,
    pub action: Action,
    pub ids: Option<String>,
}

/// A record, as `Record::of` takes it from a table or `Record::parse`
/// reads it.
#[derive(Clone, Debug)]
pub struct Record {
    pub rules: Rules,
    /// The seed as the caller gave it: decimal digits, `-` first where
    /// negative. Any integer: the table deals from it modulo 2^64.
    pub seed: String,
    pub deals: Vec<Value>,
    pub actions: Vec<Entry>,
}

impl Record {
    /// The record of `table` so far, its deals drawn from `seed`.
    pub fn of(table: &Table, seed: &str) -> Record {
        let actions = table.actions().iter().map(|taken| Entry {
            seat: taken.seat,
            action: taken.action,
            ids: (taken.action.is_play()).then(|| physical::identities(table.cards_of(taken))),
        });
        Record {
            rules: table.rules().clone(),
            seed: seed.to_string(),
            deals: table.deals().iter().map(Deal::to_json).collect(),
            actions: actions.collect(),
        }
    }

    /// The record's text (`Game.to_json()`).
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        let mut writer = serde_json::Serializer::with_formatter(&mut out, SpacedFormatter);
        self.serialize(&mut writer)
            .expect("a record always serialises");
        String::from_utf8(out).expect("JSON is UTF-8")
    }

    /// The table deals from this (`seed` modulo 2^64, as Python's `%`).
    pub fn table_seed(&self) -> u64 {
        seed_mod_2_64(&self.seed)
    }

    /// Read a record's text: its format, the types of its parts, each
    /// play's reading. The rules and deals are checked by `replay`.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| RecordError::new(format!("a game record is JSON text: {e}")))?;
        let Value::Object(fields) = &value else {
            return Err(RecordError::new(format!(
                "a game record is a JSON object, not {}",
                json_type(&value)
            )));
        };
        let format = fields.get("format");
        if !format
            .and_then(Value::as_str)
            .is_some_and(|f| FORMATS.contains(&f))
        {
            let shown = format.map_or("None".to_string(), py_repr);
            return Err(RecordError::new(format!(
                "not a game record this version reads: format {shown}; it reads {}",
                FORMATS.join(", ")
            )));
        }
        for (key, kind) in [
            ("rules", "dict"),
            ("seed", "int"),
            ("deals", "list"),
            ("actions", "list"),
        ] {
            let Some(v) = fields.get(key) else {
                return Err(RecordError::new(format!("the record has no '{key}'")));
            };
            let ok = match kind {
                "dict" => v.is_object(),
                "int" => v.is_i64() || v.is_u64() || big_int(text).is_some(),
                _ => v.is_array(),
            };
            if !ok {
                return Err(RecordError::new(format!(
                    "the record's '{key}' must be a {kind}, not {}",
                    py_repr(v)
                )));
            }
        }
        let deals = fields["deals"].as_array().expect("checked").clone();
        if !deals.iter().all(Value::is_object) {
            return Err(RecordError::new(
                "the record's 'deals' must all be deal dicts",
            ));
        }
        let rules = Rules::from_json(&fields["rules"].to_string())
            .map_err(|e| RecordError::new(format!("the record's rules or deals: {e}")))?;
        let seed = match &fields["seed"] {
            Value::Number(n) if n.is_i64() || n.is_u64() => n.to_string(),
            _ => big_int(text).expect("checked"),
        };
        let engine = Engine::new(rules.clone())
            .map_err(|e| RecordError::new(format!("the record's rules or deals: {e}")))?;
        let mut actions = Vec::new();
        for (i, item) in fields["actions"]
            .as_array()
            .expect("checked")
            .iter()
            .enumerate()
        {
            actions.push(entry(&engine, i, item)?);
        }
        Ok(Record {
            rules,
            seed,
            deals,
            actions,
        })
    }

    /// The table this record ends at: its deals dealt, its actions taken in
    /// order, each checked as a seat's action would be.
    pub fn replay(&self, engine: Arc<Engine>) -> Result<Table, RecordError> {
        let mut table = self.dealt(engine)?;
        self.take_actions(&mut table)?;
        Ok(table)
    }

    /// The table this record starts at: its deals dealt, no action taken.
    pub fn dealt(&self, engine: Arc<Engine>) -> Result<Table, RecordError> {
        let bad =
            |e: &dyn fmt::Display| RecordError::new(format!("the record's rules or deals: {e}"));
        let rules = engine.rules();
        let deals: Result<Vec<Deal>, _> = self
            .deals
            .iter()
            .map(|d| Table::parse_deal(rules, d))
            .collect();
        let deals = deals.map_err(|e| bad(&e))?;
        let rng = super::Rng::for_game(self.table_seed(), 0);
        Table::new(engine, rng, deals).map_err(|e| bad(&e))
    }

    /// Take the record's actions on `table`, dealt with its deals.
    pub fn take_actions(&self, table: &mut Table) -> Result<(), RecordError> {
        (0..self.actions.len()).try_for_each(|i| self.take_action(table, i))
    }

    /// Take record action `i` on `table` (the ones before it taken).
    pub fn take_action(&self, table: &mut Table, i: usize) -> Result<(), RecordError> {
        replay_one(table, i, &self.actions[i])
    }
}

/// Take record action `i` on `table`, or say why it cannot be.
fn replay_one(table: &mut Table, i: usize, e: &Entry) -> Result<(), RecordError> {
    let shown = entry_text(e);
    if table.is_over() {
        return Err(RecordError::new(format!(
            "record action {i} comes after the end of the deal"
        )));
    }
    let (seat, phase) = (table.to_act(), table.phase());
    if e.seat != seat {
        return Err(RecordError {
            seat: Some(e.seat),
            phase: Some(phase),
            ..RecordError::new(format!(
                "record out of turn: seat {}, expected {seat}",
                e.seat
            ))
        });
    }
    let taken = match &e.action {
        Action::Play(m) => table
            .resolve_move(*m, e.ids.as_deref())
            .and_then(|(a, named)| table.apply_named(a, &named)),
        word => table
            .resolve_text(&word.to_string(), None)
            .and_then(|(a, named)| table.apply_named(a, &named)),
    };
    taken.map_err(|why| RecordError {
        seat: Some(seat),
        phase: Some(phase),
        text: Some(shown.clone()),
        ..RecordError::new(format!("record action {i} ({shown}): {why}"))
    })
}

/// An action of a record's list: `[seat, word]` or `[seat, {play...}]`.
fn entry(engine: &Engine, i: usize, item: &Value) -> Result<Entry, RecordError> {
    let pair = item.as_array().filter(|p| p.len() == 2);
    let Some((seat, action)) = pair.and_then(|p| Some((p[0].as_u64()?, &p[1]))) else {
        return Err(RecordError::new(format!(
            "record action {i} must be [seat, action], not {}",
            py_repr(item)
        )));
    };
    let seat = seat as usize;
    let at = |message: String| {
        RecordError::new(format!(
            "record action {i} ({}): {message}",
            py_repr(action)
        ))
    };
    match action {
        Value::String(word) => match Action::parse(word) {
            Some(a) => Ok(Entry {
                seat,
                action: a,
                ids: None,
            }),
            None => Err(at(format!("'{word}' is not a decision word"))),
        },
        Value::Object(play) => {
            let ids = match play.get("ids") {
                None | Some(Value::Null) => None,
                Some(Value::String(ids)) => Some(ids.clone()),
                Some(other) => {
                    return Err(RecordError::new(format!(
                        "'ids' must be card text, not {}",
                        py_repr(other)
                    )))
                }
            };
            let m = reading(engine, play).map_err(|e| at(e.message))?;
            Ok(Entry {
                seat,
                action: Action::Play(m),
                ids,
            })
        }
        other => Err(at(format!(
            "an action is a word or a play dict, not {}",
            py_repr(other)
        ))),
    }
}

/// The reading a record's play names: its cards, kind, rank and length.
fn reading(engine: &Engine, play: &serde_json::Map<String, Value>) -> Result<Move, RecordError> {
    let missing = |what: &str| {
        RecordError::new(format!(
            "a play needs 'play', 'kind', 'rank' and 'length': {what}"
        ))
    };
    let text = play
        .get("play")
        .and_then(Value::as_str)
        .ok_or_else(|| missing("'play'"))?;
    let kind = play
        .get("kind")
        .and_then(Value::as_str)
        .ok_or_else(|| missing("'kind'"))?;
    let rank = play
        .get("rank")
        .and_then(Value::as_str)
        .ok_or_else(|| missing("'rank'"))?;
    let length = play
        .get("length")
        .and_then(Value::as_u64)
        .ok_or_else(|| missing("'length'"))?;
    let no_reading = || {
        RecordError::new(format!(
            "record holds a play that is no reading: {}",
            py_repr(&Value::Object(play.clone()))
        ))
    };
    let cards = engine.parse(text).map_err(|_| no_reading())?;
    let kind = Kind::from_id(kind).ok_or_else(no_reading)?;
    engine
        .classify(&cards)
        .into_iter()
        .find(|m| {
            m.kind == kind && m.rank_symbol().to_string() == rank && u64::from(m.length) == length
        })
        .ok_or_else(no_reading)
}

/// A record entry as a message shows it (Python's repr of what the record
/// holds).
fn entry_text(e: &Entry) -> String {
    let Action::Play(m) = e.action else {
        return format!("'{}'", e.action);
    };
    let ids = e
        .ids
        .as_ref()
        .map_or("None".to_string(), |i| format!("'{i}'"));
    format!(
        "{{'play': '{}', 'kind': '{}', 'rank': '{}', 'length': {}, 'ids': {ids}}}",
        m.cards,
        m.kind.id(),
        m.rank_symbol(),
        m.length
    )
}

/// The seed's digits where JSON holds an integer wider than 64 bits
/// (serde_json reads those as floats): taken from the text itself.
fn big_int(text: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct SeedOnly<'a> {
        #[serde(borrow)]
        seed: &'a serde_json::value::RawValue,
    }
    let raw = serde_json::from_str::<SeedOnly>(text)
        .ok()?
        .seed
        .get()
        .trim();
    let digits = raw.strip_prefix('-').unwrap_or(raw);
    let integer = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    integer.then(|| raw.to_string())
}

/// A decimal integer modulo 2^64, as Python's `%` (never negative).
pub fn seed_mod_2_64(seed: &str) -> u64 {
    let (negative, digits) = match seed.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, seed),
    };
    let mut m: u64 = 0;
    for b in digits.bytes() {
        m = m.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
    }
    if negative {
        m.wrapping_neg()
    } else {
        m
    }
}

impl Serialize for Record {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(5))?;
        map.serialize_entry("format", FORMAT)?;
        map.serialize_entry("rules", &self.rules)?;
        match (self.seed.parse::<i64>(), self.seed.parse::<u64>()) {
            (Ok(seed), _) => map.serialize_entry("seed", &seed)?,
            (_, Ok(seed)) => map.serialize_entry("seed", &seed)?,
            _ => {
                // Wider than 64 bits: its digits as they are.
                let raw = serde_json::value::RawValue::from_string(self.seed.clone())
                    .map_err(serde::ser::Error::custom)?;
                map.serialize_entry("seed", &raw)?
            }
        }
        map.serialize_entry("deals", &self.deals)?;
        map.serialize_entry("actions", &Actions(&self.actions))?;
        map.end()
    }
}

struct Actions<'a>(&'a [Entry]);

impl Serialize for Actions<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for e in self.0 {
            seq.serialize_element(&(e.seat, EntryAction(e)))?;
        }
        seq.end()
    }
}

/// A recorded action: its word, or a play's cards, reading and physical
/// cards (`{"play", "kind", "rank", "length", "ids"}` in that order).
struct EntryAction<'a>(&'a Entry);

impl Serialize for EntryAction<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Action::Play(m) = self.0.action else {
            return s.serialize_str(&self.0.action.to_string());
        };
        let mut map = s.serialize_map(Some(5))?;
        map.serialize_entry("play", &m.cards.to_string())?;
        map.serialize_entry("kind", m.kind.id())?;
        map.serialize_entry("rank", &m.rank_symbol().to_string())?;
        map.serialize_entry("length", &m.length)?;
        map.serialize_entry("ids", &self.0.ids)?;
        map.end()
    }
}

/// JSON with `", "` between items and `": "` after keys, as Python's
/// `json.dumps` writes it.
struct SpacedFormatter;

impl serde_json::ser::Formatter for SpacedFormatter {
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::later_options;
    use crate::rules::OPTIONS;

    /// The options of the first record format (`ddz-game/1`), as it was
    /// released: history, never edited. An option not here was added later.
    const FIRST_FORMAT: [&str; 35] = [
        "preset",
        "players",
        "decks",
        "laizi",
        "hand_size",
        "kitty",
        "set_aside",
        "trio_single",
        "plane_singles",
        "four_two_singles",
        "four_two_pairs",
        "joker_pairs",
        "joker_trio_pair",
        "sequences",
        "wings_consecutive",
        "no_bomb_inside",
        "rocket_as_kickers",
        "plane_222333_high",
        "ladder",
        "king_bombs",
        "seven_star_kills_last_joker",
        "spring",
        "anti_spring",
        "double_step",
        "score_scheme",
        "auto_win",
        "level_points",
        "no_grab_base",
        "landlord_bidding",
        "farmers_pick_sides",
        "kitty_split",
        "both_copies_open",
        "three_copies_win",
        "forced_taker",
        "two_bids_base",
    ];

    #[test]
    fn an_option_added_after_the_first_format_says_so() {
        for o in OPTIONS {
            let first = FIRST_FORMAT.contains(&o.name);
            assert_eq!(o.since == 1, first, "{}: since {}", o.name, o.since);
            assert!(
                (1..=FORMATS.len()).contains(&(o.since as usize)),
                "{}",
                o.name
            );
        }
        assert_eq!(FORMATS.last(), Some(&FORMAT));
        let later: Vec<&str> = later_options().map(|o| o.name).collect();
        assert_eq!(later.len(), OPTIONS.len() - FIRST_FORMAT.len());
    }

    #[test]
    fn seeds_reduce_as_python_does() {
        assert_eq!(seed_mod_2_64("7"), 7);
        assert_eq!(seed_mod_2_64("-1"), u64::MAX);
        assert_eq!(seed_mod_2_64("18446744073709551616"), 0); // 2**64
        assert_eq!(seed_mod_2_64("18446744073709551621"), 5);
    }

    #[test]
    fn a_record_reads_back_and_replays_to_the_same_table() {
        for preset in crate::rules::PRESETS {
            let engine = Arc::new(Engine::new(Rules::preset(preset).unwrap()).unwrap());
            let mut t = Table::seeded(engine.clone(), 9, 0).unwrap();
            let mut rng = super::super::Rng(5);
            for _ in 0..60 {
                if t.is_over() {
                    break;
                }
                let n = t.legal_unordered().len();
                t.apply_unordered(rng.below(n));
            }
            for seed in ["9", "-3", "1180591620717411303424"] {
                let text = Record::of(&t, seed).to_json();
                let back = Record::parse(&text).unwrap();
                assert_eq!(back.seed, seed);
                assert_eq!(back.to_json(), text, "{preset}");
                let again = back.replay(engine.clone()).unwrap();
                assert_eq!(Record::of(&again, seed).to_json(), text, "{preset}");
            }
        }
    }
}
