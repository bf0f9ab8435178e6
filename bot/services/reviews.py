"""The review of a finished game («Разбор»), made in the background and sent in private.

A person who played a kept game (``bot.storage.finished``) asks for its review; the review
(``engine.ai.review``) judges each of their decisions with ``hard``'s search from what their
seat saw then. That is seconds of CPU a game, so it never runs where a game waits:

- **Its own pool.** Reviews are judged in a pool of processes of their own
  (``REVIEW_PROCESSES``), at the lowest scheduling priority the system gives (``os.nice``):
  on a busy machine the computers' searches and the event loop go first.
- **The computers first.** Between two decisions a review looks at the computers' thinking
  queue (``computers_busy``): while a computer's move waits for its turn, the review waits.
- **One at a time, in order.** The reviews asked for wait in line (``ask`` says how many are
  ahead); a review whose wait is long says so to its person once (``review-waiting``).

Reviews are kept as long as their game (``ReviewStore``): asking again sends the kept one.
The line lives in this worker process: one that stops loses the reviews still waiting,
which their people may ask for again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Final

from bot.model import FinishedGame
from bot.schema.reviews import Moment, Review
from bot.storage import Storage
from engine.ai.review import Decision, Judgment, costliest, decisions, judge
from engine.record import action_to_dict
from engine.rules import Blind

from .replays import played, record_names

log = logging.getLogger(__name__)

BUSY_POLL: Final = 0.2  # seconds between looks at the computers' queue while it is busy
SAY_WAITING_AFTER: Final = 5.0  # seconds a review waits for the computers before it says so

Send = Callable[[int, str, Review], Awaitable[None]]
"""Sends a finished review to its person's private chat (user id, their language)."""
Tell = Callable[[int, str, str], Awaitable[None]]
"""Tells a person that their review waits (user id, their language, the game's id)."""


@dataclass(frozen=True, slots=True)
class Asked:
    """A review asked for: ``ahead`` reviews wait before it (0: it is next or being made);
    ``review`` when it was made already (sent again at once)."""

    ahead: int
    review: Review | None = None


@dataclass(frozen=True, slots=True)
class _Job:
    finished: FinishedGame
    user_id: int
    seat: int


def _lowest_priority() -> None:
    """A review's process: last in line for the CPU (initializer of its pool)."""
    with contextlib.suppress(OSError):
        os.nice(19)


def review_pool(processes: int) -> Executor | None:
    """The reviews' own pool; None (0 processes): a thread of this process (tests)."""
    if processes <= 0:
        return None
    return ProcessPoolExecutor(processes, initializer=_lowest_priority)


def reviewable(finished: FinishedGame) -> bool:
    """The open games: a blind game's moves are guesses no search of a view can judge."""
    return finished.settings.rules.blind is Blind.OFF


class Reviews:
    """The line of reviews asked for in this worker, and the task that makes them."""

    def __init__(
        self,
        storage: Storage,
        send: Send,
        tell_waiting: Tell,
        computers_busy: Callable[[], bool],
        *,
        pool: Executor | None = None,
    ) -> None:
        self.storage = storage
        self.send = send
        self.tell_waiting = tell_waiting
        self.computers_busy = computers_busy
        self.pool = pool
        self.line: deque[_Job] = deque()
        self.making: _Job | None = None
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)

    async def ask(self, finished: FinishedGame, user_id: int) -> Asked:
        """Line up ``user_id``'s review of ``finished`` (their seat in it), unless it was
        made: then it is sent again at once."""
        seat = finished.seat_of(user_id)
        assert seat is not None
        kept = await self.storage.reviews.get(finished.chat_id, finished.game_id, user_id)
        if kept is not None:
            review = Review.from_dict(kept)
            await self.send(user_id, finished.players[seat].language, review)
            return Asked(0, review)
        job = _Job(finished, user_id, seat)
        waiting = [*([self.making] if self.making else []), *self.line]
        for index, other in enumerate(waiting):
            if (other.finished.game_id, other.user_id) == (finished.game_id, user_id):
                return Asked(index)  # asked twice: once in line
        self.line.append(job)
        self.wake.set()
        return Asked(len(waiting))

    async def _run(self) -> None:
        while True:
            if not self.line:
                self.wake.clear()
                await self.wake.wait()
                continue
            job = self.making = self.line.popleft()
            try:
                review = await self.make(job.finished, job.seat)
                await self.storage.reviews.save(
                    job.finished.chat_id, job.finished.game_id, job.user_id, review.to_dict()
                )
                await self.send(job.user_id, job.finished.players[job.seat].language, review)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the review of %s for %s failed", job.finished.game_id, job.user_id)
            finally:
                self.making = None

    async def make(self, finished: FinishedGame, seat: int) -> Review:
        """The review of ``seat``'s decisions in ``finished``: each judged in the pool,
        after the computers' waiting moves."""
        actions, _resigned = played(finished)
        judged: list[Judgment] = []
        loop = asyncio.get_running_loop()
        chosen = list(decisions(finished.deal.start, actions, seat))
        for decision in chosen:
            await self._after_computers(finished, seat)
            judged.append(await loop.run_in_executor(self.pool, _judge, decision))
        names = record_names(finished.players)
        moments = tuple(
            Moment(
                j.index,
                action_to_dict(j.played, names),
                action_to_dict(j.preferred, names),
                j.before,
                j.after,
            )
            for j in costliest(judged)
        )
        return Review(finished.game_id, len(chosen), moments)

    async def _after_computers(self, finished: FinishedGame, seat: int) -> None:
        """Wait while a computer's move waits for its turn to think; say so to the seat's
        person once the wait is long."""
        waited, told = 0.0, False
        while self.computers_busy():
            if waited >= SAY_WAITING_AFTER and not told:
                told = True
                person = finished.players[seat]
                await self.tell_waiting(person.user_id, person.language, finished.game_id)
            await asyncio.sleep(BUSY_POLL)
            waited += BUSY_POLL


def _judge(decision: Decision) -> Judgment:
    """``engine.ai.review.judge`` with its defaults, seeded by the decision's place: the
    same game gives the same review wherever it is made."""
    return judge(decision, seed=decision.index)
