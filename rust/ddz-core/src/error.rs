//! Errors with messages that name what is wrong.

use crate::cards::ParseError;
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

/// A rule set whose options do not fit together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesError {
    BadOption { option: String, why: String },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::BadOption { option, why } => write!(f, "bad option {option:?}: {why}"),
        }
    }
}

impl std::error::Error for RulesError {}
