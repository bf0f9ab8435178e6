"""Every update once (``bot.storage.updates``), with the real Redis: the paths Telegram's
redelivery takes that the e2e test of duplicates (``tests/e2e/test_twice.py``) cannot time:
a delivery waiting for another one, a claim that lapsed under a slow delivery, a failed
handling let go."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from redis.asyncio import Redis

from bot.model import ChatGame, ChatSettings
from bot.storage import AlreadyApplied, GameRecord, Storage
from bot.storage.updates import CURRENT, Claim

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


async def as_update(claim: Claim, work: Callable[[], Awaitable[object]]) -> object:
    """Run ``work`` as the handler of the update ``claim`` holds."""
    reset = CURRENT.set(claim)
    try:
        return await work()
    finally:
        CURRENT.reset(reset)


async def test_a_second_delivery_waits_for_the_first_and_then_does_nothing(
    redis: Redis, redis_prefix: str
) -> None:
    updates = make_storage(redis, redis_prefix).updates
    first = await updates.claim(UPDATE)
    assert first is not None
    second = asyncio.get_running_loop().create_task(updates.claim(UPDATE))
    await updates.finish(first)
    assert await asyncio.wait_for(second, 5) is None


async def test_a_failed_handling_lets_the_redelivery_handle_it(
    redis: Redis, redis_prefix: str
) -> None:
    updates = make_storage(redis, redis_prefix).updates
    first = await updates.claim(UPDATE)
    assert first is not None
    await updates.abandon(first)
    again = await updates.claim(UPDATE)
    assert again is not None and again.token != first.token


async def test_a_slow_delivery_whose_claim_lapsed_does_not_save_twice(
    redis: Redis, redis_prefix: str
) -> None:
    storage = make_storage(redis, redis_prefix)
    await storage.games.update(CHAT, lambda _: (lobby(), None))
    slow = await storage.updates.claim(UPDATE)
    assert slow is not None
    await redis.delete(slow.key)  # its claim lapsed (``CLAIM_SECONDS``) while it was slow
    quick = await storage.updates.claim(UPDATE)
    assert quick is not None
    await as_update(quick, lambda: storage.games.update(CHAT, bump))
    try:
        await as_update(slow, lambda: storage.games.update(CHAT, bump))
    except AlreadyApplied:
        pass
    else:
        raise AssertionError("the slow delivery saved its change too")
    record = await storage.games.get(CHAT)
    assert record is not None and record.game.log == [{"bumped": True}]
    # The quick delivery may save more changes of the same update.
    await as_update(quick, lambda: storage.games.update(CHAT, bump))
    record = await storage.games.get(CHAT)
    assert record is not None and len(record.game.log) == 2


async def test_background_work_carries_no_update(redis: Redis, redis_prefix: str) -> None:
    """A change saved outside any handler (the outbox, a computer's move) is not marked."""
    storage = make_storage(redis, redis_prefix)
    await storage.games.update(CHAT, lambda _: (lobby(), None))
    await storage.games.update(CHAT, bump)
    assert not [key async for key in redis.scan_iter(match=f"{redis_prefix}:update:*")]
