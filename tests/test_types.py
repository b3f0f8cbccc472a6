"""The typed surface: `mypy --strict` passes on a user's script that drives
a game and reads every field (tests/typing/user_script.py), the script runs,
and the `TypedDict`s name the keys the engine really gives."""

from __future__ import annotations

import runpy
import subprocess
import sys
import typing
from pathlib import Path

import pytest

import ddz
from ddz import types

SCRIPT = Path(__file__).resolve().parent / "typing" / "user_script.py"


def test_mypy_strict_passes_on_a_user_script() -> None:
    pytest.importorskip("mypy")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(SCRIPT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_user_script_runs(capsys) -> None:
    runpy.run_path(str(SCRIPT), run_name="__main__")
    assert capsys.readouterr().out.strip().isdigit()


#: The Python type of each declared role type (`Rules.roles()`'s "type").
ROLE_TYPES = {
    "seat": int,
    "seats": list[int],
    "count": int,
    "flag": bool,
    "card": str,
    "cards": str,
    "word": str,
    "seat_card": types.SeatCard,
    "seat_reason": types.SeatReason,
    "claims": list[types.HistoryEntry],
    "sides": types.Sides,
}


def view_of(rules: ddz.Rules) -> type:
    return types.OBSERVATION_VIEWS[(rules.flow, rules.farmers_pick_sides)]


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_each_familys_view_types_the_roles_it_declares(preset: str) -> None:
    rules = ddz.Rules(preset)
    view = view_of(rules)
    hints = typing.get_type_hints(view)
    base = typing.get_type_hints(types.Observation)
    declared = {r["key"]: ROLE_TYPES[r["type"]] for r in rules.roles()}
    roles = set(hints) - set(base)
    assert set(declared) <= roles
    # A key the view has beyond these is one the family declares only for
    # some rule sets: optional in the view.
    assert roles - set(declared) <= view.__optional_keys__
    for key, python_type in declared.items():
        assert hints[key] == typing.Optional[python_type], key
    # The same keys as the observations hold, in the declared order.
    agents = [ddz.agents.RandomAgent(i) for i in range(rules.players)]
    game = ddz.play(preset, agents, 3)
    for seat in range(rules.players):
        obs = game.observation(seat)
        roles = [k for k in obs if k not in base]
        assert roles == list(declared)
    result = set(types.Result.__annotations__) | set(types._ResultBase.__annotations__)
    assert game.result is not None and set(game.result) <= result
    assert set(types._ObservationBase.__annotations__) <= set(game.observation(0))


def test_the_teams_view_marks_bid_as_present_only_with_bidding() -> None:
    # Six-player-teams declares `bid` only where the first landlord is bid for.
    bidding = ddz.Rules("six-player-teams", landlord_bidding=True)
    assert "bid" in [r["key"] for r in bidding.roles()]
    assert "bid" not in [r["key"] for r in ddz.Rules("six-player-teams").roles()]
    assert "bid" in types.SixPlayerTeamsObservation.__optional_keys__


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_simulate_gives_the_same_keys_for_every_preset(preset: str) -> None:
    out = ddz.simulate(preset, 3, seed=1, record=1)
    want = set(types._SimulateBase.__annotations__) | {"records"}
    assert set(out) == want
    players = ddz.Rules(preset).players
    assert out["scores"].shape == (3, players) and out["open_landlords"].shape == (3, 3)


def test_the_literals_spell_the_engines_vocabulary_in_its_order() -> None:
    assert typing.get_args(types.Phase) == ddz._ddz.PHASES
    assert typing.get_args(types.ActionWord) == ddz._ddz.ACTION_WORDS
    assert ddz.VecEnv.phase_names == list(ddz._ddz.PHASES)


def test_phases_and_words_are_the_engines() -> None:
    phases = set(typing.get_args(types.Phase))
    words = set(typing.get_args(types.ActionWord))
    seen_phases, seen_words = set(), set()
    for preset in ddz.PRESETS:
        for seed in range(3):
            game = ddz.Game(preset, seed=seed)
            agents = [ddz.agents.RandomAgent(seed + i) for i in range(game.rules.players)]
            while True:
                seen_phases.add(game.phase)
                if game.phase == "over":
                    break
                legal = game.legal_actions()
                seen_words |= {a for a in legal if isinstance(a, str)}
                game.step(agents[game.to_act].act(game.observation(game.to_act), legal))
    assert seen_phases <= phases and seen_words <= words
    assert len(seen_phases) >= 6 and len(seen_words) >= 8
