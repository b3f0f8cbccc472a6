"""`ddz serve` through its HTTP and WebSocket API, on a real uvicorn.

The views are checked against `ddz.Game` played alongside with the same
seed and the same agents: the server must show exactly what
`Game.observation(seat)` holds.
"""

from __future__ import annotations

import json
import re
from contextlib import ExitStack

import httpx
import pytest
from serve_helpers import Server, bearer, error_of
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import ddz
from ddz.agents import GreedyAgent


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("serve") / "api.sqlite3", "--max-body", "4096")
    yield srv
    srv.stop()


def test_health_docs_and_openapi_are_served_from_here(server: Server) -> None:
    assert server.http.get("/healthz").json()["ok"] is True
    spec = server.http.get("/openapi.json").json()
    for path in ("/tables", "/tables/{table_id}/view", "/tables/{table_id}/actions"):
        assert path in spec["paths"]
    page = server.http.get("/docs")
    assert page.status_code == 200 and "swagger-ui" in page.text
    links = re.findall(r"""(?:src|href|url)\s*[=:]\s*["']([^"']+)["']""", page.text)
    assert links, page.text
    for link in links:
        assert link.startswith("/"), f"/docs loads {link} from another host"
        assert server.http.get(link).status_code == 200, link
    assert 'validatorUrl": null' in page.text  # no validator badge from another host
    for asset in ("/", "/static/app.js", "/static/style.css"):
        reply = server.http.get(asset)
        assert reply.status_code == 200
        assert not re.search(r"(?:src|href)=[\"']?(?:https?:)?//", reply.text), asset


def play_alongside(server: Server, preset: str, seed: int, human: int = 0) -> None:
    """One deal: the server's bots against a local Game with the same seed
    and agents; after every action the reply is the local observation."""
    n = ddz.Rules(preset).players
    bots = {str(s): "greedy" for s in range(n) if s != human}
    table, tokens = server.create(preset, seed=seed, bots=bots)
    assert set(tokens) == {str(human)}
    token = tokens[str(human)]
    local = ddz.Game(preset, seed=seed)
    agent = GreedyAgent()

    def bots_move() -> None:
        while local.phase != "over" and local.to_act != human:
            s = local.to_act
            local.step(agent.act(local.observation(s), local.legal_actions()))

    bots_move()
    view = server.view(table, token)
    assert view["observation"] == local.observation(human)
    step = 0
    while local.phase != "over":
        action = agent.act(local.observation(human), local.legal_actions())
        reading = (
            {"kind": action.kind, "rank": action.rank, "length": action.length}
            if isinstance(action, ddz.Move)
            else {}
        )
        reply = server.act(table, token, str(action), f"k{step}", **reading)
        assert reply.status_code == 200, reply.text
        local.step(action)
        bots_move()
        view = reply.json()
        assert view["observation"] == local.observation(human)
        assert view["version"] == len(json.loads(local.to_json())["actions"])
        step += 1
    record = server.http.get(f"/tables/{table}/record").json()
    assert record.pop("seeded") is True  # the client chose the seed
    assert record == json.loads(local.to_json())
    again = ddz.Game.from_json(json.dumps(record))
    assert again.result == local.result
    assert view["scores"] == local.result["scores"]


@pytest.mark.parametrize("preset", ["classic", "laizi", "six-player-2v4", "five-player-3deck"])
def test_a_seat_sees_exactly_its_observation(server: Server, preset: str) -> None:
    play_alongside(server, preset, seed=11)


def test_retried_keys_are_applied_once(server: Server) -> None:
    table, tokens = server.create("classic", seed=3)  # three people
    first = server.view(table, tokens["0"])["observation"]["to_act"]
    token = tokens[str(first)]
    action = server.view(table, token)["observation"]["legal_actions"][0]
    once = server.act(table, token, action, "same-key")
    assert once.status_code == 200
    twice = server.act(table, token, action, "same-key")
    assert twice.status_code == 200 and twice.json() == once.json()
    error_of(server.act(table, token, "bid:3", "same-key"), 409)  # a key names one action
    assert server.view(table, token)["version"] == once.json()["version"] == 1


