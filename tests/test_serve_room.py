"""The game room on a real `ddz serve`: paced bots, the turn clock and
托管, the card counter, the hints option, the lobby's status, and a running
clock across kill -9.

Nothing here asserts a duration: waits are bounded polls for a state the
server must reach, and every clock is a fraction of a second.
"""

from __future__ import annotations

import json
import time
from collections import Counter

import pytest
from serve_helpers import Server, bearer, error_of
from websockets.sync.client import connect

import ddz
from ddz.agents import GreedyAgent, RandomAgent
from ddz.serve.limits import ENGINE_THREADS
from ddz.serve.room import RANKS, WILD, counter

#: The longest a poll waits for the server to reach a state.
WAIT = 15.0


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("room") / "room.sqlite3")
    yield srv
    srv.stop()


def wait_for(server: Server, table: str, token: str, done, what: str) -> dict:
    """Poll the seat's view until `done(view)`; fail after WAIT seconds."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        view = server.view(table, token)
        if done(view):
            return view
        time.sleep(0.05)
    raise AssertionError(f"{what}: not reached within {WAIT} s; last view {view}")


def act(server: Server, table: str, token: str, view: dict, key: str) -> dict:
    action = view["observation"]["legal_actions"][0]
    reading = view.get("readings", {}).get(action, [{}])[0]
    reply = server.act(table, token, action, key, **reading)
    assert reply.status_code == 200, reply.text
    return reply.json()


# ---- pacing ---------------------------------------------------------------------
def test_bots_act_one_at_a_time_each_its_own_push_after_the_reply(server: Server) -> None:
    bots = {"1": "greedy", "2": "greedy"}
    table, tokens = server.create("classic", seed=21, bots=bots, bot_delay_ms=120)
    token = tokens["0"]
    with connect(f"{server.ws_base}/tables/{table}/ws?token={token}") as ws:
        view = json.loads(ws.recv(5))
        while view["observation"]["to_act"] != 0:  # seat 1 or 2 begins: they act, paced
            view = json.loads(ws.recv(WAIT))
        steps = 0
        while view["observation"]["phase"] != "over" and steps < 6:
            reply = act(server, table, token, view, f"k{steps}")
            # The reply holds the person's action only: the bots have not answered yet.
            assert reply["version"] == view["version"] + 1
            assert reply["observation"]["history"][-1][0] == 0
            pushes = []
            view = reply
            while view["observation"]["phase"] != "over" and view["observation"]["to_act"] != 0:
                view = json.loads(ws.recv(WAIT))
                pushes.append(view)
            versions = [p["version"] for p in pushes]
            # One push a step: every version from the person's action to the person's turn.
            assert versions == list(range(versions[0], versions[0] + len(versions)))
            assert versions[0] == reply["version"]
            assert all(p["observation"]["history"][-1][0] in (1, 2) for p in pushes[1:])
            steps += 1
        assert steps >= 2, "the deal ended before the pacing was seen twice"


def test_a_table_without_a_person_plays_at_once(server: Server) -> None:
    made = server.make("classic", seed=3, bots={s: "greedy" for s in "012"}, bot_delay_ms=800)
    summary = server.http.get(f"/tables/{made['id']}").json()
    assert summary["phase"] == "over" and summary["status"] == "finished"


# ---- the clock and 托管 --------------------------------------------------------------
def test_the_clock_runs_out_the_server_acts_and_two_timeouts_make_autoplay(server) -> None:
    bots = {"1": "greedy", "2": "greedy"}
    table, tokens = server.create("classic", seed=5, bots=bots, turn_seconds=0.3)
    token = tokens["0"]
    view = server.view(table, token)
    assert view["observation"]["to_act"] == 0  # the bots answered at once (delay 0)
    clock = view["clock"]
    assert clock["seat"] == 0 and clock["seconds"] == 0.3
    assert clock["deadline_ms"] > 0 and view["autoplay"] == []
    before = view["version"]
    view = wait_for(server, table, token, lambda v: v["version"] > before, "the first timeout")
    history = view["observation"]["history"]
    mine = [a for s, a in history if s == 0]
    assert mine == ["pass"]  # the auction: a timeout passes
    if view["observation"]["phase"] != "over" and view["observation"]["to_act"] == 0:
        assert view["clock"]["seat"] == 0 and view["autoplay"] == []
    # The second timeout in a row puts seat 0 in 托管; its bot then plays
    # its turns (at once here: the table has no delay), the deal to its end.
    view = wait_for(server, table, token, lambda v: v["autoplay"] == [0], "托管 after 2 timeouts")
    view = wait_for(
        server, table, token, lambda v: v["observation"]["phase"] == "over", "the deal's end"
    )
    assert view["clock"] is None and view["autoplay"] == [0]
    plays = [a for s, a in view["observation"]["history"] if s == 0 and a != "pass"]
    assert plays, "托管 played no card for seat 0"
    reply = server.http.post(f"/tables/{table}/autoplay", json={"on": False}, headers=bearer(token))
    assert reply.status_code == 200, reply.text
    assert reply.json()["autoplay"] == []
    assert reply.json()["version"] == view["version"] + 1


def test_autoplay_on_and_off_by_the_seat_and_acting_cancels_it(server: Server) -> None:
    bots = {"1": "greedy", "2": "greedy"}
    # A long delay: 托管 is on, but its bot has not acted when the person does.
    table, tokens = server.create("classic", seed=8, bots=bots, bot_delay_ms=5000)
    token = tokens["0"]
    view = server.view(table, token)
    assert view["observation"]["to_act"] == 0  # seed 8: seat 0 bids first
    url = f"/tables/{table}/autoplay"
    on = server.http.post(url, json={"on": True}, headers=bearer(token))
    assert on.status_code == 200 and on.json()["autoplay"] == [0]
    assert on.json()["version"] == view["version"] + 1  # its own change, pushed
    assert server.http.post(url, json={"on": True}, headers=bearer(token)).json()["autoplay"] == [0]
    mine = act(server, table, token, on.json(), "here")  # the person acts: 托管 is off
    assert mine["autoplay"] == []
    # Bad requests change nothing.
    error_of(server.http.post(url, json={"on": True}), 401)
    error_of(server.http.post(url, json={"on": True}, headers=bearer("nope")), 403)
    error_of(server.http.post(url, json={"on": "yes"}, headers=bearer(token)), 422)
    error_of(server.http.post(url, json={}, headers=bearer(token)), 422)
    assert server.view(table, token)["version"] == mine["version"]


def test_autoplay_at_a_table_without_delay_plays_the_seat_at_once(server: Server) -> None:
    table, tokens = server.create("classic", seed=9, bots={"1": "greedy", "2": "greedy"})
    token = tokens["0"]
    reply = server.http.post(f"/tables/{table}/autoplay", json={"on": True}, headers=bearer(token))
    assert reply.status_code == 200, reply.text
    assert reply.json()["observation"]["phase"] == "over"  # every seat is the server's now
    record = json.loads(server.http.get(f"/tables/{table}/record").text)
    assert any(seat == 0 for seat, _ in record["actions"])


def test_options_are_checked(server: Server) -> None:
    for body in (
        {"turn_seconds": -1},
        {"turn_seconds": "20"},
        {"bot_delay_ms": 10**9},
        {"hints": "best"},
        {"autoplay_after": -2},
        {"card_counter": "yes"},
        {"autoplay_bot": "genius"},
    ):
        reply = server.http.post("/tables", json={"preset": "classic", **body})
        error_of(reply, 422)


# ---- the counter and hints -------------------------------------------------------------
def ranks_of(cards) -> Counter:
    return Counter(c[0] for c in cards)


def expected_counter(game: ddz.Game, seat: int) -> dict[str, int]:
    """From the record's side: every other seat's hand, the kitty while no
    one holds it, and the cards set aside."""
    unseen: Counter = Counter()
    for s, hand in enumerate(game.hands):
        if s != seat:
            unseen += ranks_of(hand)
    if not game.kitty_given:
        unseen += ranks_of(game.kitty)
    unseen += ranks_of(game.set_aside)
    keys = RANKS + (WILD if game.rules.laizi else "")
    return {r: unseen.get(r, 0) for r in keys}


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_the_counter_equals_the_count_from_the_record(preset: str) -> None:
    rules = ddz.Rules(preset)
    game = ddz.Game(rules, seed=17)
    agents = [RandomAgent(s) if s % 2 else GreedyAgent() for s in range(rules.players)]
    checked = 0
    while True:
        record = json.loads(game.to_json())
        again = ddz.Game.from_json(json.dumps(record))  # the deal as its record has it
        for seat in range(rules.players):
            assert counter(rules, game.observation(seat)) == expected_counter(again, seat)
            checked += 1
        if game.phase == "over":
            break
        seat = game.to_act
        game.step(agents[seat].act(game.observation(seat), game.legal_actions()))
    assert checked > rules.players * 10


def test_views_carry_the_counter_unless_it_is_off(server: Server) -> None:
    table, tokens = server.create("laizi", seed=2)
    view = server.view(table, tokens["0"])
    assert set(view["counter"]) == set(RANKS + WILD)
    assert sum(view["counter"].values()) == 54 + 2 - 17
    spectators = server.http.get(f"/tables/{table}/spectate").json()
    assert "counter" not in spectators and spectators["clock"] is None
    table, tokens = server.create("classic", seed=2, card_counter=False, hints="off")
    view = server.view(table, tokens["0"])
    assert "counter" not in view
    hints = server.http.get(f"/tables/{table}/hints", headers=bearer(tokens["0"])).json()
    assert hints["mode"] == "off" and hints["hints"] == []


def test_the_lobby_tells_open_playing_and_finished_apart(server: Server) -> None:
    table, tokens = server.create("classic", seed=4)
    assert server.http.get(f"/tables/{table}").json()["status"] == "open"
    view = server.view(table, tokens["0"])
    to_act = view["observation"]["to_act"]
    act(server, table, tokens[str(to_act)], server.view(table, tokens[str(to_act)]), "x")
    assert server.http.get(f"/tables/{table}").json()["status"] == "playing"
    server.http.post(f"/tables/{table}/close", headers=bearer(tokens["0"]))
    assert server.http.get(f"/tables/{table}").json()["status"] == "finished"


# ---- kill -9 ---------------------------------------------------------------------------
def test_clocks_and_paced_bots_go_on_after_kill_9(tmp_path) -> None:
    db = tmp_path / "clock.sqlite3"
    srv = Server(db)
    try:
        bots = {"1": "greedy", "2": "greedy"}
        table, tokens = srv.create("classic", seed=5, bots=bots, turn_seconds=60)
        token = tokens["0"]
        before = srv.view(table, token)
        assert before["clock"]["seat"] == 0
        # And a table whose paced bots have steps to take when the server dies.
        paced, paced_tokens = srv.create("classic", seed=8, bots=bots, bot_delay_ms=2000)
        mine = act(srv, paced, paced_tokens["0"], srv.view(paced, paced_tokens["0"]), "k")
        assert mine["observation"]["to_act"] != 0
        # And a short clock that runs out while the server is down.
        short, short_tokens = srv.create("classic", seed=5, bots=bots, turn_seconds=0.4)
        short_before = srv.view(short, short_tokens["0"])
        srv.kill9()  # before its timeout fires, most likely; either way the store holds it
    finally:
        srv.stop()
    time.sleep(0.5)
    again = Server(db)
    try:
        after = again.view(table, token)
        # Resumed, not restarted: the same deadline, kept with the log.
        assert after["clock"] == before["clock"]
        assert after["version"] == before["version"]
        # The paced bots take their steps after the restart, up to the person's turn.
        back = wait_for(
            again,
            paced,
            paced_tokens["0"],
            lambda v: v["observation"]["to_act"] == 0 or v["observation"]["phase"] == "over",
            "the bots' steps after the restart",
        )
        assert back["version"] > mine["version"]
        # The deadline lost while down fires after the restart: the seat passes its bid.
        late = wait_for(
            again,
            short,
            short_tokens["0"],
            lambda v: v["version"] > short_before["version"],
            "the timeout lost while down",
        )
        assert [a for s, a in late["observation"]["history"] if s == 0][0] == "pass"
    finally:
        again.stop()


# ---- the bots' own pool (issue 53, item 6) -----------------------------------------------
SLOW_BOT = """
import time
from ddz.agents import GreedyAgent
from ddz.serve.bots import BOT_KINDS, BotKind

