"""What the outbox last showed in each message slot, so that after a restart it neither
repeats an identical edit nor loses track of a message."""

from __future__ import annotations

from redis.asyncio import Redis

from .keys import Keys


class SentStore:
    def __init__(self, redis: Redis, keys: Keys, ttl: int) -> None:
        self.redis = redis
        self.keys = keys
        self.ttl = ttl

    async def load(self, chat_id: int) -> dict[str, tuple[int, str]]:
        """Slot -> (message id, hash of text and markup)."""
        raw = await self.redis.hgetall(self.keys.sent(chat_id))
        slots: dict[str, tuple[int, str]] = {}
        for slot, value in raw.items():
            slot_text = slot.decode() if isinstance(slot, bytes) else slot
            value_text = value.decode() if isinstance(value, bytes) else value
            message_id, _, digest = value_text.partition(":")
            slots[slot_text] = (int(message_id), digest)
        return slots

    async def save(self, chat_id: int, slot: str, message_id: int, digest: str) -> None:
        key = self.keys.sent(chat_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, slot, f"{message_id}:{digest}")
            pipe.expire(key, self.ttl)
            await pipe.execute()

    async def forget(self, chat_id: int, slot: str) -> None:
        await self.redis.hdel(self.keys.sent(chat_id), slot)
