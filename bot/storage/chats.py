"""What the bot keeps about a group besides its game: its house rules, and Telegram's answers
about its members.

Each group's house rules (``ChatSettings``), in their own key so they outlive games.

They change only together with the chat's game, in one transaction
(``GameStore.update_with_settings``): a lobby is dealt by the settings it was saved with.

Telegram's yes or no about a user in a group (getChatMember), for at most a minute: is
the user an admin (``{p}:admin:...``), is the user a member who may watch the group's table
in the Mini App (``{p}:member:...``).

Kept in Redis with a TTL rather than in memory, so a restarted bot and every process share
it. A "no" is kept as well as a "yes": repeated presses by a non-admin, or a watcher's page
reconnecting, cost one question to Telegram a minute, not one each. A promotion, a
demotion, a member who left shows within ``ttl`` seconds.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Final

from redis.asyncio import Redis

from bot.model import ChatSettings

from .keys import Keys, text
from .tx import Writes


class SettingsStore:
    def __init__(self, redis: Redis, keys: Keys, default: ChatSettings) -> None:
        self.redis = redis
        self.keys = keys
        self.default = default

    def key(self, chat_id: int) -> str:
        return self.keys.settings(chat_id)

    async def get(self, chat_id: int) -> ChatSettings:
        """The chat's settings, or the defaults if its admins never chose."""
        return self.decode(await self.redis.get(self.key(chat_id)))

    async def set(self, chat_id: int, settings: ChatSettings) -> None:
        await self.redis.set(self.key(chat_id), _encode(settings))

    def decode(self, raw: str | bytes | None) -> ChatSettings:
        """The settings stored as ``raw`` (the defaults for None)."""
        return self.default if raw is None else ChatSettings.from_dict(json.loads(raw))

    def queue_set(self, pipe: Writes, chat_id: int, settings: ChatSettings) -> None:
        """Save ``settings`` with the rest of ``pipe``'s transaction (``bot.storage.tx``)."""
        pipe.set(self.key(chat_id), _encode(settings))

    def queue_move(
        self,
        pipe: Writes,
        old_chat: int,
        new_chat: int,
        old: str | bytes,
        new: str | bytes | None,
    ) -> None:
        """The settings ``old`` of ``old_chat`` go to ``new_chat``, unless that chat has
        chosen its own (``new``): those are newer."""
        if new is None:
            pipe.set(self.key(new_chat), old)
        pipe.delete(self.key(old_chat))


def _encode(settings: ChatSettings) -> str:
    return json.dumps(settings.to_dict(), separators=(",", ":"))


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
            name = text(key)
            user_id = int(name.rsplit(":", 1)[1])
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.get(key)
                pipe.pttl(key)
                pipe.delete(key)
                value, ttl, _ = await pipe.execute()
            if value is not None and ttl > 0:
                await self.redis.set(self.key(new_chat, user_id), value, px=ttl, nx=True)
