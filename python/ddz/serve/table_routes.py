"""The tables' addresses (docs/server.md, API): open a table, list them,
a seat's view, its actions, the next deal, autoplay, a new token, closing,
the spectators' view and the records. The work is the lobby's.

(No `from __future__ import annotations`: FastAPI reads the dependencies'
``Annotated`` hints at run time, and they name closures of `add_tables`.)
"""

from typing import Annotated, Optional

from fastapi import Depends, FastAPI, Query
from fastapi import Request as HttpRequest
from fastapi.responses import Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from .auth import token_hash
from .clients import client_key
from .lobby import Lobby
from .models import ActionRequest, AutoplayRequest, NewTable, NewTableReply
from .replies import Refused
from .tables import Request, ServedTable
from .views import summary, view_text


async def apply_action(lobby: Lobby, table_id: str, seat: int, body: ActionRequest) -> str:
    """The one way `POST /tables/{id}/actions` applies an action, once the
    seat is known and the body checked: the route below and the short way
    in fastpath.py both call it. The seat's view after it, as JSON text."""
    return await lobby.act(table_id, seat, Request(**body.model_dump()))


def add_tables(app: FastAPI, lobby: Lobby) -> None:
    """Register the tables' routes on `app`."""
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
        return table, seat_for(table, token_of(credentials))

    SeatAt = Annotated[tuple[ServedTable, int], Depends(seat_at)]

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
        return _json(await apply_action(lobby, table.id, seat, body))

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


def seat_for(table: ServedTable, token: Optional[str]) -> int:
    seat = table.seat_of(token_hash(token)) if token else None
    if seat is None:
        raise Refused(403, f"this token opens no seat at table {table.id}")
    return seat


def _json(text: str) -> Response:
    return Response(text, media_type="application/json")
