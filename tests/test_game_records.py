"""Game records: the format version, older records, and corrupt records
refused with a ValueError that names what is wrong."""

from __future__ import annotations

import json

import pytest

import ddz
from ddz.agents import RandomAgent
from ddz.game.game import FORMAT

#: The first record format: its rule dicts lack every option added later.
FIRST = ddz._ddz.RECORD_FORMATS[0]

#: Options added after the first record format, as the core declares them
#: (its tests pin the first format's options).
LATER_OPTIONS = tuple(o["name"] for o in ddz.Rules.options() if o["since"] != FIRST)


@pytest.mark.parametrize("option", ddz.Rules.options(), ids=lambda o: o["name"])
def test_only_an_option_added_later_may_be_missing(option: dict) -> None:
    assert option["since"] in ddz._ddz.RECORD_FORMATS
    name = option["name"]
    rules = ddz.Rules("laizi").to_dict()
    del rules[name]
    if option["since"] == FIRST:
        with pytest.raises(ValueError, match=f'missing option "{name}"'):
            ddz.Rules.from_dict(rules)
    else:
        assert ddz.Rules.from_dict(rules) == ddz.Rules("laizi")


def record(preset: str = "classic", seed: int = 4) -> dict:
    n = ddz.Rules(preset).players
    game = ddz.play(preset, [RandomAgent(seed + i) for i in range(n)], seed=seed)
    return json.loads(game.to_json())


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_a_first_format_record_still_loads(preset: str) -> None:
    data = record(preset)
    assert data["format"] == FORMAT == ddz._ddz.RECORD_FORMATS[-1]
    old = {**data, "format": FIRST}
    old["rules"] = {k: v for k, v in data["rules"].items() if k not in LATER_OPTIONS}
    again = ddz.Game.from_json(json.dumps(old))
    assert again.result == ddz.Game.from_json(json.dumps(data)).result
    assert again.rules == ddz.Rules(preset)


def test_an_unknown_format_names_the_versions() -> None:
    data = {**record(), "format": "ddz-game/9"}
    versions = ", ".join(ddz._ddz.RECORD_FORMATS)
    with pytest.raises(ValueError, match=rf"'ddz-game/9'.*{versions}"):
        ddz.Game.from_json(json.dumps(data))


def corruptions() -> list[tuple[str, object, str]]:
    good = record()
    first_play = next(i for i, (_, a) in enumerate(good["actions"]) if isinstance(a, dict))
    with_illegal = json.loads(json.dumps(good))
    with_illegal["actions"][first_play][1]["play"] = "XD" if "XD" not in str(good) else "3"
    out_of_turn = json.loads(json.dumps(good))
    out_of_turn["actions"][0][0] = (good["actions"][0][0] + 1) % 3
    bad_word = json.loads(json.dumps(good))
    bad_word["actions"][0][1] = "bid:7"
    missing_kind = json.loads(json.dumps(good))
    del missing_kind["actions"][first_play][1]["kind"]
    extra = json.loads(json.dumps(good))
    extra["actions"].append([0, "pass"])
    bad_deal = json.loads(json.dumps(good))
    bad_deal["deals"][0]["hands"] = ["33"]
    return [
        ("null", None, "JSON object"),
        ("a list", [1, 2], "JSON object"),
        ("a number", 3, "JSON object"),
        ("not JSON", "{", "JSON text"),
        ("no seed", {k: v for k, v in good.items() if k != "seed"}, "no 'seed'"),
        ("no actions", {k: v for k, v in good.items() if k != "actions"}, "no 'actions'"),
        ("a text seed", {**good, "seed": "4"}, "'seed' must be a int"),
        ("a bool seed", {**good, "seed": True}, "'seed' must be a int"),
        ("actions a dict", {**good, "actions": {}}, "'actions' must be a list"),
        ("rules a list", {**good, "rules": []}, "'rules' must be a dict"),
        ("bad rules", {**good, "rules": {"preset": "classic"}}, "rules"),
        ("deals of text", {**good, "deals": ["x"]}, "deal dicts"),
        ("a bad deal", bad_deal, "hands"),
        ("an action not a pair", {**good, "actions": [[0]]}, "action 0"),
        ("an action of a number", {**good, "actions": [[good["actions"][0][0], 5]]}, "action 0"),
        ("an illegal play", with_illegal, f"action {first_play}"),
        ("out of turn", out_of_turn, "out of turn"),
        ("a bad word", bad_word, "action 0"),
        ("a play without its kind", missing_kind, "'kind'"),
        ("an action after the end", extra, "after the end"),
    ]


@pytest.mark.parametrize(("name", "data", "needle"), corruptions(), ids=lambda x: str(x)[:20])
def test_corrupt_records_are_value_errors(name: str, data: object, needle: str) -> None:
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(ValueError, match=needle):
        ddz.Game.from_json(text)


def test_a_record_that_is_not_text_is_a_value_error() -> None:
    for bad in (None, 3, [1]):
        with pytest.raises(ValueError, match="JSON text"):
            ddz.Game.from_json(bad)  # type: ignore[arg-type]
