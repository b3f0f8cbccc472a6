"""A table: a run of deals at one set of seats, driven only through the
public `ddz.Game` API.

The table's whole state follows from its creation spec and its log (every
accepted action, in order), so a table is rebuilt by replaying the log;
finished deals are kept in the store as records, and only the current deal
is replayed. A change is made in memory first (where `Game.step` refuses an
illegal action without changing anything), then written to the store; if
the write fails, the caller rebuilds the table from the store.

A table is not thread-safe: the lobby changes and reads each one under its
own lock, in one worker thread at a time.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Callable, Optional

import ddz

from .bots import bot_key, decide, decision_seed
from .costs import runs_inline
from .replies import Refused
from .room import RoomOptions, autoplay_kind
from .seeds import deal_seed
from .store import Entry, FinishedDeal, StoredTable

SEED_LIMIT = 2**63
#: A bound on bot steps in one request: a deal never comes near it, so
#: reaching it means something loops (say, endless redeals).
MAX_BOT_STEPS = 20_000
NEXT = "@next:"
CLOSE = "@close"
#: '@auto:S:1' / '@auto:S:0': seat S went into or out of 托管. (A timeout's
#: action is the seat's entry without a key; the timeouts in a row are kept
#: in the store's room state, ServedTable.room_state.)
AUTO = "@auto:"

#: Where a seat's used keys are looked up: (seat, key) -> (action, cards) or None.
KeyLookup = Callable[[int, str], Optional[tuple[str, Optional[str]]]]


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


def _next_seed(spec: dict, number: int) -> int:
    """The seed of deal `number` (1, 2, ...). A seed the client chose makes
    every deal of the table repeatable on this server, each drawn by a keyed
    hash (seeds.py); otherwise each deal draws its own. Either way one
    finished deal's record tells nothing about the next."""
    if spec["seed_given"]:
        return deal_seed(spec["deal_key"], number)
    return secrets.randbelow(SEED_LIMIT)


