//! Cards as count vectors: one `u8` per rank `3 4 5 6 7 8 9 T J Q K A 2 X D L`.

use std::fmt;
use std::ops::{Add, Sub};

/// Number of slots in a count vector.
pub const SLOTS: usize = 16;
/// Slot of the `2`, the highest ordinary rank.
pub const TWO: usize = 12;
/// Slot of the small joker.
pub const SMALL_JOKER: usize = 13;
/// Slot of the big joker.
pub const BIG_JOKER: usize = 14;
/// Slot of the laizi (wild card).
pub const LAIZI: usize = 15;
/// Canonical symbol of each slot.
pub const SYMBOLS: [char; SLOTS] = [
    '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A', '2', 'X', 'D', 'L',
];

/// Canonical symbol of a rank slot.
pub fn symbol(rank: usize) -> char {
    SYMBOLS[rank]
}

/// A multiset of cards: how many of each rank. Suits are not part of it.
///
/// Aligned to 16 bytes so that a count vector moves as one SIMD register.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[repr(C, align(16))]
pub struct Cards(pub [u8; SLOTS]);

impl Cards {
    pub const EMPTY: Cards = Cards([0; SLOTS]);

    pub fn from_counts(counts: [u8; SLOTS]) -> Cards {
        Cards(counts)
    }

    /// The counts as one integer, slot `i` in byte `i`: an exact key for
    /// tables (hashing one `u128` is cheaper than hashing 16 bytes).
    #[inline]
    pub fn key(&self) -> u128 {
        u128::from_le_bytes(self.0)
    }

    /// The counts packed four bits a slot into one `u64`, when every count
    /// is below 16 (always, except 16 copies of a rank in four decks):
    /// a table key half the size of `key`.
    #[inline]
    pub fn packed(&self) -> Option<u64> {
        if self.mask_at_least(16) != 0 {
            return None;
        }
        let k = self.key();
        // Fold byte lanes into nibbles: lane i's low nibble lands at bits 4i..4i+4.
        let mut out = 0u64;
        for i in 0..16 {
            out |= ((k >> (8 * i)) as u64 & 0xF) << (4 * i);
        }
        Some(out)
    }

    /// The cards of a `key`.
    #[inline]
    pub fn from_key(key: u128) -> Cards {
        Cards(key.to_le_bytes())
    }

    /// Cards holding `n` copies of one rank.
    pub fn of(rank: usize, n: u8) -> Cards {
        let mut c = Cards::EMPTY;
        c.0[rank] = n;
        c
    }

    /// These cards plus `n` of `rank`, computed in registers (a byte store
    /// followed by a 16-byte load would stall store forwarding).
    #[inline]
    pub fn plus(self, rank: usize, n: u8) -> Cards {
        let v = u128::from_le_bytes(self.0) + ((n as u128) << (8 * rank));
        Cards(v.to_le_bytes())
    }

    /// True when any card other than a laizi is present.
    #[inline]
    pub fn has_naturals(&self) -> bool {
        u128::from_le_bytes(self.0) & ((1u128 << (8 * LAIZI)) - 1) != 0
    }

    #[inline]
    pub fn get(&self, rank: usize) -> u8 {
        self.0[rank]
    }

