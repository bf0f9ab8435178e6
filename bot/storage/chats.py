"""Each group's house rules (``ChatSettings``), in their own key so they outlive games."""

from __future__ import annotations

import json

from redis.asyncio import Redis

from bot.model import ChatSettings

from .keys import Keys


class SettingsStore:
    def __init__(self, redis: Redis, keys: Keys, default: ChatSettings) -> None:
        self.redis = redis
        self.keys = keys
        self.default = default

    async def get(self, chat_id: int) -> ChatSettings:
        """The chat's settings, or the defaults if its admins never chose."""
        raw = await self.redis.get(self.keys.settings(chat_id))
        if raw is None:
            return self.default
        return ChatSettings.from_dict(json.loads(raw))

    async def set(self, chat_id: int, settings: ChatSettings) -> None:
        await self.redis.set(
            self.keys.settings(chat_id), json.dumps(settings.to_dict(), separators=(",", ":"))
        )
