"""The one compare-and-set every change of a game goes through.

``transact(redis, keys, attempt)`` reads ``keys`` (string keys), and any other ``reads``
asked for, in one round trip and hands what it read to ``attempt(seen, writes)``. That
either returns without writing, or queues its writes on ``writes`` (``Writes``: a list of
commands, nothing is sent through it). The writes then go to Redis as one script
(``_COMPARE_AND_SET``), which applies them only if every key of ``keys`` still holds what
was read; a script runs alone, so nothing comes between its check and its writes. If a key
changed in between, nothing is written and ``attempt`` runs again on the new values, a
bounded number of times with a short random pause (so two writers racing do not keep
colliding), then ``StorageBusy``. The check compares values: a key written again with the
very bytes it held passes it. No writer does that to a game (every write of one moves its
version on or changes what it remembers), and if one did, the state it left is the one read.

Why a script and not WATCH, MULTI and EXEC: the same guarantee in two round trips instead
of three or more (WATCH, each read, MULTI to EXEC), and one reply to read instead of one a
command. The save is on the path of every move, so its round trips and replies are what a
move's CPU is spent on most. What ``reads`` returns is not compared: only what may change
without one of ``keys`` changing with it belongs there.
"""

from __future__ import annotations

import asyncio
import logging
import random
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from redis.asyncio import Redis
from redis.commands.core import AsyncScript

from bot.metrics import CAS_RETRIES

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_ATTEMPTS: Final = 64

# Lua, the end of both scripts below: every write from ARGV[i] on, each as its length and
# its words, then the answer 1. ``NOTIFY channel message listener`` (``Writes.notify``)
# publishes unless the channel's only subscriber is the one of ``listener``'s channel.
_WRITES: Final = """
while i <= #ARGV do
  local n = tonumber(ARGV[i])
  if ARGV[i + 1] == 'NOTIFY' then
    local all = redis.call('PUBSUB', 'NUMSUB', ARGV[i + 2])[2]
    local own = redis.call('PUBSUB', 'NUMSUB', ARGV[i + 4])[2]
    if all > own then redis.call('PUBLISH', ARGV[i + 2], ARGV[i + 3]) end
  else
    redis.call(unpack(ARGV, i + 1, i + n))
  end
  i = i + n + 1
end
return 1
"""

# KEYS: the keys read. ARGV: first, for each key, what it held ("" for nothing, else "="
# and the value); then each command as its length and its words. 1: written, 0: a key
# changed, nothing written.
_COMPARE_AND_SET: Final = (
    """
for k = 1, #KEYS do
  local was = ARGV[k]
  local now = redis.call('GET', KEYS[k])
  if was == '' then
    if now then return 0 end
  elseif now ~= string.sub(was, 2) then
    return 0
  end
end
local i = #KEYS + 1
"""
    + _WRITES
)


# The writes alone (``Writes.send``).
_WRITE_ALL: Final = "local i = 1\n" + _WRITES


Word = str | bytes | int | float


