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


def milliseconds(seconds: float) -> int:
    """A time for Redis's ``PX``: whole milliseconds, at least one."""
    return max(1, int(seconds * 1000))


def hold(key: int, owner: int, ms: int, refused: str) -> str:
    """Lua that takes or renews the lease ``KEYS[key]`` for ``ARGV[owner]`` for ``ARGV[ms]``
    milliseconds, or ends the script with ``refused`` if another worker holds it: ``take``'s,
    and a script's that renews its worker's lease with the work it does
    (``DeliveryStore.load``)."""
    return f"""
local holder = redis.call('GET', KEYS[{key}])
if holder and holder ~= ARGV[{owner}] then return {refused} end
redis.call('SET', KEYS[{key}], ARGV[{owner}], 'PX', ARGV[{ms}])
"""


_TAKE: Final = hold(1, 1, 2, "0") + "return 1\n"

# KEYS: leases; ARGV: the owner, milliseconds. For each lease, 1 if the owner held it (now
# renewed), else 0: another worker holds it, or nobody (it ran out, or its job let go of it
# meanwhile: it is not taken again here).
_RENEW: Final = """
local held = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    held[i] = 1
  else
    held[i] = 0
  end
end
return held
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
        self._renew = redis.register_script(_RENEW)

    async def take(self, key: str, owner: str, seconds: float) -> bool:
        """Take or extend the lease ``key`` for ``owner``; False if another holds it."""
        taken = await self._take(keys=[key], args=[owner, milliseconds(seconds)])
        return bool(taken)

    async def renew(self, keys: list[str], owner: str, seconds: float) -> list[bool]:
        """Renew the leases ``keys`` that ``owner`` holds, in one round trip: for each,
        whether it did (False: another worker holds it, or nobody does any more)."""
        if not keys:
            return []
        held = await self._renew(keys=keys, args=[owner, milliseconds(seconds)])
        return [bool(flag) for flag in held]

    async def release(self, key: str, owner: str) -> None:
        """Let go of ``key`` if ``owner`` still holds it."""
        await self._release(keys=[key], args=[owner])
