"""Turn deadlines: a sorted set of chat ids scored by when their turn runs out.

``GameStore`` writes it together with each game (``GameRecord.deadline``); the sweeper only
reads it, so a restart loses nothing."""

from __future__ import annotations

from redis.asyncio import Redis

from .keys import Keys


class DeadlineStore:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    async def due(self, now: float, limit: int = 50) -> list[int]:
        """Chats whose deadline is at or before ``now``, earliest first."""
        members = await self.redis.zrangebyscore(
            self.keys.deadlines(), "-inf", now, start=0, num=limit
        )
        return [int(m.decode() if isinstance(m, bytes) else str(m)) for m in members]

    async def next_due(self) -> float | None:
        """The earliest deadline, if any."""
        first = await self.redis.zrange(self.keys.deadlines(), 0, 0, withscores=True)
        return float(first[0][1]) if first else None
