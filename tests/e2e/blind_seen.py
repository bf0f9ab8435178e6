"""What each seat of a blind game (RULES.md section 14) has seen so far, worked out from the
rules and the whole state, never from the engine's views (what the bot renders from, and
so what is under test); and the cards a message names that its reader never saw.

    sight = Sight()
    for state in positions:            # every position a reader was shown, in order
        sight.look(state)
        assert sight.unseen_in(text, seat) == set()   # seat None: the group's table
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from bot.i18n import SUPPORTED, translator
from bot.ui.common import card_label
from engine import Blind, Card, GameState
from engine.cards import CARDS, cards_of

CARD_TEXT = re.compile(r"(?:10|[2-9]|[ВДКТ])[♠♥♦♣]")  # a card as the ru and uk texts write it
CARD_OF_LABEL = {card_label(c, translator(lang)): c for lang in SUPPORTED for c in CARDS}


def public(state: GameState) -> set[Card]:
    """The cards everybody sees now or saw go where they are: the face-up trump card, the
    cards lying face up on the table, the discard pile but the covers discarded unseen after
    «верю» (R-DOUBT-5), and the cards everybody saw go into a hand (taken from the table,
    the lowest trump shown at the start: ``GameState.known``)."""
    cards: set[Card] = set()
    if state.trump_card is not None:
        cards.add(state.trump_card)
    down = state.face_down
    if state.bout is not None:
        for pair in state.bout.pairs:
            cards |= {c for c in pair if c is not None and not down >> c & 1}
    cards |= set(cards_of(state.discard & ~state.unseen))
    for hand, known in zip(state.hands, state.known, strict=True):
        cards |= set(cards_of(hand & known))
    return cards


def own_sight(state: GameState, seat: int) -> set[Card]:
    """What ``seat`` sees now besides the public cards: its own hand where it sees it (the
    open game, ``doubt``), every other hand in ``reversed`` (R-REV-1), nothing of any hand
    in ``chinese`` (R-CHI-1), and in ``doubt`` the covers it laid face down (R-DOUBT-2)."""
    blind = state.rules.blind
    cards: set[Card] = set()
    if blind in (Blind.OFF, Blind.DOUBT):
        cards |= set(state.hand(seat))
    if blind is Blind.REVERSED:
        for other in range(state.players):
            if other != seat:
                cards |= set(state.hand(other))
    bout = state.bout
    if blind is Blind.DOUBT and bout is not None and bout.defender == seat:
        cards |= {c for _, c in bout.pairs if c is not None and state.face_down >> c & 1}
    return cards


def named(text: str) -> set[Card]:
    """Every card ``text`` names («7♠», «10♥», «Т♦»)."""
    return {CARD_OF_LABEL[label] for label in CARD_TEXT.findall(text)}


class Sight:
    """What each seat (and the group, ``None``) has seen of one game so far: a message may
    repeat a card its reader once saw (the log tells the moves of the bout), never name one
    it did not."""

    def __init__(self) -> None:
        self.seen: defaultdict[int | None, set[Card]] = defaultdict(set)

    def look(self, state: GameState) -> None:
        """Everybody looks at ``state``."""
        shown = public(state)
        self.seen[None] |= shown
        for seat in range(state.players):
            self.seen[seat] |= shown | own_sight(state, seat)

    def unseen_in(self, texts: str | Iterable[str], seat: int | None) -> set[Card]:
        """The cards ``texts`` name that ``seat`` has not seen (``None``: the group)."""
        if isinstance(texts, str):
            texts = [texts]
        return {card for text in texts for card in named(text)} - self.seen[seat]
