"""A short way through the server for its busiest request: an action that
is well formed, from a seat's own token, at an open table.

FastAPI's routing, dependency solving and serialization cost about twice
what applying the action, the bots' answers and the commit do (see
docs/server.md, Load). This pure ASGI middleware answers that one kind of
request itself, with the same model, the same token check and the route's
own `apply_action` (table_routes.py), so an action is applied one way
whichever way it came in; it hands anything else, or anything out of the ordinary (no
or a wrong token, a body the model refuses, another content type, a
closed or unknown table), to FastAPI unchanged, so every error reply is
FastAPI's as before and the API documents itself as before.
"""

from __future__ import annotations

import json
import re

from pydantic import ValidationError

from .limits import replay, send_json
from .lobby import Lobby
from .models import ActionRequest
from .replies import Refused, error_json
from .table_routes import apply_action, seat_for

ACTIONS = re.compile(r"/tables/([^/]+)/actions")


class FastActions:
    def __init__(self, app, lobby: Lobby) -> None:
        self.app = app
        self.lobby = lobby

    async def __call__(self, scope, receive, send) -> None:
        match = None
        if scope["type"] == "http" and scope["method"] == "POST":
            match = ACTIONS.fullmatch(scope["path"])
        if match is None:
            await self.app(scope, receive, send)
            return
        body = await _read(receive)
        if body is None:
            return  # the client left
        reply = await self._try(match.group(1), scope["headers"], body)
        if reply is None:
            await self.app(scope, replay(body, receive), send)
            return
        await send_json(send, *reply)

    async def _try(self, table_id: str, headers, body: bytes) -> tuple[int, bytes] | None:
        """(status, JSON) for the ordinary case; None hands the request to FastAPI."""
        table = self.lobby.open.get(table_id)
        token = content_type = None
        for name, value in headers:  # the first of each, as Starlette reads them
            if name == b"authorization" and token is None:
                token = value
            elif name == b"content-type" and content_type is None:
                content_type = value
        if table is None or content_type != b"application/json" or token is None:
            return None
        scheme, _, credentials = token.decode("latin-1").partition(" ")
        if scheme.lower() != "bearer":  # as fastapi.security.HTTPBearer parses it
            return None
        try:
            seat = seat_for(table, credentials.strip())  # the route's own check
        except Refused:
            return None
        try:
            action = ActionRequest.model_validate(json.loads(body))
        except (ValueError, RecursionError, ValidationError):  # FastAPI's to word
            return None
        try:
            view = await apply_action(self.lobby, table_id, seat, action)
            return 200, view.encode()
        except Refused as e:  # what the app's handler answers for it, in the same bytes
            return e.status, error_json(e.message)


async def _read(receive) -> bytes | None:
    body = b""
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        body += message.get("body", b"")
        if not message.get("more_body", False):
            return body
