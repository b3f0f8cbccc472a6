"""The server's tables: creating them, changing them, reading them, closing
idle ones, and writing every change to the store before anyone is told.

The engine's work (rules, bots, views, records, the store's commits) runs
in a pool of worker threads, so the loop stays free to answer `/healthz`
and every other table while one request thinks. Only a table whose every
request is small work (ServedTable.inline: cheap bots, views of a few ms) is
played on the loop itself, where a hand-off to a thread would cost more
than the request.
Each open table has an `asyncio.Lock`: its changes and reads take turns,
in the order they came, one worker thread at a time; what lives on the
loop (the open tables, the subscribers, the counts per client) is changed
only on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import secrets
import time
from collections import Counter
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Optional, TypeVar

import ddz

from .auth import new_table_id, new_token, token_hash
from .bots import new_bot_secret
from .costs import check_cost
from .hub import Hub, Pushes, Subscriber, views_for
from .limits import Limits
from .replies import Refused
from .room import RoomOptions
from .seeds import marked, table_key
from .store import Entry, FinishedDeal, Store
from .tables import SEED_LIMIT, Request, ServedTable
from .views import summary, view_message, view_text

log = logging.getLogger("ddz.serve")
#: Threads for the bots' thinking (paced steps, timeouts, tables without a
#: person): its own pool, so no search delays a person's action elsewhere.
BOT_THREADS = 2
#: Seconds a turn clock that ran out while the server was down gets after a
#: restart (at most the turn's own seconds).
RESTART_GRACE = 5.0
#: The jitter of a paced bot's delay, as a fraction of bot_delay_ms either way.
DELAY_JITTER = 0.12

#: Input errors the engine may raise on a bad preset, option or deal.
BAD_INPUT = (ValueError, TypeError, KeyError, IndexError, NotImplementedError, OverflowError)
#: A seat key as the API takes it: "0", "1", ... in ASCII decimal, no leading zero.
SEAT_KEY = re.compile(r"0|[1-9][0-9]{0,2}")

T = TypeVar("T")
#: A change of a table: (log entries or None for a retried key, the deal it finished).
Change = Callable[
    [ServedTable, Callable[[], None]], tuple[Optional[list[Entry]], Optional[FinishedDeal]]
]


class Lobby:
    def __init__(self, store: Store, hub: Hub, limits: Limits) -> None:
        self.store = store
        self.hub = hub
        self.limits = limits
        self.executor = ThreadPoolExecutor(limits.engine_threads, thread_name_prefix="ddz-engine")
        self.bot_executor = ThreadPoolExecutor(BOT_THREADS, thread_name_prefix="ddz-bots")
        #: One timer at most per open table (a bot's next step or its clock's
        #: deadline), on the event loop's own timer heap: no table polls.
        self._timers: dict[str, tuple[int, asyncio.TimerHandle]] = {}
        self._ticks: set[asyncio.Future] = set()
        self._closing = False
        self._bot_turns: asyncio.Semaphore | None = None
        self.open: dict[str, ServedTable] = {}
        self.by_client: Counter[str] = Counter()  # open tables per creator
        self._making: Counter[str] = Counter()  # tables being made, per creator
        self._locks: dict[str, asyncio.Lock] = {}
        # Tables idle past the timeout while the server was down close at once.
        store.expire(time.time() - limits.idle_timeout)
        for table_id in store.open_ids():
            self._add(self._load(table_id))

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` in a worker thread."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, work, *args)

    async def run_for(
        self, table: ServedTable, work: Callable[..., T], *args: Any, bots: bool = False
    ) -> T:
        """`work(*args)` for `table`: on the loop if the table's work is small
        (ServedTable.inline), else in a worker thread: the bots' pool if the
        work includes bots' decisions (`bots`), else the engine's."""
        if table.inline:
            return work(*args)
        pool = self.bot_executor if bots else self.executor
        return await asyncio.get_running_loop().run_in_executor(pool, work, *args)

    def start(self) -> None:
        """On the loop, at start: every open table's timer (a paced bot's
        step, or its clock, which resumes where the store left it)."""
        now_ms = int(time.time() * 1000)
        for table in self.open.values():
            clock = table.clock
            if clock is not None and clock["deadline_ms"] < now_ms:
                grace = min(RESTART_GRACE, clock["seconds"])
                table.clock = {**clock, "deadline_ms": now_ms + int(grace * 1000)}
            self._schedule(table)

    def shutdown(self) -> None:
        # No server move starts after this: its timers and the moves not yet begun are dropped.
        self._closing = True
        for _, handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for tick in list(self._ticks):
            tick.cancel()
        self.bot_executor.shutdown(wait=True)
        self.executor.shutdown(wait=True)
        self.store.close()

    # ---- finding and reading -------------------------------------------------
    def _load(self, table_id: str) -> ServedTable:
        """A table rebuilt from the store (in a worker thread, or at start)."""
        stored = self.store.load(table_id)
        if stored is None:
            raise Refused(404, f"no table {table_id!r}")
        if "bot_secret" not in stored.spec:  # a table made before bots had secrets
            stored.spec["bot_secret"] = new_bot_secret()
            self.store.set_spec(table_id, stored.spec)
        if stored.spec["seed_given"] and "deal_key" not in stored.spec:  # made before keyed seeds
            stored.spec["deal_key"] = table_key(self.store.secret, stored.spec["seed"])
            self.store.set_spec(table_id, stored.spec)
        table = ServedTable.rebuild(stored)
        if table.backfill:
            self.store.add_deals(table_id, table.backfill)
            table.backfill = []
        table.shown = summary(table)
        return table

    async def find(self, table_id: str) -> ServedTable:
        """An open table, or a closed one rebuilt from the store to be read."""
        table = self.open.get(table_id)
        return table if table is not None else await self.run(self._load, table_id)

    async def read(self, found: ServedTable, read: Callable[[ServedTable], T]) -> T:
        """`read(table)` for a table `find` gave, after its pending changes."""
        if found.id not in self.open:  # closed: nothing changes it
            return await self.run(read, found)
        async with self._lock(found.id):
            table = self.open.get(found.id)
            if table is None:  # closed while waiting
                return await self.run(lambda: read(self._load(found.id)))
            return await self.run_for(table, read, table)

    async def subscribe(self, found: ServedTable, sub: Subscriber) -> None:
        """Queue `sub` the current view of a table `find` gave, then every
        push; a closed table's subscriber gets the view and is hung up."""
        if found.id in self.open:
            async with self._lock(found.id):
                table = self.open.get(found.id)
                if table is not None:
                    self.hub.send([(sub, await self.run_for(table, view_message, table, sub.seat))])
                    self.hub.join(table.id, sub)
                    return
            found = await self.run(self._load, found.id)  # closed while waiting
        text = await self.run(view_message, found, sub.seat)
        self.hub.send([(sub, text)])
        sub.queue.put_nowait(None)  # nothing will change: hang up after the view

    def record(self, table_id: str, deal: int | None) -> Callable[[ServedTable], str]:
        """A deal's record as served: marked ``"seeded"`` (seeds.marked)."""

        def read(table: ServedTable) -> str:
            text = table.record(deal, lambda n: self.store.deal_record(table_id, n))
            return marked(text, table.spec["seed_given"])

        return read

    # ---- creating -----------------------------------------------------------
    async def create(
        self,
        preset: str,
        options: dict,
        seed: int | None,
        deal: dict | None,
        bots: Mapping[str, str],
        client: str,
        room: dict | None = None,
    ) -> tuple[ServedTable, dict[str, str], str]:
        """A new table made by `client`: the table, its seat tokens and the owner's token."""
        limits = self.limits
        if len(self.open) + sum(self._making.values()) >= limits.max_tables:
            raise Refused(
                429,
                f"the server holds its limit of {limits.max_tables} open tables: close one first "
                f"(tables close after {limits.idle_timeout:g} s without a change)",
            )
        if self.by_client[client] + self._making[client] >= limits.max_tables_per_client:
            raise Refused(
                429,
                f"{client} holds its limit of {limits.max_tables_per_client} open tables "
                "per client: close one first (POST /tables/{id}/close with its owner token)",
            )
        self._making[client] += 1
        try:
            # A table whose bots play at once (no person, or no delay) is made
            # in the bots' pool: its bots may play a whole deal first.
            first = _bots_play_first(preset, options, bots, room)
            pool = self.bot_executor if first else self.executor
            made = await asyncio.get_running_loop().run_in_executor(
                pool, self._make, preset, options, seed, deal, bots, client, room
            )
        finally:
            self._making[client] -= 1
            if not self._making[client]:
                del self._making[client]
        self._add(made[0])
        self._schedule(made[0])
        return made

    def _make(self, preset, options, seed, deal, bots, client, room=None):
        try:
            rules = ddz.Rules(preset, **options)
        except BAD_INPUT as e:
            raise Refused(422, f"bad preset or options: {e}") from None
        # The cheap checks first: a bad seat is refused before the cost search runs.
        for key in bots:
            if not SEAT_KEY.fullmatch(key) or int(key) >= rules.players:
                raise Refused(
                    422,
                    f"bots: {key!r} is not a seat of {preset}: the seats are "
                    f"'0' to '{rules.players - 1}', in decimal with no leading zero",
                )
        check_cost(rules)
        spec = {
            "preset": preset,
            "options": options,
            "seed": seed if seed is not None else secrets.randbelow(SEED_LIMIT),
            "seed_given": seed is not None,
            "deal": deal,
            "bots": dict(bots),
            "bot_secret": new_bot_secret(),
            # A chosen seed deals the first deal; the later ones are keyed (seeds.py).
            **({"deal_key": table_key(self.store.secret, seed)} if seed is not None else {}),
            "room": RoomOptions(**(room or {})).to_spec(),
        }
        tokens = {str(s): new_token() for s in range(rules.players) if str(s) not in bots}
        hashes = {token_hash(t): int(s) for s, t in tokens.items()}
        owner = new_token()
        table_id = new_table_id()
        who = {"owner_hash": token_hash(owner), "creator": client}
        try:
            table, entries = ServedTable.create(table_id, spec, hashes, **who)
        except BAD_INPUT as e:
            raise Refused(422, f"bad deal or options: {e}") from None
        seats = {seat: h for h, seat in hashes.items()}
        self.store.create(
            table_id, spec, seats, who["owner_hash"], client, entries, table.room_state()
        )
        table.shown = summary(table)
        return table, tokens, owner

    def _add(self, table: ServedTable) -> None:
        self.open[table.id] = table
        self.by_client[table.creator or ""] += 1

    def _remove(self, table_id: str) -> None:
        table = self.open.pop(table_id, None)
        self._locks.pop(table_id, None)
        if table is not None:
            self.by_client[table.creator or ""] -= 1
            if not self.by_client[table.creator or ""]:
                del self.by_client[table.creator or ""]

    # ---- changing -------------------------------------------------------------
    async def act(self, table_id: str, seat: int, request: Request) -> str:
        """Apply and commit; returns the seat's new view, as JSON."""

        def change(table: ServedTable, step):
            used = lambda s, key: self.store.key_used(table_id, s, key)  # noqa: E731
            return table.act(seat, request, used, step), None

        return await self._change(table_id, change, lambda t: view_text(t, seat), bots=None)

    async def next_deal(self, table_id: str, seat: int) -> str:
        return await self._change(
            table_id,
            lambda table, step: table.next_deal(step),
            lambda t: view_text(t, seat),
            bots=None,
        )

    async def set_autoplay(self, table_id: str, seat: int, on: bool) -> str:
        """托管 on or off for `seat`; returns the seat's view, as JSON."""
        table = self.open.get(table_id)
        return await self._change(
            table_id,
            lambda table, step: (table.set_autoplay(seat, on, step), None),
            lambda t: view_text(t, seat),
            bots=on and table is not None and not table.paced,
        )

    # ---- the server's own moves: paced bots and the turn clock ----------------------
    def _schedule(self, table: ServedTable) -> None:
        """(Re)arm `table`'s one timer: its next bot step, `bot_delay_ms`
        (jittered) from now, or its clock's deadline; none if neither."""
        old = self._timers.get(table.id)
        live = not table.closed and table.id in self.open
        if old is not None:
            if live and old[0] == table.version:
                return  # unchanged (a refused request): the timer stands, its delay runs on
            old[1].cancel()
            del self._timers[table.id]
        if not live or self._closing:
            return
        loop = asyncio.get_running_loop()
        if table.server_turn():
            delay = 0.0
            if table.paced:
                jitter = random.uniform(1 - DELAY_JITTER, 1 + DELAY_JITTER)
                delay = table.room.bot_delay_ms / 1000 * jitter
        elif table.clock is not None:
            delay = table.clock["deadline_ms"] / 1000 - time.time()
        else:
            return
        when = loop.time() + max(0.0, delay)
        handle = loop.call_at(when, self._wake, table.id, table.version)
        self._timers[table.id] = (table.version, handle)

    def _wake(self, table_id: str, version: int) -> None:
        self._timers.pop(table_id, None)
        if self._closing:
            return
        tick = asyncio.ensure_future(self._tick(table_id, version))
        self._ticks.add(tick)
        tick.add_done_callback(self._ticks.discard)

    async def _tick(self, table_id: str, version: int) -> None:
        """A timer fired: the bot's step, or the clock's timeout, if the
        table is still at the version the timer was set at."""

        def change(table: ServedTable, step):
            if table.version != version:
                return None, None  # changed meanwhile: that change set a new timer
            if table.server_turn():
                return table.bot_step(step), None
            return table.timeout(int(time.time() * 1000), step), None

        table = self.open.get(table_id)
        if table is None:
            return
        # A move that thinks in the bots' pool waits for its turn there before
        # it takes the table's lock, so a backlog of bot work holds no table
        # (a person's view, say) locked while it waits.
        gate = contextlib.nullcontext() if table.inline else self._bot_gate()
        try:
            async with gate:
                await self._change(table_id, change, lambda t: None, bots=True)
        except Refused:
            pass  # closed meanwhile
        except Exception:
            log.exception("table %s: the server's own move failed", table_id)

    def _bot_gate(self) -> asyncio.Semaphore:
        if self._bot_turns is None:  # made on the loop that uses it
            self._bot_turns = asyncio.Semaphore(BOT_THREADS)
        return self._bot_turns

    async def rekey(self, table: ServedTable, seat: int) -> str:
        """A new token for `seat` of an open table, committed; the seat's old
        token opens nothing from now on, and the WebSockets opened with it
        are closed (4403). Taking an offered seat, accepting an invitation
        and a person who fears their token leaked all come here."""
        async with self._lock(table.id):
            table = self.open.get(table.id) or table
            if table.closed or table.id not in self.open:
                raise Refused(409, "the table is closed")
            token = new_token()
            digest = token_hash(token)
            await self.run(self.store.rekey, table.id, seat, digest)
            for old in [h for h, s in table.token_hashes.items() if s == seat]:
                del table.token_hashes[old]
            table.token_hashes[digest] = seat
            self.hub.drop_seat(table.id, seat, "this seat's token was replaced by a new one")
            return token

    async def close(self, table_id: str, idle_before: float | None = None) -> dict | None:
        """Close the table (only if its last change is older than `idle_before`,
        when given); its summary, or None if it was not idle."""
        return await self._change(
            table_id, lambda table, step: (table.close(), None), summary, True, idle_before
        )

    async def expire_idle(self) -> None:
        before = time.time() - self.limits.idle_timeout
        for table_id, table in list(self.open.items()):
            if table.touched < before:
                try:
                    await self.close(table_id, idle_before=before)
                except Refused:
                    pass  # closed meanwhile

    async def _change(
        self,
        table_id: str,
        change: Change,
        reply: Callable[[ServedTable], Any],
        close: bool = False,
        idle_before: float | None = None,
        bots: bool | None = False,
    ) -> Any:
        """`bots`: does the change include bots' decisions (None: if the
        table has bots or seats in 托管 and is not paced)?"""
        if table_id not in self.open:
            raise Refused(409, "the table is closed")
        async with self._lock(table_id):
            table = self.open.get(table_id)
            if table is None:
                raise Refused(409, "the table is closed")
            if idle_before is not None and table.touched >= idle_before:
                return None
            subs = self.hub.subscribers(table_id)
            if bots is None:  # the bots answer inside this change unless paced
                thinks = not table.paced and bool(table.bots or table.autoplay)
            else:
                thinks = bots
            try:
                pushes, answer = await self.run_for(
                    table, self._apply, table, change, reply, subs, close, bots=thinks
                )
            finally:
                now = self.open.get(table_id)  # rebuilt from the store if the change failed
                if close:
                    self._remove(table_id)
                if now is not None:
                    self._schedule(now)
            self.hub.send(pushes)
            if close:
                self.hub.close_table(table_id)
            return answer

    def _apply(
        self,
        table: ServedTable,
        change: Change,
        reply: Callable[[ServedTable], Any],
        subs: list[Subscriber],
        close: bool,
    ) -> tuple[Pushes, Any]:
        """Make the change and commit it (in a worker thread): the pushes to
        send and the reply. A change that fails puts the table back as the
        store has it."""
        pushes: Pushes = []

        def step() -> None:
            if subs:
                pushes.extend(views_for(table, subs))

        start = table.version
        try:
            entries, finished = change(table, step)
        except Refused:
            raise  # refused before anything changed
        except BaseException:
            self.open[table.id] = self._load(table.id)
            raise
        if entries is None:
            return [], reply(table)  # a retried key: already applied and committed
        try:
            self.store.append(
                table.id, start, entries, close=close, finished=finished, room=table.room_state()
            )
        except BaseException:
            # Not committed: nobody was told, and the table goes back to the store's state.
            self.open[table.id] = self._load(table.id)
            raise
        table.touched = time.time()
        table.shown = summary(table)
        if close:  # the last push says the table is closed
            pushes = views_for(table, subs)
        return pushes, reply(table)

    def _lock(self, table_id: str) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock


def _bots_play_first(
    preset: str, options: dict, bots: Mapping[str, str], room: dict | None
) -> bool:
    """May a new table's bots play before its first reply (no person, or no delay)?"""
    if not bots:
        return False
    if RoomOptions(**(room or {})).bot_delay_ms == 0:
        return True
    try:
        return len(bots) >= ddz.Rules(preset, **options).players
    except BAD_INPUT:
        return False  # _make says what is wrong


async def sweep(lobby: Lobby) -> None:
    """Close idle tables, for as long as the server runs."""
    while True:
        await asyncio.sleep(lobby.limits.sweep_seconds)
        await lobby.expire_idle()