    #[inline]
    pub fn len(&self) -> usize {
        lanes::sum(&self.0) as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; SLOTS]
    }

    /// True when every count of `other` fits in `self`.
    #[inline]
    pub fn contains(&self, other: &Cards) -> bool {
        lanes::at_least(&self.0, &other.0) == 0xFFFF
    }

    /// Bit `r` set when rank `r` holds at least `n` cards.
    #[inline]
    pub fn mask_at_least(&self, n: u8) -> u32 {
        lanes::at_least(&self.0, &[n; SLOTS])
    }

    /// Number of distinct ranks present.
    pub fn distinct(&self) -> usize {
        self.0.iter().filter(|&&n| n > 0).count()
    }

    /// Ranks present, lowest first, each repeated by its count.
    pub fn ranks(&self) -> impl Iterator<Item = usize> + '_ {
        self.0
            .iter()
            .enumerate()
            .flat_map(|(r, &n)| std::iter::repeat_n(r, n as usize))
    }

    /// Parse card text (docs/rules.md#cards): ranks `3..9 T J Q K A 2`, `10`, lower-case
    /// letters, jokers `X` (also `x`) and `D`, laizi `L`, an optional suit letter
    /// `s h c d` right after a rank; spaces, commas and `+` separate freely.
    pub fn parse(text: &str) -> Result<Cards, ParseError> {
        let mut counts = [0u8; SLOTS];
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let slot = match c {
                ' ' | ',' | '+' | '\t' => {
                    i += 1;
                    continue;
                }
                '1' if chars.get(i + 1) == Some(&'0') => {
                    i += 1;
                    7
                }
                '3'..='9' => c as usize - '3' as usize,
                'T' | 't' => 7,
                'J' | 'j' => 8,
                'Q' | 'q' => 9,
                'K' | 'k' => 10,
                'A' | 'a' => 11,
                '2' => TWO,
                'X' | 'x' => SMALL_JOKER,
                'D' => BIG_JOKER,
                'L' => LAIZI,
                _ => {
                    return Err(ParseError {
                        text: text.to_string(),
                        position: i,
                        symbol: c,
                        overflow: false,
                    })
                }
            };
            i += 1;
            // A suit letter may follow an ordinary rank (identity only; not counted).
            if slot <= TWO {
                if let Some('s' | 'h' | 'c' | 'd') = chars.get(i) {
                    i += 1;
                }
            }
            counts[slot] = counts[slot].checked_add(1).ok_or_else(|| ParseError {
                text: text.to_string(),
                position: i - 1,
                symbol: SYMBOLS[slot],
                overflow: true,
            })?;
        }
        Ok(Cards(counts))
    }
}

impl Add for Cards {
    type Output = Cards;
    #[inline]
    fn add(self, rhs: Cards) -> Cards {
        let mut out = self.0;
        for (a, b) in out.iter_mut().zip(rhs.0.iter()) {
            *a = a.saturating_add(*b);
        }
        Cards(out)
    }
}

impl Sub for Cards {
    type Output = Cards;
    /// Saturating difference: callers check `contains` first where it matters.
    #[inline]
    fn sub(self, rhs: Cards) -> Cards {
        let mut out = self.0;
        for (a, b) in out.iter_mut().zip(rhs.0.iter()) {
            *a = a.saturating_sub(*b);
        }
        Cards(out)
    }
}

impl fmt::Display for Cards {
    /// Canonical text: ascending, laizi last, no separators.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in self.ranks() {
            write!(f, "{}", SYMBOLS[r])?;
        }
        Ok(())
    }
}

impl fmt::Debug for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cards({self})")
    }
}

/// A symbol the card parser does not know, or the 256th copy of a card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub text: String,
    pub position: usize,
    pub symbol: char,
    /// True when the text holds more copies of `symbol` than a count can hold.
    pub overflow: bool,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.overflow {
            return write!(f, "more than 255 copies of {:?}", self.symbol);
        }
        write!(
            f,
            "unknown card symbol {:?} at position {} in {:?} (ranks 3-9 T J Q K A 2 or 10, jokers X D, laizi L, suits s h c d after a rank)",
            self.symbol, self.position, self.text
        )
    }
}

impl std::error::Error for ParseError {}

/// Whole-vector operations on 16 byte lanes. The counters call them for
/// every hand, so on x86-64 they are three SSE2 instructions each (SSE2 is
/// part of every x86-64 CPU); elsewhere plain loops.
mod lanes {
    use super::SLOTS;

