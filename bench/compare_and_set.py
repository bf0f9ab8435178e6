"""The CPU of a move's save, done the bot's way and redis-py's way, on the same games:

    PYTHONPATH=. .venv/bin/python -m bench.compare_and_set [--saves 5000] [--json]

Every change of a game is saved by one compare-and-set (``bot.storage.tx.transact``): the
keys read in one pipelined round trip, then all the writes sent as one Lua script that
applies them only if the keys still hold what was read. The mechanism a reader would
expect instead is redis-py's optimistic transaction: ``WATCH`` the keys, read them,
``MULTI``, the writes queued through redis-py's pipeline methods, ``EXEC``, again on
``WatchError``. This measures what that choice costs a move, per save:

* the CPU of the bot's process (``time.thread_time`` around the save alone);
* the wall time of the save;
* its round trips to Redis (sends on the client's connections, counted below the pipeline:
  a redis-py pipeline sends once per ``execute``, and an ``UNWATCH`` would count too).

The save is a Mini App page's move: four-player games dealt through ``GameService``, each
save one random legal move (``engine.apply`` and the service's ``advance``, so the turn
deadline moves as in a real move) under a page press's claim. The bot's way is
``GameStore.update`` itself. redis-py's way (``watch_multi_exec``) does what
``GameStore._update`` does for such a save, with the very same writes: they are queued by
the bot's own ``Claim.queue_applied`` and ``GameStore.queue_write`` on ``PipelineWrites``,
which hands each command to the redis-py pipeline. The game store tells pages of its saves
(``on_saved``, as a bot serving the Mini App does), so the outbox notice is a ``NOTIFY``:
the bot's script runs it (a ``PUBLISH`` unless the saver's own listener is the only one);
redis-py's way sends a plain ``PUBLISH``, which Redis does with less work than the script.

The two ways take turns on the same games (a save each, the order alternating), so noise
on the machine hits both alike; a game that ends is replaced by a new deal, outside the
timing. Runs on the bot's event loop (``bot.__main__.new_event_loop``: uvloop where
installed) against ``DURAK_TEST_REDIS_URL``, or a throwaway ``redis-server``; its keys
(a prefix of its own) are deleted afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.asyncio.connection import Connection
from redis.exceptions import WatchError

from bot.__main__ import new_event_loop
from bot.model import ChatSettings, GameRecord, Phase
from bot.services import GameService, Player
from bot.services.decisions import advance
from bot.storage import Storage
from bot.storage.connect import redis_client
from bot.storage.games import Footprint, GameStore
from bot.storage.tx import MAX_ATTEMPTS, StorageBusy, Word, Writes
from bot.storage.workers import AlreadyApplied, Claim
from engine import apply, legal_actions
from tests.e2e.harness import delete_prefixed, on_test_redis
from tests.webapp.games import deal

PLAYERS = 4
GAMES = 20  # games played at once, in turn
WARM_UP = 100  # saves each way before the measured ones (connections, the script's load)

Move = Callable[[GameRecord | None], tuple[GameRecord, GameRecord]]


class CountedConnection(Connection):
    """A connection that counts what it sends: one send is one round trip (a command, or a
    pipeline's commands packed together), as nothing here sends before the reply came."""

    sends = 0

    async def send_packed_command(
        self, command: bytes | str | Iterable[bytes], check_health: bool = True
    ) -> None:
        CountedConnection.sends += 1
        await super().send_packed_command(command, check_health)


def counted_client(url: str) -> Redis:
    """The bot's client (``redis_client``: its pool, timeouts, retries), its connections
    counted."""
    redis = redis_client(url)
    pool = redis.connection_pool
    if pool.connection_class is not Connection:
        raise SystemExit(f"round trips are counted on TCP connections only, not {url}")
    pool.connection_class = CountedConnection
    return redis


class PipelineWrites(Writes):
    """``Writes``'s commands, each queued at once on a redis-py pipeline in ``MULTI`` (its
    own method, its own reply to read) instead of into the script's list."""

    __slots__ = ("notices", "pipe", "queued")

    def __init__(self, pipe: Pipeline) -> None:
        super().__init__()
        self.pipe = pipe
        self.queued = 0
        self.notices = 0  # NOTIFYs sent as a plain PUBLISH

    def _one(self) -> None:
        self.queued += 1

    def set(self, name: str, value: str | bytes, ex: int | None = None) -> None:
        self._one()
        self.pipe.set(name, value, ex=ex)

    def delete(self, *names: str) -> None:
        self._one()
        self.pipe.delete(*names)

    def expire(self, name: str, seconds: int) -> None:
        self._one()
        self.pipe.expire(name, seconds)

    def hset(
        self,
        name: str,
        key: str | None = None,
        value: Word | None = None,
        *,
        items: Sequence[Word] = (),
    ) -> None:
        self._one()
        self.pipe.hset(name, key, value, items=list(items) or None)

    def hsetnx(self, name: str, key: str, value: Word) -> None:
        self._one()
        self.pipe.hsetnx(name, key, value)

    def hdel(self, name: str, *keys: str) -> None:
        self._one()
        self.pipe.hdel(name, *keys)

    def hincrby(self, name: str, key: str, amount: int = 1) -> None:
        self._one()
        self.pipe.hincrby(name, key, amount)

    def sadd(self, name: str, *values: str) -> None:
        self._one()
        self.pipe.sadd(name, *values)

    def srem(self, name: str, *values: str) -> None:
        self._one()
        self.pipe.srem(name, *values)

    def zadd(self, name: str, mapping: Mapping[str, float]) -> None:
        self._one()
        self.pipe.zadd(name, dict(mapping))

    def zrem(self, name: str, *values: str) -> None:
        self._one()
        self.pipe.zrem(name, *values)

    def publish(self, channel: str, message: str) -> None:
        self._one()
        self.pipe.publish(channel, message)

    def notify(self, channel: str, message: str, listener: str) -> None:
        self.notices += 1
        self.publish(channel, message)

    async def send(self, redis: Redis) -> None:
        raise NotImplementedError("the pipeline's EXEC sends them")


@dataclass
class Queued:
    """What redis-py's way queued in its measured transactions, for the report."""

    saves: int = 0
    commands: int = 0
    notices: int = 0


async def watch_multi_exec(
    games: GameStore, chat_id: int, decide: Move, once: Claim, queued: Queued
) -> GameRecord:
    """``games.update(chat_id, decide, once=once)`` for a ``decide`` that always writes a
    record, through redis-py's ``WATCH``, reads, ``MULTI`` ... ``EXEC``."""
    key = games.keys.game(chat_id)
    _, deadlines, member = games.deadline_read(chat_id)
    for number in range(1, MAX_ATTEMPTS + 1):
        try:
            async with games.redis.pipeline(transaction=True) as pipe:
                await pipe.watch(key, once.key)
                raw, claimed = await pipe.mget(key, once.key)
                in_force = await pipe.zscore(deadlines, member)
                if not once.holds(claimed):
                    raise AlreadyApplied(once.key)
                current, unreadable = games.read(raw, in_force)
                if unreadable is not None:
                    raise unreadable
                before = Footprint.of(current)
                new, result = decide(current)
                pipe.multi()  # type: ignore[no-untyped-call]
                writes = PipelineWrites(pipe)
                once.queue_applied(writes)
                games.queue_write(writes, chat_id, before, new, shown=True, told=True)
                await pipe.execute()
        except WatchError:
            await asyncio.sleep(random.uniform(0, 0.001 * min(number, 20)))
            continue
        else:
            queued.saves += 1
            queued.commands += writes.queued
            queued.notices += writes.notices
            if games.on_saved is not None:
                games.on_saved(new)
            return result
    raise StorageBusy(f"game {chat_id} kept changing; gave up after {MAX_ATTEMPTS} tries")


@dataclass
class Way:
    """One way's saves: CPU and wall seconds of each, and round trips of all."""

    name: str
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    trips: int = 0

    def summary(self) -> dict[str, Any]:
        cpu = sorted(self.cpu)
        wall = sorted(self.wall)
        saves = len(cpu)
        return {
            "saves": saves,
            "cpu_us_mean": round(statistics.fmean(cpu) * 1e6, 1),
            "cpu_us_p50": round(_at(cpu, 0.50) * 1e6, 1),
            "cpu_us_p99": round(_at(cpu, 0.99) * 1e6, 1),
            "wall_us_mean": round(statistics.fmean(wall) * 1e6, 1),
            "wall_us_p50": round(_at(wall, 0.50) * 1e6, 1),
            "round_trips_per_save": round(self.trips / saves, 3),
        }


def _at(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _shown(_record: GameRecord) -> None:
    """``GameStore.on_saved`` of a bot serving pages (whose pages here are none)."""


async def _dealt(service: GameService, chat_id: int) -> GameRecord:
    """A four-player game in chat ``chat_id``, dealt."""
    players = [Player(-chat_id * 10 + seat, f"Игрок {seat}") for seat in range(PLAYERS)]
    return await deal(service, chat_id, *players)


def random_move(rng: random.Random) -> Move:
    """A decision that plays a random legal move of the first seat that may act."""

    def decide(record: GameRecord | None) -> tuple[GameRecord, GameRecord]:
        assert record is not None
        state = record.game.state
        assert state is not None and not state.finished
        seat = next(s for s in range(state.players) if legal_actions(state, s))
        action = rng.choice(legal_actions(state, seat))
        after, events = apply(state, action)
        advance(record, after, list(events), time.time(), played=[action])
        return record, record

    return decide


@dataclass
class Result:
    ways: list[Way]
    queued: Queued
    games_dealt: int


async def measure(redis_url: str, saves: int, seed: int) -> Result:
    """``saves`` measured saves each way (after ``WARM_UP`` each), taking turns."""
    redis = counted_client(redis_url)
    prefix = f"casbench{uuid.uuid4().hex[:8]}"
    storage = Storage.create(redis, prefix, default_settings=ChatSettings(turn_timeout=30))
    storage.games.on_saved = _shown
    service = GameService(storage)
    games = storage.games
    decide = random_move(random.Random(seed))
    queued = Queued()
    script = Way("compare-and-set (bot.storage.tx.transact, Lua)")
    watched = Way("WATCH/MULTI/EXEC (redis-py pipeline)")
    chats = list(range(-1001, -1001 - GAMES, -1))
    dealt = {chat: await _dealt(service, chat) for chat in chats}
    fresh = chats[-1] - 1

    def bot_way(chat: int, once: Claim) -> Awaitable[GameRecord]:
        return games.update(chat, decide, once=once)

    def redis_py_way(chat: int, once: Claim) -> Awaitable[GameRecord]:
        return watch_multi_exec(games, chat, decide, once, queued)

    ways = [(script, bot_way), (watched, redis_py_way)]
    try:
        for number in range(WARM_UP + saves):
            if number == WARM_UP:
                queued.saves = queued.commands = queued.notices = 0
            slot = number % GAMES
            order = ways if number % 2 == 0 else ways[::-1]
            for way, save in order:
                chat = chats[slot]
                user_id = dealt[chat].game.players[0].user_id
                once = storage.updates.page_press(user_id, f"{way is script}{number}")
                trips = CountedConnection.sends
                wall = time.perf_counter()
                cpu = time.thread_time()
                record = await save(chat, once)
                cpu = time.thread_time() - cpu
                wall = time.perf_counter() - wall
                if number >= WARM_UP:
                    way.cpu.append(cpu)
                    way.wall.append(wall)
                    way.trips += CountedConnection.sends - trips
                if record.game.phase is Phase.FINISHED:
                    chats[slot] = fresh
                    dealt[fresh] = await _dealt(service, fresh)
                    fresh -= 1
    finally:
        await delete_prefixed(redis, prefix)
        await redis.aclose()
    return Result([script, watched], queued, len(dealt))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=5000, help="measured saves each way")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="also one JSON object at the end")
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as workdir,
        asyncio.Runner(loop_factory=new_event_loop) as runner,
    ):
        run = functools.partial(measure, saves=args.saves, seed=args.seed)
        result = runner.run(on_test_redis(Path(workdir), run))
        loop = type(runner.get_loop()).__module__
    queued = result.queued
    print(
        f"{args.saves} saves each way, taking turns on {GAMES} four-player games at a time "
        f"({result.games_dealt} dealt), event loop {loop}; redis-py's way queued "
        f"{queued.commands / max(queued.saves, 1):.1f} commands a save and sent "
        f"{queued.notices} NOTIFY as a plain PUBLISH"
    )
    summaries = {}
    for way in result.ways:
        s = summaries[way.name] = way.summary()
        print(
            f"{way.name}: CPU {s['cpu_us_mean']:.0f} µs/save "
            f"(p50 {s['cpu_us_p50']:.0f}, p99 {s['cpu_us_p99']:.0f}), "
            f"wall {s['wall_us_mean']:.0f} µs/save (p50 {s['wall_us_p50']:.0f}), "
            f"{s['round_trips_per_save']:.2f} round trips/save"
        )
    if args.json:
        print(
            json.dumps(
                {
                    "saves": args.saves,
                    "games_at_a_time": GAMES,
                    "games_dealt": result.games_dealt,
                    "event_loop": loop,
                    "watch_commands_per_save": round(queued.commands / max(queued.saves, 1), 2),
                    "watch_notify_as_publish": queued.notices,
                    "ways": summaries,
                }
            )
        )


if __name__ == "__main__":
    main()
