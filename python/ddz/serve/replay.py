"""A finished deal's replay: the open table after every action, from its record.

Every state comes from the engine: the record is checked whole by
`ddz.Game.from_json`, then played again action by action from the same
record with no actions, so the page shows positions and never works one
out (no flow rule is written twice). A frame holds every hand face up, as
a replay is only ever made of a deal that is over.

A record may come from anyone (POST /replays), so what it may cost is
bounded before any legal action is listed (docs/server.md, Limits):
checking it (`Game.from_json`) costs what its moves cost; a deal that is
not over is refused then; its rule set must pass the limits a new table
does (costs.check_cost); and its frames, which list the seat to act's
legal actions once a frame, stop at `MAX_REPLAY_LEGAL` listed in all.
`Replays` builds them in threads of their own, at a rate per client, and
keeps the newest in a cache bounded in bytes.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

import ddz
from ddz.serve.clients import RateLimit, Slots
from ddz.serve.costs import check_cost
from ddz.serve.replies import Refused
from ddz.serve.views import public_observation

#: The format of the reply, for clients that keep frames.
FORMAT = "ddz-replay/1"
#: Legal actions one replay's frames may list in all (about 0.35 s of work at
#: most; a classic deal lists a few hundred, a laizi deal about a thousand).
MAX_REPLAY_LEGAL = 100_000
#: Threads that build replays: their own, so a burst of replays never
#: delays a table's work in the lobby's pool.
REPLAY_THREADS = 2
#: What one client's replays may cost: seconds of a thread's CPU, at most
#: `REPLAY_SHARE` of a second each second once a burst of
#: `REPLAY_BURST_SECONDS` is spent (a classic deal's replay costs about
#: 5 ms, a laizi deal's 10 ms, the costliest a record may ask about 0.4 s);
#: and replays of one client built at once.
REPLAY_SHARE = 0.25
REPLAY_BURST_SECONDS = 2.0
REPLAYS_AT_ONCE = 2
#: Bytes of encoded replays kept (finished deals never change); a replay
#: larger than a quarter of it is not kept.
CACHE_BYTES = 16 * 2**20
#: Input errors the engine may raise on a bad record.
BAD_RECORD = (ValueError, TypeError, KeyError, IndexError, OverflowError)


def _frame(game: ddz.Game, done: list | None) -> tuple[dict, int]:
    """The open table now: every hand, the kitty, and what all seats know
    alike; and how many legal actions the observations listed for it."""
    players = game.rules.players
    views = [game.observation(s) for s in range(players)]
    listed = sum(len(v.get("legal_actions", ())) for v in views)
    public = public_observation(views)
    del public["history"]  # the frames' actions are the whole history, in order
    return {
        "action": done,
        "deal": len(game.deals) - 1,  # more than 0 after a redeal
        "phase": game.phase,
        "to_act": None if game.phase == "over" else game.to_act,
        "hands": ["".join(h) for h in game.hands],
        "kitty": "".join(game.kitty),
        "kitty_given": game.kitty_given,
        "stake": game.stake,
        "observation": public,
    }, listed


def frames(record: str) -> dict:
    """The replay of `record` (`Game.to_json()` text): one frame before the
    first action and one after each. A record that is not one, or whose
    deal is not over, raises `ValueError` naming what is wrong; a rule set
    over the server's limits raises Refused (422)."""
    # Read and checked by the engine, at the cost of its moves: no frame yet
    # (RecordError, a ValueError, names a fault).
    whole = ddz.Game.from_json(record)
    if whole.phase != "over":
        raise ValueError("this record's deal is not over: only finished deals replay")
    rules = whole.rules
    check_cost(rules)  # every view of it bounded as a new table's are
    steps: list[dict] = []
    listed = 0

    def frame(game: ddz.Game, done: tuple[int, str] | None) -> None:
        nonlocal listed
        step, cost = _frame(game, None if done is None else list(done))
        steps.append(step)
        listed += cost
        if listed > MAX_REPLAY_LEGAL:
            raise _TooCostly

    try:
        ddz.Game.replay(record, frame)  # `frame` before the first action and after each
    except _TooCostly:
        raise ValueError(
            f"this record's replay would list more than {MAX_REPLAY_LEGAL} legal actions "
            "(the server's limit for one replay)"
        ) from None
    return {
        "format": FORMAT,
        "preset": rules.preset,
        "players": rules.players,
        "seed": whole.seed,
        "seeded": bool(_marked_seeded(record)),
        "roles": rules.roles(),
        "result": whole.result,
        "frames": steps,
    }


class _TooCostly(Exception):
    pass


def _marked_seeded(record: str) -> bool:
    """The server's mark on a record of a table whose seed its creator chose."""
    try:
        return json.loads(record).get("seeded") is True
    except (ValueError, AttributeError, RecursionError):
        return False


def replay_json(record: str) -> str:
    """The replay of a record as JSON text (ValueError for a bad record)."""
    return json.dumps(frames(record), separators=(",", ":"))


class Replays:
    """Replays built in their own threads, with limits per client and a cache."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(REPLAY_THREADS, thread_name_prefix="ddz-replay")
        self.rate = RateLimit(REPLAY_SHARE, REPLAY_BURST_SECONDS)
        self.busy = Slots(REPLAYS_AT_ONCE)
        self._kept: OrderedDict[str, str] = OrderedDict()
        self._kept_bytes = 0

    async def reply(self, record: str, client: str | None = None) -> str:
        """The replay's JSON text; `client` (a clients.client_key) is held to
        the per-client limits, None (a record the server holds) is not.
        Refused: 422 for a bad record, 429 over a client's limits."""
        kept = self._kept.get(record)
        if kept is not None:
            self._kept.move_to_end(record)
            return kept
        if client is not None:
            wait = self.rate.wait(client)
            if wait:
                raise Refused(
                    429,
                    f"{client} used its share of the server's time for replays: "
                    f"try again in {wait:.1f} s",
                )
            if not self.busy.take(client):
                raise Refused(429, f"{client} has {REPLAYS_AT_ONCE} replays being built already")
        cost = [0.0]
        try:
            loop = asyncio.get_running_loop()
            text = await loop.run_in_executor(self.pool, _build, record, cost)
        finally:
            if client is not None:
                self.busy.give_back(client)
                self.rate.charge(client, cost[0])
        self._keep(record, text)
        return text

    def _keep(self, record: str, text: str) -> None:
        size = len(record) + len(text)
        if size > CACHE_BYTES // 4:
            return
        self._kept[record] = text
        self._kept_bytes += size
        while self._kept_bytes > CACHE_BYTES:
            old, old_text = self._kept.popitem(last=False)
            self._kept_bytes -= len(old) + len(old_text)

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def _build(record: str, cost: list[float]) -> str:
    """The replay's text; `cost[0]` is set to the thread's CPU seconds for it,
    refused or not."""
    start = time.thread_time()
    try:
        return replay_json(record)
    except BAD_RECORD as e:
        raise Refused(422, f"not a replayable record: {e}") from None
    finally:
        cost[0] = time.thread_time() - start
