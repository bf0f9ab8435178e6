"""Every limit a message waits for, in one module (``Budget``): the bot's messages a second
over all chats (a token bucket whose waiters are served by class, ``PriorityGate``), this
worker's share of it (``share``), each group's messages a minute (GCRA, kept in Redis so that
every worker keeps it: ``DeliveryStore.take``), and Telegram's "retry after" for one chat."""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from bot.storage.outbox import DeliveryStore

from .plan import TABLE

log = logging.getLogger(__name__)

IDLE: Final = 1 << 10  # the class of a worker with nothing waiting (``PriorityGate.demand``)
# Of an even share of the budget over all chats, what each worker keeps whatever the others
# wait on: what becomes urgent on it goes out at once, not a roll call later. Half: with a
# tenth, the groups' median wait for their buttons doubled under the solo flood with two
# workers (the shares follow demand only once a second); see docs/PERFORMANCE.md.
FLOOR: Final = 0.5


# Of a group's budget, kept for its table: replies use the rest, a few at once (a burst of
# answers to a burst of commands), and the table waits for replies to earlier commands
# anyway (``Lane.replies_first``).
NOTE_RESERVE: Final = 1


class Budget:
    """The limits this worker keeps: ``gate``, its share of the bot's messages a second over
    all chats (``global_per_second``, shared with the other workers by ``follow``); each
    group's ``group_per_minute`` in any minute, as GCRA (a burst of up to 4 messages, then one
    every ``group_interval`` seconds), in Redis; and when each chat is free again as far as
    this worker knows (``free_at``: Telegram's "retry after", or a group's minute spent)."""

    def __init__(
        self, delivery: DeliveryStore, *, group_per_minute: int, global_per_second: float
    ) -> None:
        self.delivery = delivery
        self.global_per_second = global_per_second
        self.gate = PriorityGate(global_per_second, aged_from=TABLE)
        self.workers = 1
        burst = max(1, min(4, group_per_minute - 1))
        self.group_interval = 60.0 / (group_per_minute - burst)
        self.group_tolerance = (burst - 1) * self.group_interval
        self._free_at: dict[int, float] = {}  # chat -> monotonic time it is free again

    def follow(self, mine: str, demands: Mapping[str, tuple[int, int]]) -> None:
        """Take worker ``mine``'s share of the budget over all chats, given every worker's
        demand (``share``); forget the chats free again by now."""
        if len(demands) != self.workers:
            log.info("%s worker(s) share the budget over all chats", len(demands))
            self.workers = len(demands)
        self.gate.set_rate(share(self.global_per_second, mine, demands))
        now = time.monotonic()
        self._free_at = {chat: at for chat, at in self._free_at.items() if at > now}

    def free_at(self, chat_id: int) -> float:
        """The monotonic time before which nothing may go to ``chat_id`` (as far as this
        worker knows: a group's budget is in Redis, ``group_limit``)."""
        return self._free_at.get(chat_id, 0.0)

    def group_limit(self, *, note: bool = False) -> tuple[float, float]:
        """A group's budget as GCRA's interval and tolerance (``DeliveryStore.take``): its
        replies leave ``NOTE_RESERVE`` messages of it to its table."""
        tolerance = self.group_tolerance
        if note:
            tolerance = max(0.0, tolerance - NOTE_RESERVE * self.group_interval)
        return self.group_interval, tolerance

    def group_full(self, chat_id: int, seconds: float) -> None:
        """A group's budget has no room for ``seconds`` (``DeliveryStore.take`` said so)."""
        self._free_at[chat_id] = time.monotonic() + seconds

    async def wait(self, chat_id: int, *, note: bool = False) -> float:
        """Seconds before the next message may go to ``chat_id`` (0: now, and for a group it
        is spent)."""
        if chat_id > 0:
            return max(0.0, self.free_at(chat_id) - time.monotonic())
        return await self.delivery.take(chat_id, *self.group_limit(note=note))

    async def blocked(self, chat_id: int, seconds: float) -> None:
        """Telegram said "retry after ``seconds``" for this chat (and only this chat); a
        group's block is kept in Redis too, for every worker."""
        log.warning("Telegram asks to wait %s s before writing to %s", seconds, chat_id)
        self._free_at[chat_id] = max(self.free_at(chat_id), time.monotonic() + seconds)
        if chat_id < 0:
            await self.delivery.block(chat_id, seconds)


