"""The one way the bot opens Redis: timeouts, so a dead server answers "unavailable"
instead of hanging a press, and retries, so a restarted server is reconnected to without
the first command after it failing."""

from __future__ import annotations

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError


def redis_client(url: str) -> Redis:
    """A client for ``url``; ValueError if it is not a Redis URL."""
    return Redis.from_url(
        url,
        socket_connect_timeout=5,
        socket_timeout=10,
        health_check_interval=5,
        retry=Retry(ExponentialBackoff(cap=1.0, base=0.05), retries=3),
        retry_on_error=[RedisConnectionError, RedisTimeoutError],
    )
