"""A background task that acts on what came due in a sorted set in Redis: the turn
deadlines (``TurnSweeper``) and the computer players' turns (``ComputerTurns``).

Each round it calls ``act`` (act on whatever is due now) and then sleeps until the next
entry is due, at most ``MAX_SLEEP`` seconds, so an entry another process wrote is seen
soon. Redis being down only delays it: the entries wait in Redis.

The turn clock: a background task that acts for players whose time ran out.

Deadlines live in Redis (``DeadlineStore``), written with each game, so a restarted bot
picks them up; two bots sweeping at once are safe because ``expire_turn`` is a
compare-and-set that re-checks the deadline.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from redis.exceptions import RedisError

from bot.metrics import TURN_TIMEOUTS
from bot.storage import DeadlineStore, NewerRecord
from bot.waiting import wait_event

from .games import GameService
from .outcomes import Changed

log = logging.getLogger(__name__)

MAX_SLEEP = 1.0


class DueLoop:
    """Override ``act``; ``lag``: seconds after its score an entry is due."""

    what = "due work"  # for the log

    def __init__(self, queue: DeadlineStore, clock: Callable[[], float], lag: float = 0.0) -> None:
        self.queue = queue
        self.clock = clock
        self.lag = lag
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()

    async def act(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            await self._task

    async def run(self) -> None:
        while not self._stop.is_set():
            try:
                await self.act()
                upcoming = await self.queue.next_due()
            except asyncio.CancelledError:
                raise
            except RedisError as error:  # Redis is down: the entries wait there for us
                log.warning("%s: cannot reach Redis (%s); trying again", self.what, error)
                upcoming = None
            except Exception:
                log.exception("%s failed; trying again", self.what)
                upcoming = None
            wait = MAX_SLEEP
            if upcoming is not None:
                wait = min(MAX_SLEEP, max(0.02, upcoming + self.lag - self.clock()))
            await wait_event(self._stop, wait)


class TurnSweeper(DueLoop):
    what = "the turn sweeper"

    def __init__(
        self,
        service: GameService,
        deadlines: DeadlineStore,
        publish: Callable[[Changed], None],
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(deadlines, clock)
        self.service = service
        self.deadlines = deadlines
        self.publish = publish

    async def act(self) -> None:
        await self.sweep()

    async def sweep(self) -> int:
        """Act on every deadline that has passed; how many games moved."""
        moved = 0
        for chat_id in await self.deadlines.due(self.clock()):
            try:
                outcome = await self.service.expire_turn(chat_id)
            except NewerRecord:
                continue  # a newer worker's turn sweeper acts on it (counted by the read)
            except Exception:
                log.exception("turn timeout in chat %s failed", chat_id)
                continue
            if isinstance(outcome, Changed):
                moved += 1
                TURN_TIMEOUTS.inc()
                log.info(
                    "turn timed out",
                    extra={"chat": chat_id, "seats": outcome.timed_out},
                )
                self.publish(outcome)
        return moved
