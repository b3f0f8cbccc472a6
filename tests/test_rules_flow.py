"""The flow is rule data (docs/rules.md#flow): `Rules.flow` picks how a deal
is played, and the preset's name picks nothing. A rule set that carries a
preset's options under another name plays exactly like the preset, and no
code of the package or the core compares against preset names."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import ddz
from ddz.agents import RandomAgent
from ddz.testing import check_game

ROOT = Path(__file__).resolve().parents[1]
FLOWS = ("one_landlord", "hidden_partner", "called_friend", "two_marks", "three_copies")


def renamed(preset: str, name: str = "house-rules") -> ddz.Rules:
    """The preset's every option, under another name (through `from_dict`,
    as a user's saved rule set would come back)."""
    return ddz.Rules.from_dict({**ddz.Rules(preset).to_dict(), "preset": name})


def playthrough(rules: ddz.Rules, seed: int) -> tuple[list, dict, list]:
    """Every seat's legal actions and views at each step, the result and
    the deals of one seeded deal played by seeded random agents (the name
    in the views left out)."""
    game = ddz.Game(rules, seed=seed)
    agents = [RandomAgent(seed * 7 + i) for i in range(rules.players)]
    steps = []
    while game.phase != "over":
        seat = game.to_act
        legal = game.legal_actions()
        view = {k: v for k, v in game.observation(seat).items() if k != "preset"}
        steps.append((seat, [str(a) for a in legal], json.dumps(view, sort_keys=True)))
        game.step(agents[seat].act(game.observation(seat), legal))
    return steps, game.result, game.deals


def test_every_preset_names_its_flow() -> None:
    flows = {p: ddz.Rules(p).flow for p in ddz.PRESETS}
    assert set(flows.values()) == set(FLOWS)
    assert flows["classic"] == flows["laizi"] == "one_landlord"
    assert flows["six-player-2v4"] == flows["six-player-teams"] == "two_marks"


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_a_renamed_preset_plays_exactly_like_it(preset: str) -> None:
    house = renamed(preset)
    assert house.preset == "house-rules" and house != ddz.Rules(preset)
    for seed in (1, 2):
        assert playthrough(house, seed) == playthrough(ddz.Rules(preset), seed)
    ours, theirs = ddz.simulate(house, 20, seed=5), ddz.simulate(preset, 20, seed=5)
    assert ours.keys() == theirs.keys()
    for key in ours:
        assert np.array_equal(ours[key], theirs[key]), key
    report = check_game(house, deals=1, seed=3, every=4)
    assert report.steps > 0 and report.illegal_tried > 0


def test_another_preset_s_name_does_not_change_the_flow() -> None:
    """Five-player options under the name "classic" play five-player."""
    disguised = renamed("five-player", name="classic")
    assert disguised.flow == "hidden_partner"
    assert playthrough(disguised, 4) == playthrough(ddz.Rules("five-player"), 4)
    out = ddz.simulate(disguised, 50, seed=2)
    assert (out["hidden_landlord"] >= 0).any()  # the hidden partner's column


def test_simulate_names_role_columns_by_flow_and_options() -> None:
    teams = ddz.simulate(renamed("six-player-teams"), 30, seed=1)
    two_v_four = ddz.simulate(renamed("six-player-2v4"), 30, seed=1)
    assert (teams["second_landlord"] == -1).all() and (teams["counter_landlord"] >= 0).any()
    assert (two_v_four["counter_landlord"] == -1).all()
    assert (two_v_four["second_landlord"] >= 0).any()


def test_flow_is_set_and_checked_like_any_option() -> None:
    with pytest.raises(ddz.RulesError) as e:
        ddz.Rules("classic", flow="two-landlords")
    assert e.value.option == "flow" and e.value.allowed == FLOWS
    assert "two-landlords" in str(e.value)
    data = {**ddz.Rules("classic").to_dict(), "flow": "two-landlords"}
    with pytest.raises(ddz.RulesError) as e:
        ddz.Rules.from_dict(data)
    assert e.value.option == "flow" and e.value.allowed == FLOWS
    # A flow that cannot seat the rule set is refused, naming the option.
    with pytest.raises(ddz.RulesError, match="6 players") as e:
        ddz.Rules("classic", flow="two_marks")
    assert e.value.option == "players"


