"""What to show when the group itself changed under its game: it became a supergroup
(``GameService.migrate_chat``) or the bot was removed from it (``GameService.bot_removed``).

Whoever finds out calls the same function with the service's outcome: the handlers of the
service messages and of ``my_chat_member`` (``bot.handlers.group``), or the outbox when a
send to the group fails (400 with ``migrate_to_chat_id``; 403 "bot was kicked" / "not a
member", through the hooks ``bot.app`` gives it). ``closed_notes`` is pure: ``(user id,
text)`` pairs, each in the player's language. They reach the outbox through ``Shows``: the
outbox (delivery) shows what services decide, and imports no service.
"""

from __future__ import annotations

import html
from typing import Protocol

from bot.i18n import translator
from bot.model import GameRecord, Phase

from .outcomes import Changed, Outcome


class Shows(Protocol):
    """The part of ``Outbox`` these functions use."""

    def publish(self, record: GameRecord | None, *, superseded: bool = False) -> None: ...

    async def say(self, chat_id: int, text: str) -> None: ...


async def show_migration(outbox: Shows, outcome: Outcome) -> None:
    """The moved game in its new chat (its table posted anew there; a finished game of the
    new chat it replaced loses its buttons), or, if the new chat had a game of its own, the
    old one closed and its players told."""
    if not isinstance(outcome, Changed):
        return
    if outcome.closed is not None:
        await _closed(outbox, outcome.closed, closed_notes(outcome.closed, clash=True))
        return
    previous = outcome.previous
    if previous is not None and previous.game.phase is Phase.FINISHED:
        outbox.publish(previous, superseded=True)
    outbox.publish(outcome.record)


async def show_removal(outbox: Shows, outcome: Outcome, group: str | None = None) -> None:
    """A lobby or game closed because the bot was removed from the group (titled
    ``group``, if known): the hands say it is over (the table is not drawn:
    ``GameRecord.gone``) and each player is told why."""
    if isinstance(outcome, Changed) and outcome.closed is not None:
        await _closed(outbox, outcome.closed, closed_notes(outcome.closed, group=group))


async def _closed(outbox: Shows, record: GameRecord, notes: list[tuple[int, str]]) -> None:
    outbox.publish(record)
    for user_id, text in notes:
        await outbox.say(user_id, text)


def closed_notes(
    record: GameRecord, *, group: str | None = None, clash: bool = False
) -> list[tuple[int, str]]:
    """To every player of ``record``: it was closed because the bot was removed from the
    group (titled ``group``, if known), or, with ``clash``, because the group became a
    supergroup that already had a game of its own."""
    lobby = "yes" if record.game.state is None else "no"
    if clash:
        message, args = "gone-clash", {}
    elif group:
        message, args = "gone-removed", {"group": html.escape(group, quote=False)}
    else:
        message, args = "gone-removed-untitled", {}
    return [
        (player.user_id, translator(player.language).t(message, lobby=lobby, **args))
        for player in record.game.players
    ]
