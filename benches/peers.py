"""Time ddz against the peer engines DouZero, RLCard and OpenSpiel; print a table.

    python benches/peers.py [--rounds N] [--budget S] [--tile N] [--seconds S]

Everything runs in one process.  The move-generation rows use the benches' fixed seeded
classic deals (``bench_cases``: ``BENCH_HANDS`` hands of each size, seed ``BENCH_SEED``,
each with a previous play drawn from another hand of the same deal), placed as they are
into every engine:

* lead, 20 cards: the landlord's hand after the kitty, leading.  RLCard gets the hand as
  its own ``Game`` state (player 0, the landlord, to lead); OpenSpiel gets the deal
  through its chance nodes (landlord's 17 cards + the other hands + the three kitty
  cards), then player 0 bids 3 and leads.
* follow, 20 cards: the same hand answering the previous play.  OpenSpiel cannot reach
  this position: its landlord leads the first trick, so it never answers with 20 cards.
* follow, 17 cards: a farmer's 17-card hand answering the landlord's opening play; here
  OpenSpiel is placed exactly too (the landlord holds the other hand + 3 kitty cards and
  opens with the previous play, then the farmer is to act).

Each round runs an operation once over the whole list of hands; each operation runs its
rounds back to back, and the best round is reported, per hand.  Operations that would take
longer than ``--budget`` seconds over ``--rounds`` rounds get fewer rounds (at least 3; the
``rounds`` column says how many).
Whole random self-play deals are then run for ``--seconds`` per engine.  A peer that
cannot be imported is reported as "not installed" and skipped.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from _hands import (  # noqa: E402
    BENCH_HANDS,
    BENCH_SEED,
    DZ_OF_SLOT,
    bench_cases,
    ddz_count,
    ddz_moves,
    douzero_moves,
)
from compare import best_of, machine, version  # noqa: E402

import ddz  # noqa: E402

RANKS = "3456789TJQKA2XD"  # ddz slots 0..14 (ddz's own symbols)
RLCARD_RANKS = "3456789TJQKA2BR"  # RLCard's rank characters for the same slots
PEERS = ("douzero", "rlcard", "open_spiel")


def try_import(name: str):
    try:
        if name == "douzero":
            import douzero.env.game as module
        elif name == "rlcard":
            import rlcard as module
        else:
            import pyspiel as module
        return module
    except ImportError:
        return None


# --------------------------------------------------------------------------- timing


def timed(ops: dict, rounds: int, budget: float) -> tuple[dict, dict, dict]:
    """Warm each op up once (its return value is its total of plays), then time it: best
    of ``rounds`` consecutive rounds, or of as many as fit in ``budget`` seconds (>= 3).

    Each op runs its rounds back to back (``best_of`` on that op alone) rather than
    interleaved with the others: the peers' Python ops churn through far more memory
    than ddz's, and interleaved they leave every sub-microsecond op a cold cache.
    Returns (best seconds, plays, rounds used) per op name.
    """
    best, plays, used = {}, {}, {}
    for name, op in ops.items():
        t0 = time.perf_counter()
        plays[name] = op()
        warm = time.perf_counter() - t0
        used[name] = rounds if warm * rounds <= budget else max(3, int(budget / warm))
        best.update(best_of(used[name], {name: op}))
    return best, plays, used


# --------------------------------------------------------------------------- RLCard


def rl_str(counts) -> str:
    """ddz count vector -> RLCard's sorted card string (``B``/``R`` the jokers)."""
    return "".join(RLCARD_RANKS[slot] * int(n) for slot, n in enumerate(counts[:15]))


