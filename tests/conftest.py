"""A real Redis for the tests: ``DURAK_TEST_REDIS_URL`` if set (``scripts/test`` sets it),
else a throwaway ``redis-server`` on a free port for the whole session. Every test that uses
Redis gets its own key prefix and has its keys deleted afterwards."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

# pytest puts this folder first on sys.path (it has no __init__.py), where ``tests/engine``
# would shadow the real ``engine`` package as a namespace package: the project root first.
ROOT = str(Path(__file__).resolve().parents[1])
if sys.path[0] != ROOT:
    sys.path.insert(0, ROOT)

import pytest  # noqa: E402
import redis as redis_sync  # noqa: E402
from redis.asyncio import Redis  # noqa: E402

from tests.prefixes import delete_prefix  # noqa: E402
from tests.soak import SOAK  # noqa: E402


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The quick default skips the soak tests (``tests.soak``), saying how to run them."""
    if SOAK:
        return
    skip = pytest.mark.skip(reason="soak: CI=true or DURAK_SOAK=1 runs it")
    for item in items:
        if item.get_closest_marker("soak") is not None:
            item.add_marker(skip)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    configured = os.environ.get("DURAK_TEST_REDIS_URL")
    if configured:
        yield configured
        return
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(binary).exists():
        pytest.skip("no redis-server binary and DURAK_TEST_REDIS_URL is not set")
    port = free_port()
    workdir = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(workdir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis_sync.Redis.from_url(url)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis_sync.ConnectionError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.05)
        client.close()
        yield url
    finally:
        process.terminate()
        process.wait(10)


@pytest.fixture
def redis_prefix() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


@pytest.fixture
async def redis(redis_url: str, redis_prefix: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    try:
        yield client
    finally:
        await delete_prefix(client, redis_prefix)
        await client.aclose()
