"""Who sits where, for the lobby: the seats each open table has for
people, which of them someone is connected to, and the seats their holders
put up for anyone to take.

An offered seat's token is kept in memory only, until it is taken or
withdrawn (or the server stops): the store never holds a token, only its
hash, and a seat put up in the lobby is given to the first who asks.
"""

from __future__ import annotations

from .hub import Hub
from .tables import Refused, ServedTable


class Offers:
    """Seats put up in the lobby by the holders of their tokens."""

    def __init__(self) -> None:
        self._tokens: dict[tuple[str, int], str] = {}

    def offer(self, table: ServedTable, seat: int, token: str) -> None:
        self._tokens[(table.id, seat)] = token

    def withdraw(self, table: ServedTable, seat: int) -> None:
        self._tokens.pop((table.id, seat), None)

    def take(self, table: ServedTable, seat: int) -> str:
        """The seat's token, once: the offer is gone after it."""
        if table.closed:
            raise Refused(409, "the table is closed")
        token = self._tokens.pop((table.id, seat), None)
        if token is None:
            raise Refused(409, f"seat {seat} of table {table.id} is not offered (or was taken)")
        return token

    def keep_only(self, open_ids) -> None:
        """Forget the offers of tables that are no longer open."""
        for key in [k for k in self._tokens if k[0] not in open_ids]:
            del self._tokens[key]

    def offered(self, table_id: str) -> set[int]:
        return {seat for (t, seat) in self._tokens if t == table_id}


def seats(table: ServedTable, hub: Hub, offers: Offers) -> list[dict]:
    """Each seat of `table`: a bot and its kind, or a person's seat with
    whether someone is connected to it and whether it is offered."""
    connected = {sub.seat for sub in hub.tables.get(table.id, ()) if sub.seat is not None}
    offered = offers.offered(table.id)
    out: list[dict] = []
    for seat in table.seats:
        kind = table.spec["bots"].get(str(seat))
        if kind is not None:
            out.append({"seat": seat, "bot": kind})
        else:
            out.append({"seat": seat, "connected": seat in connected, "offered": seat in offered})
    return out
