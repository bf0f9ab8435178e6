"""The live part's cost per move: the process that saved a change sends
its pages the record it holds, and passes over the save's notice (which names the game, the
version and the process); another process reads the game once per change, and not for a
version its pages were sent already."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from bot.model import ChatSettings, GameRecord
from bot.services import GameService, Player
from bot.storage import Storage
from bot.webapp.live import Live

from .games import deal

CHAT = -1002
ANNA, BORIS = Player(1, "Аня"), Player(2, "Борис")
WAIT = 10.0  # seconds: a deadline for what should take milliseconds


class Shown:
    """A page that notes the versions it was sent."""

    def __init__(self) -> None:
        self.versions: list[int] = []
        self.changed = asyncio.Event()

    async def show(self, record: GameRecord) -> None:
        self.versions.append(record.game.version)
        self.changed.set()

    async def reached(self, version: int) -> None:
        async with asyncio.timeout(WAIT):
            while not self.versions or self.versions[-1] < version:
                self.changed.clear()
                await self.changed.wait()


class Counted:
    """The game's real read, counted."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.reads = 0
        self.read = asyncio.Condition()

    async def __call__(self, chat_id: int) -> GameRecord | None:
        async with self.read:
            self.reads += 1
            self.read.notify_all()
        return await self.storage.games.get(chat_id)


@pytest.fixture
async def service(redis: Redis, redis_prefix: str) -> GameService:
    return GameService(Storage.create(redis, redis_prefix, default_settings=ChatSettings()))


@pytest.fixture
async def live(
    redis: Redis, redis_prefix: str, service: GameService
) -> AsyncIterator[tuple[Live, Counted]]:
    """A worker's live part on a channel of the test's own: the notices it gets are the
    test's, sent when the test says (the service's saves notify another channel)."""
    load = Counted(service.storage)
    live = Live(redis, f"{redis_prefix}:test-live", load, origin="here")
    live.start()
    try:
        async with asyncio.timeout(WAIT):
            await live.subscribed.wait()
        yield live, load
    finally:
        await live.stop()


async def _dealt(service: GameService) -> GameRecord:
    return await deal(service, CHAT, ANNA, BORIS)


async def _until_read(load: Counted, reads: int) -> None:
    async with asyncio.timeout(WAIT), load.read:
        await load.read.wait_for(lambda: load.reads >= reads)


async def test_a_change_saved_here_reaches_the_pages_and_its_notice_costs_no_read(
    redis: Redis, service: GameService, live: tuple[Live, Counted]
) -> None:
    watching, load = live
    record = await _dealt(service)
    game_id, version = record.game.game_id, record.game.version
    page = Shown()
    watching.watch(CHAT, page)
    watching.saved(record)
    await page.reached(version)
    assert load.reads == 0
    # Notices of what the pages were sent, and of this process's own saves (handed over
    # as they return), are passed over. A notice naming no version, after them on the
    # same channel, is read: it proves they came.
    await redis.publish(watching.channel, f"{CHAT} {game_id} {version}")
    await redis.publish(watching.channel, f"{CHAT} {game_id} {version + 5} here")
    await redis.publish(watching.channel, str(CHAT))
    await _until_read(load, 1)
    assert page.versions == [version]
    # A newer version saved elsewhere: read once, and sent.
    await service.games.update(CHAT, lambda current: (current, None))
    await redis.publish(watching.channel, f"{CHAT} {game_id} {version + 1}")
    await page.reached(version + 1)
    assert load.reads == 2
    assert page.versions == [version, version + 1]


async def test_every_save_of_this_process_reaches_its_pages_without_a_read(
    redis: Redis, service: GameService
) -> None:
    """Wired as the bot wires it (``bot.app.build``): the store tells the live part of each
    save, on the store's own channel."""
    storage = service.storage
    load = Counted(storage)
    origin = storage.games.origin
    watching = Live(redis, storage.keys.live(), load, origin, storage.keys.live_listener(origin))
    storage.games.on_saved = watching.saved
    watching.start()
    try:
        async with asyncio.timeout(WAIT):
            await watching.subscribed.wait()
        record = await _dealt(service)
        page = Shown()
        watching.watch(CHAT, page)
        for _ in range(5):
            saved = await storage.games.update(CHAT, lambda current: (current, current))
            assert saved is not None
            await page.reached(saved.game.version)
        # A notice naming no process: read once. (The saves' own are not even sent: this
        # process alone listens.)
        await storage.delivery.mark(CHAT, 0.0)
        await _until_read(load, 1)
        assert load.reads == 1
        first = record.game.version + 1
        assert page.versions == list(range(first, first + 5))
    finally:
        await watching.stop()


async def _next_notice(pubsub: PubSub) -> str:
    async with asyncio.timeout(WAIT):
        while True:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=WAIT)
            if message is not None:
                return str(message["data"].decode())


async def test_a_save_is_announced_only_when_another_process_listens(
    redis: Redis, service: GameService
) -> None:
    """A process that is the only one listening to the notices (one bot process) announces
    none of its saves: its own pages have them already. ``ours`` stands in for its
    listening connection (on the notices' channel and its own: ``Keys.live_listener``);
    ``theirs`` for another worker's. A marker published by the test after each save shows
    what came before it."""
    storage = service.storage
    games, keys = storage.games, storage.keys
    games.on_saved = lambda _record: None  # its pages are handed its saves
    record = await _dealt(service)
    ours, theirs = redis.pubsub(), redis.pubsub()
    try:
        await ours.subscribe(keys.live(), keys.live_listener(games.origin))

        async def save_and_mark(marker: str) -> None:
            await games.update(CHAT, lambda current: (current, None))
            await redis.publish(keys.live(), marker)

        await save_and_mark("alone")
        assert await _next_notice(ours) == "alone"
        await theirs.subscribe(keys.live())
        await save_and_mark("with another")
        version = record.game.version + 2
        notice = f"{CHAT} {record.game.game_id} {version} {games.origin}"
        for pubsub in (ours, theirs):
            assert [await _next_notice(pubsub) for _ in range(2)] == [notice, "with another"]
        # Its listening connection broke (it is resubscribing, then refreshes every page):
        # the other worker still hears of every save.
        await ours.unsubscribe()
        await save_and_mark("not listening")
        assert (
            await _next_notice(theirs)
            == f"{CHAT} {record.game.game_id} {version + 1} {games.origin}"
        )
    finally:
        await ours.aclose()  # type: ignore[no-untyped-call]
        await theirs.aclose()  # type: ignore[no-untyped-call]
