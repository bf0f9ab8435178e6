"""``hard-seer``: an experiment for the arena only, never a level players are offered.

``hard`` whose worlds deal every hidden card of the other hands where it truly is: it sees
the opponents' hands (the stock's hidden cards are still dealt at random, in a random order,
since no inference could ever tell their order). Everything else is ``hard``'s: its
candidates (``normal``'s move first, from the seat's honest knowledge), the tree, the exact
endgame. Against ``normal`` it measures the most that better worlds (inference from the
play) could give ``hard``: the ceiling of inference.

It reads the whole ``GameState``, so it is cheating by design: it is not among the honest
levels (``engine.ai.LEVELS``, ``engine.ai.lab.ARENA_LEVELS``) and ``engine.ai.choose_action``
refuses it; only ``engine.arena`` plays it, by name (``EXPERIMENTS``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ...actions import Action
from ...moves import legal_actions
from ...state import GameState
from ...view import view_for
from .. import exchange_in, hard
from ..budget import Budget, pause_collector, resume_collector
from ..knowledge import Knowledge, knowledge_from_view
from ..worlds import Worlds

EXPERIMENTS = ("hard-seer",)


class SeerWorlds(Worlds):
    """``Worlds`` with the other hands as they truly are (``hands``: every seat's mask);
    only the stock's hidden cards dealt anew."""

    __slots__ = ()

    def __init__(self, knowledge: Knowledge, rng: random.Random, hands: tuple[int, ...]) -> None:
        super().__init__(knowledge, rng)
        held = 0
        for index, seat in enumerate(self._others):
            self._seen[index] = hands[seat]
            self._counts[index] = 0
            self._unlikely[index] = 0
            held |= hands[seat]
        self._unseen = [card for card in self._unseen if not (held >> card) & 1]


def choose_action(
    state: GameState,
    seat: int,
    *,
    seed: int | str | None = None,
    budget_ms: float | None = None,
    iterations: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Action:
    """``hard-seer``'s action for ``seat`` (see above); the arguments as
    ``engine.ai.choose_action``'s."""
    collecting = pause_collector()  # first of all (``budget.pause_collector``)
    try:
        legal = legal_actions(state, seat)
        exchange = exchange_in(legal)  # as every level but ``random``
        if exchange is not None:
            return exchange
        knowledge = knowledge_from_view(view_for(state, seat), state.discard)
        hands = state.hands

        def worlds_for(knowledge: Knowledge, rng: random.Random) -> Worlds:
            return SeerWorlds(knowledge, rng, hands)

        rng = random.Random(seed)
        budget = Budget(budget_ms, iterations, clock)
        return hard.decide(knowledge, legal, rng, budget, worlds_for)
    finally:
        resume_collector(collecting)


__all__ = ["EXPERIMENTS", "SeerWorlds", "choose_action"]
