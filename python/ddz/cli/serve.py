"""``ddz serve``: run the game server (docs/server.md) on uvicorn.

The server's libraries come with the ``serve`` extra and are imported only
here, when the command runs, so the rest of the command line stays light.
"""

from __future__ import annotations

import argparse
import sys

from .common import UsageError, when_listening

SYNC = ("NORMAL", "FULL")
#: Seconds SIGTERM waits for open connections (WebSockets included) to
#: finish before the server closes them and exits.
GRACEFUL_SHUTDOWN = 5
#: Seconds a thread may hold the GIL while another waits for it (Python's default: 0.005).
SWITCH_INTERVAL = 0.0005


def add_serve_command(sub: argparse._SubParsersAction) -> None:
    from ddz.serve import limits

    serve = sub.add_parser(
        "serve",
        help="run the game server: HTTP and WebSocket JSON API, browser table at /",
        description="Run an authoritative game server on uvicorn (see docs/server.md).",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on")
    serve.add_argument("--db", default="ddz.sqlite3", help="SQLite file (created if missing)")
    serve.add_argument(
        "--max-tables", type=int, default=limits.MAX_TABLES, help="open tables at most (then 429)"
    )
    serve.add_argument(
        "--max-tables-per-client",
        type=int,
        default=limits.MAX_TABLES_PER_CLIENT,
        help="open tables one client address may have made (then 429)",
    )
    for name, default, says in (
        ("--idle-timeout", limits.IDLE_TIMEOUT, "close a table after this long without a change"),
        ("--ws-auth-timeout", limits.WS_AUTH_TIMEOUT, "time a WebSocket client has to send "
         "its token (then close 4408)"),
        ("--ws-send-timeout", limits.WS_SEND_TIMEOUT, "time a push may wait for a WebSocket "
         "client that reads nothing (then it is dropped)"),
        ("--header-timeout", limits.HEADER_TIMEOUT, "time a request has for its headers "
         "(then 408 and the connection closed)"),
        ("--body-timeout", limits.BODY_TIMEOUT, "time a request has for its body after "
         "its headers (then 408)"),
    ):  # fmt: skip
        serve.add_argument(name, type=float, default=default, metavar="SECONDS", help=says)
    serve.add_argument(
        "--max-connections-per-client",
        type=int,
        default=limits.MAX_CONNECTIONS_PER_CLIENT,
        help="open connections (HTTP and WebSocket) one client may hold (then 429)",
    )
    serve.add_argument(
        "--max-ws-per-table",
        type=int,
        default=limits.MAX_WS_PER_TABLE,
        help="WebSockets one table may have open (then close 4429)",
    )
    serve.add_argument(
        "--max-body",
        type=int,
        default=limits.MAX_BODY,
        help="request body bytes at most (then 413)",
    )
    serve.add_argument(
        "--sync",
        choices=[s.lower() for s in SYNC],
        default="normal",
        help="SQLite synchronous mode: normal survives a killed process, "
        "full also a power cut (one fsync per action)",
    )
    serve.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    counts = ("max_tables", "max_tables_per_client", "max_body", "max_connections_per_client",
              "max_ws_per_table")  # fmt: skip
    for name in counts:
        if getattr(args, name) < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be at least 1")
    times = ("idle_timeout", "ws_auth_timeout", "ws_send_timeout", "header_timeout", "body_timeout")
    for name in times:
        if not getattr(args, name) > 0:  # not NaN either
            raise UsageError(f"--{name.replace('_', '-')} must be more than 0 seconds")
    try:
        import uvicorn

        from ddz.serve import create_app
        from ddz.serve.connections import guarded_protocols
        from ddz.serve.limits import Limits
        from ddz.serve.store import StoreFailed, StoreUnavailable
    except ImportError as e:
        raise UsageError(
            f"ddz serve needs the serve extra ({e.name} is missing): pip install 'ddz[serve]'"
        ) from None
    try:
        app = create_app(
            db=args.db,
            max_body=args.max_body,
            synchronous=args.sync.upper(),
            limits=Limits(
                max_tables=args.max_tables,
                max_tables_per_client=args.max_tables_per_client,
                idle_timeout=args.idle_timeout,
                ws_auth_timeout=args.ws_auth_timeout,
                ws_send_timeout=args.ws_send_timeout,
                max_ws_per_table=args.max_ws_per_table,
            ),
        )
    except StoreUnavailable as e:
        raise UsageError(str(e)) from None
    except StoreFailed as e:  # the file opened, but its first write at start failed
        raise UsageError(f"cannot write {args.db!r}: {e.cause}") from None
    # Slow or idle connections timed out, and a cap on each client's (connections.py).
    guarded = guarded_protocols(
        args.max_connections_per_client, args.header_timeout, args.body_timeout
    )
    protocols = {"http": guarded[0], "ws": guarded[1]} if guarded else {}
    # Views are a few KB of JSON: compressing each push costs more CPU than it saves here.
    # proxy_headers=False: a client's address is its connection's, not what an
    # X-Forwarded-For header claims (the per-client limit counts by address).
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host=args.host,
            port=args.port,
            log_level="warning",
            ws_per_message_deflate=False,
            ws_max_size=max(args.max_body, 4096),
            proxy_headers=False,
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN,
            **protocols,
        )
    )
    when_listening(server, lambda: _say_where(args))
    # Worker threads (bots, replays, threaded tables) hold the GIL for up to
    # the switch interval each time the event loop wants it back: 0.5 ms
    # instead of Python's 5 ms keeps /healthz and the inline tables prompt
    # while they compute (docs/server.md, Threads).
    sys.setswitchinterval(SWITCH_INTERVAL)
    server.run()
    return 0


def _say_where(args: argparse.Namespace) -> None:
    """Where the API listens, and the address to open in a browser."""
    host = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    host = f"[{host}]" if ":" in host else host
    print(
        f"ddz serve: listening on {args.host}:{args.port} (database {args.db}); "
        f"the table: http://{host}:{args.port}/",
        flush=True,
    )
