"""A table: a run of deals at one set of seats, driven only through the
public `ddz.Game` API.

The table's whole state follows from its creation spec and its log (every
accepted action, in order), so a table is rebuilt by replaying the log. A
change is made in memory first (where `Game.step` refuses an illegal action
without changing anything), then written to the store; if the write fails,
the caller rebuilds the table from the store.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Callable

import ddz
from ddz.agents import GreedyAgent, RandomAgent

from .store import Entry, StoredTable

BOTS = ("greedy", "random")
SEED_LIMIT = 2**63
#: A bound on bot steps in one request: a deal never comes near it, so
#: reaching it means something loops (say, endless redeals).
MAX_BOT_STEPS = 20_000
NEXT = "@next:"
CLOSE = "@close"


class Refused(Exception):
    """A request the table turns down; `status` is the HTTP status to answer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Request:
    """An action as a client sent it. A retry is the same key with the same
    action and cards (the reading hints are not compared)."""

    action: str
    key: str
    cards: str | None = None
    kind: str | None = None
    rank: str | None = None
    length: int | None = None

    def fits(self, m: ddz.Move) -> bool:
        return (
            self.kind in (None, m.kind)
            and self.rank in (None, m.rank)
            and self.length in (None, m.length)
        )

    def wanted(self) -> str:
        return f"kind {self.kind}, rank {self.rank}, length {self.length}"


def reading_of(action: ddz.Move | str) -> dict | None:
    """What names a play exactly in the log (its text alone may not)."""
    if not isinstance(action, ddz.Move):
        return None
    return {
        "cards": str(action.cards),
        "kind": action.kind,
        "rank": action.rank,
        "length": action.length,
    }


def _bot(kind: str, seed: int):
    return GreedyAgent() if kind == "greedy" else RandomAgent(seed)


def _next_seed(spec: dict, number: int) -> int:
    """The seed of deal `number` (0, 1, ...). A seed the client chose makes
    every deal of the table repeatable; otherwise each deal draws its own, so
    one finished deal's record tells nothing about the next."""
    if spec["seed_given"]:
        return (spec["seed"] + number) % SEED_LIMIT
    return secrets.randbelow(SEED_LIMIT)


