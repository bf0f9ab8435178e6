"""What the bot keeps about people: who started it in private, where each one sits
(``UserStore``), and the statistics of their finished games (``StatsStore``).

Statistics of finished games: per group chat and player, and per player over every chat.

They are written only by ``StatsStore.queue_finished``, which ``GameStore`` calls for the
write that ends a game by its play (``GameRecord.has_result``), with the commands of that
very write: the counts change if and only if the finishing move is saved, so every finished
game is counted exactly once, however many presses race for the last move. Games ended
with /stop are never counted.

``{p}:stats:chat:{chat}`` (hash): ``<user>:g`` games played, ``<user>:d`` times the durak,
``<user>:x`` draws, ``<user>:e`` times the durak with epaulettes (R-POG), ``<user>:p<k>``
games finished in place k (1 = first out; the durak is last), ``<user>:n`` the player's
name as last seen.
``{p}:stats:user:{user}`` (hash): ``g``, ``d``, ``x``, ``e``, ``p<k>``, over every chat.
``{p}:stats:vs:{user}`` (hash): ``<level>:g``, ``<level>:d``, ``<level>:x``: a person's
games with computer players of that level at the table (the strongest there), which are
counted only here, never in the group's or the person's statistics above.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from redis.asyncio import Redis

from bot.model import ChatGame
from bot.schema.settings import AI_LEVELS
from bot.schema.stats import GameResult, PlayerResult, PlayerStats, game_result

from .keys import Keys, text
from .tx import Writes


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
        return {int(text(chat)): text(game) for chat, game in raw.items()}


GAMES, DURAK, DRAWS, NAME, PLACE, EPAULETTES = "g", "d", "x", "n", "p", "e"


def _metrics(player: PlayerResult, draw: bool) -> list[str]:
    metrics = [GAMES, f"{PLACE}{player.place}"]
    if draw:
        metrics.append(DRAWS)
    elif player.durak:
        metrics.append(DURAK)
        if player.epaulettes:
            metrics.append(EPAULETTES)
    return metrics


def _stats(user_id: int, counts: Mapping[str, str], name: str = "") -> PlayerStats:
    places = {
        int(metric[1:]): int(value)
        for metric, value in counts.items()
        if metric.startswith(PLACE) and metric[1:].isdigit()
    }
    return PlayerStats(
        user_id,
        name,
        games=int(counts.get(GAMES, 0)),
        durak=int(counts.get(DURAK, 0)),
        draws=int(counts.get(DRAWS, 0)),
        epaulettes=int(counts.get(EPAULETTES, 0)),
        places=places,
    )


class StatsStore:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    def queue_finished(self, pipe: Writes, game: ChatGame) -> None:
        """Count ``game``, which the write of ``pipe`` ends: in the group's and the people's
        statistics, or, with computer players at the table, only in the people's record
        against the strongest of them."""
        result = game_result(game)
        if result is None:
            return
        levels = [p.level for p in game.players if p.level is not None]
        if levels:
            self.queue_vs_computers(pipe, result, max(levels, key=AI_LEVELS.index))
        else:
            self.queue(pipe, game.chat_id, result)

    def queue(self, pipe: Writes, chat_id: int, result: GameResult) -> None:
        """Add ``result``'s increments to ``pipe``, a transaction's writes (nothing is sent
        until it commits: ``bot.storage.tx``)."""
        chat_key = self.keys.chat_stats(chat_id)
        for player in result.players:
            user_key = self.keys.user_stats(player.user_id)
            for metric in _metrics(player, result.draw):
                pipe.hincrby(chat_key, f"{player.user_id}:{metric}", 1)
                pipe.hincrby(user_key, metric, 1)
            pipe.hset(chat_key, f"{player.user_id}:{NAME}", player.name)

    def queue_vs_computers(self, pipe: Writes, result: GameResult, level: str) -> None:
        """Like ``queue``, for a game with computer players of ``level``: only the people's
        record against computers changes."""
        for player in result.players:
            if player.user_id < 0:  # a computer player
                continue
            key = self.keys.versus_stats(player.user_id)
            for metric in _metrics(player, result.draw):
                if not metric.startswith(PLACE):
                    pipe.hincrby(key, f"{level}:{metric}", 1)

    async def vs_computers(self, user_id: int) -> dict[str, PlayerStats]:
        """A person's record against computer players, by level (levels never met: absent)."""
        raw = await self.redis.hgetall(self.keys.versus_stats(user_id))
        by_level: dict[str, dict[str, str]] = {}
        for key, value in raw.items():
            level, _, metric = text(key).partition(":")
            by_level.setdefault(level, {})[metric] = text(value)
        return {level: _stats(user_id, counts) for level, counts in by_level.items()}

    def queue_move(
        self, pipe: Writes, old_chat: int, new_chat: int, counts: Mapping[bytes | str, Any]
    ) -> None:
        """``old_chat``'s statistics (``counts``, read with its game: ``bot.storage.chats``)
        go to ``new_chat``: added to any it has, its own names kept."""
        new_key = self.keys.chat_stats(new_chat)
        for field_name, value in counts.items():
            name = text(field_name)
            if name.endswith(f":{NAME}"):
                pipe.hsetnx(new_key, name, text(value))
            else:
                pipe.hincrby(new_key, name, int(text(value)))
        pipe.delete(self.keys.chat_stats(old_chat))

    async def chat(self, chat_id: int) -> list[PlayerStats]:
        """Everyone who finished a game in this chat, in no particular order."""
        raw = await self.redis.hgetall(self.keys.chat_stats(chat_id))
        by_user: dict[int, dict[str, str]] = {}
        for key, value in raw.items():
            user, _, metric = text(key).partition(":")
            if user.lstrip("-").isdigit() and metric:
                by_user.setdefault(int(user), {})[metric] = text(value)
        return [
            _stats(user_id, counts, counts.get(NAME, str(user_id)))
            for user_id, counts in by_user.items()
            if GAMES in counts
        ]

    async def user(self, user_id: int) -> PlayerStats:
        """The user's counts over every chat (zeros if they never finished a game)."""
        raw = await self.redis.hgetall(self.keys.user_stats(user_id))
        return _stats(user_id, {text(k): text(v) for k, v in raw.items()})
