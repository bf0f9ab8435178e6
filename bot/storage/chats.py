"""Each group's house rules (``ChatSettings``), in their own key so they outlive games.

They change only together with the chat's game, in one transaction
(``GameStore.update_with_settings``): a lobby is dealt by the settings it was saved with."""

from __future__ import annotations

import json

from redis.asyncio import Redis

from bot.model import ChatSettings

from .keys import Keys
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