class RLCardPeer:
    """RLCard 1.x ``doudizhu``: its judger's generator, and a real ``Game`` per case.

    Leads: ``DoudizhuJudger.playable_cards_from_hand`` is RLCard's only lead generator;
    its ``Game`` runs it for each hand at the deal and afterwards only prunes that cached
    set (``calc_playable_cards``), so ``get_state`` at a lead reads the cache.  Follows:
    ``utils.get_gt_cards`` (a scan of its precomputed table of plays: every play of the
    previous play's type(s), then bombs and the rocket), called by ``get_state`` on
    every follow.  The env row is what ``DoudizhuEnv`` does on each
    step for the acting player: ``game.get_state`` then ``env._get_legal_actions``
    (action ids and their 54-card feature arrays).
    """

    def __init__(self) -> None:
        import rlcard
        from rlcard.games.doudizhu.judger import DoudizhuJudger
        from rlcard.games.doudizhu.utils import CARD_TYPE, doudizhu_sort_card, get_gt_cards

        self.env = rlcard.make("doudizhu", config={"seed": BENCH_SEED})
        self.judger_cls = DoudizhuJudger
        self.get_gt_cards = get_gt_cards
        self.card_type = CARD_TYPE[0]
        self.sort_key = functools.cmp_to_key(doudizhu_sort_card)

    def _cards(self, counts, pool: dict) -> list:
        """Card objects for a count vector, taken from ``pool`` (rank char -> cards)."""
        out = []
        for slot, n in enumerate(counts[:15]):
            for _ in range(int(n)):
                out.append(pool[RLCARD_RANKS[slot]].pop())
        return sorted(out, key=self.sort_key)

    def game_for(self, case, follow: bool):
        """A fresh RLCard ``Game`` whose player 0 holds ``case.hand`` and is to act:
        leading, or answering ``case.prev`` played by player 1 (who holds
        ``case.other``); player 2 holds the rest of the deck."""
        from rlcard.games.doudizhu.game import DoudizhuGame
        from rlcard.utils import init_54_deck

        game = DoudizhuGame()
        game.np_random = np.random.RandomState(BENCH_SEED)
        game.init_game()
        pool: dict[str, list] = {}
        for card in init_54_deck():
            pool.setdefault(card.rank or card.suit[0], []).append(card)
        hand = np.asarray(case.hand.counts)
        other = np.asarray(case.other.counts)
        rest = np.array([4] * 13 + [1, 1] + [0], dtype=np.int64) - hand - other
        for player, counts in zip(game.players, (hand, other, rest)):
            player.set_current_hand(self._cards(counts, pool))
            player.singles = "3456789TJQKA2BR"
        game.judger = self.judger_cls(game.players, game.np_random)
        game.round.current_player = 0
        game.round.greater_player = None
        if follow:
            game.players[1].played_cards = rl_str(case.prev.cards.counts)
            game.round.greater_player = game.players[1]
        game.state = game.get_state(0)
        return game

    def prepare(self, cases, follow: bool) -> dict:
        games = [self.game_for(c, follow) for c in cases]
        hands = [rl_str(c.hand.counts) for c in cases]
        prevs = [rl_str(c.prev.cards.counts) for c in cases]
        missing = [p for p in prevs if p not in self.card_type]
        assert not missing, f"previous plays RLCard has no action for: {missing}"
        # The env's legal actions at these states are exactly the generator's plays.
        for game, hand in zip(games, hands):
            if not follow:
                assert set(game.state["actions"]) == self.judger_cls.playable_cards_from_hand(hand)
        return {"games": games, "hands": hands}

    def generator(self, prep, follow: bool) -> int:
        n = 0
        if follow:
            for game in prep["games"]:
                n += len(self.get_gt_cards(game.players[0], game.players[1])) - 1  # pass
        else:
            for hand in prep["hands"]:
                n += len(self.judger_cls.playable_cards_from_hand(hand))
        return n

    def env_step(self, prep, follow: bool) -> int:
        env, n = self.env, 0
        for game in prep["games"]:
            env.game = game
            game.state = game.get_state(0)
            n += len(env._get_legal_actions())
        return n - len(prep["games"]) if follow else n

    def self_play(self, seconds: float, training: bool) -> tuple[int, float, float]:
        """``env.run()`` with three RLCard ``RandomAgent``s (no bidding: player 0 is
        always the landlord); games, turns, seconds."""
        import rlcard
        from rlcard.agents import RandomAgent

        env = rlcard.make("doudizhu", config={"seed": BENCH_SEED})
        env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(3)])
        np.random.seed(BENCH_SEED)  # RandomAgent draws from numpy's global generator
        games = turns = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            env.run(is_training=training)
            games += 1
            turns += len(env.game.round.trace)
        return games, turns, time.perf_counter() - t0


# --------------------------------------------------------------------------- OpenSpiel


def os_counts(text: str) -> tuple[int, ...]:
    """An OpenSpiel hand or play string (``'333444-5(BWJ)'``) -> counts of 15 slots."""
    text = text.replace("(BWJ)", "X").replace("(CJ)", "D").replace("-", "")
    return tuple(text.count(r) for r in RANKS)


