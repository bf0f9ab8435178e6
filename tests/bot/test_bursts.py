"""Bursts of presses while Redis is up are never refused. The bot's Redis
client waits for a free connection instead of failing when its pool is in use."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from kit import ANNA, BORIS, no, yes

from bot.model import ChatSettings
from bot.schema.presses import Move
from bot.services import Changed, GameService
from bot.storage import Storage
from bot.storage.connect import redis_client
from engine import legal_actions

POOL = 5  # far fewer connections than presses at once


@pytest.fixture
async def small_pool_storage(redis_url: str, redis_prefix: str) -> AsyncIterator[Storage]:
    client = redis_client(redis_url, max_connections=POOL)
    try:
        yield Storage.create(client, redis_prefix, default_settings=ChatSettings())
    finally:
        keys = [k async for k in client.scan_iter(match=f"{redis_prefix}:*", count=1000)]
        if keys:
            await client.delete(*keys)
        await client.aclose()


async def test_one_press_in_each_of_150_groups_at_once(small_pool_storage: Storage) -> None:
    service = GameService(small_pool_storage)
    chats = [-5000 - i for i in range(150)]
    for player in (ANNA, BORIS):
        await small_pool_storage.users.mark_started(player.user_id)

    async def deal(chat: int) -> tuple[int, str, int, Move]:
        await service.new_lobby(chat, ANNA, can_message=no)
        await service.join(chat, BORIS, can_message=yes)
        outcome = await service.start(chat, ANNA.user_id, is_admin=no)
        assert outcome.record is not None and outcome.record.game.state is not None
        state = outcome.record.game.state
        seat = state.acting[0]
        act = Move.of(legal_actions(state, seat)[0])
        return chat, outcome.record.game.game_id, (ANNA, BORIS)[seat].user_id, act

    games = await asyncio.gather(*(deal(chat) for chat in chats))
    outcomes = await asyncio.gather(
        *(service.play(chat, game_id, 0, act, user_id) for chat, game_id, user_id, act in games)
    )
    assert all(isinstance(o, Changed) for o in outcomes)
