"""Redis goes away mid-game and comes back: presses meanwhile are answered ("nothing
changed, try again") and change nothing; afterwards the game goes on to its end.

This module runs its own persistent ``redis-server``, so that killing it and starting it
again loses nothing, as in production."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.i18n import translator

from .conftest import World, open_world
from .harness import RedisServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("redis-aof"), persistent=True)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def outage_world(
    redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[World]:
    await redis_server.wait_ready()
    async for opened in open_world(
        redis_server.url,
        lambda: tmp_path_factory.mktemp("bot"),
        MESSAGES_PER_SECOND="500",
        GROUP_MESSAGES_PER_MINUTE="60",
        DEFAULT_TURN_TIMEOUT="0",
    ):
        yield opened


async def test_a_redis_outage_changes_nothing_and_the_game_goes_on(
    outage_world: World, redis_server: RedisServer
) -> None:
    world = outage_world
    table = world.table(2)
    await table.start_game()
    rng = random.Random(5)
    for _ in range(6):
        await table.press_random(await table.settled(), rng)
    before = await table.settled()

    redis_server.kill()
    user, message, data = rng.choice(table.hand_buttons(before))
    query = world.fake.user_presses(user, message, data)
    answer = await world.fake.callback_answer(query, timeout=30)
    assert answer.text == translator(user.language_code or "ru").t("answer-unavailable")

    redis_server.start()
    await redis_server.wait_ready()
    for _ in range(20):  # the test's own connections saw the server go: reconnect
        try:
            await world.redis.ping()
            break
        except RedisConnectionError:
            await asyncio.sleep(0.05)
    after_outage = await table.settled()
    assert after_outage.game.state == before.game.state  # nothing changed, nothing lost
    record = await table.play_to_end(rng)
    assert record.game.state is not None and record.game.state.finished
    await table.says_game_over()
