"""The ASGI app: routes, authentication, errors, limits, the browser table.

Every error is JSON, ``{"error": "..."}``, with a 4xx status for anything
a client did wrong; see docs/server.md for the list.

(No `from __future__ import annotations`: FastAPI reads the dependencies'
``Annotated`` hints at run time, and they name closures of `create_app`.)
"""

import asyncio
import json
import logging
from pathlib import Path
from typing import Annotated, Any, Optional, Union

import fastapi_offline
from fastapi import Depends, FastAPI, Query, WebSocket, WebSocketDisconnect
from fastapi import Request as HttpRequest
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

import ddz

from .auth import token_hash
from .fastpath import FastActions
from .hub import Hub, Subscriber, pump
from .limits import MAX_BODY, MAX_TABLES, BodyLimit
from .lobby import Lobby
from .models import Action, Error, NewTable, NewTableReply
from .pages import add_pages
from .store import Store
from .tables import Refused, Request, Table
from .views import summary, view_message, view_text

log = logging.getLogger("ddz.serve")
STATIC = Path(__file__).parent / "static"
#: Swagger UI 5 (it reads OpenAPI 3.1, which FastAPI writes), as fastapi-offline ships it.
SWAGGER = Path(fastapi_offline.__file__).parent / "static"
#: Seconds a WebSocket client has to send its token as a first message.
WS_AUTH_SECONDS = 10

_ERRORS: dict[Union[int, str], dict[str, Any]] = {
    code: {"model": Error, "description": text}
    for code, text in {
        401: "no bearer token",
        403: "the token opens no seat of this table",
        404: "no such table",
        409: "refused: not your turn, illegal, the deal is over or the table closed",
        422: "a body of the wrong shape or types, or an unknown preset, option or seat",
    }.items()
}


def create_app(
    db: str = "ddz.sqlite3",
    max_tables: int = MAX_TABLES,
    max_body: int = MAX_BODY,
    synchronous: str = "NORMAL",
) -> FastAPI:
    store = Store(db, synchronous)
    hub = Hub()
    lobby = Lobby(store, hub, max_tables)
    app = FastAPI(
        title="ddz serve",
        version=ddz.__version__,
        description="An authoritative Dou Dizhu server: per-seat views, seat tokens, "
        "idempotent actions, pushes over WebSocket. See docs/server.md.",
        docs_url=None,  # served below from local assets: nothing comes from a CDN
        redoc_url=None,
        responses=_ERRORS,
    )
    app.state.lobby = lobby
    app.add_middleware(FastActions, lobby=lobby)  # inside the body limit
    app.add_middleware(BodyLimit, limit=max_body)
    _errors(app)
    bearer = HTTPBearer(auto_error=False, description="a seat token from POST /tables")

    async def table_of(table_id: str) -> Table:
        return lobby.get(table_id)

    TableOf = Annotated[Table, Depends(table_of)]

    async def seat_at(
        table: TableOf,
        credentials: Annotated[Optional[HTTPAuthorizationCredentials], Depends(bearer)],
    ) -> tuple[Table, int]:
        if credentials is None:
            raise Refused(401, "missing token: send 'Authorization: Bearer <token>'")
        return table, _seat_for(table, credentials.credentials)

    SeatAt = Annotated[tuple[Table, int], Depends(seat_at)]

    # ---- the API ---------------------------------------------------------------
    @app.get("/healthz", tags=["server"])
    async def healthz() -> dict:
        return {"ok": True, "tables": len(lobby.open)}

    @app.get("/presets", tags=["server"])
    async def presets() -> list:
        """Every preset, with its number of seats."""
        return [{"name": p, "players": ddz.Rules(p).players} for p in ddz.PRESETS]

    @app.post("/tables", status_code=201, response_model=NewTableReply, tags=["tables"])
    async def create_table(body: NewTable) -> dict:
        """A new table; the bots play their first turns before the reply. The
        tokens are shown only here: the server keeps their hashes."""
        table, tokens = lobby.create(body.preset, body.options, body.seed, body.deal, body.bots)
        return {"id": table.id, "tokens": tokens}

    @app.get("/tables", tags=["tables"])
    async def list_tables() -> dict:
        """The open tables."""
        return {"tables": [summary(t) for t in lobby.open.values()]}

    @app.get("/tables/{table_id}", tags=["tables"])
    async def get_table(table: TableOf) -> dict:
        return summary(table)

    # The views go out as the JSON text the pushes share (views.view_text),
    # not through FastAPI's serializer, which would encode each one again.
    @app.get("/tables/{table_id}/view", tags=["play"], response_model=dict)
    async def view(at: SeatAt) -> Response:
        """Exactly what `Game.observation(seat)` holds (with legal_actions on
        the seat's turn), framed by version, deal number and running scores."""
        return _json(view_text(*at))

    @app.post("/tables/{table_id}/actions", tags=["play"], response_model=dict)
    async def act(body: Action, at: SeatAt) -> Response:
        """Apply the action, then the bots' answers; committed before the reply.
        A retried key returns the current view and changes nothing."""
        table, seat = at
        return _json(lobby.act(table, seat, Request(**body.model_dump())))

    @app.post("/tables/{table_id}/next", tags=["play"], response_model=dict)
    async def next_deal(at: SeatAt) -> Response:
        """Deal again at the same table once the deal is over; scores run on."""
        lobby.next_deal(at[0])
        return _json(view_text(*at))

    @app.post("/tables/{table_id}/close", tags=["tables"])
    async def close(at: SeatAt) -> dict:
        """Close the table for good; its views and records stay readable."""
        lobby.close(at[0])
        return summary(at[0])

    @app.get("/tables/{table_id}/spectate", tags=["play"], response_model=dict)
    async def spectate(table: TableOf) -> Response:
        """What every seat is shown alike: no hand, role or choice that some player may not know."""
        return _json(view_text(table, None))

    @app.get("/tables/{table_id}/record", tags=["play"])
    async def record(
        table: TableOf, deal: Annotated[Optional[int], Query(ge=0)] = None
    ) -> Response:
        """The full record of a deal (default the current one), as
        `Game.to_json()`: 403 until that deal is over."""
        return Response(table.record(deal), media_type="application/json")

    @app.websocket("/tables/{table_id}/ws")
    async def ws(
        websocket: WebSocket,
        table_id: str,
        token: Optional[str] = None,
        spectator: bool = False,
    ) -> None:
        await websocket.accept()
        try:
            table = lobby.get(table_id)
            if token is None and not spectator:
                token, spectator = await _first_message(websocket)
            seat = None if spectator else _seat_for(table, token)
        except Refused as e:
            await websocket.send_text(json.dumps({"type": "error", "error": e.message}))
            await websocket.close(4000 + e.status)
            return
        except (WebSocketDisconnect, asyncio.TimeoutError):
            return
        sub = Subscriber(websocket, seat)
        # The current view first, queued before any later push can be.
        hub.send([(sub, view_message(table, seat))])
        if table.closed:
            sub.queue.put_nowait(None)  # nothing will change: hang up after the view
        else:
            hub.join(table.id, sub)
        sender = asyncio.ensure_future(pump(sub))
        try:
            while True:  # nothing to read; this notices the client leaving
                await websocket.receive_text()
        except WebSocketDisconnect:
            pass
        finally:
            hub.leave(table.id, sub)
            sender.cancel()

    # ---- the page and the docs, all served from here -------------------------------
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Response:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="ddz serve: API",
            swagger_js_url="/docs-assets/swagger-ui-bundle.js",
            swagger_css_url="/docs-assets/swagger-ui.css",
            swagger_favicon_url="/docs-assets/favicon.png",
            swagger_ui_parameters={"validatorUrl": None},  # no badge from another host
        )

    add_pages(app, lobby)  # the browser table's addresses and helpers (pages.py)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.mount("/docs-assets", StaticFiles(directory=SWAGGER), name="docs-assets")
    return app


