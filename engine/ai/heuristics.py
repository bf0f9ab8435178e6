"""How much a card is worth keeping, and the cheapest way to cover a table.

A card's *cost* is its rank (0 for a two ... 12 for an ace) plus 13 if it is a trump: every
trump outranks every plain card, and an ace of trumps (25) is the dearest card in the game.
The heuristic players spend cheap cards first and keep dear ones; the search's playouts use
the same order because it is quick and not foolish.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from ..actions import Action, Attack, Defend, Throw
from ..cards import BEATERS, RANKS_PER_SUIT, Card, iter_mask

TRUMP_BONUS: Final = 13
RANK_TEN: Final = 8  # rank index of a ten
RANK_JACK: Final = 9
RANK_QUEEN: Final = 10
RANK_KING: Final = 11
RANK_ACE: Final = 12


TOP_COST: Final = 26  # the queen above everything (R-TOP): dearer than the trump ace


def cost(card: int, trump: int, top: int = -1) -> int:
    """0..25: the rank, plus 13 for a trump; 26 for ``top``, a queen of R-TOP."""
    if card == top:
        return TOP_COST
    rank = card % RANKS_PER_SUIT
    return rank + TRUMP_BONUS if card // RANKS_PER_SUIT == trump else rank


def is_trump(card: int, trump: int) -> bool:
    return card // RANKS_PER_SUIT == trump


def cover_plan(
    hand: int,
    uncovered: Sequence[Card],
    trump: int,
    beaters: Sequence[int] | None = None,
    top: int = -1,
) -> list[tuple[Card, Card]] | None:
    """A cover for every uncovered attack card, as (attack, cover) pairs, spending cheap
    cards; None if some card cannot be covered. The hardest attack cards (the dearest) get
    their covers first, each the cheapest card left that beats it; then the pairs come back
    in the order the cards should be played: cheapest cover first. ``beaters``: what beats
    what under the table's variant (``Knowledge.beaters``; the plain game's by default);
    ``top``: the queen of R-TOP, spent last."""
    table = BEATERS[trump] if beaters is None else beaters
    left = hand
    plan = []
    for attack in sorted(uncovered, key=lambda c: -cost(c, trump, top)):
        able = left & table[attack]
        if not able:
            return None
        cover = min(iter_mask(able), key=lambda c: cost(c, trump, top))
        left &= ~(1 << cover)
        plan.append((attack, cover))
    plan.sort(key=lambda pair: cost(pair[1], trump, top))
    return plan


def find_cards(
    legal: Iterable[Action], kind: type[Attack] | type[Throw], cards: Iterable[Card]
) -> Action | None:
    """The legal ``kind`` action laying exactly ``cards``, if there is one."""
    wanted = tuple(sorted(cards))
    for action in legal:
        if isinstance(action, kind) and action.cards == wanted:
            return action
    return None


def find_defend(legal: Iterable[Action], card: Card, on: Card) -> Defend | None:
    for action in legal:
        if isinstance(action, Defend) and action.card == card and action.on == on:
            return action
    return None


def leads(hand: Iterable[Card], trump: int, limit: int, top: int = -1) -> list[list[Card]]:
    """Sensible openings: for each rank held, its plain cards together (up to ``limit``),
    or, for a rank held only in trumps, that single trump; cheapest first. ``top``, the
    queen of R-TOP, counts as a trump."""
    by_rank: dict[int, list[Card]] = {}
    for card in hand:
        by_rank.setdefault(card % RANKS_PER_SUIT, []).append(card)
    options = []
    for cards in by_rank.values():
        plain = [c for c in cards if not is_trump(c, trump) and c != top]
        options.append(plain[:limit] if plain else [min(cards, key=lambda c: cost(c, trump, top))])
    options.sort(key=lambda lead: lead_score(lead, trump, top))
    return options


def lead_score(lead: Sequence[Card], trump: int, top: int = -1) -> float:
    """Lower is a better opening: a cheap card, and more cards of it at once."""
    return min(cost(c, trump, top) for c in lead) - 1.5 * (len(lead) - 1)


__all__ = [
    "RANK_ACE",
    "RANK_JACK",
    "RANK_KING",
    "RANK_QUEEN",
    "RANK_TEN",
    "TOP_COST",
    "TRUMP_BONUS",
    "cost",
    "cover_plan",
    "find_cards",
    "find_defend",
    "is_trump",
    "lead_score",
    "leads",
]
