"""Players and tools for measuring, not offered to people.

* ``hard-v1`` (``hard_v1.py``): the first ``hard``, kept to measure the current one against.
  Honest: it sees only what its seat may know, as the levels offered to people do.
* ``hard-seer`` (``seer.py``): ``hard`` that sees every hand, the most better inference
  could give ``hard``; cheating by design, so an experiment (``EXPERIMENTS``), never a level.
* ``speed.py``: how much ``hard`` and ``hard-v1`` search a decision:

      python -m engine.ai.lab.speed [--positions N] [--budget-ms M] [--seed S] [--json]

``engine.arena`` plays these players by name beside ``engine.ai``'s levels, through
``choose_action`` here. ``engine.ai`` never imports this package, so what people are
offered (``engine.ai.LEVELS``, ``engine.ai.choose_action``, which refuses these names) never
loads a player kept only for measuring.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from ...actions import Action
from ...state import GameState
from .. import LEVELS
from .. import choose_action as choose_offered
from . import hard_v1, seer

# The lab's honest players: they may be compared with the offered levels in every test of
# honesty and repeatability.
HONEST: Final[tuple[str, ...]] = ("hard-v1",)
EXPERIMENTS: Final[tuple[str, ...]] = seer.EXPERIMENTS
# The honest levels the arena plays: the offered ones and the lab's.
ARENA_LEVELS: Final[tuple[str, ...]] = (*LEVELS, *HONEST)
# Every name the arena accepts for a side.
PLAYABLE: Final[tuple[str, ...]] = (*ARENA_LEVELS, *EXPERIMENTS)


def choose_action(
    state: GameState,
    seat: int,
    level: str,
    *,
    seed: int | str | None = None,
    budget_ms: float | None = None,
    iterations: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Action:
    """The action of ``level``, any of ``PLAYABLE``, for ``seat``: the offered levels through
    ``engine.ai.choose_action``, the lab's here; the arguments as there."""
    if level == "hard-v1":
        return hard_v1.choose_action(
            state, seat, seed=seed, budget_ms=budget_ms, iterations=iterations, clock=clock
        )
    if level in EXPERIMENTS:
        return seer.choose_action(
            state, seat, seed=seed, budget_ms=budget_ms, iterations=iterations, clock=clock
        )
    return choose_offered(
        state, seat, level, seed=seed, budget_ms=budget_ms, iterations=iterations, clock=clock
    )


__all__ = ["ARENA_LEVELS", "EXPERIMENTS", "HONEST", "PLAYABLE", "choose_action"]
