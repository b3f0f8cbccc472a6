//! The rule options as data: each option of `Rules` is declared once (in
//! `rules.rs`, through `rule_options!`), and that declaration gives its
//! name, type, doc, the flows that read it and the record format it first
//! appeared in. Building a rule set from named values (`Rules::with_options`,
//! `Rules::from_json`), the bindings' getters and stub, the docs table and
//! the record bookkeeping all read `OPTIONS`.

use crate::error::{Expected, RulesError};
use crate::py_words::json_type;
use crate::rules::{Flow, KingBomb, Rules};
use serde_json::{Map, Value};

/// What values an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Bool,
    /// A whole number in `min..=max` (the field's width; the rule checks
    /// narrow it further).
    Int {
        min: u64,
        max: u64,
    },
    /// One of a few words.
    Word(&'static [&'static str]),
    /// Any text (the preset's name).
    Text,
    /// The list of king bombs: `{"small", "big", "above", "order"}` each.
    KingBombs,
}

impl OptionKind {
    /// The type's name in docs and in the Python stub's terms.
    pub fn name(self) -> &'static str {
        match self {
            OptionKind::Bool => "bool",
            OptionKind::Int { .. } => "int",
            OptionKind::Word(_) => "word",
            OptionKind::Text => "str",
            OptionKind::KingBombs => "king bombs",
        }
    }

    /// The words of a `Word` option.
    pub fn words(self) -> Option<&'static [&'static str]> {
        match self {
            OptionKind::Word(words) => Some(words),
            _ => None,
        }
    }

    /// Why `value` is not of this kind, or `None` when it is. Checked here
    /// rather than left to serde, so that an error says what was expected
    /// in its own words.
    fn refuse(self, value: &Value) -> Option<Expected> {
        let fits = match self {
            OptionKind::Bool => value.is_boolean(),
            OptionKind::Int { min, max } => {
                value.as_u64().is_some_and(|n| (min..=max).contains(&n))
            }
            OptionKind::Word(words) => value.as_str().is_some_and(|w| words.contains(&w)),
            OptionKind::Text => value.is_string(),
            OptionKind::KingBombs => return king_bombs_refused(value),
        };
        (!fits).then_some(Expected::Kind(self))
    }
}

/// Why a `king_bombs` value is not a list of king bombs.
fn king_bombs_refused(value: &Value) -> Option<Expected> {
    let Some(list) = value.as_array() else {
        return Some(Expected::Kind(OptionKind::KingBombs));
    };
    for (at, item) in list.iter().enumerate() {
        let Some(fields) = item.as_object() else {
            return Some(Expected::KingBomb { at, field: None });
        };
        if let Some(extra) = fields
            .keys()
            .find(|k| !KING_BOMB_FIELDS.contains(&k.as_str()))
        {
            return Some(Expected::KingBombField {
                at,
                field: extra.clone(),
            });
        }
        for field in KING_BOMB_FIELDS {
            let given = fields.get(field);
            let required = field != "order";
            let fits = match given {
                None => !required,
                Some(v) => v.as_u64().is_some_and(|n| n <= u8::MAX as u64),
            };
            if !fits {
                return Some(Expected::KingBomb {
                    at,
                    field: Some(field),
                });
            }
        }
    }
    None
}

/// The fields of one king bomb; `order` may be left out (0).
pub const KING_BOMB_FIELDS: [&str; 4] = ["small", "big", "above", "order"];

/// A type an option may have: how its values look.
pub trait OptionType {
    const KIND: OptionKind;
}

impl OptionType for bool {
    const KIND: OptionKind = OptionKind::Bool;
}

impl OptionType for u8 {
    const KIND: OptionKind = OptionKind::Int {
        min: 0,
        max: u8::MAX as u64,
    };
}

impl OptionType for u16 {
    const KIND: OptionKind = OptionKind::Int {
        min: 0,
        max: u16::MAX as u64,
    };
}

impl OptionType for String {
    const KIND: OptionKind = OptionKind::Text;
}

