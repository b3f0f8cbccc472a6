"""ddz.evaluate and `ddz eval`, and ddz.simulate's policy per seat: the
figures against direct counts, the intervals against binomial sums, the
swapped seats, threads, agents against their built-in twins, bad input."""

from __future__ import annotations

import json
import math
import statistics

import numpy as np
import pytest

import ddz
from ddz.agents import GreedyAgent
from ddz.cli import main
from ddz.evaluate import Z95, interval

FIGURES = ("wp", "adp", "score")


# ---- simulate, one policy per seat ---------------------------------------


def test_a_seat_list_or_dict_plays_what_it_names() -> None:
    # Greedy draws nothing: the list, the dict and the name play alike.
    name = ddz.simulate("classic", 300, seed=4, policy="greedy")
    listed = ddz.simulate("classic", 300, seed=4, policy=["greedy"] * 3)
    named = ddz.simulate("classic", 300, seed=4, policy={2: "greedy", 0: "greedy", 1: "greedy"})
    for key in name:
        assert np.array_equal(name[key], listed[key]) and np.array_equal(name[key], named[key])
    mixed = ddz.simulate("five-player", 200, seed=4, policy=["greedy", "random"] * 2 + ["greedy"])
    again = ddz.simulate(
        "five-player", 200, seed=4, policy={s: ["greedy", "random"][s % 2] for s in range(5)}
    )
    assert np.array_equal(mixed["scores"], again["scores"])


def test_seat_lists_give_the_same_results_on_one_and_two_threads() -> None:
    for preset in ("classic", "six-player-teams"):
        n = ddz.Rules(preset).players
        policy = [["random", "greedy"][s % 2] for s in range(n)]
        one = ddz.simulate(preset, 400, seed=8, threads=1, policy=policy)
        two = ddz.simulate(preset, 400, seed=8, threads=2, policy=policy)
        for key in one:
            assert np.array_equal(one[key], two[key]), (preset, key)


