"""Token buckets: how many messages the bot may send now, and when it may send the next."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """``capacity`` messages at once, refilled at ``rate`` per second. Within any window of
    ``w`` seconds at most ``capacity + rate * w`` messages pass."""

    def __init__(
        self, capacity: float, rate: float, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.capacity = capacity
        self.rate = rate
        self.clock = clock
        self.tokens = capacity
        self.updated = clock()
        self.blocked_until = 0.0

    def _refill(self, now: float) -> None:
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now

    def wait_time(self) -> float:
        """Seconds until a token is available (0: now)."""
        now = self.clock()
        self._refill(now)
        if now < self.blocked_until:
            return self.blocked_until - now
        if self.tokens >= 1:
            return 0.0
        return (1 - self.tokens) / self.rate

    def take(self) -> bool:
        """Take a token if one is available now."""
        if self.wait_time() > 0:
            return False
        self.tokens -= 1
        return True

    def block(self, seconds: float) -> None:
        """Telegram said "retry after": nothing until then, and start empty."""
        now = self.clock()
        self._refill(now)
        self.blocked_until = max(self.blocked_until, now + seconds)
        self.tokens = 0


def per_minute(limit: int, burst: int = 4) -> TokenBucket:
    """A bucket that lets at most ``limit`` messages through in any 60 seconds: ``burst`` at
    once, the rest spread evenly."""
    burst = max(1, min(burst, limit - 1))
    return TokenBucket(burst, (limit - burst) / 60.0)
