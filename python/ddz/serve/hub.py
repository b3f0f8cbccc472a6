"""WebSocket subscribers of each table, and the views pushed to them.

Views are taken right after each step (so a seat sees every bot's play, not
only where the bots stopped) but sent only once the step is committed. Each
connection has its own queue and sender task, so its pushes leave in the
order of the table's versions however slow the other clients are.

The hub lives on the event loop: the worker thread that changes a table
gets the list of its subscribers taken before, and the pushes it builds
are queued back on the loop.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from starlette.websockets import WebSocket

from .tables import ServedTable
from .views import view_message

#: Pushes waiting for one slow client before it is dropped; it reconnects
#: and gets the current view, which holds everything it missed.
QUEUE_LIMIT = 256


@dataclass(eq=False)
class Subscriber:
    ws: WebSocket
    seat: int | None  # None: a spectator
    queue: asyncio.Queue = field(default_factory=asyncio.Queue)


Pushes = list[tuple[Subscriber, str]]


class Hub:
    def __init__(self) -> None:
        self.tables: dict[str, set[Subscriber]] = {}

    def join(self, table_id: str, sub: Subscriber) -> None:
        self.tables.setdefault(table_id, set()).add(sub)

    def leave(self, table_id: str, sub: Subscriber) -> None:
        subs = self.tables.get(table_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self.tables[table_id]

    def subscribers(self, table_id: str) -> list[Subscriber]:
        return list(self.tables.get(table_id, ()))

    def send(self, batch: Pushes) -> None:
        for sub, text in batch:
            if sub.queue.qsize() >= QUEUE_LIMIT:
                _drain(sub.queue)  # too far behind: drop the backlog and hang up
                sub.queue.put_nowait(None)
            else:
                sub.queue.put_nowait(text)

    def close_table(self, table_id: str) -> None:
        """After a table's last push: let every sender finish and hang up."""
        for sub in list(self.tables.get(table_id, ())):
            sub.queue.put_nowait(None)


def views_for(table: ServedTable, subs: list[Subscriber]) -> Pushes:
    """The message each of `subs` gets for the table's state now."""
    return [(sub, view_message(table, sub.seat)) for sub in subs]


def _drain(queue: asyncio.Queue) -> None:
    while not queue.empty():
        queue.get_nowait()


async def pump(sub: Subscriber) -> None:
    """Send `sub` its queued views until told to stop (None)."""
    while True:
        text = await sub.queue.get()
        if text is None:
            await sub.ws.close(1000)
            return
        await sub.ws.send_text(text)