def test_the_seat0_opening_seats_the_landlord_at_seat_0() -> None:
    for preset in ("classic", "two-player", "four-player", "laizi"):
        out = ddz.simulate(preset, 300, seed=2, opening="seat0")
        assert (out["landlord"] == 0).all(), preset


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"policy": ["random"] * 2}, "3 seats"),
        ({"policy": {0: "random", 1: "random", 3: "random"}}, "every seat"),
        ({"policy": ["random", "smart", "random"]}, "smart"),
        ({"policy": 3}, "policy must be"),
        ({"opening": "grab"}, "opening"),
    ],
)
def test_bad_seat_policies_are_refused(kwargs: dict, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        ddz.simulate("classic", 5, **kwargs)


def test_the_seat0_opening_is_refused_where_no_one_landlord_is_bid() -> None:
    with pytest.raises(ValueError, match="one-landlord"):
        ddz.simulate("five-player", 5, opening="seat0")


# ---- the intervals -------------------------------------------------------


def test_one_unit_per_deal_is_the_mean_and_its_standard_error() -> None:
    rng = np.random.default_rng(1)
    values = rng.integers(-8, 9, 500).astype(float)
    got = interval(values, np.ones(500))
    half = Z95 * statistics.stdev(values) / math.sqrt(500)
    assert got["value"] == pytest.approx(values.mean())
    assert got["low"] == pytest.approx(values.mean() - half)
    assert got["high"] == pytest.approx(values.mean() + half)


def test_two_units_per_deal_is_the_interval_of_the_deals_means() -> None:
    rng = np.random.default_rng(2)
    pairs = rng.integers(0, 2, (300, 2)).astype(float)
    got = interval(pairs.sum(axis=1), np.full(300, 2))
    want = interval(pairs.mean(axis=1), np.ones(300))
    assert got == pytest.approx(want)


@pytest.mark.parametrize("p", [0.2, 0.5, 0.9])
def test_a_win_rate_interval_covers_the_true_rate_95_times_in_100(p: float) -> None:
    # The exact coverage: the binomial probability of every count whose
    # interval holds p.
    n = 400
    covered = 0.0
    for k in range(n + 1):
        f = interval(np.r_[np.ones(k), np.zeros(n - k)], np.ones(n))
        if f["low"] <= p <= f["high"]:
            covered += math.comb(n, k) * p**k * (1 - p) ** (n - k)
    assert 0.93 <= covered <= 0.96, covered


# ---- the figures ---------------------------------------------------------


def test_douzero_figures_are_the_counts_of_the_two_runs() -> None:
    deals, seed = 400, 5
    got = ddz.evaluate("classic", "greedy", "random", deals, seed=seed)
    first = ddz.simulate(
        "classic", deals, seed, policy=["greedy", "random", "random"], opening="seat0"
    )
    second = ddz.simulate(
        "classic", deals, seed, policy=["random", "greedy", "greedy"], opening="seat0"
    )
    lord_won = first["winner_side"] == 0
    farmers_won = second["winner_side"] == 1
    worth = lambda run: 2 * 2.0 ** run["bombs"]  # noqa: E731
    assert got["roles"]["landlord"]["wp"]["value"] == pytest.approx(lord_won.mean())
    assert got["roles"]["farmer"]["wp"]["value"] == pytest.approx(farmers_won.mean())
    assert got["overall"]["wp"]["value"] == pytest.approx(
        (lord_won.mean() + farmers_won.mean()) / 2
    )
    adp = np.r_[
        np.where(lord_won, 1, -1) * worth(first), np.where(farmers_won, 1, -1) * worth(second)
    ]
    assert got["overall"]["adp"]["value"] == pytest.approx(adp.mean())
    score = np.r_[first["scores"][:, 0], second["scores"][:, 1:].sum(axis=1)]
    assert got["overall"]["score"]["value"] == pytest.approx(score.mean())
    assert got["roles"]["landlord"]["count"] == deals and got["overall"]["count"] == 2 * deals
    assert got["roles"]["farmer"]["count"] == 2 * deals  # two farmer seats a deal


def test_one_sided_roles_count_the_games_where_a_held_one_side() -> None:
    # Classic in the full protocol: A holds seats 1 and 2 in game 2, which
    # are on both sides whenever one of them wins the auction.
    deals, seed = 300, 4
    got = ddz.evaluate("classic", "greedy", "random", deals, seed=seed, protocol="full")
    second = ddz.simulate("classic", deals, seed, policy=["random", "greedy", "greedy"])
    lord = second["landlord"]
    a_both_sides = lord != 0  # A holds the landlord's seat and a farmer's
    one = got["one_sided_roles"]
    # Game 1 (A at seat 0 alone) is always one-sided: one landlord seat a
    # deal where seat 0 took it, a farmer seat otherwise.
    first = ddz.simulate("classic", deals, seed, policy=["greedy", "random", "random"])
    lord_seats = (first["landlord"] == 0).sum()
    assert one["landlord"]["count"] == lord_seats
    farmer_seats = (first["landlord"] != 0).sum() + 2 * (~a_both_sides).sum()
    assert one["farmer"]["count"] == farmer_seats
    assert got["roles"]["farmer"]["count"] == (first["landlord"] != 0).sum() + 2 * deals - (
        a_both_sides.sum()
    )
    # Both games one-sided in two-player: the two are the same.
    two = ddz.evaluate("two-player", "greedy", "random", 200, seed=1, protocol="full")
    assert two["one_sided_roles"] == two["roles"]


def test_swapping_the_players_swaps_the_games() -> None:
    # A's game with the landlord's seat is B's game with the farmers'.
    ab = ddz.evaluate("classic", "greedy", "random", 300, seed=9)
    ba = ddz.evaluate("classic", "random", "greedy", 300, seed=9)
    wp = lambda f, role: f["roles"][role]["wp"]["value"]  # noqa: E731
    assert wp(ab, "landlord") == pytest.approx(1 - wp(ba, "farmer"))
    assert wp(ab, "farmer") == pytest.approx(1 - wp(ba, "landlord"))
    assert ab["overall"]["wp"]["value"] == pytest.approx(1 - ba["overall"]["wp"]["value"])
    assert ab["overall"]["score"]["value"] == pytest.approx(-ba["overall"]["score"]["value"])


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_a_player_against_itself_wins_half(policy: str) -> None:
    # Both games of a deal seat the same policies the same way: one is won.
    for preset, protocol in (("classic", "douzero"), ("six-player-3v3", "full")):
        f = ddz.evaluate(preset, policy, policy, 100, seed=1, protocol=protocol)
        assert f["overall"]["wp"]["value"] == 0.5, (preset, policy)
        assert f["overall"]["score"]["value"] == 0


def test_the_figures_do_not_depend_on_the_threads() -> None:
    for preset, protocol in (("classic", "douzero"), ("five-player", "full")):
        one = ddz.evaluate(preset, "greedy", "random", 300, seed=3, protocol=protocol, threads=1)
        two = ddz.evaluate(preset, "greedy", "random", 300, seed=3, protocol=protocol, threads=2)
        assert one == two, preset


@pytest.mark.parametrize(
    ("preset", "protocol"),
    [
        ("classic", "douzero"),
        ("laizi", "douzero"),
        ("five-player", "full"),
        ("six-player-2v4", "full"),
    ],
)
def test_an_agent_gives_the_figures_of_its_built_in_twin(preset: str, protocol: str) -> None:
    # GreedyAgent through ddz.Game against "greedy" in Rust, deal for deal.
    deals = 25
    agent = ddz.evaluate(preset, GreedyAgent(), "random", deals, seed=6, protocol=protocol)
    builtin = ddz.evaluate(preset, "greedy", "random", deals, seed=6, protocol=protocol)
    # "random" beside an agent is RandomAgent: other draws, so compare
    # greedy against greedy for equality and only the shape here.
    assert agent["a"] == "GreedyAgent" and set(agent["roles"]) <= set(builtin["roles"]) | {"farmer"}
    twin = ddz.evaluate(preset, GreedyAgent(), "greedy", deals, seed=6, protocol=protocol)
    same = ddz.evaluate(preset, "greedy", "greedy", deals, seed=6, protocol=protocol)
    assert {k: v for k, v in twin.items() if k != "a"} == {
        k: v for k, v in same.items() if k != "a"
    }


def test_an_agent_plays_every_decision_of_the_full_protocol_through_game() -> None:
    # The same deals as in Rust: the agent's games are the built-in's.
    class Counting(GreedyAgent):
        phases: set[str] = set()

        def act(self, observation, legal):  # type: ignore[no-untyped-def]
            self.phases.add(observation["phase"])
            return super().act(observation, legal)

    agent = Counting()
    got = ddz.evaluate("classic", agent, "greedy", 10, seed=2, protocol="full")
    want = ddz.evaluate("classic", "greedy", "greedy", 10, seed=2, protocol="full")
    assert got["overall"] == want["overall"] and {"bid", "play"} <= agent.phases


def greedy_batch(obs: dict) -> np.ndarray:
    """The greedy player as a batch policy on `VecEnv`'s arrays: the first play
    (plays come first, smallest first), else the lowest bid or a call, else a
    decline, else pass."""
    names = ddz.VecEnv.kind_names
    ranks = [
        lambda n: n not in names[14:],
        lambda n: n in ("bid", "call"),
        lambda n: n[:3] == "no-",
    ]
    ranks.append(lambda n: n == "pass")
    off = obs["legal_offsets"]
    picks = []
    for i in range(len(off) - 1):
        kinds = [names[k] for k in obs["legal_kind"][off[i] : off[i + 1]]]
        picks.append(next((j for want in ranks for j, n in enumerate(kinds) if want(n)), 0))
    return np.array(picks)


@pytest.mark.parametrize(
    ("preset", "protocol", "b"),
    [
        ("classic", "douzero", "random"),
        ("laizi", "douzero", "greedy"),
        ("five-player", "full", "random"),
        ("six-player-teams", "full", "greedy"),
    ],
)
def test_a_batch_policy_gives_the_figures_of_its_built_in_twin(
    preset: str, protocol: str, b: str
) -> None:
    # Every deal at once through VecEnv's seats: the same per-seat policies and
    # generators as ddz.simulate's, so the same games, deal for deal.
    batch = ddz.evaluate(preset, greedy_batch, b, 40, seed=5, protocol=protocol)
    builtin = ddz.evaluate(preset, "greedy", b, 40, seed=5, protocol=protocol)
    assert batch["a"] == "greedy_batch"
    assert {k: v for k, v in batch.items() if k != "a"} == {
        k: v for k, v in builtin.items() if k != "a"
    }
    both = ddz.evaluate(preset, greedy_batch, greedy_batch, 40, seed=5, protocol=protocol)
    same = ddz.evaluate(preset, "greedy", "greedy", 40, seed=5, protocol=protocol)
    assert both["overall"] == same["overall"]


def test_a_batch_policy_does_not_play_beside_an_agent() -> None:
    with pytest.raises(TypeError, match="batch policy"):
        ddz.evaluate("classic", greedy_batch, GreedyAgent(), 5)


# ---- bad input and the command line --------------------------------------


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "needle"),
    [
        (("nope", "greedy", "random", 10), {}, ValueError, "nope"),
        (("classic", "smart", "random", 10), {}, ValueError, "smart"),
        (("classic", "greedy", "smarter", 10), {}, ValueError, "smarter"),
        (("classic", "greedy", "random", 0), {}, ValueError, "deals"),
        (("classic", "greedy", "random", -3), {}, ValueError, "deals"),
        (("classic", "greedy", "random", 2.5), {}, ValueError, "deals"),
        (("classic", "greedy", "random", 10), {"seed": -1}, ValueError, "seed"),
        (("classic", "greedy", "random", 10), {"protocol": "duo"}, ValueError, "protocol"),
        (("five-player", "greedy", "random", 10), {}, ValueError, "one-landlord"),
        (("classic", object(), "random", 10), {}, TypeError, "act"),
    ],
)
def test_bad_input_is_refused_with_a_clear_error(args, kwargs, error, needle) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=needle):
        ddz.evaluate(*args, **kwargs)


