"""The server's store and lobby in process: finished deals live in SQLite
(a table keeps only its current deal in memory), keys of earlier deals are
still known, and a file written before deal records existed is read."""

from __future__ import annotations

import asyncio
import json

import ddz
from ddz.serve.hub import Hub
from ddz.serve.limits import Limits
from ddz.serve.lobby import Lobby
from ddz.serve.seeds import marked
from ddz.serve.store import Store
from ddz.serve.tables import Request, ServedTable
from ddz.serve.views import view_text


def play_deal(lobby: Lobby, table_id: str, prefix: str) -> dict:
    """Seat 0 takes its first legal action until the deal is over."""
    view = json.loads(asyncio.run(lobby.read(lobby.open[table_id], _view)))
    step = 0
    while view["observation"]["phase"] != "over":
        action = view["observation"]["legal_actions"][0]
        reading = view["readings"].get(action, [{}])[0]
        request = Request(action, f"{prefix}{step}", **reading)
        view = json.loads(asyncio.run(lobby.act(table_id, 0, request)))
        step += 1
    return view


def _view(table: ServedTable) -> str:
    return view_text(table, 0)


def made(lobby: Lobby) -> str:
    bots = {"1": "random", "2": "greedy"}
    room = {"bot_delay_ms": 0}  # the bots answer inside seat 0's requests
    table, _, _ = asyncio.run(lobby.create("classic", {}, 3, None, bots, "test", room))
    return table.id


def test_finished_deals_are_read_from_the_store_and_keys_outlive_their_deal(tmp_path) -> None:
    db = str(tmp_path / "deals.sqlite3")
    lobby = Lobby(Store(db), Hub(), Limits())
    table_id = made(lobby)
    ends = [play_deal(lobby, table_id, "a")]
    asyncio.run(lobby.next_deal(table_id, 0))
    ends.append(play_deal(lobby, table_id, "b"))
    asyncio.run(lobby.next_deal(table_id, 0))
    table = lobby.open[table_id]
    assert table.deal == 2 and not hasattr(table, "finished")
    version = table.version
    # A key of deal 0, sent again in deal 2, changes nothing.
    action, cards = lobby.store.key_used(table_id, 0, "a0") or ("", None)
    retried = json.loads(asyncio.run(lobby.act(table_id, 0, Request(action, "a0", cards))))
    assert retried["version"] == version
    lobby.shutdown()
    again = Lobby(Store(db), Hub(), Limits())
    try:
        table = again.open[table_id]
        assert table.version == version and table.deal == 2
        for number, end in enumerate(ends):
            record = asyncio.run(again.read(table, again.record(table_id, number)))
            assert ddz.Game.from_json(record).result == end["observation"]["result"]
        totals = [a + b for a, b in zip(*(e["observation"]["result"]["scores"] for e in ends))]
        assert table.running_scores() == totals == ends[1]["scores"]
    finally:
        again.shutdown()


def test_a_file_without_deal_records_is_read_and_filled_in(tmp_path) -> None:
    db = str(tmp_path / "old.sqlite3")
    lobby = Lobby(Store(db), Hub(), Limits())
    table_id = made(lobby)
    end = play_deal(lobby, table_id, "a")
    asyncio.run(lobby.next_deal(table_id, 0))
    version = lobby.open[table_id].version
    record = asyncio.run(lobby.read(lobby.open[table_id], lobby.record(table_id, 0)))
    lobby.shutdown()
    # As an earlier server wrote it: no deals table, none of the later columns.
    store = Store(db)
    store.db.executescript(
        "DROP TABLE deals; ALTER TABLE tables DROP COLUMN deal_start;"
        " ALTER TABLE tables DROP COLUMN touched; ALTER TABLE tables DROP COLUMN owner_hash;"
        " ALTER TABLE tables DROP COLUMN creator;"
    )
    store.close()
    again = Lobby(Store(db), Hub(), Limits())
    try:
        table = again.open[table_id]
        assert (table.version, table.deal) == (version, 1)
        assert table.running_scores() == end["observation"]["result"]["scores"]
        assert asyncio.run(again.read(table, again.record(table_id, 0))) == record
        assert marked(again.store.deal_record(table_id, 0) or "", True) == record  # filled in
    finally:
        again.shutdown()
