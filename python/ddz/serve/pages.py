"""What the browser table needs besides the game API: its page at every
address it is opened at, the bots it may offer, hints, replays, and the
lobby's seats (docs/server.md, The browser table).

Each answer comes from the engine or the server's tables: the page draws
what it is sent and decides no rule itself.

(No `from __future__ import annotations`: FastAPI reads the dependencies'
``Annotated`` hints at run time, and they name closures of `add_pages`.)
"""

import secrets
from pathlib import Path
from typing import Annotated, Optional

from fastapi import Depends, FastAPI, Query
from fastapi import Request as HttpRequest
from fastapi.responses import FileResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

import ddz

from .analysis import Analyses
from .auth import token_hash
from .bots import BOT_KINDS
from .clients import client_key
from .hints import table_hints as advised
from .lobby import Lobby
from .replay import Replays, replay_json
from .replies import Refused
from .seating import Offers, seats
from .tables import ServedTable

INDEX = Path(__file__).parent / "static" / "index.html"
#: Tables the lobby lists at most: those with a seat offered first.
LOBBY_LISTED = 50


def register_replay(app: FastAPI, record: str) -> str:
    """Keep a record for `/replay?local=KEY` (the `ddz replay` command); returns KEY."""
    try:
        replay_json(record)  # refuses a bad record now, not in the page
    except Refused as e:  # a rule set over the server's limits
        raise ValueError(e.message) from None
    key = secrets.token_urlsafe(8)
    app.state.replays[key] = record
    return key


def _json(text: str) -> Response:
    return Response(text, media_type="application/json")


def _client(request: HttpRequest) -> str:
    return client_key(request.client.host if request.client else None)


