//! A port of RLCard 1.2.0's `DouDizhuRuleAgentV1` (classic): the built-in
//! policy "rule" (`Policy::Rule`) and the search's quick strength runs
//! (`duel_figures`). benches/rule_port.py checks it against RLCard's own
//! agent action for action. Its quirks are kept: the lead is the first
//! group of its greedy decomposition that holds the lowest card (bombs,
//! trios, chains, pairs, singles), its "pair chain" is the chain's ranks
//! once, and the follower it protects is read from the last entry of the
//! trace, a passer's seat when the last entry is a pass.

use crate::cards::{Cards, BIG_JOKER, SMALL_JOKER, TWO};
use crate::play::Move;
use crate::table::{Action, Rng, Table};

/// The index in `table.legal_unordered()` the rule agent takes.
pub fn choose(table: &Table, landlord: usize, rng: &mut Rng) -> usize {
    let t = table.core();
    let legal = table.legal_unordered();
    let plays = legal.plays;
    let pass = plays.len();
    let seat = t.to_act();
    let history = t.history();
    let Some(last) = t.tricks().last else {
        let want = lead(&t.hands()[seat].counts);
        return plays.iter().position(|m| m.cards == want).unwrap_or(0);
    };
    // The trace's last entry; a table that keeps no record has no history,
    // and then the seat of the play to beat stands in.
    let by = match history.last() {
        Some(&(by, _)) => by,
        None => t.tricks().last_seat.unwrap_or(seat),
    };
    let same = |m: &Move| m.same_shape(&last);
    let smallest = plays
        .iter()
        .enumerate()
        .filter(|(_, m)| same(m))
        .min_by_key(|(_, m)| m.rank)
        .map(|(i, _)| i);
    if let Some(i) = smallest {
        return i;
    }
    if by != landlord && seat != landlord {
        return pass;
    }
    let n = plays.len() + usize::from(legal.words.contains(&Action::Pass));
    rng.below(n)
}

/// The cards of the rule agent's lead from `hand`.
fn lead(hand: &Cards) -> Cards {
    let mut h = *hand;
    let mut groups: Vec<Cards> = Vec::new();
    if h.get(SMALL_JOKER) > 0 && h.get(BIG_JOKER) > 0 {
        let rocket = Cards::of(SMALL_JOKER, 1).plus(BIG_JOKER, 1);
        groups.push(rocket);
        h = h - rocket;
    }
    for r in 0..=TWO {
        if h.get(r) == 4 {
            groups.push(Cards::of(r, 4));
            h = h - Cards::of(r, 4);
        }
    }
    // Trios, consecutive ones (below the 2) joined into chains; the
    // decomposition lists lone trios before chains.
    let mut trios: Vec<(usize, usize)> = Vec::new(); // (lowest rank, links)
    for r in 0..=TWO {
        if h.get(r) == 3 {
            match trios.last_mut() {
                Some((low, links)) if r < TWO && *low + *links == r => *links += 1,
                _ => trios.push((r, 1)),
            }
            h = h - Cards::of(r, 3);
        }
    }
    let chain = |low: usize, links: usize, n: u8| {
        (low..low + links).fold(Cards::default(), |c, r| c.plus(r, n))
    };
    for &(low, links) in trios.iter().filter(|t| t.1 == 1) {
        groups.push(chain(low, links, 3));
    }
    for &(low, links) in trios.iter().filter(|t| t.1 > 1) {
        groups.push(chain(low, links, 3));
    }
    for per in [1u8, 2] {
        // Runs of five or more ranks below the 2, each taken as one chain
        // of single cards, (lowest count / per) times.
        let mut r = 0;
        while r < TWO {
            if h.get(r) == 0 {
                r += 1;
                continue;
            }
            let start = r;
            while r < TWO && h.get(r) > 0 {
                r += 1;
            }
            let len = r - start;
            let low = (start..r).map(|x| h.get(x)).min().unwrap_or(0);
            if len >= 5 && low / per > 0 {
                for _ in 0..low / per {
                    groups.push(chain(start, len, 1));
                }
                h = h - chain(start, len, low);
            }
        }
    }
    for r in 0..=BIG_JOKER {
        let n = h.get(r);
        for _ in 0..n / 2 {
            groups.push(Cards::of(r, 2));
        }
    }
    for r in 0..=BIG_JOKER {
        if h.get(r) % 2 == 1 {
            groups.push(Cards::of(r, 1));
        }
    }
    // The groups in the decomposition's order: rocket, bombs, trios, trio
    // chains, chains, "pair chains", pairs, singles; the first holding the
    // lowest card leads.
    let low = (0..=BIG_JOKER).find(|&r| hand.get(r) > 0).unwrap_or(0);
    groups
        .into_iter()
        .find(|g| g.get(low) > 0)
        .unwrap_or(Cards::of(low, 1))
}
