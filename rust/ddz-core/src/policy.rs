//! The built-in players: each picks one of the table's legal actions for
//! the seat to act. `ddz.simulate`, the batched environments' opponents
//! and `ddz.evaluate` all play through [`Policy::choose`].

use crate::engine::Engine;
use crate::play::Move;
use crate::search::{self, SearchBudget};
use crate::table::{Action, Legal, Phase, Rng, Table};

/// A built-in player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly among the legal actions.
    Random,
    /// What `ddz.agents.GreedyAgent` picks: the smallest play that beats
    /// (hint order), else pass; the smallest lead; the lowest open bid;
    /// declines every other option (no kick, keep hidden, no double).
    Greedy,
    /// Determinized Monte-Carlo search within a budget (`crate::search`):
    /// it reads only what the seat may see. It needs a table that keeps
    /// its record (`Table::is_recorded`); on one that does not, and while
    /// the family keeps the sides secret from the seat, it plays as
    /// `Greedy`.
    Search(SearchBudget),
    /// A port of RLCard 1.2.0's `DouDizhuRuleAgentV1` (the baseline DDZ
    /// papers report): its play in the play phase, the greedy player's
    /// choice in the other phases (RLCard has no auction). Built for
    /// classic; in other presets it plays the same rules against the
    /// landlord seat (docs/bots.md).
    Rule,
}

impl Policy {
    /// Does this policy read the table's record (the cards played)? Then
    /// a simulation keeps the record of every deal it plays with it.
    pub fn reads_record(self) -> bool {
        // The rule agent reads the trace's last entry (who passed last).
        matches!(self, Policy::Search(_) | Policy::Rule)
    }

    /// The built-in policies at their default settings (`from_name` reads
    /// the search's levels too).
    pub const ALL: [Policy; 4] = [
        Policy::Random,
        Policy::Greedy,
        Policy::Search(SearchBudget::DEFAULT),
        Policy::Rule,
    ];

    /// The policy's name: `random`, `greedy`, `rule` (RLCard's rule
    /// agent, ported), `search` (the default search, level 8), `search:1`
    /// .. `search:7` (the levels below) or `search:playouts=N` (full
    /// strength, N playouts, no time limit).
    pub fn name(self) -> String {
        match self {
            Policy::Random => "random".into(),
            Policy::Greedy => "greedy".into(),
            Policy::Rule => "rule".into(),
            Policy::Search(b) if b == SearchBudget::DEFAULT => "search".into(),
            Policy::Search(b) if search::levels::budget(b.level) == Some(b) => {
                format!("search:{}", b.level)
            }
            Policy::Search(b) => format!("search:playouts={}", b.playouts),
        }
    }

    /// The names `from_name` reads, for a message that lists them.
    pub const NAMES: &'static str =
        "random, greedy, rule, search (= search:8), search:1 .. search:8, search:playouts=N";

    /// The policy `name` names (see `name`; `search:8` is `search`).
    pub fn from_name(name: &str) -> Option<Policy> {
        match name {
            "random" => return Some(Policy::Random),
            "greedy" => return Some(Policy::Greedy),
            "rule" => return Some(Policy::Rule),
            "search" => return Some(Policy::Search(SearchBudget::DEFAULT)),
            _ => {}
        }
        let rest = name.strip_prefix("search:")?;
        if let Some(n) = rest.strip_prefix("playouts=") {
            let playouts: u32 = n.parse().ok().filter(|&p| p >= 1)?;
            return Some(Policy::Search(SearchBudget {
                playouts,
                budget_us: 0,
                ..SearchBudget::DEFAULT
            }));
        }
        let level: u8 = rest.parse().ok()?;
        search::levels::budget(level).map(Policy::Search)
    }

