"""The roll of worker processes that are alive: each one answers every few seconds, and one
that stopped answering for ``ABSENT_AFTER`` seconds (killed, say) drops off the roll. The
workers share what Telegram allows the bot over all chats by it: each sends at most its
share of ``MESSAGES_PER_SECOND``. Time is Redis's own, so workers on several machines agree
on it."""

from __future__ import annotations

from typing import Final

from redis.asyncio import Redis

ABSENT_AFTER: Final = 15.0

_PRESENT: Final = """
local time = redis.call('TIME')
local now = tonumber(time[1]) + tonumber(time[2]) / 1000000
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
return redis.call('ZCARD', KEYS[1])
"""


class WorkerRoll:
    def __init__(self, redis: Redis, key: str) -> None:
        self.redis = redis
        self.key = key
        self._present = redis.register_script(_PRESENT)

    async def present(self, worker: str) -> int:
        """``worker`` is alive; how many workers are."""
        count = await self._present(keys=[self.key], args=[worker, ABSENT_AFTER])
        return max(1, int(count))

    async def leave(self, worker: str) -> None:
        await self.redis.zrem(self.key, worker)
