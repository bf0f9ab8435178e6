"""What a player can do, as frozen values (an illegal one raises ``errors.IllegalAction``)."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, format_cards


@dataclass(frozen=True, slots=True)
class Attack:
    """Open a bout with one card or several cards of one rank (R-BOUT-1)."""

    player: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.player}: attack {format_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class Throw:
    """Add cards whose ranks are on the table (R-BOUT-4)."""

    player: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.player}: throw {format_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class Defend:
    """Cover the attack card ``on`` with ``card`` (R-BOUT-2, R-BOUT-3)."""

    player: int
    card: Card
    on: Card

    def __str__(self) -> str:
        return f"{self.player}: cover {self.on} with {self.card}"


@dataclass(frozen=True, slots=True)
class Take:
    """The defender will pick up the table (R-BOUT-9)."""

    player: int

    def __str__(self) -> str:
        return f"{self.player}: take"


@dataclass(frozen=True, slots=True)
class Pass:
    """A thrower adds nothing (more) for now (R-BOUT-7)."""

    player: int

    def __str__(self) -> str:
        return f"{self.player}: pass"


@dataclass(frozen=True, slots=True)
class Transfer:
    """Perevodnoy: pass the attack on with a card of the same rank (R-TR-1)."""

    player: int
    card: Card

    def __str__(self) -> str:
        return f"{self.player}: transfer with {self.card}"


@dataclass(frozen=True, slots=True)
class Exchange:
    """R-SIX-1: swap the lowest trump in hand for the face-up trump card."""

    player: int

    def __str__(self) -> str:
        return f"{self.player}: exchange"


# The blind family (RULES.md section 14). A player who cannot see their own hand acts by
# slot (R-BLIND-2): slots count from 1 at the left of the hand's row.


@dataclass(frozen=True, slots=True)
class AttackSlot:
    """Open the bout with the card in slot ``slot``, unseen (R-REV-2, R-CHI-2)."""

    player: int
    slot: int

    def __str__(self) -> str:
        return f"{self.player}: attack with slot {self.slot}"


@dataclass(frozen=True, slots=True)
class ThrowSlot:
    """Throw in the card in slot ``slot``, unseen (R-REV-2; a wrong one is R-REV-3)."""

    player: int
    slot: int

    def __str__(self) -> str:
        return f"{self.player}: throw in slot {self.slot}"


@dataclass(frozen=True, slots=True)
class DefendSlot:
    """Cover the attack card ``on`` with the card in slot ``slot``, unseen (R-REV-2); in
    ``chinese`` answer the face-down attack card, which nobody may name (``on`` None)."""

    player: int
    slot: int
    on: Card | None

    def __str__(self) -> str:
        target = "the attack" if self.on is None else str(self.on)
        return f"{self.player}: cover {target} with slot {self.slot}"


@dataclass(frozen=True, slots=True)
class Believe:
    """R-DOUBT-3: the attacker believes the face-down covers."""

    player: int

    def __str__(self) -> str:
        return f"{self.player}: believe"


@dataclass(frozen=True, slots=True)
class Doubt:
    """R-DOUBT-3: the attacker doubts the face-down covers, which are turned up."""

    player: int

    def __str__(self) -> str:
        return f"{self.player}: doubt"


Action = (
    Attack
    | Throw
    | Defend
    | Take
    | Pass
    | Transfer
    | Exchange
    | AttackSlot
    | ThrowSlot
    | DefendSlot
    | Believe
    | Doubt
)
