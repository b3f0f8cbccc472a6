"""The browser table's server routes (serve/pages.py), on a real uvicorn:
hints in the engine's order, replays whose every frame is the engine's
state, the kept cards once a deal is over, the lobby's seats and offers,
the page at each of its addresses, and `ddz replay`.
"""

from __future__ import annotations

import json
import re
import sqlite3

import httpx
import pytest
from serve_helpers import Server, bearer
from websockets.sync.client import connect

import ddz
from ddz.agents import GreedyAgent, RandomAgent
from ddz.cli import main
from ddz.serve.bots import BOT_KINDS
from ddz.serve.tables import reading_of


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("pages") / "pages.sqlite3")
    yield srv
    srv.stop()


def error_of(reply: httpx.Response, status: int) -> str:
    assert reply.status_code == status, reply.text
    return reply.json()["error"]


def finished_table(server: Server, preset: str, seed: int) -> tuple[str, str, ddz.Game]:
    """A table whose deal 0 the seat-0 client played to the end with greedy
    choices, and the same deal played locally."""
    n = ddz.Rules(preset).players
    table, tokens = server.create(preset, seed=seed, bots={str(s): "greedy" for s in range(1, n)})
    token = tokens["0"]
    local = ddz.Game(preset, seed=seed)
    agent = GreedyAgent()
    step = 0
    while local.phase != "over":
        if local.to_act == 0:
            action = agent.act(local.observation(0), local.legal_actions())
            reading = reading_of(action) or {}
            reading.pop("cards", None)
            reply = server.act(table, token, str(action), f"k{step}", **reading)
            assert reply.status_code == 200, reply.text
            step += 1
        local.step(agent.act(local.observation(local.to_act), local.legal_actions()))
    return table, token, local


def test_the_page_opens_at_each_of_its_addresses(server: Server) -> None:
    index = server.http.get("/").text
    for path in ("/t/anything", "/replay", "/replay/anything/0"):
        reply = server.http.get(path)
        assert reply.status_code == 200 and reply.text == index, path
    for asset in (
        "words.js",
        "cards.js",
        "roles.js",
        "scene.js",
        "render.js",
        "hand.js",
        "play.js",
        "effects.js",
        "rules.js",
        "rules-words.json",
        "rulewords.js",
        "analysis.js",
    ):
        assert server.http.get(f"/static/{asset}").status_code == 200, asset


def test_bots_are_the_servers_list(server: Server) -> None:
    assert server.http.get("/bots").json() == {"bots": list(BOT_KINDS)}


def test_rules_of_a_table(server: Server) -> None:
    table, _ = server.create("six-player-3v3-kitty", seed=1)
    assert (
        server.http.get(f"/tables/{table}/rules").json()
        == ddz.Rules("six-player-3v3-kitty").to_dict()
    )
    assert error_of(server.http.get("/tables/nosuchtable/rules"), 404)


def seat_0_to_play(server: Server, **options) -> tuple[str, str, ddz.Game]:
    """A classic table (seed 3, greedy bots) where seat 0 bids 3 and is
    then to play, and the same deal played locally to that moment; on the
    way, the hints during the auction are checked to be empty (no plays to
    advise)."""
    table, tokens = server.create("classic", seed=3, bots={"1": "greedy", "2": "greedy"}, **options)
    token = tokens["0"]
    local = ddz.Game("classic", seed=3)
    agent = GreedyAgent()
    while local.to_act != 0:
        local.step(agent.act(local.observation(local.to_act), local.legal_actions()))
    assert server.http.get(f"/tables/{table}/hints", headers=bearer(token)).json()["hints"] == []
    server.act(table, token, "bid:3", "b")
    local.step("bid:3")
    while local.to_act != 0:
        local.step(agent.act(local.observation(local.to_act), local.legal_actions()))
    return table, token, local


