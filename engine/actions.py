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


Action = Attack | Throw | Defend | Take | Pass | Transfer | Exchange
