"""What a press on a player's hand keyboard asks for: play a ``Move``, ``Pick`` a card to
cover with (and see what it may cover), or go ``Back`` to the whole hand. ``bot.ui.callbacks``
decodes a button's data into one of these; ``GameService.play`` carries it out.

A hand keyboard is seat-free (whoever presses plays), so a ``Move`` names the kind of action
and its cards (in the blind family, a slot: R-BLIND-2), and becomes the engine's ``Action``
once the service knows the seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final, assert_never

from engine import (
    Action,
    Attack,
    AttackSlot,
    Believe,
    Card,
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
from engine.cards import CARDS


class MoveKind(StrEnum):
    ATTACK = "attack"
    THROW = "throw"
    DEFEND = "defend"  # cards: the card and the attack card it covers
    TAKE = "take"
    PASS = "pass"
    TRANSFER = "transfer"
    EXCHANGE = "exchange"  # R-SIX-1: the lowest trump for the face-up one
    # The blind family (RULES.md section 14): a slot, from 1, instead of a card.
    ATTACK_SLOT = "attack_slot"
    THROW_SLOT = "throw_slot"
    DEFEND_SLOT = "defend_slot"  # cards: the attack card covered (none in ``chinese``)
    BELIEVE = "believe"  # R-DOUBT-3
    DOUBT = "doubt"


_ANY: Final = range(1, len(CARDS) + 1)  # the engine says how many are allowed now
_CARDS: Final = {  # how many cards each kind names
    MoveKind.ATTACK: _ANY,
    MoveKind.THROW: _ANY,
    MoveKind.DEFEND: range(2, 3),
    MoveKind.TAKE: range(1),
    MoveKind.PASS: range(1),
    MoveKind.TRANSFER: range(1, 2),
    MoveKind.EXCHANGE: range(1),
    MoveKind.ATTACK_SLOT: range(1),
    MoveKind.THROW_SLOT: range(1),
    MoveKind.DEFEND_SLOT: range(2),
    MoveKind.BELIEVE: range(1),
    MoveKind.DOUBT: range(1),
}
SLOT_KINDS: Final = frozenset({MoveKind.ATTACK_SLOT, MoveKind.THROW_SLOT, MoveKind.DEFEND_SLOT})
MAX_SLOT: Final = len(CARDS)


@dataclass(frozen=True, slots=True)
class Move:
    """An engine action without its seat. ValueError for a wrong number of cards, or a
    slot (from 1) where the kind has none or none where it has one."""

    kind: MoveKind
    cards: tuple[Card, ...] = ()
    slot: int = 0

    def __post_init__(self) -> None:
        if len(self.cards) not in _CARDS[self.kind]:
            raise ValueError(f"{self.kind} with {len(self.cards)} cards")
        slotted = self.kind in SLOT_KINDS
        if slotted != (1 <= self.slot <= MAX_SLOT) or (not slotted and self.slot):
            raise ValueError(f"{self.kind} with slot {self.slot}")

    @classmethod
    def of(cls, action: Action) -> Move:
        match action:
            case Attack():
                return cls(MoveKind.ATTACK, action.cards)
            case Throw():
                return cls(MoveKind.THROW, action.cards)
            case Defend():
                return cls(MoveKind.DEFEND, (action.card, action.on))
            case Take():
                return cls(MoveKind.TAKE)
            case Pass():
                return cls(MoveKind.PASS)
            case Transfer():
                return cls(MoveKind.TRANSFER, (action.card,))
            case Exchange():
                return cls(MoveKind.EXCHANGE)
            case AttackSlot():
                return cls(MoveKind.ATTACK_SLOT, slot=action.slot)
            case ThrowSlot():
                return cls(MoveKind.THROW_SLOT, slot=action.slot)
            case DefendSlot():
                on = () if action.on is None else (action.on,)
                return cls(MoveKind.DEFEND_SLOT, on, slot=action.slot)
            case Believe():
                return cls(MoveKind.BELIEVE)
            case Doubt():
                return cls(MoveKind.DOUBT)
            case _:
                assert_never(action)

    def action(self, seat: int) -> Action:
        """The engine action, played by ``seat``."""
        cards = self.cards
        match self.kind:
            case MoveKind.ATTACK:
                return Attack(seat, cards)
            case MoveKind.THROW:
                return Throw(seat, cards)
            case MoveKind.DEFEND:
                return Defend(seat, cards[0], cards[1])
            case MoveKind.TAKE:
                return Take(seat)
            case MoveKind.PASS:
                return Pass(seat)
            case MoveKind.TRANSFER:
                return Transfer(seat, cards[0])
            case MoveKind.EXCHANGE:
                return Exchange(seat)
            case MoveKind.ATTACK_SLOT:
                return AttackSlot(seat, self.slot)
            case MoveKind.THROW_SLOT:
                return ThrowSlot(seat, self.slot)
            case MoveKind.DEFEND_SLOT:
                return DefendSlot(seat, self.slot, cards[0] if cards else None)
            case MoveKind.BELIEVE:
                return Believe(seat)
            case MoveKind.DOUBT:
                return Doubt(seat)
            case _:
                assert_never(self.kind)


@dataclass(frozen=True, slots=True)
class Pick:
    """A card to cover with was picked: show the attack cards it may cover."""

    card: Card


@dataclass(frozen=True, slots=True)
class Back:
    """Back from the attack cards a picked card may cover to the whole hand."""


Press = Move | Pick | Back
