//! Dealing: the physical deck, its shuffle and cut, random deals from a
//! seeded generator, and given deals (from a user or a record) checked
//! card by card against the deck.

use super::physical::{identities, parse_identities, sort_cards, Card};
use crate::cards::{Cards, BIG_JOKER, LAIZI, SMALL_JOKER, TWO};
use crate::rules::Rules;
use serde_json::{Map, Value};

/// SplitMix64: small, fast, and the same on every platform.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The generator of game `index` of a series seeded `seed`: each game
    /// draws from its own, so a series plays the same on any number of
    /// threads and in any number of parts.
    pub fn for_game(seed: u64, index: u64) -> Rng {
        let mut rng = Rng(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        rng.next_u64();
        rng
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n below 2^32).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// Fisher-Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// Every physical card of the rule set's deck: each suited card once per
/// deck, then the jokers and laizi.
pub fn physical_deck(rules: &Rules) -> Vec<Card> {
    let mut deck = Vec::with_capacity(rules.deck_size());
    for slot in 0..=TWO as u8 {
        for suit in 0..4 {
            deck.extend(std::iter::repeat_n(
                Card { slot, suit },
                rules.decks as usize,
            ));
        }
    }
    for (slot, copies) in [
        (SMALL_JOKER, rules.decks),
        (BIG_JOKER, rules.decks),
        (LAIZI, rules.laizi),
    ] {
        let card = Card {
            slot: slot as u8,
            suit: 0,
        };
        deck.extend(std::iter::repeat_n(card, copies as usize));
    }
    deck
}

/// Physical cards as the counts per rank that the engine plays with.
pub fn count(cards: &[Card]) -> Cards {
    let mut c = Cards::EMPTY;
    for card in cards {
        c.0[card.slot as usize] += 1;
    }
    c
}

/// A shuffled physical deck cut in deal order: a hand per seat, then the
/// kitty, then the cards set aside.
#[derive(Clone)]
pub struct Cut {
    pub(crate) deck: Vec<Card>,
    pub(crate) players: usize,
    pub(crate) size: usize,
    pub(crate) kitty: usize,
}

impl Cut {
    pub fn shuffled(rules: &Rules, rng: &mut Rng) -> Self {
        let mut cut = Cut::fresh(rules);
        rng.shuffle(&mut cut.deck);
        cut
    }

    /// The rule set's deck in fresh order, to be shuffled deal after deal
    /// (`reshuffle`) without allocating.
    pub fn fresh(rules: &Rules) -> Self {
        Cut {
            deck: physical_deck(rules),
            players: rules.players as usize,
            size: rules.hand_size as usize,
            kitty: rules.kitty as usize,
        }
    }

    /// Lay `fresh` (the rule set's deck in `physical_deck` order) back
    /// and shuffle it: the same cut as `Cut::shuffled` with this generator.
    pub fn reshuffle(&mut self, fresh: &[Card], rng: &mut Rng) {
        self.deck.clear();
        self.deck.extend_from_slice(fresh);
        rng.shuffle(&mut self.deck);
    }

    pub fn players(&self) -> usize {
        self.players
    }

    /// Every card dealt to a seat, hand after hand.
    pub fn in_hands(&self) -> &[Card] {
        &self.deck[..self.players * self.size]
    }

    pub fn hand(&self, seat: usize) -> &[Card] {
        &self.deck[seat * self.size..(seat + 1) * self.size]
    }

    pub fn kitty(&self) -> &[Card] {
        let start = self.players * self.size;
        &self.deck[start..start + self.kitty]
    }

    pub fn set_aside(&self) -> &[Card] {
        &self.deck[self.players * self.size + self.kitty..]
    }

    /// The dealt card at position `at` of `in_hands`, and its seat.
    pub fn at(&self, at: usize) -> (Card, usize) {
        (self.in_hands()[at], at / self.size)
    }

    /// One dealt card drawn uniformly among those `markable` allows, and
    /// its seat (a marked card).
    pub fn mark(&self, rng: &mut Rng, markable: impl Fn(Card) -> bool) -> (Card, usize) {
        let dealt = self.in_hands();
        let choices = dealt.iter().filter(|&&c| markable(c)).count();
        let pick = rng.below(choices);
        let at = (0..dealt.len())
            .filter(|&i| markable(dealt[i]))
            .nth(pick)
            .expect("a deal holds a card that may be marked");
        self.at(at)
    }

    /// A plain deal of the cut into `deal`: a random first seat, the kitty
    /// sorted (what a family without choices of its own deals).
    pub fn deal_plain_into(&self, rng: &mut Rng, deal: &mut Deal) {
        let first = rng.below(self.players);
        self.deal_into(first, true, deal);
    }

    /// The cut into the buffers of `deal` (a table reuses the last deal's),
    /// first seat `first`: the hands and the cards set aside as dealt
    /// (`Deal::sort_hands` puts them in order), the kitty sorted or as
    /// dealt (for a family that shares it from the top). `extra` is left
    /// for the family to overwrite.
    pub fn deal_into(&self, first: usize, sort_kitty: bool, deal: &mut Deal) {
        deal.hands.resize_with(self.players, Vec::new);
        for (seat, hand) in deal.hands.iter_mut().enumerate() {
            hand.clear();
            hand.extend_from_slice(self.hand(seat));
        }
        deal.kitty.clear();
        deal.kitty.extend_from_slice(self.kitty());
        if sort_kitty {
            sort_cards(&mut deal.kitty);
        }
        deal.set_aside.clear();
        deal.set_aside.extend_from_slice(self.set_aside());
        deal.first = first;
    }
}

/// Who holds what at the start of a deal.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Deal {
    /// Each hand low to high.
    pub hands: Vec<Vec<Card>>,
    /// In stored order: sorted, except where a family shares it as dealt.
    pub kitty: Vec<Card>,
    pub set_aside: Vec<Card>,
    /// The seat that acts first.
    pub first: usize,
    /// The family's own choices made at the deal (`marked`, `secret`), as
    /// records write them.
    pub extra: Map<String, Value>,
}

