"""The public Python API (docs/game.md, docs/rules.md) for the `classic` and `two-player` presets.

Parsing and canonical text (docs/rules.md#cards), errors, preset facts (#presets), rule-set
round trips, and the `Move` / previous-play surface.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import ddz

PLAY_PRESETS = ["classic", "two-player"]

# docs/rules.md#presets: players, decks, laizi, hand, kitty; two-player sets 11 aside.
PRESET_FACTS = {
    "classic": (3, 1, 0, 17, 3, 0),
    "two-player": (2, 1, 0, 20, 3, 11),
    "four-player": (4, 2, 0, 25, 8, 0),
    "five-player": (5, 2, 0, 21, 3, 0),
    "five-player-3deck": (5, 3, 0, 31, 7, 0),
    "six-player-3v3": (6, 3, 0, 27, 0, 0),
    "six-player-3v3-kitty": (6, 3, 0, 25, 12, 0),
    "six-player-2v4": (6, 4, 0, 34, 12, 0),
    "six-player-teams": (6, 4, 0, 34, 12, 0),
    "laizi": (3, 1, 2, 17, 5, 0),
}

FULL_DECK = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222XD"


@pytest.fixture(params=PLAY_PRESETS)
def rules(request: pytest.FixtureRequest) -> ddz.Rules:
    return ddz.Rules(request.param)


# --- presets and rule sets -------------------------------------------------


def test_presets_are_the_ten_of_rules_md() -> None:
    assert isinstance(ddz.PRESETS, tuple)
    assert ddz.PRESETS == tuple(PRESET_FACTS)
    assert ddz.Rules().preset == "classic"


@pytest.mark.parametrize("preset", list(PRESET_FACTS))
def test_preset_facts(preset: str) -> None:
    r = ddz.Rules(preset)
    players, decks, laizi, hand, kitty, aside = PRESET_FACTS[preset]
    assert r.preset == preset
    assert (r.players, r.decks, r.laizi, r.hand_size, r.kitty, r.set_aside) == (
        players,
        decks,
        laizi,
        hand,
        kitty,
        aside,
    )
    # Every card is dealt, in the kitty or set aside.
    assert players * hand + kitty + aside == 54 * decks + laizi


@pytest.mark.parametrize("preset", list(PRESET_FACTS))
def test_facts_are_read_only(preset: str) -> None:
    r = ddz.Rules(preset)
    for name in ("preset", "players", "decks", "laizi", "hand_size", "kitty", "set_aside"):
        with pytest.raises(AttributeError):
            setattr(r, name, 1)


@pytest.mark.parametrize("preset", list(PRESET_FACTS))
def test_dict_and_json_round_trip(preset: str) -> None:
    r = ddz.Rules(preset)
    d = r.to_dict()
    assert isinstance(d, dict)
    text = json.dumps(d)  # plain, JSON-serialisable
    assert json.loads(text) == d
    assert d["preset"] == preset
    for key in ("players", "decks", "hand_size", "kitty"):
        assert d[key] == getattr(r, key)
    again = ddz.Rules.from_dict(json.loads(text))
    assert again == r
    assert again.to_dict() == d
    assert ddz.Rules.from_json(r.to_json()) == r
    assert json.loads(r.to_json()) == d


def test_options_override() -> None:
    plain = ddz.Rules("classic")
    r = ddz.Rules("classic", spring=False)
    assert plain.to_dict()["spring"] is True
    assert r.to_dict()["spring"] is False
    assert r.preset == "classic"
    assert r != plain
    assert ddz.Rules.from_dict(r.to_dict()) == r
    # everything else untouched
    d, p = r.to_dict(), plain.to_dict()
    assert {k for k in d if d[k] != p[k]} == {"spring"}
    assert ddz.Rules("four-player", spring=False).players == 4


def test_rules_equality() -> None:
    assert ddz.Rules("classic") == ddz.Rules("classic")
    assert ddz.Rules("classic") != ddz.Rules("two-player")
    assert ddz.Rules("classic") != "classic"


def test_unknown_preset_lists_presets() -> None:
    with pytest.raises(ValueError) as e:
        ddz.Rules("three-player")
    msg = str(e.value)
    assert "three-player" in msg
    for preset in ddz.PRESETS:
        assert preset in msg


def test_unknown_option_lists_options() -> None:
    with pytest.raises(ValueError) as e:
        ddz.Rules("classic", sprang=False)
    msg = str(e.value)
    assert "sprang" in msg
    for option in ("spring", "trio_single", "decks", "king_bombs"):
        assert option in msg


def test_bad_option_value() -> None:
    with pytest.raises(ValueError, match="boolean"):
        ddz.Rules("classic", spring="yes")
    with pytest.raises(ValueError, match="decks"):
        ddz.Rules("classic", decks=0)
    with pytest.raises(ValueError):
        ddz.Rules("classic", spring=object())


def test_bad_option_value_names_the_option() -> None:
    with pytest.raises(ValueError, match="spring"):
        ddz.Rules("classic", spring="yes")


def test_from_dict_rejects_bad_dicts() -> None:
    with pytest.raises(ValueError, match="bogus"):
        ddz.Rules.from_dict({**ddz.Rules().to_dict(), "bogus": 1})
    with pytest.raises(ValueError):
        ddz.Rules.from_dict({"preset": "classic"})  # options missing
    with pytest.raises(ValueError):
        ddz.Rules.from_json("{")


# --- parsing and canonical text ------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("33445566778899TJQKA2XD", "33445566778899TJQKA2XD"),
        ("DX2AKQJT98765433", "33456789TJQKA2XD"),
        ("10", "T"),
        ("10 10 10", "TTT"),
        ("t j q k a x", "TJQKAX"),
        ("3 4 5", "345"),
        ("3,4,5", "345"),
        ("333+4", "3334"),
        ("333 + 44", "33344"),
        ("9h", "9"),
        ("9h 9s 9c 9d", "9999"),
        ("10h Td ts", "TTT"),
        ("Ah2sXD", "A2XD"),
        ("", ""),
        ("  ", ""),
    ],
)
def test_parse_and_canonical_text(rules: ddz.Rules, text: str, canonical: str) -> None:
    cards = rules.cards(text)
    assert isinstance(cards, ddz.Cards)
    assert str(cards) == canonical
    assert str(ddz.Cards(text)) == canonical
    assert cards == ddz.Cards(canonical)
    assert hash(cards) == hash(ddz.Cards(canonical))
    # canonical text parses back to itself
    assert str(rules.cards(str(cards))) == canonical


def test_whole_deck(rules: ddz.Rules) -> None:
    deck = rules.cards(FULL_DECK)
    assert len(deck) == 54
    assert str(deck) == FULL_DECK
    assert list(deck.counts) == [4] * 13 + [1, 1, 0]


def test_counts_vector(rules: ddz.Rules) -> None:
    c = rules.cards("3 3 T X D")
    counts = c.counts
    assert isinstance(counts, np.ndarray)
    assert counts.dtype == np.uint8
    assert counts.shape == (16,)
    assert counts.tolist() == [2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 0]
    assert len(c) == 5
    # counts in, the same cards out: list, tuple, numpy (any int dtype), 15 slots
    assert rules.cards(counts) == c
    assert rules.cards(counts.tolist()) == c
    assert rules.cards(tuple(counts.tolist())) == c
    assert rules.cards(counts.astype(np.int64)) == c
    assert rules.cards(counts.tolist()[:15]) == c
    assert ddz.Cards(counts) == c
    assert rules.cards(c) == c


def test_counts_are_a_copy() -> None:
    c = ddz.Cards("333")
    counts = c.counts
    counts[0] = 0
    assert str(c) == "333"


def test_cards_len_contains_and_hash() -> None:
    hand = ddz.Cards("334455XD")
    assert len(hand) == 8
    assert hand.contains("345")
    assert hand.contains(ddz.Cards("XD"))
    assert hand.contains("")
    assert not hand.contains("333")
    assert not hand.contains("6")
    assert len({ddz.Cards("34"), ddz.Cards("43"), ddz.Cards("4 3")}) == 1
    assert ddz.Cards("34") != ddz.Cards("35")
    assert repr(hand) == "Cards('334455XD')"


def test_cards_have_no_ordering() -> None:
    # A count vector has no natural order; comparing two is a TypeError, not a surprise.
    with pytest.raises(TypeError):
        _ = ddz.Cards("3") < ddz.Cards("4")


@pytest.mark.parametrize(
    ("text", "needle"),
    [("33Z4", "'Z'"), ("3 4 ? 5", "'?'"), ("1", "'1'"), ("XH", "'H'"), ("d", "'d'")],
)
def test_unknown_symbol(rules: ddz.Rules, text: str, needle: str) -> None:
    with pytest.raises(ValueError) as e:
        rules.cards(text)
    assert needle in str(e.value)
    assert "unknown" in str(e.value)
    with pytest.raises(ValueError):
        ddz.Cards(text)


def test_big_joker_is_upper_case_only(rules: ddz.Rules) -> None:
    # 'x' is the small joker, but 'd' is diamonds, never the big joker
    assert str(rules.cards("x")) == "X"
    with pytest.raises(ValueError, match="'d'"):
        rules.cards("d")


@pytest.mark.parametrize(
    ("text", "symbol"),
    [
        ("33333", "'3'"),
        ("3 3 3 3 3", "'3'"),
        ("22222", "'2'"),
        ("10 10 10 10 10", "'T'"),
        ("XX", "'X'"),
        ("xX", "'X'"),
        ("DD", "'D'"),
    ],
)
def test_too_many_copies(rules: ddz.Rules, text: str, symbol: str) -> None:
    with pytest.raises(ValueError) as e:
        rules.cards(text)
    msg = str(e.value)
    assert symbol in msg
    assert "copies" in msg
    # every entry point that takes cards checks the deck
    for call in (rules.classify, rules.moves, rules.count_moves, rules.hint):
        with pytest.raises(ValueError, match=symbol):
            call(text)


def test_too_many_copies_from_counts(rules: ddz.Rules) -> None:
    with pytest.raises(ValueError, match="'3'"):
        rules.cards([5] + [0] * 15)
    with pytest.raises(ValueError, match="'D'"):
        rules.cards([0] * 14 + [2, 0])


def test_laizi_rejected_outside_laizi_preset(rules: ddz.Rules) -> None:
    for text in ("L", "3L", "33LL"):
        with pytest.raises(ValueError) as e:
            rules.cards(text)
        assert "'L'" in str(e.value)
        with pytest.raises(ValueError, match="'L'"):
            rules.moves(text)
    with pytest.raises(ValueError, match="'L'"):
        rules.cards([0] * 15 + [1])


def test_count_vector_errors(rules: ddz.Rules) -> None:
    with pytest.raises(ValueError, match="17"):
        rules.cards([0] * 17)
    with pytest.raises(ValueError, match="-1"):
        rules.cards([-1] + [0] * 15)
    with pytest.raises(ValueError, match="300"):
        rules.cards([0, 300] + [0] * 14)
    with pytest.raises(TypeError):
        rules.cards(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        rules.cards(17)  # type: ignore[arg-type]


# --- moves ----------------------------------------------------------------


def test_move_attributes(rules: ddz.Rules) -> None:
    [m] = rules.classify("3334")
    assert isinstance(m, ddz.Move)
    assert m.kind == "trio_single"
    assert m.cards == ddz.Cards("3334")
    assert isinstance(m.cards, ddz.Cards)
    assert m.represents == m.cards  # no laizi
    assert m.rank == "3"
    assert m.length == 1
    assert m.is_bomb is False
    assert str(m) == "3334"
    assert len(m) == 4
    assert "trio_single" in repr(m)

    [s] = rules.classify("TJQKA")
    assert (s.kind, s.rank, s.length, s.is_bomb) == ("straight", "A", 5, False)
    [p] = rules.classify("33 44 55 66")
    assert (p.kind, p.rank, p.length, str(p)) == ("pair_straight", "6", 4, "33445566")
    [b] = rules.classify("7777")
    assert (b.kind, b.rank, b.length, b.is_bomb) == ("bomb", "7", 4, True)
    [k] = rules.classify("DX")
    assert (k.kind, k.rank, k.length, k.is_bomb, str(k)) == ("king_bomb", "D", 2, True, "XD")
    [f] = rules.classify("3333 5 6")
    assert (f.kind, f.rank, f.length, f.is_bomb) == ("four_two_singles", "3", 1, False)


def test_move_is_immutable(rules: ddz.Rules) -> None:
    [m] = rules.classify("33")
    with pytest.raises(AttributeError):
        m.kind = "single"  # type: ignore[misc]


def test_move_equality_and_hash(rules: ddz.Rules) -> None:
    a = rules.classify("3334")
    b = rules.classify("4333")
    assert a == b
    assert hash(a[0]) == hash(b[0])
    assert len({*a, *b}) == 1
    assert a[0] != rules.classify("3335")[0]
    assert a[0] != "3334"
    # same cards, different readings: distinct, unequal moves
    readings = rules.classify("333444555666")
    assert len(readings) == 3
    assert len(set(readings)) == 3
    assert {str(m) for m in readings} == {"333444555666"}
    assert {(m.kind, m.rank, m.length) for m in readings} == {
        ("trio_straight", "6", 4),
        ("plane_singles", "5", 3),
        ("plane_singles", "6", 3),
    }


def test_same_move_across_presets_is_equal() -> None:
    a = ddz.Rules("classic").classify("3334")[0]
    b = ddz.Rules("two-player").classify("3334")[0]
    assert a == b
    assert hash(a) == hash(b)


def test_classify_non_plays(rules: ddz.Rules) -> None:
    # "333444+5+66": plane wings never mix singles and pairs (docs/rules.md#kickers)
    for text in ("", "34", "3345", "33334", "2345 6", "JQKA2", "XD3", "333444566"):
        assert rules.classify(text) == [], text
    # no_bomb_inside: 3333 is a bomb, never a trio_single
    assert [(m.kind, m.rank) for m in rules.classify("3333")] == [("bomb", "3")]
    # ...and plane wings may not repeat a trio's rank (333444+3+4), nor 4444 be two pairs
    assert rules.classify("33334444") == []
    assert [m.kind for m in rules.classify("3333XD")] == ["four_two_singles"]


def test_moves_lead(rules: ddz.Rules) -> None:
    moves = rules.moves("33")
    assert [(str(m), m.kind) for m in moves] == [("3", "single"), ("33", "pair")]
    assert rules.moves("") == []
    assert rules.count_moves("") == 0
    assert rules.count_moves("33") == 2
    assert all(isinstance(m, ddz.Move) for m in rules.moves(FULL_DECK[:20]))


def test_moves_accepts_every_cards_form(rules: ddz.Rules) -> None:
    text = "3334445566XD"
    expected = rules.moves(text)
    cards = rules.cards(text)
    assert rules.moves(cards) == expected
    assert rules.moves(cards.counts) == expected
    assert rules.moves(cards.counts.tolist()) == expected
    assert rules.moves(" 3,3,3 + 4 4 4 5 5 6 6 x D") == expected


def test_hint_orders_small_first_bombs_last(rules: ddz.Rules) -> None:
    hint = rules.hint("33445XD")
    assert [str(m) for m in hint] == ["3", "33", "4", "44", "5", "X", "D", "XD"]
    assert sorted(map(str, hint)) == sorted(map(str, rules.moves("33445XD")))


def test_prev_as_text_or_move(rules: ddz.Rules) -> None:
    hand = "3456789TJQKA22XD"
    [prev] = rules.classify("8")
    by_move = rules.moves(hand, prev)
    by_text = rules.moves(hand, "8")
    assert by_move == by_text
    assert [str(m) for m in rules.hint(hand, "8")] == [
        "9",
        "T",
        "J",
        "Q",
        "K",
        "A",
        "2",
        "X",
        "D",
        "XD",
    ]
    assert rules.count_moves(hand, prev) == rules.count_moves(hand, "8") == len(by_text)
    assert rules.moves(hand, rules.cards("8")) == by_text
    assert rules.moves(hand, None) == rules.moves(hand)
    assert rules.count_moves(hand, None) == rules.count_moves(hand)


def test_follow_same_kind_same_length(rules: ddz.Rules) -> None:
    hand = "3456789TJQKA"
    follows = rules.moves(hand, "34567")
    assert {str(m) for m in follows} == {
        "45678",
        "56789",
        "6789T",
        "789TJ",
        "89TJQ",
        "9TJQK",
        "TJQKA",
    }
    assert rules.moves(hand, "TJQKA") == []
    assert rules.moves("3333", "XD") == []
    assert [str(m) for m in rules.moves("3333", "2")] == ["3333"]


def test_beats(rules: ddz.Rules) -> None:
    assert rules.beats("4", "3")
    assert not rules.beats("3", "3")
    assert not rules.beats("3", "4")
    assert not rules.beats("44", "3")
    assert rules.beats("3333", "2")
    assert rules.beats("4444", "3333")
    assert rules.beats("XD", "2222")
    assert not rules.beats("2222", "XD")
    assert not rules.beats("34567", "345678")
    [a] = rules.classify("55566")
    [b] = rules.classify("44433")
    assert rules.beats(a, b)
    assert rules.beats(a, "44433")


def test_ambiguous_prev_text(rules: ddz.Rules) -> None:
    with pytest.raises(ValueError) as e:
        rules.moves("3456789", "333444555666")
    msg = str(e.value)
    assert "333444555666" in msg
    assert "3 readings" in msg
    for call in (rules.count_moves, rules.hint):
        with pytest.raises(ValueError, match="readings"):
            call("3456789", "333444555666")
    with pytest.raises(ValueError, match="readings"):
        rules.beats("XD", "333444555666")
    # any one reading, passed as a Move, is fine
    for reading in rules.classify("333444555666"):
        assert rules.moves("XD", reading) == rules.classify("XD")


def test_prev_that_is_not_a_play(rules: ddz.Rules) -> None:
    for prev in ("34", "3345", "JQKA2"):
        with pytest.raises(ValueError) as e:
            rules.moves("3456789", prev)
        assert "not a legal play" in str(e.value)
        with pytest.raises(ValueError):
            rules.count_moves("3456789", prev)
        with pytest.raises(ValueError):
            rules.hint("3456789", prev)
        with pytest.raises(ValueError):
            rules.beats("XD", prev)
    with pytest.raises(ValueError):
        rules.moves("3456789", "")
    with pytest.raises(ValueError, match="'z'"):
        rules.moves("3456789", "3z")
    with pytest.raises(ValueError, match="'3'"):
        rules.moves("3456789", "33333")
    with pytest.raises(TypeError):
        rules.moves("3456789", 3)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("other", "cards"),
    [
        ("four-player", "XXDD"),  # four-joker rocket: a classic deck has one X and one D
        ("four-player", "XX"),  # a joker pair
        ("four-player", "33333"),  # a five-card bomb
        ("five-player", "XX"),  # a king bomb in five-player
    ],
)
def test_foreign_move_rejected(rules: ddz.Rules, other: str, cards: str) -> None:
    foreign = ddz.Rules(other).classify(cards)
    assert foreign, f"{cards} should be a play in {other}"
    for m in foreign:
        with pytest.raises(ValueError) as e:
            rules.moves("3456789", m)
        assert str(m) in str(e.value)
        with pytest.raises(ValueError):
            rules.count_moves("3456789", m)
        with pytest.raises(ValueError):
            rules.hint("3456789", m)
        with pytest.raises(ValueError):
            rules.beats(m, "3")
        with pytest.raises(ValueError):
            rules.beats("3", m)


def test_foreign_reading_of_legal_cards_rejected(rules: ddz.Rules) -> None:
    # 3334 is a classic trio_single; four-player has no trio_single, and the
    # other way round its plays must be readings under *its* rules.
    [m] = rules.classify("3334")
    four = ddz.Rules("four-player")
    with pytest.raises(ValueError) as e:
        four.moves("555666", m)
    assert "trio_single" in str(e.value)
    assert "four-player" in str(e.value)


def test_two_player_is_classic_play() -> None:
    classic, two = ddz.Rules("classic"), ddz.Rules("two-player")
    hand = "3334445556789TJQKA2XD"
    assert classic.moves(hand) == two.moves(hand)
    assert classic.hint(hand, "33") == two.hint(hand, "33")


@pytest.mark.parametrize(
    ("text", "readings"),
    [
        ("3", [("single", "3", 1)]),
        ("D", [("single", "D", 1)]),
        ("22", [("pair", "2", 1)]),
        ("777", [("trio", "7", 1)]),
        ("3332", [("trio_single", "3", 1)]),
        ("333X", [("trio_single", "3", 1)]),
        ("333 XD", []),  # XD is not a pair
        ("33344", [("trio_pair", "3", 1)]),
        ("34567", [("straight", "7", 5)]),
        ("3456789TJQKA", [("straight", "A", 12)]),
        ("TJQKA2", []),  # 2 never links
        ("JQKA2", []),
        ("334455", [("pair_straight", "5", 3)]),
        ("QQKKAA", [("pair_straight", "A", 3)]),
        ("KKAA22", []),
        ("3344", []),  # pair straights need 3 links
        ("333444", [("trio_straight", "4", 2)]),
        ("AAA222", []),
        ("333444 XD", [("plane_singles", "4", 2)]),  # jokers as single wings
        ("333444 55", [("plane_singles", "4", 2)]),  # wings may repeat a rank
        ("333444 5566", [("plane_pairs", "4", 2)]),
        ("333444 5555", []),  # not two distinct pairs, and a bomb inside
        ("333444 5 66", []),  # singles and pairs never mix
        ("333444555 XD2", [("plane_singles", "5", 3)]),
        (
            "333444555 666",
            [("trio_straight", "6", 4), ("plane_singles", "5", 3), ("plane_singles", "6", 3)],
        ),
        ("3333 XD", [("four_two_singles", "3", 1)]),  # rocket_as_kickers
        ("3333 22", [("four_two_singles", "3", 1)]),
        ("3333 4455", [("four_two_pairs", "3", 1)]),
        ("3333 4444", []),
        ("3333", [("bomb", "3", 4)]),
        ("XD", [("king_bomb", "D", 2)]),
    ],
)
def test_classify_examples(
    rules: ddz.Rules, text: str, readings: list[tuple[str, str, int]]
) -> None:
    got = rules.classify(text)
    assert sorted((m.kind, m.rank, m.length) for m in got) == sorted(readings)
    for m in got:
        assert m.cards == rules.cards(text)


def test_text_with_more_than_255_copies_is_rejected() -> None:
    with pytest.raises(ValueError, match="'3'"):
        ddz.Cards("3" * 300)


def test_text_with_many_copies_is_rejected_by_rules(rules: ddz.Rules) -> None:
    with pytest.raises(ValueError, match="'3'"):
        rules.cards("3" * 300)


def test_move_list_is_a_read_only_sequence() -> None:
    from collections.abc import Sequence

    rules = ddz.Rules("classic")
    plays = rules.moves("334455")
    as_list = list(plays)
    assert isinstance(plays, Sequence)
    assert len(plays) == len(as_list) == rules.count_moves("334455")
    assert plays == as_list and as_list == list(plays)
    assert plays[0] == as_list[0] and plays[-1] == as_list[-1]
    assert plays[1:4] == as_list[1:4] and plays[::-2] == as_list[::-2]
    assert as_list[2] in plays and plays.index(as_list[2]) == 2
    assert plays.count(as_list[2]) == 1
    assert "334455" not in plays  # text is not a Move
    with pytest.raises(IndexError):
        plays[len(plays)]
    counts = plays.counts()
    assert counts.dtype == np.uint8 and counts.shape == (len(plays), 16)
    assert [str(c) for c in plays.cards()] == [str(m) for m in as_list]
    assert [ddz.Cards(row) for row in counts] == [m.cards for m in as_list]
    assert rules.moves("") == [] and not rules.moves("")
