"""Each group's house rules (``ChatSettings``), in their own key so they outlive games."""

from __future__ import annotations

import json
from collections.abc import Callable

from redis.asyncio import Redis
from redis.exceptions import WatchError

from bot.model import ChatSettings

from .games import MAX_ATTEMPTS, StorageBusy
from .keys import Keys


class SettingsStore:
    def __init__(self, redis: Redis, keys: Keys, default: ChatSettings) -> None:
        self.redis = redis
        self.keys = keys
        self.default = default

    async def get(self, chat_id: int) -> ChatSettings:
        """The chat's settings, or the defaults if its admins never chose."""
        raw = await self.redis.get(self.keys.settings(chat_id))
        return self.default if raw is None else _decode(raw)

    async def set(self, chat_id: int, settings: ChatSettings) -> None:
        await self.redis.set(self.keys.settings(chat_id), _encode(settings))

    async def update(
        self, chat_id: int, change: Callable[[ChatSettings], ChatSettings]
    ) -> ChatSettings:
        """Save ``change(current)`` by compare-and-set (two admins changing two settings at
        once both count) and return it. ``change`` may run several times, and may raise to
        save nothing."""
        key = self.keys.settings(chat_id)
        for _attempt in range(MAX_ATTEMPTS):
            async with self.redis.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(key)
                    raw = await pipe.get(key)
                    current = self.default if raw is None else _decode(raw)
                    new = change(current)
                    pipe.multi()  # type: ignore[no-untyped-call]
                    pipe.set(key, _encode(new))
                    await pipe.execute()
                    return new
                except WatchError:
                    continue
        raise StorageBusy(f"settings of {chat_id} kept changing; gave up")


def _encode(settings: ChatSettings) -> str:
    return json.dumps(settings.to_dict(), separators=(",", ":"))


def _decode(raw: str | bytes) -> ChatSettings:
    return ChatSettings.from_dict(json.loads(raw))