def test_a_rule_dict_without_flow_takes_its_preset_s() -> None:
    for preset in ddz.PRESETS:
        old = {k: v for k, v in ddz.Rules(preset).to_dict().items() if k != "flow"}
        assert ddz.Rules.from_dict(old) == ddz.Rules(preset)


def test_the_solver_agent_takes_the_game_s_rules() -> None:
    house = renamed("two-player")
    game = ddz.Game(house, seed=3)
    deal = game.deals[0]
    bots = [ddz.agents.SolverAgent(deal, rules=house, max_seconds=0.01) for _ in range(2)]
    game = ddz.play(house, bots, seed=3)
    assert game.phase == "over"
    # Without them it can only look the name up, which no preset has.
    lost = ddz.agents.SolverAgent(deal, max_seconds=0.01)
    play = ddz.Game(house, seed=3)
    while play.phase != "play":  # the first seat calls
        play.step(next(a for a in play.legal_actions() if a != "pass"))
    with pytest.raises(ddz.RulesError, match="house-rules"):
        lost.act(play.observation(play.to_act), play.legal_actions())


# ---- nothing dispatches on a preset's name ----------------------------------

NAMES = "|".join(re.escape(p) for p in ddz.PRESETS)
LITERAL = rf"""["']({NAMES})["']"""
#: A preset name compared, matched or looked up as a key of a family.
DISPATCH = [
    rf"(==|!=)\s*{LITERAL}",
    rf"{LITERAL}\s*(==|!=|=>)",
    rf"{LITERAL}\s*\|\s*{LITERAL}",  # a Rust match arm of several names
    rf"\bin\s*[(\[{{][^)\]}}]*{LITERAL}",  # Python membership in a literal
    rf"\bcase\s+{LITERAL}",
    r"\.preset\s*(==|!=|\bin\b)",
    r"""\[["']preset["']\]\s*(==|!=|\bin\b)""",
    r"\bmatch\s+[\w.&*]*preset\b",
    r"\bpresets\.contains\(",
]


def dispatch_lines(text: str) -> list[int]:
    return [
        i
        for i, line in enumerate(text.splitlines(), 1)
        if any(re.search(p, line) for p in DISPATCH)
    ]


def code_files() -> list[Path]:
    """The package and the Rust crates, without their tests (which name
    presets to build them) and without `rules.rs`, whose `Rules::preset`
    is where each name gets its options."""
    package = [*(ROOT / "python" / "ddz").rglob("*.py"), *(ROOT / "python" / "ddz").rglob("*.js")]
    rust = [
        p
        for p in (ROOT / "rust").rglob("*.rs")
        if not {"tests", "benches", "target"} & set(p.relative_to(ROOT / "rust").parts)
        and p.name not in ("tests.rs", "rules.rs")
    ]
    return package + rust


def without_test_modules(text: str) -> str:
    """A Rust file up to its `#[cfg(test)]` module (kept last, as in
    every file of the crates)."""
    return text.split("#[cfg(test)]")[0]


def test_the_dispatch_patterns_catch_what_they_are_for() -> None:
    caught = [
        'if rules.preset == "five-player":',
        'elif rules.preset in ("six-player-3v3", "six-player-3v3-kitty"):',
        '"six-player-3v3" | "six-player-3v3-kitty" => Extra::LandlordLists,',
        "        .find(|f| f.presets.contains(&preset))",
        'if obs["preset"] == name:',
        "match rules.preset.as_str() {",
    ]
    assert [dispatch_lines(line) for line in caught] == [[1]] * len(caught)
    kept = [
        'rules = ddz.Rules("classic")',
        "for preset in ddz.PRESETS:",
        'f"{rules.preset}: seat {seat} to act"',
        'preset: str = Field(examples=["classic"])',
    ]
    assert [dispatch_lines(line) for line in kept] == [[]] * len(kept)


def test_no_code_compares_against_preset_names() -> None:
    files = code_files()
    assert len(files) > 40 and any(p.name == "simulate.py" for p in files)
    found = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".rs":
            text = without_test_modules(text)
        found += [f"{path.relative_to(ROOT)}:{i}" for i in dispatch_lines(text)]
    assert not found, found
