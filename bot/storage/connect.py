"""The one way the bot opens Redis: timeouts, so a dead server answers "unavailable"
instead of hanging a press; retries, so a restarted server is reconnected to without the
first command after it failing; and a blocking pool, so a burst of presses waits for a free
connection instead of failing (redis-py's default pool raises at once past its size)."""

from __future__ import annotations

from typing import Final

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

MAX_CONNECTIONS: Final = 200
# How long a command may wait for a free connection. Longer than any burst takes to drain;
# past it Redis is as good as unavailable.
POOL_TIMEOUT: Final = 30.0


def redis_client(url: str, *, max_connections: int = MAX_CONNECTIONS) -> Redis:
    """A client for ``url``; ValueError if it is not a Redis URL."""
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=max_connections,
        timeout=POOL_TIMEOUT,
        socket_connect_timeout=5,
        socket_timeout=10,
        health_check_interval=5,
        retry=Retry(ExponentialBackoff(cap=1.0, base=0.05), retries=3),
        retry_on_error=[RedisConnectionError, RedisTimeoutError],
    )
    return Redis.from_pool(pool)
