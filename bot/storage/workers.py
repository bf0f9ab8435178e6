"""How the bot's worker processes share the work: the roll of the living workers
(``WorkerRoll``), leases on jobs (``Leases``), and every Telegram update handled once
(``UpdateLog``).

The roll of worker processes that are alive: each one answers every second, saying what it
has waiting to send (its demand), and one that stopped answering for ``ABSENT_AFTER``
seconds (killed, say) drops off the roll. The workers share what Telegram allows the bot
over all chats by it: each sends at most its share of ``MESSAGES_PER_SECOND``, which follows
the demands (``bot.delivery.budget.share``). Time is Redis's own, so workers on several
machines agree on it.

Leases: a key in Redis that names the one worker (process) doing a job, until it lets go
or stops renewing it (a killed worker's lease expires by itself). This is how several
processes of the bot share the work: one worker per chat brings its messages up to date
(the outbox), one thinks for a chat's computer player, one does the start-up work.

Every update once: Telegram sends an update again when it had no answer in time (a
worker killed or stalled, a restart in the middle of a batch, a slow webhook), and the same
update may then be handled twice, even at once by two workers. Each update id gets a key:

* ``claim`` takes it as ``run:<token>`` for ``CLAIM_SECONDS`` before the update is handled.
  A second delivery finds it taken and waits: when the first one finishes (``done:<token>``)
  the second is a duplicate and does nothing; when the first one's worker died (the claim
  lapses, nothing was saved), the second handles it. So a killed worker's update is still
  applied once, through its redelivery.
* Every change a handler saves goes through ``GameStore.update``, which the handler hands
  the claim (``once=``): its compare-and-set also compares the update's key and writes
  ``done:<token>`` with the change, so a delivery whose claim lapsed while it was slow finds
  another delivery's token there and gives up (``AlreadyApplied``) instead of saving the
  change a second time.
* ``finish`` marks the update done, also when it saved nothing (a reply to /rules is not
  sent twice); ``abandon`` lets go of a claim when handling failed before anything was
  saved, so the redelivery is handled.

A move sent by a Mini App page has no update: the page names each tap, and the move
is saved under a claim of its own (``page_press``) that nothing takes beforehand; the
compare-and-set alone keeps a tap the page sent twice (a socket that reconnected) from being
applied twice. Background work (the outbox, computer players) saves with no claim.

An update that saved its first change and then lost its worker is done: a second change
the same update would have made is not made by its redelivery (no handler makes two
dependent changes; say so here if one ever does). Keys live ``DONE_SECONDS``: Telegram
sends an update again within seconds or minutes (after an hour it is no longer redelivered
by a webhook retry or left unconfirmed by a polling worker that lived); about 100 bytes an
update, so 50 updates a second keep some 18 MB.

``UpdateOnce.run`` handles one delivery of an update under its claim, so that another
delivery of it does nothing; the handling is handed the claim, to pass to every change it
saves (``once=``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final, TypeVar

from redis.asyncio import Redis
from redis.exceptions import RedisError

from .keys import Keys, text
from .tx import Writes

ABSENT_AFTER: Final = 15.0

# KEYS: the roll (a sorted set: worker -> when last seen), the demands (a hash: worker ->
# "class weight"). ARGV: the worker, ABSENT_AFTER, its demand. The demands of every worker
# alive, as HGETALL gives them.
_PRESENT: Final = """
local time = redis.call('TIME')
local now = tonumber(time[1]) + tonumber(time[2]) / 1000000
redis.call('ZADD', KEYS[1], now, ARGV[1])
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
if #gone > 0 then
  redis.call('ZREM', KEYS[1], unpack(gone))
  redis.call('HDEL', KEYS[2], unpack(gone))
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return redis.call('HGETALL', KEYS[2])
"""

Demand = tuple[int, int]
"""What a worker has waiting to send: the most urgent class among its messages waiting for
the budget (``bot.delivery.plan.ACTING`` ...), and how many people wait on those."""


class WorkerRoll:
    def __init__(self, redis: Redis, key: str) -> None:
        self.redis = redis
        self.key = key
        self.demands = f"{key}:demand"
        self._present = redis.register_script(_PRESENT)

    async def present(self, worker: str, demand: Demand) -> dict[str, Demand]:
        """``worker`` is alive, with ``demand`` waiting; the demand of every worker alive
        (``worker``'s own among them)."""
        flat = await self._present(
            keys=[self.key, self.demands], args=[worker, ABSENT_AFTER, f"{demand[0]} {demand[1]}"]
        )
        demands = {worker: demand}
        for name, value in zip(flat[::2], flat[1::2], strict=True):
            priority, _, weight = text(value).partition(" ")
            demands[text(name)] = (int(priority), int(weight))
        return demands

    async def leave(self, worker: str) -> None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zrem(self.key, worker)
            pipe.hdel(self.demands, worker)
            await pipe.execute()


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


CLAIM_SECONDS: Final = 30.0
DONE_SECONDS: Final = 3600
WAIT_STEP: Final = 0.05  # how often a second delivery looks whether the first one finished


@dataclass(frozen=True, slots=True)
class Claim:
    """The right to apply one update, held by one delivery of it."""

    key: str
    token: str

    @property
    def running(self) -> str:
        return f"run:{self.token}"

    @property
    def done(self) -> str:
        return f"done:{self.token}"

    def queue_applied(self, pipe: Writes) -> None:
        """With the transaction's writes: the update's change is saved with it."""
        pipe.set(self.key, self.done, ex=DONE_SECONDS)

    def holds(self, value: bytes | str | None) -> bool:
        """Whether the update's key (``value``) lets this delivery save a change: nobody
        else's token is there (an empty key: our claim lapsed and nobody took it since)."""
        text = _text(value)
        return text is None or text.partition(":")[2] == self.token


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


class AlreadyApplied(Exception):
    """Another delivery of the update being handled saved its change first."""


class UpdateLog:
    def __init__(self, redis: Redis, keys: Keys, leases: Leases) -> None:
        self.redis = redis
        self.keys = keys
        self.leases = leases

    def key(self, update_id: int) -> str:
        return self.keys.update(update_id)

    def page_press(self, user_id: int, press_id: str) -> Claim:
        """The claim a Mini App page's tap ``press_id`` of ``user_id`` is saved under."""
        return Claim(self.keys.page_press(user_id, press_id), secrets.token_hex(8))

    async def claim(self, update_id: int) -> Claim | None:
        """The claim on ``update_id`` for this delivery; None when another delivery handled
        it (waiting while another one is handling it)."""
        claim = Claim(self.key(update_id), secrets.token_hex(8))
        give_up = time.monotonic() + CLAIM_SECONDS + 5.0
        while True:
            if await self.leases.take(claim.key, claim.running, CLAIM_SECONDS):
                return claim
            value = _text(await self.redis.get(claim.key))
            if value is not None and not value.startswith("run:"):
                return None  # handled
            if time.monotonic() > give_up:  # a claim renewed by nobody cannot last this long
                return None
            await asyncio.sleep(WAIT_STEP)

    async def finish(self, claim: Claim) -> None:
        """The update was handled: a later delivery of it does nothing."""
        await self.redis.set(claim.key, claim.done, ex=DONE_SECONDS)

    async def abandon(self, claim: Claim) -> None:
        """Handling failed before anything was saved: a redelivery may handle it."""
        await self.leases.release(claim.key, claim.running)


# -- handling an update once --------------------------------------------------------------

log = logging.getLogger(__name__)

T = TypeVar("T")


class _Duplicate:
    def __repr__(self) -> str:
        return "DUPLICATE"


DUPLICATE: Final = _Duplicate()
"""What ``UpdateOnce.run`` returns for a delivery of an update another one handled."""


class UpdateOnce:
    def __init__(self, updates: UpdateLog) -> None:
        self.updates = updates

    async def run(
        self, update_id: int, handle: Callable[[Claim | None], Awaitable[T]]
    ) -> T | _Duplicate:
        """``handle(claim)`` as the one handling of ``update_id``; DUPLICATE (and nothing
        done) if another delivery of it handled it or saved a change of it first."""
        try:
            claim = await self.updates.claim(update_id)
        except RedisError as error:
            # Redis is down: nothing can be saved, so nothing can be applied twice; the
            # handler says that nothing was done.
            log.warning("update %s not claimed: %s", update_id, error)
            return await handle(None)
        if claim is None:
            return DUPLICATE
        try:
            result = await handle(claim)
        except AlreadyApplied:
            return DUPLICATE
        except BaseException:
            await self._let_go(claim)
            raise
        try:
            await self.updates.finish(claim)
        except RedisError as error:  # its changes are saved and marked: at worst a reply twice
            log.warning("update %s not marked done: %s", update_id, error)
        return result

    async def _let_go(self, claim: Claim) -> None:
        try:
            await self.updates.abandon(claim)
        except RedisError as error:  # it lapses by itself
            log.warning("claim %s not released: %s", claim.key, error)
