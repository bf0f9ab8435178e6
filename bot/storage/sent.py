"""What the outbox last showed in each message slot, so that after a restart (or in another
worker process) it neither repeats an identical edit nor loses track of a message. The only
place that keeps the ids of the messages showing a game (its table, its hands)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from .keys import Keys


@dataclass(frozen=True, slots=True)
class Shown:
    """A message slot's message, the hash of its text and keyboard, and the key of the
    position it shows (see ``bot.delivery.drafts.Slot.key``)."""

    message_id: int
    digest: str
    key: str = ""


class SentStore:
    def __init__(self, redis: Redis, keys: Keys, ttl: int) -> None:
        self.redis = redis
        self.keys = keys
        self.ttl = ttl

    async def load(self, chat_id: int) -> dict[str, Shown]:
        """Slot -> what its message shows."""
        return shown_in(await self.redis.hgetall(self.keys.sent(chat_id)))

    async def get(self, chat_id: int, slot: str) -> Shown | None:
        """What ``slot``'s message shows, if it was sent."""
        value = await self.redis.hget(self.keys.sent(chat_id), slot)
        return None if value is None else _shown(value)

    async def save(self, chat_id: int, shown: Mapping[str, Shown]) -> None:
        """What the messages of ``shown``'s slots show now, in one round trip."""
        key = self.keys.sent(chat_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(key, mapping={slot: stored(s) for slot, s in shown.items()})
            pipe.expire(key, self.ttl)
            await pipe.execute()

    async def forget(self, chat_id: int, slot: str) -> None:
        await self.redis.hdel(self.keys.sent(chat_id), slot)


def stored(shown: Shown) -> str:
    """How ``shown`` is kept in the chat's hash (``_shown`` reads it)."""
    return f"{shown.message_id}:{shown.digest}:{shown.key}"


def shown_in(raw: dict[Any, Any]) -> dict[str, Shown]:
    """The stored hash of a chat's slots (``HGETALL``) as slot -> what its message shows."""
    return {_text(slot): _shown(value) for slot, value in raw.items()}


def _shown(value: bytes | str) -> Shown:
    message_id, _, rest = _text(value).partition(":")
    digest, _, key = rest.partition(":")
    return Shown(int(message_id), digest, key)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
