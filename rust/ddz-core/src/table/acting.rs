//! Taking an action: the check that refuses an illegal one, the play and
//! the words, and the log a record keeps.

use super::{deal, physical, Action, Card, Hand, Illegal, Phase, Table, Taken};

impl Table {
    /// Take `action` for the seat to act; an illegal action is refused and
    /// nothing changes.
    pub fn apply(&mut self, action: Action) -> Result<(), Illegal> {
        self.apply_named(action, &[])
    }

    /// As `apply`, naming the physical copies a play takes (the rest go
    /// lowest suit first). The named cards must be in the hand and be the
    /// play's cards.
    pub fn apply_named(&mut self, action: Action, named: &[Card]) -> Result<(), Illegal> {
        self.check(&action)?;
        if !named.is_empty() {
            let Action::Play(m) = action else {
                return Err(Illegal(format!("{action} names no cards")));
            };
            if deal::count(named) != m.cards {
                return Err(Illegal(format!(
                    "the cards {} are not the play {m}",
                    physical::identities(named)
                )));
            }
            let hand = &self.core.hands[self.core.to_act];
            let wanted = Hand::of(named);
            if let Some(c) = named.iter().find(|c| wanted.holds(**c) > hand.holds(**c)) {
                return Err(Illegal(format!(
                    "seat {} does not hold {c}",
                    self.core.to_act
                )));
            }
        }
        self.take(action, named);
        Ok(())
    }

    /// The physical cards `text` names in the hand of the seat to act
    /// (`"9h9s"`; a rank without a suit is the lowest copy not yet named).
    pub fn name_cards(&self, text: &str) -> Result<Vec<Card>, Illegal> {
        let seat = self.core.to_act;
        let mut hand = self.core.hands[seat].clone();
        let mut out = Vec::new();
        for named in physical::parse_identities(text).map_err(Illegal)? {
            let card = match named.suit {
                Some(suit) => Card {
                    slot: named.slot,
                    suit,
                },
                None => {
                    let copy = (0..4u8)
                        .map(|suit| Card {
                            slot: named.slot,
                            suit,
                        })
                        .find(|&c| hand.holds(c) > 0);
                    copy.unwrap_or(Card {
                        slot: named.slot,
                        suit: 0,
                    })
                }
            };
            if hand.holds(card) == 0 {
                let shown = if named.suit.is_some() || !card.suited() {
                    card.to_string()
                } else {
                    crate::cards::SYMBOLS[card.slot as usize].to_string()
                };
                return Err(Illegal(format!("seat {seat} does not hold {shown}")));
            }
            hand.take(&deal::count(&[card]), &[card], &mut Vec::new());
            out.push(card);
        }
        Ok(out)
    }

    /// Take the `i`-th legal action of `legal_unordered()` (a chooser's
    /// pick: no check needed). Panics if `i` is out of range.
    #[inline(always)]
    pub fn apply_unordered(&mut self, i: usize) {
        let action = self.legal_unordered().get(i).expect("a legal index");
        self.take(action, &[]);
    }

    fn check(&self, action: &Action) -> Result<(), Illegal> {
        let t = &self.core;
        if t.phase == Phase::Over {
            return Err(Illegal("the deal is over".into()));
        }
        if self.legal_unordered().contains(action) {
            return Ok(());
        }
        let seat = t.to_act;
        match action {
            Action::Play(m) if t.phase == Phase::Play => {
                if !t.hands[seat].counts.contains(&m.cards) {
                    return Err(Illegal(format!("seat {seat} does not hold {}", m.cards)));
                }
                match &t.tricks.last {
                    None => Err(Illegal(format!("{m} is not a legal lead"))),
                    Some(last) => Err(Illegal(format!("{m} does not beat {last}"))),
                }
            }
            _ => Err(self.not_allowed(&format!("'{action}'"))),
        }
    }

    /// Do a legal action.
    #[inline(always)]
    fn take(&mut self, action: Action, named: &[Card]) {
        let seat = self.core.to_act;
        let start = self.cards.len() as u32;
        match action {
            Action::Play(m) => {
                let hand = &mut self.core.hands[seat];
                if self.dealer.is_recording() || !named.is_empty() {
                    hand.take(&m.cards, named, &mut self.cards);
                } else {
                    let followed = self.family.plays_read_ranks();
                    hand.take_lowest(&m.cards, followed, &mut self.cards);
                }
                let range = start..self.cards.len() as u32;
                if self.dealer.is_recording() {
                    self.actions.push(Taken {
                        seat,
                        action,
                        cards: range.clone(),
                    });
                    self.core.history.push((seat, action));
                }
                let t = &mut self.core;
                t.tricks.play(seat, m);
                let cards = &self.cards[range.start as usize..range.end as usize];
                self.family.on_play(t, seat, &m, cards);
                if t.phase != Phase::Over {
                    let out = if t.hands[seat].is_empty() {
                        Some(seat)
                    } else {
                        t.hands.iter().position(Hand::is_empty)
                    };
                    match out {
                        Some(winner) => {
                            let result = self.family.finish(t, winner);
                            t.end(result);
                        }
                        None => t.to_act = t.next(seat),
                    }
                }
                if !self.dealer.is_recording() {
                    self.cards.truncate(start as usize);
                }
            }
            Action::Pass if self.core.phase == Phase::Play => {
                self.log(seat, action);
                let t = &mut self.core;
                t.tricks.pass();
                t.to_act = t.next(seat);
            }
            word => {
                self.log(seat, word);
                self.family.apply(&mut self.core, seat, word);
                if self.core.redeal {
                    self.redeals += 1;
                    self.start();
                    return;
                }
            }
        }
        self.refresh();
    }

    fn log(&mut self, seat: usize, action: Action) {
        if !self.dealer.is_recording() {
            return;
        }
        let at = self.cards.len() as u32;
        self.actions.push(Taken {
            seat,
            action,
            cards: at..at,
        });
        self.core.history.push((seat, action));
    }
}
