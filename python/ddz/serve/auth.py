"""Seat tokens: drawn from `secrets`, shown once, stored only as hashes.

A token is 256 random bits, so a plain SHA-256 is enough to keep the stored
form useless to whoever reads the database (no password stretching needed).
"""

from __future__ import annotations

import hashlib
import secrets

TABLE_ID_BYTES = 12
TOKEN_BYTES = 32


def new_table_id() -> str:
    return secrets.token_urlsafe(TABLE_ID_BYTES)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
