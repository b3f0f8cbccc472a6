"""The puzzle mode's addresses (docs/server.md, Puzzles): the page, the
chapters, a puzzle's position, a move, a hint. The work is in
puzzle_mode.py; each request runs in a worker thread (the solver blocks).
"""

from pathlib import Path
from typing import Optional

from fastapi import FastAPI
from fastapi.responses import FileResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from .puzzle_mode import Puzzles, checked_player
from .store import Store


class PuzzleRequest(BaseModel):
    player: str  # the page's random id
    cards: Optional[str] = None  # a move's cards, or 'pass'


PAGE = Path(__file__).parent / "static" / "puzzles.html"


def add_puzzles(app: FastAPI, store: Store) -> None:
    """Register the puzzle routes; `app.state.puzzles` holds the pack."""
    puzzles = Puzzles(store)
    app.state.puzzles = puzzles

    @app.get("/puzzles", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(PAGE)

    @app.get("/puzzles/pack", tags=["puzzles"])
    async def chapters(player: str) -> dict:
        """The chapters, easiest first, with this player's stars and rating."""
        player = checked_player(player)
        out = await run_in_threadpool(puzzles.chapters, player)
        me = await run_in_threadpool(puzzles.player_rating, player)
        return {"chapters": out, "player_rating": round(me.rating)}

    @app.get("/puzzles/{puzzle_id}", tags=["puzzles"])
    async def position(puzzle_id: str, player: str) -> dict:
        return await run_in_threadpool(puzzles.view, checked_player(player), puzzle_id)

    @app.post("/puzzles/{puzzle_id}/restart", tags=["puzzles"])
    async def restart(puzzle_id: str, body: PuzzleRequest) -> dict:
        player = checked_player(body.player)
        return await run_in_threadpool(puzzles.view, player, puzzle_id, True)

    @app.post("/puzzles/{puzzle_id}/move", tags=["puzzles"])
    async def move(puzzle_id: str, body: PuzzleRequest) -> dict:
        player = checked_player(body.player)
        return await run_in_threadpool(puzzles.move, player, puzzle_id, body.cards)

    @app.post("/puzzles/{puzzle_id}/hint", tags=["puzzles"])
    async def hint(puzzle_id: str, body: PuzzleRequest) -> dict:
        player = checked_player(body.player)
        return await run_in_threadpool(puzzles.hint, player, puzzle_id)