    /// The index of the action this policy takes among
    /// `table.legal_unordered()` (plays as generated, then the words);
    /// `rng` is the player's own generator. The table must not be over.
    /// (The search may put the table's plays in hint order first: the
    /// index is into the list as it is when this returns.)
    #[inline]
    pub fn choose(self, table: &mut Table, rng: &mut Rng) -> usize {
        match self {
            Policy::Random => rng.below(table.legal_unordered().len()),
            Policy::Greedy => greedy(table.engine(), table.legal_unordered()),
            Policy::Search(budget) => search::decide(table, budget, rng.next_u64()).index,
            Policy::Rule if table.phase() == Phase::Play => {
                let landlord = table.report().landlord();
                search::rule_agent::choose(table, landlord, rng)
            }
            Policy::Rule => greedy(table.engine(), table.legal_unordered()),
        }
    }
}

/// What `ddz.agents.GreedyAgent` takes: the smallest play (hint order),
/// else pass; the lowest bid or a call; else a decline (`no-…`), else
/// pass, else the first choice.
fn greedy(engine: &Engine, legal: Legal<'_>) -> usize {
    match smallest(engine, legal.plays) {
        Some(i) => i,
        None => legal.plays.len() + greedy_word(legal.words),
    }
}

/// The greedy player's pick among a moment's actions listed in `Game`'s
/// order (plays smallest first, then the words), where `is_play` tells the
/// plays: the first play, else as `greedy_word` among the words. For
/// `ddz.agents.GreedyAgent`, which is handed such a list.
pub fn greedy_in_order(actions: &[Option<Action>]) -> usize {
    if let Some(i) = actions.iter().position(Option::is_none) {
        return i;
    }
    let words: Vec<Action> = actions.iter().flatten().copied().collect();
    greedy_word(&words)
}

/// The greedy player's decision among words (no play is open): the lowest
/// bid or a call, else a decline (`no-…`), else pass, else the first.
pub(crate) fn greedy_word(words: &[Action]) -> usize {
    let at = |want: &dyn Fn(&Action) -> bool| words.iter().position(want);
    at(&|a| matches!(a, Action::Bid(_) | Action::Call))
        .or_else(|| at(&declines))
        .or_else(|| at(&|a| *a == Action::Pass))
        .unwrap_or(0)
}

/// The index of the first play smallest by `hint_key`: the packed head of
/// the key decides, and the whole key only breaks its ties.
fn smallest(engine: &Engine, plays: &[Move]) -> Option<usize> {
    let (first, rest) = plays.split_first()?;
    let (mut best, mut head) = (0, engine.hint_head(first));
    for (i, m) in rest.iter().enumerate().map(|(i, m)| (i + 1, m)) {
        let h = engine.hint_head(m);
        if h < head || (h == head && engine.hint_key(m) < engine.hint_key(&plays[best])) {
            (best, head) = (i, h);
        }
    }
    Some(best)
}

/// The words `GreedyAgent` reads as declining (they start with `no-`).
fn declines(a: &Action) -> bool {
    a.word().is_some_and(|w| w.starts_with("no-"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use std::sync::Arc;

    #[test]
    fn the_smallest_play_is_the_first_smallest_by_the_whole_hint_key() {
        // Many random hands and leads of several rule sets: the packed
        // scan must pick what `min_by_key(hint_key)` picks.
        for preset in ["classic", "laizi", "six-player-3v3"] {
            let e = Engine::new(Rules::preset(preset).unwrap()).unwrap();
            let mut t = Table::seeded(Arc::new(e.clone()), 5, 0).unwrap();
            let mut rng = Rng(9);
            for game in 0..40 {
                t.restart(Rng::for_game(3, game));
                while !t.is_over() {
                    let legal = t.legal_unordered();
                    let want = legal
                        .plays
                        .iter()
                        .enumerate()
                        .min_by_key(|(_, m)| e.hint_key(m))
                        .map(|(i, _)| i);
                    assert_eq!(smallest(&e, legal.plays), want, "{preset}");
                    let pick = rng.below(legal.len());
                    t.apply_unordered(pick);
                }
            }
        }
    }
}
