"""What the Mini App's tests look for in what a page was sent: the cards it names, and the
cards hidden from its viewer (RULES.md §11, and section 14 for the blind family)."""

from __future__ import annotations

from collections.abc import Iterator

from engine import Blind, Card, GameState
from engine.cards import CARDS, cards_of

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
    """The cards hidden from ``seat`` (None: a watcher).

    In the open game, the cards in the other seats' hands that nobody has seen there
    (``state.known`` is per holder: cards seen taken, and the face-up trump card). In the
    blind family (RULES.md section 14), what its rules hide, and what a page never shows
    even where a perfect memory might know it: in ``reversed`` the seat's own hand, the
    others' as in the open game (R-REV-1); in ``chinese`` every hand (R-CHI-1); in
    ``doubt`` the others' hands as in the open game (R-DOUBT-1); in all three a card lying
    face down on the table (but to the ``doubt`` defender the covers he laid: R-DOUBT-2),
    and the covers discarded unseen, for the rest of the game (R-DOUBT-5). The face-up
    trump card is public wherever it is."""
    blind = state.rules.blind
    hidden = {
        card
        for holder in range(state.players)
        for card in state.hand(holder)
        if _hidden_in_hand(state, seat, holder, card, blind)
    }
    bout = state.bout
    if bout is not None and state.face_down:
        for card in cards_of(state.face_down):
            laid_by_viewer = blind is Blind.DOUBT and seat == bout.defender and card in bout.covers
            if not laid_by_viewer:
                hidden.add(card)
    hidden.update(cards_of(state.unseen))
    return {str(card) for card in hidden if card != state.trump_card}


def _hidden_in_hand(
    state: GameState, seat: int | None, holder: int, card: Card, blind: Blind
) -> bool:
    seen_there = bool((state.known[holder] >> card) & 1)
    if blind is Blind.CHINESE:
        return True
    if holder == seat:
        return blind is Blind.REVERSED
    if blind is Blind.REVERSED and seat is not None:
        return False
    return not seen_there
