"""JSON a client sends, checked before anything reads it: no object with
a key given twice, nothing nested deeper than `MAX_DEPTH`.

A key given twice (``{"action": "bid:3", "action": "pass"}``) is refused,
not read as its last value, whichever route or short way reads the body;
deep nesting is refused before a recursive parser could hit Python's
recursion limit. `JsonGuard` does it for every HTTP body (pure ASGI, inside
the body limit, so the body is at most --max-body bytes), and `strict_loads`
for the WebSocket's first message.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .limits import replay, send_json
from .replies import Refused, error_json

#: The deepest nesting of arrays and objects any request may hold (a record,
#: the deepest body the API takes, is five levels deep).
MAX_DEPTH = 32
#: A JSON string, or one bracket: what the depth scan looks at.
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def too_deep(data: bytes) -> bool:
    """Does `data` nest arrays or objects deeper than MAX_DEPTH, with its
    brackets closed? (Brackets inside strings do not count; text whose
    brackets never close is not JSON, and is left to the parser to say so.)"""
    depth = deepest = 0
    for match in _TOKENS.finditer(data):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        elif token in (b"]", b"}"):
            depth -= 1
    return deepest > MAX_DEPTH and depth == 0


def _pairs(items: list[tuple[str, Any]]) -> dict:
    seen = set()
    for key, _ in items:
        if key in seen:
            raise Refused(422, f"the key {key!r} appears twice in one object")
        seen.add(key)
    return dict(items)


def strict_loads(data: bytes | str) -> Any:
    """`json.loads`, refusing (422) a repeated key or nesting past MAX_DEPTH;
    ValueError for text that is not JSON."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if too_deep(raw):
        raise Refused(422, f"JSON nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(data, object_pairs_hook=_pairs)
    except RecursionError:  # unclosed brackets nested past Python's limit: not JSON
        raise ValueError("unclosed brackets nested too deep") from None


class JsonGuard:
    """Pure ASGI middleware: an HTTP body that is JSON with a repeated key,
    or nested too deep, is answered 422 here; any other body goes on as it
    came (what is not JSON at all, the route words)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        body = b""
        while True:  # buffered already by the body limit, outside
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        if body.lstrip()[:1] in (b"{", b"["):
            try:
                strict_loads(body)
            except Refused as e:
                await send_json(send, e.status, error_json(e.message))
                return
            except ValueError:
                pass  # not JSON: the route says so
        await self.app(scope, replay(body, receive), send)
