"""What happened: ``apply`` returns these so the bot can narrate and tests can assert."""

from __future__ import annotations

from typing import Any, NamedTuple, TypeVar

from .cards import Card

_E = TypeVar("_E")


def _event(cls: type[_E]) -> type[_E]:
    """Events are named tuples (cheap to make on the hot path) that equal only their own
    kind: ``Passed(1) != DeclaredTake(1)`` although both hold the tuple ``(1,)``."""

    def __eq__(self: tuple[Any, ...], other: object) -> bool:
        return type(self) is type(other) and tuple.__eq__(self, other)

    def __ne__(self: tuple[Any, ...], other: object) -> bool:
        return not __eq__(self, other)

    def __hash__(self: tuple[Any, ...]) -> int:
        return hash((type(self).__name__, tuple(self)))

    cls.__eq__ = __eq__  # type: ignore[assignment,method-assign]
    cls.__ne__ = __ne__  # type: ignore[assignment,method-assign]
    cls.__hash__ = __hash__  # type: ignore[assignment,method-assign]
    return cls


@_event
class Attacked(NamedTuple):
    player: int
    cards: tuple[Card, ...]


@_event
class ThrewIn(NamedTuple):
    player: int
    cards: tuple[Card, ...]


@_event
class Covered(NamedTuple):
    player: int
    card: Card
    on: Card


@_event
class Transferred(NamedTuple):
    player: int
    card: Card
    to: int


@_event
class Passed(NamedTuple):
    player: int


@_event
class DeclaredTake(NamedTuple):
    player: int


@_event
class Took(NamedTuple):
    """``player`` picked up the table: the defender (R-END-2), or in the blind family
    whoever R-REV-4, R-CHI-3 or R-DOUBT-3 names. ``cards``: the face-up ones."""

    player: int
    cards: tuple[Card, ...]


@_event
class BeatenOff(NamedTuple):
    """The table went to the discard pile (R-END-1); ``cards``: the face-up ones (covers
    believed unseen stay unseen, R-DOUBT-5)."""

    defender: int
    cards: tuple[Card, ...]


@_event
class Drew(NamedTuple):
    player: int
    drawn: int  # how many cards


@_event
class PlayerOut(NamedTuple):
    """A player left the game with no cards; ``place`` counts from 1 (R-OUT-2, R-OUT-6)."""

    player: int
    place: int


@_event
class BoutStarted(NamedTuple):
    attacker: int
    defender: int
    limit: int


@_event
class GameOver(NamedTuple):
    """``durak`` is None for a draw (R-OUT-4, R-OUT-5)."""

    durak: int | None


@_event
class Exchanged(NamedTuple):
    """R-SIX-1: ``player`` put the lowest trump ``card`` face up under the stock and took
    the face-up trump card ``took``."""

    player: int
    card: Card
    took: Card


@_event
class TrumpChanged(NamedTuple):
    """R-TRUMP-3 (Northern): ``player`` drew the face-down bottom card ``card`` and showed
    it; its suit is the trump from now on."""

    player: int
    card: Card


@_event
class Epaulettes(NamedTuple):
    """R-POG: the durak ``player`` is "the durak with epaulettes" (just before GameOver)."""

    player: int


@_event
class Resigned(NamedTuple):
    """A player left the table mid-game and so lost it (the bot's rule, see ``resign``)."""

    player: int


# The blind family (RULES.md section 14).


@_event
class Misplayed(NamedTuple):
    """R-REV-3: ``player`` played ``card`` (turned up as played) where it does not go: a
    throw-in of a rank not on the table (``on`` None), or a cover of ``on`` that does not
    beat it. ``Took`` follows: the misplayer takes the table (R-REV-4)."""

    player: int
    card: Card
    on: Card | None


@_event
class LaidFaceDown(NamedTuple):
    """A card laid face down, which nobody else may see: a ``chinese`` opening (``on``
    None, R-CHI-2), or a ``doubt`` cover on the attack card ``on`` (R-DOUBT-2)."""

    player: int
    on: Card | None


@_event
class Answered(NamedTuple):
    """R-CHI-2: the defender's ``card`` and the attack card ``attack`` turned up; R-CHI-3
    follows (``BeatenOff`` or ``Took``)."""

    player: int
    card: Card
    attack: Card


@_event
class Believed(NamedTuple):
    """R-DOUBT-3 «верю»: the table goes to the discard pile unseen, and the defender attacks
    next (no ``BeatenOff`` follows: nothing of it is seen)."""

    player: int


@_event
class Doubted(NamedTuple):
    """R-DOUBT-3 «не верю»: the covers turned up, in table order; ``beaten``: every one
    beats its card (the attacker takes), else the defender takes."""

    player: int
    covers: tuple[Card, ...]
    beaten: bool


Event = (
    Resigned
    | Attacked
    | ThrewIn
    | Covered
    | Transferred
    | Passed
    | DeclaredTake
    | Took
    | BeatenOff
    | Drew
    | PlayerOut
    | BoutStarted
    | GameOver
    | Exchanged
    | TrumpChanged
    | Epaulettes
    | Misplayed
    | LaidFaceDown
    | Answered
    | Believed
    | Doubted
)
