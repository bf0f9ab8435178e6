"""Who plays on the Mini App's page right now, so that their hand message in private waits.

While a player's page is open and in use, the outbox leaves their hand message alone (the
page shows every move within a second anyway); when the page closes or goes idle the chat
is marked to show again and the hand message catches up with one edit. That is what brings
Bot API calls per move down to the group's table: a move edited every player's hand before.

"Idle", and why: the page is hidden (the player switched to the chat or another app:
the browser's ``visibilitychange``, Telegram's ``deactivated``), its socket closed, or no
word from it for ``idle`` seconds (``WEBAPP_IDLE_SECONDS``). A visible page says «here»
every ``here_every(idle)`` seconds (the server tells it in its first message) even while its
player only watches (waiting for others is not being away), so silence means a page that
froze or lost its connection without closing it. Each worker writes the pages it holds into
the chat's hash in Redis (``DeliveryStore.pages_open``), so the outbox of any worker sees
them; an entry counts until its time runs out, so a worker that dies holds a hand no longer
than ``idle``: the outbox that left a hand waiting for a page looks at the chat again when
that page's entry runs out (``DeliveryStore.settle``'s ``recheck_at``), and a lapsed entry
holds nothing.

A page's first mark is written before the page is answered: from then on its hand waits.
Renewals, which come two thirds of ``idle`` before the mark runs out, wait up to
``RENEWALS_EVERY`` to go together in one round trip: at a thousand open pages that is one
write a second instead of fifty. A renewal lost with Redis is made good by the next one
(the mark still has a third of ``idle`` to run), and a page closing meanwhile takes its
renewal back, or waits for the write on its way, so that no renewal lands after its
goodbye.

The turn clock starts when the acting player was shown their choices (``bot.turn_clock``):
for a player on the page that is the page's delivery, so the page starts it, with the same
one write of the deadline the outbox makes (``DeadlineStore.start_clock``), never a write of
the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Final

from redis.exceptions import RedisError

from bot.model import GameRecord, Phase
from bot.storage import Storage
from bot.turn_clock import started_deadline

log = logging.getLogger(__name__)

RENEWALS_EVERY: Final = 1.0  # seconds a page's renewed mark may wait to go with others


def here_every(idle: float) -> float:
    """How often a visible page says «here» (static/app.js): three times within ``idle``, so
    one late or lost «here» does not make a page in use count as idle."""
    return idle / 3


def nobody_told(_chat_id: int, _user_id: int) -> None:
    """``Presence.closed`` where no outbox runs in the process."""


class Presence:
    """Open pages' marks in Redis and their turn clocks, for one worker's sockets."""

    def __init__(
        self,
        storage: Storage,
        idle: float,
        clock: Callable[[], float] = time.time,
        closed: Callable[[int, int], None] = nobody_told,
    ) -> None:
        self.storage = storage
        self.idle = idle
        self.here_every = here_every(idle)
        self.clock = clock
        # This process's outbox (``Outbox.page_closed``): it need not wait for the mark to
        # travel through Redis, nor for a table waiting for its budget, to catch a hand up.
        self.closed = closed
        self._renewals: dict[tuple[int, int], float] = {}  # (chat, user) -> until
        self._renewing: asyncio.Task[None] | None = None
        self._writing = asyncio.Lock()  # held while renewals are on their way to Redis

    async def here(self, chat_id: int, user_id: int, *, renewal: bool = False) -> float:
        """The user's page is open and in use: their hand message waits until the time
        returned (at least). Say it again before then. A ``renewal`` (the page's mark is in
        Redis and has time left) goes with the others within ``RENEWALS_EVERY``."""
        until = self.clock() + self.idle
        if renewal:
            self._renewals[chat_id, user_id] = until
            if self._renewing is None:
                self._renewing = asyncio.get_running_loop().create_task(self._renew())
        else:
            await self.storage.delivery.pages_open([(chat_id, user_id, until)])
        return until

    async def away(self, chat_id: int, user_id: int) -> None:
        """The page closed or went idle: the hand message catches up."""
        self._renewals.pop((chat_id, user_id), None)
        async with self._writing:  # a renewal on its way lands before the goodbye
            await self.storage.delivery.page_closed(chat_id, user_id)
        self.closed(chat_id, user_id)

    async def stop(self) -> None:
        """No more renewals (the server stops; its pages said goodbye)."""
        task, self._renewing = self._renewing, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _renew(self) -> None:
        try:
            await asyncio.sleep(RENEWALS_EVERY)
            async with self._writing:
                marks, self._renewals = self._renewals, {}
                self._renewing = None  # renewals from now on go with the next write
                try:
                    await self.storage.delivery.pages_open(
                        (chat, user, until) for (chat, user), until in marks.items()
                    )
                except RedisError as error:
                    log.warning("%d open pages' marks were not renewed: %s", len(marks), error)
        finally:
            if self._renewing is asyncio.current_task():
                self._renewing = None

    def starts_clock(self, record: GameRecord, user_id: int) -> bool:
        """Whether sending the user's page ``record``'s position starts their turn clock
        (``delivered``): they must act in it, and the chat has a turn timer."""
        game, state = record.game, record.game.state
        if state is None or game.phase is not Phase.PLAYING or record.deadline is None:
            return False
        return game.seat_of(user_id) in state.acting

    async def delivered(self, record: GameRecord, user_id: int) -> None:
        """The user's page was sent ``record``'s position: if they must act in it, their turn
        clock starts now (unless it started earlier, or the game moved on)."""
        if not self.starts_clock(record, user_id):
            return
        deadline = started_deadline(record, self.clock())
        if deadline is None:
            return
        game, state = record.game, record.game.state
        assert state is not None
        storage = self.storage
        await storage.deadlines.start_clock(
            storage.keys.game(game.chat_id), game.chat_id, game.game_id, state.moves, deadline
        )
