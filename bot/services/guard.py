"""The one check before a change to a lobby: is there an open lobby here (the one a button
names), does the user sit there (or not yet, to join), and may they do this (only the
lobby's creator or a group admin may deal or take a computer player out)?

A guard is checked twice: on the record as read, before anybody asks Telegram anything
(``permit``: is this an admin? can the bot write to them?), and again inside the
compare-and-set (``refusal``), on the record being saved, since a lobby may have been
dealt or closed meanwhile (``GameService.in_lobby``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.model import Phase
from bot.schema.refusals import Reason
from bot.storage import GameRecord

from .checks import Check
from .outcomes import Refused


@dataclass(frozen=True, slots=True)
class LobbyGuard:
    """``game_id``: the lobby a button was pressed under (None for a command: this chat's
    lobby). ``user_id`` sits there (``seated=True``), does not yet (``seated=False``), or
    either (None). ``creator_only``: only the lobby's creator or a group admin may do this;
    the refusal that says so."""

    user_id: int
    game_id: str | None = None
    seated: bool | None = None
    creator_only: Reason | None = None

    def refusal(self, record: GameRecord | None) -> Refused | None:
        """Why the change cannot happen on ``record``, or None if it may (but for
        ``creator_only``: see ``permit``)."""
        if record is None or record.game.phase is Phase.FINISHED:
            return Refused(Reason.NO_LOBBY, record)
        if self.game_id is not None and record.game.game_id != self.game_id:
            return Refused(Reason.STALE_LOBBY, record)
        if record.game.phase is Phase.PLAYING:
            return Refused(Reason.GAME_RUNNING, record)
        if self.seated is not None:
            sits = record.game.seat_of(self.user_id) is not None
            if sits and not self.seated:
                return Refused(Reason.ALREADY_JOINED, record)
            if self.seated and not sits:
                return Refused(Reason.NOT_JOINED, record)
        return None

    async def permit(self, record: GameRecord, is_admin: Check) -> Refused | None:
        """``creator_only``: refused unless the user created the lobby or ``is_admin``
        (asked only then)."""
        return await creator_or_admin(record, self.user_id, is_admin, self.creator_only)


async def creator_or_admin(
    record: GameRecord, user_id: int, is_admin: Check, refusal: Reason | None
) -> Refused | None:
    """None if ``refusal`` is None, or the user created the game, or is an admin (asked
    only if they did not create it); else ``refusal``."""
    if refusal is None or record.game.creator_id == user_id or await is_admin():
        return None
    return Refused(refusal, record)
