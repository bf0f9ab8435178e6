"""Inline-button payloads. Telegram allows 64 bytes of callback data (``pack()`` refuses
more): every class here stays far below that, and each carries the game id so a press on a
keyboard of an older game is recognised."""

from __future__ import annotations

from enum import StrEnum

from aiogram.filters.callback_data import CallbackData

from engine import Action, Attack, Card, Defend, Pass, Take, Throw, Transfer
from engine.cards import CARDS


class LobbyOp(StrEnum):
    """What a button on the group's lobby or table message does (one handler each)."""

    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    AGAIN = "again"  # play again: a new lobby with the same players
    NEXT = "next"  # the next game of a series
    CARDS = "cards"  # my hand, in a pop-up


class LobbyPress(CallbackData, prefix="l"):
    """A button on the group's lobby or table message (``l:<game>:<op>``)."""

    game: str
    op: LobbyOp


class SettingsOp(StrEnum):
    """What a button on the /settings message does (one handler each)."""

    OPEN = "open"  # show the values of ``key``
    SET = "set"  # set ``key`` to ``value``
    BACK = "back"  # back to the list of rules
    DONE = "done"  # close: the message keeps the rules and loses its buttons


class SettingsPress(CallbackData, prefix="cfg"):
    """A button on the /settings message (``cfg:<op>:<key>:<value>``)."""

    op: SettingsOp
    key: str = ""
    value: str = ""


class HandPress(CallbackData, prefix="h"):
    """A button on a player's private hand message. ``moves`` is the engine's move count
    when the keyboard was drawn: a press made on an older keyboard is refused as stale.
    ``act`` is an action code (``encode_action``) or a UI step: ``s<card>`` picks a card
    to cover with and shows the targets, ``b`` goes back."""

    chat: int
    game: str
    moves: int
    act: str


def _card_code(card: int) -> str:
    return f"{card:02d}"


def _cards_code(cards: tuple[Card, ...]) -> str:
    return "".join(_card_code(c) for c in cards)


def _parse_cards(text: str) -> tuple[Card, ...]:
    if not text or len(text) % 2 or not text.isdigit():
        raise ValueError(f"bad card list {text!r}")
    numbers = [int(text[i : i + 2]) for i in range(0, len(text), 2)]
    if any(n >= len(CARDS) for n in numbers):
        raise ValueError(f"bad card list {text!r}")
    return tuple(CARDS[n] for n in numbers)


def encode_action(action: Action) -> str:
    """A short, seat-free code for an action: the seat is whoever presses."""
    if isinstance(action, Attack):
        return "a" + _cards_code(action.cards)
    if isinstance(action, Throw):
        return "t" + _cards_code(action.cards)
    if isinstance(action, Defend):
        return "d" + _card_code(action.card) + _card_code(action.on)
    if isinstance(action, Take):
        return "k"
    if isinstance(action, Pass):
        return "p"
    return "r" + _card_code(action.card)


def decode_action(code: str, seat: int) -> Action:
    """The action ``code`` stands for, played by ``seat``; ValueError if malformed."""
    kind, rest = code[:1], code[1:]
    if kind == "a":
        return Attack(seat, _parse_cards(rest))
    if kind == "t":
        return Throw(seat, _parse_cards(rest))
    if kind == "d":
        cards = _parse_cards(rest)
        if len(cards) != 2:
            raise ValueError(f"bad defend code {code!r}")
        return Defend(seat, cards[0], cards[1])
    if kind == "k" and not rest:
        return Take(seat)
    if kind == "p" and not rest:
        return Pass(seat)
    if kind == "r":
        cards = _parse_cards(rest)
        if len(cards) != 1:
            raise ValueError(f"bad transfer code {code!r}")
        return Transfer(seat, cards[0])
    raise ValueError(f"unknown action code {code!r}")


# --- UI steps of the hand keyboard (HandPress.act), not engine actions ------------------

PICK = "s"  # "s<NN>": cover card NN picked; show the attack cards it may cover
BACK = "b"  # back from the targets to the whole hand


def encode_pick(card: Card) -> str:
    return PICK + _card_code(card)


def decode_pick(code: str) -> Card:
    """The card of a pick step ``s<NN>``; ValueError if ``code`` is not one."""
    if not code.startswith(PICK):
        raise ValueError(f"not a pick code {code!r}")
    cards = _parse_cards(code[1:])
    if len(cards) != 1:
        raise ValueError(f"bad pick code {code!r}")
    return cards[0]


def is_ui_step(code: str) -> bool:
    """True for ``s<NN>`` and ``b``: presses that redraw the hand and change no game."""
    return code == BACK or code.startswith(PICK)
