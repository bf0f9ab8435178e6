"""``hard``: search on the fast core. Determinized Monte Carlo, and the endgame played exactly.

Every iteration deals the cards the seat has not seen into a world consistent with its
knowledge (``worlds.Worlds``: a search ``Position``, the same seats acting as at the real
table), then plays each candidate move in that world and the game to its end with the quick
greedy policy for action codes (``engine.rollout``). The candidate that ends best on average
over the worlds is played; every candidate sees the same worlds, so luck in the deal does not
favour one of them, and candidates clearly behind stop being played out, so the playouts go
to the moves still in doubt. The score is the seat's team's result (R-TEAM-4). With ``TREE``
(the default) the iterations walk one information-set tree instead (``ismcts.py``: the
seat's own choices by UCB1, the opponents' by the playout policy 85 times in 100, else by
UCB1 too).

The candidates are every single card, every cover, take, pass and transfer, and the sets of
several plain cards of one rank (a pair laid at once can decide a bout); sets with a trump
in them only as ``normal`` would lay them.

With the stock empty and two players left nothing is hidden: ``endgame`` solves the game
exactly on positions, and only if it does not fit in the budget is sampling used. With one
or two cards left in the stock every world is solved so and the worlds weighed
(``_solved``); the tree takes over when they are too many or do not fit. The exact value
assumes a perfect opponent, so where every move loses (or the best ones all draw) it cannot
tell them apart: the tree chooses among those moves, its opponents playing as ``normal``,
who does make mistakes. Playing the first of them (the cheapest card) lost games in which
another move beats ``normal`` more often than not.

``hard-v1`` (``lab/hard_v1.py``) is the same search on the public object API, kept for the arena.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from ..actions import Action, Attack, Throw
from ..cards import RANKS_PER_SUIT
from ..codes import encode
from ..rollout import play_greedy, result_for
from . import ismcts, normal
from .budget import Budget
from .endgame import Unsolved, is_solvable, solver_for
from .knowledge import Knowledge
from .worlds import Worlds

ENDGAME_SHARE: Final = 0.6  # of a time budget, for the exact endgame before sampling
# The exact endgame starts with this many cards in the stock or fewer, two players left,
# when the worlds (the stock's hidden cards in every order) are at most SOLVED_WORLDS.
SOLVED_STOCK = 2
SOLVED_WORLDS = 12
# Candidates clearly behind are dropped: after PRUNE_AFTER worlds, a candidate PRUNE_GAP
# results (a fraction of the worlds, at least PRUNE_MIN) behind the best one is not played
# out any more.
PRUNE_AFTER: Final = 8
PRUNE_GAP: Final = 0.3
PRUNE_MIN: Final = 3.0
TREE = True  # ISMCTS (ismcts.py); False: one-ply averages over worlds (``monte_carlo``)


def decide(
    knowledge: Knowledge,
    legal: list[Action],
    rng: random.Random,
    budget: Budget,
    worlds_for: Callable[[Knowledge, random.Random], Worlds] = Worlds,
) -> Action:
    """``worlds_for``: how the worlds are dealt; only the arena's experiment ``hard-seer``
    (``engine/ai/lab/seer.py``) passes another. Its callers turn the cycle collector off first
    (``budget.pause_collector``)."""
    candidates = _candidates(knowledge, legal, rng)
    if len(candidates) == 1:
        return candidates[0]
    codes = [encode(action) for action in candidates]
    worlds = worlds_for(knowledge, rng)
    view = knowledge.view
    if view.stock_size <= SOLVED_STOCK and len(view.out) == len(view.hand_sizes) - 2:
        solved = _solved(worlds, codes, knowledge.seat, budget)
        if solved is not None:
            if len(solved) == 1:
                return candidates[solved[0]]
            # Moves the exact value cannot tell apart (all lost, or all drawn, against
            # perfect play): the tree, whose opponents play as ``normal`` does, finds the
            # one that gives a fallible opponent the most chances to go wrong.
            candidates = [candidates[index] for index in solved]
            codes = [codes[index] for index in solved]
    search = ismcts.search if TREE else monte_carlo
    return candidates[search(worlds, codes, knowledge.seat, rng, budget)]


def _solved(worlds: Worlds, codes: list[int], seat: int, budget: Budget) -> list[int] | None:
    """The indices of the codes with the best exact value over every world, weighed by the
    inference: one when that value is a win (in every world), else all that share it; None
    when the worlds are too many or not solved within ``ENDGAME_SHARE`` of the budget. One
    world (the stock empty, or only the face-up trump left in it): its best moves. Several:
    each solved as if the seat saw it, as the tree's worlds are."""
    every = worlds.every(SOLVED_WORLDS)
    if not every or not all(is_solvable(world) for world, _ in every):
        return None
    solver = solver_for(seat, budget, ENDGAME_SHARE)  # one table: worlds meet after draws
    try:
        if len(every) == 1:
            world = every[0][0]
            code, value = solver.best_code(world, codes)
            if value == 1:
                return [codes.index(code)]
            if value == -1:  # every move loses (alpha-beta found none better)
                return list(range(len(codes)))
            try:  # a draw: which other moves draw too
                values = solver.values(world, codes)
            except Unsolved:
                return [codes.index(code)]
            return [index for index, v in enumerate(values) if v == value]
        totals = [0.0] * len(codes)
        for world, weight in every:
            for index, value in enumerate(solver.values(world, codes)):
                totals[index] += weight * value
    except Unsolved:
        return None
    best = max(totals)
    if best == sum(weight for _, weight in every):  # won in every world: ``normal``'s first
        return [totals.index(best)]
    return [index for index, total in enumerate(totals) if total == best]


