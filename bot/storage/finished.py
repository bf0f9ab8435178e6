"""Finished games, kept after their end for their record, replay and review
(``FinishedStore``), and the reviews made of them (``ReviewStore``).

A game is kept by the write of its final move (``GameStore.queue_write``), in the same
transaction: a game that ended is always there to replay, and its seed, which the live game
kept out of every message and page, is only now readable. Each chat keeps its latest
``LATEST`` games listed, newest first, for ``/replay``; every kept game and review expires
``ttl`` seconds after its end (``RECORDS_DAYS``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final, cast

from redis.asyncio import Redis

from bot import jsontext
from bot.model import ChatGame, FinishedGame

from .keys import Keys, text
from .tx import Writes

LATEST: Final = 20


class FinishedStore:
    def __init__(self, redis: Redis, keys: Keys, ttl: int) -> None:
        self.redis = redis
        self.keys = keys
        self.ttl = ttl

    def queue_keep(self, pipe: Writes, game: ChatGame, now: float) -> None:
        """Keep ``game``, which has just ended (nothing for a game dealt without its
        deal kept)."""
        finished = FinishedGame.of(game, now)
        if finished is None:
            return
        chat_id, game_id = game.chat_id, game.game_id
        pipe.set(self.keys.finished(chat_id, game_id), jsontext.dumps(finished.to_dict()), self.ttl)
        listed = self.keys.finished_list(chat_id)
        pipe.zadd(listed, {game_id: now})
        pipe.zremrangebyrank(listed, 0, -LATEST - 1)
        pipe.expire(listed, self.ttl)
        for seat in game.players:
            if not seat.computer:
                pipe.sadd(self.keys.finished_of(seat.user_id), f"{chat_id}:{game_id}")
                pipe.expire(self.keys.finished_of(seat.user_id), self.ttl)

    async def forget(self, user_id: int, placeholder: Callable[[str], str]) -> None:
        """/forget: in every kept game ``user_id`` sat in, their seat shows
        ``placeholder``'s word instead of their name, and their review goes; the kept games
        of their private chat go whole (``bot.services.people.PersonalData``)."""
        index = self.keys.finished_of(user_id)
        for entry in await self.redis.smembers(index):
            chat, _, game_id = text(entry).partition(":")
            chat_id = int(chat)
            key = self.keys.finished(chat_id, game_id)
            await self.redis.delete(self.keys.review(chat_id, game_id, user_id))
            if chat_id == user_id:
                await self.redis.delete(key)
                await self.redis.zrem(self.keys.finished_list(chat_id), game_id)
                continue
            kept = await self.get(chat_id, game_id)
            if kept is None:
                continue
            word = placeholder(kept.settings.language)
            players = [
                replace(seat, name=word) if seat.user_id == user_id else seat
                for seat in kept.players
            ]
            renamed = replace(kept, players=players)
            await self.redis.set(key, jsontext.dumps(renamed.to_dict()), keepttl=True)
        await self.redis.delete(index)

    async def get(self, chat_id: int, game_id: str) -> FinishedGame | None:
        raw = await self.redis.get(self.keys.finished(chat_id, game_id))
        return None if raw is None else FinishedGame.from_dict(json.loads(raw))

    async def latest(self, chat_id: int) -> FinishedGame | None:
        """The chat's last finished game still kept."""
        listed = await self.redis.zrange(self.keys.finished_list(chat_id), 0, -1, desc=True)
        for game_id in listed:
            found = await self.get(chat_id, text(cast(bytes, game_id)))
            if found is not None:
                return found
        return None


class ReviewStore:
    """A person's review of a finished game, as the review made it (JSON), kept as long as
    the game is."""

    def __init__(self, redis: Redis, keys: Keys, ttl: int) -> None:
        self.redis = redis
        self.keys = keys
        self.ttl = ttl

    async def get(self, chat_id: int, game_id: str, user_id: int) -> dict[str, Any] | None:
        raw = await self.redis.get(self.keys.review(chat_id, game_id, user_id))
        return None if raw is None else dict(json.loads(raw))

    async def save(self, chat_id: int, game_id: str, user_id: int, review: dict[str, Any]) -> None:
        key = self.keys.review(chat_id, game_id, user_id)
        await self.redis.set(key, jsontext.dumps(review), ex=self.ttl)
