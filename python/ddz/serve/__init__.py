"""`ddz serve`: an authoritative game server over HTTP and WebSocket.

Needs the ``serve`` extra (``pip install 'ddz[serve]'``); ``import ddz``
never imports this package, and importing the package alone loads none of
the server's libraries until `create_app` is used. See docs/server.md::

    from ddz.serve import create_app
    app = create_app(db="ddz.sqlite3")    # an ASGI app, for uvicorn
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module 'ddz.serve' has no attribute {name!r}")


__all__ = ["create_app"]