def test_out_of_turn_illegal_and_after_the_end_are_409(server: Server) -> None:
    table, tokens = server.create("classic", seed=5)
    to_act = server.view(table, tokens["0"])["observation"]["to_act"]
    other = tokens[str((to_act + 1) % 3)]
    assert "not your turn" in error_of(server.act(table, other, "pass", "a"), 409)
    mine = tokens[str(to_act)]
    before = server.view(table, mine)
    assert "illegal" in error_of(server.act(table, mine, "bid:9", "b"), 409)
    assert "illegal" in error_of(server.act(table, mine, "zz", "c"), 409)
    assert server.view(table, mine) == before
    error_of(server.http.post(f"/tables/{table}/next", headers=bearer(mine)), 409)


def test_the_short_way_for_actions_answers_as_fastapi_does(server: Server) -> None:
    """A plain JSON action is answered by serve/fastpath.py, the same request
    with a charset by the FastAPI route: refusals, retries and views agree."""
    table, tokens = server.create("classic", seed=5)
    to_act = server.view(table, tokens["0"])["observation"]["to_act"]
    mine, other = tokens[str(to_act)], tokens[str((to_act + 1) % 3)]
    url = f"/tables/{table}/actions"

    def both(token: str, body: dict) -> tuple[httpx.Response, httpx.Response]:
        sent = json.dumps(body)
        return tuple(  # type: ignore[return-value]
            server.http.post(url, content=sent, headers={**bearer(token), "content-type": kind})
            for kind in ("application/json", "application/json; charset=utf-8")
        )

    for token, body in [
        (other, {"action": "pass", "key": "a"}),
        (mine, {"action": "zz", "key": "b"}),
    ]:
        short, routed = both(token, body)
        assert short.status_code == routed.status_code == 409
        assert short.json() == routed.json() and "error" in short.json()
        assert short.headers["content-length"] == str(len(short.content))
    deep = server.http.post(
        url, content="[" * 4_000, headers={**bearer(mine), "content-type": "application/json"}
    )
    error_of(deep, 400)  # handed on to FastAPI, which says the body is not JSON
    action = server.view(table, mine)["observation"]["legal_actions"][0]
    routed, short = reversed(both(mine, {"action": action, "key": "c"}))
    assert routed.status_code == short.status_code == 200
    assert short.json() == routed.json() == server.view(table, mine)  # applied once
    assert short.json()["version"] == 1


def test_tokens_open_only_their_seat_of_their_table(server: Server) -> None:
    table, tokens = server.create("classic", seed=1, bots={"1": "greedy"})
    other_table, other_tokens = server.create("classic", seed=1)
    assert set(tokens) == {"0", "2"}
    path = f"/tables/{table}/view"
    reply = server.http.get(path)
    assert "token" in error_of(reply, 401) and reply.headers["www-authenticate"] == "Bearer"
    error_of(server.http.get(path, headers={"Authorization": "Basic abc"}), 401)
    error_of(server.http.get(path, headers=bearer("not-a-token")), 403)
    error_of(server.http.get(path, headers=bearer(other_tokens["0"])), 403)
    assert server.view(table, tokens["2"])["seat"] == 2
    error_of(server.act(table, "nope", "pass", "k"), 403)
    error_of(server.http.post(f"/tables/{table}/close", headers=bearer(other_tokens["1"])), 403)


BAD_BODIES = [
    ('{"preset": "classic"', 400, "malformed JSON"),
    ("[1, 2]", 422, "dictionary"),
    ('{"preset": 7}', 422, "preset"),
    ('{"preset": "classic", "seed": "7"}', 422, "seed"),
    ('{"preset": "classic", "seed": -1}', 422, "seed"),
    ('{"preset": "classic", "seed": 1e30}', 422, "seed"),
    ('{"preset": "classic", "bots": {"1": "genius"}}', 422, "bots"),
    ('{"preset": "classic", "bots": {"3": "greedy"}}', 422, "seat"),
    ('{"preset": "classic", "colour": "red"}', 422, "colour"),
    ('{"preset": "no-such-preset"}', 422, "unknown preset"),
    ('{"preset": "classic", "options": {"no_such_option": 1}}', 422, "no_such_option"),
    ('{"preset": "classic", "deal": {"hands": ["33"]}}', 422, "deal"),
    ('{"preset": "classic", "deal": {"hands": 5}}', 422, "deal"),
]


