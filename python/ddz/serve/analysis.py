"""A finished deal's analysis for the replay page
(`POST /replay/{table}/{deal}/analysis`): `ddz.analyse` of the deal's
record, every seat, at a fixed budget and seed, so the same deal always
gets the same analysis.

Its cost is bounded: `PLAYOUTS` a decision on one thread, and a record's
decisions are at most what a deal holds. One analysis runs at a time on a
thread of its own (the lobby's tables never wait for it); a request while
one runs for another deal is refused with 429. Finished deals never
change, so each analysis is written once to the store beside the table's
log (table id and deal number: it outlives a restart), and the newest
`KEPT` are also kept in memory; a request reads memory, then the store,
and only then builds it.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import ddz
from ddz.serve.replies import Refused
from ddz.serve.store import Store

#: Runs blocking work off the event loop (the lobby's worker threads).
Runner = Callable[..., Awaitable[Any]]

#: Playouts a decision (the library's default is 800: a server shares its cores).
PLAYOUTS = 400
#: Analyses kept in memory.
KEPT = 64
#: The seed of every server analysis.
SEED = 0


class Analyses:
    """Analyses built one at a time in a thread of their own, kept once built."""

    def __init__(self, store: Store, run: Runner) -> None:
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="ddz-analysis")
        self.store = store
        self.run = run
        self._kept: OrderedDict[str, str] = OrderedDict()
        self._running: str | None = None

    async def reply(self, table_id: str, deal: int, record: str) -> str:
        """The analysis of deal `deal` of table `table_id`, whose record is `record`."""
        kept = self._kept.get(record)
        if kept is not None:
            self._kept.move_to_end(record)
            return kept
        stored = await self.run(self.store.analysis, table_id, deal)
        if stored is None:
            if self._running is not None:
                raise Refused(429, "another deal's analysis is being built: try again shortly")
            self._running = record
            try:
                loop = asyncio.get_running_loop()
                stored = await loop.run_in_executor(self.pool, _build, record)
                await self.run(self.store.add_analysis, table_id, deal, stored)
            finally:
                self._running = None
        text = stored
        self._kept[record] = text
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return text

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def _build(record: str) -> str:
    game = ddz.Game.from_json(record)
    if game.phase != "over":
        raise Refused(403, "the deal is not over: no analysis yet")
    return ddz.analyse(record, playouts=PLAYOUTS, seed=SEED, threads=1).to_json()
