"""Computer players' turns: a background task that lets each computer act when it is due.

A change that makes it a computer's turn writes the chat into a sorted set in Redis, in the
game's own transaction (``GameRecord.computers_at``), so a restarted bot picks up the
computers that were about to act. A computer acts ``pause`` seconds after that change (a
human-like beat, so people can follow), once its table's turn came in the computers' budget
of thinking (``ThinkingQueue``: tables in turn, at most ``per_second`` decisions started a
second, a search only with a place in the pool, its budget shortened when many wait);
chooses outside the event loop (``hard`` in a pool of processes, with its time budget
enforced from the search's start); and plays through ``ComputerSeats.move``: a
compare-and-set on the position it chose for. With several worker processes, one of them
thinks for a chat's computer at a time (a lease in Redis, taken once the turn came, which
a killed worker's lapses after the longest a search may take); and were two ever to move at
once, the second finds the position moved on. A computer's move is never silently made by
a weaker level: a shortened search and a search that overran (the heuristic player moves
instead) are counted in ``durak_computer_degraded_total{level,reason}``, and the time from
a move being due to its being saved in ``durak_computer_decision_seconds{level}``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Final

from bot.metrics import COMPUTER_DECISION, COMPUTER_DEGRADED, COMPUTER_MOVES
from bot.model import GameRecord
from bot.storage import KEEP, DeadlineStore, Saved
from bot.storage.leases import worker_name
from engine import Action, GameState, SeatView, legal_actions, view_for
from engine.ai import choose_action, choose_for_view

from .computers import ComputerSeats, due_computer
from .due import DueLoop
from .games import GameService
from .outcomes import Changed, Outcome
from .thinking import WITHIN, ThinkingQueue, Turn, share_of

log = logging.getLogger(__name__)

SLOW = "hard"  # the level that searches, and so runs in the pool of processes
FALLBACK = "normal"  # what plays when a search overruns its budget by far
DUE_BATCH: Final = 50  # chats newly due read from Redis a round, besides those at work


def overrun_seconds(budget_ms: float) -> float:
    """How long a search of ``budget_ms`` may run before the heuristic player takes over."""
    return budget_ms / 1000 * 3 + 2.0


@dataclass(frozen=True)
class Due:
    """A computer due to act: its seat and level in ``record``'s ``state``; ``at``: when
    its move became due (the change that made it so, plus the pause)."""

    record: GameRecord
    state: GameState
    seat: int
    level: str
    at: float


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
        publish: Callable[[Changed], None],
        *,
        pause: float = 1.5,
        budget_ms: float = 300.0,
        per_second: float = 50.0,
        processes: int = 1,
        pool: Executor | None = None,
        within: float = WITHIN,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(queue, clock, lag=pause)
        self.service = service
        self.seats = ComputerSeats(service)
        self.publish = publish
        self.pause = pause
        self.budget_ms = budget_ms
        if pool is None and processes > 0:
            pool = ProcessPoolExecutor(processes)
        self.pool = pool  # None: the default threads of this process
        self.thinking = ThinkingQueue(
            places=max(1, processes), per_second=per_second, budget_ms=budget_ms, within=within
        )
        self.owner = worker_name()
        self.lease_seconds = overrun_seconds(budget_ms) + 5.0
        self.playing: dict[int, asyncio.Task[Outcome | None]] = {}

    async def stop(self) -> None:
        await super().stop()
        for task in list(self.playing.values()):
            task.cancel()
        await asyncio.gather(*self.playing.values(), return_exceptions=True)
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)

    async def act(self) -> None:
        # Past the chats already at work here (they keep their place in the sorted set until
        # their computer moved), so a chat that came due later is seen and waits its turn.
        limit = len(self.playing) + DUE_BATCH
        self.dispatch(await self.queue.due(self.clock() - self.pause, limit=limit))

    def dispatch(self, chats: list[int]) -> None:
        """A task per chat with a computer due, unless one is already at work there."""
        for chat_id in chats:
            if chat_id not in self.playing:
                task = asyncio.get_running_loop().create_task(self.play(chat_id))
                self.playing[chat_id] = task
                task.add_done_callback(functools.partial(self._done, chat_id))

    def _done(self, chat_id: int, _task: asyncio.Task[Outcome | None]) -> None:
        self.playing.pop(chat_id, None)

    async def play(self, chat_id: int) -> Outcome | None:
        """One computer move in ``chat_id`` if one is due, once the table's turn came and no
        other worker is choosing it; the outcome, or None."""
        try:
            first = await self._due(chat_id)
            if first is None:
                return None
            share = share_of(first.record.game)
            async with self.thinking.turn(share, searching=first.level == SLOW) as turn:
                return await self._leased(chat_id, first.level, turn)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a computer move in chat %s failed", chat_id)
            return None

    async def _leased(self, chat_id: int, level: str, turn: Turn) -> Outcome | None:
        """The move, under the chat's lease, for the position as it is after the wait."""
        storage = self.service.storage
        lease = storage.keys.computers_lease(chat_id)
        if not await storage.leases.take(lease, self.owner, self.lease_seconds):
            return None
        try:
            due = await self._due(chat_id)
            if due is None or due.level != level:
                return None  # listed again: the loop brings it back in its own line
            state, game_id = due.state, due.record.game.game_id
            seed = f"{game_id}:{state.moves}:{due.seat}"
            action = await self._choose(turn, state, due.seat, level, seed)
            outcome = await self.seats.move(chat_id, game_id, state.moves, due.seat, action)
        finally:
            await storage.leases.release(lease, self.owner)
        if isinstance(outcome, Changed):
            COMPUTER_MOVES.labels(level=level).inc()
            COMPUTER_DECISION.labels(level=level).observe(max(0.0, self.clock() - due.at))
            log.info("computer moved", extra={"chat": chat_id, "seat": due.seat, "level": level})
            self.publish(outcome)
        return outcome

    async def _due(self, chat_id: int) -> Due | None:
        """The computer due in ``chat_id`` now, its pause over; None if none (and a record
        that says nobody is due leaves the sorted set)."""
        record = await self.service.games.get(chat_id)
        due = due_computer(record)
        if due is None:
            await self._settle(chat_id)
            return None
        assert record is not None and record.game.state is not None
        since = record.computers_at if record.computers_at is not None else self.clock()
        at = since + self.pause
        if at > self.clock():
            return None  # another worker just moved the computer before it
        return Due(record, record.game.state, due[0], due[1], at)

    async def _choose(
        self, turn: Turn, state: GameState, seat: int, level: str, seed: str
    ) -> Action:
        """The computer's action, chosen outside the event loop. A search runs once it has a
        place in the pool, so the overrun is counted from its start, not from its wait; one
        that overruns its budget by far gives way to the heuristic player, counted."""
        if level != SLOW or turn.budget_ms is None:
            return choose(state, seat, level, seed, self.budget_ms)  # a few milliseconds
        budget = turn.budget_ms
        view, legal = view_for(state, seat), legal_actions(state, seat)
        job = asyncio.get_running_loop().run_in_executor(
            self.pool, choose_from_view, view, state.discard, legal, level, seed, budget
        )
        turn.running(job)
        try:
            # shield: the job runs on in its process whatever we do, and keeps its place.
            action: Action = await asyncio.wait_for(asyncio.shield(job), overrun_seconds(budget))
        except TimeoutError:
            COMPUTER_DEGRADED.labels(level=level, reason="overrun").inc()
            log.warning("a %s computer overran its budget; playing %s", level, FALLBACK)
            return choose(state, seat, FALLBACK, seed, self.budget_ms)
        if turn.short:
            COMPUTER_DEGRADED.labels(level=level, reason="short_budget").inc()
        return action

    async def _settle(self, chat_id: int) -> None:
        """Nothing is due in ``chat_id`` although it was listed: a record that says so drops
        it (in its own transaction, so a change that makes a computer due again wins)."""

        def decide(record: GameRecord | None) -> tuple[Saved, None]:
            if record is None:
                return None, None  # writing "no game" drops what followed it
            if due_computer(record) is not None:
                return KEEP, None
            if record.computers_at is None:
                return record, None  # rewriting it drops the stray entry
            record.computers_at = None
            return record, None

        await self.service.games.update(chat_id, decide, shown=False)
