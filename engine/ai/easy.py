"""``easy``: a beginner. Always legal, a little careless, never absurd.

It picks at random among moves a beginner would call sensible, rather than the best one:
one of the three cheapest openings; any plain card that covers (a trump only when no plain
card does, and then it sometimes takes instead); a cheap card thrown in half of the time.
It never takes when a plain card covers, and never spends an ace of trumps in the first
bout, nor opens with it while it holds another card.
"""

from __future__ import annotations

import random
from typing import Final

from ..actions import Action, Attack, Defend, Pass, Take, Throw, Transfer
from ..cards import RANKS_PER_SUIT
from .heuristics import RANK_ACE, RANK_QUEEN, cost, find_cards, is_trump, leads
from .knowledge import Knowledge

OPENINGS: Final = 3  # it opens with one of this many cheapest openings
THROW_CHANCE: Final = 0.5
TAKE_CHANCE: Final = 0.3  # when only a trump covers


def decide(knowledge: Knowledge, legal: list[Action], rng: random.Random) -> Action:
    if len(legal) == 1:
        return legal[0]
    view = knowledge.view
    trump = knowledge.trump
    if any(isinstance(a, Attack) for a in legal):
        options = leads(view.hand, trump, view.limit or 1, knowledge.top)[:OPENINGS]
        if len(options) > 1:
            options = [o for o in options if not _trump_ace(o[0], trump)] or options
        lead = options[int(rng.random() * len(options))]
        action = find_cards(legal, Attack, lead)
        if action is not None:
            return action
        return min(legal, key=lambda a: cost(a.cards[0], trump) if isinstance(a, Attack) else 99)
    if view.seat == view.defender:
        return _defend(knowledge, legal, rng)
    throws = [
        a
        for a in legal
        if isinstance(a, Throw)
        and len(a.cards) == 1
        and (
            view.stock_size == 0
            or (not is_trump(a.cards[0], trump) and a.cards[0] % RANKS_PER_SUIT <= RANK_QUEEN)
        )
    ]
    if throws and rng.random() < THROW_CHANCE:
        return throws[int(rng.random() * len(throws))]
    return next(a for a in legal if isinstance(a, Pass))


def _defend(knowledge: Knowledge, legal: list[Action], rng: random.Random) -> Action:
    trump = knowledge.trump
    first_bout = knowledge.view.bouts_played == 0
    take = next(a for a in legal if isinstance(a, Take))
    transfers = [a for a in legal if isinstance(a, Transfer) and not is_trump(a.card, trump)]
    if transfers and rng.random() < THROW_CHANCE:
        return transfers[int(rng.random() * len(transfers))]
    covers = [a for a in legal if isinstance(a, Defend)]
    plain = [a for a in covers if not is_trump(a.card, trump) and a.card != knowledge.top]
    if plain:
        return plain[int(rng.random() * len(plain))]
    trumps = [a for a in covers if not (first_bout and _trump_ace(a.card, trump))]
    if not trumps or rng.random() < TAKE_CHANCE:
        return take
    return min(trumps, key=lambda a: cost(a.card, trump))


def _trump_ace(card: int, trump: int) -> bool:
    return is_trump(card, trump) and card % RANKS_PER_SUIT == RANK_ACE


__all__ = ["decide"]
