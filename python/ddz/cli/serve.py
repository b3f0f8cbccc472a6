"""``ddz serve``: run the game server (docs/server.md) on uvicorn.

The server's libraries come with the ``serve`` extra and are imported only
here, when the command runs, so the rest of the command line stays light.
"""

from __future__ import annotations

import argparse

from .common import UsageError

SYNC = ("NORMAL", "FULL")
#: Seconds SIGTERM waits for open connections (WebSockets included) to
#: finish before the server closes them and exits.
GRACEFUL_SHUTDOWN = 5


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
    ):  # fmt: skip
        serve.add_argument(name, type=float, default=default, metavar="SECONDS", help=says)
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
    if min(args.max_tables, args.max_tables_per_client, args.max_body) < 1:
        raise UsageError("--max-tables, --max-tables-per-client and --max-body must be at least 1")
    if not (args.idle_timeout > 0 and args.ws_auth_timeout > 0):  # not NaN either
        raise UsageError("--idle-timeout and --ws-auth-timeout must be more than 0 seconds")
    try:
        import uvicorn

        from ddz.serve import create_app
        from ddz.serve.limits import Limits
    except ImportError as e:
        raise UsageError(
            f"ddz serve needs the serve extra ({e.name} is missing): pip install 'ddz[serve]'"
        ) from None
    app = create_app(
        db=args.db,
        max_body=args.max_body,
        synchronous=args.sync.upper(),
        limits=Limits(
            max_tables=args.max_tables,
            max_tables_per_client=args.max_tables_per_client,
            idle_timeout=args.idle_timeout,
            ws_auth_timeout=args.ws_auth_timeout,
        ),
    )
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
        )
    )
    _say_where_once_up(server, args)
    server.run()
    return 0


def _say_where_once_up(server, args: argparse.Namespace) -> None:
    """One line once the socket listens (uvicorn's own banner is below the
    warning level): where the API is, and the address to open in a browser."""
    startup = server.startup

    async def startup_and_say(sockets=None) -> None:
        await startup(sockets=sockets)
        if server.started:
            host = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
            host = f"[{host}]" if ":" in host else host
            print(
                f"ddz serve: listening on {args.host}:{args.port} (database {args.db}); "
                f"the table: http://{host}:{args.port}/",
                flush=True,
            )

    server.startup = startup_and_say
