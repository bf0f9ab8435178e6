"""Computer players' turns: a background task that lets each computer act when it is due.

A change that makes it a computer's turn writes the chat into a sorted set in Redis, in the
game's own transaction (``GameRecord.computers_at``), so a restarted bot picks up the
computers that were about to act. A computer acts ``pause`` seconds after that change (a
human-like beat, so people can follow), chooses outside the event loop (``hard`` in a pool
of processes, with its time budget enforced), and plays through ``ComputerSeats.move``: a
compare-and-set on the position it chose for. With several worker processes, one of them
thinks for a chat's computer at a time (a lease in Redis, which a killed worker's lapses
after the longest a decision may take); and were two ever to move at once, the second finds
the position moved on. At most ``per_second`` decisions start a second, so a busy process
makes computers wait, never people.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from bot.metrics import COMPUTER_MOVES
from bot.storage import KEEP, DeadlineStore, GameRecord
from bot.storage.leases import worker_name
from engine import Action, GameState, SeatView, legal_actions, view_for
from engine.ai import choose_action, choose_for_view

from .computers import ComputerSeats, due_computer
from .due import DueLoop
from .games import GameService
from .outcomes import Outcome, Result

log = logging.getLogger(__name__)

SLOW = "hard"  # the level that searches, and so runs in the pool of processes
FALLBACK = "normal"  # what plays when a search overruns its budget by far


def choose(state: GameState, seat: int, level: str, seed: str, budget_ms: float) -> Action:
    """``engine.ai.choose_action``."""
    return choose_action(state, seat, level, seed=seed, budget_ms=budget_ms)


def choose_from_view(
    view: SeatView, discard: int, legal: list[Action], level: str, seed: str, budget_ms: float
) -> Action:
    """``engine.ai.choose_for_view``, in a pool of processes: only what the seat may know
    goes there (its view, the discard it watched, its legal actions), not the state."""
    return choose_for_view(view, discard, legal, level, seed=seed, budget_ms=budget_ms)


class ComputerTurns(DueLoop):
    what = "computer players"

    def __init__(
        self,
        service: GameService,
        queue: DeadlineStore,
        publish: Callable[[Outcome], None],
        *,
        pause: float = 1.5,
        budget_ms: float = 300.0,
        per_second: float = 20.0,
        processes: int = 1,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(queue, clock, lag=pause)
        self.service = service
        self.seats = ComputerSeats(service)
        self.publish = publish
        self.pause = pause
        self.budget_ms = budget_ms
        self.interval = 1.0 / per_second
        self.pool: Executor | None = ProcessPoolExecutor(processes) if processes > 0 else None
        self.next_start = 0.0  # monotonic time the next decision may start
        self.owner = worker_name()
        self.lease_seconds = self.overrun_seconds + 5.0
        self.playing: dict[int, asyncio.Task[Outcome | None]] = {}

    async def stop(self) -> None:
        await super().stop()
        for task in list(self.playing.values()):
            task.cancel()
        await asyncio.gather(*self.playing.values(), return_exceptions=True)
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)

    async def act(self) -> None:
        self.dispatch(await self.queue.due(self.clock() - self.pause))

    def dispatch(self, chats: list[int]) -> None:
        """A task per chat with a computer due, unless one is already at work there."""
        for chat_id in chats:
            if chat_id not in self.playing:
                task = asyncio.get_running_loop().create_task(self.play(chat_id))
                self.playing[chat_id] = task
                task.add_done_callback(functools.partial(self._done, chat_id))

    def _done(self, chat_id: int, _task: asyncio.Task[Outcome | None]) -> None:
        self.playing.pop(chat_id, None)

    @property
    def overrun_seconds(self) -> float:
        """How long a search may run before the heuristic player takes over."""
        return self.budget_ms / 1000 * 3 + 2.0

    async def play(self, chat_id: int) -> Outcome | None:
        """One computer move in ``chat_id`` if one is due and no other worker is choosing
        it; the outcome, or None."""
        storage = self.service.storage
        lease = storage.keys.computers_lease(chat_id)
        try:
            if not await storage.leases.take(lease, self.owner, self.lease_seconds):
                return None
            try:
                return await self._play(chat_id)
            finally:
                await storage.leases.release(lease, self.owner)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a computer move in chat %s failed", chat_id)
            return None

    async def _play(self, chat_id: int) -> Outcome | None:
        record = await self.service.games.get(chat_id)
        due = due_computer(record)
        if due is None:
            await self._settle(chat_id)
            return None
        assert record is not None and record.game.state is not None
        seat, level = due
        state, game_id = record.game.state, record.game.game_id
        await self._pace()
        action = await self._choose(state, seat, level, f"{game_id}:{state.moves}:{seat}")
        outcome = await self.seats.move(chat_id, game_id, state.moves, seat, action)
        if outcome.result is Result.APPLIED:
            COMPUTER_MOVES.labels(level=level).inc()
            log.info("computer moved", extra={"chat": chat_id, "seat": seat, "level": level})
            self.publish(outcome)
        return outcome

    async def _pace(self) -> None:
        now = time.monotonic()
        start = max(now, self.next_start)
        self.next_start = start + self.interval
        if start > now:
            await asyncio.sleep(start - now)

    async def _choose(self, state: GameState, seat: int, level: str, seed: str) -> Action:
        """The computer's action, chosen outside the event loop; a search that overruns its
        budget by far gives way to the heuristic player."""
        loop = asyncio.get_running_loop()
        if level != SLOW:
            return choose(state, seat, level, seed, self.budget_ms)  # a few milliseconds
        view, legal = view_for(state, seat), legal_actions(state, seat)
        job = loop.run_in_executor(
            self.pool, choose_from_view, view, state.discard, legal, level, seed, self.budget_ms
        )
        try:
            return await asyncio.wait_for(job, self.overrun_seconds)
        except TimeoutError:
            log.warning("a %s computer overran its budget; playing %s", level, FALLBACK)
            return choose(state, seat, FALLBACK, seed, self.budget_ms)

    async def _settle(self, chat_id: int) -> None:
        """Nothing is due in ``chat_id`` although it was listed: a record that says so drops
        it (in its own transaction, so a change that makes a computer due again wins)."""

        def decide(record: GameRecord | None) -> tuple[Any, None]:
            if record is None:
                return None, None  # writing "no game" drops what followed it
            if due_computer(record) is not None:
                return KEEP, None
            if record.computers_at is None:
                return record, None  # rewriting it drops the stray entry
            record.computers_at = None
            return record, None

        await self.service.games.update(chat_id, decide, shown=False)
