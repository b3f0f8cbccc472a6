"""The ASGI app: routes, authentication, errors, limits, the browser table.

Every error is JSON, ``{"error": "..."}``, with a 4xx status for anything
a client did wrong; see docs/server.md for the list. The engine's work
runs in the lobby's worker threads; the routes only route.

(No `from __future__ import annotations`: FastAPI reads the dependencies'
``Annotated`` hints at run time, and they name closures of `create_app`.)
"""

import asyncio
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Optional, Union

import fastapi_offline
from fastapi import Depends, FastAPI, Query, WebSocket, WebSocketDisconnect
from fastapi import Request as HttpRequest
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

import ddz

from .auth import token_hash
from .clients import client_key
from .fastpath import FastActions
from .hub import Hub, KeepTransport, Subscriber, pump
from .jsonguard import JsonGuard, strict_loads
from .limits import MAX_BODY, BodyLimit, Limits
from .lobby import Lobby, sweep
from .models import ActionRequest, AutoplayRequest, Error, NewTable, NewTableReply
from .pages import add_pages
from .puzzle_routes import add_puzzles
from .replies import Refused, error_response, ws_error_json
from .store import Store
from .tables import Request, ServedTable
from .views import summary, view_text

log = logging.getLogger("ddz.serve")
STATIC = Path(__file__).parent / "static"
#: Swagger UI 5 (it reads OpenAPI 3.1, which FastAPI writes), as fastapi-offline ships it.
SWAGGER = Path(fastapi_offline.__file__).parent / "static"
#: The longest close reason a WebSocket close frame carries, in bytes.
CLOSE_REASON_BYTES = 123
#: The `spectator` query values read as true and as false (FastAPI's own words for a bool).
YES, NO = ("true", "1", "yes", "on"), ("false", "0", "no", "off")

_ERRORS: dict[Union[int, str], dict[str, Any]] = {
    code: {"model": Error, "description": text}
    for code, text in {
        401: "no bearer token",
        403: "the token opens no seat of this table",
        404: "no such table",
        409: "refused: not your turn, illegal, the deal is over or the table closed",
        422: "a body of the wrong shape or types, or an unknown preset, option or seat",
        429: "the server, or this client, holds its limit of open tables",
    }.items()
}


