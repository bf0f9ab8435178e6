"""Inline-button payloads. Telegram allows 64 bytes of callback data (``pack()`` refuses
more): every class here stays far below that, and each carries the game id so a press on a
keyboard of an older game is recognised."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from aiogram.filters.callback_data import CallbackData

from bot.schema.presses import SLOT_KINDS, Back, Move, MoveKind, Pick, Press
from engine import Action, Card, Suit
from engine.cards import CARD_COUNT, CARDS


class LobbyOp(StrEnum):
    """What a button on the group's lobby or table message does (one handler each)."""

    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    AGAIN = "again"  # play again: a new lobby with the same players
    NEXT = "next"  # the next game of a series
    CARDS = "cards"  # my hand, in a pop-up
    ADD_COMPUTER = "bot+"  # seat a computer player (the chat's level)
    ADD_EASY = "bot+e"  # ... of a level (the buttons of a private game)
    ADD_NORMAL = "bot+n"
    ADD_HARD = "bot+h"
    REMOVE_COMPUTER = "bot-"  # take the last computer player out
    TEAM = "team"  # move to the next team (R-TEAM-1)
    TRUMP_SPADES = "tS"  # the dealer names the trump (R-TRUMP-1)
    TRUMP_HEARTS = "tH"
    TRUMP_DIAMONDS = "tD"
    TRUMP_CLUBS = "tC"
    VERIFY = "chk"  # after the game: its record, and the check of its deck
    REVIEW = "rv"  # after the game: the presser's review, in private


ADD_LEVELS: Final = {
    LobbyOp.ADD_EASY: "easy",
    LobbyOp.ADD_NORMAL: "normal",
    LobbyOp.ADD_HARD: "hard",
}
"""The buttons that seat a computer of a given level, and the level."""

TRUMP_SUITS: Final = {
    LobbyOp.TRUMP_SPADES: Suit.SPADES,
    LobbyOp.TRUMP_HEARTS: Suit.HEARTS,
    LobbyOp.TRUMP_DIAMONDS: Suit.DIAMONDS,
    LobbyOp.TRUMP_CLUBS: Suit.CLUBS,
}
"""The dealer's suit buttons, and the suit each names."""


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


class ForgetOp(StrEnum):
    """The two buttons under the /forget question."""

    YES = "yes"  # erase what is kept about me
    NO = "no"  # keep it: the button stops working


class ForgetPress(CallbackData, prefix="fg"):
    """A button under the /forget question (``fg:<token>:<op>``). ``token`` is the one the
    bot keeps for the person's newest question: any other (an older question's, a forged
    one) erases nothing."""

    token: str
    op: ForgetOp


class HandPress(CallbackData, prefix="h"):
    """A button on a player's private hand message. ``moves`` is the engine's move count
    when the keyboard was drawn: a press made on an older keyboard is refused as stale.
    ``act`` is an action code (``encode_action``) or a UI step: ``s<card>`` picks a card
    to cover with and shows the targets, ``b`` goes back; ``decode_press`` reads it."""

    chat: int
    game: str
    moves: int
    act: str


_CARD_CODES: Final = tuple(f"{card:02d}" for card in range(CARD_COUNT))


def _card_code(card: int) -> str:
    return _CARD_CODES[card]


def _cards_code(cards: tuple[Card, ...]) -> str:
    return "".join(map(_CARD_CODES.__getitem__, cards))


def _parse_cards(text: str) -> tuple[Card, ...]:
    if not text or len(text) % 2 or not text.isdigit():
        raise ValueError(f"bad card list {text!r}")
    numbers = [int(text[i : i + 2]) for i in range(0, len(text), 2)]
    if any(n >= len(CARDS) for n in numbers):
        raise ValueError(f"bad card list {text!r}")
    return tuple(CARDS[n] for n in numbers)


# The first letter of a hand button's code: a move of that kind (its cards follow), or a UI
# step that redraws the hand and changes no game.
LETTERS: Final = {
    MoveKind.ATTACK: "a",
    MoveKind.THROW: "t",
    MoveKind.DEFEND: "d",  # the card, then the attack card it covers
    MoveKind.TAKE: "k",
    MoveKind.PASS: "p",
    MoveKind.TRANSFER: "r",
    MoveKind.EXCHANGE: "x",
    # The blind family: two digits of the slot (from 1), then the cards as above.
    MoveKind.ATTACK_SLOT: "o",
    MoveKind.THROW_SLOT: "w",
    MoveKind.DEFEND_SLOT: "c",
    MoveKind.BELIEVE: "y",
    MoveKind.DOUBT: "n",
}
_KINDS: Final = {letter: kind for kind, letter in LETTERS.items()}
PICK: Final = "s"  # "s<NN>": cover card NN picked; show the attack cards it may cover
BACK: Final = "b"  # back from the targets to the whole hand


def encode_action(action: Action) -> str:
    """A short, seat-free code for an action: the seat is whoever presses."""
    move = Move.of(action)
    slot = f"{move.slot:02d}" if move.kind in SLOT_KINDS else ""
    return LETTERS[move.kind] + slot + _cards_code(move.cards)


def encode_pick(card: Card) -> str:
    return PICK + _card_code(card)


def decode_press(code: str) -> Press:
    """What the hand button ``code`` (``HandPress.act``) asks for; ValueError if malformed."""
    if code == BACK:
        return Back()
    letter, rest = code[:1], code[1:]
    if letter == PICK:
        cards = _parse_cards(rest)
        if len(cards) != 1:
            raise ValueError(f"bad pick code {code!r}")
        return Pick(cards[0])
    kind = _KINDS.get(letter)
    if kind is None:
        raise ValueError(f"unknown action code {code!r}")
    slot = 0
    if kind in SLOT_KINDS:
        if len(rest) < 2 or not rest[:2].isdigit():
            raise ValueError(f"bad slot in {code!r}")
        slot, rest = int(rest[:2]), rest[2:]
    return Move(kind, _parse_cards(rest) if rest else (), slot)