class Slow(GreedyAgent):
    def act(self, observation, legal):
        time.sleep(0.03)  # a thinker that holds its thread
        return super().act(observation, legal)

BOT_KINDS["slow"] = BotKind(lambda rules, seed: Slow(), "a slow thinker")
"""


def test_all_bot_tables_thinking_never_hold_up_a_person_elsewhere(tmp_path) -> None:
    """More all-bot tables of a slow kind than the engine has threads (each
    a whole deal of 30 ms decisions, seconds of thinking) are made at once,
    while a person plays a six-seat table, whose actions run in the engine's
    threads: the person's actions are all answered before the first of those
    tables is made (they would wait for one if the bots used the same pool)."""
    import threading

    import httpx

    srv = Server(tmp_path / "pool.sqlite3", prelude=SLOW_BOT)
    try:
        replies: list = []

        def create(i: int) -> None:
            body = {"preset": "classic", "seed": i, "bots": {s: "slow" for s in "012"}}
            with httpx.Client(base_url=srv.base, timeout=120) as http:
                replies.append(http.post("/tables", json=body))

        makers = [threading.Thread(target=create, args=(i,)) for i in range(ENGINE_THREADS + 1)]
        table, tokens = srv.create("six-player-2v4", seed=3)
        for m in makers:
            m.start()
        time.sleep(0.2)  # let the slow tables reach the server first
        for step in range(4):
            seat = srv.view(table, tokens["0"])["observation"]["to_act"]
            view = srv.view(table, tokens[str(seat)])
            act(srv, table, tokens[str(seat)], view, f"p{step}")
        made_meanwhile = len(replies)
        for m in makers:
            m.join(120)
        assert len(replies) == len(makers) and all(r.status_code == 201 for r in replies)
        assert made_meanwhile == 0, "a person's action waited for an all-bot table"
    finally:
        srv.stop()


# ---- the table's own logic, in process ---------------------------------------------------
def served(room: dict, bots: dict | None = None, seed: int = 8):
    from ddz.serve.tables import ServedTable

    spec = {
        "preset": "classic",
        "options": {},
        "seed": seed,
        "seed_given": False,
        "deal": None,
        "bots": bots if bots is not None else {"1": "greedy", "2": "greedy"},
        "bot_secret": "0" * 64,
        "room": room,
    }
    return ServedTable.create("t", spec, {})


def no_key(seat: int, key: str) -> None:
    return None


def test_a_paced_table_answers_the_person_alone_then_one_bot_step_at_a_time() -> None:
    from ddz.serve.tables import Request

    table, first = served({"bot_delay_ms": 500})
    assert first == [] and table.paced and table.game.to_act == 0  # seed 8: seat 0 first
    legal = table.game.legal_actions()
    entries = table.act(0, Request(str(legal[0]), "k"), no_key)
    assert entries is not None and [e.seat for e in entries] == [0]
    steps = 0
    while table.server_turn():
        step = table.bot_step()
        assert step is not None and len(step) == 1 and step[0].seat in (1, 2)
        steps += 1
    assert steps >= 1 and (table.game.to_act == 0 or table.game.phase == "over")
    # 托管: the seat's turns are the server's, one step at a time, until it is turned off.
    if table.game.phase != "over":
        table.set_autoplay(0, True)
        assert table.server_turn() and table.clock is None
        step = table.bot_step()
        assert step is not None and [e.seat for e in step] == [0]
        table.set_autoplay(0, False)
        assert table.autoplay == set()


def test_the_clock_of_the_auction_the_first_play_and_the_rest() -> None:
    from ddz.agents import GreedyAgent
    from ddz.serve.room import RoomOptions

    room = RoomOptions(turn_seconds=15, auction_seconds=5, first_turn_seconds=30)
    game, agent = ddz.Game("classic", seed=8), GreedyAgent()
    seen = []
    while game.phase != "over":
        seen.append((game.phase, room.seconds_for(game)))
        game.step(agent.act(game.observation(game.to_act), game.legal_actions()))
    auction = [s for phase, s in seen if phase != "play"]
    play = [s for phase, s in seen if phase == "play"]
    assert set(auction) == {5} and play[0] == 30 and set(play[1:]) == {15}
    assert RoomOptions(turn_seconds=0, auction_seconds=5).seconds_for(ddz.Game("classic")) == 0
    # The clock runs for a person only: a bot's turn, or 托管, has none.
    table, _ = served({"turn_seconds": 10, "auction_seconds": 4})
    assert table.clock is not None and table.clock["seat"] == 0 and table.clock["seconds"] == 4
    table.set_autoplay(0, True)
    assert table.clock is None


def test_a_timeout_passes_when_it_may_and_counts_toward_autoplay() -> None:
    table, _ = served({"turn_seconds": 10, "autoplay_after": 1, "bot_delay_ms": 0})
    assert table.clock is not None
    assert table.timeout(table.clock["deadline_ms"] - 1) is None  # not yet
    pushed = []
    entries = table.timeout(table.clock["deadline_ms"], lambda: pushed.append(table.version))
    assert entries is not None
    assert [(e.seat, e.action, e.key) for e in entries[:2]] == [
        (0, "pass", None),
        (None, "@auto:0:1", None),
    ]
    assert table.autoplay == {0}
    # Every version its own push: the timeout's, 托管's, then each bot step's.
    assert pushed == list(range(1, table.version + 1))


def test_a_bad_bot_seat_is_refused_before_the_cost_search(tmp_path, monkeypatch) -> None:
    """Issue 53: varying harmless options with a bad seat must not buy a
    fresh search of the rule set's richest lead."""
    from ddz.serve import lobby as lobby_module
    from ddz.serve.hub import Hub
    from ddz.serve.limits import Limits
    from ddz.serve.replies import Refused
    from ddz.serve.store import Store

    searched = []
    monkeypatch.setattr(lobby_module, "check_cost", lambda rules: searched.append(rules))
    lobby = lobby_module.Lobby(Store(str(tmp_path / "cost.sqlite3")), Hub(), Limits())
    try:
        with pytest.raises(Refused) as refused:
            lobby._make("classic", {"spring": False}, None, None, {"3": "greedy"}, "c", None)
        assert refused.value.status == 422 and searched == []
        assert "not a seat" in refused.value.message
        lobby._make("classic", {}, None, None, {"2": "greedy"}, "c", None)
        assert len(searched) == 1
    finally:
        lobby.shutdown()
