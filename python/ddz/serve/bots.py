"""The bot kinds a table may seat, and where each decision's randomness
comes from.

A kind that may think for long (a search at 10-100 ms a move) decides in
the lobby's worker threads, never on the event loop, and delays only its
own table: that is every kind unless it is declared `inline`, cheap enough
(microseconds a decision) for the loop to run it between two requests
(lobby.py, costs.py). Adding a kind is one entry in `BOT_KINDS`; the
request model, /openapi.json and the checks read the names from there.

Every decision gets its own seed, a pure function of the table's bot key,
the deal number, the step within the deal and the seat: replaying the log
after a restart leads every later decision to the same choice, and a
table whose deals a client chose by seed plays the same bots every time.
Without a client's seed the key is a secret drawn when the table is made,
kept in the store and never shown (docs/server.md, Bots), so the deals'
records, which publish their seeds, tell nothing about the bots' choices.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Callable, Protocol

import ddz
from ddz.agents import GreedyAgent, RandomAgent, RuleAgent, SearchAgent


class Agent(Protocol):
    def act(self, observation: Mapping[str, Any], legal: Sequence[Any]) -> Any: ...


@dataclass(frozen=True)
class BotKind:
    #: An agent for one decision: the table's rules and that decision's seed.
    make: Callable[[ddz.Rules, int], Agent]
    description: str
    #: Microseconds a decision: its tables may be played on the event loop.
    inline: bool = False


BOT_KINDS: dict[str, BotKind] = {
    "greedy": BotKind(lambda r, seed: GreedyAgent(), "GreedyAgent: its smallest play", True),
    "random": BotKind(lambda r, seed: RandomAgent(seed), "RandomAgent: any legal action", True),
    "rule": BotKind(
        lambda r, seed: RuleAgent(seed), "RuleAgent: RLCard's rule agent, ported to Rust", True
    ),
    # One thread a decision: the lobby's workers already run tables side by side.
    "search": BotKind(
        lambda r, seed: SearchAgent(seed=seed, threads=1, rules=r),
        "SearchAgent: Monte-Carlo search, about 10-40 ms a move",
    ),
}


def _level_bot(level: int) -> BotKind:
    return BotKind(
        lambda r, seed: SearchAgent(seed=seed, threads=1, rules=r, level=level),
        f"SearchAgent at level {level} of 8 (search:8 is search; docs/bots.md)",
    )


BOT_KINDS.update({f"search:{n}": _level_bot(n) for n in range(1, 9)})


def new_bot_secret() -> str:
    return secrets.token_hex(32)


def bot_key(spec: Mapping[str, Any]) -> str:
    """What a table's decision seeds are drawn from: if the client chose a
    seed, the table's key (seeds.table_key: from that seed and the server's
    secret, so the table repeats on this server, bots included, but the
    published seed predicts nothing), else the table's own secret."""
    if spec["seed_given"]:
        return f"seeded:{spec['deal_key']}"
    return f"secret:{spec['bot_secret']}"


def decision_seed(key: str, deal: int, step: int, seat: int) -> int:
    """The seed of the decision `seat` makes at `step` (0, 1, ...) of deal `deal`."""
    digest = hashlib.sha256(f"{key}/{deal}/{step}/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def decide(kind: str, rules: ddz.Rules, game: ddz.Game, seed: int) -> Any:
    agent = BOT_KINDS[kind].make(rules, seed)
    return ddz.agents.decide(agent, game)
