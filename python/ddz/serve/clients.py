"""Who a client is, for the per-client limits, and the limits kept per client.

Every per-client limit (open tables, replays a minute, connections,
WebSockets) counts by one key (docs/server.md, Limits):

- an IPv4 address is its own key;
- an IPv6 address counts by its /64 network, the block one subscriber
  usually holds (one host can take any address in it);
- every loopback address (127.0.0.0/8, ::1, and IPv4 mapped into IPv6)
  is one key, "loopback": a local client could bind 127.0.0.2, .3, ... to
  look like many.
"""

from __future__ import annotations

import ipaddress
import time
from collections import Counter

LOOPBACK = "loopback"
#: Keys a rate limit remembers at most; full buckets are forgotten first.
MAX_KEYS = 10_000


def client_key(host: str | None) -> str:
    """The key a client address counts under (a key given again is unchanged)."""
    if not host:
        return "unknown"
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])  # drop an IPv6 zone
    except ValueError:
        return host  # already a key ("loopback", a /64), or a name
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return LOOPBACK
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class RateLimit:
    """A bucket per client key that fills at `per_second` up to `burst`, and
    that each request empties by what it cost (seconds of work, say): a
    client may start a request while its bucket holds anything, so cheap
    requests go through freely and costly ones wait. Lives on the event
    loop (not thread-safe)."""

    def __init__(self, per_second: float, burst: float, clock=time.monotonic) -> None:
        self.per_second = per_second
        self.burst = burst
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (level, at)

    def _level(self, key: str, now: float) -> float:
        level, at = self._buckets.get(key, (self.burst, now))
        return min(self.burst, level + (now - at) * self.per_second)

    def wait(self, key: str) -> float:
        """0.0 if `key` may start a request now, else the seconds until it may."""
        level = self._level(key, self.clock())
        return 0.0 if level > 0 else (1e-3 - level) / self.per_second

    def charge(self, key: str, cost: float) -> None:
        now = self.clock()
        self._buckets[key] = (self._level(key, now) - cost, now)
        if len(self._buckets) > MAX_KEYS:
            self._forget_full(now)

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have filled again (they hold nothing to remember)."""
        for key in list(self._buckets):
            if self._level(key, now) >= self.burst:
                del self._buckets[key]


class Slots:
    """How many of something (connections, WebSockets) each key holds, capped."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.held: Counter[str] = Counter()

    def take(self, key: str) -> bool:
        if self.held[key] >= self.cap:
            return False
        self.held[key] += 1
        return True

    def give_back(self, key: str) -> None:
        self.held[key] -= 1
        if self.held[key] <= 0:
            del self.held[key]
