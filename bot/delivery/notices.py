"""Private notes to the players of a lobby or game the bot had to close because it can no
longer show it in its group (``GameService.bot_removed``, or the clash of
``GameService.migrate_chat``). Pure: ``(user id, text)`` pairs for ``Outbox.say``, each
in the player's own language. Whoever finds out the group is gone (the ``my_chat_member``
handler, the outbox after a 403) sends the same notes."""

from __future__ import annotations

import html

from bot.i18n import translator
from bot.storage import GameRecord


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
