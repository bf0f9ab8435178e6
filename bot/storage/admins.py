"""Telegram's yes or no about a user in a group (getChatMember), for at most a minute: is
the user an admin (``{p}:admin:...``), is the user a member who may watch the group's table
in the Mini App (``{p}:member:...``).

Kept in Redis with a TTL rather than in memory, so a restarted bot and every process share
it. A "no" is kept as well as a "yes": repeated presses by a non-admin, or a watcher's page
reconnecting, cost one question to Telegram a minute, not one each. A promotion, a
demotion, a member who left shows within ``ttl`` seconds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from redis.asyncio import Redis

ADMIN_TTL: Final = 60  # seconds
MEMBER_TTL: Final = 60  # seconds: a member who left stops seeing the table within a minute


class AnswerCache:
    """One kind of answer, under ``key(chat, user)`` (``pattern(chat)`` matches a chat's)."""

    def __init__(
        self,
        redis: Redis,
        key: Callable[[int, int], str],
        pattern: Callable[[int], str],
        ttl: int,
    ) -> None:
        self.redis = redis
        self.key = key
        self.pattern = pattern
        self.ttl = ttl

    async def get(self, chat_id: int, user_id: int) -> bool | None:
        """The cached answer, or None if there is none (never asked, or expired)."""
        raw = await self.redis.get(self.key(chat_id, user_id))
        if raw is None:
            return None
        return raw in (b"1", "1")

    async def put(self, chat_id: int, user_id: int, answer: bool) -> None:
        await self.redis.set(self.key(chat_id, user_id), "1" if answer else "0", ex=self.ttl)

    async def move(self, old_chat: int, new_chat: int) -> None:
        """A group became a supergroup: its answers hold there too, for what is left of
        their minute. (A cache: no transaction; a key that expires meanwhile is skipped.)"""
        async for key in self.redis.scan_iter(match=self.pattern(old_chat)):
            name = key.decode() if isinstance(key, bytes) else str(key)
            user_id = int(name.rsplit(":", 1)[1])
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.get(key)
                pipe.pttl(key)
                pipe.delete(key)
                value, ttl, _ = await pipe.execute()
            if value is not None and ttl > 0:
                await self.redis.set(self.key(new_chat, user_id), value, px=ttl, nx=True)
