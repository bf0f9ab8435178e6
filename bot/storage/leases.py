"""Leases: a key in Redis that names the one worker (process) doing a job, until it lets go
or stops renewing it (a killed worker's lease expires by itself). This is how several
processes of the bot share the work: one worker per chat brings its messages up to date
(the outbox), one thinks for a chat's computer player, one does the start-up work."""

from __future__ import annotations

import os
import secrets
import socket
from typing import Final

from redis.asyncio import Redis

_TAKE: Final = """
local owner = redis.call('GET', KEYS[1])
if (not owner) or owner == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""


def let_go(key: int, owner: int) -> str:
    """Lua that deletes the lease ``KEYS[key]`` if ``ARGV[owner]`` holds it: ``release``'s,
    and a script's that ends a job with its lease (``DeliveryStore.settle``)."""
    held = f"redis.call('GET', KEYS[{key}]) == ARGV[{owner}]"
    return f"if {held} then redis.call('DEL', KEYS[{key}]) end"


_RELEASE: Final = let_go(1, 1) + "\nreturn 0\n"


def worker_name() -> str:
    """This process, as lease owners are named: host, pid, and a random part (a pid is
    reused after a restart; the lease of the process before must not count as ours)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class Leases:
    def __init__(self, redis: Redis) -> None:
        self._take = redis.register_script(_TAKE)
        self._release = redis.register_script(_RELEASE)

    async def take(self, key: str, owner: str, seconds: float) -> bool:
        """Take or extend the lease ``key`` for ``owner``; False if another holds it."""
        taken = await self._take(keys=[key], args=[owner, max(1, int(seconds * 1000))])
        return bool(taken)

    async def release(self, key: str, owner: str) -> None:
        """Let go of ``key`` if ``owner`` still holds it."""
        await self._release(keys=[key], args=[owner])