    /// Bit `i` set when `a[i] >= b[i]` (unsigned).
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub fn at_least(a: &[u8; SLOTS], b: &[u8; SLOTS]) -> u32 {
        use std::arch::x86_64::*;
        // SAFETY: unaligned 16-byte loads from 16-byte arrays; SSE2 is
        // always present on x86-64.
        unsafe {
            let a = _mm_loadu_si128(a.as_ptr().cast());
            let b = _mm_loadu_si128(b.as_ptr().cast());
            // max(a, b) == a exactly where a >= b.
            _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(a, b), a)) as u32
        }
    }

    /// The sum of the lanes.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub fn sum(a: &[u8; SLOTS]) -> u32 {
        use std::arch::x86_64::*;
        // SAFETY: as in `at_least`.
        unsafe {
            let v = _mm_sad_epu8(_mm_loadu_si128(a.as_ptr().cast()), _mm_setzero_si128());
            (_mm_cvtsi128_si32(v) + _mm_extract_epi16::<4>(v)) as u32
        }
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub fn at_least(a: &[u8; SLOTS], b: &[u8; SLOTS]) -> u32 {
        (0..SLOTS).fold(0, |m, i| m | ((a[i] >= b[i]) as u32) << i)
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub fn sum(a: &[u8; SLOTS]) -> u32 {
        a.iter().map(|&n| n as u32).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_aliases_and_separators() {
        let a = Cards::parse("10 10,j+Q k a2xD").unwrap();
        assert_eq!(a.to_string(), "TTJQKA2XD");
        let b = Cards::parse("9h9s Td").unwrap();
        assert_eq!(b.to_string(), "99T");
    }

    #[test]
    fn canonical_order_puts_laizi_last() {
        assert_eq!(Cards::parse("LD3X2").unwrap().to_string(), "32XDL");
    }

    #[test]
    fn rejects_unknown_symbols_naming_them() {
        let e = Cards::parse("33Z4").unwrap_err();
        assert_eq!(e.symbol, 'Z');
        assert_eq!(e.position, 2);
        assert!(Cards::parse("1").is_err());
        assert!(
            Cards::parse("d").is_err(),
            "a suit letter alone is not a card"
        );
        assert!(Cards::parse("XH").is_err(), "jokers carry no suit");
    }

    #[test]
    fn mask_at_least_matches_a_plain_loop() {
        let mut c = Cards::EMPTY;
        for slot in 0..SLOTS {
            c.0[slot] = ((slot * 7) % 17) as u8;
        }
        c.0[3] = 255;
        for n in 1..=20u8 {
            let want = (0..SLOTS).fold(0u32, |m, r| m | (((c.0[r] >= n) as u32) << r));
            assert_eq!(c.mask_at_least(n), want, "n = {n}");
        }
    }

    #[test]
    fn lane_operations_match_plain_loops() {
        // A few fixed vectors with extreme counts, and their shifts.
        let mut vectors = vec![[0u8; SLOTS], [255u8; SLOTS], [1u8; SLOTS]];
        for k in 0..SLOTS {
            vectors.push(std::array::from_fn(|i| ((i * 37 + k * 11) % 256) as u8));
            vectors.push(std::array::from_fn(|i| ((i + k) % 5) as u8));
        }
        for a in &vectors {
            let plain_len: usize = a.iter().map(|&n| n as usize).sum();
            assert_eq!(Cards(*a).len(), plain_len);
            for b in &vectors {
                let plain = a.iter().zip(b).all(|(x, y)| x >= y);
                assert_eq!(Cards(*a).contains(&Cards(*b)), plain, "{a:?} >= {b:?}");
            }
        }
    }

    #[test]
    fn packed_keys_are_exact_below_sixteen() {
        let mut c = Cards::EMPTY;
        for slot in 0..SLOTS {
            c.0[slot] = (slot % 16) as u8;
        }
        let k = c.packed().unwrap();
        let back: [u8; SLOTS] = std::array::from_fn(|i| (k >> (4 * i) & 0xF) as u8);
        assert_eq!(back, c.0);
        c.0[3] = 16;
        assert_eq!(c.packed(), None);
        assert_eq!(Cards::from_key(c.key()), c);
    }

    #[test]
    fn masks_and_containment() {
        let h = Cards::parse("33344455XD").unwrap();
        assert_eq!(h.mask_at_least(3), 0b11);
        assert!(h.contains(&Cards::parse("345").unwrap()));
        assert!(!h.contains(&Cards::parse("5555").unwrap()));
        assert_eq!(h.len(), 10);
        assert_eq!((h - Cards::parse("33").unwrap()).to_string(), "344455XD");
    }
}
