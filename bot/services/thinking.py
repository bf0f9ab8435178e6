"""The computers' budget of thinking: which waiting table's computer decides next, and how
long a ``hard`` one may search (``ThinkingQueue``), in one process of the bot.

Fair across tables: a decision waits in its share's line, and the shares are served in
turn (round robin), one decision each per round, for both limits a decision needs: a start
(at most ``per_second`` decisions start a second, so computers never take the event loop
from people) and, for a search, a place in the pool (``places`` searches at once, one per
process). A share is a table, or a person alone with computers at several tables (their
tables share one turn, ``share_of``): a table's wait depends on how many shares wait, never
on how many computers another table has or how many tables one person opened. A decision
that needs no place (``easy``, ``normal``) passes a search that waits for one.

When the pool is busy a search gets less time rather than waiting longer: its budget is the
pool's time for the next ``within`` seconds shared among the searches waiting, so the last
of them still starts within about ``within`` seconds, and a table of people does not wait
half a minute for a computer that thinks 300 ms while two hundred other tables wait. We
chose this over letting every search take its full budget in turn because the people at the
table wait for the computer's move, and a move some seconds late costs them more than a
search a little shallower. The budget never goes below ``MIN_BUDGET_MS``: past that, the
searches wait their turn. Every shortened search is counted (``durak_computer_degraded_total
{reason="short_budget"}``), never silent.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Final

from bot.model import ChatGame

# Seconds by which a waiting search should start: well inside the 10 s (p99) from a move
# being due to its being saved that we aim for, and a beat people at the table still accept.
WITHIN: Final = 3.0
MIN_BUDGET_MS: Final = 20.0  # below this a search samples too few worlds to be worth it
REMEMBERED: Final = 10_000  # shares whose last turn is remembered, the latest


def share_of(game: ChatGame) -> str:
    """Whose share of the computers' thinking a decision at ``game``'s table is: the person's
    if one person sits with computers (in their private chat or in a group: however many
    such tables they open, one share), else the table's."""
    people = [player.user_id for player in game.players if not player.computer]
    return f"person:{people[0]}" if len(people) == 1 else f"table:{game.chat_id}"


class Turn:
    """A decision's turn: ``budget_ms`` for a search (None for a decision that searches
    not), ``short`` when that is less than the full budget. A search's place is given back
    when its job ends (``running``), which may be after the turn: a search that overran
    still occupies its process."""

    def __init__(self, queue: ThinkingQueue, budget_ms: float | None, short: bool) -> None:
        self.queue = queue
        self.budget_ms = budget_ms
        self.short = short
        self.job: asyncio.Future[Any] | None = None
        self._held = budget_ms is not None

    def running(self, job: asyncio.Future[Any]) -> None:
        """The search now runs as ``job``: its place is free once the job ends."""
        self.job = job
        job.add_done_callback(self._job_done)

    def _job_done(self, job: asyncio.Future[Any]) -> None:
        if not job.cancelled():
            job.exception()  # an overrun job's failure was told already, or nobody waits
        self.release()

    def end(self) -> None:
        """The turn is over: the place is free unless a job still runs in it."""
        if self.job is None or self.job.done():
            self.release()

    def release(self) -> None:
        if self._held:
            self._held = False
            self.queue.place_freed()


@dataclass
class _Waiter:
    searching: bool
    future: asyncio.Future[Turn] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class ThinkingQueue:
    """``places``: searches at once; ``per_second``: decisions started a second at most;
    ``budget_ms``: a search's full budget; ``clock``: monotonic seconds, the event loop's."""

    def __init__(
        self,
        *,
        places: int,
        per_second: float,
        budget_ms: float,
        within: float = WITHIN,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.places = places
        self.searching = 0  # places taken
        self.interval = 1.0 / per_second
        self.budget_ms = budget_ms
        self.within = within
        self.clock = clock
        self.next_start = 0.0
        self.lines: dict[str, deque[_Waiter]] = {}  # each share's waiting decisions
        # Shares by when they were last served, longest ago first: the round's order, which
        # a share keeps while it has nothing waiting (it was served just now, wait or not).
        self.served: OrderedDict[str, int] = OrderedDict()
        self.turns = 0  # turns given, to stamp ``served``
        self._timer: asyncio.TimerHandle | None = None

    def waiting(self) -> int:
        return sum(len(line) for line in self.lines.values())

    @contextlib.asynccontextmanager
    async def turn(self, share: str, *, searching: bool) -> AsyncIterator[Turn]:
        """Wait for ``share``'s turn (and a place in the pool if ``searching``)."""
        waiter = _Waiter(searching)
        self.lines.setdefault(share, deque()).append(waiter)
        self._grant()
        try:
            turn = await waiter.future
        except asyncio.CancelledError:
            self._forget(share, waiter)
            raise
        try:
            yield turn
        finally:
            turn.end()

    def place_freed(self) -> None:
        self.searching -= 1
        self._grant()

    def _forget(self, share: str, waiter: _Waiter) -> None:
        """A waiter cancelled: out of its line, or its place back if it was granted one."""
        line = self.lines.get(share)
        if line is not None and waiter in line:
            line.remove(waiter)
            if not line:
                del self.lines[share]
        elif waiter.future.done() and not waiter.future.cancelled():
            waiter.future.result().end()

    def _grant(self) -> None:
        """Give turns while a start and the place a waiter needs are free: to the waiting
        share served longest ago (never served: first), which then goes to the end."""
        while self.lines:
            now = self.clock()
            if now < self.next_start:
                self._wake_at(self.next_start - now)
                return
            ready = [s for s, line in self.lines.items() if self._can_go(line[0])]
            if not ready:
                return  # searches wait for a place; place_freed calls again
            share = min(ready, key=lambda s: self.served.get(s, -1))
            line = self.lines[share]
            waiter = line.popleft()
            if not line:
                del self.lines[share]
            self._served(share)
            self.next_start = max(now, self.next_start) + self.interval
            if waiter.future.cancelled():
                continue
            waiter.future.set_result(self._turn(waiter.searching))

    def _served(self, share: str) -> None:
        self.turns += 1
        self.served[share] = self.turns
        self.served.move_to_end(share)
        while len(self.served) > REMEMBERED:
            self.served.popitem(last=False)  # forgotten: first in line anyway, as before

    def _can_go(self, waiter: _Waiter) -> bool:
        return not waiter.searching or self.searching < self.places

    def _turn(self, searching: bool) -> Turn:
        if not searching:
            return Turn(self, None, short=False)
        self.searching += 1
        behind = sum(w.searching for line in self.lines.values() for w in line)
        share_ms = self.places * self.within * 1000 / (behind + 1)
        budget = min(self.budget_ms, max(MIN_BUDGET_MS, share_ms))
        return Turn(self, budget, short=budget < self.budget_ms)

    def _wake_at(self, delay: float) -> None:
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(delay, self._woken)

    def _woken(self) -> None:
        self._timer = None
        self._grant()