impl OptionType for Vec<KingBomb> {
    const KIND: OptionKind = OptionKind::KingBombs;
}

/// Which flows read an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadBy {
    /// Every flow: the deck, the deal, the plays and what beats what.
    Every,
    /// Nothing decides how to play by it (`preset`, a name only).
    Nobody,
    /// The families of these flows.
    Flows(&'static [Flow]),
}

impl ReadBy {
    /// The flows that read the option, in `Flow::ALL`'s order.
    pub fn flows(self) -> Vec<Flow> {
        Flow::ALL
            .into_iter()
            .filter(|f| match self {
                ReadBy::Every => true,
                ReadBy::Nobody => false,
                ReadBy::Flows(flows) => flows.contains(f),
            })
            .collect()
    }
}

/// One rule option, as declared in `rules.rs`.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// The name users pass, the field of `Rules` and the key of its JSON.
    pub name: &'static str,
    pub kind: OptionKind,
    /// What it means: the field's doc comment.
    pub doc: &'static str,
    pub read_by: ReadBy,
    /// The record format (`FORMATS[since - 1]`, `OptionSpec::format` in
    /// `table/record.rs`: the rule data reads nothing of the table) whose
    /// rule sets first hold it. A rule set without an option added later takes its preset's
    /// value (`Rules::from_json`), so older records keep loading.
    pub since: u8,
    /// Its value in a rule set, as JSON.
    pub get: fn(&Rules) -> Value,
    /// Set it from JSON that `kind` accepts.
    pub set: fn(&mut Rules, Value) -> Result<(), serde_json::Error>,
}

/// The option called `name`.
pub fn option(name: &str) -> Option<&'static OptionSpec> {
    crate::rules::OPTIONS.iter().find(|o| o.name == name)
}

/// The options added after the first record format: a rule set without
/// them takes its preset's values.
pub fn later_options() -> impl Iterator<Item = &'static OptionSpec> {
    crate::rules::OPTIONS.iter().filter(|o| o.since > 1)
}

