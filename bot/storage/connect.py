"""The one way the bot opens Redis: timeouts, so a dead server answers "unavailable"
instead of hanging a press; retries, so a restarted server is reconnected to without the
first command after it failing; and a blocking pool, so a burst of presses waits for a free
connection instead of failing (redis-py's default pool raises at once past its size).

``REDIS_URL`` is either one server (``redis://``, ``rediss://`` for TLS, ``unix://``; as
redis-py reads them) or a primary that Redis Sentinel watches over::

    redis+sentinel://[[user]:password@]host[:port][,host[:port]...]/service[/db][?sentinel_password=...]

(``rediss+sentinel://``: TLS to the sentinels and the primary alike). The password is the
data nodes'; sentinels that have one of their own take ``sentinel_password``. The port of a
sentinel defaults to 26379.

After a failover the sentinel client finds the new primary by itself: a connection that
fails is opened again at the address the sentinels give now, a write refused as read-only
(the node it reached was demoted to a replica) drops that connection and asks the sentinels
again, and the address is asked again at most every ``PRIMARY_RECHECK`` seconds when a
connection is taken, so that after an orderly failover (``SENTINEL FAILOVER``: the old
primary stays up and still accepts writes for several seconds, which are lost when it is
demoted) connections to the old primary are dropped within that time.

At start the bot checks that Redis serves it (``check_usable``: a PING, a write and its
delete), and tells a Redis that refuses the settings (``misconfigured``: a wrong password or
user, a user without the rights the bot needs, a db number the server does not have), which
no restart fixes, from one that is unwell now (unreachable, full, read-only).
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import parse_qs, unquote, urlsplit

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.connection import AbstractConnection, SSLConnection, parse_url
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool, SentinelManagedConnection
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.exceptions import (
    AuthenticationError,
    AuthenticationWrongNumberOfArgsError,
    NoPermissionError,
    ReadOnlyError,
    ResponseError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

MAX_CONNECTIONS: Final = 200
# How long a command may wait for a free connection. Longer than any burst takes to drain;
# past it Redis is as good as unavailable.
POOL_TIMEOUT: Final = 30.0
SENTINEL_SCHEMES: Final = {"redis+sentinel": False, "rediss+sentinel": True}
SENTINEL_PORT: Final = 26379
# Seconds between two questions to the sentinels about where the primary is (each a round
# trip to one sentinel): the longest the bot keeps writing to an old primary after an
# orderly failover.
PRIMARY_RECHECK: Final = 1.0
# A sentinel that does not answer within this is skipped for the next one.
SENTINEL_TIMEOUT: Final = 1.0
# How long the start-up check's key lives if its delete never comes (the bot died between).
PROBE_MS: Final = 60_000
# Redis refusing the password or the user (AUTH), or what an ACL user may do (NOPERM).
_REFUSALS: Final = (AuthenticationError, AuthenticationWrongNumberOfArgsError, NoPermissionError)
# What Redis answers to ``SELECT`` a db number past its ``databases`` (redis-py raises it
# as a plain ResponseError).
_NO_SUCH_DB: Final = "DB index is out of range"


@dataclass(frozen=True, slots=True)
class SentinelTarget:
    """What a ``redis+sentinel://`` URL names."""

    sentinels: tuple[tuple[str, int], ...]
    service: str
    db: int = 0
    username: str | None = None
    password: str | None = None
    sentinel_password: str | None = None
    ssl: bool = False


def is_sentinel_url(url: str) -> bool:
    return url.partition("://")[0].lower() in SENTINEL_SCHEMES


