"""Every test's Redis keys live under a key prefix of its own (the bot's ``REDIS_PREFIX``),
removed after it: the test server's Redis is shared by every test and worker."""

from __future__ import annotations

from redis.asyncio import Redis


async def delete_prefix(client: Redis, prefix: str) -> None:
    """Delete every key under ``prefix``."""
    keys = [key async for key in client.scan_iter(match=f"{prefix}:*", count=1000)]
    if keys:
        await client.delete(*keys)