@pytest.mark.parametrize(("body", "status", "says"), BAD_BODIES)
def test_bad_table_requests_are_clear_4xx(server: Server, body: str, status: int, says: str):
    reply = server.http.post("/tables", content=body, headers={"content-type": "application/json"})
    assert says.lower() in error_of(reply, status).lower()


def test_bad_action_requests_and_unknown_tables_are_clear_4xx(server: Server) -> None:
    table, tokens = server.create("classic", seed=2)
    url = f"/tables/{table}/actions"
    auth = {**bearer(tokens["0"]), "content-type": "application/json"}
    error_of(server.http.post(url, content="{", headers=auth), 400)
    assert "action" in error_of(
        server.http.post(url, json={"action": 3, "key": "k"}, headers=auth), 422
    )
    assert "key" in error_of(server.http.post(url, json={"action": "pass"}, headers=auth), 422)
    error_of(server.http.post(url, json={"action": "pass", "key": ""}, headers=auth), 422)
    error_of(server.http.post(url, json={"action": "pass", "key": "k" * 500}, headers=auth), 422)
    for path in (
        "/tables/nope",
        "/tables/nope/view",
        "/tables/nope/record",
        "/tables/nope/spectate",
    ):
        assert "no table" in error_of(server.http.get(path, headers=bearer(tokens["0"])), 404)
    error_of(server.act("nope", tokens["0"], "pass", "k"), 404)
    error_of(server.http.get(f"/tables/{table}/record?deal=-1"), 422)
    error_of(server.http.get(f"/tables/{table}/record?deal=5"), 404)


def test_bodies_over_the_limit_are_413(server: Server) -> None:
    big = json.dumps({"preset": "classic", "options": {"x": "y" * 5000}})
    assert "limit of 4096" in error_of(server.http.post("/tables", content=big), 413)

    def chunks():  # no Content-Length: the limit counts what arrives
        for _ in range(10):
            yield b" " * 1000

    error_of(server.http.post("/tables", content=chunks()), 413)


def test_too_many_tables_is_429(tmp_path) -> None:
    srv = Server(tmp_path / "few.sqlite3", "--max-tables", "2")
    try:
        table, tokens = srv.create("classic")
        srv.create("laizi")
        assert "limit of 2" in error_of(srv.http.post("/tables", json={"preset": "classic"}), 429)
        assert (
            srv.http.post(f"/tables/{table}/close", headers=bearer(tokens["0"])).status_code == 200
        )
        srv.create("classic")  # a closed table frees its place
    finally:
        srv.stop()


def play_out(server: Server, table: str, token: str, prefix: str) -> list[httpx.Response]:
    """Take the first legal action until the deal is over; every reply."""
    view = server.view(table, token)
    replies = []
    while view["observation"]["phase"] != "over":
        action = view["observation"]["legal_actions"][0]
        key = f"{prefix}-{len(replies)}"
        reply = server.act(table, token, action, key)
        if reply.status_code == 409 and "several legal readings" in reply.text:
            reply = server.act(table, token, action, key, **view["readings"][action][0])
        assert reply.status_code == 200, reply.text
        replies.append(reply)
        view = reply.json()
    return replies


def test_no_reply_carries_the_seed_before_the_end(server: Server) -> None:
    table, tokens = server.create("laizi", bots={"1": "random", "2": "greedy"})
    replies = play_out(server, table, tokens["0"], "s")
    seed = str(json.loads(server.http.get(f"/tables/{table}/record").text)["seed"])
    assert len(seed) > 6
    for reply in replies[:-1]:
        assert seed not in reply.text
        assert "seed" not in reply.json()["observation"]


