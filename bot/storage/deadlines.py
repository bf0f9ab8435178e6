"""Sorted sets of chat ids scored by a time: the turn deadlines (when the bot acts for a
person whose time ran out) and the computers' turns (since when a computer player is due
to act).

``GameStore`` writes them together with each game (``GameRecord.deadline``,
``GameRecord.computers_at``); the sweeper and the computer players only read them, so a
restart loses nothing."""

from __future__ import annotations

from redis.asyncio import Redis

from .zsets import chat_ids


class DeadlineStore:
    def __init__(self, redis: Redis, key: str) -> None:
        self.redis = redis
        self.key = key

    async def due(self, now: float, limit: int = 50) -> list[int]:
        """Chats scored at or before ``now``, earliest first."""
        members = await self.redis.zrangebyscore(self.key, "-inf", now, start=0, num=limit)
        return chat_ids(members)

    async def next_due(self) -> float | None:
        """The earliest score, if any."""
        first = await self.redis.zrange(self.key, 0, 0, withscores=True)
        return float(first[0][1]) if first else None

    async def drop(self, chat_id: int) -> None:
        """Forget a chat that has nothing due (its game is gone)."""
        await self.redis.zrem(self.key, str(chat_id))