def monte_carlo(
    worlds: Worlds, codes: list[int], seat: int, rng: random.Random, budget: Budget
) -> int:
    """The index of the code with the best average result over sampled worlds and playouts.
    ``budget``: its iterations count worlds (one playout per candidate still in doubt); its
    time is checked before every playout, so a decision ends at most one playout late."""
    totals = [0.0] * len(codes)
    counts = [0] * len(codes)
    alive = list(range(len(codes)))
    pending: list[int] = []  # candidates still to play out in this world
    world = None
    sampled = 0
    played = 0
    started: float | None = None
    timed = not budget.counted
    while True:
        if not pending:
            if timed and budget.out_of_time():
                break
            if not timed and not budget.another(sampled):
                break
            world = worlds.sample()
            sampled += 1
            if world is None:
                continue
            if sampled > PRUNE_AFTER and len(alive) > 1:
                best_total = max(totals[i] for i in alive)
                gap = max(PRUNE_MIN, PRUNE_GAP * sampled)
                alive = [i for i in alive if totals[i] > best_total - gap]
            pending = alive[::-1]
        if timed and not budget.another(played, started):
            break  # a world cut short: its candidates so far still count
        started = budget.now()
        index = pending.pop()
        assert world is not None
        trial = world.copy()
        trial.apply(codes[index])
        play_greedy(trial, rng)
        totals[index] += result_for(trial, seat)
        counts[index] += 1
        played += 1

    def mean(index: int) -> float:
        return totals[index] / counts[index] if counts[index] else -1.0

    return max(alive, key=mean)


def _candidates(knowledge: Knowledge, legal: list[Action], rng: random.Random) -> list[Action]:
    """The moves worth searching (see above). ``normal``'s own choice comes first, so that
    it wins ties."""
    preferred = normal.decide(knowledge, legal, rng)
    trump = knowledge.trump
    kept = [preferred]
    for action in legal:
        if action == preferred:
            continue
        if isinstance(action, Attack | Throw) and len(action.cards) > 1:
            ranks = {card % RANKS_PER_SUIT for card in action.cards}
            plain = all(card // RANKS_PER_SUIT != trump and card != knowledge.top
                        for card in action.cards)  # fmt: skip
            if len(ranks) > 1 or not plain:
                continue
        kept.append(action)
    return kept


__all__ = ["decide", "monte_carlo"]
