"""ddz: a fast, complete rules engine for the Dou Dizhu (斗地主) family.

The rules of play live in a Rust core; this package is its Python face::

    import ddz
    rules = ddz.Rules("classic")
    hand = rules.cards("33445566778899TJQKA2XD")
    rules.moves(hand)              # every legal lead
    rules.moves(hand, "8889")      # every play that beats 8889
"""

from __future__ import annotations

from collections.abc import Sequence

from ddz._ddz import (
    PRESETS,
    ActionList,
    Cards,
    Move,
    MoveList,
    Rules,
    Solution,
    Table,
    VecEnv,
    __version__,  # the one version: Cargo.toml [workspace.package]
    default_threads,
)

# MoveList implements the whole read-only sequence protocol.
Sequence.register(MoveList)
Sequence.register(ActionList)

from ddz import agents  # noqa: E402
from ddz.agents import decide as _decide  # noqa: E402
from ddz.analysis import analyse, hint  # noqa: E402
from ddz.errors import CardError, DdzError, RecordError, RulesError  # noqa: E402
from ddz.evaluate import evaluate  # noqa: E402
from ddz.game import PASS, Game, IllegalAction  # noqa: E402
from ddz.simulate import simulate  # noqa: E402
from ddz.types import Agent  # noqa: E402


def __getattr__(name: str) -> object:
    # `ddz.distributed` needs Ray (an extra): loaded on first use, so that
    # `import ddz` never imports Ray. `ddz.envs` (numpy only itself, its adapters
    # bring Gymnasium and PettingZoo) is loaded on first use too.
    if name in ("distributed", "envs"):
        import importlib

        return importlib.import_module(f"ddz.{name}")
    raise AttributeError(f"module 'ddz' has no attribute {name!r}")


def play(rules: str | Rules, agents: Sequence[Agent], seed: int | None = None) -> Game:
    """Play one deal to the end, one agent per seat; returns the finished Game."""
    game = Game(rules, seed=seed)
    if len(agents) != game.rules.players:
        raise ValueError(f"{game.rules.preset!r} needs {game.rules.players} agents")
    while game.phase != "over":
        game.step(_decide(agents[game.to_act], game))
    return game


__all__ = [
    "PASS",
    "PRESETS",
    "RecordError",
    "RulesError",
    "ActionList",
    "CardError",
    "Cards",
    "DdzError",
    "Game",
    "IllegalAction",
    "Move",
    "MoveList",
    "Rules",
    "Solution",
    "Table",
    "VecEnv",
    "agents",
    "analyse",
    "hint",
    "default_threads",
    "evaluate",
    "play",
    "simulate",
    "__version__",
]
