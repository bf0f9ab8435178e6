"""One group's game as one Redis value, changed only by compare-and-set.

``GameStore.update(chat_id, decide)`` reads the value under WATCH, lets ``decide`` compute
the next value from it, and writes that value in a MULTI together with everything that
follows from it (the user index, the turn deadline, the TTL). If anybody wrote the key in
between, Redis refuses the transaction and ``decide`` runs again on the new value, a bounded
number of times: two presses at the same moment are both applied, in some order, each to
the state the other left behind; nothing is lost, doubled or reordered.

A decision may add its own commands to that MULTI (``GameRecord.also``: say, the statistics
of a game that just ended): they are written if and only if the new value is, so they
happen exactly once, together with it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.exceptions import WatchError

from bot.model import ChatGame, Phase

from .delivery import DeliveryStore
from .keys import Keys

log = logging.getLogger(__name__)

T = TypeVar("T")

Command = Callable[[Pipeline], object]
"""Queues commands on the transaction's pipeline (in MULTI mode: nothing is awaited)."""

MAX_ATTEMPTS: Final = 64
RECENT_PRESSES: Final = 32


class StorageBusy(RuntimeError):
    """The key kept changing under us for ``MAX_ATTEMPTS`` tries."""


class _Keep:
    """``decide`` returns ``KEEP`` to leave the value as it is."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Final = _Keep()


@dataclass(slots=True)
class GameRecord:
    """A ``ChatGame`` plus what the service needs to keep about it between presses.

    ``bout_from``: the engine's move count when the current bout began; a press made on a
    keyboard drawn before that is stale. ``presses``: ids of the latest callback queries
    applied, so an update Telegram delivers twice (say, after a restart) is applied once.
    ``deadline``: when the bot acts for whoever is to act (epoch seconds), or None.
    ``stopped_by``: who stopped the game with /stop. ``previous``: for "Play again", the
    last game's final state and player ids, so the next deal follows R-DEAL-1/R-START-3.
    ``also``: commands for the transaction that saves this record (never stored; a decision
    that runs again starts from a freshly read record, so they are not doubled).
    """

    game: ChatGame
    bout_from: int = 0
    presses: list[str] = field(default_factory=list)
    deadline: float | None = None
    stopped_by: str | None = None
    previous: dict[str, Any] | None = None
    also: list[Command] = field(default_factory=list, repr=False, compare=False)

    def remember_press(self, query_id: str) -> None:
        self.presses = [*self.presses, query_id][-RECENT_PRESSES:]

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.game.to_dict(),
            "x": {
                "bout_from": self.bout_from,
                "presses": self.presses,
                "deadline": self.deadline,
                "stopped_by": self.stopped_by,
                "previous": self.previous,
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        extra = data.get("x") or {}
        deadline = extra.get("deadline")
        return cls(
            game=ChatGame.from_dict(data),
            bout_from=int(extra.get("bout_from", 0)),
            presses=[str(p) for p in extra.get("presses", [])],
            deadline=None if deadline is None else float(deadline),
            stopped_by=extra.get("stopped_by"),
            previous=extra.get("previous"),
        )


def encode(record: GameRecord) -> str:
    return json.dumps(record.to_dict(), ensure_ascii=False, separators=(",", ":"))


def decode(raw: str | bytes) -> GameRecord:
    return GameRecord.from_dict(json.loads(raw))


Decide = Callable[[GameRecord | None], tuple[GameRecord | _Keep | None, T]]


class GameStore:
    """Games by group chat id. Writes go through ``update`` only."""

    def __init__(
        self,
        redis: Redis,
        keys: Keys,
        delivery: DeliveryStore,
        *,
        finished_ttl: int,
        idle_ttl: int,
    ) -> None:
        self.redis = redis
        self.keys = keys
        self.delivery = delivery
        self.finished_ttl = finished_ttl
        self.idle_ttl = idle_ttl
        # One transaction per chat at a time within this process: presses racing in one
        # game queue here instead of failing each other's WATCH (the retries are then only
        # for writers in other processes).
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def _lock(self, chat_id: int) -> asyncio.Lock:
        lock = self._locks.get(chat_id)
        if lock is None:
            lock = self._locks[chat_id] = asyncio.Lock()
        return lock

    async def get(self, chat_id: int) -> GameRecord | None:
        raw = await self.redis.get(self.keys.game(chat_id))
        return None if raw is None else decode(raw)

    async def update(self, chat_id: int, decide: Decide[T], *, shown: bool = True) -> T:
        """Apply ``decide`` atomically; see the module docstring. ``decide`` returns the new
        record (its version is set here), ``None`` to delete the game, or ``KEEP``, and a
        result handed back to the caller. It may run several times: keep it pure.

        ``shown=False`` is for bookkeeping that changes nothing any message shows (a message
        id, the start of the turn clock): the version stays, and the outbox is not asked to
        look at the chat again."""
        async with self._lock(chat_id):
            return await self._update(chat_id, decide, shown)

    async def _update(self, chat_id: int, decide: Decide[T], shown: bool) -> T:
        key = self.keys.game(chat_id)
        for attempt in range(MAX_ATTEMPTS):
            async with self.redis.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(key)
                    raw = await pipe.get(key)
                    current = None if raw is None else decode(raw)
                    before = _Footprint.of(current)  # ``decide`` may change ``current``
                    new, result = decide(current)
                    if isinstance(new, _Keep):
                        await pipe.unwatch()  # type: ignore[no-untyped-call]
                        return result
                    pipe.multi()  # type: ignore[no-untyped-call]
                    self._queue_write(pipe, chat_id, before, new, shown)
                    await pipe.execute()
                    return result
                except WatchError:
                    log.debug("game %s changed under us (attempt %d)", chat_id, attempt + 1)
            await asyncio.sleep(random.uniform(0, 0.001 * min(attempt + 1, 20)))
        raise StorageBusy(f"game {chat_id} kept changing; gave up after {MAX_ATTEMPTS} tries")

    def _queue_write(
        self, pipe: Pipeline, chat_id: int, old: _Footprint, new: GameRecord | None, shown: bool
    ) -> None:
        key = self.keys.game(chat_id)
        old_seated = old.seated
        new_seated = _seated(new)
        if new is None:
            pipe.delete(key)
        else:
            new.game.version = old.version + 1 if shown else old.version
            finished = new.game.phase is Phase.FINISHED
            ttl = self.finished_ttl if finished else self.idle_ttl
            pipe.set(key, encode(new), ex=ttl)
            pipe.expire(self.keys.sent(chat_id), ttl)
        for user_id in old_seated.keys() - new_seated.keys():
            pipe.hdel(self.keys.user_games(user_id), str(chat_id))
        for user_id, game_id in new_seated.items():
            if old_seated.get(user_id) != game_id:
                pipe.hset(self.keys.user_games(user_id), str(chat_id), game_id)
            pipe.expire(self.keys.user_games(user_id), self.idle_ttl)
        deadline = None if new is None else new.deadline
        if deadline is None:
            pipe.zrem(self.keys.deadlines(), str(chat_id))
        elif old.deadline != deadline:
            pipe.zadd(self.keys.deadlines(), {str(chat_id): deadline})
        if new is not None:
            for command in new.also:
                command(pipe)
            if shown:
                self.delivery.queue_mark(pipe, chat_id, time.time())

    async def active_chats(self) -> list[int]:
        """Chats with a game in any phase (a scan: for start-up only)."""
        chats = []
        async for key in self.redis.scan_iter(match=self.keys.game_pattern(), count=500):
            text = key.decode() if isinstance(key, bytes) else str(key)
            chats.append(self.keys.chat_of_game_key(text))
        return chats


@dataclass(frozen=True, slots=True)
class _Footprint:
    """What a stored record implies outside its key: the user index and the deadline."""

    version: int
    seated: dict[int, str]
    deadline: float | None

    @classmethod
    def of(cls, record: GameRecord | None) -> _Footprint:
        if record is None:
            return cls(0, {}, None)
        return cls(record.game.version, _seated(record), record.deadline)


def _seated(record: GameRecord | None) -> dict[int, str]:
    """Users sitting in an unfinished lobby or game of ``record``, with its game id."""
    if record is None or record.game.phase is Phase.FINISHED:
        return {}
    return {seat.user_id: record.game.game_id for seat in record.game.players}
