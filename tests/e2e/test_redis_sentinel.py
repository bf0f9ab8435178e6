"""Redis behind Sentinel: a primary, its replica and a sentinel, each a real
``redis-server`` of the test's own; ``REDIS_URL`` is ``redis+sentinel://``. The primary
fails over (orderly, or killed) and the bot's client finds the new one by itself: what was
written before is there, and writing goes on.

Outside CI the tests skip when there is no ``redis-server`` binary (Sentinel is its
``--sentinel`` mode); in CI (``CI=true``) they fail instead."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from redis.asyncio import Redis

from bot.i18n import translator
from bot.model import ChatSettings, Phase
from bot.services import Changed, GameService, Player
from bot.storage import Storage, connect
from bot.storage.connect import PRIMARY_RECHECK, redis_client
from bot.storage.games import decode

from .conftest import open_world
from .harness import SentinelGroup

pytestmark = [pytest.mark.e2e]

CHAT = -1002
ANNA, BORIS = Player(1, "Аня"), Player(2, "Борис")


def _need_redis_server() -> None:
    if shutil.which("redis-server") or Path("/usr/bin/redis-server").exists():
        return
    if os.environ.get("CI") == "true":
        pytest.fail("redis-server is missing: CI must install it (scripts/test does)")
    pytest.skip("no redis-server binary: the Sentinel tests run it (apt-get install redis-server)")


@pytest_asyncio.fixture
async def sentinels(tmp_path: Path) -> AsyncIterator[SentinelGroup]:
    _need_redis_server()
    group = SentinelGroup(tmp_path)
    try:
        await group.start()
        yield group
    finally:
        group.stop()


async def yes() -> bool:
    return True


async def _replicated(redis: Redis, key: str) -> None:
    """Everything written so far is on the replica too: ``WAIT`` counts for the writes of
    its own connection, and replication keeps order, so a write of ours comes last."""
    await redis.set(key, 1)
    assert await redis.wait(1, 1000) == 1


async def test_storage_follows_an_orderly_failover(sentinels: SentinelGroup) -> None:
    """``SENTINEL FAILOVER`` leaves the old primary up and writable for several seconds:
    the client must stop using it by itself (within ``PRIMARY_RECHECK``), or the writes
    meanwhile go to a server whose data is about to be replaced."""
    redis = redis_client(sentinels.url)
    new_primary = Redis.from_url(sentinels.replica.url)
    sentinel = sentinels.sentinel_client()
    try:
        service = GameService(Storage.create(redis, "sentinel", default_settings=ChatSettings()))
        assert isinstance(await service.new_lobby(CHAT, ANNA, can_message=yes), Changed)
        await _replicated(redis, "sentinel:replicated")

        assert await sentinel.sentinel_failover(SentinelGroup.SERVICE)
        await sentinels.wait_promoted()
        await asyncio.sleep(PRIMARY_RECHECK + 0.5)

        joined = await service.join(CHAT, BORIS, can_message=yes)
        assert isinstance(joined, Changed)  # the lobby from before the failover is there
        raw = await new_primary.get(service.storage.keys.game(CHAT))
        assert raw is not None, "the write went to the old primary"
        assert [p.user_id for p in decode(raw).game.players] == [ANNA.user_id, BORIS.user_id]
    finally:
        await sentinel.aclose()
        await new_primary.aclose()
        await redis.aclose()


async def test_a_read_only_refusal_sends_the_client_to_the_new_primary(
    sentinels: SentinelGroup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The primary was demoted under connections the client holds, and the sentinel already
    names the new one: the first write refused as read-only drops those connections and is
    retried on the new primary. (The regular re-check of the address is turned off here:
    it would find the new primary first.)"""
    monkeypatch.setattr(connect, "PRIMARY_RECHECK", 1e9)
    redis = redis_client(sentinels.url)
    old = Redis.from_url(sentinels.primary.url, decode_responses=True)
    new = Redis.from_url(sentinels.replica.url, decode_responses=True)
    sentinel = sentinels.sentinel_client()
    try:
        # Three connections at once, so three wait in the pool afterwards.
        await asyncio.gather(*(redis.blpop(["sentinel:nothing"], 0.2) for _ in range(3)))
        assert await _our_connections(old) == 3
        # Swap the roles behind the client's back, without the sentinel's CLIENT KILL.
        await new.replicaof("NO", "ONE")
        await old.replicaof("127.0.0.1", sentinels.replica.port)
        service = SentinelGroup.SERVICE
        await sentinel.sentinel_remove(service)
        await sentinel.sentinel_monitor(service, "127.0.0.1", sentinels.replica.port, 1)

        await redis.set("sentinel:after", "written")
        assert await new.get("sentinel:after") == "written"
        assert await _our_connections(old) == 0
    finally:
        await sentinel.aclose()
        await new.aclose()
        await old.aclose()
        await redis.aclose()


async def _our_connections(server: Redis) -> int:
    """Clients of ``server`` but the asking one, the sentinel's and the replicas'."""
    clients = await server.client_list(_type="normal")
    return len(
        [c for c in clients if not c["name"].startswith("sentinel-") and c["cmd"] != "client|list"]
    )


@pytest.mark.soak  # waits for a sentinel to notice a dead primary: about 12 s
async def test_the_game_goes_on_when_the_primary_dies(
    sentinels: SentinelGroup, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The real bot (``REDIS_URL`` the Sentinel URL) mid-game: the primary is killed; a press
    meanwhile is answered (applied once the replica is promoted, or "unavailable, nothing
    changed"), and the game goes on to its end on the new primary."""
    async for world in open_world(
        sentinels.url,
        lambda: tmp_path_factory.mktemp("bot"),
        MESSAGES_PER_SECOND="500",
        GROUP_MESSAGES_PER_MINUTE="60",
    ):
        table = world.table(2)
        await table.start_game()
        rng = random.Random(11)
        for _ in range(4):
            await table.press_random(await table.settled(), rng)
        before = await table.settled()
        assert before.game.state is not None
        await _replicated(world.redis, f"{world.prefix}:replicated")

        sentinels.primary.kill()
        user, message, data = rng.choice(table.hand_buttons(before))
        answer = await world.fake.callback_answer(world.fake.user_presses(user, message, data), 30)
        await sentinels.wait_promoted()

        after = await table.settled()
        assert after.game.state is not None
        if answer.text is None:  # applied, on top of what was there before
            assert after.game.state.moves > before.game.state.moves
        else:
            unavailable = translator(user.language_code or "ru").t("answer-unavailable")
            assert answer.text == unavailable
            assert after.game.state == before.game.state  # nothing changed, nothing lost
        record = await table.play_to_end(rng)
        assert record.game.phase is Phase.FINISHED
        await table.says_game_over()
