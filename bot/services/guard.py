"""The one check before a change to a lobby: is there an open lobby here (the one a button
names), and does the user sit there (or not yet, to join)? And, where it matters, may they
do this: only the lobby's creator or a group admin may deal, stop the game or take a
computer player out (``creator_or_admin``).

The guard is checked on the record as read, before anybody asks Telegram anything (an
``Ask``: is this an admin? can the bot write to them?), and again inside the
compare-and-set, on the record being saved, since a lobby may have been dealt or closed
meanwhile (``GameService.in_lobby``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.model import GameRecord, Phase
from bot.schema.refusals import Reason

from .checks import Check
from .outcomes import Refused

Ask = Callable[[GameRecord], Awaitable[Refused | None]]
"""A question for Telegram about a lobby the guard let through: None to go on, or why not."""


@dataclass(frozen=True, slots=True)
class LobbyGuard:
    """``game_id``: the lobby a button was pressed under (None for a command: this chat's
    lobby). ``user_id`` sits there (``seated=True``), does not yet (``seated=False``), or
    either (None)."""

    user_id: int
    game_id: str | None = None
    seated: bool | None = None

    def refusal(self, record: GameRecord | None) -> Refused | None:
        """Why the change cannot happen on ``record``, or None if it may."""
        if record is None or record.game.phase is Phase.FINISHED:
            return Refused(Reason.NO_LOBBY, record)
        if self.game_id is not None and record.game.game_id != self.game_id:
            return Refused(Reason.STALE_LOBBY, record)
        if record.game.phase is Phase.PLAYING or record.game.naming is not None:
            return Refused(Reason.GAME_RUNNING, record)  # dealt, or the trump being named
        if self.seated is not None:
            sits = record.game.seat_of(self.user_id) is not None
            if sits and not self.seated:
                return Refused(Reason.ALREADY_JOINED, record)
            if self.seated and not sits:
                return Refused(Reason.NOT_JOINED, record)
        return None


def creator_or_admin(user_id: int, is_admin: Check, refusal: Reason) -> Ask:
    """Only the game's creator or a group admin may go on (``is_admin`` is asked only of
    anybody else); ``refusal`` says what they may not do."""

    async def ask(record: GameRecord) -> Refused | None:
        if record.game.creator_id == user_id or await is_admin():
            return None
        return Refused(refusal, record)

    return ask