def share(rate: float, mine: str, demands: Mapping[str, tuple[int, int]]) -> float:
    """Worker ``mine``'s part of the bot's ``rate`` over all chats, given every worker's
    demand (``PriorityGate.demand``): the workers holding the most urgent class of messages
    waiting anywhere share the budget in proportion to the people waiting on them, so a
    person who must act is served first whichever worker holds their chat, as within one
    worker; each worker keeps a floor (``FLOOR`` of an even share); with nothing waiting
    anywhere, even shares."""
    workers = max(1, len(demands))
    urgent = min((priority for priority, weight in demands.values() if weight > 0), default=IDLE)
    weights = {
        worker: weight
        for worker, (priority, weight) in demands.items()
        if priority == urgent and weight > 0
    }
    if not weights:
        return rate / workers
    floor = rate * FLOOR / workers
    return floor + (rate - floor * workers) * weights.get(mine, 0) / sum(weights.values())


class TokenBucket:
    """``capacity`` messages at once, refilled at ``rate`` per second. Within any window of
    ``w`` seconds at most ``capacity + rate * w`` messages pass."""

    def __init__(
        self, capacity: float, rate: float, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.capacity = capacity
        self.rate = rate
        self.clock = clock
        self.tokens = capacity
        self.updated = clock()
        self.blocked_until = 0.0

    def refill(self, now: float) -> None:
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now

    def wait_time(self) -> float:
        """Seconds until a token is available (0: now)."""
        now = self.clock()
        self.refill(now)
        if now < self.blocked_until:
            return self.blocked_until - now
        if self.tokens >= 1:
            return 0.0
        return (1 - self.tokens) / self.rate

    def take(self) -> bool:
        """Take a token if one is available now."""
        if self.wait_time() > 0:
            return False
        self.tokens -= 1
        return True

    def block(self, seconds: float) -> None:
        """Telegram said "retry after": nothing until then, and start empty."""
        now = self.clock()
        self.refill(now)
        self.blocked_until = max(self.blocked_until, now + seconds)
        self.tokens = 0


def per_minute(limit: int, burst: int = 4) -> TokenBucket:
    """A bucket that lets at most ``limit`` messages through in any 60 seconds: ``burst`` at
    once, the rest spread evenly."""
    burst = max(1, min(burst, limit - 1))
    return TokenBucket(burst, (limit - burst) / 60.0)


class PriorityGate:
    """The budget over all chats (Telegram allows a bot about 30 messages a second): a token
    bucket whose waiters are served by class, lowest number first (``plan.ACTING``: a
    person must act on this message now), and within a class chat by chat in turn.

    Turns are start-time fair queueing: a waiter is tagged past the later of its chat's
    last tag and the tag served last, by one over its ``weight`` (how many people wait on
    the message: the buttons of a group's acting player hold up the whole table, a solo
    game's only its person), and the lowest tag goes first. A chat with many
    messages waiting gets one per round, a flood of chats each with one message cannot
    push a chat back more than a round, and a chat that comes back after a pause joins
    the current round rather than the front. A waiter's class and weight are its
    ``Claim``, which its sender may change while it waits (a newer position loaded) and
    which is read again whenever a token is handed out: a message queued while nobody
    waited on it overtakes once somebody does. So that a flood cannot starve the classes
    below it for ever, a waiter of class ``aged_from`` or above rises one class every
    ``age`` seconds it waits, to the front class at most; the classes in between never
    rise: they are the flood (the players' views while computers move), which must never
    delay a person who must act. The waiters are scanned on each token: they are at most a
    few per chat being sent to, a hundred or more under load, so a claim is plain fields,
    not a call into its sender."""

    def __init__(
        self,
        rate: float,
        burst: float | None = None,
        *,
        age: float = 2.0,
        aged_from: int = 2,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bucket = TokenBucket(burst or max(1.0, rate), rate, clock=clock)
        self.age = age
        self.aged_from = aged_from
        self._waiters: list[_Waiter] = []
        self._tags: dict[int, float] = {}  # chat -> the tag of its newest waiter
        self._served = 0.0  # the tag served last: the round being served
        self._arrivals = itertools.count()
        self._pump: asyncio.Task[None] | None = None

    @property
    def waiting(self) -> int:
        return len(self._waiters)

    def demand(self) -> tuple[int, int]:
        """The most urgent class waiting here (as claimed, before ageing) and how many people
        wait on its messages; ``(IDLE, 0)`` when nothing waits."""
        best, weight = IDLE, 0
        for waiter in self._waiters:
            claim = waiter.claim
            if claim.priority < best:
                best, weight = claim.priority, claim.weight
            elif claim.priority == best:
                weight += claim.weight
        return best, weight

    def set_rate(self, rate: float) -> None:
        """Another rate from now on (the bot's share changed: a worker came or went)."""
        bucket = self.bucket
        bucket.refill(bucket.clock())
        bucket.rate = rate
        bucket.capacity = max(1.0, rate)
        bucket.tokens = min(bucket.tokens, bucket.capacity)

    async def acquire(self, chat_id: int, claim: Claim, *, rises_to: int = 0) -> None:
        """Wait for a token to send to ``chat_id``; a cancelled waiter gives back a token it
        was just handed. ``claim`` is read again while it waits; ageing lifts it to class
        ``rises_to`` at most."""
        tag = self._tag(chat_id, claim.weight)
        if not self._waiters and self.bucket.take():
            self._served = max(self._served, tag)
            return
        loop = asyncio.get_running_loop()
        arrival, since = next(self._arrivals), self.bucket.clock()
        waiter = _Waiter(claim, tag, claim.weight, rises_to, arrival, since, loop.create_future())
        self._waiters.append(waiter)
        if self._pump is None or self._pump.done():
            self._pump = loop.create_task(self._serve())
        try:
            await waiter.future
        except asyncio.CancelledError:
            if waiter.future.done() and not waiter.future.cancelled():
                self.refund()
            elif waiter in self._waiters:
                self._waiters.remove(waiter)
            raise

    def refund(self) -> None:
        """A token taken for nothing (the message turned out not to need sending)."""
        self.bucket.tokens = min(self.bucket.capacity, self.bucket.tokens + 1)

    def _tag(self, chat_id: int, weight: int) -> float:
        tag = max(self._served, self._tags.get(chat_id, 0.0)) + 1.0 / max(1, weight)
        self._tags[chat_id] = tag
        if len(self._tags) > 2 * len(self._waiters) + 1024:
            # A chat whose last tag was served is no different from one never seen.
            self._tags = {chat: t for chat, t in self._tags.items() if t > self._served}
        return tag

    def _next(self) -> _Waiter:
        """The waiter first in line: the lowest class (aged), then the lowest tag, then the
        first come (a waiter whose weight grew is tagged anew first: ``_Waiter.retag``). A
        loop of its own rather than ``min`` with a key: it runs for every token, over a
        hundred waiters and more under load, and a call and a tuple per waiter were most
        of its cost."""
        now, served, age, aged_from = self.bucket.clock(), self._served, self.age, self.aged_from
        best = self._waiters[0]
        best_priority, best_tag, best_arrival = 1 << 30, 0.0, 0
        for waiter in self._waiters:
            claim = waiter.claim
            priority = claim.priority
            if priority >= aged_from:
                priority = max(waiter.rises_to, priority - int((now - waiter.since) / age))
            if claim.weight > waiter.tagged_weight:
                waiter.retag(served)
            if priority > best_priority:
                continue
            tag = waiter.tag
            if (
                priority < best_priority
                or tag < best_tag
                or (tag == best_tag and waiter.arrival < best_arrival)
            ):
                best, best_priority, best_tag, best_arrival = waiter, priority, tag, waiter.arrival
        return best

    async def _serve(self) -> None:
        while self._waiters:
            wait = self.bucket.wait_time()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            waiter = self._next()
            self._waiters.remove(waiter)
            self.bucket.take()
            self._served = max(self._served, waiter.tag)
            waiter.future.set_result(None)


@dataclass(eq=False, slots=True)
class Claim:
    """What a message waiting for a token claims: its class (``plan.ACTING`` ...) and how
    many people wait on it. Its sender changes them as the position changes."""

    priority: int
    weight: int = 1


@dataclass(eq=False, slots=True)
class _Waiter:
    claim: Claim
    tag: float
    tagged_weight: int  # the weight it was tagged with
    rises_to: int  # the highest class ageing lifts it to
    arrival: int
    since: float
    future: asyncio.Future[None]

    def retag(self, served: float) -> None:
        """Its message came to hold up more people than when it was tagged (a view that
        became a group's acting player's buttons): tagged as if it came now with that
        weight, unless it was already ahead."""
        weight = self.claim.weight
        self.tag, self.tagged_weight = min(self.tag, served + 1.0 / weight), weight
