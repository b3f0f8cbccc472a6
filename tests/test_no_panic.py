"""Fuzzing every entry point: each call returns or raises ValueError / TypeError.

The promise of docs/limits.md: nothing panics, aborts or prints a Rust
backtrace, from any entry point, on any input.  A Rust panic surfaces as
`pyo3_runtime.PanicException`, which derives from BaseException, so every
call is wrapped and the exception type checked by name.
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ddz

ALLOWED = (ValueError, TypeError)
RULES = {p: ddz.Rules(p) for p in ddz.PRESETS}
BASE_DICTS = {p: r.to_dict() for p, r in RULES.items()}

# DDZ_FUZZ_EXAMPLES=5000 for a longer hunt.
FUZZ = settings(
    max_examples=int(os.environ.get("DDZ_FUZZ_EXAMPLES", "200")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def safely(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call fn; a ValueError/TypeError is fine (returns None), anything else fails."""
    try:
        return fn(*args, **kwargs)
    except BaseException as e:  # noqa: BLE001 - PanicException is a BaseException
        name = type(e).__name__
        if name == "PanicException":
            pytest.fail(f"Rust panic from {getattr(fn, '__name__', fn)}{args!r} {kwargs!r}: {e}")
        if isinstance(e, ALLOWED):
            return None
        raise AssertionError(
            f"{getattr(fn, '__name__', fn)}{args!r} raised {name}: {e} "
            "(expected a normal return, ValueError or TypeError)"
        ) from e


# --- strategies of arbitrary input -----------------------------------------

CARD_ALPHABET = "3456789TJQKA2XDLtjqkaxshcd10 ,+"

card_text = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=CARD_ALPHABET, max_size=40),
    st.text(alphabet="3456789TJQKA2XD", max_size=300),
)

huge = st.one_of(
    st.integers(-(2**70), 2**70),
    st.integers(-2, 300),
    st.sampled_from([2**63 - 1, 2**63, 2**64, -(2**63), -(2**63) - 1, 255, 256]),
)

count_lists = st.one_of(
    st.lists(st.integers(0, 16), min_size=15, max_size=16),
    st.lists(huge, min_size=15, max_size=16),
    st.lists(huge, max_size=20),
    st.tuples(*[st.integers(-1, 300)] * 16),
)