class ServedTable:
    def __init__(
        self,
        table_id: str,
        spec: dict,
        token_hashes: dict[str, int],
        owner_hash: str | None = None,
        creator: str | None = None,
    ) -> None:
        self.id = table_id
        self.spec = spec
        self.token_hashes = token_hashes
        self.owner_hash = owner_hash
        self.creator = creator
        self.rules = ddz.Rules(spec["preset"], **spec["options"])
        self.bots = {int(s): kind for s, kind in spec["bots"].items()}
        self.room = RoomOptions.of(spec)
        self.room_spec = self.room.to_spec()  # as summaries show it, made once
        #: Seats in 托管, and each person's timeouts in a row.
        self.autoplay: set[int] = set()
        self.misses: dict[int, int] = {}
        #: The running turn clock: {"seat", "deadline_ms", "seconds"}, or None.
        self.clock: dict | None = None
        #: Small work only: the lobby runs its requests on the event loop.
        self.inline = runs_inline(self.rules, self.bots.values())
        self.bot_key = bot_key(spec)
        self.game = ddz.Game(self.rules, seed=spec["seed"], deal=spec["deal"])
        self.deal = 0  # the current deal's number
        self.steps = 0  # actions taken in the current deal
        self._finished_scores = [0] * self.rules.players  # the finished deals', summed
        self.version = 0  # log entries so far
        self.closed = False
        self.touched = time.time()  # the last change (idle tables expire)
        #: Each seat's (None: the spectators') last encoded view, with its version.
        self.texts: dict[int | None, tuple[int, str]] = {}
        #: The public summary at the last change (views.summary), read without the lock.
        self.shown: dict = {}
        self._plays_at: tuple[int, dict[str, list[ddz.Move]]] = (-1, {})
        #: Deals a rebuild found finished in a log the store holds no records of.
        self.backfill: list[FinishedDeal] = []

    # ---- building -----------------------------------------------------------
    @classmethod
    def create(cls, table_id: str, spec: dict, token_hashes: dict[str, int], **who):
        """A new table, and the log of what its bots did first."""
        table = cls(table_id, spec, token_hashes, **who)
        return table, table._answer(None)

    @classmethod
    def rebuild(cls, stored: StoredTable) -> ServedTable:
        table = cls(stored.id, stored.spec, stored.token_hashes, stored.owner_hash, stored.creator)
        table.touched = stored.touched
        table.version = stored.start
        log = stored.log
        if stored.start > 0:  # resume at the current deal: its '@next' entry comes first
            table.deal = stored.deals_done - 1
            table._finished_scores = list(stored.scores or table._finished_scores)
        for entry in log:
            table._replay(entry, resumed=stored.start > 0 and entry is log[0])
        if stored.room is not None:  # kept with the last commit: it spans the deals
            table.autoplay = set(stored.room.get("autoplay", []))
            table.misses = {int(s): n for s, n in stored.room.get("misses", {}).items()}
            # A table closed by the idle sweep at start kept its last clock: it runs no more.
            table.clock = None if table.closed else stored.room.get("clock")
        return table

    def _replay(self, e: Entry, resumed: bool = False) -> None:
        if e.action.startswith(NEXT):
            seed = int(e.action[len(NEXT) :])
            if resumed:  # the finished deals' scores came from the store
                self._begin(self.deal + 1, seed)
            else:
                if self.game.phase == "over":  # a file written before deal records
                    self.backfill.append(self.finished_deal())
                self._start_next(seed)
        elif e.action == CLOSE:
            self.closed = True
        elif e.action.startswith(AUTO):
            who, on = e.action[len(AUTO) :].split(":")
            self._set_autoplay(int(who), on == "1")
        else:
            if e.seat != self.game.to_act:
                raise ValueError(f"table {self.id}: log out of turn at version {self.version}")
            move = self._move(e.reading) if e.reading is not None else e.action
            self._step(move, e.cards)
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

    def may_close(self, token_digest: str) -> bool:
        """A seat's token or the creator's may close the table."""
        return token_digest == self.owner_hash or token_digest in self.token_hashes

    @property
    def seats(self) -> range:
        return range(self.rules.players)

    # ---- changes: each returns the log entries to commit -----------------------
    def act(
        self,
        seat: int,
        request: Request,
        used: KeyLookup,
        on_step: Callable[[], None] | None = None,
    ) -> list[Entry] | None:
        """Apply `seat`'s action, then the bots' answers. None means the
        request's key was applied before (nothing changes); a refusal raises
        Refused and changes nothing."""
        done = used(seat, request.key)
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
            self._step(action, request.cards)
        except (ValueError, TypeError) as e:  # IllegalAction is a ValueError
            raise Refused(409, f"illegal action {request.action!r}: {e}") from None
        self._count()
        entry = Entry(seat, request.action, reading_of(action), request.cards, request.key)
        self.misses.pop(seat, None)  # the person is here: no 托管, no timeouts in a row
        self.autoplay.discard(seat)
        self._arm_clock()
        if on_step:
            on_step()
        return [entry, *self._answer(on_step)]

    def _step(self, action: ddz.Move | str, cards: str | None = None) -> None:
        self.game.step(action, cards=cards)
        self.steps += 1

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

    def next_deal(
        self, on_step: Callable[[], None] | None = None
    ) -> tuple[list[Entry], FinishedDeal]:
        """Deal again: the log entries, and the finished deal for the store."""
        self._check_open()
        if self.game.phase != "over":
            raise Refused(409, "the deal is not over yet")
        finished = self.finished_deal()
        seed = _next_seed(self.spec, self.deal + 1)
        self._start_next(seed)
        self._count()
        self._arm_clock()
        if on_step:
            on_step()
        return [Entry(None, f"{NEXT}{seed}")] + self._answer(on_step), finished

    def finished_deal(self) -> FinishedDeal:
        """The current deal, once over, as the store keeps it."""
        result = self.game.result
        assert result is not None
        return FinishedDeal(self.deal, self.game.to_json(), list(result["scores"]))

    def close(self) -> list[Entry]:
        self._check_open()
        self.closed = True
        self.clock = None
        self._count()
        return [Entry(None, CLOSE)]

    # ---- the game room: pacing, the clock, 托管 (room.py) ------------------------
    @property
    def paced(self) -> bool:
        """Do the bots act one at a time, apart, each its own change? (A
        table with a person and a delay; others answer at once.)"""
        return self.room.bot_delay_ms > 0 and len(self.bots) < self.rules.players

    def server_turn(self) -> bool:
        """Is it a bot's turn, or a seat's in 托管?"""
        return self._server_kind() is not None

    def _server_kind(self) -> str | None:
        if self.closed or self.game.phase == "over":
            return None
        seat = self.game.to_act
        if seat in self.bots:
            return self.bots[seat]
        if seat in self.autoplay:
            return autoplay_kind(self.room, self.bots)
        return None

    def _answer(self, on_step: Callable[[], None] | None) -> list[Entry]:
        """The bots' answers now, unless they are paced (the lobby then plays them one by one)."""
        if self.paced:
            self._arm_clock()
            return []
        return self._run_bots(on_step)

    def bot_step(self, on_step: Callable[[], None] | None = None) -> list[Entry] | None:
        """One paced bot action (every bot's, at a table not paced), then the
        clock; None if it is no bot's turn."""
        kind = self._server_kind()
        if kind is None:
            return None
        if not self.paced:
            return self._run_bots(on_step)
        entry = self._bot_act(kind)
        self._arm_clock()
        if on_step:
            on_step()
        return [entry]

    def timeout(self, now_ms: int, on_step: Callable[[], None] | None = None) -> list[Entry] | None:
        """The clock ran out (None if it has not, or runs no more): the server
        passes for the seat when it may, else plays its 托管 bot's choice."""
        clock = self.clock
        if clock is None or clock["deadline_ms"] > now_ms or self.game.phase == "over":
            return None
        seat = clock["seat"]
        if seat != self.game.to_act:  # a stale clock: nothing to do but drop it
            self._arm_clock()
            return None
        # The server's action for a person's seat is the one entry of that
        # seat without a key (a person's own always has one).
        self.misses[seat] = self.misses.get(seat, 0) + 1
        if "pass" in self.game.legal_actions():
            self._step("pass")
            self._count()
            entries = [Entry(seat, "pass")]
        else:
            entries = [self._bot_act(autoplay_kind(self.room, self.bots))]
        self._arm_clock()
        if on_step:  # each version its own push, as every change's
            on_step()
        after = self.room.autoplay_after
        if after and self.misses[seat] >= after and seat not in self.autoplay:
            entries.append(self._autoplay_entry(seat, True))
            self._arm_clock()
            if on_step:
                on_step()
        return entries + self._answer(on_step)

    def set_autoplay(
        self, seat: int, on: bool, on_step: Callable[[], None] | None = None
    ) -> list[Entry] | None:
        """A person turns 托管 on or off for their seat (None: no change)."""
        self._check_open()
        if (seat in self.autoplay) == on:
            return None
        entries = [self._autoplay_entry(seat, on)]
        self._arm_clock()
        if on_step:
            on_step()
        return entries + self._answer(on_step)

    def _autoplay_entry(self, seat: int, on: bool) -> Entry:
        self._set_autoplay(seat, on)
        self._count()
        return Entry(None, f"{AUTO}{seat}:{int(on)}")

    def _set_autoplay(self, seat: int, on: bool) -> None:
        if on:
            self.autoplay.add(seat)
        else:
            self.autoplay.discard(seat)
            self.misses.pop(seat, None)

    def _arm_clock(self) -> None:
        """Start the clock of the person to act now (none for a bot, a seat
        in 托管, a deal over or no clock)."""
        self.clock = None
        if self.closed or self.game.phase == "over" or self.server_turn():
            return
        seconds = self.room.seconds_for(self.game)
        if seconds > 0:
            deadline = int(time.time() * 1000 + seconds * 1000)
            self.clock = {"seat": self.game.to_act, "deadline_ms": deadline, "seconds": seconds}

    def room_state(self) -> dict:
        """What the store keeps of the room beside the log (it spans deals and restarts)."""
        return {
            "clock": self.clock,
            "autoplay": sorted(self.autoplay),
            "misses": {str(s): n for s, n in self.misses.items()},
        }

    def _check_open(self) -> None:
        if self.closed:
            raise Refused(409, "the table is closed")

    def _start_next(self, seed: int) -> None:
        result = self.game.result
        if result is not None:
            self._finished_scores = [t + s for t, s in zip(self._finished_scores, result["scores"])]
        self._begin(self.deal + 1, seed)

    def _begin(self, number: int, seed: int) -> None:
        self.game = ddz.Game(self.rules, seed=seed)
        self.deal = number
        self.steps = 0

    def _count(self) -> None:
        self.version += 1

    def _run_bots(self, on_step: Callable[[], None] | None) -> list[Entry]:
        """Every bot's (and 托管 seat's) action until a person is to act."""
        entries: list[Entry] = []
        while (kind := self._server_kind()) is not None:
            if len(entries) >= MAX_BOT_STEPS:
                raise RuntimeError(f"table {self.id}: bots took {MAX_BOT_STEPS} steps")
            entries.append(self._bot_act(kind))
            if on_step:
                on_step()
        self._arm_clock()
        return entries

    def _bot_act(self, kind: str) -> Entry:
        game = self.game
        seat = game.to_act
        seed = decision_seed(self.bot_key, self.deal, self.steps, seat)
        choice = decide(kind, self.rules, game, seed)
        self._step(choice)
        self._count()
        return Entry(seat, str(choice), reading_of(choice))

    # ---- what the table shows ---------------------------------------------------
    def running_scores(self) -> list[int]:
        """Every deal's scores summed (the finished deals' are kept summed: a
        table may play thousands of deals, and every view carries this)."""
        result = self.game.result
        if result is None:
            return list(self._finished_scores)
        return [t + s for t, s in zip(self._finished_scores, result["scores"])]

    def record(self, number: int | None, stored: Callable[[int], str | None]) -> str:
        """The record of deal `number` (default: the current one), once it is
        over; `stored` reads a finished deal's record from the store."""
        if number is None:
            number = self.deal
        if not 0 <= number <= self.deal:
            raise Refused(404, f"table {self.id} has deals 0..{self.deal}, not {number}")
        if number < self.deal:
            text = stored(number)
            if text is None:
                raise Refused(404, f"table {self.id} keeps no record of deal {number}")
            return text
        if self.game.phase != "over":
            raise Refused(403, f"deal {number} is not over: its record stays secret until then")
        return self.game.to_json()
