//! Reading an action as a user or a record writes it: a word, a play's
//! text (with suits where copies matter) or a `Move`, resolved against the
//! legal actions with errors that say why it is refused.

use super::{deal, physical, Action, Card, Illegal, Phase, Table};
use crate::play::Move;

impl Table {
    /// The legal action `text` names, and the physical cards it names
    /// (`cards`, or the text itself when it carries suits: `"9h9s"`).
    pub fn resolve_text(
        &mut self,
        text: &str,
        cards: Option<&str>,
    ) -> Result<(Action, Vec<Card>), Illegal> {
        self.check_not_over()?;
        // Words in any case: 'PASS' and 'Pass' are pass.
        let lowered = text.to_ascii_lowercase();
        let word_text = if Action::parse(&lowered).is_some() {
            lowered.as_str()
        } else {
            text
        };
        if self.core.phase == Phase::Play && word_text == "pass" && self.core.tricks.leading() {
            return Err(Illegal(format!(
                "pass is not allowed: a lead cannot pass (seat {} leads)",
                self.core.to_act
            )));
        }
        if self.core.phase == Phase::Play && text.is_empty() {
            return Err(Illegal("\"\" is not a legal play".into()));
        }
        let text = word_text;
        if self.core.phase != Phase::Play || text == "pass" {
            if let Some(word) = Action::parse(text).filter(|_| cards.is_none()) {
                if self.legal_unordered().contains(&word) {
                    return Ok((word, Vec::new()));
                }
            }
            return Err(self.not_allowed(&format!("'{text}'")));
        }
        let suited = text.chars().any(|c| matches!(c, 's' | 'h' | 'c' | 'd'));
        let named = match cards.or(suited.then_some(text)) {
            Some(c) => self.name_cards(c)?,
            None => Vec::new(),
        };
        let parsed = self
            .engine()
            .parse(text)
            .map_err(|e| Illegal(format!("bad play '{text}': {e}")))?;
        let readings = self.engine().classify(&parsed);
        if readings.is_empty() {
            return Err(Illegal(format!("{text} is not a legal kind of play")));
        }
        self.pick(text, &readings, named)
    }

    /// The legal action a `Move` is, with the physical cards `cards` names.
    pub fn resolve_move(
        &mut self,
        m: Move,
        cards: Option<&str>,
    ) -> Result<(Action, Vec<Card>), Illegal> {
        self.check_not_over()?;
        if self.core.phase != Phase::Play {
            return Err(self.not_allowed(&format!("'{m}'")));
        }
        let named = match cards {
            Some(c) => self.name_cards(c)?,
            None => Vec::new(),
        };
        self.pick(&m.to_string(), &[m], named)
    }

    fn check_not_over(&self) -> Result<(), Illegal> {
        if self.core.phase == Phase::Over {
            return Err(Illegal("the deal is over".into()));
        }
        Ok(())
    }

    /// "'x' is not allowed ...; allowed: ..."
    pub(super) fn not_allowed(&self, what: &str) -> Illegal {
        let allowed: Vec<String> = self
            .legal_unordered()
            .iter()
            .map(|a| a.to_string())
            .collect();
        Illegal(format!(
            "{what} is not allowed for seat {} in phase '{}'; allowed: {}",
            self.core.to_act,
            self.core.phase.name(),
            allowed.join(", ")
        ))
    }

    /// The one legal reading among `readings`.
    fn pick(
        &mut self,
        text: &str,
        readings: &[Move],
        named: Vec<Card>,
    ) -> Result<(Action, Vec<Card>), Illegal> {
        let legal = self.legal_unordered();
        let matches: Vec<Move> = readings
            .iter()
            .filter(|m| legal.plays.contains(m))
            .copied()
            .collect();
        if !named.is_empty() && matches.iter().any(|m| deal::count(&named) != m.cards) {
            return Err(Illegal(format!(
                "the cards {} are not the play {text}",
                physical::identities(&named)
            )));
        }
        match matches[..] {
            [m] => Ok((Action::Play(m), named)),
            [_, _, ..] => {
                let kinds: Vec<&str> = matches.iter().map(|m| m.kind.id()).collect();
                Err(Illegal(format!(
                    "{text} has several legal readings ({}); pass the Move you mean",
                    kinds.join(", ")
                )))
            }
            [] => {
                let t = &self.core;
                let seat = t.to_act;
                if !t.hands[seat].counts.contains(&readings[0].cards) {
                    return Err(Illegal(format!(
                        "seat {seat} does not hold {}",
                        readings[0].cards
                    )));
                }
                match &t.tricks.last {
                    None => Err(Illegal(format!("{text} is not a legal lead"))),
                    Some(last) => Err(Illegal(format!("{text} does not beat {last}"))),
                }
            }
        }
    }
}
