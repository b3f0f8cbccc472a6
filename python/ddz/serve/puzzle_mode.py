"""The puzzle mode (残局闯关, docs/server.md, Puzzles): a pack of two-hand
classic puzzles, a player's position in each, their stars and the Glicko-2
ratings of players and puzzles, kept in the server's SQLite file.

The player is the landlord (seat 0); the server checks every move with the
exact solver and answers with the defence. A move that loses changes
nothing: the answer carries the defence's refutation and the player tries
again from the same position.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from typing import Any

import ddz
from ddz.puzzles import generate, longest_reply

from . import glicko
from .replies import Refused
from .store import Store

SCHEMA = """
CREATE TABLE IF NOT EXISTS puzzle_ratings (
    puzzle_id  TEXT PRIMARY KEY,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    plays      INTEGER NOT NULL DEFAULT 0      -- first attempts rated
);
CREATE TABLE IF NOT EXISTS puzzle_players (
    player     TEXT PRIMARY KEY,               -- the page's random id (localStorage)
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    player     TEXT NOT NULL,
    puzzle_id  TEXT NOT NULL,
    history    TEXT NOT NULL,                  -- JSON [[seat, action], ...] of this try
    mistakes   INTEGER NOT NULL DEFAULT 0,     -- losing moves over every try
    hinted     INTEGER NOT NULL DEFAULT 0,
    rated      INTEGER NOT NULL DEFAULT 0,     -- the first attempt has been rated
    stars      INTEGER NOT NULL DEFAULT 0,     -- the best finish so far (0: never solved)
    touched    REAL NOT NULL,
    PRIMARY KEY (player, puzzle_id)
);
"""
#: The pack: classic two-hand puzzles, always the same ones (a fixed seed).
PACK_SIZE = 24
PACK_SEED = 7
#: A player id: what the page draws (letters, digits, '-', '_'), bounded.
PLAYER_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")

RULES = ddz.Rules("classic")


def make_pack(n: int = PACK_SIZE, seed: int = PACK_SEED) -> list[dict[str, Any]]:
    """The chapters, easiest first (by the generator's difficulty prior)."""
    pack = generate("classic", n=n, seed=seed, hands=2)
    return sorted(pack, key=lambda p: (p["rating"], p["id"]))


def checked_player(player: Any) -> str:
    if not isinstance(player, str) or not 8 <= len(player) <= 64 or set(player) - PLAYER_CHARS:
        raise Refused(400, "player must be 8-64 letters, digits, '-' or '_' (the page's id)")
    return player


def _without(hand: str, cards: str) -> str:
    for c in cards:
        hand = hand.replace(c, "", 1)
    return hand


class Position:
    """Both hands and the trick after `history`, replayed from the puzzle."""

    def __init__(self, puzzle: dict[str, Any], history: list[list[Any]]) -> None:
        self.hands = list(puzzle["hands"])
        self.prev: str | None = None  # the play to beat, None for a lead
        self.prev_by = 1
        for seat, action in history:
            self.apply(seat, action)

    def apply(self, seat: int, action: str) -> None:
        if action == ddz.PASS:
            self.prev = None  # two hands: a pass gives the lead back
        else:
            self.hands[seat] = _without(self.hands[seat], action)
            self.prev, self.prev_by = action, seat

    def legal(self, cards: str) -> str:
        """The landlord's action for `cards` (a pass as 'pass'), or Refused."""
        if cards == ddz.PASS:
            if self.prev is None:
                raise Refused(400, "you lead here: a pass is not allowed")
            return cards
        want = Counter(cards)
        for m in RULES.moves(self.hands[0], self.prev):
            if Counter(str(m.cards)) == want:
                return str(m.cards)
        raise Refused(400, f"{cards!r} is not a legal play here")

    def mover_wins(self, to_move: int) -> tuple[bool, list[list[Any]]]:
        """Whether `to_move` wins from here, and the solver's line."""
        s = RULES.solve(
            self.hands, to_move=to_move, prev=self.prev, prev_by=self.prev_by, line=True
        )
        line = [[seat, _text(a)] for seat, a in s.line]
        return bool(s.win), line


class Puzzles:
    """The pack (made once, on first use) and the players' attempts."""

    def __init__(self, store: Store, pack: list[dict[str, Any]] | None = None) -> None:
        self.store = store
        self._pack = pack
        self._making = threading.Lock()
        # One request at a time reads and writes an attempt: two moves sent at
        # once must not both start from the same position.
        self._playing = threading.Lock()
        with store._transaction() as db:
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)

    # ---- the pack ---------------------------------------------------------------
    def pack(self) -> list[dict[str, Any]]:
        with self._making:
            if self._pack is None:
                self._pack = make_pack(PACK_SIZE, PACK_SEED)  # read now: a test may set them
            return self._pack

    def puzzle(self, puzzle_id: str) -> dict[str, Any]:
        for p in self.pack():
            if p["id"] == puzzle_id:
                return p
        raise Refused(404, f"no puzzle {puzzle_id!r} in the pack")

    # ---- reads ------------------------------------------------------------------
    def chapters(self, player: str) -> list[dict[str, Any]]:
        with self.store.lock:
            stars = dict(
                self.store.db.execute(
                    "SELECT puzzle_id, stars FROM puzzle_attempts WHERE player = ?", (player,)
                ).fetchall()
            )
        out = []
        for number, p in enumerate(self.pack(), 1):
            rating = self._rating(p)
            out.append(
                {
                    "number": number,
                    "id": p["id"],
                    "rating": round(rating.rating),
                    "length": p["length"],
                    "cards": [len(h) for h in p["hands"]],
                    "themes": p["themes"],
                    "stars": stars.get(p["id"], 0),
                }
            )
        return out

    def _rating(self, p: dict[str, Any]) -> glicko.Rating:
        with self.store.lock:
            row = self.store.db.execute(
                "SELECT rating, deviation, volatility FROM puzzle_ratings WHERE puzzle_id = ?",
                (p["id"],),
            ).fetchone()
        # A new puzzle starts from the generator's prior at lichess's 500 and 0.09.
        return glicko.Rating(*row) if row else glicko.Rating(float(p["rating"]), 500.0, 0.09)

    def player_rating(self, player: str) -> glicko.Rating:
        with self.store.lock:
            row = self.store.db.execute(
                "SELECT rating, deviation, volatility FROM puzzle_players WHERE player = ?",
                (player,),
            ).fetchone()
        return glicko.Rating(*row) if row else glicko.Rating()

    def _attempt(self, player: str, puzzle_id: str) -> dict[str, Any]:
        with self.store.lock:
            row = self.store.db.execute(
                "SELECT history, mistakes, hinted, rated, stars FROM puzzle_attempts"
                " WHERE player = ? AND puzzle_id = ?",
                (player, puzzle_id),
            ).fetchone()
        if row is None:
            return {"history": [], "mistakes": 0, "hinted": 0, "rated": 0, "stars": 0}
        history, mistakes, hinted, rated, stars = row
        return {
            "history": json.loads(history),
            "mistakes": mistakes,
            "hinted": hinted,
            "rated": rated,
            "stars": stars,
        }

    def _save(self, player: str, puzzle_id: str, a: dict[str, Any]) -> None:
        with self.store._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO puzzle_attempts (player, puzzle_id, history, mistakes,"
                " hinted, rated, stars, touched) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    player,
                    puzzle_id,
                    json.dumps(a["history"]),
                    a["mistakes"],
                    a["hinted"],
                    a["rated"],
                    a["stars"],
                    time.time(),
                ),
            )

    def _rate(self, player: str, p: dict[str, Any], a: dict[str, Any], solved: bool) -> None:
        """Glicko-2 for the first attempt only: a solve is the player's win."""
        if a["rated"]:
            return
        a["rated"] = 1
        me, it = self.player_rating(player), self._rating(p)
        if solved:
            me, it = glicko.game(me, it)
        else:
            it, me = glicko.game(it, me)
        with self.store._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO puzzle_players VALUES (?, ?, ?, ?)",
                (player, me.rating, me.deviation, me.volatility),
            )
            db.execute(
                "INSERT INTO puzzle_ratings VALUES (?, ?, ?, ?, 1) ON CONFLICT(puzzle_id) DO"
                " UPDATE SET rating = excluded.rating, deviation = excluded.deviation,"
                " volatility = excluded.volatility, plays = plays + 1",
                (p["id"], it.rating, it.deviation, it.volatility),
            )

    # ---- the player's requests --------------------------------------------------
    def view(self, player: str, puzzle_id: str, restart: bool = False) -> dict[str, Any]:
        with self._playing:
            return self._view(player, puzzle_id, restart)

    def _view(self, player: str, puzzle_id: str, restart: bool = False) -> dict[str, Any]:
        p = self.puzzle(puzzle_id)
        a = self._attempt(player, puzzle_id)
        if restart:
            a["history"] = []
            self._save(player, puzzle_id, a)
        return self._state(player, p, a)

    def _state(self, player: str, p: dict[str, Any], a: dict[str, Any]) -> dict[str, Any]:
        pos = Position(p, a["history"])
        me = self.player_rating(player)
        return {
            "id": p["id"],
            "hands": pos.hands,
            "history": a["history"],
            "prev": pos.prev,
            "solved": pos.hands[0] == "",
            "mistakes": a["mistakes"],
            "hinted": bool(a["hinted"]),
            "stars": a["stars"],
            "rating": round(self._rating(p).rating),
            "player_rating": round(me.rating),
        }

    def hint(self, player: str, puzzle_id: str) -> dict[str, Any]:
        with self._playing:
            return self._hint(player, puzzle_id)

    def _hint(self, player: str, puzzle_id: str) -> dict[str, Any]:
        p = self.puzzle(puzzle_id)
        a = self._attempt(player, puzzle_id)
        pos = Position(p, a["history"])
        if pos.hands[0] == "":
            raise Refused(409, "this puzzle is solved: restart it to play again")
        n = len(a["history"])
        if _on_line(a["history"], p["line"]) and _playable(pos, p["line"][n][1]):
            move = p["line"][n][1]
        else:  # off the main line but still winning: the solver's first winning play
            move = RULES.solve(pos.hands, to_move=0, prev=pos.prev, prev_by=pos.prev_by).plays[0]
            move = _text(move)
        a["hinted"] = 1
        self._rate(player, p, a, solved=False)  # a hint before solving counts as a miss
        self._save(player, puzzle_id, a)
        return {"move": move, **self._state(player, p, a)}

    def move(self, player: str, puzzle_id: str, cards: Any) -> dict[str, Any]:
        with self._playing:
            return self._move(player, puzzle_id, cards)

    def _move(self, player: str, puzzle_id: str, cards: Any) -> dict[str, Any]:
        p = self.puzzle(puzzle_id)
        if not isinstance(cards, str) or not cards:
            raise Refused(400, "cards must be the cards played, as text, or 'pass'")
        a = self._attempt(player, puzzle_id)
        pos = Position(p, a["history"])
        if pos.hands[0] == "":
            raise Refused(409, "this puzzle is solved: restart it to play again")
        action = pos.legal(cards)
        after = Position(p, a["history"] + [[0, action]])
        if after.hands[0] == "":
            return self._finish(player, p, a, action)
        defence_wins, line = after.mover_wins(1)
        if defence_wins:  # wrong: nothing moves; the refutation is the defence's line
            a["mistakes"] += 1
            self._rate(player, p, a, solved=False)
            self._save(player, puzzle_id, a)
            return {
                "result": "wrong",
                "move": action,
                "refutation": line,
                **self._state(player, p, a),
            }
        n = len(a["history"])
        main = p["line"]
        if _on_line(a["history"], main) and n + 1 < len(main) and _same(main[n][1], action):
            reply = main[n + 1][1]  # the longest defence, proved by the generator
        else:  # off the main line but still winning: the longest defence here too
            reply = (
                longest_reply(RULES, after.hands, 1, after.prev, after.prev_by, p.get("forbid"))
                or line[0][1]  # over the analysis's budget: the solver's reply
            )
        a["history"] = a["history"] + [[0, action], [1, reply]]
        self._save(player, puzzle_id, a)
        return {"result": "right", "move": action, "reply": reply, **self._state(player, p, a)}

    def _finish(self, player: str, p: dict[str, Any], a: dict[str, Any], action: str) -> dict:
        a["history"] = a["history"] + [[0, action]]
        stars = 1 if a["hinted"] else 2 if a["mistakes"] else 3
        a["stars"] = max(a["stars"], stars)
        self._rate(player, p, a, solved=True)
        self._save(player, p["id"], a)
        return {"result": "solved", "move": action, "earned": stars, **self._state(player, p, a)}


def _same(a: str, b: str) -> bool:
    return Counter(a) == Counter(b)


def _on_line(history: list[list[Any]], line: list[list[Any]]) -> bool:
    """Whether `history` follows the main line so far (kickers may differ)."""
    return len(history) < len(line) and all(
        h[0] == m[0] and _same(h[1], m[1]) for h, m in zip(history, line)
    )


def _text(action: Any) -> str:
    """A solver's action as text: its cards, or 'pass'."""
    return action if isinstance(action, str) else str(action.cards)


def _playable(pos: Position, action: str) -> bool:
    """Whether the landlord can make `action` here (other kickers earlier may
    have spent its cards)."""
    try:
        pos.legal(action)
    except Refused:
        return False
    return True
