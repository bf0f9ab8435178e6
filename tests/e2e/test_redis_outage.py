"""Redis goes away mid-game and comes back: presses meanwhile are answered ("nothing
changed, try again") and change nothing; afterwards the game goes on to its end.

This module runs its own ``redis-server`` with an append-only file, so that killing it and
starting it again loses nothing, as in production (docker-compose.yml)."""

from __future__ import annotations

import asyncio
import random
import shutil
import socket
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.i18n import translator

from .conftest import World, open_world

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """A redis-server that a test may kill and start again on the same port and data."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "yes", "--appendfsync", "always", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip

    async def wait_ready(self, timeout: float = 10.0) -> None:
        client = Redis.from_url(self.url)
        try:
            async with asyncio.timeout(timeout):
                while True:
                    try:
                        await client.ping()
                        return
                    except (OSError, RedisConnectionError):
                        await asyncio.sleep(0.05)
        finally:
            await client.aclose()

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("redis-aof"))
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
    await table.all_start_bot()
    await table.gather()
    await table.deal()
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
