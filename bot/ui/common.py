"""What every view shares: the ``Rendered`` result, card labels, player names, keyboards
and text limits. The public facts of a table in words are ``bot.ui.board``."""

from __future__ import annotations

import functools
import html
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.model import ChatGame
from engine import Card, Suit
from engine.cards import CARDS, sort_key

SUIT_SYMBOLS: Final = ("♠", "♥", "♦", "♣")  # by Suit value: S H D C
MAX_TEXT: Final = 4096  # Telegram's limit for a message text
MAX_POPUP: Final = 200  # ... and for a callback answer (pop-up)
MAX_ROW: Final = 3  # buttons per keyboard row: more do not fit a phone's width
MAX_BUTTONS: Final = 100  # buttons per keyboard (Telegram's limit)
MAX_LABEL: Final = 24  # characters on a button: a phone cuts longer labels ("Перев…")


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message ready to send or edit: Telegram HTML text and its inline keyboard."""

    text: str
    markup: InlineKeyboardMarkup | None = None


def card_label(card: Card, tr: Translator) -> str:
    """A card the way people write it, in the chat's language: ``10♥``, ``Т♠`` (ru ace)."""
    return _card_labels(tr)[card]


@functools.cache
def _card_labels(tr: Translator) -> tuple[str, ...]:
    """Every card's label in ``tr``'s language, by card number: the hand, the table and the
    buttons name cards dozens of times a move."""
    return tuple(tr.t(f"rank-{card.rank_name}") + SUIT_SYMBOLS[card.suit] for card in CARDS)


def cards_label(cards: Iterable[Card], tr: Translator, sep: str = " ") -> str:
    return sep.join(card_label(c, tr) for c in cards)


def sorted_hand(cards: Iterable[Card], trump: Suit) -> list[Card]:
    """By suit, trumps last, low to high within a suit."""
    return sorted(cards, key=_HAND_ORDER[trump].__getitem__)


# Every card's place in a hand (``engine.cards.sort_key``), by trump: looked up rather than
# computed for each card, as hands are sorted for every page and keyboard of every move.
_HAND_ORDER: Final = tuple(tuple(sort_key(card, suit) for card in CARDS) for suit in Suit)


def suit_groups(cards: Iterable[Card], trump: Suit) -> list[list[Card]]:
    """``sorted_hand`` cut into one list per suit."""
    groups: list[list[Card]] = []
    for card in sorted_hand(cards, trump):
        if groups and groups[-1][0].suit == card.suit:
            groups[-1].append(card)
        else:
            groups.append([card])
    return groups


def hand_label(cards: Iterable[Card], trump: Suit, tr: Translator) -> str:
    """A hand for people: ``6♠ 8♠ · 7♦ · 6♥ К♥`` (suits apart, trumps last)."""
    return " · ".join(cards_label(group, tr) for group in suit_groups(cards, trump))


COMPUTER_MARK: Final = "🤖"


def plain_name(game: ChatGame, seat: int) -> str:
    """A player's name as typed in Telegram (for plain text such as pop-ups); a computer
    player's with a robot in front: «🤖 Федя»."""
    if 0 <= seat < len(game.players):
        player = game.players[seat]
        return f"{COMPUTER_MARK} {player.name}" if player.computer else player.name
    return f"#{seat + 1}"


def name(game: ChatGame, seat: int) -> str:
    """A player's name, escaped for HTML."""
    return html.escape(plain_name(game, seat), quote=False)


def names(game: ChatGame, seats: Iterable[int]) -> str:
    return ", ".join(name(game, s) for s in seats)


def place(tr: Translator, number: int) -> str:
    return tr.t("place", place=number)


def fit(lines: list[str], limit: int = MAX_TEXT) -> str:
    """Lines joined, dropping lines from the end until the text fits. Each line is whole
    HTML on its own, so cutting between lines keeps the markup valid."""
    text = "\n".join(lines)
    while len(text) > limit and len(lines) > 1:
        lines = lines[:-1]
        text = "\n".join(lines)
    return text[:limit]


def keyboard(rows: Iterable[list[InlineKeyboardButton]]) -> InlineKeyboardMarkup | None:
    """Rows of at most ``MAX_ROW`` buttons and at most ``MAX_BUTTONS`` in all; None if empty.
    A longer row is cut into rows as even as can be: 4 buttons go 2 + 2, 7 go 3 + 2 + 2."""
    out: list[list[InlineKeyboardButton]] = []
    total = 0
    for row in rows:
        for even in _even_chunks(row):
            chunk = even[: MAX_BUTTONS - total]
            if chunk:
                out.append(chunk)
                total += len(chunk)
    return InlineKeyboardMarkup(inline_keyboard=out) if out else None


def _even_chunks(row: list[InlineKeyboardButton]) -> list[list[InlineKeyboardButton]]:
    count = -(-len(row) // MAX_ROW)  # rows needed
    chunks = []
    start = 0
    for index in range(count):
        size = (len(row) - start) // (count - index)
        chunks.append(row[start : start + size])
        start += size
    return chunks