def test_hints_are_the_legal_plays_in_hint_order(server: Server) -> None:
    table, token, local = seat_0_to_play(server)
    got = server.http.get(f"/tables/{table}/hints", headers=bearer(token)).json()
    obs = local.observation(0)
    order = list(local.rules.hint(obs["hand"]))
    legal = [a for a in local.legal_actions() if isinstance(a, ddz.Move)]
    assert [h["action"] for h in got["hints"]] == [str(m) for m in sorted(legal, key=order.index)]
    first = got["hints"][0]
    assert set(first) == {"action", "cards", "kind", "rank", "length"}
    assert error_of(server.http.get(f"/tables/{table}/hints"), 401)
    assert error_of(server.http.get(f"/tables/{table}/hints", headers=bearer("nope")), 403)


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_every_replay_frame_is_the_engines_state(server: Server, preset: str) -> None:
    game = ddz.play(preset, [RandomAgent(s + 7) for s in range(ddz.Rules(preset).players)], seed=7)
    record = json.loads(game.to_json())
    reply = server.http.post(
        "/replays", content=game.to_json(), headers={"content-type": "application/json"}
    )
    assert reply.status_code == 200, reply.text
    replay = reply.json()
    frames = replay["frames"]
    assert replay["preset"] == preset and replay["result"] == game.result
    assert len(frames) == len(record["actions"]) + 1
    # Frame i against the record cut after i actions, replayed by Game.from_json.
    for i in sorted({0, 1, len(frames) // 2, len(frames) - 1}):
        cut = ddz.Game.from_json(json.dumps({**record, "actions": record["actions"][:i]}))
        frame = frames[i]
        assert frame["hands"] == ["".join(h) for h in cut.hands], i
        assert frame["phase"] == cut.phase and frame["kitty"] == "".join(cut.kitty)
        assert frame["observation"]["hand_sizes"] == cut.observation(0)["hand_sizes"]
        assert "hand" not in frame["observation"] and "history" not in frame["observation"]
        if i:
            assert frame["action"][0] == record["actions"][i - 1][0]


def test_a_replay_after_a_redeal_counts_its_deals(server: Server) -> None:
    game = ddz.Game("classic", seed=2)
    for _ in range(3):
        game.step("pass")  # everyone passes: dealt again
    agent = GreedyAgent()
    while game.phase != "over":
        game.step(agent.act(game.observation(game.to_act), game.legal_actions()))
    frames = server.http.post("/replays", content=game.to_json()).json()["frames"]
    assert [f["deal"] for f in frames[:5]] == [0, 0, 0, 1, 1]
    assert frames[3]["action"] == [frames[3]["action"][0], "pass"]


def test_a_table_replays_only_finished_deals(server: Server) -> None:
    table, token, local = finished_table(server, "laizi", seed=4)
    replay = server.http.get(f"/tables/{table}/replay?deal=0").json()
    assert replay["result"] == local.result
    assert replay["frames"][-1]["hands"] == ["".join(h) for h in local.hands]
    hands = server.http.get(f"/tables/{table}/hands?deal=0").json()
    assert hands == {"hands": ["".join(h) for h in local.hands], "kitty": "".join(local.kitty)}
    server.http.post(f"/tables/{table}/next", headers=bearer(token))
    assert "not over" in error_of(server.http.get(f"/tables/{table}/replay"), 403)
    assert "not over" in error_of(server.http.get(f"/tables/{table}/hands"), 403)
    assert error_of(server.http.get(f"/tables/{table}/replay?deal=5"), 404)
    assert error_of(server.http.get(f"/tables/{table}/hands?deal=-1"), 422)


def test_a_bad_record_is_refused_in_words(server: Server) -> None:
    def post(body: bytes) -> httpx.Response:
        return server.http.post(
            "/replays", content=body, headers={"content-type": "application/json"}
        )

    assert "format" in error_of(post(b'{"format": 1}'), 422)
    assert "JSON" in error_of(post(b"not json"), 422)
    unfinished = ddz.Game("classic", seed=1).to_json().encode()
    assert "not over" in error_of(post(unfinished), 422)
    assert "UTF-8" in error_of(post(b"\xff\xfe"), 400)
    assert error_of(server.http.get("/replays/unknown"), 404)


def test_offered_seats_in_the_lobby(server: Server) -> None:
    table, tokens = server.create("classic", seed=5, bots={"2": "random"})
    listed = {t["id"]: t for t in server.http.get("/lobby").json()["tables"]}[table]
    assert listed["seats"] == [
        {"seat": 0, "connected": False, "offered": False},
        {"seat": 1, "connected": False, "offered": False},
        {"seat": 2, "bot": "random"},
    ]
    # only the seat's own token offers it
    assert error_of(server.http.post(f"/tables/{table}/offers/1", headers=bearer(tokens["0"])), 403)
    assert error_of(server.http.post(f"/tables/{table}/offers/1"), 401)
    assert error_of(server.http.post(f"/tables/{table}/offers/1/take"), 409)
    reply = server.http.post(f"/tables/{table}/offers/1", headers=bearer(tokens["1"]))
    assert reply.json() == {"offered": [1]}
    with connect(f"{server.ws_base}/tables/{table}/ws?token={tokens['0']}") as ws:
        json.loads(ws.recv())  # connected: the first view
        seats = {t["id"]: t for t in server.http.get("/lobby").json()["tables"]}[table]["seats"]
        assert seats[0]["connected"] and seats[1] == {
            "seat": 1,
            "connected": False,
            "offered": True,
        }
    taken = server.http.post(f"/tables/{table}/offers/1/take").json()
    # A new token for the taker; the one that offered the seat opens nothing now.
    assert taken["seat"] == 1 and taken["token"] != tokens["1"]
    assert server.view(table, taken["token"])["seat"] == 1
    assert error_of(server.http.get(f"/tables/{table}/view", headers=bearer(tokens["1"])), 403)
    assert error_of(server.http.post(f"/tables/{table}/offers/1/take"), 409)  # once only
    # withdrawn, and gone with the table once it is closed
    server.http.post(f"/tables/{table}/offers/0", headers=bearer(tokens["0"]))
    server.http.delete(f"/tables/{table}/offers/0", headers=bearer(tokens["0"]))
    assert error_of(server.http.post(f"/tables/{table}/offers/0/take"), 409)
    server.http.post(f"/tables/{table}/offers/0", headers=bearer(tokens["0"]))
    server.http.post(f"/tables/{table}/close", headers=bearer(tokens["0"]))
    assert table not in {t["id"] for t in server.http.get("/lobby").json()["tables"]}
    assert "closed" in error_of(server.http.post(f"/tables/{table}/offers/0/take"), 409)


def test_ddz_replay_refuses_a_bad_record(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": ddz.game.game.FORMAT}))
    assert main(["replay", str(bad), "--no-browser"]) == 2
    assert "not a finished deal's record" in capsys.readouterr().err
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text(ddz.Game("laizi", seed=1).to_json())
    assert main(["replay", str(unfinished), "--no-browser"]) == 2
    assert "not over" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json"), "--no-browser"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_the_static_files_need_no_font_and_no_other_host() -> None:
    """No emoji or card-suit glyph (fonts differ; the page draws suits and
    jokers in SVG), and no address of another host."""
    from pathlib import Path

    import ddz.serve

    static = Path(ddz.serve.__file__).parent / "static"
    files = sorted(static.iterdir())
    assert {f.suffix for f in files} == {".html", ".js", ".css", ".json"}
    for f in files:
        text = f.read_text(encoding="utf-8")
        glyphs = [c for c in text if ord(c) >= 0x1F000 or 0x2660 <= ord(c) <= 0x2667]
        assert not glyphs, (f.name, glyphs)
        # The SVG namespace is a name, never fetched; any other host would be.
        text = text.replace("http://www.w3.org/2000/svg", "")
        assert not re.search(r"(?:https?:)?//[\w-]+(?:\.[\w-]+)+", text), f.name
        assert "@import" not in text and "url(" not in text, f.name


def test_the_lobby_lists_offered_tables_first_and_not_all(server: Server) -> None:
    from ddz.serve.pages import LOBBY_LISTED

    made = [server.create("two-player", seed=s) for s in range(LOBBY_LISTED + 1)]
    table, tokens = made[-1]
    server.http.post(f"/tables/{table}/offers/1", headers=bearer(tokens["1"]))
    listed = server.http.get("/lobby").json()["tables"]
    assert len(listed) == LOBBY_LISTED
    assert listed[0]["id"] == table


def test_search_hints_rank_plays_with_win_rates(server: Server) -> None:
    # hints: "search": the search's best plays first, each with its win
    # rate and interval, then every other legal play in hint order.
    table, token, local = seat_0_to_play(server, hints="search")
    got = server.http.get(f"/tables/{table}/hints", headers=bearer(token)).json()
    assert got["mode"] == "search"
    legal = sorted(str(a) for a in local.legal_actions() if isinstance(a, ddz.Move))
    assert sorted(h["action"] for h in got["hints"]) == legal
    ranked = [h for h in got["hints"] if "wp" in h]
    assert 1 <= len(ranked) <= 3 and got["hints"][: len(ranked)] == ranked
    for h in ranked:
        assert 0 <= h["low"] <= h["wp"] <= h["high"] <= 1


def test_a_finished_deal_is_analysed_once_and_kept(server: Server) -> None:
    table, token, local = finished_table(server, "classic", seed=4)
    reply = server.http.post(f"/replay/{table}/0/analysis")
    assert reply.status_code == 200, reply.text
    analysis = reply.json()
    assert set(analysis["accuracy"]) == {"0", "1", "2"}
    assert analysis["decisions"] and analysis["settings"]["seed"] == 0
    for d in analysis["decisions"]:
        assert d["loss"] >= 0 and any(c["action"] == d["played"] for c in d["candidates"])
    # Built once: the same text again, at once.
    assert server.http.post(f"/replay/{table}/0/analysis").json() == analysis
    assert error_of(server.http.post(f"/replay/{table}/5/analysis"), 404)
    server.http.post(f"/tables/{table}/next", headers=bearer(token))
    assert "not over" in error_of(server.http.post(f"/replay/{table}/1/analysis"), 403)
    assert error_of(server.http.post("/replay/nosuchtable/0/analysis"), 404)


def test_an_analysis_is_stored_with_the_log_and_read_after_a_restart(tmp_path) -> None:
    db = tmp_path / "kept.sqlite3"
    first = Server(db)
    try:
        table, _, _ = finished_table(first, "classic", seed=5)
        built = first.http.post(f"/replay/{table}/0/analysis")
        assert built.status_code == 200, built.text
    finally:
        first.stop()
    with sqlite3.connect(db) as conn:
        (stored,) = conn.execute(
            "SELECT analysis FROM analyses WHERE table_id = ? AND number = 0", (table,)
        ).fetchone()
        assert json.loads(stored) == built.json()
        # Mark the stored row: a server that built the analysis again would not answer it.
        conn.execute(
            "UPDATE analyses SET analysis = ? WHERE table_id = ?", ('{"marked": true}', table)
        )
    again = Server(db)
    try:
        assert again.http.post(f"/replay/{table}/0/analysis").json() == {"marked": True}
    finally:
        again.stop()
