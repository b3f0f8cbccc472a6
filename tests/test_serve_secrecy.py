"""Secrecy through the HTTP API, for every preset: twin tables whose deals
differ only by two cards swapped between places a viewer cannot see must
show that viewer, and any spectator, the same thing.

The twins are dealt by the API's `deal` field (the deal of a seeded
`ddz.Game`, with the swap) and played with the same actions, each legal at
both, until a swapped place comes into the viewer's sight or the deal ends.
"""

from __future__ import annotations

import json
import random

import pytest
from serve_helpers import Server

import ddz

STEPS = 30


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # Up to 8 pairs of twin tables per preset, all from this one address.
    srv = Server(
        tmp_path_factory.mktemp("secrecy") / "secrecy.sqlite3", "--max-tables-per-client", "200"
    )
    yield srv
    srv.stop()


def cards(text: str) -> list[str]:
    """Suited card text ('9h9dX') as one string per copy."""
    out: list[str] = []
    for c in text:
        if c in "dchs" and out:
            out[-1] += c
        else:
            out.append(c)
    return out


def twin_deals(
    preset: str, seed: int, rng: random.Random
) -> tuple[dict, dict, int, list[str], set[str]]:
    """A seeded deal, the same deal with two cards of different ranks swapped
    between two hidden places, the viewer, what the swap touched and the two
    cards swapped. The
    kitty counts as hidden only if the viewer gets none of it at the start
    (some presets share it out before anyone acts)."""
    game = ddz.Game(preset, seed=seed)
    deal = json.loads(game.to_json())["deals"][0]
    n = len(deal["hands"])
    viewer = rng.randrange(n)
    places = [f"hand{s}" for s in range(n) if s != viewer]
    dealt = len(cards(deal["hands"][viewer]))
    if deal.get("kitty") and len(cards(game.observation(viewer)["hand"])) == dealt:
        places.append("kitty")
    if deal.get("set_aside"):
        places.append("set_aside")
    a, b = rng.sample(places, 2)
    text = {p: deal[p[:4] + "s"][int(p[4:])] if p.startswith("hand") else deal[p] for p in (a, b)}
    pa, pb = cards(text[a]), cards(text[b])
    i = rng.randrange(len(pa))
    choices = [j for j, c in enumerate(pb) if c[0] != pa[i][0]]
    j = rng.choice(choices)
    swapped = {pa[i], pb[j]}
    pa[i], pb[j] = pb[j], pa[i]
    twin = json.loads(json.dumps(deal))
    for place, new in ((a, pa), (b, pb)):
        if place.startswith("hand"):
            twin["hands"][int(place[4:])] = "".join(new)
        else:
            twin[place] = "".join(new)
    return deal, twin, viewer, [a, b], swapped


def in_sight(obs: dict, touched: list[str]) -> bool:
    """Has a swapped place come into the viewer's sight (or hand)?"""
    for place in touched:
        if place.startswith("hand") and place[4:] in obs["seen_hands"]:
            return True
        if place == "kitty" and obs["kitty"] is not None:
            return True
    # the kitty or set-aside cards may have joined the viewer's hand
    return obs["phase"] == "over"


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_swapped_hidden_cards_change_no_view(server: Server, preset: str) -> None:
    rng = random.Random(preset)
    checked = 0
    for seed in range(8):  # enough deals for ten checked views; most need two
        if checked >= 10:
            break
        deal, twin, viewer, touched, swapped = twin_deals(preset, seed, rng)
        tables = [server.create(preset, deal=d, seed=seed) for d in (deal, twin)]
        start_hand = len(cards(deal["hands"][viewer]))
        for _ in range(STEPS):
            views = [unframed(server.view(t, tokens[str(viewer)])) for t, tokens in tables]
            watch = [unframed(server.http.get(f"/tables/{t}/spectate").json()) for t, _ in tables]
            obs = views[0]["observation"]
            if in_sight(obs, touched) or len(cards(obs["hand"])) > start_hand:
                break
            if any(played(v) & swapped for v in views):  # a swapped card was played: public
                break
            assert views[0] == views[1], f"{preset} seed {seed}: seat {viewer} sees the swap"
            assert watch[0] == watch[1], f"{preset} seed {seed}: a spectator sees the swap"
            assert "hand" not in watch[0]["observation"]
            checked += 1
            to_act = obs["to_act"]
            legal = [
                server.view(t, tokens[str(to_act)])["observation"]["legal_actions"]
                for t, tokens in tables
            ]
            both = [a for a in legal[0] if a in legal[1]]
            if not both:
                break
            action = rng.choice(both)
            for t, tokens in tables:
                reply = server.act(t, tokens[str(to_act)], action, f"s{checked}")
                if reply.status_code == 409 and "several legal readings" in reply.text:
                    reading = reply_readings(server, t, tokens[str(to_act)], action)
                    reply = server.act(t, tokens[str(to_act)], action, f"s{checked}", **reading)
                assert reply.status_code == 200, reply.text
    assert checked >= 10


def played(view: dict) -> set[str]:
    """The cards a view's history shows played (each play's third element)."""
    history = view["observation"]["history"]
    return {c for entry in history if len(entry) > 2 for c in cards(entry[2])}


def unframed(view: dict) -> dict:
    """A view less the table's id, which twins never share."""
    return {k: v for k, v in view.items() if k != "table"}


def reply_readings(server: Server, table: str, token: str, action: str) -> dict:
    return server.view(table, token)["readings"][action][0]