def test_ddz_eval_json_holds_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "classic", "greedy", "random", "-n", "50", "--seed", "3", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got == ddz.evaluate("classic", "greedy", "random", 50, seed=3)
    keys = {"preset", "protocol", "a", "b", "deals", "seed", "overall", "roles", "one_sided_roles"}
    assert set(got) == keys
    assert list(got["roles"]) == ["landlord", "farmer"]
    for f in [got["overall"], *got["roles"].values()]:
        assert set(f) == {"count", *FIGURES}
        for name in FIGURES:
            assert f[name]["low"] <= f[name]["value"] <= f[name]["high"]


def test_ddz_eval_prints_a_table_and_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["eval", "six-player-3v3", "greedy", "random", "-n", "20", "--protocol", "full"]) == 0
    )
    shown = capsys.readouterr().out
    assert "open_landlord" in shown and "overall" in shown
    # Game 2 seats A on both sides, so a second table gives the one-sided
    # games (game 1, A alone at seat 0, is one of them).
    assert "all of A's seats were on one side" in shown
    assert main(["eval", "classic", "greedy", "random", "-n", "20"]) == 0
    assert "one side" not in capsys.readouterr().out  # every DouZero game is one-sided
    for argv, needle in [
        (["eval", "classic", "greedy", "smart"], "smart"),
        (["eval", "classic", "greedy", "random", "-n", "0"], "-n"),
        (["eval", "nope", "greedy", "random"], "nope"),
        (["eval", "five-player", "greedy", "random"], "one-landlord"),
    ]:
        assert main(argv) == 2
        assert needle in capsys.readouterr().err