class OpenSpielPeer:
    """OpenSpiel ``dou_dizhu``, placed on the benches' deals through its chance nodes.

    Chance action 0 picks the face-up position (0: player 0 bids first), then deal ``i``
    (``51 + card``; card ``13 * suit + rank``, 52 and 53 the jokers) goes to player
    ``i % 3``; the three cards left are the kitty.  Player 0 bids 3 and is the landlord.
    """

    def __init__(self) -> None:
        import pyspiel

        self.game = pyspiel.load_game("dou_dizhu")

    @staticmethod
    def _card_ids(counts, next_suit: list) -> list[int]:
        ids = []
        for slot, n in enumerate(counts[:15]):
            for _ in range(int(n)):
                if slot < 13:
                    ids.append(13 * next_suit[slot] + slot)
                    next_suit[slot] += 1
                else:
                    ids.append(52 + slot - 13)
        return ids

    def deal(self, landlord17, p1, p2, kitty):
        """A state after the deal and player 0's bid of 3: player 0 to lead."""
        next_suit = [0] * 13
        hands = [self._card_ids(c, next_suit) for c in (landlord17, p1, p2)]
        kitty_ids = self._card_ids(kitty, next_suit)
        state = self.game.new_initial_state()
        state.apply_action(0)  # face-up position 0: player 0 bids first
        for i in range(17):
            for player in range(3):
                state.apply_action(51 + hands[player][i])
        assert sorted(kitty_ids) == sorted(a - 51 for a, _ in state.chance_outcomes()), (
            "the kitty is what the deal leaves"
        )
        state.apply_action(3)  # player 0 bids 3: landlord at once
        assert state.current_player() == 0
        return state

    @staticmethod
    def hand_of(state, player: int) -> tuple[int, ...]:
        text = state.observation_string(player).split("\n")[0]
        return os_counts(text.removeprefix("My hand ").strip())

    @staticmethod
    def _split_kitty(counts) -> tuple[np.ndarray, np.ndarray]:
        """A count vector minus its three highest cards, and those three cards."""
        counts = np.asarray(counts, dtype=np.int64).copy()
        kitty = np.zeros_like(counts)
        for _ in range(3):
            slot = int(np.flatnonzero(counts)[-1])
            counts[slot] -= 1
            kitty[slot] += 1
        return counts, kitty

    def action_for(self, state, move) -> int | None:
        """The id of ``move`` among the acting player's legal actions (same cards; where
        OpenSpiel has several ids for those cards, the one read like ddz's move), or
        None where OpenSpiel has no such play (it has no four-with-two)."""
        want = tuple(int(x) for x in move.cards.counts[:15])
        same = [a for a in state.legal_actions() if os_counts(state.action_to_string(a)) == want]
        if not same:
            return None
        if len(same) > 1:  # e.g. a plane of 4 trios, or 3 trios with the 4th as kickers
            main = {a: state.action_to_string(a).split("-")[0] for a in same}
            exact = [a for a in same if len(main[a]) == move.length * 3]
            same = exact or same
        return same[0]

    def lead_states(self, cases) -> list:
        """Player 0 (landlord) holds ``case.hand`` (20 cards), player 1 ``case.other``."""
        full = np.array([4] * 13 + [1, 1] + [0], dtype=np.int64)
        states = []
        for c in cases:
            hand = np.asarray(c.hand.counts, dtype=np.int64)
            other = np.asarray(c.other.counts, dtype=np.int64)
            hand17, kitty = self._split_kitty(hand)
            state = self.deal(hand17, other, full - hand - other, kitty)
            assert self.hand_of(state, 0) == tuple(int(x) for x in hand[:15])
            states.append(state)
        return states

    def follow17_states(self, cases) -> tuple[list, list[int]]:
        """Player 0 (landlord) holds ``case.other`` + 3 kitty cards and opens with
        ``case.prev``; player 1 holds ``case.hand`` (17 cards) and is to answer.
        Returns the states and the indices of the cases they are for (those whose
        ``prev`` OpenSpiel can play)."""
        full = np.array([4] * 13 + [1, 1] + [0], dtype=np.int64)
        states, kept = [], []
        for i, c in enumerate(cases):
            hand = np.asarray(c.hand.counts, dtype=np.int64)
            other = np.asarray(c.other.counts, dtype=np.int64)
            rest17, kitty = self._split_kitty(full - hand - other)
            state = self.deal(other, hand, rest17, kitty)
            action = self.action_for(state, c.prev)
            if action is None:
                continue
            state.apply_action(action)
            assert state.current_player() == 1
            assert self.hand_of(state, 1) == tuple(int(x) for x in hand[:15])
            states.append(state)
            kept.append(i)
        return states, kept

    @staticmethod
    def legal(states, follow: bool) -> int:
        n = 0
        for state in states:
            n += len(state.legal_actions())
        return n - len(states) if follow else n  # a follow's actions include pass

    def self_play(self, seconds: float) -> tuple[int, float, float]:
        """Whole games from the initial state, uniformly random at every node (chance:
        its outcomes, all uniform; bidding and play: the legal actions).  Turns count
        the play phase only (from the landlord's first play)."""
        rng = random.Random(BENCH_SEED)
        games = turns = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            state = self.game.new_initial_state()
            playing = False
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    action = legal[rng.randrange(len(legal))]
                    playing = playing or action >= 4  # 0 pass, 1-3 bids, then plays
                    turns += playing
                    state.apply_action(action)
            games += 1
        return games, turns, time.perf_counter() - t0


