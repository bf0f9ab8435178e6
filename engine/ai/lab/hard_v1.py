"""``hard-v1``: the first ``hard``, kept to measure the current one against (``python -m
engine.arena hard hard-v1``); not offered to players. Determinized Monte Carlo on the
public object API, and the endgame played exactly. Like every level offered to people it
sees only what its seat may know.

Every iteration deals the cards the seat has not seen into a world consistent with its
knowledge (``sampling.determinize``; a world is kept only if the same seats may act in it as
at the real table, because an automatic pass tells that a thrower holds nothing to add),
then plays each candidate move in that world and the game to its end with the quick greedy
policy (``playout``). The candidate that ends best on average over the worlds is played;
every candidate sees the same worlds, so luck in the deal does not favour one of them.

With the stock empty and two players left nothing is hidden: ``endgame`` solves the game
exactly, and only if it does not fit in the budget is sampling used.

It runs on the engine's public object API, a ``GameState`` per world and per move of a
playout: ``hard.py`` does the same work on the search API, several times faster.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Final

from ...actions import Action, Attack, Throw
from ...errors import IllegalAction
from ...moves import legal_actions
from ...play import apply
from ...state import GameState
from ...view import view_for
from .. import NotToAct, exchange_in, normal
from ..budget import Budget, pause_collector, resume_collector
from ..endgame import Unsolved, best, is_endgame, solver_for
from ..knowledge import Knowledge, knowledge_from_view
from ..playout import play_out, score
from ..sampling import determinize

WORLD_TRIES: Final = 30  # deals tried for one world consistent with who may act
ENDGAME_SHARE: Final = 0.6  # of a time budget, for the exact endgame before sampling
# Candidates clearly behind are dropped, so the playouts go to the moves still in doubt:
# after PRUNE_AFTER worlds, a candidate PRUNE_GAP results (a fraction of the worlds, at
# least PRUNE_MIN) behind the best one is not played out any more.
PRUNE_AFTER: Final = 8
PRUNE_GAP: Final = 0.3
PRUNE_MIN: Final = 3.0
PRUNE = True


def choose_action(
    state: GameState,
    seat: int,
    *,
    seed: int | str | None = None,
    budget_ms: float | None = None,
    iterations: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Action:
    """``hard-v1``'s action for ``seat``; the arguments as ``engine.ai.choose_action``'s, and
    the same steps: from the seat's view and the discard it watched, the exchange of the
    lowest trump first (R-SIX)."""
    collecting = pause_collector()  # first of all (``budget.pause_collector``)
    try:
        legal = legal_actions(state, seat)
        if not legal:
            raise NotToAct(f"seat {seat} has nothing to do now")
        rng = random.Random(seed)
        exchange = exchange_in(legal)
        if exchange is not None:
            return exchange
        knowledge = knowledge_from_view(view_for(state, seat), state.discard)
        return decide(knowledge, legal, rng, Budget(budget_ms, iterations, clock))
    finally:
        resume_collector(collecting)


def decide(knowledge: Knowledge, legal: list[Action], rng: random.Random, budget: Budget) -> Action:
    candidates = _candidates(knowledge, legal, rng)
    if len(candidates) == 1:
        return candidates[0]
    view = knowledge.view
    if view.stock_size == 0 and len(view.out) == len(view.hand_sizes) - 2:
        world = sample_world(knowledge, rng)
        if world is not None and is_endgame(world):
            try:
                return best(solver_for(view.seat, budget, ENDGAME_SHARE), world, candidates)[0]
            except Unsolved:
                pass
    return monte_carlo(knowledge, candidates, rng, budget)


def monte_carlo(
    knowledge: Knowledge, candidates: list[Action], rng: random.Random, budget: Budget
) -> Action:
    """The candidate with the best average result over sampled worlds and playouts."""
    seat = knowledge.view.seat
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    alive = list(range(len(candidates)))
    worlds = 0
    started: float | None = None
    while budget.another(worlds, started):
        started = budget.now()
        world = sample_world(knowledge, rng)
        worlds += 1
        if world is None:
            continue
        if PRUNE and worlds > PRUNE_AFTER and len(alive) > 1:
            best_total = max(totals[i] for i in alive)
            gap = max(PRUNE_MIN, PRUNE_GAP * worlds)
            alive = [i for i in alive if totals[i] > best_total - gap]
        for index in alive:
            action = candidates[index]
            if budget.out_of_time():
                break  # a world cut short: its candidates so far still count
            try:
                after, _ = apply(world, action)
            except IllegalAction:  # pragma: no cover - the world lets the seat act as it may
                continue
            totals[index] += score(play_out(after, rng), seat)
            counts[index] += 1

    def mean(index: int) -> float:
        return totals[index] / counts[index] if counts[index] else -1.0

    return candidates[max(alive, key=mean)]


def sample_world(knowledge: Knowledge, rng: random.Random) -> GameState | None:
    """A world in which the same seats may act as at the real table, or None if none of
    ``WORLD_TRIES`` deals was one."""
    to_act = knowledge.view.to_act
    for _ in range(WORLD_TRIES):
        world = determinize(knowledge, rng)
        if world.acting == to_act:
            return world
    return None


def _candidates(knowledge: Knowledge, legal: list[Action], rng: random.Random) -> list[Action]:
    """The moves worth searching: every single card, every cover, take, pass and transfer,
    and of the many sets of several cards only the one ``normal`` would lay. ``normal``'s
    own choice comes first, so that it wins ties."""
    preferred = normal.decide(knowledge, legal, rng)
    kept = [preferred]
    for action in legal:
        if action == preferred:
            continue
        if isinstance(action, Attack | Throw) and len(action.cards) > 1:
            continue
        kept.append(action)
    return kept


__all__ = ["choose_action", "decide", "monte_carlo", "sample_world"]
