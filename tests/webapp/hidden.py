"""What the Mini App's tests look for in what a page was sent: the cards it names, and the
cards hidden from its viewer (RULES.md §11)."""

from __future__ import annotations

from collections.abc import Iterator

from engine import GameState
from engine.cards import CARDS

CARD_NAMES = {str(card) for card in CARDS}


def strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def cards_in(message: object) -> set[str]:
    """Every card a message names (as a whole string: "7H"), wherever it is."""
    return {text for text in strings(message) if text in CARD_NAMES}


def hidden_from(state: GameState, seat: int | None) -> set[str]:
    """The cards in the other seats' hands that nobody has seen there (``state.known`` is
    per holder: cards seen taken, and the face-up trump card): hidden from ``seat`` (None: a
    watcher)."""
    return {
        str(card)
        for other in range(state.players)
        if other != seat
        for card in state.hand(other)
        if not (state.known[other] >> card) & 1 and card != state.trump_card
    }
