//! `ddz-core`: the rules engine of the Dou Dizhu family on count-vector hands.
//!
//! One generic engine, configured by a [`Rules`] value: cards are
//! [`Cards`] count vectors, plays are [`Move`] readings, and an [`Engine`]
//! classifies, compares, enumerates and counts them.
//!
//! ```
//! use ddz_core::{Engine, Rules};
//! let engine = Engine::new(Rules::preset("classic").unwrap()).unwrap();
//! let hand = engine.parse("33344456").unwrap();
//! let prev = engine.classify(&engine.parse("8889").unwrap())[0];
//! let answers = engine.moves(&hand, Some(&prev));
//! assert!(answers.is_empty()); // 3334 and 4445 are both below 8889
//! ```

pub mod batch;
pub mod cards;
mod classify;
mod count;
pub mod encode;
mod engine;
pub mod error;
mod generate;
mod laizi;
pub mod options;
pub mod play;
pub mod policy;
pub mod puzzle;
mod py_words;
pub mod rules;
pub mod search;
pub mod simulate;
pub mod solve;
pub mod table;
pub mod vecenv;
pub mod widest;

pub use cards::Cards;
pub use engine::{Engine, Spec, Wing};
pub use error::{CardError, RulesError};
pub use generate::{Counter, Exists, Sink, Target};
pub use play::{Kind, Move, Play};
pub use rules::{Rules, PRESETS};