def _seat_for(table: Table, token: Optional[str]) -> int:
    seat = table.seat_of(token_hash(token)) if token else None
    if seat is None:
        raise Refused(403, f"this token opens no seat at table {table.id}")
    return seat


def _json(text: str) -> Response:
    return Response(text, media_type="application/json")


async def _first_message(websocket: WebSocket) -> tuple[Optional[str], bool]:
    """``{"token": "..."}`` or ``{"spectator": true}``, sent first."""
    text = await asyncio.wait_for(websocket.receive_text(), WS_AUTH_SECONDS)
    try:
        first = json.loads(text)
    except ValueError:
        raise Refused(400, "the first message must be JSON") from None
    if not isinstance(first, dict):
        raise Refused(400, 'the first message must be {"token": "..."} or {"spectator": true}')
    token = first.get("token")
    if token is not None and not isinstance(token, str):
        raise Refused(400, "token must be a string")
    if token is None and first.get("spectator") is not True:
        raise Refused(401, 'missing token: send {"token": "..."} first')
    return token, token is None


def _errors(app: FastAPI) -> None:
    """Every error as ``{"error": "..."}``; nothing a client sends makes a 500."""

    def reply(status: int, message: str, headers: Optional[dict] = None) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status, headers=headers)

    @app.exception_handler(Refused)
    async def refused(request: HttpRequest, e: Refused) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if e.status == 401 else None
        return reply(e.status, e.message, headers)

    @app.exception_handler(HTTPException)
    async def http_error(request: HttpRequest, e: HTTPException) -> JSONResponse:
        return reply(e.status_code, str(e.detail), getattr(e, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: HttpRequest, e: RequestValidationError) -> JSONResponse:
        errors = e.errors()
        bad_json = [x for x in errors if x.get("type") == "json_invalid"]
        if bad_json:
            where = bad_json[0].get("ctx", {}).get("error", "")
            return reply(400, f"malformed JSON: {where}".strip())
        parts = []
        for x in errors:
            where = ".".join(str(p) for p in x.get("loc", ()) if p != "body") or "body"
            parts.append(f"{where}: {x.get('msg', 'invalid')}")
        return reply(422, "; ".join(parts))

    @app.exception_handler(Exception)
    async def crashed(request: HttpRequest, e: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return reply(500, "internal error: the server logged it")
