"""What the outbox last showed in each message slot, so that after a restart (or in another
worker process) it neither repeats an identical edit nor loses track of a message."""

from __future__ import annotations

from dataclasses import dataclass

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
        raw = await self.redis.hgetall(self.keys.sent(chat_id))
        slots: dict[str, Shown] = {}
        for slot, value in raw.items():
            slot_text = slot.decode() if isinstance(slot, bytes) else slot
            value_text = value.decode() if isinstance(value, bytes) else value
            message_id, _, rest = value_text.partition(":")
            digest, _, key = rest.partition(":")
            slots[slot_text] = Shown(int(message_id), digest, key)
        return slots

    async def save(self, chat_id: int, slot: str, shown: Shown) -> None:
        key = self.keys.sent(chat_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(key, slot, f"{shown.message_id}:{shown.digest}:{shown.key}")
            pipe.expire(key, self.ttl)
            await pipe.execute()

    async def forget(self, chat_id: int, slot: str) -> None:
        await self.redis.hdel(self.keys.sent(chat_id), slot)
