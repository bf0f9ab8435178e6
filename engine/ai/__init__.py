"""Computer players: ``choose_action(state, seat, level)`` for a seat that may act.

>>> from engine import new_game, to_act
>>> state = new_game(2, seed=7)
>>> seat = to_act(state)[0]
>>> choose_action(state, seat, "normal")
Attack(player=0, cards=(Card('6S'),))

Levels (``LEVELS``):

* ``random``: uniform among the legal actions, for reference;
* ``easy``: a beginner, random among sensible moves (``easy.py``);
* ``normal``: a good heuristic player that counts cards (``normal.py``);
* ``hard``: determinized Monte Carlo search and an exact endgame on the fast core
  (``hard.py``).

Players kept only for measuring (the first ``hard``, ``hard-v1``; ``hard-seer``, which sees
every hand) are in ``engine.ai.lab``, which the arena plays and this package never imports:
``choose_action`` refuses their names.

Honesty: a level sees what the seat may know and nothing else: ``knowledge.seat_knowledge``
(the seat's ``view_for`` and the discard it watched) and the legal actions the table offers
the seat, which follow from its own hand and the public table. Cards hidden from the seat
can be swapped about without changing a decision made with the same seed.

Time: ``easy`` and ``normal`` decide in well under 5 ms. ``hard`` thinks for ``budget_ms``
(default 300) or, with ``iterations=N``, for exactly N sampled worlds, which makes it a pure
function of the view and the seed whatever the machine's speed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Final, Literal, get_args

from ..actions import Action, Exchange
from ..cards import Suit
from ..moves import legal_actions
from ..state import GameState
from ..view import SeatView, view_for
from . import blind, easy, hard, normal
from .blind import blind_knowledge
from .budget import Budget, pause_collector, resume_collector
from .knowledge import Knowledge, knowledge_from_view
from .playout import who_acts

Level = Literal["random", "easy", "normal", "hard"]
LEVELS: Final[tuple[str, ...]] = get_args(Level)


class NotToAct(ValueError):
    """The seat has nothing to do now (not its turn, or the game is over)."""


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
    """The action the computer player ``level`` takes for ``seat``, one of
    ``legal_actions(state, seat)``. ``seed`` makes a decision repeatable (with
    ``iterations`` also for ``hard``); ``budget_ms`` and ``iterations`` bound ``hard``;
    ``clock`` is what ``budget_ms`` is counted on (the arena may count CPU time)."""
    collecting = pause_collector()  # first of all: a caller times all of it
    try:
        return _choose_for_view(
            view_for(state, seat),
            watched_discard(state),
            legal_actions(state, seat),
            level,
            seed=seed,
            budget_ms=budget_ms,
            iterations=iterations,
            clock=clock,
        )
    finally:
        resume_collector(collecting)


def watched_discard(state: GameState) -> int:
    """The discard every seat watched go by, as a mask: every card beaten off face up, not
    the covers believed unseen (R-DOUBT-5). What a computer player is given of it."""
    return state.discard & ~state.unseen


def choose_for_view(
    view: SeatView,
    discard: int,
    legal: list[Action],
    level: str,
    *,
    seed: int | str | None = None,
    budget_ms: float | None = None,
    iterations: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Action:
    """``choose_action`` from what the seat may know, without the state: its ``view_for``,
    the discard it watched (a mask of cards) and its ``legal_actions``. For a caller that
    hands the decision to another process: only this crosses over."""
    collecting = pause_collector()  # first of all (``budget.pause_collector``)
    try:
        return _choose_for_view(view, discard, legal, level, seed, budget_ms, iterations, clock)
    finally:
        resume_collector(collecting)


def _choose_for_view(
    view: SeatView,
    discard: int,
    legal: list[Action],
    level: str,
    seed: int | str | None,
    budget_ms: float | None,
    iterations: int | None,
    clock: Callable[[], float],
) -> Action:
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: use one of {', '.join(LEVELS)}")
    if not legal:
        raise NotToAct(f"seat {view.seat} has nothing to do now")
    rng = random.Random(seed)
    if level == "random":
        return legal[int(rng.random() * len(legal))]
    if view.blind:  # RULES.md section 14
        budget = Budget(budget_ms, iterations, clock)
        return blind.decide(blind_knowledge(view, discard), legal, level, rng, budget)
    knowledge = knowledge_from_view(view, discard)
    return decide(knowledge, legal, level, rng, Budget(budget_ms, iterations, clock))


def exchange_in(legal: list[Action]) -> Action | None:
    """The exchange of the lowest trump for the face-up card (R-SIX), if it is legal now:
    every level but ``random`` takes it at once (``decide``)."""
    return next((action for action in legal if type(action) is Exchange), None)


def decide(
    knowledge: Knowledge, legal: list[Action], level: str, rng: random.Random, budget: Budget
) -> Action:
    """``choose_action`` once the seat's knowledge is taken: no ``GameState`` in sight.

    Every level but ``random`` exchanges the lowest trump for the face-up card as soon as
    it may (R-SIX): a higher trump for the lowest one, and the turn is not used up."""
    exchange = exchange_in(legal)
    if exchange is not None:
        return exchange
    if level == "easy":
        return easy.decide(knowledge, legal, rng)
    if level == "normal":
        return normal.decide(knowledge, legal, rng)
    if level == "hard":
        return hard.decide(knowledge, legal, rng, budget)
    return legal[int(rng.random() * len(legal))]


def choose_trump(seed: int | str | None = None) -> Suit:
    """The suit a computer dealer names under ``trump: dealer`` (R-TRUMP-1). The dealer
    names it before the deal and so knows no card: every suit is as good, and any level
    picks one at random (``seed`` makes it repeatable). The bot uses it too for a dealer
    whose time runs out."""
    return Suit(random.Random(seed).randrange(4))


__all__ = [
    "LEVELS",
    "Level",
    "NotToAct",
    "choose_action",
    "choose_for_view",
    "choose_trump",
    "exchange_in",
    "watched_discard",
    "who_acts",
]
