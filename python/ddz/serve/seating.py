"""Who sits where, for the lobby: the seats each open table has for
people, which of them someone is connected to, and the seats their holders
put up for anyone to take.

An offer is kept in memory only, until it is taken or withdrawn (or the
server stops). No token is kept with it: whoever takes the seat gets a
new token for it (Lobby.rekey), and the token that offered it opens
nothing from then on, so the one who offered a seat cannot read or play
the hand of the one who took it.
"""

from __future__ import annotations

from .hub import Hub
from .tables import Refused, ServedTable


class Offers:
    """Seats put up in the lobby by the holders of their tokens."""

    def __init__(self) -> None:
        self._seats: set[tuple[str, int]] = set()

    def offer(self, table: ServedTable, seat: int) -> None:
        self._seats.add((table.id, seat))

    def withdraw(self, table: ServedTable, seat: int) -> None:
        self._seats.discard((table.id, seat))

    def take(self, table: ServedTable, seat: int) -> None:
        """Take the offer, once: it is gone after it (the caller rekeys the seat)."""
        if table.closed:
            raise Refused(409, "the table is closed")
        if (table.id, seat) not in self._seats:
            raise Refused(409, f"seat {seat} of table {table.id} is not offered (or was taken)")
        self._seats.discard((table.id, seat))

    def keep_only(self, open_ids) -> None:
        """Forget the offers of tables that are no longer open."""
        self._seats = {k for k in self._seats if k[0] in open_ids}

    def offered(self, table_id: str) -> set[int]:
        return {seat for (t, seat) in self._seats if t == table_id}


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