int_dtypes: st.SearchStrategy[Any] = st.sampled_from(
    [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
)
other_dtypes: st.SearchStrategy[Any] = st.sampled_from(
    [np.float32, np.float64, np.bool_, np.complex64]
)

odd_shapes: st.SearchStrategy[Any] = st.sampled_from([15, 16, (2, 8), (16, 1)])
arrays: st.SearchStrategy[Any] = st.one_of(
    hnp.arrays(int_dtypes, st.sampled_from([15, 16])),
    hnp.arrays(int_dtypes, hnp.array_shapes(min_dims=0, max_dims=3, max_side=17)),
    hnp.arrays(other_dtypes, odd_shapes),
    hnp.arrays(np.uint8, st.just(16), elements=st.integers(0, 4)),
)

scalars = st.one_of(
    st.none(),
    st.integers(),
    st.floats(),
    st.booleans(),
    st.binary(max_size=20),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
    st.just(object()),
)

cards_objects = st.builds(ddz.Cards, st.text(alphabet="3456789TJQKA2XDL", max_size=60))


@st.composite
def moves_of_any_preset(draw: st.DrawFn) -> ddz.Move:
    rules = RULES[draw(st.sampled_from(ddz.PRESETS))]
    hand = draw(
        st.lists(st.integers(0, min(4 * rules.decks, 6)), min_size=13, max_size=13).map(
            lambda xs: xs + [rules.decks, rules.decks, 0]
        )
    )
    moves = rules.moves(hand)
    return draw(st.sampled_from(moves))


anything = st.one_of(card_text, count_lists, arrays, scalars, cards_objects, moves_of_any_preset())
presets = st.sampled_from(ddz.PRESETS)


# --- cards ----------------------------------------------------------------


@FUZZ
@given(x=anything, other=anything)
def test_cards_constructor_and_methods(x: Any, other: Any) -> None:
    c = safely(ddz.Cards, x)
    if c is None:
        return
    assert isinstance(c, ddz.Cards)
    counts = c.counts
    assert counts.dtype == np.uint8 and counts.shape == (16,)
    assert len(c) == int(counts.sum(dtype=np.int64))
    str(c), repr(c), hash(c)
    safely(c.contains, other)
    safely(lambda: c == other)
    safely(lambda: c < other)


@FUZZ
@given(preset=presets, x=anything)
def test_rules_cards_and_classify(preset: str, x: Any) -> None:
    rules = RULES[preset]
    c = safely(rules.cards, x)
    if c is not None:
        assert isinstance(c, ddz.Cards)
    readings = safely(rules.classify, x)
    if readings is not None:
        assert all(isinstance(m, ddz.Move) for m in readings)


@FUZZ
@given(preset=presets, hand=anything, prev=st.one_of(st.none(), anything))
def test_moves_count_hint(preset: str, hand: Any, prev: Any) -> None:
    rules = RULES[preset]
    moves = safely(rules.moves, hand, prev)
    count = safely(rules.count_moves, hand, prev)
    hint = safely(rules.hint, hand, prev=prev)
    if moves is not None:
        assert count == len(moves)
        assert hint is not None and len(hint) == len(moves)
    else:
        assert count is None and hint is None


@FUZZ
@given(preset=presets, a=anything, b=anything)
def test_beats(preset: str, a: Any, b: Any) -> None:
    result = safely(RULES[preset].beats, a, b)
    assert result in (None, True, False)


@FUZZ
@given(preset=presets, hand=st.text(alphabet="3456789TJQKA2XD", max_size=60), data=st.data())
def test_valid_hands_in_every_preset(preset: str, hand: str, data: st.DataObject) -> None:
    """Hands that fit the deck go deep into the generator of every preset."""
    rules = RULES[preset]
    moves = safely(rules.moves, hand)
    if not moves:
        return
    prev = data.draw(st.sampled_from(moves))
    safely(rules.moves, hand, prev)
    safely(rules.hint, hand, prev)
    safely(rules.count_moves, hand, str(prev))
    safely(rules.beats, prev, moves[0])
    for m in moves[:50]:
        str(m), repr(m), hash(m), len(m), m.kind, m.rank, m.length, m.is_bomb, m.represents
        safely(rules.classify, m.cards)


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_whole_deck_in_every_preset(preset: str) -> None:
    rules = RULES[preset]
    d = rules.decks
    deck = [4 * d] * 13 + [d, d, rules.laizi]
    no_laizi = deck[:15] + [0]
    for hand in (deck, no_laizi):
        moves = safely(rules.moves, hand)
        safely(rules.count_moves, hand)
        safely(rules.hint, hand)
        moves = moves or []
        for prev in moves[:: max(1, len(moves) // 20)]:
            safely(rules.moves, hand, prev)


# --- rule sets ------------------------------------------------------------

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-300, 300),
        st.integers(),
        st.floats(allow_nan=False),
        st.text(max_size=20),
        st.sampled_from(["classic", "low_a2", "count_then_rank", "laizi", "x2", "plus1"]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def small_king_bomb(max_jokers: int = 255) -> st.SearchStrategy[dict[str, int]]:
    return st.fixed_dictionaries(
        {
            "small": st.integers(0, max_jokers),
            "big": st.integers(0, max_jokers),
            "above": st.integers(0, 255),
            "order": st.integers(0, 255),
        }
    )


@st.composite
def mutated_rules_dict(draw: st.DrawFn, *, king_bomb_jokers: int) -> dict[str, Any]:
    d = json.loads(json.dumps(BASE_DICTS[draw(presets)]))
    for key in draw(st.lists(st.sampled_from(sorted(d)), max_size=4)):
        if key == "king_bombs":
            d[key] = draw(
                st.one_of(
                    st.lists(small_king_bomb(king_bomb_jokers), max_size=4),
                    json_values,
                )
            )
        elif isinstance(d[key], bool):
            d[key] = draw(st.one_of(st.booleans(), json_values))
        elif isinstance(d[key], int):
            d[key] = draw(st.one_of(st.integers(0, 255), json_values))
        else:
            d[key] = draw(json_values)
    if draw(st.booleans()):
        d[draw(st.text(max_size=8))] = draw(json_values)
    return d


ENUMS = {
    "sequences": ["classic", "low_a2"],
    "ladder": ["count_then_rank", "laizi"],
    "double_step": ["x2", "plus1"],
    "score_scheme": ["multiply", "power"],
}


@st.composite
def valid_looking_rules_dict(draw: st.DrawFn) -> dict[str, Any]:
    """Every value of the right type and mostly in range: deep into the engine."""
    d = json.loads(json.dumps(BASE_DICTS[draw(presets)]))
    decks = d["decks"]
    for key in draw(st.lists(st.sampled_from(sorted(d)), max_size=8, unique=True)):
        if key in ("preset", "players", "decks", "laizi", "hand_size", "kitty", "set_aside"):
            continue  # the deal arithmetic must hold
        if key in ENUMS:
            d[key] = draw(st.sampled_from(ENUMS[key]))
        elif key == "king_bombs":
            d[key] = draw(
                st.lists(
                    st.fixed_dictionaries(
                        {
                            "small": st.integers(0, decks),
                            "big": st.integers(0, decks),
                            "above": st.integers(1, 4 * decks + 1),
                            "order": st.integers(0, 63),
                        }
                    ),
                    max_size=6,
                )
            )
        elif isinstance(d[key], bool):
            d[key] = draw(st.booleans())
    return d


def exercise(rules: ddz.Rules) -> None:
    rules.to_dict(), rules.to_json(), repr(rules)
    d = rules.decks
    safely(rules.count_moves, [4 * d] * 13 + [d, d, 0])
    for hand in ([d] * 13 + [d, d, 0], [3] * 5 + [0] * 8 + [1, 1, 0], "3334445566XD"):
        moves = safely(rules.moves, hand)
        safely(rules.count_moves, hand)
        safely(rules.hint, hand)
        moves = moves or []
        for m in moves[:: max(1, len(moves) // 8)]:
            safely(rules.count_moves, hand, m)
            safely(rules.beats, m, moves[0])


@FUZZ
@given(d=mutated_rules_dict(king_bomb_jokers=8))
def test_from_dict_fuzz(d: dict[str, Any]) -> None:
    rules = safely(ddz.Rules.from_dict, d)
    if rules is not None:
        exercise(rules)
    safely(ddz.Rules.from_json, json.dumps(d))


@FUZZ
@given(d=valid_looking_rules_dict())
def test_valid_looking_rules_fuzz(d: dict[str, Any]) -> None:
    rules = safely(ddz.Rules.from_dict, d)
    if rules is not None:
        exercise(rules)
        assert ddz.Rules.from_dict(rules.to_dict()) == rules


@FUZZ
@given(
    preset=presets,
    options=st.dictionaries(
        st.sampled_from(sorted(BASE_DICTS["classic"])), json_values, max_size=3
    ),
)
def test_options_fuzz(preset: str, options: dict[str, Any]) -> None:
    options.pop("preset", None)  # a keyword clash, not an option
    rules = safely(ddz.Rules, preset, **options)
    if rules is not None:
        exercise(rules)


@FUZZ
@given(x=st.one_of(anything, json_values, st.text(max_size=30)))
def test_rules_constructors_with_junk(x: Any) -> None:
    safely(ddz.Rules, x)
    safely(ddz.Rules.from_dict, x)
    safely(ddz.Rules.from_json, x)


@pytest.mark.parametrize("small, big", [(255, 255), (200, 100), (128, 128)])
def test_king_bomb_joker_overflow_is_a_value_error(small: int, big: int) -> None:
    kb = [{"small": small, "big": big, "above": 4, "order": 0}]
    try:
        ddz.Rules("classic", king_bombs=kb)
    except BaseException as e:  # noqa: BLE001
        assert type(e).__name__ != "PanicException", f"panic: {e}"
        assert isinstance(e, ValueError)
        return
    pytest.fail("expected ValueError")


@FUZZ
@given(d=mutated_rules_dict(king_bomb_jokers=255))
def test_from_dict_fuzz_large_king_bombs(d: dict[str, Any]) -> None:
    """As test_from_dict_fuzz, minus the known overflow (small + big > 255)."""
    kbs = d.get("king_bombs")
    if isinstance(kbs, list) and any(
        isinstance(k, dict)
        and isinstance(k.get("small"), int)
        and isinstance(k.get("big"), int)
        and k["small"] + k["big"] > 255
        for k in kbs
    ):
        return
    rules = safely(ddz.Rules.from_dict, d)
    if rules is not None:
        exercise(rules)
