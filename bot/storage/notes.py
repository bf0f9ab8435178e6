"""One-off messages (replies, notices) waiting to be sent: a list per chat, in order, and
the chats that have any in a sorted set (scored by when the oldest came), so that any
worker process can send them: one that is stopped or killed leaves its chats' replies to
the others. A note is taken off its list only after it was sent (or given up), so a worker
killed in between leaves it for the next."""

from __future__ import annotations

from typing import Final

from redis.asyncio import Redis

from .keys import Keys
from .zsets import backlog, chat_ids

MAX_QUEUED: Final = 20  # per chat; a flood of commands drops the oldest replies
TTL: Final = 3600  # a reply nobody could send for an hour is not worth sending

# Take the first note off the chat's list if it is still the one sent; the chat leaves the
# set of chats with notes when its list is empty (or expired).
_DONE: Final = """
if redis.call('LINDEX', KEYS[1], 0) == ARGV[1] then
  redis.call('LPOP', KEYS[1])
end
if redis.call('LLEN', KEYS[1]) == 0 then
  redis.call('ZREM', KEYS[2], ARGV[2])
  return 0
end
return 1
"""


class NoteStore:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        self._done = redis.register_script(_DONE)

    async def push(self, chat_id: int, raw: str, now: float) -> None:
        key = self.keys.notes(chat_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.rpush(key, raw)
            pipe.ltrim(key, -MAX_QUEUED, -1)
            pipe.expire(key, TTL)
            pipe.zadd(self.keys.notes_chats(), {str(chat_id): now}, nx=True)
            await pipe.execute()

    async def since(self, chat_id: int) -> float | None:
        """Since when the chat has notes waiting (None: it has none)."""
        score = await self.redis.zscore(self.keys.notes_chats(), str(chat_id))
        return None if score is None else float(score)

    async def first(self, chat_id: int) -> str | None:
        """The chat's oldest note waiting, if any."""
        raw = await self.redis.lindex(self.keys.notes(chat_id), 0)
        if raw is None:
            return None
        return raw.decode() if isinstance(raw, bytes) else str(raw)

    async def done(self, chat_id: int, raw: str) -> bool:
        """``raw`` went (or was given up): off the list. Whether more are waiting."""
        more = await self._done(
            keys=[self.keys.notes(chat_id), self.keys.notes_chats()], args=[raw, str(chat_id)]
        )
        return bool(more)

    async def waiting(self, limit: int = 100) -> list[int]:
        """Chats with notes waiting, oldest first."""
        members = await self.redis.zrange(self.keys.notes_chats(), 0, limit - 1)
        return chat_ids(members)

    async def backlog(self) -> tuple[int, float | None]:
        """How many chats have notes waiting, and since when the oldest has waited."""
        return await backlog(self.redis, self.keys.notes_chats())