class Table:
    def __init__(self, table_id: str, spec: dict, token_hashes: dict[str, int]) -> None:
        self.id = table_id
        self.spec = spec
        self.token_hashes = token_hashes
        self.rules = ddz.Rules(spec["preset"], **spec["options"])
        self.bots = {int(s): _bot(kind, spec["seed"] + int(s)) for s, kind in spec["bots"].items()}
        self.game = ddz.Game(self.rules, seed=spec["seed"], deal=spec["deal"])
        self.finished: list[ddz.Game] = []  # earlier deals at this table
        self._finished_scores = [0] * self.rules.players  # their scores, summed
        self.version = 0  # log entries so far
        self.closed = False
        self.keys: dict[tuple[int, str], tuple[str, str | None]] = {}
        #: Each seat's (None: the spectators') last encoded view, with its version.
        self.texts: dict[int | None, tuple[int, str]] = {}
        self._plays_at: tuple[int, dict[str, list[ddz.Move]]] = (-1, {})

    # ---- building -----------------------------------------------------------
    @classmethod
    def create(cls, table_id: str, spec: dict, token_hashes: dict[str, int]):
        """A new table, and the log of what its bots did first."""
        table = cls(table_id, spec, token_hashes)
        return table, table._run_bots(None)

    @classmethod
    def rebuild(cls, stored: StoredTable) -> Table:
        table = cls(stored.id, stored.spec, stored.token_hashes)
        for entry in stored.log:
            table._replay(entry)
        return table

    def _replay(self, e: Entry) -> None:
        if e.action.startswith(NEXT):
            self._start_next(int(e.action[len(NEXT) :]))
        elif e.action == CLOSE:
            self.closed = True
        else:
            if e.seat != self.game.to_act:
                raise ValueError(f"table {self.id}: log out of turn at version {self.version}")
            move = self._move(e.reading) if e.reading is not None else e.action
            self.game.step(move, cards=e.cards)
            if e.key is not None:
                self.keys[(e.seat, e.key)] = (e.action, e.cards)
        self._count()

    def _move(self, reading: dict) -> ddz.Move:
        """The play a log entry names by its cards and reading."""
        want = (reading["kind"], reading["rank"], reading["length"])
        for m in self.rules.classify(reading["cards"]):
            if (m.kind, m.rank, m.length) == want:
                return m
        raise ValueError(f"table {self.id}: the log names no play {reading}")

    # ---- the seats ----------------------------------------------------------
    def seat_of(self, token_digest: str) -> int | None:
        return self.token_hashes.get(token_digest)

    @property
    def seats(self) -> range:
        return range(self.rules.players)

    # ---- changes: each returns the log entries to commit -----------------------
    def act(
        self,
        seat: int,
        request: Request,
        on_step: Callable[[], None] | None = None,
    ) -> list[Entry] | None:
        """Apply `seat`'s action, then the bots' answers. None means the
        request's key was applied before (nothing changes); a refusal raises
        Refused and changes nothing."""
        done = self.keys.get((seat, request.key))
        if done is not None:
            if done != (request.action, request.cards):
                raise Refused(409, f"key {request.key!r} was already used for another action")
            return None
        self._check_open()
        if self.game.phase == "over":
            raise Refused(409, "the deal is over: POST /tables/{id}/next deals again")
        if seat != self.game.to_act:
            raise Refused(409, f"not your turn: seat {self.game.to_act} is to act")
        action = self._resolve(request)
        try:
            self.game.step(action, cards=request.cards)
        except (ValueError, TypeError) as e:  # IllegalAction is a ValueError
            raise Refused(409, f"illegal action {request.action!r}: {e}") from None
        self.keys[(seat, request.key)] = (request.action, request.cards)
        self._count()
        entry = Entry(seat, request.action, reading_of(action), request.cards, request.key)
        if on_step:
            on_step()
        return [entry, *self._run_bots(on_step)]

    def _resolve(self, request: Request) -> ddz.Move | str:
        """The legal play a request's text names: the text itself when no
        legal action prints as it (Game.step reads suited cards and the like),
        else the one legal reading that matches the request's kind, rank and
        length, given or not."""
        named = self._plays().get(request.action)
        if not named:
            return request.action  # a decision, suited cards, or illegal: Game.step judges
        fits = [m for m in named if request.fits(m)]
        if len(fits) == 1:
            return fits[0]
        if not fits:
            raise Refused(409, f"no legal reading of {request.action!r} is {request.wanted()}")
        readings = ", ".join(f"{m.kind} rank {m.rank} length {m.length}" for m in fits)
        raise Refused(
            409,
            f"{request.action!r} has several legal readings ({readings}): "
            "send kind, rank and length too (the view's readings list them)",
        )

    def readings(self) -> dict[str, list[dict]]:
        """The legal actions that print alike, with what tells them apart."""
        return {
            text: [{"kind": m.kind, "rank": m.rank, "length": m.length} for m in moves]
            for text, moves in self._plays().items()
            if len(moves) > 1
        }

    def _plays(self) -> dict[str, list[ddz.Move]]:
        """The legal plays by their text, listed once per version: the view
        that shows a seat its turn and the action it sends next share them."""
        version, plays = self._plays_at
        if version != self.version:
            plays = {}
            for a in self.game.legal_actions():
                if isinstance(a, ddz.Move):
                    plays.setdefault(str(a), []).append(a)
            self._plays_at = (self.version, plays)
        return plays

    def next_deal(self, on_step: Callable[[], None] | None = None) -> list[Entry]:
        self._check_open()
        if self.game.phase != "over":
            raise Refused(409, "the deal is not over yet")
        seed = _next_seed(self.spec, len(self.finished) + 1)
        self._start_next(seed)
        self._count()
        if on_step:
            on_step()
        return [Entry(None, f"{NEXT}{seed}")] + self._run_bots(on_step)

    def close(self) -> list[Entry]:
        self._check_open()
        self.closed = True
        self._count()
        return [Entry(None, CLOSE)]

    def _check_open(self) -> None:
        if self.closed:
            raise Refused(409, "the table is closed")

    def _start_next(self, seed: int) -> None:
        result = self.game.result
        if result is not None:
            self._finished_scores = [t + s for t, s in zip(self._finished_scores, result["scores"])]
        self.finished.append(self.game)
        self.game = ddz.Game(self.rules, seed=seed)

    def _count(self) -> None:
        self.version += 1

    def _run_bots(self, on_step: Callable[[], None] | None) -> list[Entry]:
        entries: list[Entry] = []
        game = self.game
        while game.phase != "over" and game.to_act in self.bots:
            if len(entries) >= MAX_BOT_STEPS:
                raise RuntimeError(f"table {self.id}: bots took {MAX_BOT_STEPS} steps")
            seat = game.to_act
            choice = self.bots[seat].act(game.observation(seat), game.legal_actions())
            game.step(choice)
            self._count()
            entries.append(Entry(seat, str(choice), reading_of(choice)))
            if on_step:
                on_step()
        return entries

    # ---- what the table shows ---------------------------------------------------
    def deals(self) -> list[ddz.Game]:
        return [*self.finished, self.game]

    def running_scores(self) -> list[int]:
        """Every deal's scores summed (the finished deals' are kept: a table
        may play thousands of deals, and every view carries this)."""
        result = self.game.result
        if result is None:
            return list(self._finished_scores)
        return [t + s for t, s in zip(self._finished_scores, result["scores"])]

    def record(self, number: int | None) -> str:
        """The record of deal `number` (default: the current one), once it is over."""
        deals = self.deals()
        if number is None:
            number = len(deals) - 1
        if not 0 <= number < len(deals):
            raise Refused(404, f"table {self.id} has deals 0..{len(deals) - 1}, not {number}")
        game = deals[number]
        if game.phase != "over":
            raise Refused(403, f"deal {number} is not over: its record stays secret until then")
        return game.to_json()