# --------------------------------------------------------------------------- DouZero


def douzero_self_play(seconds: float) -> tuple[int, float, float]:
    """DouZero's own ``GameEnv`` (the engine its training env wraps; no bidding, the
    landlord is dealt 20 cards) with three uniformly random players."""
    from douzero.env.game import GameEnv

    class Random:
        def __init__(self, rng):
            self.rng = rng

        def act(self, infoset):
            legal = infoset.legal_actions
            return legal[self.rng.randrange(len(legal))]

    rng = random.Random(BENCH_SEED)
    player = Random(rng)
    env = GameEnv({p: player for p in ("landlord", "landlord_up", "landlord_down")})
    deck = [card for card in DZ_OF_SLOT[:13] for _ in range(4)] + [20, 30]
    games = turns = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        rng.shuffle(deck)
        env.reset()
        env.card_play_init(
            {
                "landlord": sorted(deck[:20]),
                "landlord_up": sorted(deck[20:37]),
                "landlord_down": sorted(deck[37:]),
                "three_landlord_cards": sorted(deck[17:20]),
            }
        )
        while not env.game_over:
            env.step()
        games += 1
        turns += len(env.card_play_action_seq)
    return games, turns, time.perf_counter() - t0


# --------------------------------------------------------------------------- ddz


def ddz_simulate(seconds: float, threads: int | None) -> tuple[int, float, float]:
    """``ddz.simulate`` in chunks of 20,000 deals (one series: ``first`` continues it)
    until time is up; the best chunk's rate is reported (as games and seconds of that
    chunk), the turns are averaged over all chunks."""
    chunk, games, turns, best = 20_000, 0, 0, float("inf")
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        t1 = time.perf_counter()
        out = ddz.simulate("classic", chunk, seed=BENCH_SEED, threads=threads, first=games)
        best = min(best, time.perf_counter() - t1)
        games += chunk
        turns += int(out["turns"].sum())
    return chunk, turns * chunk / games, best


def ddz_game_loop(seconds: float) -> tuple[int, float, float]:
    """The Python ``ddz.Game`` stepped with a uniformly random legal action (bidding
    included), no observations built: the loop the peers' Python loops compare to."""
    rng = random.Random(BENCH_SEED)
    games = turns = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        g = ddz.Game("classic", seed=games)
        while g.phase != "over":
            legal = g.legal_actions()
            g.step(legal[rng.randrange(len(legal))])
        turns += len(g.actions) - first_play(g)
        games += 1
    return games, turns, time.perf_counter() - t0


def first_play(g: ddz.Game) -> int:
    return next(i for i, a in enumerate(g.actions) if not isinstance(a[1], str))


def ddz_python_play(seconds: float) -> tuple[int, float, float]:
    """``ddz.play`` with ``RandomAgent``s: the same loop, plus ``observation(seat)`` (a
    JSON-ready dict) built for the agent on every turn."""
    agents = [ddz.agents.RandomAgent(seed=BENCH_SEED + seat) for seat in range(3)]
    games = turns = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        g = ddz.play("classic", agents, seed=games)
        turns += len(g.actions) - first_play(g)
        games += 1
    return games, turns, time.perf_counter() - t0


# --------------------------------------------------------------------------- report


