//! Ranked candidates with win rates: the hints (`ddz.hint`) and each
//! decision of a post-game analysis (`analysis.rs`).
//!
//! Half the playouts go to sequential halving down to the `k` best
//! candidates, which orders them; the other half value those `k` (and,
//! for an analysis, the action played) on fresh samples shared by all of
//! them, so the gaps between them are measured on the same deals (common
//! random numbers), and the first candidate is not first for a lucky
//! estimate. A candidate's win rate is the share of those samples its side
//! won; its interval is Wilson's 95% score interval over them. Like the
//! search, it reads only what the seat to act may see.

use super::{shortlist, Sampler, Search, SearchBudget};
use crate::table::{Action, Table};

/// One ranked candidate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranked {
    /// Its index in the table's legal actions, in hint order (`Game`'s).
    pub index: usize,
    pub action: Action,
    /// The estimated win rate of the seat's side, and its 95% interval.
    pub wp: f64,
    pub low: f64,
    pub high: f64,
    /// Samples it was valued on.
    pub samples: u32,
}

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The `k` best candidates of the seat to act on `table` (not over, with
/// its record), best first by the halving, and `also` (one of its legal
/// actions) last where it is not among them, each valued on the same
/// fresh samples. Empty when the
/// table keeps no record (no search can run there). The plays are put in
/// hint order first.
pub fn rank(
    table: &mut Table,
    budget: SearchBudget,
    seed: u64,
    k: usize,
    also: Option<Action>,
) -> Vec<Ranked> {
    table.order_legal();
    if table.is_over() || !table.is_recorded() {
        return Vec::new();
    }
    let actions: Vec<Action> = table.legal_unordered().iter().collect();
    let sampler = Sampler::new(table, table.to_act());
    let search = Search::new(table, &sampler, &actions, seed);
    let half = SearchBudget {
        playouts: (budget.playouts / 2).max(1),
        budget_us: budget.budget_us / 2,
        ..budget
    };
    let k = k.max(1);
    // The order comes from the halving's samples and the win rates from
    // fresh ones: the best candidate is not picked for a lucky estimate
    // (the maximum of noisy estimates would overstate what a choice lost).
    let run = search.halving(&shortlist(&actions), half, k, 0);
    let mut chosen = run.alive.clone();
    chosen.sort_by(|&a, &b| run.mean(b).total_cmp(&run.mean(a)).then(a.cmp(&b)));
    chosen.truncate(k);
    if let Some(i) = also.and_then(|a| actions.iter().position(|&x| x == a)) {
        if !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    let per = (half.playouts as usize / chosen.len()).max(1) as u64;
    let start = std::time::Instant::now();
    let limit =
        (half.budget_us > 0).then(|| std::time::Duration::from_micros(half.budget_us.into()));
    let first = run.next;
    let rows = search.round(&chosen, first..first + per, budget.threads, start, limit);
    chosen
        .iter()
        .enumerate()
        .map(|(j, &c)| {
            let wins: Vec<f64> = rows.iter().flatten().map(|row| win(row[j])).collect();
            let (wp, low, high) = wilson(&wins);
            Ranked {
                index: c,
                action: actions[c],
                wp,
                low,
                high,
                samples: wins.len() as u32,
            }
        })
        .collect()
}

/// A sample's value as a win: 1, 0, or ½ for a playout cut short (the
/// value adds a thousandth of the score to break ties between wins).
fn win(value: f64) -> f64 {
    if value > 0.75 {
        1.0
    } else if value < 0.25 {
        0.0
    } else {
        0.5
    }
}

/// The mean of `wins` and Wilson's 95% score interval around it (0 to 1
/// with no sample).
fn wilson(wins: &[f64]) -> (f64, f64, f64) {
    if wins.is_empty() {
        return (0.5, 0.0, 1.0);
    }
    let n = wins.len() as f64;
    let p = wins.iter().sum::<f64>() / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    (p, (centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_brackets_the_mean_and_narrows_with_samples() {
        let (p, lo, hi) = wilson(&[1.0; 10]);
        assert!(
            p == 1.0 && (hi - 1.0).abs() < 1e-9 && lo > 0.6 && lo < 0.8,
            "{lo} {hi}"
        );
        let few = wilson(&[1.0, 0.0, 1.0, 0.0]);
        let many = wilson(&[[1.0, 0.0]; 200].concat());
        assert!(few.1 < many.1 && many.2 < few.2);
        assert!((many.0 - 0.5).abs() < 1e-12 && many.1 < 0.5 && many.2 > 0.5);
    }
}
