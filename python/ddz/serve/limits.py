"""The server's limits (docs/server.md, Limits), and the request body
limit: a body over it is refused with 413 before any route reads it,
whether it announces its length or not.

The limits on what one table's rules may cost are in costs.py.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Defaults of the `ddz serve` options of the same names.
MAX_TABLES = 1000
MAX_TABLES_PER_CLIENT = 100
MAX_BODY = 16 * 1024
IDLE_TIMEOUT = 3600.0
WS_AUTH_TIMEOUT = 10.0
#: Worker threads for the engine's work: tables change in parallel, each in
#: one thread at a time, and the event loop only routes and sends.
ENGINE_THREADS = 4
#: Seconds a WebSocket push may wait for a client that reads nothing (then
#: it is dropped), and WebSockets one table may have open at once.
WS_SEND_TIMEOUT = 10.0
MAX_WS_PER_TABLE = 100
#: Open connections (HTTP and WebSocket) one client may hold, and the
#: seconds a request has for its headers and then for its body.
MAX_CONNECTIONS_PER_CLIENT = 256
HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 10.0


@dataclass(frozen=True)
class Limits:
    max_tables: int = MAX_TABLES
    #: Open tables one client address may have made at a time.
    max_tables_per_client: int = MAX_TABLES_PER_CLIENT
    #: Seconds without a change after which a table is closed.
    idle_timeout: float = IDLE_TIMEOUT
    #: Seconds a WebSocket client has to send its token as a first message.
    ws_auth_timeout: float = WS_AUTH_TIMEOUT
    engine_threads: int = ENGINE_THREADS
    #: Seconds a push may wait for a WebSocket client that reads nothing.
    ws_send_timeout: float = WS_SEND_TIMEOUT
    #: WebSockets (seats' and spectators') one table may have open.
    max_ws_per_table: int = MAX_WS_PER_TABLE

    @property
    def sweep_seconds(self) -> float:
        """How often idle tables are looked for: a table closes at most a
        quarter of its timeout late (and within a minute)."""
        return min(60.0, max(0.25, self.idle_timeout / 4))


class BodyLimit:
    """Pure ASGI middleware: buffers at most `limit` bytes of each HTTP body."""

    def __init__(self, app, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._refuse(send)
                return
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left
            body += message.get("body", b"")
            if len(body) > self.limit:
                await self._refuse(send)
                return
            more = message.get("more_body", False)
        await self.app(scope, replay(body, receive), send)

    async def _refuse(self, send) -> None:
        # Imported here: `ddz serve --help` reads this module's defaults on a
        # core install, where the server's libraries (replies uses starlette)
        # are missing.
        from .replies import error_json

        await send_json(send, 413, error_json(f"request body over the limit of {self.limit} bytes"))


async def send_json(send, status: int, data: bytes) -> None:
    """A whole JSON reply, straight through ASGI."""
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(data))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


def replay(body: bytes, receive):
    """A receive that gives the body read already, then the client's own."""
    sent = False

    async def receive_again():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return receive_again
