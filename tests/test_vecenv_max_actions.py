"""`VecEnv(max_actions="auto" | "step")`: the padded width taken from the
preset's proven widest moment, or from each step (docs/rl.md, "Padded
candidates"). The figures themselves are counted in Rust
(`ddz_core::widest`, `examples/max_plays.rs`) and checked there."""

from __future__ import annotations

import numpy as np
import pytest

import ddz

#: The most plays a hand leads (ddz_core::widest) and a hand that does.
RECORDS = {
    "classic": (521, "3456789TJJJQQQKKKAAA"),
    "two-player": (1199, "3456789TTTJJJQQQKKKAAAD"),
}


def random_play(env: ddz.VecEnv, steps: int, seed: int = 0):
    """Steps of random legal indices; yields each observation."""
    rng = np.random.default_rng(seed)
    obs = env.observe()
    for _ in range(steps):
        yield obs
        counts = np.diff(obs["legal_offsets"])
        obs = env.step((rng.random(env.num_envs) * counts).astype(np.int64), by="index")[0]


@pytest.mark.parametrize("preset", sorted(RECORDS))
def test_auto_is_the_most_plays_led_plus_pass_and_holds_every_moment(preset: str) -> None:
    most, _ = RECORDS[preset]
    env = ddz.VecEnv(preset, 32, seed=3, max_actions="auto")
    assert env.max_actions == most + 1
    widest = 0
    for obs in random_play(env, 150):  # an env wider than C would raise here
        assert obs["padded_ids"].shape == (32, most + 1)
        counts = np.diff(obs["legal_offsets"])
        assert (obs["padded_mask"].sum(axis=1) == counts).all()
        widest = max(widest, int(counts.max()))
    assert 1 < widest <= most + 1


def test_the_classic_record_hand_lists_that_many_actions_in_play() -> None:
    most, record = RECORDS["classic"]
    # Seat 0 holds the record hand with the kitty; every other card is dealt out.
    rest = "333444555666777888999TTT" + "JQKA" + "2222" + "XD"
    deal = {"hands": [record[:17], rest[:17], rest[17:]], "kitty": record[17:], "first": 0}
    game = ddz.Game("classic", seed=1, deal=deal)
    game.step("bid:3")
    while game.phase != "play":
        game.step(game.legal_actions()[0])
    assert game.to_act == 0 and len(game.legal_actions()) == most
    assert ddz.Rules("classic").count_moves(record) == most


@pytest.mark.parametrize("preset", ["classic", "laizi", "four-player"])
def test_step_pads_each_step_to_its_widest_env(preset: str) -> None:
    env = ddz.VecEnv(preset, 8, seed=5, max_actions="step", features="douzero")
    assert env.max_actions == "step"
    widths = set()
    for obs in random_play(env, 40):
        counts = np.diff(obs["legal_offsets"])
        c = int(counts.max())
        widths.add(c)
        assert obs["padded_ids"].shape == (8, c)
        assert obs["padded_douzero"].shape[:2] == (8, c)
        assert (obs["padded_mask"].sum(axis=1) == counts).all()
        # Column k of env i is legal index k.
        i = int(counts.argmax())
        start = obs["legal_offsets"][i]
        assert (obs["padded_ids"][i] == obs["legal_ids"][start : start + c]).all()
    assert len(widths) > 1  # the shape follows the step


@pytest.mark.parametrize("preset", ["four-player", "laizi"])
def test_auto_without_a_known_figure_says_what_to_give(preset: str) -> None:
    with pytest.raises(
        ValueError, match="max_actions='auto' needs a rule set whose widest moment is known"
    ):
        ddz.VecEnv(preset, 2, max_actions="auto")


def test_auto_refuses_a_changed_preset_and_bad_widths_are_named() -> None:
    with pytest.raises(ValueError, match="unchanged only"):
        ddz.VecEnv(ddz.Rules("classic", plane_singles=False), 2, max_actions="auto")
    for bad in ("wide", True):
        with pytest.raises(
            ValueError, match="max_actions must be a positive int, 'auto' or 'step'"
        ):
            ddz.VecEnv("classic", 2, max_actions=bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_actions must be a positive int"):
        ddz.VecEnv("classic", 2, max_actions=2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least 1"):
        ddz.VecEnv("classic", 2, max_actions=-3)
