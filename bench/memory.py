"""What the bot keeps in Redis, per lobby, per game (of 2 and of 6 players), per person and per
update handled, measured on a Redis of its own:

    PYTHONPATH=. .venv/bin/python -m bench.memory [--lobbies 200] [--games 50] [--json]

The items are made by the bot's own services and stores (``GameService`` seats, deals and
plays; ``SentStore`` records the messages; ``StatsStore`` counts finished games), under the
default prefix ``durak`` and with Telegram-sized ids (10-digit users, ``-100…`` groups), so
keys and values are as long as in production. Each item is given two ways:

* ``keys``: ``MEMORY USAGE … SAMPLES 0`` summed over the keys that are the item's own (a
  game's record, its message ids, its players' seats), averaged over the items;
* ``used``: the growth of ``INFO memory``'s ``used_memory`` over the whole batch, divided by
  the items: besides the keys, the item's members of shared sets (the turn deadlines, the
  games being played, who started the bot), key expiries and the key space's own tables.
  The key space's table grows in powers of two, so this figure moves with the batch's size.

A batch's figures leave out the outbox's work list (``{p}:outbox``, ``{p}:outbox:seq``),
which the bot empties as it sends: no worker runs here, so those keys are dropped before
each reading. Always a throwaway ``redis-server`` (never ``DURAK_TEST_REDIS_URL``):
``used_memory`` must count this command's keys alone.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import hashlib
import json
import random
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from redis.asyncio import Redis

from bot.__main__ import new_event_loop
from bot.delivery.plan import slots_of
from bot.model import ChatSettings, GameRecord
from bot.schema.presses import Move
from bot.schema.settings import AI_LEVELS
from bot.schema.stats import GameResult, PlayerResult
from bot.services import Changed, GameService, Player
from bot.storage import Storage
from bot.storage.connect import redis_client
from bot.storage.outbox import Shown
from bot.storage.tx import Writes
from engine import legal_actions
from tests.e2e.harness import RedisServer
from tests.webapp.games import deal

PREFIX = "durak"
FIRST_USER = 6_100_000_000  # Telegram's user ids have ten digits by now
FIRST_GROUP = -1_002_100_000_000  # a supergroup's id: -100 and its channel id
MOVES_AT_MOST = 5_000  # a random game that has not ended by then is a bug, not a long game


@dataclass(frozen=True)
class Item:
    """One kind of thing the bot keeps, measured over ``count`` of them."""

    name: str
    count: int
    keys: float  # bytes of its own keys (MEMORY USAGE), per item
    used: float | None  # growth of used_memory, per item (None: not measured that way)

    def line(self) -> str:
        used = "-" if self.used is None else f"{self.used:,.0f}"
        return f"{self.name:<44} {self.count:>6} {self.keys:>10,.0f} {used:>10}"


async def used_memory(redis: Redis) -> int:
    info = await redis.info("memory")
    return int(info["used_memory"])


async def key_bytes(redis: Redis, keys: Iterable[str]) -> int:
    """``MEMORY USAGE`` of ``keys``, every element counted (``SAMPLES 0``)."""
    total = 0
    for key in keys:
        usage = await redis.memory_usage(key, samples=0)
        total += int(usage or 0)
    return total


class Batch:
    """The growth of ``used_memory`` while a batch of items is made; the outbox's work list,
    which a running bot empties, is dropped before each reading."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.before = 0

    async def reading(self) -> int:
        keys = self.storage.keys
        await self.storage.redis.delete(keys.outbox(), keys.outbox_seq(), keys.outbox_later())
        return await used_memory(self.storage.redis)

    async def start(self) -> None:
        self.before = await self.reading()

    async def grown(self) -> int:
        return await self.reading() - self.before


def people(first: int, count: int) -> list[Player]:
    # Names as long as most people's first names (the record keeps each player's name).
    return [Player(first + k, f"Игрок {first + k - FIRST_USER}") for k in range(count)]


async def _no() -> bool:
    return False


async def show(storage: Storage, record: GameRecord) -> None:
    """Record the game's messages as sent, as the outbox does once it sent them: one entry
    per message slot (the group's table, each player's hand) with a message id and a digest
    as long as the real ones."""
    shown = {
        slot.name: Shown(
            1_000_000 + index, hashlib.sha1(slot.name.encode()).hexdigest()[:16], slot.key
        )
        for index, slot in enumerate(slots_of(record, {}))
    }
    await storage.sent.save(record.game.chat_id, shown)


