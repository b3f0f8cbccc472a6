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
    """A token bucket per client key: `burst` requests at once, then
    `per_second` a second. Lives on the event loop (not thread-safe)."""

    def __init__(self, per_second: float, burst: int, clock=time.monotonic) -> None:
        self.per_second = per_second
        self.burst = burst
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, at)

    def take(self, key: str) -> float:
        """0.0 if `key` may go now (a token is taken), else the seconds until it may."""
        now = self.clock()
        tokens, at = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) * self.per_second)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.per_second
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > MAX_KEYS:
            self._forget_full(now)
        return 0.0

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have filled again (they hold nothing to remember)."""
        for key, (tokens, at) in list(self._buckets.items()):
            if tokens + (now - at) * self.per_second >= self.burst:
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
