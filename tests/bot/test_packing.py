"""Commands packed by hiredis (``bot.storage.packing``): the same bytes as redis-py's own
packer, the same errors, for every kind of connection the bot opens, against a real server."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from redis.asyncio.connection import Connection, SSLConnection, UnixDomainSocketConnection
from redis.exceptions import DataError

from bot.storage.connect import PrimaryConnection, redis_client
from bot.storage.packing import HiredisPacking, packed_by_hiredis

ARGUMENTS: list[tuple[Any, ...]] = [
    ("GET", "k"),
    ("SET", "ключ", "значение ♥", "PX", 5000),
    ("EVALSHA", "a" * 40, 2, "k1", "k2", b"\x00\xffraw", 0.1 + 0.2, 1e20, -0.0, 2**70, -5),
    ("ZADD", "z", 1_796_194_392.4271638, "-1001234567890"),
    ("HSET", "h", "f", memoryview(b"view")),
]


@pytest.mark.parametrize("args", ARGUMENTS)
def test_hiredis_packs_the_bytes_redis_py_packs(args: tuple[Any, ...]) -> None:
    ours = packed_by_hiredis(Connection)()
    assert isinstance(ours, HiredisPacking)
    assert b"".join(ours.pack_command(*args)) == b"".join(Connection().pack_command(*args))


def test_what_hiredis_does_not_take_fails_as_in_redis_py() -> None:
    ours = packed_by_hiredis(Connection)()
    with pytest.raises(DataError):
        ours.pack_command("SET", "k", True)
    with pytest.raises(DataError):
        ours.pack_command("SET", "k", None)  # type: ignore[arg-type]  # what is tested
    # A command name with blanks is several words on the wire, as redis-py sends it.
    for name in ("CONFIG GET", b"CONFIG GET", "CONFIG\tGET"):
        assert ours.pack_command(name, "maxmemory") == Connection().pack_command(name, "maxmemory")


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("redis://127.0.0.1:1/0", Connection),
        ("rediss://127.0.0.1:1/0", SSLConnection),
        ("unix:///tmp/no-redis.sock", UnixDomainSocketConnection),
        ("redis+sentinel://127.0.0.1:1/durak", PrimaryConnection),
    ],
)
async def test_every_kind_of_client_packs_in_c(url: str, kind: type) -> None:
    client = redis_client(url)
    try:
        connection_class = client.connection_pool.connection_class
        assert issubclass(connection_class, HiredisPacking)
        assert issubclass(connection_class, kind)
    finally:
        await client.aclose()


async def test_a_real_server_reads_what_was_packed(redis_url: str) -> None:
    client = redis_client(redis_url)
    try:
        await client.set("packing:text", "значение ♥")
        await client.hset("packing:h", mapping={"int": 7, "float": 0.1 + 0.2, "raw": b"\x00\xff"})
        assert await client.get("packing:text") == "значение ♥".encode()
        assert await client.hgetall("packing:h") == {
            b"int": b"7",
            b"float": b"0.30000000000000004",
            b"raw": b"\x00\xff",
        }
        echoed = await client.eval("return ARGV", 0, "a", 2, 1.5, b"\x01")
        assert echoed == [b"a", b"2", b"1.5", b"\x01"]
        assert await client.execute_command("CONFIG GET", "maxmemory")  # type: ignore[no-untyped-call]
        await client.delete("packing:text", "packing:h")
    finally:
        await client.aclose()


async def _tasks_started_by(work: Callable[[], Awaitable[object]]) -> int:
    """How many tasks the event loop started while ``work`` ran."""
    loop = asyncio.get_running_loop()
    started = 0
    previous = loop.get_task_factory()

    def counting(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        nonlocal started
        started += 1
        return asyncio.Task(coro, loop=loop, **kwargs)

    loop.set_task_factory(counting)
    try:
        await work()
    finally:
        loop.set_task_factory(previous)
    return started


async def test_a_write_into_an_empty_buffer_starts_no_task(redis_url: str) -> None:
    client = redis_client(redis_url)
    try:
        await client.ping()  # connected, its health just checked

        async def commands() -> None:
            for n in range(20):
                await client.set(f"packing:quick:{n}", n)
                assert await client.get(f"packing:quick:{n}") == str(n).encode()

        # redis-py's own way starts one (``asyncio.wait_for``) for each of the 40 commands.
        assert await _tasks_started_by(commands) == 0
        await client.delete(*(f"packing:quick:{n}" for n in range(20)))
    finally:
        await client.aclose()


async def test_a_write_past_the_buffers_high_water_mark_arrives_whole(redis_url: str) -> None:
    client = redis_client(redis_url)
    try:
        await client.ping()
        big = bytes(range(256)) * 40_000  # 10 MB: the socket's buffer cannot take it at once
        pipeline = client.pipeline(transaction=False)
        for n in range(3):
            pipeline.set(f"packing:big:{n}", big)
            pipeline.strlen(f"packing:big:{n}")
        assert await pipeline.execute() == [True, len(big)] * 3
        assert await client.get("packing:big:2") == big
        await client.delete(*(f"packing:big:{n}" for n in range(3)))
    finally:
        await client.aclose()
