"""Fixtures of the service tests: a clock, the storage on the test's Redis prefix, the
whole app built on them with a mocked Bot API session (``app``), and that app fed updates
as Telegram sends them (``telegram``)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from kit import Clock
from redis.asyncio import Redis
from telegram_mock import TOKEN, MockedSession, Telegram, new_bot

from bot.app import App, build
from bot.config import Settings
from bot.model import ChatSettings
from bot.storage import Storage


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def storage(redis: Redis, redis_prefix: str) -> AsyncIterator[Storage]:
    yield Storage.create(redis, redis_prefix, default_settings=ChatSettings(turn_timeout=30))


@pytest.fixture
async def app(redis_url: str, redis_prefix: str, redis: Redis) -> AsyncIterator[App]:
    settings = Settings(
        bot_token=TOKEN, redis_url=redis_url, redis_prefix=redis_prefix, _env_file=None
    )
    built = build(settings, redis=Redis.from_url(redis_url), bot=new_bot(MockedSession()))
    try:
        yield built
    finally:
        await built.close()


@pytest.fixture
async def telegram(redis_url: str, redis_prefix: str, redis: Redis) -> AsyncIterator[Telegram]:
    """The bot, built as ``bot.__main__`` builds it (own Redis client; ``redis`` cleans up)."""
    settings = Settings(
        bot_token=TOKEN,
        redis_url=redis_url,
        redis_prefix=redis_prefix,
        default_language="ru",
        messages_per_second=1000,
        _env_file=None,
    )
    session = MockedSession()
    app = build(settings, redis=Redis.from_url(redis_url), bot=new_bot(session))
    # A group's message budget is the outbox's business, tested elsewhere: here every
    # message may go at once.
    app.outbox.budget.group_interval = 0.001
    try:
        yield Telegram(app, session)
    finally:
        await app.close()
    assert session.unknown == []