def own_keys(storage: Storage, record: GameRecord) -> list[str]:
    """The keys that are this lobby's or game's alone: its record, its messages, its
    players' seats."""
    keys, game = storage.keys, record.game
    seats = [keys.user_games(p.user_id) for p in game.players if not p.computer]
    return [keys.game(game.chat_id), keys.sent(game.chat_id), *seats]


async def lobbies(storage: Storage, service: GameService, count: int) -> Item:
    """Lobbies with two people seated, waiting to be dealt."""
    batch = Batch(storage)
    await batch.start()
    records = []
    for index in range(count):
        chat = FIRST_GROUP - index
        creator, joiner = people(FIRST_USER + 2 * index, 2)
        for person in (creator, joiner):  # the bot seats only people it may write to
            await storage.users.mark_started(person.user_id)
        await service.new_lobby(chat, creator, can_message=_no)
        outcome = await service.join(chat, joiner, can_message=_no)
        assert isinstance(outcome, Changed), outcome
        await show(storage, outcome.record)
        records.append(outcome.record)
    grown = await batch.grown()
    own = sum([await key_bytes(storage.redis, own_keys(storage, r)) for r in records])
    for record in records:  # the games below count from an empty key space again
        await storage.redis.delete(*own_keys(storage, record))
    await storage.redis.delete(storage.keys.started())
    return Item("lobby (2 people seated)", count, own / count, grown / count)


@dataclass
class Played:
    dealt: Item
    peak: Item  # the largest each game's record and messages came to during its play
    finished: Item  # kept for "Play again" after the end
    records: list[GameRecord]


async def games(
    storage: Storage, service: GameService, count: int, players: int, first_user: int, seed: int
) -> Played:
    """``count`` games of ``players`` people, dealt, then played to the end by random legal
    moves."""
    batch = Batch(storage)
    await batch.start()
    records: list[GameRecord] = []
    for index in range(count):
        chat = FIRST_GROUP - 10_000 * players - index
        seated = people(first_user + players * index, players)
        record = await deal(service, chat, *seated)
        await show(storage, record)
        records.append(record)
    grown = await batch.grown()
    dealt = sum([await key_bytes(storage.redis, own_keys(storage, r)) for r in records])
    rng = random.Random(seed)
    peak = 0
    for index in range(len(records)):
        record = records[index]
        game_peak = 0
        for _ in range(MOVES_AT_MOST):
            state = record.game.state
            assert state is not None
            if state.finished:
                break
            seat = next(s for s in range(state.players) if legal_actions(state, s))
            action = rng.choice(legal_actions(state, seat))
            user_id = record.game.players[seat].user_id
            outcome = await service.play(
                record.game.chat_id, record.game.game_id, state.moves, Move.of(action), user_id
            )
            assert isinstance(outcome, Changed), outcome
            record = outcome.record
            await show(storage, record)
            game_peak = max(game_peak, await key_bytes(storage.redis, own_keys(storage, record)))
        else:
            raise AssertionError(f"a game of {players} did not end in {MOVES_AT_MOST} moves")
        peak += game_peak
        records[index] = record
    finished = sum([await key_bytes(storage.redis, own_keys(storage, r)) for r in records])
    name = f"game of {players}"
    return Played(
        Item(f"{name}, dealt", count, dealt / count, grown / count),
        Item(f"{name}, its largest in play", count, peak / count, None),
        Item(f"{name}, finished (kept a day)", count, finished / count, None),
        records,
    )


def stats_keys(storage: Storage, records: Sequence[GameRecord]) -> list[str]:
    keys = storage.keys
    chats = [keys.chat_stats(r.game.chat_id) for r in records]
    users = [
        key(p.user_id)
        for r in records
        for p in r.game.players
        for key in (keys.user_stats, keys.versus_stats)
    ]
    return chats + users


