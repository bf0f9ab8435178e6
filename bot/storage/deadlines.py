"""Sorted sets of chat ids scored by a time: the turn deadlines (when the bot acts for a
person whose time ran out) and the computers' turns (since when a computer player is due
to act).

``GameStore`` writes them together with each game (``GameRecord.deadline``,
``GameRecord.computers_at``); the sweeper and the computer players only read them, so a
restart loses nothing. One write of the deadlines is not the game's: the start of the turn
clock when the buttons were shown (``start_clock``, see ``bot.turn_clock``), which only
ever lowers the deadline in force, and only while the game is at the position shown."""

from __future__ import annotations

from typing import Final

from redis.asyncio import Redis

from .zsets import chat_ids

# KEYS: the game, the deadlines set; ARGV: the chat id, the game id, its move count when its
# buttons were shown, the deadline from then. XX: a chat without a deadline (no turn timer,
# or nobody's turn) gets none; LT: a deadline never moves later.
_START_CLOCK: Final = """
local raw = redis.call('GET', KEYS[1])
if not raw then return false end
local game = cjson.decode(raw)
local state = game['state']
if game['id'] ~= ARGV[2] or type(state) ~= 'table' or state['moves'] ~= tonumber(ARGV[3]) then
  return false
end
redis.call('ZADD', KEYS[2], 'XX', 'LT', ARGV[4], ARGV[1])
return redis.call('ZSCORE', KEYS[2], ARGV[1])
"""


class DeadlineStore:
    def __init__(self, redis: Redis, key: str) -> None:
        self.redis = redis
        self.key = key
        self._start_clock = redis.register_script(_START_CLOCK)

    async def due(self, now: float, limit: int = 50) -> list[int]:
        """Chats scored at or before ``now``, earliest first."""
        members = await self.redis.zrangebyscore(self.key, "-inf", now, start=0, num=limit)
        return chat_ids(members)

    async def next_due(self) -> float | None:
        """The earliest score, if any."""
        first = await self.redis.zrange(self.key, 0, 0, withscores=True)
        return float(first[0][1]) if first else None

    async def drop(self, chat_id: int) -> None:
        """Forget a chat that has nothing due (its game is gone)."""
        await self.redis.zrem(self.key, str(chat_id))

    async def start_clock(
        self, game_key: str, chat_id: int, game_id: str, moves: int, deadline: float
    ) -> float | None:
        """The buttons of move ``moves`` of ``game_id`` (stored at ``game_key``) were shown:
        its deadline in force becomes ``deadline`` if that is earlier and the game is still
        at that position. The deadline in force afterwards; None if the game moved on (or
        has no turn clock running)."""
        score = await self._start_clock(
            keys=[game_key, self.key], args=[str(chat_id), game_id, moves, repr(deadline)]
        )
        return None if score is None else float(score)
