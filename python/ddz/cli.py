"""The ``ddz`` command line.

::

    ddz moves PRESET HAND [--prev PLAY] [--json]   # legal plays, in hint order
    ddz classify PRESET CARDS [--json]             # every reading of CARDS as one play
    ddz simulate PRESET -n GAMES [--seed S] [--threads T] [--policy P] [--json]
    ddz play PRESET [--seat N] [--seed S]          # play one deal against built-in agents
    ddz bench [PRESET] [--json]                    # movegen and simulation speed here

Bad input prints one line, ``ddz: error: ...``, to stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import NoReturn

import ddz

PROG = "ddz"
EXIT_USAGE = 2


class UsageError(Exception):
    """Bad input from the command line; reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but errors are one line and never print the usage block."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _move_dict(m: ddz.Move) -> dict[str, object]:
    return {
        "cards": str(m.cards),
        "kind": m.kind,
        "rank": m.rank,
        "length": m.length,
        "represents": str(m.represents),
    }


def _rows(moves: Sequence[ddz.Move]) -> list[str]:
    """One aligned line per play: text, kind, rank, and length where it says something."""
    cells = []
    for m in moves:
        extra = f"length {m.length}" if m.length != 1 else ""
        cells.append((str(m), m.kind, f"rank {m.rank}", extra))
    if not cells:
        return []
    widths = [max(len(row[i]) for row in cells) for i in range(3)]
    lines = []
    for row in cells:
        parts = [row[i].ljust(widths[i]) for i in range(3)]
        if row[3]:
            parts.append(row[3])
        lines.append("  ".join(parts).rstrip())
    return lines


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _rules(preset: str) -> ddz.Rules:
    try:
        return ddz.Rules(preset)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _emit(moves: Sequence[ddz.Move], as_json: bool, summary: str) -> None:
    if as_json:
        print(json.dumps([_move_dict(m) for m in moves]))
        return
    for line in _rows(moves):
        print(line)
    print(summary)


def cmd_moves(args: argparse.Namespace) -> int:
    rules = _rules(args.preset)
    try:
        hand = rules.cards(args.hand)
    except (ValueError, TypeError) as e:
        raise UsageError(f"bad hand {args.hand!r}: {e}") from None
    prev = None
    if args.prev is not None:
        try:
            readings = rules.classify(args.prev)
        except (ValueError, TypeError) as e:
            raise UsageError(f"bad --prev {args.prev!r}: {e}") from None
        if not readings:
            shown = str(rules.cards(args.prev)) or "no cards"
            raise UsageError(f"bad --prev {args.prev!r}: {shown} is not a play")
        if len(readings) > 1:
            choices = ", ".join(f"{m.kind} rank {m.rank}" for m in readings)
            raise UsageError(
                f"bad --prev {args.prev!r}: {len(readings)} readings ({choices}); "
                "this command needs a play with one reading"
            )
        prev = readings[0]
    moves = rules.hint(hand, prev)
    summary = _plural(len(moves), "play")
    if prev is not None:
        summary += f" beat {prev} ({prev.kind} rank {prev.rank})"
    _emit(moves, args.json, summary)
    return 0


def cmd_classify(args: argparse.Namespace) -> int:
    rules = _rules(args.preset)
    try:
        readings = rules.classify(args.cards)
    except (ValueError, TypeError) as e:
        raise UsageError(f"bad cards {args.cards!r}: {e}") from None
    if readings:
        summary = _plural(len(readings), "reading")
    else:
        summary = f"{rules.cards(args.cards) or 'no cards'} is not a play"
    _emit(readings, args.json, summary)
    return 0


SIM_CHUNK = 20_000


def _simulate_all(rules: ddz.Rules, args: argparse.Namespace) -> tuple[dict, float]:
    """Run the deals in parts, showing progress on a terminal."""
    show = sys.stderr.isatty() and not args.json
    parts: list[dict] = []
    start = time.perf_counter()
    done = 0
    while done < args.games:
        size = min(SIM_CHUNK, args.games - done)
        parts.append(
            ddz.simulate(
                rules, size, seed=args.seed, threads=args.threads, policy=args.policy, first=done
            )
        )
        done += size
        if show:
            rate = done / max(time.perf_counter() - start, 1e-9)
            print(f"\r{done:,}/{args.games:,} deals, {rate:,.0f}/s", end="", file=sys.stderr)
    if show:
        print(file=sys.stderr)
    elapsed = time.perf_counter() - start
    import numpy as np

    merged = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]} if parts else {}
    return merged, elapsed


