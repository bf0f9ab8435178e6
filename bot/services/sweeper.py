"""The turn clock: a background task that acts for players whose time ran out.

Deadlines live in Redis (``DeadlineStore``), written with each game, so a restarted bot
picks them up; two bots sweeping at once are safe because ``expire_turn`` is a
compare-and-set that re-checks the deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from redis.exceptions import RedisError

from bot.storage import DeadlineStore

from .games import GameService
from .outcomes import Outcome, Result

log = logging.getLogger(__name__)

MAX_SLEEP = 1.0


class TurnSweeper:
    def __init__(
        self,
        service: GameService,
        deadlines: DeadlineStore,
        publish: Callable[[Outcome], None],
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.deadlines = deadlines
        self.publish = publish
        self.clock = clock
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            await self._task

    async def sweep(self) -> int:
        """Act on every deadline that has passed; how many games moved."""
        moved = 0
        for chat_id in await self.deadlines.due(self.clock()):
            try:
                outcome = await self.service.expire_turn(chat_id)
            except Exception:
                log.exception("turn timeout in chat %s failed", chat_id)
                continue
            if outcome.result is Result.TIMED_OUT:
                moved += 1
                log.info(
                    "turn timed out",
                    extra={"chat": chat_id, "seats": outcome.timed_out},
                )
                self.publish(outcome)
        return moved

    async def run(self) -> None:
        while not self._stop.is_set():
            try:
                await self.sweep()
                upcoming = await self.deadlines.next_due()
            except asyncio.CancelledError:
                raise
            except RedisError as error:  # Redis is down: the deadlines wait there for us
                log.warning("the turn sweeper cannot reach Redis (%s); trying again", error)
                upcoming = None
            except Exception:
                log.exception("the turn sweeper failed; trying again")
                upcoming = None
            pause = MAX_SLEEP
            if upcoming is not None:
                pause = min(MAX_SLEEP, max(0.05, upcoming - self.clock()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), pause)
