"""`ddz.testing.check_game`: the invariants every rule set must keep.

Run it on a custom rule set to get the checks the project runs on every
preset (docs/testing.md)::

    import ddz, ddz.testing
    ddz.testing.check_game(ddz.Rules("classic", kicks=True), deals=5, seed=1)

It plays `deals` deals with seeded random agents and, at every step,
checks the moment; a broken invariant raises `ConformanceError` naming the
rule set, the seed, the deal and the step. Nothing here needs pytest.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import ddz
from ddz.agents import RandomAgent

#: Words and plays to try as illegal actions: some legal somewhere, never all at once.
ILLEGAL_TRIES: tuple[object, ...] = (
    "bid:9",
    "bid:3",
    "call",
    "kick",
    "double",
    "grab",
    "reveal",
    "show",
    "side:main",
    "open-solo",
    "3",
    "XD",
    "2222",
    "333444555666",
    "zz",
    "pass",
    7,
    None,
)
#: A deal that has not ended after this many steps counts as one that never ends.
MAX_STEPS = 5000


class ConformanceError(AssertionError):
    """An invariant that a rule set's game broke (the message says where)."""


@dataclass(frozen=True)
class CheckReport:
    """What `check_game` checked: counts, so a caller can see it did work."""

    deals: int
    steps: int
    illegal_tried: int
    swaps_checked: int
    move_counts_checked: int

    def to_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


def multiplier_of(events: list[list[Any]]) -> int:
    """The multiplier `events` build: integer effects multiply, ``"+k"``
    effects add k to a count that starts at 1 (docs/game.md)."""
    product, count = 1, 1
    for _, effect in events:
        if isinstance(effect, str):
            count += int(effect)
        else:
            product *= effect
    return product * count


def check_game(
    rules: str | ddz.Rules, deals: int = 10, seed: int = 0, *, every: int = 1
) -> CheckReport:
    """Play `deals` deals (seeds ``seed .. seed + deals - 1``) and check, on
    each: it finishes; its scores sum to zero, are whole multiples of a
    multiplier the events build, and pay the winners; its record replays
    to the same record, result and views; an illegal action changes
    nothing; a view does not change when two cards it may not see are
    swapped; ``count_moves == len(moves)`` for the hand to act; the legal
    actions are unique and JSON-able views hold the seat's hand. `every`
    checks the per-step invariants on every `every`-th step only (1: all)."""
    if isinstance(rules, str):
        rules = ddz.Rules(rules)
    if not isinstance(deals, int) or deals < 0:
        raise ValueError(f"deals must be a non-negative int, not {deals!r}")
    if not isinstance(every, int) or every < 1:
        raise ValueError(f"every must be a positive int, not {every!r}")
    totals = _Totals()
    for deal_seed in range(seed, seed + deals):
        _Deal(rules, deal_seed, every, totals).run()
    return CheckReport(
        deals=deals,
        steps=totals.steps,
        illegal_tried=totals.illegal,
        swaps_checked=totals.swaps,
        move_counts_checked=totals.counts,
    )


class _Totals:
    def __init__(self) -> None:
        self.steps = self.illegal = self.swaps = self.counts = 0


