"""The turn clock: a background task that acts for players whose time ran out.

Deadlines live in Redis (``DeadlineStore``), written with each game, so a restarted bot
picks them up; two bots sweeping at once are safe because ``expire_turn`` is a
compare-and-set that re-checks the deadline.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from bot.metrics import TURN_TIMEOUTS
from bot.storage import DeadlineStore

from .due import DueLoop
from .games import GameService
from .outcomes import Changed

log = logging.getLogger(__name__)


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
