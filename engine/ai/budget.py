"""How long a search may think: a wall-clock budget, or a fixed number of iterations.

With ``iterations`` the search does exactly that much work whatever the machine's speed, so
a decision is a pure function of the view and the seed (the honesty and determinism tests
use this). With milliseconds it stops before the deadline: it starts another iteration only
if the slowest one so far still fits.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Final

DEFAULT_HARD_MS: Final = 300
# Nodes the exact endgame solver may visit per iteration it is granted, in iterations mode;
# about what one Monte Carlo iteration costs in time.
NODES_PER_ITERATION: Final = 400


class Budget:
    """``clock``: seconds, ``time.perf_counter`` unless a test steps its own."""

    __slots__ = ("_deadline", "_slowest", "_started", "iterations", "now")

    def __init__(
        self,
        budget_ms: float | None,
        iterations: int | None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if budget_ms is not None and budget_ms <= 0:
            raise ValueError("budget_ms must be positive")
        self.iterations = iterations
        self.now = clock
        self._started = clock()
        ms = DEFAULT_HARD_MS if budget_ms is None else budget_ms
        self._deadline = self._started + ms / 1000
        self._slowest = 0.0

    @property
    def counted(self) -> bool:
        """True when the budget is a number of iterations, not time."""
        return self.iterations is not None

    def another(self, done: int, last_started: float | None = None) -> bool:
        """May iteration number ``done + 1`` start? ``last_started``: when the previous one
        began (``now()``), to learn how long one takes."""
        if self.iterations is not None:
            return done < self.iterations
        now = self.now()
        if last_started is not None:
            self._slowest = max(self._slowest, now - last_started)
        return now + self._slowest < self._deadline

    def node_limit(self) -> int | None:
        """Nodes an exact search may visit in iterations mode; None: bounded by time."""
        return None if self.iterations is None else self.iterations * NODES_PER_ITERATION

    def out_of_time(self) -> bool:
        return self.iterations is None and self.now() >= self._deadline

    def deadline_after(self, share: float) -> float:
        """The ``now()`` time by which ``share`` of the whole budget is spent."""
        return self._started + (self._deadline - self._started) * share

    def elapsed_ms(self) -> float:
        return (self.now() - self._started) * 1000


def pause_collector() -> bool:
    """Turn the cycle collector off; True if it was on (give that to ``resume_collector``).
    A decision's search trees, positions and endgame table hold no cycles (their memory goes
    back as they are dropped), while a full collection walks every object of a long-lived
    process: tens of milliseconds past a budget. A decision's first statement, and not a
    ``with`` block: entering one makes a generator and its context manager, objects the
    collector counts, and the one that crosses its threshold runs a collection there, on
    the caller's time."""
    collecting = gc.isenabled()
    gc.disable()
    return collecting


def resume_collector(collecting: bool) -> None:
    if collecting:
        gc.enable()


__all__ = [
    "DEFAULT_HARD_MS",
    "NODES_PER_ITERATION",
    "Budget",
    "pause_collector",
    "resume_collector",
]
