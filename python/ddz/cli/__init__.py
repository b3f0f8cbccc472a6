"""The ``ddz`` command line.

::

    ddz moves PRESET HAND [--prev PLAY] [--json]   # legal plays, in hint order
    ddz classify PRESET CARDS [--json]             # every reading of CARDS as one play
    ddz simulate PRESET -n GAMES [--seed S] [--threads T] [--policy P] [--json]
    ddz simulate PRESET -n GAMES --ray [ADDRESS]   # the same deals on a Ray cluster
    ddz eval PRESET A B -n DEALS [--protocol douzero|full] [--json]  # A against B, WP and ADP
    ddz play PRESET [--seat N] [--seed S] [--bots K] # play deals against built-in agents
    ddz bench [PRESET] [--json]                    # movegen and simulation speed here
    ddz serve [--host H] [--port P] [--db FILE]    # the game server (docs/server.md)
    ddz replay RECORD.json [--port P]              # a finished deal's replay in the browser
    ddz solve PRESET HAND HAND [HAND] [--prev PLAY] [--forbid KIND,...] [--json]  # endgame verdict

Arguments are parsed by ``argparse``; progress bars, tables and colour come
from ``rich``. Bad input prints one line, ``ddz: error: ...``, to stderr and
exits with status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Callable, NoReturn

import ddz

from .analyse import add_analyse_command
from .bench import cmd_bench
from .common import UsageError
from .evaluate import add_eval_command
from .play import cmd_play
from .query import cmd_classify, cmd_moves
from .replay import add_replay_command
from .serve import add_serve_command
from .sim import cmd_simulate
from .solve import add_arguments as add_solve_arguments
from .solve import cmd_solve

PROG = "ddz"
EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse, but errors are one line and never print the usage block."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _command(
    sub: argparse._SubParsersAction,
    name: str,
    func: Callable[[argparse.Namespace], int],
    help: str,
    description: str,
    preset_optional: bool = False,
) -> argparse.ArgumentParser:
    """A subcommand whose first argument is the preset."""
    command = sub.add_parser(name, help=help, description=description)
    presets = ", ".join(ddz.PRESETS)
    if preset_optional:
        command.add_argument(
            "preset",
            metavar="PRESET",
            nargs="?",
            default="classic",
            help=f"rule set (default classic): {presets}",
        )
    else:
        command.add_argument("preset", metavar="PRESET", help=f"rule set: {presets}")
    command.set_defaults(func=func)
    return command


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Dou Dizhu rules engine: legal plays, whole deals, a game in the terminal.",
        epilog=f"presets: {', '.join(ddz.PRESETS)}. "
        "Cards like '33445566778899TJQKA2XD', '10 J Q', '9h 9s'.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {ddz.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    moves = _command(
        sub,
        "moves",
        cmd_moves,
        help="list the legal plays of a hand (smallest first, bombs last)",
        description="List every legal play from HAND, in the order a game UI suggests them.",
    )
    moves.add_argument("hand", metavar="HAND", help="the cards in hand, e.g. 3334445566XD")
    moves.add_argument("--prev", metavar="PLAY", help="the play to beat (one reading only)")
    moves.add_argument("--json", action="store_true", help="print a JSON list of plays")

    classify = _command(
        sub,
        "classify",
        cmd_classify,
        help="every reading of some cards as one play",
        description="Print every reading of CARDS as one play (none when it is not a play).",
    )
    classify.add_argument("cards", metavar="CARDS", help="the cards, e.g. 333444555666")
    classify.add_argument("--json", action="store_true", help="print a JSON list of readings")

    sim = _command(
        sub,
        "simulate",
        cmd_simulate,
        help="play many deals in Rust and summarise them",
        description="Play GAMES whole deals with a built-in policy and print a summary.",
    )
    sim.add_argument("-n", "--games", type=int, default=10_000, help="number of deals")
    sim.add_argument("--seed", type=int, default=0, help="the same seed gives the same results")
    sim.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    sim.add_argument(
        "--policy",
        default="random",
        help="every seat's policy: random (default), greedy, rule, search, ... (docs/bots.md)",
    )
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="play on a Ray cluster: ADDRESS, else RAY_ADDRESS, else a local one "
        "(docs/distributed.md)",
    )

    play = _command(
        sub,
        "play",
        cmd_play,
        help="play deals in the terminal against built-in agents, with a running score",
        description="Play against built-in opponents (--bots: greedy, the default, random, "
        "search, or search:1 to search:8 for the search's levels), a deal at a time with a "
        "running score. At your turn type cards "
        "(33, 10 J Q, 3♣ or 3c), a word (pass, bid 2) or #N for option N; "
        "'help' in the game says more.",
    )
    play.add_argument("--seat", type=int, default=0, help="your seat (0 bids or plays first)")
    play.add_argument("--seed", type=int, default=None, help="deal number, for a repeatable deal")
    play.add_argument(
        "--bots",
        default="greedy",
        metavar="KIND",
        help="the opponents: greedy (default), random, rule, search or search:1 ... search:8 "
        "(docs/bots.md)",
    )

    bench = _command(
        sub,
        "bench",
        cmd_bench,
        preset_optional=True,
        help="time move generation and simulation on this machine",
        description="Time moves, count_moves, batches and simulate on seeded hands.",
    )
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")

    add_eval_command(sub)
    add_serve_command(sub)
    add_replay_command(sub)
    add_analyse_command(sub)
    solve = _command(
        sub,
        "solve",
        cmd_solve,
        help="solve an open-hand endgame (2 or 3 hands) and show a winning line",
        description="Decide whether the side to move can force going out first, exactly.",
    )
    add_solve_arguments(solve)
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
                "a command is required: moves, classify, simulate, eval, play, bench, serve, "
                "replay or solve "
                "(see ddz --help)"
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