class Writes:
    """Commands queued for Redis as the words it reads: the writes of a compare-and-set
    (``transact`` hands them to its script), or of a transaction of their own (``send``).
    The few commands the bot's saves use, with redis-py's names and arguments; nothing is
    sent when one is queued. (redis-py's pipeline used as such a list took about ten calls a
    command, and a move's save queues a dozen.)"""

    __slots__ = ("commands",)

    def __init__(self) -> None:
        self.commands: list[tuple[Word, ...]] = []

    def set(self, name: str, value: str | bytes, ex: int | None = None) -> None:
        self.commands.append(("SET", name, value) if ex is None else ("SET", name, value, "EX", ex))

    def delete(self, *names: str) -> None:
        self.commands.append(("DEL", *names))

    def expire(self, name: str, seconds: int) -> None:
        self.commands.append(("EXPIRE", name, seconds))

    def hset(
        self,
        name: str,
        key: str | None = None,
        value: Word | None = None,
        *,
        items: Sequence[Word] = (),
    ) -> None:
        """``key`` to ``value``, and ``items`` (key, value, key, value ...)."""
        pairs = list(items) if key is None or value is None else [key, value, *items]
        self.commands.append(("HSET", name, *pairs))

    def hsetnx(self, name: str, key: str, value: Word) -> None:
        self.commands.append(("HSETNX", name, key, value))

    def hdel(self, name: str, *keys: str) -> None:
        self.commands.append(("HDEL", name, *keys))

    def hincrby(self, name: str, key: str, amount: int = 1) -> None:
        self.commands.append(("HINCRBY", name, key, amount))

    def sadd(self, name: str, *values: str) -> None:
        self.commands.append(("SADD", name, *values))

    def srem(self, name: str, *values: str) -> None:
        self.commands.append(("SREM", name, *values))

    def zremrangebyrank(self, name: str, start: int, end: int) -> None:
        self.commands.append(("ZREMRANGEBYRANK", name, start, end))

    def zadd(self, name: str, mapping: Mapping[str, float]) -> None:
        self.commands.append(
            ("ZADD", name, *(word for item in mapping.items() for word in item[::-1]))
        )

    def zrem(self, name: str, *values: str) -> None:
        self.commands.append(("ZREM", name, *values))

    def publish(self, channel: str, message: str) -> None:
        self.commands.append(("PUBLISH", channel, message))

    def notify(self, channel: str, message: str, listener: str) -> None:
        """``publish``, for the other listeners only: not if the one listening to
        ``listener`` too (the process writing, which knows the news) is the only one
        listening."""
        self.commands.append(("NOTIFY", channel, message, listener))

    async def send(self, redis: Redis) -> None:
        """Apply the commands queued, one after another with nothing in between: one
        script call (``_WRITE_ALL``), one command to pack and one answer to read, where
        MULTI ... EXEC through redis-py's pipeline cost about ten calls a command."""
        if self.commands:
            words = [word for command in self.commands for word in (len(command), *command)]
            await _registered(redis, _WRITE_ALL)(keys=[], args=words)


class StorageBusy(RuntimeError):
    """The keys kept changing under us for ``MAX_ATTEMPTS`` tries."""


@dataclass(frozen=True, slots=True)
class Seen:
    """What an attempt read: ``values``, the keys compared at the write, by key; ``reads``,
    the replies to the other reads, in their order."""

    values: dict[str, Any]
    reads: list[Any]


Attempt = Callable[[Seen, Writes], Awaitable[T]]


async def transact(
    redis: Redis,
    keys: Sequence[str],
    attempt: Attempt[T],
    *,
    what: str,
    reads: Sequence[tuple[str | int | float, ...]] = (),
) -> T:
    """Run ``attempt`` until its writes are applied to the values it read (see the module
    docstring). ``reads``: other commands to read with ``keys`` (``("ZSCORE", key, member)``).
    ``what`` names the value in logs and in ``StorageBusy``."""
    for number in range(1, MAX_ATTEMPTS + 1):
        seen = await _read(redis, keys, reads)
        writes = Writes()
        result = await attempt(seen, writes)
        if not writes.commands:
            return result
        words: list[Any] = [_was(seen.values[key]) for key in keys]
        for command in writes.commands:
            words += [len(command), *command]
        reply = await _registered(redis, _COMPARE_AND_SET)(keys=list(keys), args=words)
        if reply == 1:
            return result
        log.debug("%s changed under us (attempt %d)", what, number)
        CAS_RETRIES.labels(what=what.split(maxsplit=1)[0]).inc()  # "game", "chat": no ids
        await asyncio.sleep(random.uniform(0, 0.001 * min(number, 20)))
    raise StorageBusy(f"{what} kept changing; gave up after {MAX_ATTEMPTS} tries")


# The scripts, registered once per client: registering hashes the script's text, and
# ``transact`` runs on the path of every move.
_SCRIPTS: Final[weakref.WeakKeyDictionary[Redis, dict[str, AsyncScript]]] = (
    weakref.WeakKeyDictionary()
)


def _registered(redis: Redis, text: str) -> AsyncScript:
    scripts = _SCRIPTS.get(redis)
    if scripts is None:
        scripts = _SCRIPTS[redis] = {}
    script = scripts.get(text)
    if script is None:
        script = scripts[text] = redis.register_script(text)
    return script


async def _read(
    redis: Redis, keys: Sequence[str], reads: Sequence[tuple[str | int | float, ...]]
) -> Seen:
    async with redis.pipeline(transaction=False) as pipe:
        for key in keys:
            pipe.get(key)
        for command in reads:
            pipe.execute_command(*command)
        replies = await pipe.execute()
    return Seen(dict(zip(keys, replies, strict=False)), replies[len(keys) :])


def _was(value: bytes | str | None) -> bytes | str:
    """How the script is told what a key held."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        return b"=" + value
    return "=" + value
