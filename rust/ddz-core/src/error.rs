//! Errors with messages that name what is wrong.

use crate::cards::ParseError;
use crate::options::{JsonProblem, OptionKind, KING_BOMB_FIELDS};
use std::fmt;

/// Cards that cannot come from a rule set's deck.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardError {
    Parse(ParseError),
    TooManyCopies { symbol: char, have: u8, most: u8 },
    LaiziNotInRules { preset: String },
}

impl From<ParseError> for CardError {
    fn from(e: ParseError) -> Self {
        CardError::Parse(e)
    }
}

impl fmt::Display for CardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CardError::Parse(e) => e.fmt(f),
            CardError::TooManyCopies { symbol, have, most } => write!(
                f,
                "{have} copies of {symbol:?}, but the deck holds at most {most}"
            ),
            CardError::LaiziNotInRules { preset } => write!(
                f,
                "laizi 'L' is not part of the {preset:?} deck (only the laizi preset has wild cards)"
            ),
        }
    }
}

impl std::error::Error for CardError {}

/// What an option's value should have been.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// A value of the option's kind.
    Kind(OptionKind),
    /// King bomb `at` of the list is not an object, or its `field` is
    /// missing or not a whole number from 0 to 255.
    KingBomb {
        at: usize,
        field: Option<&'static str>,
    },
    /// King bomb `at` has a field that is not one of `KING_BOMB_FIELDS`.
    KingBombField { at: usize, field: String },
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fields = KING_BOMB_FIELDS.join(", ");
        match self {
            Expected::Kind(kind) => match kind {
                OptionKind::Bool => write!(f, "expected a boolean"),
                OptionKind::Int { min, max } => {
                    write!(f, "expected a whole number from {min} to {max}")
                }
                OptionKind::Word(words) => {
                    let words: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
                    write!(f, "expected one of {}", words.join(", "))
                }
                OptionKind::Text => write!(f, "expected a string"),
                OptionKind::KingBombs => {
                    write!(f, "expected a list of king bombs, each {{{fields}}}")
                }
            },
            Expected::KingBomb { at, field: None } => {
                write!(f, "king bomb {at} must be an object {{{fields}}}")
            }
            Expected::KingBomb {
                at,
                field: Some(field),
            } => write!(
                f,
                "king bomb {at} needs `{field}`{}, a whole number from 0 to 255",
                if *field == "order" {
                    " (when given)"
                } else {
                    ""
                }
            ),
            Expected::KingBombField { at, field } => write!(
                f,
                "king bomb {at} has no field `{field}`; its fields are {fields}"
            ),
        }
    }
}

/// A rule set that cannot be built: an unknown name, a value of the
/// wrong type, or options that do not fit together. Each names the option
/// at fault (`option()`) and, where it is one of a few words, the choices
/// (`allowed()`).
#[derive(Debug, Clone, PartialEq)]
pub enum RulesError {
    UnknownPreset {
        name: String,
    },
    UnknownOption {
        name: String,
    },
    /// A value not of the option's kind, given for `preset`'s rule set.
    BadValue {
        option: &'static str,
        preset: String,
        value: serde_json::Value,
        expected: Expected,
    },
    /// A rule dict without an option it must hold.
    Missing {
        option: &'static str,
    },
    /// Rule text that is not JSON.
    NotJson {
        line: usize,
        column: usize,
        why: JsonProblem,
    },
    /// Rule JSON that is not an object (`found` is its Python type name).
    NotAnObject {
        found: &'static str,
    },
    /// A number outside what the engine or the flow can play.
    OutOfRange {
        option: &'static str,
        value: i64,
        min: i64,
        max: i64,
    },
    /// `players × hand_size + kitty + set_aside` is not the deck.
    DealSize {
        dealt: usize,
        deck: usize,
    },
    /// A value the rule set's flow cannot play with the other options.
    Conflict {
        option: &'static str,
        why: String,
    },
}

impl Eq for RulesError {}

impl RulesError {
    /// The option at fault (`"preset"` for an unknown preset).
    pub fn option(&self) -> Option<&str> {
        match self {
            RulesError::UnknownPreset { .. } => Some("preset"),
            RulesError::UnknownOption { name } => Some(name),
            RulesError::BadValue { option, .. }
            | RulesError::Missing { option }
            | RulesError::OutOfRange { option, .. }
            | RulesError::Conflict { option, .. } => Some(option),
            RulesError::DealSize { .. } => Some("hand_size"),
            RulesError::NotJson { .. } | RulesError::NotAnObject { .. } => None,
        }
    }

    /// The values the option may take, where they are a few names.
    pub fn allowed(&self) -> Option<Vec<&'static str>> {
        match self {
            RulesError::UnknownPreset { .. } => Some(crate::rules::PRESETS.to_vec()),
            RulesError::UnknownOption { .. } => Some(option_names()),
            RulesError::BadValue {
                expected: Expected::Kind(OptionKind::Word(words)),
                ..
            } => Some(words.to_vec()),
            _ => None,
        }
    }

    /// The message, with a bad value shown as `shown` (how the caller
    /// wrote it: a Python repr) rather than as JSON.
    pub fn describe(&self, shown: Option<&str>) -> String {
        match self {
            RulesError::UnknownPreset { name } => format!(
                "unknown preset {name:?}; the presets are: {}",
                crate::rules::PRESETS.join(", ")
            ),
            RulesError::UnknownOption { name } => format!(
                "unknown option {name:?}; the options are: {}",
                option_names().join(", ")
            ),
            RulesError::BadValue {
                option,
                preset,
                value,
                expected,
            } => {
                let json = value.to_string();
                let shown = shown.unwrap_or(&json);
                format!("bad value {shown} for option {option:?} of preset {preset:?}: {expected}")
            }
            RulesError::Missing { option } => format!("bad rules: missing option {option:?}"),
            RulesError::NotJson { line, column, why } => {
                let why = match why {
                    JsonProblem::Truncated => "the text ends too soon",
                    JsonProblem::Syntax => "not JSON",
                };
                format!("bad rules: {why} at line {line} column {column}")
            }
            RulesError::NotAnObject { found } => {
                format!("bad rules: a rule set is a JSON object of options, not {found}")
            }
            RulesError::OutOfRange {
                option,
                value,
                min,
                max,
            } => format!("bad option {option:?}: {value} is not between {min} and {max}"),
            RulesError::DealSize { dealt, deck } => format!(
                "bad option \"hand_size\": players × hand_size + kitty + set_aside = {dealt}, but the deck holds {deck} cards"
            ),
            RulesError::Conflict { option, why } => format!("bad option {option:?}: {why}"),
        }
    }
}

/// Every option's name, sorted (as an unknown option's message lists them).
fn option_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = crate::rules::OPTIONS.iter().map(|o| o.name).collect();
    names.sort_unstable();
    names
}

/// `Ok` when `value` is in `min..=max`, else `OutOfRange` naming `option`.
pub(crate) fn in_range(
    option: &'static str,
    value: i64,
    min: i64,
    max: i64,
) -> Result<(), RulesError> {
    if (min..=max).contains(&value) {
        return Ok(());
    }
    Err(RulesError::OutOfRange {
        option,
        value,
        min,
        max,
    })
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(None))
    }
}

impl std::error::Error for RulesError {}
