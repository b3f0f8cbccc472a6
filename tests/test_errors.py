"""One exception family: every error of the engine is a `ddz.DdzError`
(a `ValueError`), of the class that says what went wrong, with attributes
(docs/errors.md)."""

from __future__ import annotations

import pickle

import pytest

import ddz
import ddz._ddz
import ddz.game
from ddz import CardError, DdzError, IllegalAction, RecordError, RulesError


def test_the_family() -> None:
    for cls in (CardError, RulesError, IllegalAction, RecordError):
        assert issubclass(cls, DdzError) and issubclass(cls, ValueError)
    assert ddz.IllegalAction is ddz._ddz.IllegalAction is ddz.game.IllegalAction


def test_card_errors_name_the_text() -> None:
    rules = ddz.Rules("classic")
    with pytest.raises(CardError) as e:
        rules.cards("33Z")
    assert e.value.text == "33Z" and "Z" in str(e.value)
    with pytest.raises(CardError):
        rules.cards("XX")  # a second small joker in one deck
    with pytest.raises(CardError):
        rules.cards("3L")  # laizi outside the laizi preset
    with pytest.raises(CardError):
        rules.moves("3456", "3344")  # no reading
    with pytest.raises(CardError):
        ddz.Cards([1] * 7)  # a count vector of the wrong size
    with pytest.raises(CardError):
        ddz.Game("classic", deal={"hands": ["3", "4", "5"], "kitty": "", "first": 0})


def test_rules_errors_name_the_option_and_the_choices() -> None:
    with pytest.raises(RulesError) as e:
        ddz.Rules("nine-player")
    assert e.value.option == "preset" and e.value.text == "nine-player"
    assert e.value.allowed == tuple(ddz.PRESETS)
    with pytest.raises(RulesError) as e:
        ddz.Rules("classic", sprung=True)
    assert e.value.option == "sprung" and "spring" in (e.value.allowed or ())
    with pytest.raises(RulesError) as e:
        ddz.Rules("classic", spring="yes")
    assert e.value.option == "spring" and e.value.text == "'yes'"
    with pytest.raises(RulesError) as e:
        ddz.Rules("classic", kicks=True)  # needs bidding="once"
    assert e.value.option == "kicks"
    with pytest.raises(RulesError):
        ddz.Rules.from_json("{")


def test_illegal_actions_carry_seat_phase_and_the_legal_actions() -> None:
    game = ddz.Game("classic", seed=3)
    before = game.to_json()
    with pytest.raises(IllegalAction) as e:
        game.step("double")
    err = e.value
    assert err.text == "double" and err.seat == game.to_act and err.phase == "bid"
    assert err.allowed == tuple(str(a) for a in game.legal_actions())
    assert game.to_json() == before
    with pytest.raises(IllegalAction) as e:
        game.step(7)  # type: ignore[arg-type]
    assert e.value.text == "7"


def test_record_errors() -> None:
    with pytest.raises(RecordError):
        ddz.Game.from_json("not json")
    with pytest.raises(RecordError, match="format"):
        ddz.Game.from_json('{"format": "other"}')
    game = ddz.Game("classic", seed=1)
    game.step(game.legal_actions()[0])
    record = game.to_json().replace('[[1, "', '[[2, "').replace('[[0, "', '[[2, "')
    if record != game.to_json():
        with pytest.raises(RecordError) as e:
            ddz.Game.from_json(record)
        assert e.value.seat == 2


def test_except_value_error_still_catches_everything() -> None:
    for bad in (lambda: ddz.Rules("nope"), lambda: ddz.Rules().cards("Z")):
        with pytest.raises(ValueError):
            bad()


def test_errors_pickle_with_their_attributes() -> None:
    err = IllegalAction("no", text="bid:9", seat=1, phase="bid", allowed=["pass"])
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is IllegalAction and str(back) == "no"
    assert (back.text, back.seat, back.phase, back.allowed) == ("bid:9", 1, "bid", ("pass",))
    assert "seat=1" in repr(back)


def test_batch_errors_keep_their_class() -> None:
    rules = ddz.Rules("classic")
    with pytest.raises(CardError, match=r"prevs\[0\]"):
        rules.count_moves_batch(rules.cards("3").counts.reshape(1, 16), ["Z"])