def ddz_ops(rules, cases, follow: bool, tile: int, rows: dict, hidden: bool = False):
    """Add ddz's three operations over ``cases`` to ``rows``; return their names.

    The batch op counts ``tile`` copies of the hands in one ``count_moves_batch`` call
    (so that starting the worker threads is amortised) and is reported per hand.
    Hidden ops (names starting with ``_``) are references for a peer timed on a subset.
    """
    n = len(cases)
    batch = np.tile(np.stack([np.asarray(c.hand.counts) for c in cases]), (tile, 1))
    prevs = [c.prev for c in cases] * tile
    call = "(hand, prev)" if follow else "(hand)"
    prefix = f"_{n}:" if hidden else ""

    def count_batch() -> int:
        out = rules.count_moves_batch(batch, prevs) if follow else rules.count_moves_batch(batch)
        return int(out.sum())

    ops = {
        f"{prefix}ddz rules.moves{call}": (lambda: ddz_moves(rules, cases, follow), n),
        f"{prefix}ddz rules.count_moves{call}": (lambda: ddz_count(rules, cases, follow), n),
        f"{prefix}ddz rules.count_moves_batch(rows{', prevs' if follow else ''}) x{tile}": (
            count_batch,
            n * tile,
        ),
    }
    names = tuple(ops)
    for name, (op, hands) in ops.items():
        rows[name] = (op, hands, names)
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="timed rounds per operation")
    parser.add_argument(
        "--budget", type=float, default=1.5, help="seconds per move-generation operation"
    )
    parser.add_argument(
        "--tile", type=int, default=100, help="copies of the hands in one batch call"
    )
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds of self-play each")
    args = parser.parse_args()

    status = {}
    for name in PEERS:
        status[name] = try_import(name) is not None
    print(f"machine: {machine()}")
    print(
        f"ddz {version('ddz')}, "
        + ", ".join(
            f"{name} {version(name) if ok else 'not installed'}" for name, ok in status.items()
        )
    )
    print(
        f"{BENCH_HANDS} seeded classic deals per size (seed {BENCH_SEED}); best of up to "
        f"{args.rounds} rounds; times are per hand; ratio = peer time / ddz time"
    )
    rl = RLCardPeer() if status["rlcard"] else None
    osp = OpenSpielPeer() if status["open_spiel"] else None
    rules = ddz.Rules("classic")

    sections = (
        ("lead", 20, "landlord's 20 cards after the kitty, leading"),
        ("follow", 20, "the same 20-card hand answering a play"),
        ("follow", 17, "a farmer's 17 cards answering the landlord's opening play"),
    )
    width = 58
    header = (
        f"{'operation':<{width}}{'µs/hand':>10}{'plays':>8}{'rounds':>8}"
        f"{'/moves':>9}{'/count':>9}{'/batch':>9}"
    )
    for mode, size, title in sections:
        follow = mode == "follow"
        cases = bench_cases(rules, size)
        # row name -> (op, hands it covers, reference: the ddz ops on the same hands)
        rows: dict[str, tuple] = {}
        ref = ddz_ops(rules, cases, follow, args.tile, rows)
        notes = []
        if status["douzero"]:
            name = (
                "DouZero GameEnv.get_legal_card_play_actions"
                if follow
                else "DouZero MovesGener(hand).gen_moves()"
            )
            rows[name] = (lambda c=cases, f=follow: douzero_moves(c, f), len(cases), ref)
        else:
            notes.append("DouZero: not installed")
        if rl is not None:
            prep = rl.prepare(cases, follow)
            gen = "get_gt_cards(player, prev)" if follow else "Judger.playable_cards_from_hand"
            rows[f"RLCard {gen}"] = (lambda p=prep, f=follow: rl.generator(p, f), len(cases), ref)
            rows["RLCard env step: get_state + _get_legal_actions"] = (
                lambda p=prep, f=follow: rl.env_step(p, f),
                len(cases),
                ref,
            )
        else:
            notes.append("RLCard: not installed")
        if osp is None:
            notes.append("OpenSpiel: not installed")
        elif follow and size == 20:
            notes.append(
                "OpenSpiel: not measurable (its landlord leads the first trick, so a"
                " 20-card hand never answers a play)"
            )
        else:
            if follow:
                states, kept = osp.follow17_states(cases)
            else:
                states, kept = osp.lead_states(cases), list(range(len(cases)))
            os_ref = ref
            name = "OpenSpiel state.legal_actions()"
            if len(kept) < len(cases):
                subset = [cases[i] for i in kept]
                os_ref = ddz_ops(rules, subset, follow, args.tile, rows, hidden=True)
                name += f" *{len(kept)} hands"
                notes.append(
                    f"*OpenSpiel has no four-with-two plays: timed on the {len(kept)} of"
                    f" {len(cases)} hands whose previous play it has; its ratios are against"
                    " ddz on those same hands"
                )
            rows[name] = (lambda s=states, f=follow: osp.legal(s, f), len(kept), os_ref)
        best, plays, used = timed({k: v[0] for k, v in rows.items()}, args.rounds, args.budget)
        print()
        print(f"{mode} {size}: {title} ({len(cases)} hands)")
        print(header)
        print("-" * len(header))
        us = {name: best[name] / n * 1e6 for name, (_, n, _) in rows.items()}
        for name, (_, n, refs) in rows.items():
            if name.startswith("_"):
                continue
            ratios = "".join(
                f"{'':>9}" if name in refs else f"{us[name] / us[r]:>8.1f}x" for r in refs
            )
            print(f"{name:<{width}}{us[name]:>10.2f}{plays[name] / n:>8.1f}{used[name]:>8}{ratios}")
        for note in notes:
            print(textwrap.fill(note, 100, initial_indent="  ", subsequent_indent="    "))

    print()
    print(f"random self-play, whole classic deals ({args.seconds:g} s each)")
    header = (
        f"{'engine':<{width}}{'games/s':>12}{'turns/game':>12}{'/ddz Rust 1t':>14}"
        f"{'/ddz Python':>13}"
    )
    print(header)
    print("-" * len(header))
    rust1 = "ddz.simulate(policy='random', threads=1), Rust"
    python = "ddz.Game loop in Python: step(random legal action)"
    runs = {
        "ddz.simulate(policy='random'), Rust, all cores": lambda: ddz_simulate(args.seconds, None),
        rust1: lambda: ddz_simulate(args.seconds, 1),
        python: lambda: ddz_game_loop(args.seconds),
        "ddz.play(..., [RandomAgent] * 3), with observations": lambda: ddz_python_play(
            args.seconds
        ),
    }
    notes = []
    if status["douzero"]:
        runs["DouZero GameEnv, random players, Python"] = lambda: douzero_self_play(args.seconds)
    else:
        notes.append("DouZero: not installed")
    if rl is not None:
        runs["RLCard env.run(), RandomAgent x3"] = lambda: rl.self_play(args.seconds, False)
        runs["RLCard env.run(is_training=True), RandomAgent x3"] = lambda: rl.self_play(
            args.seconds, True
        )
    else:
        notes.append("RLCard: not installed")
    if osp is not None:
        runs["OpenSpiel, random playout loop in Python"] = lambda: osp.self_play(args.seconds)
    else:
        notes.append("OpenSpiel: not installed")
    results = {name: run() for name, run in runs.items()}
    rate = {name: games / seconds for name, (games, _, seconds) in results.items()}

    def ratio(ref: str, name: str, w: int) -> str:
        if name.startswith("ddz"):
            return f"{'':>{w}}"
        r = rate[ref] / rate[name]
        return f"{r:>{w - 1}.{1 if r >= 1 else 2}f}x"

    for name, (games, turns, _) in results.items():
        print(
            f"{name:<{width}}{rate[name]:>12,.0f}{turns / games:>12.1f}"
            f"{ratio(rust1, name, 14)}{ratio(python, name, 13)}"
        )
    for note in notes:
        print(textwrap.fill(note, 100, initial_indent="  ", subsequent_indent="    "))

    print()
    print(
        textwrap.fill(
            "Move generation: ratio columns = the row's time / ddz's moves, count_moves and"
            " count_moves_batch time on the same hands (batch: threads = all cores).  plays ="
            " plays per hand as each engine lists them, pass excluded: DouZero lists duplicates;"
            " RLCard never takes both jokers as kickers; OpenSpiel has no four-with-two and"
            " skips the chains that start at a rank the hand holds four of.  RLCard's env-step row"
            " at a lead reads the set its judger cached at the deal; at a follow it runs"
            " get_gt_cards.  OpenSpiel: legal_actions() of a C++ state from Python.",
            100,
        )
    )
    print(
        textwrap.fill(
            "Self-play: ratio = ddz games/s (Rust simulate on one thread; the Python Game loop)"
            " / engine games/s.  ddz and OpenSpiel bid (random bids); DouZero and RLCard skip"
            " bidding (a fixed landlord).  turns = plays and passes of the play phase.  Rust"
            " simulate: best 20,000-deal chunk; Python loops: games / elapsed time.  RLCard's"
            " env.run() evaluates RandomAgent.eval_step, which builds a 27,472-entry"
            " probability list per turn; is_training=True uses step().",
            100,
        )
    )


if __name__ == "__main__":
    main()
