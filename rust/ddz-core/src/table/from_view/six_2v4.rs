//! The two-marks family (`six-player-2v4`, `six-player-teams`): the public
//! mark is its holder's; the secret mark is a dealt card of the second
//! landlord's (anyone's while the bidding runs), the seat never learns
//! which. What the seat did not see is guessed on each try: the other
//! farmers' sides (teams), a landlord's show choice before both chose.
//! A try is kept once its replay shows the seat its very observation.

use super::pins::{Pin, Pins};
use super::{build, shows_the_same, Guess, View};
use crate::engine::Engine;
use crate::table::{Action, Table};
use std::sync::Arc;

/// Tries before the rebuild gives up.
const MOST_TRIED: u64 = 60;

/// What the seat may not have seen: show choices and farmers' sides.
const UNSEEN: [Action; 4] = [
    Action::Show(false),
    Action::Show(true),
    Action::Side(false),
    Action::Side(true),
];

pub(super) fn rebuild(engine: Arc<Engine>, view: &View, seed: u64) -> Result<Table, String> {
    let engine = super::shared_as_dealt(engine)?;
    let marked = view.marked.ok_or("the observation has no 'public_mark'")?;
    let holder = view
        .marked_holder
        .ok_or("the observation has no 'public_mark'")?;
    // The secret mark's holder: the second landlord, or the one landlord
    // playing solo; unknown before the landlords are.
    let secret = view.landlords.get(1).or(view.landlords.first()).copied();
    let mut last = String::from("no deal fits the observation");
    for attempt in 0..MOST_TRIED {
        let pins = vec![Pin {
            seat: holder,
            card: marked,
            played: None,
        }];
        let guess = Guess {
            pins: Some(Pins::new(pins, &view.hand_sizes, None)),
            unseen: &UNSEEN,
            secret,
            ..Guess::default()
        };
        let seed = seed ^ attempt.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        match build(engine.clone(), view, seed, guess) {
            Ok(mut table) => match shows_the_same(&mut table, view) {
                true => return Ok(table),
                false => last = "the rebuilt table shows the seat another observation".into(),
            },
            Err(e) => last = e,
        }
    }
    Err(format!("{}: {last}", engine.rules().preset))
}
