"""A table's WebSocket (docs/server.md, Pushes): the seat's token (or a
spectator's flag) in the query or as the first message, then the views
pushed as the table changes. Refusals close with 4000 + the HTTP status.

(No `from __future__ import annotations`, as in app.py: FastAPI reads the
route's hints at run time.)
"""

import asyncio
from typing import Optional

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from .hub import Subscriber, pump
from .jsonguard import strict_loads
from .lobby import Lobby
from .replies import Refused, ws_error_json
from .table_routes import seat_for

#: The longest close reason a WebSocket close frame carries, in bytes.
CLOSE_REASON_BYTES = 123
#: The `spectator` query values read as true and as false (FastAPI's own words for a bool).
YES, NO = ("true", "1", "yes", "on"), ("false", "0", "no", "off")


def add_websocket(app: FastAPI, lobby: Lobby) -> None:
    """Register the WebSocket route on `app`."""
    hub, limits = lobby.hub, lobby.limits

    @app.websocket("/tables/{table_id}/ws")
    async def ws(
        websocket: WebSocket,
        table_id: str,
        token: Optional[str] = None,
        spectator: Optional[str] = None,
    ) -> None:
        await websocket.accept()
        try:
            watch = _spectator_flag(spectator)
            if token == "":
                raise Refused(401, "missing token: ?token= is empty")
            table = await lobby.find(table_id)
            if token is None and not watch:
                token, watch = await _first_message(websocket, limits.ws_auth_timeout)
            seat = None if watch else seat_for(table, token)
            if len(hub.tables.get(table.id, ())) >= limits.max_ws_per_table:
                most = limits.max_ws_per_table
                raise Refused(429, f"table {table.id} has {most} WebSockets open already")
        except Refused as e:
            await _refuse(websocket, e)
            return
        except WebSocketDisconnect:
            return
        sub = Subscriber(websocket, seat)
        # The current view first, queued before any later push can be.
        await lobby.subscribe(table, sub)
        sender = sub.sender = asyncio.ensure_future(pump(sub, hub))
        try:
            while True:  # nothing to read; this notices the client leaving
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if message.get("text") is None:
                    sender.cancel()
                    await _refuse(websocket, Refused(400, BINARY))
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass  # gone, or hung up by the sender
        finally:
            hub.leave(table.id, sub)
            sender.cancel()


BINARY = "binary frames are not accepted: send JSON text"


def _spectator_flag(value: Optional[str]) -> bool:
    if value is None or value.lower() in NO:
        return False
    if value.lower() in YES:
        return True
    raise Refused(400, f"spectator must be true or false, not {value[:40]!r}")


async def _refuse(websocket: WebSocket, e: Refused) -> None:
    """The error as a message, then a close frame: code 4000 + the HTTP
    status the same refusal gets (4400, 4401, 4403, 4404, 4408), the
    message as its reason."""
    reason = e.message.encode()[:CLOSE_REASON_BYTES].decode("utf-8", "ignore")
    try:
        await websocket.send_text(ws_error_json(e.message))
        await websocket.close(4000 + e.status, reason)
    except (WebSocketDisconnect, RuntimeError):
        pass  # the client left first


async def _first_message(websocket: WebSocket, seconds: float) -> tuple[Optional[str], bool]:
    """``{"token": "..."}`` or ``{"spectator": true}``, sent first."""
    try:
        message = await asyncio.wait_for(websocket.receive(), seconds)
    except asyncio.TimeoutError:
        raise Refused(
            408, f'no token within {seconds:g} s: send {{"token": "..."}} first'
        ) from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise Refused(400, BINARY)
    try:
        first = strict_loads(text)
    except Refused as e:  # a repeated key, or nested too deep: refused as any bad first message
        raise Refused(400, f"the first message: {e.message}") from None
    except ValueError:
        raise Refused(400, "the first message must be JSON") from None
    if not isinstance(first, dict):
        raise Refused(400, 'the first message must be {"token": "..."} or {"spectator": true}')
    token = first.get("token")
    if token is not None and not isinstance(token, str):
        raise Refused(400, "token must be a string")
    if not token and first.get("spectator") is not True:
        raise Refused(401, 'missing token: send {"token": "..."} first')
    return token, token is None
