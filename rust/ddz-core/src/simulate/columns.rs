//! The result arrays of a simulation, one row per deal, allocated once at
//! their final size so that a run keeps no memory per deal beyond them.
//! The role columns are the families' report columns (`table::
//! report_layout`): the same keys for every rule set, padded where its
//! family reports no such role.

use super::Outcome;
use crate::batch::{check_size, TooBig};
use crate::rules::Rules;
use crate::table::{report_layout, ReportColumn};

/// Columns of `games` outcomes (scores: `players` per row).
#[derive(Debug, Default)]
pub struct Columns {
    pub players: usize,
    pub landlord_won: Vec<bool>,
    pub turns: Vec<i64>,
    pub bombs: Vec<i64>,
    pub multiplier: Vec<i64>,
    pub scores: Vec<i64>,
    /// The role columns, each with its place in the family's report values
    /// (None: padded), and their values, `width` per row (-1 for no seat;
    /// 0 or 1 for flags).
    pub layout: Vec<(ReportColumn, Option<usize>)>,
    pub reports: Vec<Vec<i64>>,
}

/// Bytes of one row.
fn row_bytes(players: usize, layout: &[(ReportColumn, Option<usize>)]) -> u64 {
    let base = 8 * 3 + 1 + 8 * players;
    let roles: usize = layout.iter().map(|(c, _)| 8 * c.width).sum();
    (base + roles) as u64
}

fn reserve<T>(v: &mut Vec<T>, n: usize, what: &dyn Fn() -> String) -> Result<(), TooBig> {
    v.try_reserve_exact(n).map_err(|_| TooBig {
        what: what(),
        bytes: (n as u64).checked_mul(std::mem::size_of::<T>() as u64),
        limit: None,
    })
}

impl Columns {
    /// Room for `games` rows of `rules`' deals, or `TooBig` naming the size
    /// and the limit.
    pub fn new(games: u64, rules: &Rules) -> Result<Self, TooBig> {
        let players = rules.players as usize;
        let layout = report_layout(rules);
        let what = || format!("{games} deals");
        let bytes = games.checked_mul(row_bytes(players, &layout));
        check_size(what, bytes)?;
        let n = games as usize;
        let mut c = Columns {
            players,
            ..Columns::default()
        };
        reserve(&mut c.landlord_won, n, &what)?;
        reserve(&mut c.turns, n, &what)?;
        reserve(&mut c.bombs, n, &what)?;
        reserve(&mut c.multiplier, n, &what)?;
        reserve(&mut c.scores, n * players, &what)?;
        for (column, _) in &layout {
            let mut values = Vec::new();
            reserve(&mut values, n * column.width, &what)?;
            c.reports.push(values);
        }
        c.layout = layout;
        Ok(c)
    }

    pub fn len(&self) -> usize {
        self.turns.len()
    }

    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }

    /// Append one deal's row.
    pub fn push(&mut self, o: &Outcome) {
        self.landlord_won.push(o.report.landlord_won);
        self.turns.push(o.turns as i64);
        self.bombs.push(o.bombs as i64);
        self.multiplier.push(o.multiplier);
        self.scores
            .extend((0..self.players).map(|s| o.scores.get(s).copied().unwrap_or(0)));
        let values = &o.report.values;
        for ((column, at), out) in self.layout.iter().zip(&mut self.reports) {
            let pad = if column.flags { 0 } else { -1 };
            match at {
                Some(at) => out.extend_from_slice(&values[*at..*at + column.width]),
                None => out.extend(std::iter::repeat_n(pad, column.width)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PRESETS;
    use crate::table::Report;

    #[test]
    fn a_run_too_big_for_memory_is_refused_before_any_work() {
        let classic = Rules::preset("classic").unwrap();
        let e = Columns::new(10u64.pow(12), &classic).unwrap_err();
        let row = row_bytes(3, &report_layout(&classic));
        assert_eq!(e.bytes, Some(10u64.pow(12) * row));
        assert!(e.to_string().contains("1000000000000 deals need"));
        let six = Rules::preset("six-player-3v3").unwrap();
        let e = Columns::new(1 << 63, &six).unwrap_err();
        assert_eq!(e.bytes, None);
        assert!(e.to_string().contains("more than 2**64 bytes"));
    }

    #[test]
    fn every_rule_set_has_the_same_keys_landlord_first() {
        let keys = |p: &str| {
            let layout = report_layout(&Rules::preset(p).unwrap());
            layout.iter().map(|(c, _)| c.key).collect::<Vec<_>>()
        };
        for preset in PRESETS {
            assert_eq!(keys(preset), keys("classic"), "{preset}");
            assert_eq!(keys(preset)[0], "landlord");
        }
    }

    #[test]
    fn each_family_reports_what_it_declares() {
        use crate::table::{family_of, Table};
        use crate::Engine;
        use std::sync::Arc;
        for preset in PRESETS {
            let rules = Rules::preset(preset).unwrap();
            let spec = family_of(rules.flow);
            let mut t = Table::seeded(Arc::new(Engine::new(rules).unwrap()), 1, 0).unwrap();
            let columns = t.family().report_columns();
            assert_eq!(columns[0].key, "landlord", "{preset}");
            let shape = |c: &ReportColumn| (c.key, c.width, c.flags);
            let declared: Vec<_> = spec.reports.iter().map(shape).collect();
            assert!(
                columns.iter().all(|c| declared.contains(&shape(c))),
                "{preset}"
            );
            let mut rng = crate::table::Rng(4);
            while !t.is_over() {
                let n = t.legal_unordered().len();
                t.apply_unordered(rng.below(n));
            }
            let width: usize = columns.iter().map(|c| c.width).sum();
            assert_eq!(t.report().values.len(), width, "{preset}");
        }
    }

    #[test]
    fn rows_keep_their_width_and_pad_what_the_family_does_not_report() {
        let rules = Rules::preset("six-player-3v3").unwrap();
        let mut c = Columns::new(2, &rules).unwrap();
        let o = Outcome {
            scores: vec![1, -1, 1, -1, 1, -1],
            report: Report {
                landlord_won: true,
                values: vec![2, 2, -1, -1, 4, 5, 0, 1],
            },
            ..Outcome::default()
        };
        c.push(&o);
        c.push(&o);
        assert_eq!(c.len(), 2);
        assert_eq!(c.scores.len(), 12);
        let column = |key: &str| {
            let at = c.layout.iter().position(|(col, _)| col.key == key).unwrap();
            c.reports[at].clone()
        };
        assert_eq!(&column("open_landlords")[..3], &[2, -1, -1]);
        assert_eq!(&column("revealed")[..2], &[0, 1]);
        assert_eq!(column("hidden_landlord"), vec![-1, -1]);
    }
}
