"""The bot in webhook mode (``BOT_MODE=webhook``) with the real process, the fake Telegram
delivering updates by POSTing them to the bot, and a real Redis: a whole game, and requests
without the secret token refused."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import aiohttp
import pytest
import pytest_asyncio

from .conftest import World, open_world
from .harness import free_port

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

SECRET = "e2e_webhook-secret"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def hooked(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    port = free_port()
    async for opened in open_world(
        redis_url,
        lambda: tmp_path_factory.mktemp("bot"),
        MESSAGES_PER_SECOND="500",
        GROUP_MESSAGES_PER_MINUTE="60",
        BOT_MODE="webhook",
        WEBHOOK_URL=f"http://127.0.0.1:{port}/tg-hook",
        WEBHOOK_SECRET=SECRET,
        WEBHOOK_LISTEN=f"127.0.0.1:{port}",
    ):
        yield opened


async def test_a_game_played_through_the_webhook(hooked: World) -> None:
    world = hooked
    assert world.fake.world.webhook_url.endswith("/tg-hook")
    assert world.fake.world.webhook_secret == SECRET
    allowed = world.fake.world.allowed_updates or []
    assert {"message", "callback_query", "chat_member", "my_chat_member"} <= set(allowed)
    table = world.table(2)
    await table.start_game()
    await table.play_to_end(random.Random(11))
    await table.says_game_over()
    assert world.fake.polls_started == 0  # nothing was polled
    assert world.fake.webhook.refused == 0


async def test_a_request_without_the_secret_is_refused(hooked: World) -> None:
    url = hooked.fake.world.webhook_url
    update = {
        "update_id": 10**9,
        "message": {
            "message_id": 1,
            "date": 0,
            "chat": {"id": 1, "type": "private"},
            "text": "/help",
        },
    }
    async with aiohttp.ClientSession() as session:
        for headers in ({}, {"X-Telegram-Bot-Api-Secret-Token": "wrong"}):
            async with session.post(url, json=update, headers=headers) as response:
                assert response.status == 403
