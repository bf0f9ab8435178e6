"""Reading the sorted sets of chats (the turn deadlines, the computers' turns, the outbox's
work list, the chats with replies waiting)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from redis.asyncio import Redis


def chat_ids(members: Iterable[Any]) -> list[int]:
    """A sorted set's members (chat ids, as redis-py returns them) as numbers."""
    return [int(m.decode() if isinstance(m, bytes) else str(m)) for m in members]


async def backlog(redis: Redis, key: str) -> tuple[int, float | None]:
    """How many members ``key`` holds, and the lowest score (when the oldest came)."""
    async with redis.pipeline(transaction=False) as pipe:
        pipe.zcard(key)
        pipe.zrange(key, 0, 0, withscores=True)
        count, first = await pipe.execute()
    return int(count), (float(first[0][1]) if first else None)