def add_pages(app: FastAPI, lobby: Lobby) -> None:
    """Register the page's addresses and its helper routes on `app`."""
    offers = Offers()
    app.state.offers = offers
    app.state.replays = {}
    replays = Replays()  # their own threads, limits per client, a cache
    app.state.replay_builder = replays
    bearer = HTTPBearer(auto_error=False, description="a seat token from POST /tables")

    async def seat_of(
        table_id: str,
        credentials: Annotated[Optional[HTTPAuthorizationCredentials], Depends(bearer)],
    ) -> tuple[ServedTable, int, str]:
        """The table, the seat the bearer token opens, and the token."""
        table = await lobby.find(table_id)
        if credentials is None:
            raise Refused(401, "missing token: send 'Authorization: Bearer <token>'")
        seat = table.seat_of(token_hash(credentials.credentials))
        if seat is None:
            raise Refused(403, f"this token opens no seat at table {table.id}")
        return table, seat, credentials.credentials

    SeatOf = Annotated[tuple[ServedTable, int, str], Depends(seat_of)]

    # ---- the page, wherever it is opened ----------------------------------------
    def page() -> FileResponse:
        return FileResponse(INDEX)

    for path in ("/t/{table_id}", "/replay", "/replay/{table_id}/{deal}"):
        app.add_api_route(path, page, include_in_schema=False)

    # ---- what the page asks --------------------------------------------------------
    @app.get("/bots", tags=["server"])
    async def bots() -> dict:
        """The kinds of bot a table may seat."""
        return {"bots": list(BOT_KINDS)}

    @app.get("/tables/{table_id}/hints", tags=["play"])
    async def hints(at: SeatOf) -> dict:
        """The seat's legal plays, best first, as `Rules.hint` orders them;
        empty when it is not the seat's turn to play cards, or when the
        table's `hints` option is "off" (`mode` says which)."""
        table, seat, _ = at
        # Read after the table's pending changes, where its engine work runs (lobby.py).
        return await lobby.read(
            table,
            lambda t: {"version": t.version, "mode": t.room.hints, "hints": advised(t, seat)},
        )

    @app.get("/tables/{table_id}/roles", tags=["tables"])
    async def table_roles(table_id: str) -> list:
        """The roles the table's observations hold, as the engine declares
        them (`Rules.roles()`: key, type, labels in English and Chinese)."""
        return (await lobby.find(table_id)).rules.roles()

    @app.get("/tables/{table_id}/rules", tags=["tables"])
    async def table_rules(table_id: str) -> dict:
        """The table's rule set, every option (`Rules.to_dict()`): the page
        learns the kitty's size and the decks from it."""
        return (await lobby.find(table_id)).rules.to_dict()

    @app.get("/tables/{table_id}/hands", tags=["play"])
    async def final_hands(
        table_id: str, deal: Annotated[Optional[int], Query(ge=0)] = None
    ) -> dict:
        """The cards every seat kept, and the kitty, once a deal (default:
        the current one) is over: 403 before, as its record."""
        table = await lobby.find(table_id)
        # 404 for a deal it lacks, 403 until the deal is over; the record's end is the hands.
        record = await lobby.read(table, lobby.record(table_id, deal))
        game = await lobby.run(ddz.Game.from_json, record)
        return {"hands": ["".join(h) for h in game.hands], "kitty": "".join(game.kitty)}

    @app.get("/tables/{table_id}/replay", tags=["play"], response_model=dict)
    async def table_replay(
        table_id: str, request: HttpRequest, deal: Annotated[Optional[int], Query(ge=0)] = None
    ) -> Response:
        """A finished deal (default: the current one) at every step, all
        hands open: 403 until it is over, as its record."""
        table = await lobby.find(table_id)
        record = await lobby.read(table, lobby.record(table_id, deal))
        return _json(await replays.reply(record, _client(request)))

    analyses = Analyses(lobby.store, lobby.run)
    app.state.analyses = analyses

    @app.post("/replay/{table_id}/{deal}/analysis", tags=["play"], response_model=dict)
    async def deal_analysis(table_id: str, deal: int) -> Response:
        """A finished deal's analysis (`ddz.analyse`, every seat, a fixed
        budget and seed: docs/bots.md#analysis), built once and kept in
        the store with the table's log; 403
        until the deal is over, 429 while another is being built."""
        if deal < 0:
            raise Refused(422, f"deal must be 0 or more, not {deal}")
        table = await lobby.find(table_id)
        record = await lobby.read(table, lobby.record(table_id, deal))
        return _json(await analyses.reply(table_id, deal, record))

    @app.post("/replays", tags=["play"], response_model=dict)
    async def replay_record(request: HttpRequest) -> Response:
        """The replay of a record sent as the body (`Game.to_json()` text),
        at a rate per client (429 past it); a rule set over the limits a
        new table has is a 422."""
        body = await request.body()
        try:
            record = body.decode()
        except UnicodeDecodeError:
            raise Refused(400, "a record is UTF-8 JSON text") from None
        return _json(await replays.reply(record, _client(request)))

    @app.get("/replays/{key}", tags=["play"], response_model=dict)
    async def kept_replay(key: str) -> Response:
        """The replay of a record this server was started with (`ddz replay`)."""
        record = app.state.replays.get(key)
        if record is None:
            raise Refused(404, f"no replay {key!r} on this server")
        return _json(await replays.reply(record))

    # ---- the lobby -------------------------------------------------------------------
    @app.get("/lobby", tags=["tables"])
    async def lobby_tables() -> dict:
        """Open tables (at most LOBBY_LISTED, those with a seat offered
        first), each seat a bot, a person's seat (connected or not) or a seat
        offered to whoever takes it."""
        offers.keep_only(lobby.open)
        listed = sorted(lobby.open.values(), key=lambda t: not offers.offered(t.id))
        return {
            "tables": [
                {**t.shown, "seats": seats(t, lobby.hub, offers)} for t in listed[:LOBBY_LISTED]
            ]
        }

    @app.post("/tables/{table_id}/offers/{seat}", tags=["tables"])
    async def offer(seat: int, at: SeatOf) -> dict:
        """Put a seat up in the lobby, with that seat's own token: the first
        visitor to take it gets the token."""
        table, held, _ = at
        if held != seat:
            raise Refused(403, f"this token opens seat {held}, not seat {seat}")
        if table.closed:
            raise Refused(409, "the table is closed")
        offers.offer(table, seat)
        return {"offered": sorted(offers.offered(table.id))}

    @app.delete("/tables/{table_id}/offers/{seat}", tags=["tables"])
    async def withdraw(seat: int, at: SeatOf) -> dict:
        table, held, _ = at
        if held != seat:
            raise Refused(403, f"this token opens seat {held}, not seat {seat}")
        offers.withdraw(table, seat)
        return {"offered": sorted(offers.offered(table.id))}

    @app.post("/tables/{table_id}/offers/{seat}/take", tags=["tables"])
    async def take(table_id: str, seat: int) -> dict:
        """Take an offered seat, once: a new token for it, and the token that
        offered it opens nothing from now on."""
        table = await lobby.find(table_id)
        offers.take(table, seat)
        return {"seat": seat, "token": await lobby.rekey(table, seat)}
