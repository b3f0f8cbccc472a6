//! Difficulty levels 1 to 8 of the search player (`"search:1"` ...
//! `"search:8"`), after Stockfish's skill level: a weaker level searches
//! fewer playouts, keeps a few candidates to the end rather than one, and
//! plays the best of their values each pushed up by a random amount that
//! grows as the level drops. The push only reorders candidates whose values
//! are close (a candidate far behind is never played), and a play that
//! empties the hand is always taken: a weak level misjudges, it does not
//! flail. The lowest levels also play some decisions by habit, the greedy
//! player's move (the smallest play that beats, the lowest bid): the search
//! at even a dozen playouts beats greedy clearly, so without habit level 1
//! would sit far above greedy and the levels would crowd together. Level 8
//! is the default search, unchanged. docs/bots.md gives the presets and the
//! Elo ladder measured over them.

use super::SearchBudget;
use crate::table::Rng;

/// The strongest level: the default search.
pub const TOP: u8 = 8;

/// How each level searches: playouts a decision, its time limit (µs),
/// and the largest push on a candidate's win rate (thousandths).
struct Preset {
    playouts: u32,
    budget_us: u32,
    noise: u16,
    /// The chance (thousandths) a decision is made by habit: the greedy
    /// player's move (the smallest play that beats, the lowest bid), as a
    /// beginner plays without thinking.
    habit: u16,
    /// The chance (thousandths) a decision is made timidly: a pass where
    /// passing is allowed (else the greedy move), as a beginner holds back
    /// cards it should play.
    timid: u16,
}

/// Levels 1 to 8, weakest first: the playouts grow, the push shrinks, and
/// the habits fade out by level 6. They were tuned (in classic, against
/// each neighbour) so that adjacent levels lie about 100 Elo apart, inside
/// the 80-200 asked (docs/bots.md#levels has the ladder measured). Above
/// about 150 playouts more playouts buy little, so levels 6 and 7 are set
/// apart from 8 mostly by the push. Levels 1-4 stay within a few milliseconds a
/// decision; their time limit is a safety net, rarely reached at these
/// playouts, so their decisions repeat for a seed.
#[rustfmt::skip]
const PRESETS: [Preset; TOP as usize] = [
    Preset { playouts: 6, budget_us: 5_000, noise: 800, habit: 460, timid: 440 },
    Preset { playouts: 10, budget_us: 5_000, noise: 650, habit: 520, timid: 350 },
    Preset { playouts: 14, budget_us: 5_000, noise: 480, habit: 430, timid: 200 },
    Preset { playouts: 24, budget_us: 5_000, noise: 400, habit: 400, timid: 0 },
    Preset { playouts: 44, budget_us: 10_000, noise: 235, habit: 120, timid: 0 },
    Preset { playouts: 60, budget_us: 20_000, noise: 230, habit: 0, timid: 0 },
    Preset { playouts: 170, budget_us: 30_000, noise: 110, habit: 0, timid: 0 },
    Preset { playouts: 1000, budget_us: 40_000, noise: 0, habit: 0, timid: 0 },
];

/// Candidates a level below the top keeps to its final pick (Stockfish
/// searches at least four lines when weakened).
pub(super) const KEEP: usize = 4;

/// The budget of `level` (1 to 8; level 8 is `SearchBudget::DEFAULT`).
pub fn budget(level: u8) -> Option<SearchBudget> {
    let p = PRESETS.get(usize::from(level).checked_sub(1)?)?;
    Some(SearchBudget {
        playouts: p.playouts,
        budget_us: p.budget_us,
        threads: 1,
        level,
    })
}

/// Levels up to this one play every sample out, the solver never asked at
/// the leaves: a solve can cost milliseconds, and a weak player does not
/// read endgames exactly either.
const LAST_INEXACT: u8 = 5;

/// Does `level` solve small positions at the leaves?
pub fn exact(level: u8) -> bool {
    level > LAST_INEXACT
}

/// A decision made without searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Habit {
    /// The greedy player's move.
    Greedy,
    /// A pass where passing is allowed, else the greedy move.
    Timid,
}

/// Is the decision of `seed` at `level` one made by habit, and which?
pub(super) fn habit(level: u8, seed: u64) -> Option<Habit> {
    let p = &PRESETS[usize::from(level.clamp(1, TOP)) - 1];
    let (timid, greedy) = (u64::from(p.timid), u64::from(p.habit));
    let u = Rng::for_game(seed, u64::MAX - 1).next_u64() % 1000;
    if u < timid {
        Some(Habit::Timid)
    } else if u < timid + greedy {
        Some(Habit::Greedy)
    } else {
        None
    }
}

/// The largest push on a candidate's win rate at `level` (0 at the top).
pub fn noise(level: u8) -> f64 {
    let i = usize::from(level.clamp(1, TOP)) - 1;
    f64::from(PRESETS[i].noise) / 1000.0
}

/// The pick among `alive` (candidate indices) by `mean` at `level`: each
/// mean plus a uniform push in `[0, noise)`, drawn from `seed` in the
/// candidates' order; ties go to the earlier candidate.
pub(super) fn pick(alive: &[usize], mean: impl Fn(usize) -> f64, level: u8, seed: u64) -> usize {
    let spread = noise(level);
    let mut rng = Rng::for_game(seed, u64::MAX);
    let mut best = (usize::MAX, f64::NEG_INFINITY);
    for &c in alive {
        let push = spread * (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let total = mean(c) + push;
        if best.0 == usize::MAX || total > best.1 {
            best = (c, total);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_levels_grow_in_playouts_and_shrink_in_noise() {
        for l in 1..TOP {
            let (a, b) = (budget(l).unwrap(), budget(l + 1).unwrap());
            assert!(
                a.playouts < b.playouts && noise(l) > noise(l + 1),
                "level {l}"
            );
        }
        assert_eq!(budget(TOP), Some(SearchBudget::DEFAULT));
        assert_eq!(noise(TOP), 0.0);
        assert!(budget(0).is_none() && budget(9).is_none());
    }

    #[test]
    fn the_push_never_lifts_a_candidate_far_behind() {
        // Candidate 1 trails by more than the largest push: never picked.
        for seed in 0..500 {
            let mean = |c: usize| [0.9, 0.9 - noise(1) - 0.01, 0.85][c];
            assert_ne!(pick(&[0, 1, 2], mean, 1, seed), 1);
        }
        // Close candidates: the weakest level picks each sometimes.
        let mut picked = [0; 3];
        for seed in 0..500 {
            picked[pick(&[0, 1, 2], |c| [0.6, 0.55, 0.5][c], 1, seed)] += 1;
        }
        assert!(picked.iter().all(|&n| n > 30), "{picked:?}");
    }
}
