"""The request body limit: a body over it is refused with 413 before any
route reads it, whether it announces its length or not."""

from __future__ import annotations

import json

#: Defaults of `ddz serve --max-tables` and `--max-body` (see docs/server.md).
MAX_TABLES = 1000
MAX_BODY = 16 * 1024


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
        text = json.dumps({"error": f"request body over the limit of {self.limit} bytes"})
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": text.encode()})


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
