"""`ddz serve` against a hostile client (issue 29): bots nobody can predict,
bots that repeat across a restart, rule sets too costly to serve, a loop
that stays free while a table thinks, tables their creator (or time)
closes, a per-client limit, seat keys, WebSocket edges and one error
encoding. Each case here failed on the server before it was hardened.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time

import httpx
import pytest
from serve_helpers import Server, bearer, error_of
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import ddz
from ddz.agents import RandomAgent
from ddz.serve.bots import BOT_KINDS, BotKind
from ddz.serve.costs import MAX_LEGAL_ACTIONS, check_cost, richest_lead, runs_inline
from ddz.serve.replies import Refused
from ddz.serve.store import Store
from ddz.serve.tables import Request, ServedTable

#: Generous bounds that only a hung server misses (never timing assertions).
WAIT = 10


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("hardening") / "hard.sqlite3", "--ws-auth-timeout", "1")
    yield srv
    srv.stop()


def play_first_legal(server: Server, table: str, token: str, key: str, until: int = 10**6) -> list:
    """Take the first legal action (with its reading) until the deal is over
    or `until` actions were taken; the replies' views."""
    view = server.view(table, token)
    views = []
    while view["observation"]["phase"] != "over" and len(views) < until:
        action = view["observation"]["legal_actions"][0]
        extra = view["readings"].get(action, [{}])[0]
        reply = server.act(table, token, action, f"{key}{len(views)}", **extra)
        assert reply.status_code == 200, reply.text
        view = reply.json()
        views.append(view)
    return views


# ---- 1. bots nobody can predict -------------------------------------------------
def test_bots_of_an_unseeded_table_are_not_the_published_seed_plus_their_seat(server) -> None:
    """The attack of the issue: after deal 0, its record's seed S gives
    RandomAgent(S + seat), which replayed every bot decision of deal 0 and,
    running on, of the next deals."""
    table, tokens = server.create("laizi", bots={"1": "random", "2": "random"})
    replies: list = []
    agents: dict = {}
    guessed = decisions = 0
    for deal in range(6):  # until the bots made enough choices to tell
        if deal:
            reply = server.http.post(f"/tables/{table}/next", headers=bearer(tokens["0"]))
            assert reply.status_code == 200, reply.text
        replies += play_first_legal(server, table, tokens["0"], f"p{deal}-")
        played = ddz.Game.from_json(server.http.get(f"/tables/{table}/record").text)
        agents = agents or {s: RandomAgent(played.seed + s) for s in (1, 2)}
        game = ddz.Game(played.rules, seed=played.seed)
        for seat, action, cards in played.actions:
            legal = game.legal_actions()
            if seat in agents:
                guess = agents[seat].act(game.observation(seat), legal)
                if len(legal) > 1:
                    decisions += 1
                    guessed += str(guess) == str(action)
            game.step(action, cards=cards)
        if decisions >= 20:
            break
    assert decisions >= 20, "too few bot choices to tell"
    assert guessed < decisions, "the record's seed predicts every bot decision"
    # The secret the bots draw from is in the store and in no reply.
    with sqlite3.connect(server.db) as db:
        row = db.execute("SELECT spec FROM tables WHERE id = ?", (table,)).fetchone()
    spec = json.loads(row[0])
    secret = spec["bot_secret"]
    assert len(secret) == 64
    shown = [r.text for r in (server.http.get(f"/tables/{table}"), server.http.get("/tables"))]
    shown += [json.dumps(v) for v in replies]
    shown.append(server.http.get(f"/tables/{table}/spectate").text)
    shown.append(server.http.get(f"/tables/{table}/record").text)
    assert not any(secret in text for text in shown)


def test_two_unseeded_tables_dealt_alike_have_bots_that_differ(server) -> None:
    deal = json.loads(ddz.Game("classic", seed=3).to_json())["deals"][0]
    plays = []
    for _ in range(2):
        table, tokens = server.create("classic", deal=deal, bots={"1": "random", "2": "random"})
        play_first_legal(server, table, tokens["0"], "d", until=6)
        history = server.view(table, tokens["0"])["observation"]["history"]
        plays.append([e[1] for e in history if e[0] != 0])
    assert plays[0] != plays[1]


