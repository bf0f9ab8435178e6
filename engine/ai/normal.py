"""``normal``: a good heuristic player, no search.

* Opening a bout: the cheapest rank it holds, all its plain cards of that rank at once;
  trumps only when nothing else is left. With the stock empty it counts cards: a card no
  card still in play can beat is kept for the end, when it wins the last bout.
* Defending: a transfer with a cheap plain card when one is allowed; otherwise the cheapest
  covers (``heuristics.cover_plan``), unless covering would spend a high trump or several
  trumps on a few cheap cards while the stock is still large: then it takes.
* Throwing in: cheap plain cards while the stock is large, anything it may once the stock is
  empty (every card gone is a step out of the game); it never throws trumps before that.
"""

from __future__ import annotations

import random
from typing import Final

from ..actions import Action, Attack, Pass, Take, Throw, Transfer
from ..cards import RANKS_PER_SUIT, Card
from .heuristics import (
    RANK_JACK,
    RANK_KING,
    RANK_QUEEN,
    RANK_TEN,
    cost,
    cover_plan,
    find_cards,
    find_defend,
    is_trump,
    leads,
)
from .knowledge import Knowledge

EARLY_STOCK: Final = 10  # a stock this large or larger: it is early, keep the trumps


def decide(knowledge: Knowledge, legal: list[Action], rng: random.Random) -> Action:
    """The action ``normal`` plays; ``rng`` is not used (it plays the same way every time)."""
    del rng
    if len(legal) == 1:
        return legal[0]
    view = knowledge.view
    if any(isinstance(a, Attack) for a in legal):
        return _open(knowledge, legal)
    if view.seat == view.defender:
        return _defend(knowledge, legal)
    return _throw(knowledge, legal)


def _open(knowledge: Knowledge, legal: list[Action]) -> Action:
    view = knowledge.view
    trump = knowledge.trump
    options = leads(view.hand, trump, view.limit or 1, knowledge.top)
    if view.stock_size == 0 and len(options) > 1:
        # Counting cards: keep the cards nobody can beat for last.
        options.sort(key=lambda lead: knowledge.beaters_elsewhere(lead[0]) == 0)
    for lead in options:
        action = find_cards(legal, Attack, lead)
        if action is not None:
            return action
    return min(
        (a for a in legal if isinstance(a, Attack)), key=lambda a: cost(a.cards[0], trump)
    )  # unreachable with the engine's rules: every single card is a legal opening


def _defend(knowledge: Knowledge, legal: list[Action]) -> Action:
    view = knowledge.view
    trump = knowledge.trump
    uncovered = [attack for attack, cover in view.table if cover is None]
    top = knowledge.top
    plan = cover_plan(knowledge.hand, uncovered, trump, knowledge.beaters, top)
    transfers = [a for a in legal if isinstance(a, Transfer)]
    if transfers:
        best = min(transfers, key=lambda a: cost(a.card, trump, top))
        cheapest_cover = None if plan is None else max(cost(c, trump, top) for _, c in plan)
        if not is_trump(best.card, trump) and (
            cheapest_cover is None or cost(best.card, trump, top) <= cheapest_cover
        ):
            return best
        if plan is None and (
            view.stock_size < EARLY_STOCK or best.card % RANKS_PER_SUIT < RANK_TEN
        ):
            return best
    take = next(a for a in legal if isinstance(a, Take))
    if plan is None or _covering_costs_too_much(knowledge, plan):
        return take
    attack, cover = plan[0]
    action = find_defend(legal, cover, attack)
    return take if action is None else action


def _covering_costs_too_much(knowledge: Knowledge, plan: list[tuple[Card, Card]]) -> bool:
    """Early in the game a few cheap cards are worth taking rather than a high trump or two
    trumps: the trumps win later bouts, and the cheap cards go out again as openings."""
    view = knowledge.view
    if view.stock_size < EARLY_STOCK:
        return False
    trump = knowledge.trump
    table = [c for pair in view.table for c in pair if c is not None]
    if len(table) > 2 or any(is_trump(c, trump) or c % RANKS_PER_SUIT > RANK_TEN for c in table):
        return False
    trumps = [c for _, c in plan if is_trump(c, trump)]
    return len(trumps) >= 2 or any(c % RANKS_PER_SUIT >= RANK_JACK for c in trumps)


def _throw(knowledge: Knowledge, legal: list[Action]) -> Action:
    view = knowledge.view
    trump = knowledge.trump
    throwable: set[Card] = set()
    for action in legal:
        if isinstance(action, Throw):
            throwable.update(action.cards)
    chosen = sorted(
        (c for c in throwable if _worth_throwing(knowledge, c)),
        key=lambda c: cost(c, trump, knowledge.top),
    )
    room = (view.limit or 0) - len(view.table)
    for size in range(min(room, len(chosen)), 0, -1):
        found = find_cards(legal, Throw, chosen[:size])
        if found is not None:
            return found
    return next(a for a in legal if isinstance(a, Pass))


def _worth_throwing(knowledge: Knowledge, card: Card) -> bool:
    view = knowledge.view
    if view.stock_size == 0:
        return True
    if is_trump(card, knowledge.trump) or card == knowledge.top:
        return False
    rank = card % RANKS_PER_SUIT
    if view.stock_size >= EARLY_STOCK:
        return rank <= (RANK_QUEEN if view.taking else RANK_TEN)
    return rank <= RANK_KING


__all__ = ["EARLY_STOCK", "decide"]