def parse_sentinel_url(url: str) -> SentinelTarget:
    """The parts of a ``redis+sentinel://`` URL; ValueError naming what is wrong."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.lower() not in SENTINEL_SCHEMES:
        raise ValueError("a Sentinel URL starts with redis+sentinel:// or rediss+sentinel://")
    parts = urlsplit(f"//{rest}")
    userinfo, _, hostlist = parts.netloc.rpartition("@")
    username = password = None
    if userinfo:
        user, colon, secret = userinfo.partition(":")
        username = unquote(user) or None
        password = unquote(secret) if colon and secret else None
    sentinels = tuple(_host_port(item) for item in hostlist.split(","))
    path = [unquote(piece) for piece in parts.path.split("/") if piece]
    if not path:
        raise ValueError("a Sentinel URL needs the service name after the hosts: …/mymaster/0")
    if len(path) > 2 or (len(path) == 2 and not path[1].isdigit()):
        raise ValueError(f"{parts.path!r} is not /<service name>[/<db number>]")
    options = parse_qs(parts.query, keep_blank_values=True)
    unknown = sorted(set(options) - {"sentinel_password"})
    if unknown:
        raise ValueError(f"unknown option {unknown[0]!r} (known: sentinel_password)")
    sentinel_password = options.get("sentinel_password", [""])[-1] or None
    return SentinelTarget(
        sentinels=sentinels,
        service=path[0],
        db=int(path[1]) if len(path) == 2 else 0,
        username=username,
        password=password,
        sentinel_password=sentinel_password,
        ssl=SENTINEL_SCHEMES[scheme.lower()],
    )


def _host_port(item: str) -> tuple[str, int]:
    item = item.strip()
    if item.startswith("["):  # [::1]:26379
        host, bracket, tail = item[1:].partition("]")
        if not bracket or (tail and not tail.startswith(":")):
            raise ValueError(f"{item!r} is not host:port")
        port_text = tail[1:]
    else:
        host, _, port_text = item.partition(":")
    if not host:
        raise ValueError(f"a sentinel address is empty or has no host: {item!r}")
    if not port_text:
        return host, SENTINEL_PORT
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"{item!r}: the port is not a number from 1 to 65535")
    return host, int(port_text)


def check_redis_url(url: str) -> None:
    """ValueError unless ``url`` is one of the forms in the module docstring."""
    if is_sentinel_url(url):
        parse_sentinel_url(url)
        return
    scheme = url.partition("://")[0].lower()
    if scheme not in ("redis", "rediss", "unix"):
        raise ValueError(
            "must start with redis://, rediss:// (TLS), unix://, redis+sentinel:// "
            "or rediss+sentinel://"
        )
    parse_url(url)


def redact(url: str) -> str:
    """``url`` with its passwords replaced by ``***`` (for logs and error messages)."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    authority, slash, tail = rest.partition("/")
    userinfo, at, hosts = authority.rpartition("@")
    if at and ":" in userinfo:
        authority = f"{userinfo.partition(':')[0]}:***@{hosts}"
    if "password=" in tail:
        path, _, query = tail.partition("?")
        pairs = [
            f"{key}=***" if key.endswith("password") else f"{key}={value}"
            for key, _, value in (pair.partition("=") for pair in query.split("&"))
        ]
        tail = f"{path}?{'&'.join(pairs)}"
    return f"{scheme}{sep}{authority}{slash}{tail}"


async def check_usable(redis: Redis, key: str) -> None:
    """Raise (RedisError, OSError) unless Redis serves the bot: PING (which also logs in and
    selects the db), then write ``key`` and delete it, so that a Redis that answers but
    refuses writes (full with ``maxmemory-policy noeviction``, a read-only replica, a user
    not allowed the bot's keys) is found now rather than at the first press."""
    await redis.ping()
    await redis.set(key, "1", px=PROBE_MS)
    await redis.delete(key)


def misconfigured(error: BaseException) -> bool:
    """Whether ``error`` is Redis refusing what the settings ask (a password, a user, the
    rights of that user, a db number): restarting cannot help, unlike a Redis that is
    unreachable, full or read-only now."""
    if isinstance(error, _REFUSALS):
        return True
    return isinstance(error, ResponseError) and str(error).startswith(_NO_SUCH_DB)


def _common_options(max_connections: int) -> dict[str, Any]:
    return {
        "max_connections": max_connections,
        "timeout": POOL_TIMEOUT,
        "socket_connect_timeout": 5,
        "socket_timeout": 10,
        "health_check_interval": 5,
        "retry": Retry(ExponentialBackoff(cap=1.0, base=0.05), retries=3),
        # A read-only refusal means the node was demoted: nothing was applied, and a new
        # connection (the address looked up again) may reach the primary.
        "retry_on_error": [RedisConnectionError, RedisTimeoutError, ReadOnlyError],
    }


