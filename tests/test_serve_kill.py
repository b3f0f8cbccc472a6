"""Kill -9 during a load run: every table resumes in its last acknowledged
state, with nothing lost and nothing applied twice.

Clients play tables against bots as fast as the server answers; the
server is killed with SIGKILL while requests are in flight, started again
on the same file, and each client's last acknowledged view is compared
with the server's view. A request in flight at the kill may or may not
have been committed; the client retries it with the same key (as a client
must), which is applied exactly once either way.
"""

from __future__ import annotations

import random
import threading
import time

import httpx
from serve_helpers import Server, bearer

PRESETS = ["classic", "laizi", "two-player", "four-player", "five-player", "six-player-2v4"]
CLIENTS = 12
#: Kill once every client has had this many replies (so the kill falls in
#: the middle of a run however loaded the machine is), or after RUN_LIMIT s.
ACKS_EACH = 5
RUN_LIMIT = 30


class Client(threading.Thread):
    """One seat at one table, acting until the server goes away."""

    def __init__(self, base: str, preset: str, n: int) -> None:
        super().__init__(daemon=True)
        self.rng = random.Random(n)
        self.preset = preset
        self.n = n
        self.base = base
        self.acked: dict | None = None  # the last 200 reply
        self.acks = 0
        self.in_flight: dict | None = None  # the request sent, no reply yet
        with httpx.Client(base_url=base, timeout=10) as http:
            body = {"preset": preset, "seed": n, "bots": self.bots(), "bot_delay_ms": 0}
            made = http.post("/tables", json=body)
        self.table, token = made.json()["id"], made.json()["tokens"]["0"]
        self.auth = bearer(token)

    def bots(self) -> dict:
        players = {"two-player": 2, "four-player": 4, "five-player": 5, "six-player-2v4": 6}
        return {str(s): "greedy" for s in range(1, players.get(self.preset, 3))}

    def run(self) -> None:
        http = httpx.Client(base_url=self.base, timeout=10)
        try:
            view = http.get(f"/tables/{self.table}/view", headers=self.auth).json()
            self.acked = view
            while True:
                obs = view["observation"]
                if obs["phase"] == "over":
                    self.in_flight = {"next": True}
                    reply = http.post(f"/tables/{self.table}/next", headers=self.auth)
                else:
                    action = self.rng.choice(obs["legal_actions"])
                    body = {"action": action, "key": f"{self.n}-{self.acks}"}
                    if action in view.get("readings", {}):
                        body.update(view["readings"][action][0])
                    self.in_flight = body
                    reply = http.post(f"/tables/{self.table}/actions", json=body, headers=self.auth)
                assert reply.status_code == 200, reply.text
                view = reply.json()
                self.acked, self.in_flight = view, None
                self.acks += 1
        except httpx.TransportError:
            return  # the server is gone: `in_flight` may or may not have been applied
        finally:
            http.close()


def test_kill_9_loses_nothing_and_applies_nothing_twice(tmp_path) -> None:
    db = tmp_path / "kill.sqlite3"
    server = Server(db)
    try:
        clients = [Client(server.base, PRESETS[i % len(PRESETS)], i) for i in range(CLIENTS)]
        for c in clients:
            c.start()
        deadline = time.monotonic() + RUN_LIMIT
        while time.monotonic() < deadline and min(c.acks for c in clients) < ACKS_EACH:
            time.sleep(0.02)
        server.kill9()
        for c in clients:
            c.join(10)
            assert not c.is_alive()
    finally:
        server.stop()
    assert min(c.acks for c in clients) >= ACKS_EACH, "the load run did too little to test"
    again = Server(db)
    try:
        for c in clients:
            assert c.acked is not None
            now = again.view(c.table, c.auth["Authorization"][7:])
            if now == c.acked:
                continue  # resumed exactly where the last reply left it
            # Only the request in flight at the kill may have been committed.
            assert c.in_flight is not None, f"table {c.table} changed without a request"
            assert now["version"] > c.acked["version"]
            if "next" in c.in_flight:
                assert now["deal"] == c.acked["deal"] + 1
            else:
                retry = again.http.post(
                    f"/tables/{c.table}/actions", json=c.in_flight, headers=c.auth
                )
                assert retry.status_code == 200, retry.text
                assert retry.json() == now, "a retried key was applied twice"
            history = now["observation"]["history"]
            mine = [a for s, a in history if s == 0]
            if "next" not in c.in_flight:
                assert mine and mine[-1] == c.in_flight["action"]
        # every table still plays on after the restart
        c = clients[0]
        view = again.view(c.table, c.auth["Authorization"][7:])
        if view["observation"]["phase"] != "over":
            action = view["observation"]["legal_actions"][0]
            reading = view.get("readings", {}).get(action, [{}])[0]
            body = {"action": action, "key": "after", **reading}
            reply = again.http.post(f"/tables/{c.table}/actions", json=body, headers=c.auth)
            assert reply.status_code == 200, reply.text
    finally:
        again.stop()