async def stats(storage: Storage, records: Sequence[GameRecord], name: str) -> Item:
    """The statistics of the people of ``records`` as they are now: measured by what deleting
    them frees (and put back afterwards, by the same bytes)."""
    redis = storage.redis
    keys = [key for key in stats_keys(storage, records) if await redis.exists(key)]
    count = sum(len(r.game.players) for r in records)
    own = await key_bytes(redis, keys)
    dumps = [(key, await redis.dump(key)) for key in keys]
    before = await used_memory(redis)
    await redis.delete(*keys)
    freed = before - await used_memory(redis)
    for key, dumped in dumps:
        assert dumped is not None
        await redis.restore(key, 0, dumped)
    return Item(name, count, own / count, freed / count)


async def season(storage: Storage, records: Sequence[GameRecord]) -> None:
    """Count, for every person of ``records``, a game in every place, as the durak with and
    without epaulettes, a draw, and games against computers of every level: every field the
    statistics can hold, through ``StatsStore``'s own writes."""
    for record in records:
        seats = [(p.user_id, p.name) for p in record.game.players]
        size = len(seats)
        writes = Writes()
        for shift in range(size):
            order = seats[shift:] + seats[:shift]
            result = GameResult(
                tuple(
                    PlayerResult(user, name, place, place == size, place == size and shift == 0)
                    for place, (user, name) in enumerate(order, start=1)
                ),
                draw=False,
            )
            storage.stats.queue(writes, record.game.chat_id, result)
        draw = GameResult(
            tuple(PlayerResult(user, name, 1, False) for user, name in seats), draw=True
        )
        storage.stats.queue(writes, record.game.chat_id, draw)
        for level in AI_LEVELS:
            storage.stats.queue_vs_computers(writes, draw, level)
        await writes.send(storage.redis)


async def updates(storage: Storage, count: int) -> Item:
    """Updates handled: each leaves its mark for an hour (``UpdateLog``)."""
    batch = Batch(storage)
    await batch.start()
    for update_id in range(900_000_000, 900_000_000 + count):
        claim = await storage.updates.claim(update_id)
        assert claim is not None
        await storage.updates.finish(claim)
    grown = await batch.grown()
    keys = [storage.updates.key(u) for u in range(900_000_000, 900_000_000 + count)]
    own = await key_bytes(storage.redis, keys)
    return Item("update handled (kept an hour)", count, own / count, grown / count)


async def measure(redis_url: str, lobby_count: int, game_count: int, seed: int) -> list[Item]:
    redis = redis_client(redis_url)
    storage = Storage.create(redis, PREFIX, default_settings=ChatSettings())
    service = GameService(storage)
    try:
        # One of each first, then nothing kept: the scripts the stores load, the connections'
        # buffers and Redis's own first allocations are no item's.
        await lobbies(storage, service, 1)
        for players in (2, 6):
            await games(storage, service, 1, players, FIRST_USER + 1_000_000, seed)
        await updates(storage, 1)
        await redis.flushdb()
        items = [await lobbies(storage, service, lobby_count)]
        played: list[GameRecord] = []
        first_user = FIRST_USER + 1_000_000
        for players in (2, 6):
            result = await games(storage, service, game_count, players, first_user, seed)
            items += [result.dealt, result.peak, result.finished]
            played += result.records
            first_user += 1_000_000
        items.append(await stats(storage, played, "person's statistics, after one game"))
        await season(storage, played)
        items.append(await stats(storage, played, "person's statistics, every field"))
        started = storage.keys.started()
        members = int(await redis.scard(started))
        items.append(
            Item(
                "person who started the bot",
                members,
                await key_bytes(redis, [started]) / members,
                None,
            )
        )
        items.append(await updates(storage, 10 * lobby_count))
    finally:
        await redis.aclose()
    return items


async def on_own_redis(workdir: Path, lobby_count: int, game_count: int, seed: int) -> list[Item]:
    server = RedisServer(workdir)
    server.start()
    try:
        await server.wait_ready()
        return await measure(server.url, lobby_count, game_count, seed)
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lobbies", type=int, default=200)
    parser.add_argument("--games", type=int, default=50, help="games of 2, and as many of 6")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as workdir,
        asyncio.Runner(loop_factory=new_event_loop) as runner,
    ):
        run = functools.partial(on_own_redis, Path(workdir), args.lobbies, args.games, args.seed)
        items = runner.run(run())
    print(f"{'bytes per item':<44} {'items':>6} {'keys':>10} {'used':>10}")
    for item in items:
        print(item.line())
    if args.json:
        print(json.dumps([asdict(item) for item in items]))


if __name__ == "__main__":
    main()
