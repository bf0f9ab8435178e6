"""Fixtures of the service tests: a clock and the storage on the test's Redis prefix."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from kit import Clock
from redis.asyncio import Redis

from bot.model import ChatSettings
from bot.storage import Storage


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def storage(redis: Redis, redis_prefix: str) -> AsyncIterator[Storage]:
    yield Storage.create(redis, redis_prefix, default_settings=ChatSettings(turn_timeout=30))
