"""The turn clock: when a person's time to act runs out.

A move sets the deadline at the latest: ``CLOCK_GRACE`` plus the turn time after it
(``bot.services.decisions.deadline``, saved with the game, the only write of the game per
move). The clock itself starts when the players who must act were shown their buttons: the
outbox reports it, and the deadline in force is lowered to then plus the turn time
(``started_deadline``), a write of the deadline alone (``DeadlineStore.start_clock``, which
checks that the game is still at that position). So a slow delivery (Telegram's budget
shared with hundreds of games, an outage) never eats into a player's time, and a press made
meanwhile wins: its move sets a new deadline, and the stale start changes nothing.

The deadline in force is the chat's score in the deadlines set (``{p}:deadlines``); a record
read for a decision or a render carries it (``GameRecord.deadline``, lowered to the score on
every read: ``bot.storage.games``).
"""

from __future__ import annotations

from typing import Final

from bot.model import GameRecord

# Only if the buttons could not be shown for this long does the clock start anyway, so that
# no game waits forever (every path of the outbox ends in the buttons shown, the player
# found unreachable, or a refusal given up on, each of which starts the clock; this is the
# net under a bug).
CLOCK_GRACE: Final = 300.0


def latest_deadline(moved_at: float, turn_timeout: float) -> float:
    """The deadline a move at ``moved_at`` sets: the clock starts at delivery, at the latest
    ``CLOCK_GRACE`` after the move."""
    return moved_at + CLOCK_GRACE + turn_timeout


def started_deadline(record: GameRecord, at: float) -> float | None:
    """The deadline of ``record``'s position if its clock starts at ``at`` (its buttons
    shown then): the turn time from then, never later than the deadline in force. None
    without a turn clock. It is what a hand rendered at ``at`` shows, too."""
    if record.deadline is None:
        return None
    return min(record.deadline, at + record.game.settings.turn_timeout)
