"""`ddz.testing.check_game` on every preset and on custom rule sets, and
proof that it fails when an invariant breaks (a checker that cannot fail
checks nothing)."""

from __future__ import annotations

import pytest

import ddz
import ddz.testing
from ddz.testing import ConformanceError, check_game

#: Custom rule sets: options that change the auction, the stake, the ladder.
CUSTOM = [
    ("classic", {"bidding": "call"}),
    ("classic", {"ladder": "laizi", "spring": False}),
    ("two-player", {"anti_spring": True}),
    ("four-player", {"joker_pairs": False}),
    ("five-player-3deck", {"score_scheme": "power"}),
    ("six-player-3v3", {"double_step": "x2"}),
]


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_every_preset_conforms(preset: str) -> None:
    report = check_game(preset, deals=2, seed=11, every=3)
    assert report.deals == 2 and report.steps > 0
    assert report.move_counts_checked > 0 and report.illegal_tried > 0


@pytest.mark.parametrize(("preset", "options"), CUSTOM, ids=[f"{p}-{o}" for p, o in CUSTOM])
def test_custom_rule_sets_conform(preset: str, options: dict) -> None:
    report = check_game(ddz.Rules(preset, **options), deals=2, seed=3, every=4)
    assert report.steps > 0


def flipped_options() -> list[tuple[str, str]]:
    """Each boolean option, flipped on the first preset whose flow reads it
    and that can play it flipped, from the declaration (so a new option
    is played here without a hand-written case)."""
    cases = []
    for o in ddz.Rules.options():
        if o["type"] != "bool":
            continue
        for preset in ddz.PRESETS:
            if ddz.Rules(preset).flow not in o["flows"]:
                continue
            try:
                ddz.Rules(preset, **{o["name"]: not o["defaults"][preset]})
            except ddz.RulesError:
                continue
            cases.append((preset, o["name"]))
            break
    return cases


FLIPPED = flipped_options()


def test_every_boolean_option_can_be_flipped_somewhere() -> None:
    flipped = {name for _, name in FLIPPED}
    assert flipped == {o["name"] for o in ddz.Rules.options() if o["type"] == "bool"}


@pytest.mark.parametrize(("preset", "option"), FLIPPED, ids=[f"{p}-{o}" for p, o in FLIPPED])
def test_each_boolean_option_flipped_conforms(preset: str, option: str) -> None:
    value = not getattr(ddz.Rules(preset), option)
    report = check_game(ddz.Rules(preset, **{option: value}), deals=2, seed=3, every=4)
    assert report.steps > 0


def test_the_checker_catches_scores_that_do_not_sum_to_zero(monkeypatch) -> None:
    real = ddz.Game.result

    def skewed(game):
        result = real.__get__(game)
        if result is not None:
            result = dict(result, scores=[s + 1 for s in result["scores"]])
        return result

    monkeypatch.setattr(ddz.Game, "result", property(skewed))
    with pytest.raises(ConformanceError, match="zero-sum"):
        check_game("classic", deals=1)


def test_the_checker_catches_repeated_legal_actions(monkeypatch) -> None:
    real = ddz.Game.legal_actions
    monkeypatch.setattr(ddz.Game, "legal_actions", lambda g: list(real(g)) * 2)
    with pytest.raises(ConformanceError, match="repeat"):
        check_game("classic", deals=1)


def test_the_checker_catches_a_view_that_shows_hidden_cards(monkeypatch) -> None:
    real = ddz.Game.observation

    def leaky(game, seat):
        obs = real(game, seat)
        obs["leak"] = [sorted(h) for h in game.hands] + [sorted(game.kitty)]
        return obs

    monkeypatch.setattr(ddz.Game, "observation", leaky)
    with pytest.raises(ConformanceError, match="may not see"):
        check_game("classic", deals=3)


def test_the_checker_catches_an_accepted_illegal_action(monkeypatch) -> None:
    real = ddz.Game.step

    def lax(game, action, cards=None):
        try:
            real(game, action, cards)
        except ddz.IllegalAction:
            pass  # swallowed: the checker must notice the action was "taken"

    monkeypatch.setattr(ddz.Game, "step", lax)
    with pytest.raises(ConformanceError, match="was taken"):
        check_game("classic", deals=1)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="deals"):
        check_game("classic", deals=-1)
    with pytest.raises(ValueError, match="every"):
        check_game("classic", every=0)