# ---- 2. a seeded table repeats across a restart ---------------------------------
def test_a_seeded_table_with_random_bots_repeats_across_a_restart(tmp_path) -> None:
    bots = {"1": "random", "2": "random"}
    srv = Server(tmp_path / "repeat.sqlite3")
    try:
        whole, tokens = srv.create("classic", seed=42, bots=bots)
        play_first_legal(srv, whole, tokens["0"], "w")
        cut, cut_tokens = srv.create("classic", seed=42, bots=bots)
        assert len(play_first_legal(srv, cut, cut_tokens["0"], "c", until=2)) == 2
        srv.kill9()
    finally:
        srv.stop()
    again = Server(tmp_path / "repeat.sqlite3")
    try:
        play_first_legal(again, cut, cut_tokens["0"], "c2")
        records = [again.http.get(f"/tables/{t}/record") for t in (whole, cut)]
        assert records[0].status_code == records[1].status_code == 200
        assert records[0].json() == records[1].json()
    finally:
        again.stop()


def test_a_rebuilt_table_plays_its_bots_on_as_the_table_it_replaces(tmp_path) -> None:
    """Without a client's seed (the bots draw from the table's secret): the
    same table, rebuilt from the store after each action, makes the same
    choices as the table that never stopped."""
    spec = {
        "preset": "laizi",
        "options": {},
        "seed": 77,
        "seed_given": False,
        "deal": None,
        "bots": {"1": "random", "2": "random"},
        "bot_secret": "5e" * 32,
    }
    store = Store(str(tmp_path / "rebuild.sqlite3"))
    table, entries = ServedTable.create("t", spec, {})
    store.create("t", spec, {}, "owner", "client", entries)

    def used(seat: int, key: str):
        return store.key_used("t", seat, key)

    step = 0
    while table.game.phase != "over":
        rebuilt = ServedTable.rebuild(store.load("t"))
        assert rebuilt.game.to_json() == table.game.to_json()
        start = table.version
        request = Request(str(table.game.legal_actions()[0]), f"k{step}")
        for t in (table, rebuilt):
            entries = t.act(0, request, used)
            assert entries is not None
        assert rebuilt.game.to_json() == table.game.to_json()
        store.append("t", start, entries)
        step += 1
    assert step > 3


# ---- 3. what one table may cost ------------------------------------------------
KICKERS = {
    "trio_single": True,
    "plane_singles": True,
    "four_two_singles": True,
    "four_two_pairs": True,
    "joker_pairs": True,
    "joker_trio_pair": True,
    "no_bomb_inside": False,
}


@pytest.mark.parametrize(
    ("preset", "options", "named"),
    [
        # The request: 2,262,037 legal actions, a 137 MB view.
        ("laizi", {"decks": 3, "players": 2, "hand_size": 75, "kitty": 14}, "46 cards in one hand"),
        ("classic", {"players": 6, "decks": 4, "hand_size": 34, "kitty": 12, **KICKERS}, "legal"),
        ("laizi", {"players": 4, "decks": 2, "hand_size": 25, "kitty": 10}, "legal"),
    ],
)
def test_costly_rule_sets_are_refused_when_the_table_is_made(server, preset, options, named):
    body = {"preset": preset, "options": options, "bots": {"1": "greedy"}}
    message = error_of(server.http.post("/tables", json=body), 422)
    assert named in message
    if named == "legal":
        assert f"limit of {MAX_LEGAL_ACTIONS} legal actions in one view" in message


def test_every_preset_is_within_the_limits_and_the_search_finds_rich_hands() -> None:
    for preset in ddz.PRESETS:
        check_cost(ddz.Rules(preset))  # raises Refused if over
    # The search finds at least this known 4,068-lead hand's count.
    count, hand = richest_lead(ddz.Rules("six-player-3v3-kitty").to_json())
    assert count >= 4068
    rules = ddz.Rules("six-player-3v3-kitty")
    assert rules.count_moves(rules.cards(hand)) == count
    with pytest.raises(Refused, match="legal actions in one view"):
        check_cost(ddz.Rules("laizi", players=6, decks=3, hand_size=25, kitty=14))


def test_only_small_tables_of_cheap_bots_run_on_the_event_loop(monkeypatch) -> None:
    classic = ddz.Rules("classic")
    assert runs_inline(classic, ["greedy", "random"]) and runs_inline(classic, [])
    assert not runs_inline(ddz.Rules("laizi"), ["greedy"])  # leads of up to 7,537
    assert not runs_inline(ddz.Rules("six-player-2v4"), [])  # six seats
    # A kind added to the registry thinks in a thread unless it says it is cheap.
    monkeypatch.setitem(BOT_KINDS, "new", BotKind(lambda rules, seed: RandomAgent(seed), ""))
    assert not runs_inline(classic, ["greedy", "new"])


