"""WebSocket subscribers of each table, and the views pushed to them.

Views are taken right after each step (so a seat sees every bot's play, not
only where the bots stopped) but sent only once the step is committed. Each
connection has its own queue and sender task, so its pushes leave in the
order of the table's versions however slow the other clients are.

The hub lives on the event loop: the worker thread that changes a table
gets the list of its subscribers taken before, and the pushes it builds
are queued back on the loop.

A client that does not read is dropped, not waited for (docs/server.md,
WebSocket): one whose backlog passes `QUEUE_LIMIT` pushes or
`QUEUE_BYTES`, or whose socket takes no push for `send_timeout` seconds,
gets a close frame (1008) if its socket takes one within `CLOSE_GRACE`
seconds, and its connection is then cut (the transport aborted: a socket
nobody reads would never finish a graceful close), which frees its queue
and its buffers.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from starlette.websockets import WebSocket

from .tables import ServedTable
from .views import view_message

#: Pushes, and bytes of them, waiting for one slow client before it is
#: dropped; it reconnects and gets the current view, which holds everything
#: it missed.
QUEUE_LIMIT = 256
QUEUE_BYTES = 2**20
#: Seconds a dropped client's socket has to take its close frame before
#: the connection is cut.
CLOSE_GRACE = 1.0
#: The close code of a dropped client (a policy violation).
DROPPED = 1008
#: The key under which KeepTransport leaves a WebSocket's transport in its scope.
TRANSPORT = "ddz.transport"


@dataclass(eq=False)
class Subscriber:
    ws: WebSocket
    seat: int | None  # None: a spectator
    queue: asyncio.Queue = field(default_factory=asyncio.Queue)
    table: str = ""
    #: Bytes of pushes queued and not yet sent.
    backlog: int = 0
    #: The task that sends its pushes (pump), once started.
    sender: asyncio.Future | None = None
    dropped: bool = False


Pushes = list[tuple[Subscriber, str]]


class Hub:
    def __init__(self, send_timeout: float = 10.0) -> None:
        self.tables: dict[str, set[Subscriber]] = {}
        #: Seconds one push may wait for a client that reads nothing.
        self.send_timeout = send_timeout
        self._hanging_up: set[asyncio.Future] = set()

    def join(self, table_id: str, sub: Subscriber) -> None:
        sub.table = table_id
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
            if sub.dropped:
                continue
            if sub.queue.qsize() >= QUEUE_LIMIT or sub.backlog + len(text) > QUEUE_BYTES:
                self.drop(sub, f"more than {QUEUE_LIMIT} pushes or {QUEUE_BYTES} bytes behind")
            else:
                sub.backlog += len(text)
                sub.queue.put_nowait(text)

    def drop(self, sub: Subscriber, reason: str, code: int = DROPPED) -> None:
        """Hang up on `sub` now: its backlog goes, a close frame if its socket
        takes one, then the connection is cut."""
        if sub.dropped:
            return
        sub.dropped = True
        _drain(sub.queue)
        sub.backlog = 0
        self.leave(sub.table, sub)
        hang_up = asyncio.ensure_future(_hang_up(sub, code, reason))
        self._hanging_up.add(hang_up)
        hang_up.add_done_callback(self._hanging_up.discard)

    def drop_seat(self, table_id: str, seat: int, reason: str) -> None:
        """Hang up on every WebSocket of `seat` (its token was replaced): 4403."""
        for sub in self.subscribers(table_id):
            if sub.seat == seat:
                self.drop(sub, reason, 4403)

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


async def pump(sub: Subscriber, hub: Hub) -> None:
    """Send `sub` its queued views until told to stop (None); a push its
    socket does not take within the hub's send timeout drops it."""
    try:
        while True:
            text = await sub.queue.get()
            if text is None:
                await asyncio.wait_for(sub.ws.close(1000), hub.send_timeout)
                return
            sub.backlog -= len(text)
            await asyncio.wait_for(sub.ws.send_text(text), hub.send_timeout)
    except asyncio.TimeoutError:
        hub.drop(sub, f"read nothing for {hub.send_timeout:g} s")


async def _hang_up(sub: Subscriber, code: int, reason: str) -> None:
    if sub.sender is not None and sub.sender is not asyncio.current_task():
        sub.sender.cancel()
    try:
        await asyncio.wait_for(sub.ws.close(code, reason), CLOSE_GRACE)
        await asyncio.sleep(CLOSE_GRACE)  # time for the client's own close frame
    except Exception:  # noqa: BLE001 - gone, full, or closed already: cut below
        pass
    transport = sub.ws.scope.get(TRANSPORT)
    if transport is not None:
        transport.abort()  # a no-op once the connection is closed


class KeepTransport:
    """Pure ASGI middleware, outermost: leaves a WebSocket connection's
    transport (where the server gives one: uvicorn's protocol is the `send`
    it calls) in its scope, for the hub to cut a client that does not read."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "websocket":
            scope[TRANSPORT] = getattr(getattr(send, "__self__", None), "transport", None)
        await self.app(scope, receive, send)
