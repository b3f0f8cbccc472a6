"""The post-game analysis (`ddz.analyse`, `ddz analyse`)."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

import ddz
from ddz.agents import GreedyAgent, RandomAgent, SearchAgent
from ddz.analysis import judgement, move_accuracy, seat_accuracy
from ddz.cli import main


def greedy_game_with(seed: int, at: int, instead: str) -> tuple[ddz.Game, int, str]:
    """Deal `seed` played by greedy players, but at step `at` the seat to act
    plays `instead`: the game, that seat and the record just before."""
    game = ddz.Game("classic", seed=seed)
    seat, before = -1, ""
    step = 0
    while game.phase != "over":
        if step == at:
            seat, before = game.to_act, game.to_json()
            action = next(a for a in game.legal_actions() if str(a) == instead)
        else:
            action = ddz.agents.decide(GreedyAgent(), game)
        game.step(action)
        step += 1
    return game, seat, before


def solver_says_the_side_of(game: ddz.Game, seat: int) -> bool | None:
    p = game.position()
    assert p is not None
    s = game.rules.solve(
        p["hands"], to_move=p["to_move"], prev=p["prev"], prev_by=p["prev_by"], max_nodes=200_000
    )
    if s.win is None:
        return None
    mover = p["seats"][p["to_move"]]
    landlord = p["seats"][0]
    return s.win if (mover == landlord) == (seat == landlord) else not s.win


def test_a_thrown_forced_win_is_flagged_and_a_blunder() -> None:
    # Deal 7, greedy players; at step 51 the landlord holds a forced win
    # (the solver says so, every hand known) and plays T, after which the
    # farmers hold one.
    game, seat, before = greedy_game_with(7, 51, "T")
    replay = ddz.Game.from_json(before)
    assert replay.roles()["landlord"] == seat
    assert solver_says_the_side_of(replay, seat) is True
    replay.step("T")
    assert solver_says_the_side_of(replay, seat) is False

    analysis = ddz.analyse(game, seats=[seat], playouts=300, seed=1)
    thrown = next(d for d in analysis.decisions if d["number"] == 51)
    assert thrown["played"] == "T"
    assert thrown["threw_forced_win"] is True
    assert thrown["judgement"] == "blunder"
    assert thrown["loss"] >= 0.15
    assert {d["seat"] for d in analysis.decisions} == {seat}


def play(seed: int, agents: list) -> ddz.Game:
    game = ddz.Game("classic", seed=seed)
    while game.phase != "over":
        game.step(ddz.agents.decide(agents[game.to_act], game))
    return game


def test_the_search_is_accurate_and_a_random_seat_is_not() -> None:
    strong = SearchAgent(playouts=1500, budget_ms=0, seed=1, threads=2)
    game = play(3, [strong, strong, strong])
    analysis = ddz.analyse(game, playouts=400, seed=2)
    assert set(analysis.accuracy) == {0, 1, 2}
    assert all(a >= 90 for a in analysis.accuracy.values()), analysis.accuracy
    # A random seat among search players scores lower over a few deals.
    search_acc, random_acc = [], []
    for seed in range(3):
        mixed = SearchAgent(playouts=300, budget_ms=0, seed=seed, threads=2)
        game = play(seed, [mixed, RandomAgent(seed), mixed])
        acc = ddz.analyse(game, playouts=200, seed=seed).accuracy
        search_acc += [acc[0], acc[2]]
        random_acc.append(acc[1])
    assert statistics.mean(random_acc) < statistics.mean(search_acc) - 10, (
        random_acc,
        search_acc,
    )


def test_an_analysis_repeats_for_a_seed_on_any_number_of_threads() -> None:
    game = play(5, [GreedyAgent()] * 3)
    one = ddz.analyse(game, seats=[0], playouts=60, seed=4, threads=1)
    two = ddz.analyse(game.to_json(), seats=0, playouts=60, seed=4, threads=2)
    assert one.to_json() == two.to_json()
    decoded = json.loads(one.to_json())
    assert decoded["decisions"] and set(decoded["accuracy"]) == {"0"}
    for d in decoded["decisions"]:
        assert d["seat"] == 0
        assert d["judgement"] in (None, "inaccuracy", "mistake", "blunder")
        assert d["loss"] >= 0 and d["candidates"]
        assert any(c["action"] == d["played"] for c in d["candidates"])


def test_the_auction_is_analysed_too() -> None:
    game = play(1, [GreedyAgent()] * 3)
    analysis = ddz.analyse(game, playouts=40, seed=0)
    first = analysis.decisions[0]
    assert first["number"] == 0 and first["played"].startswith(("bid", "pass"))
    assert first["threw_forced_win"] is None  # no solver in the auction


def test_judgements_and_accuracy_follow_lichess() -> None:
    assert judgement(0.04) is None
    assert judgement(0.05) == "inaccuracy"
    assert judgement(0.10) == "mistake"
    assert judgement(0.2) == "blunder"
    assert judgement(0.07, thresholds=(0.02, 0.06, 0.08)) == "mistake"
    assert move_accuracy(60, 60) == 100
    assert move_accuracy(60, 55) == pytest.approx(80.8, abs=0.1)
    assert move_accuracy(60, 50) == pytest.approx(64.6, abs=0.1)
    assert seat_accuracy([(60, 60)] * 5) == pytest.approx(100)
    assert seat_accuracy([(60, 60)] * 4 + [(60, 20)]) < seat_accuracy([(60, 60)] * 4 + [(60, 50)])


@pytest.mark.parametrize(
    "bad", [{"seats": [7]}, {"thresholds": (0.1, 0.05, 0.2)}, {"playouts": 0}, {"k": 0}]
)
def test_bad_arguments_are_refused(bad: dict) -> None:
    game = play(1, [GreedyAgent()] * 3)
    with pytest.raises((ValueError, TypeError)):
        ddz.analyse(game, **bad)


def test_a_record_that_is_not_one_is_refused() -> None:
    with pytest.raises(ValueError):
        ddz.analyse("{}")
    with pytest.raises(TypeError):
        ddz.analyse(42)


def test_the_command_prints_a_table_and_json(tmp_path: Path, capsys) -> None:
    game = play(2, [GreedyAgent()] * 3)
    path = tmp_path / "deal.json"
    path.write_text(game.to_json())
    assert main(["analyse", str(path), "--seat", "1", "--playouts", "40"]) == 0
    text = capsys.readouterr().out
    assert "accuracy: seat 1" in text and "loss" in text
    assert main(["analyse", str(path), "--playouts", "40", "--json"]) == 0
    decoded = json.loads(capsys.readouterr().out)
    assert set(decoded["accuracy"]) == {"0", "1", "2"}
    assert main(["analyse", str(path), "--seat", "5"]) == 2
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2
