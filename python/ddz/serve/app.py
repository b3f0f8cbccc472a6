"""The ASGI app: its state, middleware, errors and the server's own
routes; the routes of each resource are registered from their modules
(table_routes.py, ws_routes.py, pages.py, puzzle_routes.py).

Every error is JSON, ``{"error": "..."}``, with a 4xx status for anything
a client did wrong; see docs/server.md for the list. The engine's work
runs in the lobby's worker threads; the routes only route.
"""

import asyncio
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Optional, Union

import fastapi_offline
from fastapi import FastAPI
from fastapi import Request as HttpRequest
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

import ddz

from .fastpath import FastActions
from .hub import Hub, KeepTransport
from .jsonguard import JsonGuard
from .limits import MAX_BODY, BodyLimit, Limits
from .lobby import Lobby, sweep
from .models import Error
from .pages import add_pages
from .puzzle_routes import add_puzzles
from .replies import Refused, error_response
from .store import Store
from .table_routes import add_tables
from .ws_routes import add_websocket

log = logging.getLogger("ddz.serve")
STATIC = Path(__file__).parent / "static"
#: Swagger UI 5 (it reads OpenAPI 3.1, which FastAPI writes), as fastapi-offline ships it.
SWAGGER = Path(fastapi_offline.__file__).parent / "static"

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

    # ---- the server ----------------------------------------------------------------
    @app.get("/healthz", tags=["server"])
    async def healthz() -> dict:
        return {"ok": True, "tables": len(lobby.open)}

    @app.get("/presets", tags=["server"])
    async def presets() -> list:
        """Every preset, with its number of seats."""
        return [{"name": p, "players": ddz.Rules(p).players} for p in ddz.PRESETS]

    add_tables(app, lobby)  # the tables and their play (table_routes.py)
    add_websocket(app, lobby)  # the pushes (ws_routes.py)

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
