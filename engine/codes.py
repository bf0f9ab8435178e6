"""Actions as ints, the core's currency, and back: ``encode(action)``, ``decode(code)``.

A code is ``kind | seat << 3 | payload << 6`` (kinds in ``engine.core``): for an attack or a
throw-in the payload is the mask of its cards, for a cover ``card | on << 6``, for a
transfer the card; a take, a pass or an exchange has none; for the blind family's plays by
slot and judgments, ``what | slot << 3 | on << 9`` (``engine.core``). So a code is under
2**58, and one action has one code whatever order its cards are named in.

>>> from engine import Attack, Card, Defend
>>> code = encode(Defend(1, Card.parse("9H"), Card.parse("8H")))
>>> decode(code)
Defend(player=1, card=Card('9H'), on=Card('8H'))
>>> encode(Attack(0, (Card.parse("7S"), Card.parse("7H")))) == encode(
...     Attack(0, (Card.parse("7H"), Card.parse("7S"))))
True
"""

from __future__ import annotations

from typing import Final, cast

from .actions import (
    Action,
    Attack,
    AttackSlot,
    Believe,
    Defend,
    DefendSlot,
    Doubt,
    Exchange,
    Pass,
    Take,
    Throw,
    ThrowSlot,
    Transfer,
)
from .cards import CARDS
from .core import (
    ATTACK,
    BELIEVE,
    BLIND,
    DEFEND,
    DOUBT,
    EXCHANGE,
    NO_CARD,
    PASS,
    SLOT_ATTACK,
    SLOT_DEFEND,
    SLOT_THROW,
    TAKE,
    THROW,
    TRANSFER,
)

MAX_SEAT: Final = 7  # three bits
CARD_COUNT: Final = 52
MAX_SLOT: Final = 52  # slots count from 1; a hand holds at most the deck

# Imported names as this module's constants: compiled, a constant is a C static, while an
# imported name is looked up in the module's dict at every use.
_ATTACK_CLASS: Final = Attack
_THROW_CLASS: Final = Throw
_DEFEND_CLASS: Final = Defend
_TAKE_CLASS: Final = Take
_PASS_CLASS: Final = Pass
_TRANSFER_CLASS: Final = Transfer
_EXCHANGE_CLASS: Final = Exchange
_CARDS: Final = CARDS


def _seat(action: object) -> int:
    """The action's player if it is a seat number a code can hold, else -1."""
    player = getattr(action, "player", None)
    if not isinstance(player, int) or not 0 <= player <= MAX_SEAT:
        return -1
    return int(player)


def _card(value: object) -> int:
    if not isinstance(value, int) or not 0 <= value < CARD_COUNT:
        return -1
    return int(value)


def encode(action: object) -> int:
    """The code of ``action``, or -1 if it names no action a code can hold (not an action,
    a seat outside 0..7, something that is not a card, no cards, a card named twice).
    Whether the action is legal now is for ``Position.legal`` to say."""
    kind = type(action)
    seat = _seat(action)
    if seat < 0:
        return -1
    if kind is _DEFEND_CLASS:
        defend = cast(Defend, action)  # (not isinstance: a lookup of Defend once compiled)
        card = _card(defend.card)
        on = _card(defend.on)
        if card < 0 or on < 0:
            return -1
        return DEFEND | seat << 3 | (card | on << 6) << 6
    if kind is _ATTACK_CLASS or kind is _THROW_CLASS:
        cards = cast(Attack | Throw, action).cards
        if not isinstance(cards, tuple) or not cards:
            return -1
        mask = 0
        for value in cards:
            card = _card(value)
            if card < 0 or (mask >> card) & 1:
                return -1
            mask |= 1 << card
        return (ATTACK if kind is _ATTACK_CLASS else THROW) | seat << 3 | mask << 6
    if kind is _TAKE_CLASS:
        return TAKE | seat << 3
    if kind is _PASS_CLASS:
        return PASS | seat << 3
    if kind is _TRANSFER_CLASS:
        card = _card(cast(Transfer, action).card)
        return -1 if card < 0 else TRANSFER | seat << 3 | card << 6
    if kind is _EXCHANGE_CLASS:
        return EXCHANGE | seat << 3
    return _encode_blind(action, seat)


def _encode_blind(action: object, seat: int) -> int:
    """``encode`` of the blind family's actions (R-BLIND-2, R-DOUBT-3); -1 for others."""
    head = BLIND | seat << 3
    kind = type(action)
    if kind is Believe:
        return head | BELIEVE << 6
    if kind is Doubt:
        return head | DOUBT << 6
    if kind is not AttackSlot and kind is not ThrowSlot and kind is not DefendSlot:
        return -1
    slot = getattr(action, "slot", None)
    if not isinstance(slot, int) or isinstance(slot, bool) or not 1 <= slot <= MAX_SLOT:
        return -1
    payload = (slot - 1) << 3
    if kind is AttackSlot:
        return head | (SLOT_ATTACK | payload) << 6
    if kind is ThrowSlot:
        return head | (SLOT_THROW | payload) << 6
    on = cast(DefendSlot, action).on
    named = NO_CARD if on is None else _card(on)
    return -1 if named < 0 else head | (SLOT_DEFEND | payload | named << 9) << 6


# Actions are values: each is built once and handed out again.
_ACTIONS: Final[dict[int, Action]] = {}
_ACTIONS_MAX: Final = 200_000


def decode(code: int) -> Action:
    """The action of a code (one ``encode`` or ``Position.legal`` gave)."""
    action = _ACTIONS.get(code)
    if action is None:
        action = _build(code)
        if len(_ACTIONS) >= _ACTIONS_MAX:
            _ACTIONS.clear()
        _ACTIONS[code] = action
    return action


def decode_all(codes: list[int]) -> list[Action]:
    actions = _ACTIONS
    return [actions.get(code) or decode(code) for code in codes]


def _build(code: int) -> Action:
    kind = code & 7
    seat = (code >> 3) & 7
    payload = code >> 6
    if kind in (ATTACK, THROW):
        cards = []
        while payload:
            low = payload & -payload
            cards.append(_CARDS[low.bit_length() - 1])
            payload ^= low
        return (Attack if kind == ATTACK else Throw)(seat, tuple(cards))
    if kind == DEFEND:
        return Defend(seat, _CARDS[payload & 63], _CARDS[payload >> 6])
    if kind == TAKE:
        return Take(seat)
    if kind == PASS:
        return Pass(seat)
    if kind == TRANSFER:
        return Transfer(seat, _CARDS[payload])
    if kind == EXCHANGE:
        return Exchange(seat)
    what = payload & 7
    slot = ((payload >> 3) & 63) + 1
    if what == SLOT_ATTACK:
        return AttackSlot(seat, slot)
    if what == SLOT_THROW:
        return ThrowSlot(seat, slot)
    if what == SLOT_DEFEND:
        on = payload >> 9
        return DefendSlot(seat, slot, None if on == NO_CARD else _CARDS[on])
    if what == BELIEVE:
        return Believe(seat)
    if what == DOUBT:
        return Doubt(seat)
    raise ValueError(f"not an action code: {code}")
