"""What the bot knows about users: who started it in private, and where each one sits."""

from __future__ import annotations

from redis.asyncio import Redis

from .keys import Keys


class UserStore:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    async def mark_started(self, user_id: int) -> None:
        """The user pressed Start in private: the bot may write to them."""
        await self.redis.sadd(self.keys.started(), str(user_id))

    async def mark_unreachable(self, user_id: int) -> None:
        """Telegram refused a private message (blocked, or never started)."""
        await self.redis.srem(self.keys.started(), str(user_id))

    async def has_started(self, user_id: int) -> bool:
        return bool(await self.redis.sismember(self.keys.started(), str(user_id)))

    async def started_among(self, user_ids: list[int]) -> list[bool]:
        """``has_started`` for each of ``user_ids``, in one round trip."""
        flags = await self.redis.smismember(self.keys.started(), [str(u) for u in user_ids])
        return [bool(flag) for flag in flags]

    async def games_of(self, user_id: int) -> dict[int, str]:
        """Chat id -> game id of every unfinished lobby or game the user sits in."""
        raw = await self.redis.hgetall(self.keys.user_games(user_id))
        return {int(_text(chat)): _text(game) for chat, game in raw.items()}


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value
