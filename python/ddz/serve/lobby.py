"""The server's tables: creating them, changing them, and writing every
change to the store before anyone is told of it."""

from __future__ import annotations

import secrets
from collections.abc import Mapping

import ddz

from .auth import new_table_id, new_token, token_hash
from .hub import Hub
from .store import Store
from .tables import SEED_LIMIT, Refused, Request, Table
from .views import view_text

#: Input errors the engine may raise on a bad preset, option or deal.
BAD_INPUT = (ValueError, TypeError, KeyError, IndexError, NotImplementedError, OverflowError)


class Lobby:
    def __init__(self, store: Store, hub: Hub, max_tables: int) -> None:
        self.store = store
        self.hub = hub
        self.max_tables = max_tables
        self.open: dict[str, Table] = {}
        for table_id in store.open_ids():
            self.open[table_id] = self._rebuild(table_id)

    def _rebuild(self, table_id: str) -> Table:
        stored = self.store.load(table_id)
        if stored is None:
            raise Refused(404, f"no table {table_id!r}")
        return Table.rebuild(stored)

    def get(self, table_id: str) -> Table:
        """An open table, or a closed one rebuilt from the store to be read."""
        table = self.open.get(table_id)
        return table if table is not None else self._rebuild(table_id)

    # ---- creating -----------------------------------------------------------
    def create(
        self,
        preset: str,
        options: dict,
        seed: int | None,
        deal: dict | None,
        bots: Mapping[str, str],
    ) -> tuple[Table, dict[str, str]]:
        if len(self.open) >= self.max_tables:
            raise Refused(
                429, f"the server holds its limit of {self.max_tables} open tables: close one first"
            )
        try:
            rules = ddz.Rules(preset, **options)
        except BAD_INPUT as e:
            raise Refused(422, f"bad preset or options: {e}") from None
        bot_seats = {}
        for key, kind in bots.items():
            if not key.isdigit() or int(key) >= rules.players:
                raise Refused(
                    422, f"bots: no seat {key!r} in {preset} (seats 0..{rules.players - 1})"
                )
            bot_seats[str(int(key))] = kind
        spec = {
            "preset": preset,
            "options": options,
            "seed": seed if seed is not None else secrets.randbelow(SEED_LIMIT),
            "seed_given": seed is not None,
            "deal": deal,
            "bots": bot_seats,
        }
        tokens = {str(s): new_token() for s in range(rules.players) if str(s) not in bot_seats}
        hashes = {token_hash(t): int(s) for s, t in tokens.items()}
        table_id = new_table_id()
        try:
            table, entries = Table.create(table_id, spec, hashes)
        except BAD_INPUT as e:
            raise Refused(422, f"bad deal or options: {e}") from None
        self.store.create(table_id, spec, {seat: h for h, seat in hashes.items()}, entries)
        self.open[table_id] = table
        return table, tokens

    # ---- changing -------------------------------------------------------------
    def act(self, table: Table, seat: int, request: Request) -> str:
        """Apply and commit; returns the seat's new view, as JSON."""
        self._change(table, lambda step: table.act(seat, request, step))
        return view_text(table, seat)

    def next_deal(self, table: Table) -> None:
        self._change(table, table.next_deal)

    def close(self, table: Table) -> None:
        self._change(table, lambda step: table.close(), close=True)
        self.open.pop(table.id, None)
        self.hub.close_table(table.id)

    def _change(self, table: Table, change, close: bool = False) -> None:
        if table.id not in self.open:
            raise Refused(409, "the table is closed")
        pushes: list = []
        watched = self.hub.watching(table.id)

        def step() -> None:
            if watched:
                pushes.extend(self.hub.snapshot(table))

        start = table.version
        try:
            entries = change(step)
        except Refused:
            raise  # refused before anything changed
        except BaseException:
            self.open[table.id] = self._rebuild(table.id)
            raise
        if entries is None:
            return  # a retried key: already applied and committed
        try:
            self.store.append(table.id, start, entries, close=close)
        except BaseException:
            # Not committed: nobody was told, and the table goes back to the store's state.
            self.open[table.id] = self._rebuild(table.id)
            raise
        if close:  # the last push says the table is closed
            pushes = self.hub.snapshot(table) if watched else []
        self.hub.send(pushes)