/// Declares `Rules` and `OPTIONS` from one list: each option once, with its
/// doc comment, type, the record format it first appeared in and the flows
/// that read it.
macro_rules! rule_options {
    ($(
        $(#[doc = $doc:literal])+
        $name:ident: $ty:ty, since $since:literal, $read_by:expr;
    )+) => {
        /// Every option of a rule set. Field names are the option names
        /// users pass (`OPTIONS` describes each).
        #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct Rules {
            $( $(#[doc = $doc])+ pub $name: $ty, )+
        }

        /// Every option, in the order of `Rules`' fields and its JSON.
        pub const OPTIONS: &[$crate::options::OptionSpec] = &[$(
            $crate::options::OptionSpec {
                name: stringify!($name),
                kind: <$ty as $crate::options::OptionType>::KIND,
                doc: concat!($($doc, "\n"),+),
                read_by: $read_by,
                since: $since,
                get: |r| serde_json::to_value(&r.$name).expect("options serialise"),
                set: |r, v| {
                    r.$name = serde_json::from_value(v)?;
                    Ok(())
                },
            },
        )+];
    };
}
pub(crate) use rule_options;

/// Declares an option whose values are a few words, with the words once:
/// the enum, its serde names, `ALL`, `name()` and its `OptionType`.
macro_rules! word_option {
    (
        $(#[$meta:meta])*
        pub enum $enum:ident {
            $( $(#[doc = $doc:literal])* $variant:ident = $word:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum $enum {
            $( $(#[doc = $doc])* #[serde(rename = $word)] $variant, )+
        }

        impl $enum {
            /// Every value, in declaration order.
            pub const ALL: [$enum; { [$($word),+].len() }] = [$($enum::$variant),+];
            /// The words users write, in declaration order.
            pub const WORDS: &'static [&'static str] = &[$($word),+];

            /// The word `to_dict()` and the getter give.
            pub fn name(self) -> &'static str {
                match self {
                    $($enum::$variant => $word,)+
                }
            }
        }

        impl $crate::options::OptionType for $enum {
            const KIND: $crate::options::OptionKind = $crate::options::OptionKind::Word($enum::WORDS);
        }
    };
}
pub(crate) use word_option;

/// The values given to one option each, in the order given.
pub type Given<'a> = &'a [(&'a str, Value)];

impl Rules {
    /// The preset `preset` with `options` set, each checked on its own so
    /// that an error names the option at fault. The rule set is not yet
    /// checked as a whole: `Rules::check` does that.
    pub fn with_options(preset: &str, options: Given<'_>) -> Result<Rules, RulesError> {
        let mut rules =
            Rules::preset(preset).map_err(|e| RulesError::UnknownPreset { name: e.0 })?;
        for (name, value) in options {
            set_option(&mut rules, preset, name, value.clone())?;
        }
        Ok(rules)
    }

    /// A rule set from a JSON object of options (`to_json`'s form). Each
    /// option is checked as `with_options` checks it, on the named preset's
    /// values (classic's when the name is no preset); the options added
    /// after the first record format take the preset's value when missing,
    /// and every other option must be present.
    pub fn from_value(value: &Value) -> Result<Rules, RulesError> {
        let Value::Object(fields) = value else {
            return Err(RulesError::NotAnObject {
                found: json_type(value),
            });
        };
        let named = fields.get("preset").and_then(Value::as_str).unwrap_or("");
        let preset = Rules::preset(named).ok();
        let mut rules = preset
            .clone()
            .unwrap_or_else(|| Rules::preset("classic").expect("classic is a preset"));
        for (name, value) in fields {
            set_option(&mut rules, named, name, value.clone())?;
        }
        for spec in crate::rules::OPTIONS {
            let later = spec.since > 1 && preset.is_some();
            if !fields.contains_key(spec.name) && !later {
                return Err(RulesError::Missing { option: spec.name });
            }
        }
        Ok(rules)
    }

    /// `from_value` of JSON text.
    pub fn from_json(text: &str) -> Result<Rules, RulesError> {
        let value: Value = serde_json::from_str(text).map_err(|e| RulesError::NotJson {
            line: e.line(),
            column: e.column(),
            why: JsonProblem::of(&e),
        })?;
        Rules::from_value(&value)
    }

    /// Every option as a JSON object (`to_json`'s form).
    pub fn to_value(&self) -> Map<String, Value> {
        crate::rules::OPTIONS
            .iter()
            .map(|o| (o.name.to_string(), (o.get)(self)))
            .collect()
    }
}

fn set_option(rules: &mut Rules, preset: &str, name: &str, value: Value) -> Result<(), RulesError> {
    let Some(spec) = option(name) else {
        return Err(RulesError::UnknownOption {
            name: name.to_string(),
        });
    };
    if let Some(expected) = spec.kind.refuse(&value) {
        return Err(RulesError::BadValue {
            option: spec.name,
            preset: preset.to_string(),
            value,
            expected,
        });
    }
    (spec.set)(rules, value).map_err(|_| unreachable_kind(spec))
}

/// A value `OptionKind::refuse` let through that serde still refused: the
/// kind and the type disagree, a bug in the declaration.
fn unreachable_kind(spec: &OptionSpec) -> RulesError {
    RulesError::Conflict {
        option: spec.name,
        why: format!("the {} declaration does not match its type", spec.name),
    }
}

/// What went wrong reading JSON text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonProblem {
    /// The text ends too soon.
    Truncated,
    /// Not JSON at this place.
    Syntax,
}

impl JsonProblem {
    fn of(e: &serde_json::Error) -> JsonProblem {
        match e.classify() {
            serde_json::error::Category::Eof => JsonProblem::Truncated,
            _ => JsonProblem::Syntax,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{OPTIONS, PRESETS};
    use serde_json::json;

    #[test]
    fn options_are_the_fields_in_order() {
        let rules = Rules::preset("laizi").unwrap();
        let Value::Object(fields) = serde_json::to_value(&rules).unwrap() else {
            panic!("rules serialise to an object");
        };
        let mut names: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
        // `to_json` writes the fields in declaration order.
        let text = rules.to_json();
        let at: Vec<usize> = names
            .iter()
            .map(|n| text.find(&format!("\"{n}\":")).unwrap())
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{text}");
        names.sort_unstable();
        assert_eq!(fields.keys().map(String::as_str).collect::<Vec<_>>(), names);
        assert_eq!(Value::Object(rules.to_value()), Value::Object(fields));
    }

    #[test]
    fn every_preset_value_fits_its_kind_and_reads_back() {
        for preset in PRESETS {
            let rules = Rules::preset(preset).unwrap();
            for o in OPTIONS {
                let value = (o.get)(&rules);
                assert_eq!(o.kind.refuse(&value), None, "{preset} {}", o.name);
                let mut copy = Rules::preset("classic").unwrap();
                (o.set)(&mut copy, value.clone()).unwrap();
                assert_eq!((o.get)(&copy), value);
            }
        }
    }

    #[test]
    fn every_word_of_a_word_option_is_accepted_and_nothing_else() {
        for o in OPTIONS {
            let Some(words) = o.kind.words() else {
                continue;
            };
            for word in words {
                let mut r = Rules::preset("classic").unwrap();
                (o.set)(&mut r, json!(word)).unwrap();
                assert_eq!((o.get)(&r), json!(word));
            }
            let mut r = Rules::preset("classic").unwrap();
            assert!((o.set)(&mut r, json!("nonsense")).is_err());
        }
    }

    #[test]
    fn every_option_has_a_doc_and_its_flows() {
        for o in OPTIONS {
            assert!(!o.doc.trim().is_empty(), "{}", o.name);
            let flows = o.read_by.flows();
            assert_eq!(flows.is_empty(), o.read_by == ReadBy::Nobody, "{}", o.name);
        }
    }

    #[test]
    fn with_options_checks_each_value_by_its_kind() {
        let ok = Rules::with_options("classic", &[("spring", json!(false))]).unwrap();
        assert!(!ok.spring);
        let err = |name: &str, value: Value| {
            Rules::with_options("classic", &[(name, value)]).unwrap_err()
        };
        assert_eq!(
            err("sprung", json!(true)),
            RulesError::UnknownOption {
                name: "sprung".into()
            }
        );
        for (name, value) in [
            ("spring", json!("yes")),
            ("spring", json!(1)),
            ("decks", json!(300)),
            ("decks", json!(-1)),
            ("decks", json!(1.5)),
            ("level_points", json!(70000)),
            ("flow", json!("two-landlords")),
            ("preset", json!(3)),
            ("king_bombs", json!(3)),
            ("king_bombs", json!([{"small": 1}])),
            (
                "king_bombs",
                json!([{"small": 1, "big": 1, "above": 4, "colour": 2}]),
            ),
        ] {
            assert!(
                matches!(err(name, value.clone()), RulesError::BadValue { option, .. } if option == name),
                "{name} {value}"
            );
        }
        assert_eq!(
            Rules::with_options("seven-player", &[]).unwrap_err(),
            RulesError::UnknownPreset {
                name: "seven-player".into()
            }
        );
    }

    #[test]
    fn from_value_names_the_option_at_fault() {
        let classic = Rules::preset("classic").unwrap();
        let mut data = classic.to_value();
        data.insert("spring".into(), json!(3));
        assert!(matches!(
            Rules::from_value(&Value::Object(data)),
            Err(RulesError::BadValue {
                option: "spring",
                ..
            })
        ));
        let mut data = classic.to_value();
        data.remove("spring");
        assert_eq!(
            Rules::from_value(&Value::Object(data)),
            Err(RulesError::Missing { option: "spring" })
        );
        assert!(matches!(
            Rules::from_json("{"),
            Err(RulesError::NotJson {
                why: JsonProblem::Truncated,
                ..
            })
        ));
        assert_eq!(
            Rules::from_json("[1]"),
            Err(RulesError::NotAnObject { found: "list" })
        );
    }
}