def create_app(
    db: str = "ddz.sqlite3",
    max_tables: Optional[int] = None,
    max_body: int = MAX_BODY,
    synchronous: str = "NORMAL",
    limits: Optional[Limits] = None,
) -> FastAPI:
    """The ASGI app. `limits` holds the server's limits (docs/server.md,
    Limits); `max_tables`, if given, overrides its `max_tables`."""
    limits = limits or Limits()
    if max_tables is not None:
        limits = Limits(**{**limits.__dict__, "max_tables": max_tables})
    store = Store(db, synchronous)
    hub = Hub(limits.ws_send_timeout)
    lobby = Lobby(store, hub, limits)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        sweeper = asyncio.ensure_future(sweep(lobby))
        lobby.start()  # paced bots and turn clocks of the tables the store holds open
        try:
            yield
        finally:
            sweeper.cancel()
            lobby.shutdown()
            app.state.replay_builder.shutdown()  # replays not begun are dropped
            app.state.analyses.shutdown()  # analyses not begun too

    app = FastAPI(
        title="ddz serve",
        version=ddz.__version__,
        description="An authoritative Dou Dizhu server: per-seat views, seat tokens, "
        "idempotent actions, pushes over WebSocket. See docs/server.md.",
        docs_url=None,  # served below from local assets: nothing comes from a CDN
        redoc_url=None,
        responses=_ERRORS,
        lifespan=lifespan,
    )
    app.state.lobby = lobby
    app.add_middleware(FastActions, lobby=lobby)  # inside the JSON checks
    app.add_middleware(JsonGuard)  # repeated keys, deep nesting: inside the body limit
    app.add_middleware(BodyLimit, limit=max_body)
    app.add_middleware(KeepTransport)  # outermost: it sees the server's own `send`
    _errors(app)
    bearer = HTTPBearer(auto_error=False, description="a seat token from POST /tables")
    Credentials = Annotated[Optional[HTTPAuthorizationCredentials], Depends(bearer)]

    async def table_of(table_id: str) -> ServedTable:
        return await lobby.find(table_id)

    TableOf = Annotated[ServedTable, Depends(table_of)]

    def token_of(credentials: Optional[HTTPAuthorizationCredentials]) -> str:
        if credentials is None:
            raise Refused(401, "missing token: send 'Authorization: Bearer <token>'")
        return credentials.credentials

    async def seat_at(table: TableOf, credentials: Credentials) -> tuple[ServedTable, int]:
        return table, _seat_for(table, token_of(credentials))

    SeatAt = Annotated[tuple[ServedTable, int], Depends(seat_at)]

    # ---- the API ---------------------------------------------------------------
    @app.get("/healthz", tags=["server"])
    async def healthz() -> dict:
        return {"ok": True, "tables": len(lobby.open)}

    @app.get("/presets", tags=["server"])
    async def presets() -> list:
        """Every preset, with its number of seats."""
        return [{"name": p, "players": ddz.Rules(p).players} for p in ddz.PRESETS]

    @app.post(
        "/tables",
        status_code=201,
        response_model=NewTableReply,
        tags=["tables"],
    )
    async def create_table(body: NewTable, request: HttpRequest) -> dict:
        """A new table; the bots play their first turns before the reply. The
        tokens are shown only here: the server keeps their hashes."""
        client = client_key(request.client.host if request.client else None)
        table, tokens, owner = await lobby.create(
            body.preset, body.options, body.seed, body.deal, body.bots, client, body.room()
        )
        return {"id": table.id, "tokens": tokens, "owner": owner}

    @app.get("/tables", tags=["tables"])
    async def list_tables() -> dict:
        """The open tables."""
        return {"tables": [t.shown for t in list(lobby.open.values())]}

    @app.get("/tables/{table_id}", tags=["tables"])
    async def get_table(table: TableOf) -> dict:
        return table.shown

    # The views go out as the JSON text the pushes share (views.view_text),
    # not through FastAPI's serializer, which would encode each one again.
    @app.get("/tables/{table_id}/view", tags=["play"], response_model=dict)
    async def view(at: SeatAt) -> Response:
        """Exactly what `Game.observation(seat)` holds (with legal_actions on
        the seat's turn), framed by version, deal number and running scores."""
        table, seat = at
        return _json(await lobby.read(table, lambda t: view_text(t, seat)))

    @app.post("/tables/{table_id}/actions", tags=["play"], response_model=dict)
    async def act(body: ActionRequest, at: SeatAt) -> Response:
        """Apply the action, then the bots' answers; committed before the reply.
        A retried key returns the current view and changes nothing."""
        table, seat = at
        return _json(await lobby.act(table.id, seat, Request(**body.model_dump())))

    @app.post("/tables/{table_id}/next", tags=["play"], response_model=dict)
    async def next_deal(at: SeatAt) -> Response:
        """Deal again at the same table once the deal is over; scores run on."""
        table, seat = at
        return _json(await lobby.next_deal(table.id, seat))

    @app.post("/tables/{table_id}/autoplay", tags=["play"], response_model=dict)
    async def autoplay(body: AutoplayRequest, at: SeatAt) -> Response:
        """托管: with `on` true the server plays the seat's turns (paced, as its
        bots) until the seat's person acts or sends `on` false. Returns the
        seat's view."""
        table, seat = at
        return _json(await lobby.set_autoplay(table.id, seat, body.on))

    @app.post("/tables/{table_id}/rekey", tags=["tables"])
    async def rekey(at: SeatAt) -> dict:
        """A new token for the seat this token opens, which opens nothing from
        now on (its WebSockets are closed, 4403): for an invitation's taker,
        or a token that may have leaked."""
        table, seat = at
        token = await lobby.rekey(table, seat)
        app.state.offers.withdraw(table, seat)  # an offer made with the old token goes with it
        return {"seat": seat, "token": token}

    @app.post("/tables/{table_id}/close", tags=["tables"])
    async def close(table: TableOf, credentials: Credentials) -> dict:
        """Close the table for good, with a seat's token or the owner's; its
        views and records stay readable."""
        if not table.may_close(token_hash(token_of(credentials))):
            raise Refused(403, f"this token may not close table {table.id}")
        shown = await lobby.close(table.id)
        return shown if shown is not None else summary(table)

    @app.get("/tables/{table_id}/spectate", tags=["play"], response_model=dict)
    async def spectate(table: TableOf) -> Response:
        """What every seat is shown alike: no hand, role or choice that some player may not know."""
        return _json(await lobby.read(table, lambda t: view_text(t, None)))

    @app.get("/tables/{table_id}/record", tags=["play"])
    async def record(
        table: TableOf, deal: Annotated[Optional[int], Query(ge=0)] = None
    ) -> Response:
        """The full record of a deal (default the current one), as
        `Game.to_json()`: 403 until that deal is over."""
        return _json(await lobby.read(table, lobby.record(table.id, deal)))

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
            seat = None if watch else _seat_for(table, token)
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
    add_puzzles(app, store)  # the puzzle mode (puzzle_routes.py)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.mount("/docs-assets", StaticFiles(directory=SWAGGER), name="docs-assets")
    return app


BINARY = "binary frames are not accepted: send JSON text"


def _seat_for(table: ServedTable, token: Optional[str]) -> int:
    seat = table.seat_of(token_hash(token)) if token else None
    if seat is None:
        raise Refused(403, f"this token opens no seat at table {table.id}")
    return seat


def _json(text: str) -> Response:
    return Response(text, media_type="application/json")


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


def _errors(app: FastAPI) -> None:
    """Every error as ``{"error": "..."}``, in the bytes of replies.error_json;
    nothing a client sends makes a 500."""

    @app.exception_handler(Refused)
    async def refused(request: HttpRequest, e: Refused) -> Response:
        headers = {"WWW-Authenticate": "Bearer"} if e.status == 401 else None
        return error_response(e.status, e.message, headers)

    @app.exception_handler(HTTPException)
    async def http_error(request: HttpRequest, e: HTTPException) -> Response:
        return error_response(e.status_code, str(e.detail), getattr(e, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: HttpRequest, e: RequestValidationError) -> Response:
        errors = e.errors()
        bad_json = [x for x in errors if x.get("type") == "json_invalid"]
        if bad_json:
            where = bad_json[0].get("ctx", {}).get("error", "")
            return error_response(400, f"malformed JSON: {where}".strip())
        parts = []
        for x in errors:
            where = ".".join(str(p) for p in x.get("loc", ()) if p != "body") or "body"
            parts.append(f"{where}: {x.get('msg', 'invalid')}")
        return error_response(422, "; ".join(parts))

    @app.exception_handler(Exception)
    async def crashed(request: HttpRequest, e: Exception) -> Response:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return error_response(500, "internal error: the server logged it")