def redis_client(url: str, *, max_connections: int = MAX_CONNECTIONS) -> Redis:
    """A client for ``url``; ValueError if it is not a Redis URL."""
    if is_sentinel_url(url):
        return _sentinel_client(parse_sentinel_url(url), max_connections)
    check_redis_url(url)
    pool = BlockingConnectionPool.from_url(url, **_common_options(max_connections))
    return Redis.from_pool(pool)


def _sentinel_client(target: SentinelTarget, max_connections: int) -> Redis:
    sentinel_options: dict[str, Any] = {
        "socket_connect_timeout": SENTINEL_TIMEOUT,
        "socket_timeout": SENTINEL_TIMEOUT,
        # One try each: a silent sentinel is skipped for the next, and a lookup that
        # fails as a whole is retried by the connection that asked.
        "retry": Retry(NoBackoff(), retries=0),
        "ssl": target.ssl,
    }
    if target.sentinel_password:
        sentinel_options["password"] = target.sentinel_password
    sentinel = Sentinel(  # type: ignore[no-untyped-call]
        list(target.sentinels), sentinel_kwargs=sentinel_options
    )
    client: Redis = sentinel.master_for(
        target.service,
        connection_pool_class=BlockingSentinelPool,
        connection_class=PrimarySSLConnection if target.ssl else PrimaryConnection,
        db=target.db,
        username=target.username,
        password=target.password,
        **_common_options(max_connections),
    )
    return client


class PrimaryConnection(SentinelManagedConnection):
    """A connection to the primary that asks the sentinels where it is every time it opens
    its socket. redis-py asks only when the pool hands out a closed connection: a connection
    dropped during a command (the primary died, or refused a write as read-only) reopens to
    the address it had, so every retry of that command fails the same way."""

    async def connect_check_health(
        self, check_health: bool = True, retry_socket_connect: bool = True
    ) -> None:
        # The one way a connection opens, whether the pool hands it out or a command's retry
        # reopens it (``send_packed_command``); redis-py asks the sentinels in ``connect``
        # alone.
        if not self.is_connected and self.connection_pool.is_master:
            self.host, self.port = await self.connection_pool.get_master_address()
        await super().connect_check_health(check_health, retry_socket_connect)


class PrimarySSLConnection(PrimaryConnection, SSLConnection):
    pass


class BlockingSentinelPool(SentinelConnectionPool, BlockingConnectionPool):
    """redis-py's pool of connections to a sentinel-watched primary, made blocking as the
    plain one (a burst waits for a connection), which
    also asks the sentinels where the primary is when a connection is taken (at most every
    ``PRIMARY_RECHECK`` seconds) and drops a connection to any other address: redis-py asks
    only when it opens one."""

    def __init__(self, service_name: str, sentinel_manager: Sentinel, **kwargs: Any) -> None:
        super().__init__(service_name, sentinel_manager, **kwargs)  # type: ignore[no-untyped-call]
        self._asked_at = -PRIMARY_RECHECK

    async def ensure_connection(self, connection: AbstractConnection) -> None:
        now = time.monotonic()
        if self.is_master and now - self._asked_at >= PRIMARY_RECHECK:
            self._asked_at = now
            # Sentinels out of reach: keep the connections we have; a broken one fails
            # and is retried on its own.
            with contextlib.suppress(RedisConnectionError, RedisTimeoutError):
                await self.get_master_address()  # type: ignore[no-untyped-call]
        if (
            self.is_master
            and isinstance(connection, SentinelManagedConnection)
            and connection.is_connected
            and self.master_address is not None
            and (connection.host, connection.port) != self.master_address
        ):
            await connection.disconnect()
        await super().ensure_connection(connection)

    async def aclose(self) -> None:
        await super().aclose()
        await self.sentinel_manager.aclose()