def cmd_simulate(args: argparse.Namespace) -> int:
    rules = _rules(args.preset)
    if args.games < 1:
        raise UsageError("-n must be at least 1")
    try:
        out, elapsed = _simulate_all(rules, args)
    except ValueError as e:
        raise UsageError(str(e)) from None
    import numpy as np

    landlord_scores = out["scores"][np.arange(args.games), out["landlord"]]
    summary = {
        "preset": rules.preset,
        "games": args.games,
        "seed": args.seed,
        "policy": args.policy,
        "landlord_win_rate": float((out["winner_side"] == 0).mean()),
        "farmer_win_rate": float((out["winner_side"] == 1).mean()),
        "mean_turns": float(out["turns"].mean()),
        "bombs_per_deal": float(out["bombs"].mean()),
        "mean_multiplier": float(out["multiplier"].mean()),
        "landlord_score": {
            "mean": float(landlord_scores.mean()),
            "min": int(landlord_scores.min()),
            "p50": float(np.median(landlord_scores)),
            "max": int(landlord_scores.max()),
        },
        "deals_per_second": args.games / elapsed if elapsed > 0 else None,
    }
    if args.json:
        print(json.dumps(summary))
        return 0
    rows = [
        ("deals", f"{args.games:,}"),
        ("landlord side wins", f"{summary['landlord_win_rate']:.1%}"),
        ("farmer side wins", f"{summary['farmer_win_rate']:.1%}"),
        ("mean turns", f"{summary['mean_turns']:.1f}"),
        ("bombs per deal", f"{summary['bombs_per_deal']:.2f}"),
        ("mean multiplier", f"{summary['mean_multiplier']:.2f}"),
        (
            "landlord score",
            "mean {mean:+.2f}, min {min:+d}, median {p50:+.0f}, max {max:+d}".format(
                **summary["landlord_score"]
            ),
        ),
        ("deals per second", f"{summary['deals_per_second']:,.0f}"),
    ]
    width = max(len(k) for k, _ in rows)
    print(f"{rules.preset}, {args.policy} policy, seed {args.seed}")
    for key, value in rows:
        print(f"  {key.ljust(width)}  {value}")
    return 0


def _ask(prompt: str) -> str:
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.strip()


def cmd_play(args: argparse.Namespace) -> int:
    from ddz.agents import GreedyAgent

    rules = _rules(args.preset)
    try:
        game = ddz.Game(rules, seed=args.seed)
    except NotImplementedError as e:
        raise UsageError(str(e)) from None
    if not 0 <= args.seat < rules.players:
        raise UsageError(f"--seat must be 0..{rules.players - 1}")
    me = args.seat
    bot = GreedyAgent()
    print(f"{rules.preset}: you are seat {me}. Type a number, cards (e.g. 334455), or 'help'.")
    try:
        while game.phase != "over":
            seat = game.to_act
            if seat != me:
                action = bot.act(game.observation(seat), game.legal_actions())
                game.step(action)
                # Secret choices (a farmer's side, a show decision) stay secret.
                seen = game.flow.visible(me, seat, str(action))
                print(f"seat {seat}: {action if seen else '(a hidden choice)'}")
                continue
            obs = game.observation(me)
            legal = game.legal_actions()
            print(f"\nyour hand: {obs['hand']}")
            if obs.get("to_beat"):
                print(f"to beat: {obs['to_beat']}")
            for i, a in enumerate(legal[:30], 1):
                print(f"  {i:2d}. {a}")
            if len(legal) > 30:
                print(f"  … {len(legal) - 30} more (type the cards)")
            answer = _ask("> ")
            if answer in ("help", "?"):
                print("Type the number of an option, or the cards of a play; 'pass' passes.")
                continue
            choice: object = answer
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                choice = legal[int(answer) - 1]
            try:
                game.step(choice)  # type: ignore[arg-type]
            except ddz.IllegalAction as e:
                print(f"not allowed: {e}")
    except EOFError:
        print("\nbye")
        return 0
    result = game.result or {}
    print(f"\nover: winners {result.get('winners')}, scores {result.get('scores')}")
    print(f"multiplier {result.get('multiplier')} from {result.get('events')}")
    return 0


