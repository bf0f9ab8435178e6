"""Who is a group admin, as Telegram last said (getChatMember), for at most a minute.

Kept in Redis with a TTL rather than in memory, so a restarted bot and every process share
it. A "no" is kept as well as a "yes": repeated presses by a non-admin cost one question to
Telegram a minute, not one each. A promotion or demotion shows within ``ttl`` seconds.
"""

from __future__ import annotations

from typing import Final

from redis.asyncio import Redis

from .keys import Keys

ADMIN_TTL: Final = 60  # seconds


class AdminCache:
    def __init__(self, redis: Redis, keys: Keys, ttl: int = ADMIN_TTL) -> None:
        self.redis = redis
        self.keys = keys
        self.ttl = ttl

    async def get(self, chat_id: int, user_id: int) -> bool | None:
        """The cached answer, or None if there is none (never asked, or expired)."""
        raw = await self.redis.get(self.keys.admin(chat_id, user_id))
        if raw is None:
            return None
        return raw in (b"1", "1")

    async def put(self, chat_id: int, user_id: int, is_admin: bool) -> None:
        await self.redis.set(
            self.keys.admin(chat_id, user_id), "1" if is_admin else "0", ex=self.ttl
        )

    async def move(self, old_chat: int, new_chat: int) -> None:
        """A group became a supergroup: its answers hold there too, for what is left of
        their minute. (A cache: no transaction; a key that expires meanwhile is skipped.)"""
        async for key in self.redis.scan_iter(match=self.keys.admin_pattern(old_chat)):
            name = key.decode() if isinstance(key, bytes) else str(key)
            user_id = int(name.rsplit(":", 1)[1])
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.get(key)
                pipe.pttl(key)
                pipe.delete(key)
                value, ttl, _ = await pipe.execute()
            if value is not None and ttl > 0:
                await self.redis.set(self.keys.admin(new_chat, user_id), value, px=ttl, nx=True)