class _Deal:
    """One deal played and checked."""

    def __init__(self, rules: ddz.Rules, seed: int, every: int, totals: _Totals) -> None:
        self.rules, self.seed, self.every, self.totals = rules, seed, every, totals
        self.rng = random.Random(seed)
        self.game = ddz.Game(rules, seed=seed)
        self.agents = [RandomAgent(seed * 7 + i) for i in range(rules.players)]
        self.step = 0

    def fail(self, what: str) -> ConformanceError:
        return ConformanceError(f"{self.rules.preset} seed {self.seed} step {self.step}: {what}")

    def run(self) -> None:
        game = self.game
        swap_at = self.rng.randrange(60)
        while game.phase != "over":
            if self.step >= MAX_STEPS:
                raise self.fail(f"the deal has not ended after {MAX_STEPS} steps")
            legal = game.legal_actions()
            if self.step % self.every == 0:
                self.check_moment(legal)
            if self.step == swap_at:
                self.check_secrecy()
            seat = game.to_act
            game.step(self.agents[seat].act(game.observation(seat), legal))
            self.step += 1
            self.totals.steps += 1
        self.check_over()
        self.check_result()
        self.check_replay()

    # ---- at every step ---------------------------------------------------
    def check_moment(self, legal: ddz.ActionList) -> None:
        game = self.game
        if not legal:
            raise self.fail(f"no legal action in phase {game.phase!r}")
        keys = [_key(a) for a in legal]
        if len(set(keys)) != len(keys):
            raise self.fail(f"legal actions repeat: {sorted(k for k in keys if keys.count(k) > 1)}")
        seat = game.to_act
        obs = game.observation(seat)
        try:
            json.dumps(obs)
        except TypeError as e:
            raise self.fail(f"seat {seat}'s observation is not JSON: {e}") from None
        if obs["phase"] != game.phase or obs["to_act"] != seat:
            raise self.fail("the observation's phase or seat to act is not the game's")
        if game.phase == "play":
            self.check_move_count(legal)
        self.check_illegal(legal)

    def check_move_count(self, legal: ddz.ActionList) -> None:
        hand = self.game.counts(self.game.to_act)
        prev = self._to_beat()
        counted = self.rules.count_moves(hand, prev)
        listed = self.rules.moves(hand, prev)
        if counted != len(listed):
            raise self.fail(f"count_moves {counted} != len(moves) {len(listed)} for {hand}")
        plays = sum(isinstance(a, ddz.Move) for a in legal)
        if plays != len(listed):
            raise self.fail(f"{plays} legal plays, but moves() lists {len(listed)}")
        self.totals.counts += 1

    def _to_beat(self) -> ddz.Move | None:
        if self.game.observation(self.game.to_act)["to_beat"] is None:
            return None
        for _, action, _ in reversed(self.game.actions):
            if isinstance(action, ddz.Move):
                return action
        raise self.fail("a play to beat, but no play in the record")

    def check_illegal(self, legal: ddz.ActionList) -> None:
        game = self.game
        bad = self.rng.choice(ILLEGAL_TRIES)
        if bad in legal or any(str(a) == str(bad) for a in legal):
            return
        before = game.to_json()
        views = [game.observation(s) for s in range(self.rules.players)]
        try:
            game.step(bad)  # type: ignore[arg-type]
        except ddz.IllegalAction:
            pass
        else:
            raise self.fail(f"the illegal action {bad!r} was taken")
        if game.to_json() != before or views != [
            game.observation(s) for s in range(self.rules.players)
        ]:
            raise self.fail(f"the refused action {bad!r} changed the game")
        self.totals.illegal += 1

    def check_secrecy(self) -> None:
        game = self.game
        viewer = self.rng.randrange(self.rules.players)
        seen = game.observation(viewer)
        twin = ddz.Game.from_json(game.to_json())
        if not swap_hidden_cards(twin, viewer, self.rng):
            return
        if twin.observation(viewer) != seen:
            raise self.fail(f"seat {viewer}'s view changes with cards it may not see")
        self.totals.swaps += 1

    # ---- at the end --------------------------------------------------------
    def check_over(self) -> None:
        game = self.game
        if game.legal_actions():
            raise self.fail("legal actions after the end")
        try:
            game.step("pass")
        except ddz.IllegalAction:
            pass
        else:
            raise self.fail("a step was taken after the end")

    def check_result(self) -> None:
        result = self.game.result
        if result is None:
            raise self.fail("the deal is over but has no result")
        json.dumps(result)
        scores, winners = result["scores"], result["winners"]
        n = self.rules.players
        if len(scores) != n or sum(scores) != 0:
            raise self.fail(f"scores {scores} are not zero-sum over {n} seats")
        multiplier = result["multiplier"]
        if multiplier != multiplier_of(result["events"]):
            raise self.fail(f"multiplier {multiplier} is not what {result['events']} build")
        if any(s % multiplier for s in scores):
            raise self.fail(f"scores {scores} are not whole multiples of {multiplier}")
        if not winners or any(scores[w] <= 0 for w in winners):
            raise self.fail(f"winners {winners} not all paid: {scores}")
        if any(scores[s] > 0 for s in range(n) if s not in winners):
            raise self.fail(f"a seat outside winners {winners} gains: {scores}")
        if result["events"] != self.game.events:
            raise self.fail("the result's events are not the game's")

    def check_replay(self) -> None:
        game = self.game
        record = game.to_json()
        again = ddz.Game.from_json(record)
        if again.to_json() != record:
            raise self.fail("the replayed record differs")
        if again.result != game.result:
            raise self.fail("the replayed result differs")
        n = self.rules.players
        if [again.observation(s) for s in range(n)] != [game.observation(s) for s in range(n)]:
            raise self.fail("a replayed view differs")


def _key(action: ddz.Move | str) -> tuple[Any, ...]:
    if isinstance(action, ddz.Move):
        return (action.kind, str(action.cards), str(action.represents), action.rank)
    return ("word", action)


# ---- secrecy: cards a seat may not see ---------------------------------------
def hidden_places(game: ddz.Game, viewer: int) -> list[tuple[object, list[str]]]:
    """The non-empty card lists `viewer` may not see, each with its place (a
    seat, "kitty" or "set_aside"): other hands it is not shown, the kitty
    before it is given (unless shown to it), the set-aside cards."""
    seen = game.hands_seen_by(viewer)
    n = game.rules.players
    places: list[tuple[object, list[str]]] = [
        (s, game.hands[s]) for s in range(n) if s != viewer and s not in seen
    ]
    if not game.kitty_given and not game.kitty_seen_by(viewer):
        places.append(("kitty", game.kitty))
    places.append(("set_aside", game.set_aside))
    return [p for p in places if p[1]]


def swap_hidden_cards(
    game: ddz.Game, viewer: int, rng: random.Random, *, suits_secret: bool = False
) -> bool:
    """Swap two cards of different ranks between two of `viewer`'s hidden
    places, in place; True if it could. With `suits_secret`, any two different
    identities: where a suited card decides roles, a suit must not show either."""
    places = hidden_places(game, viewer)
    if len(places) < 2:
        return False
    for _ in range(20):
        (pa, a), (pb, b) = rng.sample(places, 2)
        i, j = rng.randrange(len(a)), rng.randrange(len(b))
        if (a[i] != b[j]) if suits_secret else (a[i][0] != b[j][0]):
            game._swap(pa, a[i], pb, b[j])  # type: ignore[arg-type]
            return True
    return False


__all__ = [
    "ConformanceError",
    "CheckReport",
    "check_game",
    "hidden_places",
    "multiplier_of",
    "swap_hidden_cards",
]
