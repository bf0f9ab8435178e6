"""What the sorted sets of chats (the outbox's work list, the chats with replies waiting)
say to an operator."""

from __future__ import annotations

from redis.asyncio import Redis


async def backlog(redis: Redis, key: str) -> tuple[int, float | None]:
    """How many members ``key`` holds, and the lowest score (when the oldest came)."""
    async with redis.pipeline(transaction=False) as pipe:
        pipe.zcard(key)
        pipe.zrange(key, 0, 0, withscores=True)
        count, first = await pipe.execute()
    return int(count), (float(first[0][1]) if first else None)
