"""The puzzle mode's routes (serve/puzzle_routes.py) on the ASGI app: a
right move advances and the defence answers, a wrong move is refuted and
changes nothing, stars, and Glicko-2 ratings that move on a first attempt
only. Glicko-2 itself against Glickman's worked example."""

from __future__ import annotations

from collections import Counter

import pytest
from fastapi.testclient import TestClient

import ddz
from ddz.puzzles import longest_reply
from ddz.serve import glicko
from ddz.serve.app import create_app
from ddz.serve.puzzle_mode import Position, make_pack

RULES = ddz.Rules("classic")


@pytest.fixture(scope="module")
def pack():
    return make_pack(n=3, seed=7)


@pytest.fixture()
def client(tmp_path, pack):
    app = create_app(str(tmp_path / "p.sqlite3"))
    app.state.puzzles._pack = pack  # a small pack: the full one takes seconds
    with TestClient(app) as c:
        yield c


def test_glicko2_matches_glickmans_worked_example():
    # Glickman's example: 1500/200/0.06, tau 0.5, against 1400/30 (won),
    # 1550/100 and 1700/300 (lost): 1464.06, 151.52, 0.05999.
    me = glicko.Rating(1500, 200, 0.06)
    games = [(glicko.Rating(1400, 30), 1), (glicko.Rating(1550, 100), 0)]
    games.append((glicko.Rating(1700, 300), 0))
    r = glicko.update(me, games, tau=0.5)
    assert r.rating == pytest.approx(1464.06, abs=0.01)
    assert r.deviation == pytest.approx(151.52, abs=0.01)
    assert r.volatility == pytest.approx(0.05999, abs=0.00001)


def losing_first_move(p):
    hand = p["hands"][0]
    for m in RULES.moves(hand):
        after = [hand, p["hands"][1]]
        for c in str(m.cards):
            after[0] = after[0].replace(c, "", 1)
        if after[0] and RULES.solve(after, to_move=1, prev=str(m.cards), prev_by=0).win:
            return str(m.cards)
    raise AssertionError("a puzzle has a losing first move")


def play(client, p, cards, player="player-one"):
    return client.post(f"/puzzles/{p['id']}/move", json={"player": player, "cards": cards})


def test_pack_lists_chapters_easiest_first(client, pack):
    r = client.get("/puzzles/pack", params={"player": "player-one"})
    assert r.status_code == 200
    chapters = r.json()["chapters"]
    assert [c["id"] for c in chapters] == [p["id"] for p in pack]
    assert [c["rating"] for c in chapters] == sorted(c["rating"] for c in chapters)
    assert client.get("/puzzles").status_code == 200
    assert client.get("/puzzles/pack", params={"player": "x"}).status_code == 400


def test_main_line_solves_with_three_stars_and_rates_once(client, pack):
    p = pack[0]
    before = client.get("/puzzles/pack", params={"player": "player-one"}).json()
    for i in range(0, len(p["line"]), 2):
        seat, action = p["line"][i]
        assert seat == 0
        r = play(client, p, action).json()
        if i + 1 < len(p["line"]):
            assert r["result"] == "right"
            assert r["reply"] == p["line"][i + 1][1]  # the longest defence
            assert r["history"] == p["line"][: i + 2]
    assert r["result"] == "solved" and r["earned"] == 3 and r["stars"] == 3
    after = client.get("/puzzles/pack", params={"player": "player-one"}).json()
    assert after["player_rating"] > before["player_rating"] == 1500
    assert after["chapters"][0]["rating"] < before["chapters"][0]["rating"]
    # A second solve is not a first attempt: no rating moves.
    client.post(f"/puzzles/{p['id']}/restart", json={"player": "player-one"})
    for i in range(0, len(p["line"]), 2):
        r = play(client, p, p["line"][i][1]).json()
    again = client.get("/puzzles/pack", params={"player": "player-one"}).json()
    assert again["player_rating"] == after["player_rating"]
    assert again["chapters"][0]["rating"] == after["chapters"][0]["rating"]


def test_wrong_move_is_refuted_and_changes_nothing(client, pack):
    p = pack[1]
    wrong = losing_first_move(p)
    start = client.get(f"/puzzles/{p['id']}", params={"player": "player-two"}).json()
    r = play(client, p, wrong, "player-two").json()
    assert r["result"] == "wrong"
    assert r["refutation"] and r["refutation"][0][0] == 1
    assert r["hands"] == start["hands"] == p["hands"] and r["history"] == []
    rated = client.get("/puzzles/pack", params={"player": "player-two"}).json()["player_rating"]
    assert rated < 1500  # the first attempt failed
    r = play(client, p, wrong, "player-two").json()  # a second miss is not rated
    assert (
        client.get("/puzzles/pack", params={"player": "player-two"}).json()["player_rating"]
        == rated
    )
    for i in range(0, len(p["line"]), 2):
        r = play(client, p, p["line"][i][1], "player-two").json()
    assert r["result"] == "solved" and r["earned"] == 2


def off_line_winning_move(p):
    """A landlord turn on the main line and a winning play there that is not
    the main line's (other kickers count as off the line)."""
    for n in range(0, len(p["line"]), 2):
        pos = Position(p, p["line"][:n])
        for m in RULES.moves(pos.hands[0], pos.prev):
            cards = str(m.cards)
            after = Position(p, p["line"][:n] + [[0, cards]])
            if Counter(cards) == Counter(p["line"][n][1]) or not after.hands[0]:
                continue
            if not RULES.solve(after.hands, to_move=1, prev=after.prev, prev_by=0).win:
                return n, cards, after
    return None


def test_off_the_main_line_the_defence_still_resists_longest(client, pack):
    found = [(p, off) for p in pack if (off := off_line_winning_move(p)) is not None]
    assert found, "the pack has a winning play off its main line"
    p, (n, cards, after) = found[0]
    for i in range(0, n, 2):
        assert play(client, p, p["line"][i][1], "player-four").json()["result"] == "right"
    r = play(client, p, cards, "player-four").json()
    assert r["result"] == "right" and r["history"][n] == [0, cards]
    want = longest_reply(RULES, after.hands, 1, prev=after.prev, prev_by=0)
    assert want is not None and r["reply"] == want


def test_hint_shows_the_first_move_and_gives_one_star(client, pack):
    p = pack[2]
    r = client.post(f"/puzzles/{p['id']}/hint", json={"player": "player-three"}).json()
    assert r["move"] == p["line"][0][1] and r["hinted"]
    for i in range(0, len(p["line"]), 2):
        r = play(client, p, p["line"][i][1], "player-three").json()
    assert r["result"] == "solved" and r["earned"] == 1


def test_bad_requests_are_refused(client, pack):
    p = pack[0]
    assert play(client, p, "pass").status_code == 400  # the landlord leads
    assert play(client, p, "DDDD").status_code == 400
    assert client.get("/puzzles/nope", params={"player": "player-one"}).status_code == 404