/// The keys every deal may hold; a family adds its own.
pub const BASE_KEYS: [&str; 4] = ["hands", "kitty", "set_aside", "first"];

impl Deal {
    /// A plain shuffled deal and a random first seat.
    pub fn shuffled(rules: &Rules, rng: &mut Rng) -> Deal {
        let mut deal = Deal::default();
        Cut::shuffled(rules, rng).deal_plain_into(rng, &mut deal);
        deal.sort_hands();
        deal
    }

    /// Set the family key `key` to the text `write` makes, reusing the
    /// key's string when the deal already holds one (a table refills the
    /// same deal's buffers deal after deal).
    pub fn set_text(&mut self, key: &str, write: impl FnOnce(&mut String)) {
        if let Some(Value::String(text)) = self.extra.get_mut(key) {
            text.clear();
            return write(text);
        }
        let mut text = String::new();
        write(&mut text);
        self.extra.insert(key.into(), text.into());
    }

    /// Each hand and the cards set aside low to high, as a deal is kept
    /// (a table that keeps no record skips it: a sort per hand per deal).
    pub fn sort_hands(&mut self) {
        for hand in &mut self.hands {
            sort_cards(hand);
        }
        sort_cards(&mut self.set_aside);
    }

    /// As records store it: identities, the kitty in stored order.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        let hands = self.hands.iter().map(|h| Value::from(identities(h)));
        out.insert("hands".into(), Value::Array(hands.collect()));
        let kitty: String = self.kitty.iter().map(Card::to_string).collect();
        out.insert("kitty".into(), kitty.into());
        out.insert("set_aside".into(), identities(&self.set_aside).into());
        out.insert("first".into(), self.first.into());
        out.extend(self.extra.clone());
        Value::Object(out)
    }

    /// A deal from `{"hands": [...], "kitty": "...", "first": 0, ...}`,
    /// checked against the rule set's deck. Ranks written without a suit
    /// get the copy a fresh deck would hand out first. `family_keys` are the
    /// extra keys the family reads (it checks their values itself).
    pub fn from_json(rules: &Rules, spec: &Value, family_keys: &[&str]) -> Result<Deal, String> {
        let Some(spec) = spec.as_object() else {
            return Err(format!("a deal is a dict, not {spec}"));
        };
        let allowed: Vec<&str> = BASE_KEYS.iter().chain(family_keys).copied().collect();
        let mut unknown: Vec<&String> = spec
            .keys()
            .filter(|k| !allowed.contains(&k.as_str()))
            .collect();
        if !unknown.is_empty() {
            unknown.sort();
            let mut allowed = allowed.clone();
            allowed.sort();
            return Err(format!(
                "deal keys {} are not used by {:?}; allowed: {}",
                py_list(unknown.iter().map(|s| s.as_str())),
                rules.preset,
                py_list(allowed.into_iter())
            ));
        }
        let n = rules.players as usize;
        let hands_text = match spec.get("hands").and_then(Value::as_array) {
            Some(h) if h.len() == n => h,
            _ => return Err(format!("deal['hands'] must list {n} hands")),
        };
        fn text_of<'v>(key: &str, v: Option<&'v Value>) -> Result<&'v str, String> {
            match v {
                None => Ok(""),
                Some(Value::String(s)) => Ok(s.as_str()),
                Some(other) => Err(format!("deal['{key}'] must be card text, not {other}")),
            }
        }
        let mut groups = Vec::with_capacity(n + 2);
        for (i, h) in hands_text.iter().enumerate() {
            let Some(text) = h.as_str() else {
                return Err(format!("deal['hands'][{i}] must be card text, not {h}"));
            };
            groups.push(parse_identities(text)?);
        }
        groups.push(parse_identities(text_of("kitty", spec.get("kitty"))?)?);
        groups.push(parse_identities(text_of(
            "set_aside",
            spec.get("set_aside"),
        )?)?);
        for (i, h) in groups[..n].iter().enumerate() {
            if h.len() != rules.hand_size as usize {
                return Err(format!(
                    "deal['hands'][{i}] holds {} cards, not {}",
                    h.len(),
                    rules.hand_size
                ));
            }
        }
        for (key, group, want) in [
            ("kitty", &groups[n], rules.kitty),
            ("set_aside", &groups[n + 1], rules.set_aside),
        ] {
            if group.len() != want as usize {
                return Err(format!(
                    "deal['{key}'] holds {} cards, not {want}",
                    group.len()
                ));
            }
        }
        // The copies still in the deck, per rank and suit (jokers and laizi
        // under suit 0); suited cards are taken first, then open ones.
        let mut left = [[0u8; 4]; 16];
        for c in physical_deck(rules) {
            left[c.slot as usize][c.suit as usize] += 1;
        }
        let symbol = |slot: u8| crate::cards::SYMBOLS[slot as usize];
        for named in groups.iter().flatten() {
            if let Some(suit) = named.suit {
                let copies = &mut left[named.slot as usize][suit as usize];
                if *copies == 0 {
                    let card = Card {
                        slot: named.slot,
                        suit,
                    };
                    return Err(format!("deal holds more copies of '{card}' than the deck"));
                }
                *copies -= 1;
            }
        }
        let mut cards: Vec<Vec<Card>> = Vec::with_capacity(groups.len());
        for group in &groups {
            let mut out = Vec::with_capacity(group.len());
            for named in group {
                let slot = named.slot as usize;
                let suit = match named.suit {
                    Some(s) => s,
                    // The first copy a fresh deck order still holds: decks
                    // are laid out one after another, so the suit with the
                    // most copies left, lowest suit first.
                    None => {
                        let best = (0..4)
                            .filter(|&s| left[slot][s] > 0)
                            .min_by_key(|&s| (std::cmp::Reverse(left[slot][s]), s));
                        let Some(s) = best else {
                            return Err(format!(
                                "deal holds more copies of '{}' than the deck",
                                symbol(named.slot)
                            ));
                        };
                        left[slot][s] -= 1;
                        s as u8
                    }
                };
                out.push(Card {
                    slot: named.slot,
                    suit,
                });
            }
            cards.push(out);
        }
        let first = match spec.get("first") {
            None => 0,
            Some(v) => match v.as_u64() {
                Some(f) if (f as usize) < n => f as usize,
                _ => return Err(format!("deal['first'] must be a seat 0..{}", n - 1)),
            },
        };
        let set_aside = cards.pop().unwrap_or_default();
        let kitty = cards.pop().unwrap_or_default();
        for hand in cards.iter_mut() {
            hand.sort_unstable();
        }
        let extra = spec
            .iter()
            .filter(|(k, _)| family_keys.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Ok(Deal {
            hands: cards,
            kitty,
            set_aside,
            first,
            extra,
        })
    }
}

