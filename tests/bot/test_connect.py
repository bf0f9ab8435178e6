"""``REDIS_URL``: the forms the bot accepts (one server, or a primary behind Sentinel), a
clear error for anything else, and passwords kept out of messages. The failover itself is
tested against real servers in tests/e2e/test_redis_sentinel.py."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import BlockingConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.storage.connect import (
    BlockingSentinelPool,
    PrimaryConnection,
    SentinelTarget,
    check_redis_url,
    parse_sentinel_url,
    redact,
    redis_client,
)


def test_a_sentinel_url_names_the_sentinels_the_service_and_the_db() -> None:
    url = "redis+sentinel://:p%40ss@10.0.0.1:26379,sentinel-b,[::1]:26380/durak/3"
    assert parse_sentinel_url(url + "?sentinel_password=s3") == SentinelTarget(
        sentinels=(("10.0.0.1", 26379), ("sentinel-b", 26379), ("::1", 26380)),
        service="durak",
        db=3,
        password="p@ss",
        sentinel_password="s3",
    )
    tls = parse_sentinel_url("rediss+sentinel://bot:pw@s1/durak")
    assert (tls.ssl, tls.username, tls.password, tls.db) == (True, "bot", "pw", 0)


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("redis+sentinel://s1:26379", "service name"),
        ("redis+sentinel://s1/durak/zero", "/<service name>[/<db number>]"),
        ("redis+sentinel://s1:0/durak", "port"),
        ("redis+sentinel://s1:port/durak", "port"),
        ("redis+sentinel://s1,,s2/durak", "empty"),
        ("redis+sentinel://s1/durak?db=2", "unknown option 'db'"),
        ("http://localhost:6379/0", "redis://"),
        ("localhost:6379", "redis://"),
        ("redis://localhost:port/0", "Port"),
    ],
)
def test_a_malformed_url_says_what_is_wrong(url: str, words: str) -> None:
    with pytest.raises(ValueError) as raised:
        check_redis_url(url)
    assert words in str(raised.value)


def test_passwords_never_show() -> None:
    assert redact("redis://:secret@db:6379/0") == "redis://:***@db:6379/0"
    assert redact("rediss://bot:secret@db/0") == "rediss://bot:***@db/0"
    assert (
        redact("redis+sentinel://:a@s1,s2/durak/0?sentinel_password=b")
        == "redis+sentinel://:***@s1,s2/durak/0?sentinel_password=***"
    )
    assert redact("redis://localhost:6379/0") == "redis://localhost:6379/0"


async def test_both_kinds_of_client_block_and_retry_alike() -> None:
    plain = redis_client("redis://127.0.0.1:1/0", max_connections=7)
    watched = redis_client("redis+sentinel://127.0.0.1:1/durak/2", max_connections=7)
    try:
        assert isinstance(plain.connection_pool, BlockingConnectionPool)
        assert isinstance(watched.connection_pool, BlockingSentinelPool)
        assert isinstance(watched.connection_pool, BlockingConnectionPool)
        assert issubclass(watched.connection_pool.connection_class, PrimaryConnection)
        for pool in (plain.connection_pool, watched.connection_pool):
            assert pool.max_connections == 7
            assert pool.timeout == 30.0
            options = pool.connection_kwargs
            assert (options["socket_timeout"], options["socket_connect_timeout"]) == (10, 5)
            assert options["retry"].get_retries() == 3
        assert watched.connection_pool.connection_kwargs["db"] == 2
    finally:
        await plain.aclose()
        await watched.aclose()


async def test_a_burst_past_the_pool_waits_for_connections_and_every_command_answers(
    redis_url: str,
) -> None:
    """Two connections, three hundred commands at once: the free ones go at once, the
    others wait for a connection given back (the blocking pool's notify), and all answer."""
    client = redis_client(redis_url, max_connections=2)
    try:
        answers = await asyncio.gather(*(client.echo(f"{n}") for n in range(300)))
        assert answers == [f"{n}".encode() for n in range(300)]
        assert await client.echo("after") == b"after"
    finally:
        await client.aclose()


async def test_a_pool_with_no_connection_free_fails_after_its_timeout(redis_url: str) -> None:
    """Nobody gives the only connection back: the command fails as redis-py's blocking pool
    fails it, and the connection given back later serves the next command."""
    client = redis_client(redis_url, max_connections=1)
    pool = client.connection_pool
    assert isinstance(pool, BlockingConnectionPool)
    pool.timeout = 0.2
    try:
        held = await pool.get_connection()  # type: ignore[no-untyped-call]
        with pytest.raises(RedisConnectionError, match="No connection available"):
            await client.echo("none free")
        await pool.release(held)
        assert await client.echo("free again") == b"free again"
    finally:
        await client.aclose()