SLOW_BOT = """
import time
from ddz.agents import GreedyAgent
from ddz.serve.bots import BOT_KINDS, BotKind

class Slow(GreedyAgent):
    def act(self, observation, legal):
        end = time.perf_counter() + 0.02   # 20 ms of Python a decision, as a search might
        while time.perf_counter() < end:
            pass
        return super().act(observation, legal)

BOT_KINDS["slow"] = BotKind(lambda rules, seed: Slow(), "a slow thinker")
"""


def test_healthz_answers_while_a_slow_table_thinks(tmp_path) -> None:
    """An all-bot table of a slow kind (plugged into the registry) plays a
    whole deal while POST /tables runs: /healthz answers meanwhile."""
    srv = Server(tmp_path / "slow.sqlite3", prelude=SLOW_BOT)
    try:
        made: dict = {}

        def create() -> None:
            body = {"preset": "classic", "seed": 1, "bots": {s: "slow" for s in "012"}}
            with httpx.Client(base_url=srv.base, timeout=60) as http:
                made["reply"] = http.post("/tables", json=body)

        maker = threading.Thread(target=create)
        maker.start()
        answered_during = 0
        while maker.is_alive():
            reply = srv.http.get("/healthz", timeout=WAIT)
            assert reply.status_code == 200
            answered_during += maker.is_alive()  # answered, and the table still thinks
            time.sleep(0.05)
        maker.join()
        assert made["reply"].status_code == 201, made["reply"].text
        assert answered_during >= 3
        table = made["reply"].json()["id"]
        assert srv.http.get(f"/tables/{table}").json()["phase"] == "over"
    finally:
        srv.stop()


# ---- 4. tables their creator, or time, closes; a limit per client -------------
def test_the_creator_of_an_all_bot_table_can_close_it(server) -> None:
    made = server.make("classic", bots={s: "greedy" for s in "012"})
    table, owner = made["id"], made["owner"]
    assert made["tokens"] == {} and owner
    close = f"/tables/{table}/close"
    error_of(server.http.post(close), 401)
    error_of(server.http.post(close, headers=bearer("not-the-owner")), 403)
    error_of(server.http.get(f"/tables/{table}/view", headers=bearer(owner)), 403)  # no seat
    closed = server.http.post(close, headers=bearer(owner))
    assert closed.status_code == 200 and closed.json()["closed"] is True
    error_of(server.http.post(close, headers=bearer(owner)), 409)
    assert table not in {t["id"] for t in server.http.get("/tables").json()["tables"]}


def test_table_creation_is_limited_per_client(tmp_path) -> None:
    srv = Server(tmp_path / "client.sqlite3", "--max-tables-per-client", "2")
    try:
        first = srv.make("classic", bots={s: "greedy" for s in "012"})
        srv.make("classic")
        body = {"preset": "classic"}
        assert "2 open tables per client" in error_of(srv.http.post("/tables", json=body), 429)
        spoofed = {"X-Forwarded-For": "203.0.113.9", "X-Real-IP": "203.0.113.9"}
        error_of(srv.http.post("/tables", json=body, headers=spoofed), 429)
        closed = srv.http.post(f"/tables/{first['id']}/close", headers=bearer(first["owner"]))
        assert closed.status_code == 200
        srv.make("classic")  # a closed table frees its place
    finally:
        srv.stop()


def test_idle_tables_expire_and_a_full_server_is_not_full_after_a_restart(tmp_path) -> None:
    db = tmp_path / "idle.sqlite3"
    options = ("--max-tables", "2", "--idle-timeout", "1")
    srv = Server(db, *options)
    try:
        old = [srv.make("classic", bots={s: "greedy" for s in "012"})["id"] for _ in range(2)]
        error_of(srv.http.post("/tables", json={"preset": "classic"}), 429)
        deadline = time.monotonic() + WAIT  # the sweep closes them a second later
        while srv.http.post("/tables", json={"preset": "classic"}).status_code == 429:
            assert time.monotonic() < deadline, "idle tables were never closed"
            time.sleep(0.1)
        for table in old:
            assert srv.http.get(f"/tables/{table}").json()["closed"] is True
        srv.make("classic")
        error_of(srv.http.post("/tables", json={"preset": "classic"}), 429)  # full again
        srv.kill9()
    finally:
        srv.stop()
    time.sleep(1.2)  # the two open tables go idle while the server is down
    again = Server(db, *options)
    try:
        assert again.http.get("/healthz").json()["tables"] == 0
        again.make("classic")
    finally:
        again.stop()


