"""What one seat knows, as card masks: the seat's view plus the discard it watched go by.

``view_for`` gives the seat's own hand, the table, the cards seen taken into other hands and
the face-up trump, but only the *size* of the discard. Every discarded card was face up on
the table before it was beaten off, so a player who pays attention knows them all (and
``normal`` is meant to count cards it has seen). ``seat_knowledge`` is therefore the one
place in ``engine/ai`` that reads a ``GameState``: it takes ``view_for(state, seat)`` and the
discard mask, nothing else. (When the view gains the discard's cards this function reads
them from there instead.)

The cards whose place the seat does not know, ``unseen``, are shared out among the other
hands (beyond the cards seen in them) and the stock (above the face-up trump):
``sampling.py`` deals them at random, consistently with the counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card, deck_mask, mask_of
from ..core import rules_beaters, top_queen
from ..state import GameState
from ..view import SeatView, view_for


@dataclass(frozen=True, slots=True)
class Knowledge:
    view: SeatView
    hand: int  # the seat's own cards
    table: int  # every card on the table
    discard: int  # every card beaten off so far
    seen: tuple[int, ...]  # per seat: cards known to be in that hand (0 for the seat itself)
    unseen: int  # cards in other hands or the stock whose place the seat does not know
    trump_in_stock: bool  # the face-up trump is still under the stock (drawn last)
    beaters: tuple[int, ...]  # per card, what beats it now (the variants' table, R-TRUMP, R-TOP)
    top: int  # the queen above every card of ``top_card`` (R-TOP), or -1
    declined: tuple[int, ...]  # per seat: cards it was seen not to play (``TableView``)

    @property
    def seat(self) -> int:
        return self.view.seat

    @property
    def trump(self) -> int:
        return int(self.view.trump)

    def hidden_count(self, seat: int) -> int:
        """How many cards of ``seat``'s hand this seat has not seen."""
        return self.view.hand_sizes[seat] - self.seen[seat].bit_count()

    def elsewhere(self) -> int:
        """Cards that are still in play but not in this seat's hand: other hands and stock."""
        held = self.unseen
        for mask in self.seen:
            held |= mask
        if self.trump_in_stock and self.view.trump_card is not None:
            held |= 1 << self.view.trump_card
        return held

    def beaters_elsewhere(self, card: Card) -> int:
        """How many cards that beat ``card`` might be in another hand or the stock."""
        return (self.beaters[card] & self.elsewhere()).bit_count()


def seat_knowledge(state: GameState, seat: int) -> Knowledge:
    """What ``seat`` knows of ``state``: its view, and the discard it saw (see above)."""
    return knowledge_from_view(view_for(state, seat), state.discard)


def knowledge_from_view(view: SeatView, discard: int) -> Knowledge:
    hand = mask_of(view.hand)
    table = 0
    for attack, cover in view.table:
        table |= 1 << attack
        if cover is not None:
            table |= 1 << cover
    seen = tuple(0 if s == view.seat else mask_of(c) for s, c in enumerate(view.seen_in_hands))
    trump_in_stock = view.trump_card_in_stock and view.trump_card is not None
    placed = hand | table | discard
    for mask in seen:
        placed |= mask
    if trump_in_stock and view.trump_card is not None:
        placed |= 1 << view.trump_card
    unseen = deck_mask(view.rules.deck) & ~placed
    beaters = rules_beaters(view.rules, int(view.trump))
    if view.epaulette_attack:
        beaters = (0,) * 52  # R-POG-2: nothing covers it
    top = top_queen(view.rules)
    declined = tuple(mask_of(cards) for cards in view.declined)
    return Knowledge(
        view, hand, table, discard, seen, unseen, trump_in_stock, beaters, top, declined
    )


__all__ = ["Knowledge", "knowledge_from_view", "seat_knowledge"]