def test_record_is_403_until_the_end_then_next_deals_and_scores_run_on(server: Server) -> None:
    table, tokens = server.create("classic", seed=9, bots={"1": "greedy", "2": "greedy"})
    token = tokens["0"]
    assert "not over" in error_of(server.http.get(f"/tables/{table}/record"), 403)
    totals = [0, 0, 0]
    for deal in range(2):
        view = server.view(table, token)
        assert view["deal"] == deal and view["scores"] == totals
        view = play_out(server, table, token, str(deal))[-1].json()
        result = view["observation"]["result"]
        totals = [t + s for t, s in zip(totals, result["scores"])]
        assert view["scores"] == totals
        record = server.http.get(f"/tables/{table}/record")
        assert record.status_code == 200 and record.json()["seeded"] is True
        seed = record.json()["seed"]
        # The chosen seed deals the first deal only; the next one's is keyed, not 9 + 1.
        assert seed == 9 if deal == 0 else seed not in (9, 10)
        assert server.http.get(f"/tables/{table}/record?deal={deal}").json() == record.json()
        if deal == 0:
            nxt = server.http.post(f"/tables/{table}/next", headers=bearer(token))
            assert nxt.status_code == 200 and nxt.json()["deal"] == 1
    listed = {t["id"]: t for t in server.http.get("/tables").json()["tables"]}
    assert listed[table]["scores"] == totals and listed[table]["deal"] == 1
    closed = server.http.post(f"/tables/{table}/close", headers=bearer(token))
    assert closed.status_code == 200 and closed.json()["closed"] is True
    assert table not in {t["id"] for t in server.http.get("/tables").json()["tables"]}
    assert "closed" in error_of(
        server.http.post(f"/tables/{table}/next", headers=bearer(token)), 409
    )
    assert server.view(table, token)["closed"] is True  # still readable
    assert server.http.get(f"/tables/{table}/record?deal=0").status_code == 200


def test_websocket_pushes_every_action_and_resends_on_reconnect(server: Server) -> None:
    table, tokens = server.create("classic", seed=4, bots={"1": "greedy"})
    url = f"{server.ws_base}/tables/{table}/ws"
    with ExitStack() as stack:
        ws0 = stack.enter_context(connect(f"{url}?token={tokens['0']}"))
        ws2 = stack.enter_context(connect(url))
        watch = stack.enter_context(connect(f"{url}?spectator=true"))
        ws2.send(json.dumps({"token": tokens["2"]}))  # the token as a first message
        sockets = [("0", ws0), ("2", ws2), ("w", watch)]
        views = {name: [json.loads(ws.recv(5))] for name, ws in sockets}
        assert views["0"][0] == {"type": "view", **server.view(table, tokens["0"])}
        assert views["2"][0]["seat"] == 2 and views["w"][0]["seat"] is None
        version = views["0"][0]["version"]
        for _ in range(6):
            to_act = views["0"][-1]["observation"]["to_act"]
            if to_act == 1:
                break
            token = tokens[str(to_act)]
            legal = server.view(table, token)["observation"]["legal_actions"]
            reply = server.act(table, token, legal[-1], f"w{version}")
            assert reply.status_code == 200, reply.text
            last = reply.json()["version"]
            for name, ws in sockets:
                while views[name][-1]["version"] < last:
                    views[name].append(json.loads(ws.recv(5)))
            version = last
        for pushes in views.values():
            versions = [v["version"] for v in pushes]
            assert versions == list(range(versions[0], versions[0] + len(versions)))
        assert all("hand" not in v["observation"] for v in views["w"])
    with connect(f"{url}?token={tokens['0']}") as again:
        assert json.loads(again.recv(5)) == {"type": "view", **server.view(table, tokens["0"])}
    with connect(f"{url}?token=wrong") as bad:
        assert json.loads(bad.recv(5))["type"] == "error"
        with pytest.raises(ConnectionClosed):
            bad.recv(5)
        assert bad.close_code == 4403
