"""Where a seeded table's later deals come from, and the mark a seeded
table's summaries and records carry (docs/server.md, Tables and seats).

A client may choose a table's seed (tests, puzzles, a deal to show): its
first deal is dealt from that seed, so the one who chose it knows that
deal. Each later deal's seed is a keyed hash of the table's key, which is
itself a keyed hash of the server's secret (kept in its database) and the
chosen seed: the same seed on the same server deals the same deals, bots
included, but a published record (which shows its deal's seed) gives away
nothing about the next deal, and neither does the chosen seed. Every
summary and record of such a table says ``"seeded": true``, so players
can see that someone may know its first deal.
"""

from __future__ import annotations

import hashlib
import hmac

SEED_LIMIT = 2**63


def table_key(server_secret: str, seed: int) -> str:
    """The secret key of a table whose client chose `seed`."""
    return hmac.new(server_secret.encode(), f"seeded-table/{seed}".encode(), "sha256").hexdigest()


def deal_seed(key: str, number: int) -> int:
    """The seed of deal `number` (1, 2, ...) of the table of `key`."""
    digest = hmac.new(key.encode(), f"deal/{number}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") % SEED_LIMIT


def marked(record: str, seeded: bool) -> str:
    """`record` (`Game.to_json()` text, a JSON object) with ``"seeded"`` added:
    `Game.from_json` reads it as before."""
    body = record.rstrip()
    assert body.endswith("}"), "a record is a JSON object"
    return f'{body[:-1]}, "seeded": {"true" if seeded else "false"}}}'
