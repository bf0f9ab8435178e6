"""Every update once (``bot.storage.workers``), with the real Redis:
the paths of Telegram's redelivery that the e2e test of duplicates (``tests/e2e/test_twice.py``)
cannot time:
a delivery waiting for another one, a claim that lapsed under a slow delivery, a failed
handling let go."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from bot.model import ChatGame, ChatSettings, GameRecord
from bot.storage import Claim, Storage
from bot.storage.workers import DUPLICATE, UpdateOnce

CHAT = -100_018
UPDATE = 18_000_001


def make_storage(redis: Redis, prefix: str) -> Storage:
    return Storage.create(redis, prefix, default_settings=ChatSettings())


def lobby() -> GameRecord:
    return GameRecord(ChatGame(CHAT, "g1", 1, ChatSettings()))


def bump(record: GameRecord | None) -> tuple[GameRecord, None]:
    assert record is not None
    record.game.log = [*record.game.log, {"bumped": True}]
    return record, None


async def test_a_second_delivery_waits_for_the_first_and_then_does_nothing(
    redis: Redis, redis_prefix: str
) -> None:
    storage = make_storage(redis, redis_prefix)
    await storage.games.update(CHAT, lambda _: (lobby(), None))
    once = UpdateOnce(storage.updates)
    first_runs = asyncio.Event()
    go_on = asyncio.Event()

    async def first(claim: Claim | None) -> str:
        first_runs.set()
        await go_on.wait()
        await storage.games.update(CHAT, bump, once=claim)
        return "first"

    async def second(claim: Claim | None) -> str:
        await storage.games.update(CHAT, bump, once=claim)
        return "second"

    one = asyncio.get_running_loop().create_task(once.run(UPDATE, first))
    await first_runs.wait()
    two = asyncio.get_running_loop().create_task(once.run(UPDATE, second))
    go_on.set()
    assert await one == "first"
    assert await asyncio.wait_for(two, 5) is DUPLICATE
    record = await storage.games.get(CHAT)
    assert record is not None and record.game.log == [{"bumped": True}]


async def test_a_failed_handling_lets_the_redelivery_handle_it(
    redis: Redis, redis_prefix: str
) -> None:
    once = UpdateOnce(make_storage(redis, redis_prefix).updates)

    async def fails(_claim: Claim | None) -> None:
        raise ConnectionError("the worker lost its network")

    with pytest.raises(ConnectionError):
        await once.run(UPDATE, fails)
    assert await once.run(UPDATE, lambda _: asyncio.sleep(0, "again")) == "again"
    assert await once.run(UPDATE, lambda _: asyncio.sleep(0, "thrice")) is DUPLICATE


async def test_a_slow_delivery_whose_claim_lapsed_does_not_save_twice(
    redis: Redis, redis_prefix: str
) -> None:
    storage = make_storage(redis, redis_prefix)
    await storage.games.update(CHAT, lambda _: (lobby(), None))
    once = UpdateOnce(storage.updates)

    async def quick(claim: Claim | None) -> str:
        await storage.games.update(CHAT, bump, once=claim)
        # One update may save more than one change.
        await storage.games.update(CHAT, bump, once=claim)
        return "quick"

    async def slow(claim: Claim | None) -> str:
        await redis.delete(storage.keys.update(UPDATE))  # its claim lapsed: it was too slow
        assert await once.run(UPDATE, quick) == "quick"  # the redelivery, meanwhile
        await storage.games.update(CHAT, bump, once=claim)
        return "slow"

    assert await once.run(UPDATE, slow) is DUPLICATE
    record = await storage.games.get(CHAT)
    assert record is not None and record.game.log == [{"bumped": True}] * 2


async def test_background_work_carries_no_update(redis: Redis, redis_prefix: str) -> None:
    """A change saved outside any handler (the outbox, a computer's move) is not marked."""
    storage = make_storage(redis, redis_prefix)
    await storage.games.update(CHAT, lambda _: (lobby(), None))
    await storage.games.update(CHAT, bump)
    assert not [key async for key in redis.scan_iter(match=f"{redis_prefix}:update:*")]
