"""``ddz replay RECORD.json``: open a finished deal's record in the browser
table's replay, every hand open, on a server of its own at 127.0.0.1.

The record is checked before anything starts (a bad one is a usage error);
the server keeps no table (its database is a temporary file) and runs until
Ctrl-C. The URL is printed first, once the server listens, so the command
also works without a browser (``--no-browser``). Without the serve extra, or with ``--text``, the
deal is printed in the terminal instead: hands, every action, the result.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import threading
import webbrowser
from pathlib import Path

from .common import UsageError, out, plural, when_listening


def add_replay_command(sub: argparse._SubParsersAction) -> None:
    replay = sub.add_parser(
        "replay",
        help="replay a finished deal's record (Game.to_json) in the browser",
        description="Serve the browser table's replay of RECORD at 127.0.0.1 and open it.",
    )
    replay.add_argument("record", metavar="RECORD", help="a record file, as Game.to_json() writes")
    replay.add_argument(
        "--port", type=int, default=0, help="port to listen on (default: a free one)"
    )
    replay.add_argument("--no-browser", action="store_true", help="print the URL only")
    replay.add_argument(
        "--text",
        action="store_true",
        help="print the deal in the terminal (the default without the serve extra)",
    )
    replay.set_defaults(func=cmd_replay)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        record = Path(args.record).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read {args.record}: {e}") from None
    if args.text:
        return print_replay(args.record, record)
    try:
        import uvicorn

        from ddz.serve import create_app
        from ddz.serve.pages import register_replay
    except ImportError as e:
        print(
            f"ddz replay: the browser replay needs the serve extra ({e.name} is missing: "
            "pip install 'ddz[serve]'); here is the deal as text",
            file=sys.stderr,
        )
        return print_replay(args.record, record)
    port = args.port or _free_port()
    with tempfile.TemporaryDirectory(prefix="ddz-replay-") as scratch:
        app = create_app(db=str(Path(scratch) / "replay.sqlite3"))
        try:
            key = register_replay(app, record)
        except ValueError as e:
            raise UsageError(f"{args.record} is not a finished deal's record: {e}") from None
        url = f"http://127.0.0.1:{port}/replay?local={key}"
        server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        )
        when_listening(server, lambda: print(url, flush=True))
        if not args.no_browser:
            threading.Thread(target=_open_when_up, args=(server, url), daemon=True).start()
        server.run()
    return 0


def _open_when_up(server, url: str) -> None:
    """Open the browser once uvicorn listens (it sets `started`)."""
    for _ in range(200):
        if server.started:
            if not webbrowser.open(url):
                print(f"open {url} in a browser", file=sys.stderr)
            return
        threading.Event().wait(0.05)


def print_replay(name: str, record: str) -> int:
    """The record's deals in the terminal, every hand open."""
    import ddz

    try:
        game = ddz.Game.from_json(record)
    except ValueError as e:
        raise UsageError(f"{name} is not a deal's record: {e}") from None
    console = out()
    actions = list(game.history)
    console.print(f"{game.rules.preset}, seed {game.seed}, {plural(len(game.deals), 'deal')}")
    for number, deal in enumerate(game.deals):
        console.print(f"\ndeal {number}: seat {deal['first']} acts first")
        for seat, hand in enumerate(deal["hands"]):
            console.print(f"  seat {seat}: {hand}")
        for key in ("kitty", "set_aside"):
            if deal.get(key):
                console.print(f"  {key.replace('_', ' ')}: {deal[key]}")
    console.print("")
    for turn, (seat, action) in enumerate(actions, 1):
        console.print(f"{turn:4}. seat {seat}: {action.replace(':', ' ')}")
    if game.phase != "over":
        console.print(f"\nnot over: seat {game.to_act} is to act")
        return 0
    result = game.result
    assert result is not None  # the deal is over
    # A role no seat holds in this deal reads None, -1 or an empty list; a
    # seat number 0 is a real seat (so no truthiness test here).
    known = {
        k: v
        for k, v in game.roles().items()
        if v is not None and v is not False and v not in (-1, [])
    }
    console.print("\nroles: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in known.items()))
    winners = result["winners"]
    named = ", ".join(str(s) for s in winners[:-1]) + f" and {winners[-1]}"
    who = f"seat {winners[0]} wins" if len(winners) == 1 else f"seats {named} win"
    stake = ", ".join(f"{name} {effect}" for name, effect in result["events"]) or "nothing"
    console.print(f"{who} at ×{result['multiplier']} ({stake}); scores {result['scores']}")
    return 0
