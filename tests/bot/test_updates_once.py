"""Every update once (``bot.storage.workers``), and a game's presses one at a time
(``bot.handlers.OnceMiddleware``), with the real Redis:
the paths of Telegram's redelivery that the e2e test of duplicates (``tests/e2e/test_twice.py``)
cannot time:
a delivery waiting for another one, a claim that lapsed under a slow delivery, a failed
handling let go."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from aiogram.types import CallbackQuery, Chat, TelegramObject, Update, User
from redis.asyncio import Redis

from bot.handlers import OnceMiddleware
from bot.model import ChatGame, ChatSettings, GameRecord
from bot.storage import Claim, Storage
from bot.storage.workers import DUPLICATE, UpdateOnce
from bot.ui.callbacks import HandPress

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

    async def handled(_claim: Claim | None) -> str:
        return "handled"

    assert await once.run(UPDATE, handled) == "handled"
    assert await once.run(UPDATE, handled) is DUPLICATE


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


async def test_presses_on_one_games_hands_wait_for_each_other(
    redis: Redis, redis_prefix: str
) -> None:
    """Two players press their hand keyboards (each in their own private chat) for one
    group's game: the second press is handled once the first was, so the two never collide
    in the game's compare-and-set; a press for another game does not wait."""
    middleware = OnceMiddleware(UpdateOnce(make_storage(redis, redis_prefix).updates))
    first_runs, go_on = asyncio.Event(), asyncio.Event()
    started: list[int] = []

    async def handler(event: TelegramObject, _data: dict[str, Any]) -> None:
        assert isinstance(event, CallbackQuery) and event.from_user is not None
        started.append(event.from_user.id)
        if event.from_user.id == 1:
            first_runs.set()
            await go_on.wait()

    async def press(update_id: int, user_id: int, group: int) -> Any:
        user = User(id=user_id, is_bot=False, first_name=f"user{user_id}")
        data = HandPress(chat=group, game="g1", moves=0, act="x").pack()
        query = CallbackQuery(id=str(update_id), from_user=user, chat_instance="c", data=data)
        private = Chat(id=user_id, type="private")
        context = {"event_update": Update(update_id=update_id), "event_chat": private}
        return await middleware(handler, query, context)

    one = asyncio.create_task(press(UPDATE + 1, 1, CHAT))
    await first_runs.wait()
    two = asyncio.create_task(press(UPDATE + 2, 2, CHAT))
    other = asyncio.create_task(press(UPDATE + 3, 3, CHAT - 1))
    await asyncio.wait_for(other, 5)
    assert started == [1, 3]  # the press of the same game waits; the other game's does not
    go_on.set()
    await asyncio.wait_for(asyncio.gather(one, two), 5)
    assert started == [1, 3, 2]
