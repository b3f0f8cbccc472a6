//! The comparison puzzles of the public WZ403809264/doudizhu_solver README,
//! shared by the solve bench and the solve_faults example.

use ddz_core::Cards;

/// (leader, other, leader wins) in the README's notation: Z big joker,
/// Y small joker, 0 ten.
pub const PUZZLES: [(&str, &str, bool); 8] = [
    ("KK5543", "225543", true),
    ("ZA54333", "Y222KQ", true),
    ("2KK0077554", "AA8", false),
    ("ZKKQJ09876633", "AAKQJ0987", true),
    ("2AK096554", "YKJ08854", true),
    ("ZYAAKKQ0099", "2222JJ00", true),
    ("Y2AK998553", "ZQQJJ0953", true),
    ("ZAQQJJ0999844", "Y22AA0886633", true),
];

pub fn hand(text: &str) -> Cards {
    let t: String = text
        .chars()
        .map(|c| match c {
            'Z' => 'D',
            'Y' => 'X',
            '0' => 'T',
            c => c,
        })
        .collect();
    Cards::parse(&t).unwrap()
}
