"""Each bot's keys are its own: two bots on one Redis with the same ``REDIS_PREFIX`` share
no game, no mark of an update and no statistic, and the keys written before namespaces
are found in the namespace of the first bot that starts (``bot.storage.keys``). A real
Redis."""

from __future__ import annotations

import asyncio

import pytest
from kit import ANNA, BORIS, CHAT, Clock, dealt
from redis.asyncio import Redis

from bot.config import Settings
from bot.model import ChatSettings
from bot.services import GameService
from bot.storage import Storage
from bot.storage.keys import adopt_keys, namespace

FIRST, SECOND = 111111, 222222  # two bots' ids


def storage_on(redis: Redis, prefix: str) -> Storage:
    return Storage.create(redis, prefix, default_settings=ChatSettings())


def settings(bot_id: int, prefix: str) -> Settings:
    return Settings(bot_token=f"{bot_id}:{'A' * 35}", redis_prefix=prefix, _env_file=None)


def test_the_namespace_is_the_prefix_and_the_bots_id(redis_prefix: str) -> None:
    assert settings(FIRST, redis_prefix).redis_namespace == f"{redis_prefix}:{FIRST}"
    assert settings(FIRST, redis_prefix).bot_id == FIRST


async def test_two_bots_with_one_prefix_share_no_game(
    redis: Redis, redis_prefix: str, clock: Clock
) -> None:
    first = storage_on(redis, namespace(redis_prefix, FIRST))
    second = storage_on(redis, namespace(redis_prefix, SECOND))
    await dealt(GameService(first, clock=clock, seed=lambda: f"{1:064x}"), ANNA, BORIS)
    assert await first.games.get(CHAT) is not None
    assert await second.games.get(CHAT) is None
    assert await second.users.started_among([ANNA.user_id]) == [False]


async def test_the_keys_of_before_go_to_the_first_bot_that_starts(
    redis: Redis, redis_prefix: str, clock: Clock
) -> None:
    before = storage_on(redis, redis_prefix)  # the layout without namespaces
    record = await dealt(GameService(before, clock=clock, seed=lambda: f"{1:064x}"), ANNA, BORIS)
    ttl = await redis.pttl(before.keys.game(CHAT))
    moved = await adopt_keys(redis, redis_prefix, FIRST)
    assert moved > 0
    adopted = storage_on(redis, namespace(redis_prefix, FIRST))
    found = await adopted.games.get(CHAT)
    assert found is not None and found.game == record.game
    assert await adopted.users.started_among([ANNA.user_id]) == [True]
    assert 0 < await redis.pttl(adopted.keys.game(CHAT)) <= ttl
    old = [key async for key in redis.scan_iter(match=f"{redis_prefix}:*")]
    assert all(
        key.decode().startswith(f"{redis_prefix}:{FIRST}:") or key.decode().endswith(":layout")
        for key in old
    )
    # Once: the next bot on the prefix, or the same one again, moves nothing.
    assert await adopt_keys(redis, redis_prefix, SECOND) == 0
    assert await adopt_keys(redis, redis_prefix, FIRST) == 0
    assert await storage_on(redis, namespace(redis_prefix, SECOND)).games.get(CHAT) is None


async def test_workers_starting_together_move_the_keys_once(
    redis: Redis, redis_prefix: str, clock: Clock
) -> None:
    before = storage_on(redis, redis_prefix)
    await dealt(GameService(before, clock=clock, seed=lambda: f"{1:064x}"), ANNA, BORIS)
    moved = await asyncio.gather(*(adopt_keys(redis, redis_prefix, FIRST) for _ in range(4)))
    assert moved.count(0) == 3  # one moved them, the others waited
    assert await storage_on(redis, namespace(redis_prefix, FIRST)).games.get(CHAT)


@pytest.mark.parametrize("bot_id", [FIRST])
async def test_a_fresh_redis_has_nothing_to_move(
    redis: Redis, redis_prefix: str, bot_id: int
) -> None:
    assert await adopt_keys(redis, redis_prefix, bot_id) == 0
    assert await redis.get(f"{redis_prefix}:layout") == f"done:{bot_id}".encode()