def _best_time(work, rounds: int = 5) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def cmd_bench(args: argparse.Namespace) -> int:
    import random

    import numpy as np

    rules = _rules(args.preset)
    rng = random.Random(0)
    deck = [r for r in range(13) for _ in range(4 * rules.decks)] + [13, 14] * rules.decks
    rows = np.zeros((200, 16), dtype=np.uint8)
    for row in rows:
        for r in rng.sample(deck, rules.hand_size):
            row[r] += 1
    hands = [rules.cards(row) for row in rows]
    leads = [rules.moves(h) for h in hands]
    prevs = [ls[rng.randrange(len(ls))] for ls in leads]
    per_hand = len(hands)
    results = {
        "lead moves, us per hand": _best_time(lambda: [rules.moves(h) for h in hands]) / per_hand,
        "lead count_moves, us per hand": _best_time(lambda: [rules.count_moves(h) for h in hands])
        / per_hand,
        "follow moves, us per hand": _best_time(
            lambda: [rules.moves(h, p) for h, p in zip(hands, prevs[1:] + prevs[:1])]
        )
        / per_hand,
        "count_moves_batch, us per hand": _best_time(lambda: rules.count_moves_batch(rows))
        / per_hand,
    }
    results = {k: v * 1e6 for k, v in results.items()}
    try:
        deals = 20_000
        elapsed = _best_time(lambda: ddz.simulate(rules, deals, seed=1), rounds=2)
        results["simulate, deals per second"] = deals / elapsed
    except ValueError:
        results["simulate, deals per second"] = None
    plays = sum(len(ls) for ls in leads) / per_hand
    if args.json:
        print(json.dumps({"preset": rules.preset, "hand_size": rules.hand_size,
                          "plays_per_lead": plays, **results}))  # fmt: skip
        return 0
    print(f"{rules.preset}: {per_hand} seeded {rules.hand_size}-card hands, "
          f"{plays:.0f} leads per hand, {ddz.default_threads()} threads")  # fmt: skip
    width = max(len(k) for k in results)
    for key, value in results.items():
        shown = "not available for this preset" if value is None else f"{value:,.2f}"
        if value is not None and value > 1000:
            shown = f"{value:,.0f}"
        print(f"  {key.ljust(width)}  {shown}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    presets = ", ".join(ddz.PRESETS)
    parser = _Parser(
        prog=PROG,
        description="Dou Dizhu rules engine: list legal plays and classify cards.",
        epilog=f"presets: {presets}. Cards like '33445566778899TJQKA2XD', '10 J Q', '9h 9s'.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {ddz.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    moves = sub.add_parser(
        "moves",
        help="list the legal plays of a hand (smallest first, bombs last)",
        description="List every legal play from HAND, in the order a game UI suggests them.",
    )
    moves.add_argument("preset", metavar="PRESET", help=f"rule set: {presets}")
    moves.add_argument("hand", metavar="HAND", help="the cards in hand, e.g. 3334445566XD")
    moves.add_argument("--prev", metavar="PLAY", help="the play to beat (one reading only)")
    moves.add_argument("--json", action="store_true", help="print a JSON list of plays")
    moves.set_defaults(func=cmd_moves)

    classify = sub.add_parser(
        "classify",
        help="every reading of some cards as one play",
        description="Print every reading of CARDS as one play (none when it is not a play).",
    )
    classify.add_argument("preset", metavar="PRESET", help=f"rule set: {presets}")
    classify.add_argument("cards", metavar="CARDS", help="the cards, e.g. 333444555666")
    classify.add_argument("--json", action="store_true", help="print a JSON list of readings")
    classify.set_defaults(func=cmd_classify)

    sim = sub.add_parser(
        "simulate",
        help="play many deals in Rust and summarise them",
        description="Play GAMES whole deals with a built-in policy and print a summary.",
    )
    sim.add_argument("preset", metavar="PRESET", help=f"rule set: {presets}")
    sim.add_argument("-n", "--games", type=int, default=10_000, help="number of deals")
    sim.add_argument("--seed", type=int, default=0, help="the same seed gives the same results")
    sim.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    sim.add_argument("--policy", choices=["random", "greedy"], default="random")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.set_defaults(func=cmd_simulate)

    play = sub.add_parser(
        "play",
        help="play one deal in the terminal against built-in agents",
        description="Play one deal against GreedyAgent opponents.",
    )
    play.add_argument("preset", metavar="PRESET", help=f"rule set: {presets}")
    play.add_argument("--seat", type=int, default=0, help="your seat (0 bids or plays first)")
    play.add_argument("--seed", type=int, default=None, help="deal number, for a repeatable deal")
    play.set_defaults(func=cmd_play)

    bench = sub.add_parser(
        "bench",
        help="time move generation and simulation on this machine",
        description="Time moves, count_moves, batches and simulate on seeded hands.",
    )
    bench.add_argument("preset", metavar="PRESET", nargs="?", default="classic")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")
    bench.set_defaults(func=cmd_bench)
    return parser


def _fail(message: str) -> int:
    one_line = " ".join(str(message).split())
    print(f"{PROG}: error: {one_line}", file=sys.stderr)
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            raise UsageError(
                "a command is required: moves, classify, simulate, play or bench (see ddz --help)"
            )
        return int(args.func(args))
    except UsageError as e:
        return _fail(str(e))
    except (ValueError, TypeError) as e:  # anything the engine rejects that we did not foresee
        return _fail(str(e))
    except BrokenPipeError:
        # `ddz moves ... | head`: stop quietly, and keep Python from complaining at exit.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
