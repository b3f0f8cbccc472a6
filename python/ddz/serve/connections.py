"""What uvicorn does not bound on a connection: the time a request has for
its headers and its body, and the connections one client may hold.

uvicorn closes a kept-alive connection that goes quiet between requests,
but not one that sends nothing at all, half a header, or a body a byte a
minute: each holds a descriptor for ever, and enough of them starve every
client of descriptors. `guarded_protocols` makes uvicorn's own protocol
classes (httptools for HTTP, and whichever WebSocket one it would use)
close such a connection (a 408 reply, then the connection), and refuse a
client's connection beyond `max_per_client` (a 429 reply, then the
connection), counted by the client's key (clients.client_key) over HTTP
and WebSocket connections alike (docs/server.md, Limits).

Imported by `ddz serve` only: it needs uvicorn's internals, and an app
run by another server keeps that server's own limits.
"""

from __future__ import annotations

import asyncio
import logging

from .clients import Slots, client_key
from .replies import error_json

log = logging.getLogger("ddz.serve")
#: Seconds a connection the server cut has to take the reply written before it.
FLUSH_GRACE = 1.0


def _reply(transport: asyncio.Transport, status: int, phrase: str, message: str) -> None:
    """A whole JSON reply, then the connection closed (cut if it does not drain)."""
    body = error_json(message)
    head = (
        f"HTTP/1.1 {status} {phrase}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    transport.write(head.encode() + body)
    transport.close()
    asyncio.get_event_loop().call_later(FLUSH_GRACE, transport.abort)  # no-op once closed


def guarded_protocols(max_per_client: int, header_timeout: float, body_timeout: float):
    """(http, ws) protocol classes for uvicorn.Config(http=..., ws=...), or
    None where this uvicorn lacks the classes they are built on (httptools,
    a WebSocket library)."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
        from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol
    except ImportError:  # pragma: no cover - no httptools: uvicorn's own limits only
        log.warning("ddz serve: httptools is missing, so slow requests are not timed out")
        return None
    if AutoWebSocketsProtocol is None:  # pragma: no cover
        return None
    held = Slots(max_per_client)

    class GuardedHttp(HttpToolsProtocol):  # type: ignore[misc, valid-type]
        """httptools' protocol with a deadline for each request's headers,
        then for its body, and a cap on each client's connections."""

        _key: str | None = None
        _timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            key = client_key(self.client[0] if self.client else None)
            if not held.take(key):
                _reply(
                    transport,
                    429,
                    "Too Many Requests",
                    f"{key} holds its limit of {held.cap} open connections",
                )
                return
            self._key = key
            self._arm(header_timeout, "headers")

        def connection_lost(self, exc) -> None:
            self._disarm()
            if self._key is not None:
                held.give_back(self._key)
                self._key = None
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._timer is None:  # a kept-alive connection's next request
                self._arm(header_timeout, "headers")

        def on_headers_complete(self) -> None:
            super().on_headers_complete()
            self._arm(body_timeout, "body")

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            # The connection, and its place in the client's count, go on as a WebSocket.
            self._disarm()
            key, self._key = self._key, None
            super().handle_websocket_upgrade()
            websocket = self.transport.get_protocol()
            if isinstance(websocket, GuardedWs) and not websocket.gone:
                websocket.key = key
            elif key is not None:
                held.give_back(key)

        def _arm(self, seconds: float, what: str) -> None:
            self._disarm()
            self._timer = self.loop.call_later(seconds, self._timed_out, seconds, what)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _timed_out(self, seconds: float, what: str) -> None:
            self._timer = None
            if self.transport.is_closing():
                return
            cycle = self.cycle  # the request being read, or the last one answered
            if cycle is not None and cycle.response_started and not cycle.response_complete:
                self.transport.abort()  # mid-reply: nothing sensible to add
                return
            _reply(
                self.transport,
                408,
                "Request Timeout",
                f"no whole request {what} within {seconds:g} s",
            )

    class GuardedWs(AutoWebSocketsProtocol):  # type: ignore[misc, valid-type]
        """uvicorn's WebSocket protocol, giving its client's place back at the end."""

        key: str | None = None
        gone = False

        def connection_lost(self, exc) -> None:
            self.gone = True
            if self.key is not None:
                held.give_back(self.key)
                self.key = None
            super().connection_lost(exc)

    return GuardedHttp, GuardedWs
