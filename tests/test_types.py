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


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_views_and_results_hold_only_typed_keys(preset: str) -> None:
    agents = [ddz.agents.RandomAgent(i) for i in range(ddz.Rules(preset).players)]
    game = ddz.play(preset, agents, 3)
    observation = set(types.Observation.__annotations__) | set(
        types._ObservationBase.__annotations__
    )
    for seat in range(game.rules.players):
        assert set(game.observation(seat)) <= observation
    result = set(types.Result.__annotations__) | set(types._ResultBase.__annotations__)
    assert game.result is not None and set(game.result) <= result
    assert set(types._ObservationBase.__annotations__) <= set(game.observation(0))


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