/// `['a', 'b']`, as Python prints a list of names.
fn py_list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let quoted: Vec<String> = names.map(|n| format!("'{n}'")).collect();
    format!("[{}]", quoted.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn classic() -> Rules {
        Rules::preset("classic").unwrap()
    }

    #[test]
    fn a_shuffled_deal_is_the_whole_deck() {
        let rules = Rules::preset("four-player").unwrap();
        let deal = Deal::shuffled(&rules, &mut Rng::for_game(3, 0));
        let mut all: Vec<Card> = deal.hands.concat();
        all.extend(&deal.kitty);
        all.sort_unstable();
        let mut deck = physical_deck(&rules);
        deck.sort_unstable();
        assert_eq!(all, deck);
        assert!(deal.first < 4);
    }

    #[test]
    fn a_given_deal_round_trips_and_fills_in_suits() {
        let rules = classic();
        let deal = Deal::shuffled(&rules, &mut Rng::for_game(1, 2));
        let back = Deal::from_json(&rules, &deal.to_json(), &[]).unwrap();
        assert_eq!(back, deal);
        // Plain ranks get the lowest suits left, in deck order.
        let deck: Vec<Card> = physical_deck(&rules);
        let hands: Vec<String> = (0..3)
            .map(|s| {
                deck[s * 17..(s + 1) * 17]
                    .iter()
                    .map(|c| crate::cards::SYMBOLS[c.slot as usize])
                    .collect()
            })
            .collect();
        let plain = json!({"hands": hands, "kitty": "2XD"});
        let dealt = Deal::from_json(&rules, &plain, &[]).unwrap();
        assert_eq!(dealt.hands[0], deck[..17].to_vec());
        assert_eq!(identities(&dealt.kitty), "2sXD");
        let mut short = plain.clone();
        short["hands"][0] = json!("3");
        let err = Deal::from_json(&rules, &short, &[]).unwrap_err();
        assert!(err.contains("holds 1 cards, not 17"), "{err}");
    }

    #[test]
    fn given_deals_name_what_is_wrong() {
        let rules = classic();
        let bad = |spec: Value| Deal::from_json(&rules, &spec, &[]).unwrap_err();
        assert!(bad(json!(3)).contains("a deal is a dict"));
        assert!(bad(json!({"hands": ["3"]})).contains("must list 3 hands"));
        assert!(bad(json!({"hands": [], "marked": "3d"})).contains("deal keys ['marked']"));
        let mut cards = vec![String::new(); 3];
        let deck: Vec<String> = physical_deck(&rules).iter().map(Card::to_string).collect();
        for (i, c) in deck.iter().enumerate().take(51) {
            cards[i / 17].push_str(c);
        }
        let ok = json!({"hands": cards, "kitty": "2sXD", "first": 2});
        let deal = Deal::from_json(&rules, &ok, &[]).unwrap();
        assert_eq!(deal.first, 2);
        let mut twice = ok.clone();
        twice["kitty"] = json!("3dXD");
        assert!(bad(twice).contains("more copies of '3d'"));
        let mut seat = ok.clone();
        seat["first"] = json!(3);
        assert!(bad(seat).contains("must be a seat 0..2"));
    }
}
