"""An open page's mark in Redis (``bot.webapp.presence``): the first one is written before the
page is answered, renewals go together in one round trip within ``RENEWALS_EVERY``, and a
page that closes takes back its renewal, so that it does not land after the goodbye. A real
Redis; the round trips are counted by the client (``Counted``)."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from bot.model import ChatSettings
from bot.storage import Storage
from bot.webapp.presence import RENEWALS_EVERY, Presence
from tests.counted import counted_client

CHATS = (-1001, -1002)
USERS = (1, 2, 3)
IDLE = 60.0


async def marks(storage: Storage, chat_id: int) -> dict[int, float]:
    return (await storage.delivery.load(chat_id)).pages


def presence_on(redis: Redis, prefix: str) -> tuple[Presence, Storage]:
    storage = Storage.create(redis, prefix, default_settings=ChatSettings())
    return Presence(storage, IDLE), storage


async def test_a_first_mark_is_written_at_once_and_renewals_go_together(
    redis_url: str, redis_prefix: str
) -> None:
    counted = counted_client(redis_url)
    presence, storage = presence_on(counted, redis_prefix)
    first = await presence.here(CHATS[0], USERS[0])
    assert (await marks(storage, CHATS[0]))[USERS[0]] == first
    counted.round_trips = 0
    renewed = {
        (chat, user): await presence.here(chat, user, renewal=True)
        for chat in CHATS
        for user in USERS
    }
    # Not yet: a renewal waits for the others.
    assert (await marks(storage, CHATS[0]))[USERS[0]] == first
    assert counted.round_trips == 1  # the mark read above
    await asyncio.sleep(RENEWALS_EVERY + 0.5)
    assert counted.round_trips == 2  # six marks of two chats, one round trip
    for chat in CHATS:
        assert await marks(storage, chat) == {user: renewed[chat, user] for user in USERS}
    await presence.stop()
    await counted.aclose()


async def test_a_page_that_closes_takes_back_its_renewal(redis: Redis, redis_prefix: str) -> None:
    presence, storage = presence_on(redis, redis_prefix)
    chat = CHATS[0]
    for user in USERS:
        await presence.here(chat, user)
    kept = await presence.here(chat, USERS[1], renewal=True)
    await presence.here(chat, USERS[0], renewal=True)
    await presence.away(chat, USERS[0])
    await asyncio.sleep(RENEWALS_EVERY + 0.5)
    pages = await marks(storage, chat)
    assert USERS[0] not in pages  # its renewal did not bring it back
    assert pages[USERS[1]] == kept
    await presence.stop()