# ---- 5. seat keys --------------------------------------------------------------
@pytest.mark.parametrize("key", ["²", "١", "１", "01", "00", " 1", "1 ", "+1", "3", "-0", ""])
def test_only_canonical_decimal_seats_are_bot_keys(server, key: str) -> None:
    body = {"preset": "classic", "bots": {key: "greedy"}}
    message = error_of(server.http.post("/tables", json=body), 422)
    assert repr(key) in message


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('{"preset": "classic", "bots": {"0": "greedy", "00": "random"}}', "'00'"),
        ('{"preset": "classic", "bots": {"1": "greedy", "1": "random"}}', "'1' appears twice"),
        ('{"preset": "classic", "seed": 1, "seed": 2}', "'seed' appears twice"),
        ('{"preset": "classic", "bots": {"\\ud83c": "greedy"}}', "bots"),
    ],
)
def test_repeated_or_aliased_seats_are_refused_by_name(server, text: str, named: str) -> None:
    reply = server.http.post("/tables", content=text, headers={"content-type": "application/json"})
    assert named in error_of(reply, 422)


# ---- 6. WebSocket edges ----------------------------------------------------------
def closed_with(ws, code: int, says: str) -> None:
    """The server's error message, then its close frame with `code`."""
    message = json.loads(ws.recv(WAIT))
    assert message["type"] == "error" and says in message["error"], message
    with pytest.raises(ConnectionClosed):
        ws.recv(WAIT)
    assert ws.close_code == code
    assert ws.close_reason and says in ws.close_reason


def test_websocket_edges_close_with_a_code_and_a_reason(server) -> None:
    table, tokens = server.create("classic", seed=8, bots={"1": "greedy"})
    url = f"{server.ws_base}/tables/{table}/ws"
    with connect(f"{url}?token={tokens['0']}") as ws:
        assert json.loads(ws.recv(WAIT))["type"] == "view"
        ws.send(b"\x00binary")
        closed_with(ws, 4400, "binary frames")
    with connect(url) as ws:
        ws.send(b'{"token": "as bytes"}')
        closed_with(ws, 4400, "binary frames")
    with connect(url) as ws:  # sends nothing: --ws-auth-timeout 1
        closed_with(ws, 4408, "no token within 1 s")
    with connect(f"{url}?spectator=banana") as ws:
        closed_with(ws, 4400, "spectator must be true or false")
    with connect(f"{url}?token=") as ws:
        closed_with(ws, 4401, "missing token")
    with connect(url) as ws:
        ws.send(json.dumps({"token": ""}))
        closed_with(ws, 4401, "missing token")
    with connect(f"{url}?token=wrong") as ws:
        closed_with(ws, 4403, "opens no seat")
    with connect(f"{server.ws_base}/tables/nope/ws?spectator=true") as ws:
        closed_with(ws, 4404, "no table")
    with connect(f"{url}?spectator=TRUE") as ws:  # still a spectator, as before
        assert json.loads(ws.recv(WAIT))["seat"] is None


# ---- 7. one error encoding ---------------------------------------------------------
@pytest.mark.parametrize("action", ["🂡", "\ud83c"])
def test_the_fast_path_and_the_routes_write_errors_in_the_same_bytes(server, action) -> None:
    table, tokens = server.create("classic", seed=5)
    to_act = server.view(table, tokens["0"])["observation"]["to_act"]
    body = json.dumps({"action": action, "key": "k"})  # ASCII: the emoji as \\ud83c\\udca1
    replies = [
        server.http.post(
            f"/tables/{table}/actions",
            content=body,
            headers={**bearer(tokens[str(to_act)]), "content-type": kind},
        )
        for kind in ("application/json", "application/json; charset=utf-8")  # fast, routed
    ]
    assert replies[0].content == replies[1].content
    assert replies[0].json()["error"]
    if action == "🂡":
        assert replies[0].status_code == replies[1].status_code == 409
        assert replies[0].content.startswith(b'{"error":"illegal action')
        assert "🂡".encode() in replies[0].content and b"\\ud83c" not in replies[0].content
    else:  # a lone surrogate is no string for the model: 422 on both ways
        assert replies[0].status_code == replies[1].status_code == 422


def test_every_error_is_compact_utf8_json(server) -> None:
    """The body limit's 413, a route's 404 and 422: one shape of bytes."""
    big = server.http.post("/tables", content=b"{" + b" " * 20_000 + b"}")
    for reply in (
        big,
        server.http.get("/tables/n\u00e9/view", headers=bearer("x")),
        server.http.post("/tables", json={"preset": "classic", "bots": {"é": "greedy"}}),
    ):
        assert 400 <= reply.status_code < 500, reply.text
        assert reply.content.startswith(b'{"error":"'), reply.content
        assert b"\\u" not in reply.content, reply.content
        assert reply.headers["content-length"] == str(len(reply.content))
