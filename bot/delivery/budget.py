"""Token buckets: how many messages the bot may send now, and when it may send the next."""

from __future__ import annotations

import asyncio
import heapq
import itertools
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

    def refill(self, now: float) -> None:
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now

    def wait_time(self) -> float:
        """Seconds until a token is available (0: now)."""
        now = self.clock()
        self.refill(now)
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
        self.refill(now)
        self.blocked_until = max(self.blocked_until, now + seconds)
        self.tokens = 0


def per_minute(limit: int, burst: int = 4) -> TokenBucket:
    """A bucket that lets at most ``limit`` messages through in any 60 seconds: ``burst`` at
    once, the rest spread evenly."""
    burst = max(1, min(burst, limit - 1))
    return TokenBucket(burst, (limit - burst) / 60.0)


class PriorityGate:
    """The budget over all chats (Telegram allows a bot about 30 messages a second): a token
    bucket whose waiters are served by priority (lowest number first), then in order of
    arrival, so the players who must act get their buttons before anything else goes."""

    def __init__(
        self,
        rate: float,
        burst: float | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bucket = TokenBucket(burst or max(1.0, rate), rate, clock=clock)
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._arrivals = itertools.count()
        self._pump: asyncio.Task[None] | None = None

    @property
    def waiting(self) -> int:
        return len(self._waiters)

    def set_rate(self, rate: float) -> None:
        """Another rate from now on (the bot's share changed: a worker came or went)."""
        bucket = self.bucket
        bucket.refill(bucket.clock())
        bucket.rate = rate
        bucket.capacity = max(1.0, rate)
        bucket.tokens = min(bucket.tokens, bucket.capacity)

    async def acquire(self, priority: int) -> None:
        """Wait for a token; a cancelled waiter gives back a token it was just handed."""
        if not self._waiters and self.bucket.take():
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (priority, next(self._arrivals), future))
        if self._pump is None or self._pump.done():
            self._pump = asyncio.get_running_loop().create_task(self._serve())
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.refund()
            raise

    def refund(self) -> None:
        """A token taken for nothing (the message turned out not to need sending)."""
        self.bucket.tokens = min(self.bucket.capacity, self.bucket.tokens + 1)

    async def _serve(self) -> None:
        while self._waiters:
            wait = self.bucket.wait_time()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            _, _, future = heapq.heappop(self._waiters)
            if future.done():
                continue
            self.bucket.take()
            future.set_result(None)
