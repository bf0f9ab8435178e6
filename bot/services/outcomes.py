"""What a service call did: ``Changed`` (a new version was saved that the players must see:
publish ``record``) or ``Refused`` (nothing they see changed; ``reason`` names the text
that says why). A press on a hand keyboard, and "My cards", may also come to ``Viewed``:
nothing changed, the presser alone is shown something of their own.

The questions services ask Telegram through the handlers, as callables asked only when
the answer is needed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.model import GameRecord
from bot.schema.refusals import Reason
from engine import Card, Code, Event


@dataclass(frozen=True, slots=True)
class Changed:
    """``record``: the game as it is now, to show. ``events``: what the move did (a move,
    a resignation, a timeout); ``seat``: whose move it was; ``timed_out``: the seats the bot
    acted for. ``previous``: a game this call replaced (its table loses its buttons).
    ``closed``: a game this call ended without a result because it can no longer be shown
    in its group (the bot was removed, or the group moved to a chat with a game of its
    own): its players are told privately."""

    record: GameRecord
    events: tuple[Event, ...] = ()
    seat: int | None = None
    timed_out: tuple[int, ...] = ()
    previous: GameRecord | None = None
    closed: GameRecord | None = None

    @property
    def chat_id(self) -> int:
        return self.record.game.chat_id


@dataclass(frozen=True, slots=True)
class Refused:
    """``reason``: why (ours, or the engine's ``Code`` for a move it refused); ``record``:
    the game as it is (None when there is none). A refusal may have done bookkeeping the
    players do not see (a stale deadline dropped, a finished game marked gone)."""

    reason: Reason | Code
    record: GameRecord | None = None

    @property
    def chat_id(self) -> int | None:
        return None if self.record is None else self.record.game.chat_id


@dataclass(frozen=True, slots=True)
class Viewed:
    """Nothing changed; the presser is shown something of their own at ``seat``: their hand
    ("My cards"), or the card they picked to cover with and what it may cover (``card``;
    None: back to the whole hand)."""

    record: GameRecord
    seat: int
    card: Card | None = None


Outcome = Changed | Refused
"""What a change to a lobby or game came to."""

PressOutcome = Changed | Viewed | Refused
"""What a press on a hand keyboard came to (``GameService.play``)."""


Check = Callable[[], Awaitable[bool]]
"""A yes-or-no question about the user at hand (an admin? can the bot write to them?)."""
MemberCheck = Callable[[int], Awaitable[bool]]
"""Is the user a member of this group (chat id)?"""
