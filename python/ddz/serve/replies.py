"""The server's answers: a refusal, and the JSON text of every view, push
and error (the routes', the fast path's, the body limit's, the
WebSocket's), written in one place as compact UTF-8, so the same error is
the same bytes whichever part of the server answers it.
"""

from __future__ import annotations

import json

from starlette.responses import Response

try:  # orjson (in the serve extra) encodes a view ten times faster than json
    import orjson

    def encode(value: object) -> str:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()

except ImportError:  # pragma: no cover - the same text, more slowly

    def encode(value: object) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Refused(Exception):
    """A request the server turns down; `status` is the HTTP status to answer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def printable(text: str) -> str:
    """`text` with any lone surrogate (JSON can carry "\\ud83c" alone, UTF-8
    cannot) written out as a backslash escape, so it can be encoded."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def error_json(message: str) -> bytes:
    """The body of every error reply: ``{"error":"..."}``."""
    return encode({"error": printable(message)}).encode()


def ws_error_json(message: str) -> str:
    """The WebSocket's error message: ``{"type":"error","error":"..."}``."""
    return encode({"type": "error", "error": printable(message)})


def error_response(status: int, message: str, headers: dict | None = None) -> Response:
    return Response(error_json(message), status, headers, media_type="application/json")
