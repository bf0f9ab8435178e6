"""What a message of a game says: rendered from the game record just before it goes
(``bot.delivery.lane``), with a digest of its text and keyboard, so that an edit that would
change nothing is skipped. Which messages a game has, and which must change, is
``bot.delivery.plan``'s.
"""

from __future__ import annotations

import hashlib
import html
import time
from dataclasses import dataclass

from bot.i18n import translator
from bot.model import ChatGame, GameRecord, Phase
from bot.turn_clock import started_deadline
from bot.ui.render import Rendered, hand_scene, hand_view, lobby_view, table_scene, table_view
from bot.ui.webapp import TableLinks

from .plan import Picks, Slot, current_pick, person_seat, slots_of


@dataclass(frozen=True, slots=True)
class Draft:
    """A rendered message as the outbox sends it, with the digest of what it shows."""

    rendered: Rendered
    digest: str  # of the text and the keyboard: an edit that would change nothing is skipped


def draft(rendered: Rendered) -> Draft:
    markup = None if rendered.markup is None else rendered.markup.model_dump_json(exclude_none=True)
    text = f"{rendered.text}\x00{markup or ''}"
    return Draft(rendered, hashlib.sha1(text.encode()).hexdigest()[:16])


def _language(game: ChatGame) -> str:
    """The language of the game's shared messages: the group's, or in a private game the
    person's own."""
    person = person_seat(game) if game.private else None
    return game.settings.language if person is None else game.players[person].language


def render(
    record: GameRecord, slot: Slot, picks: Picks, now: float, links: TableLinks | None = None
) -> Rendered:
    """What ``slot`` of ``record``'s game shows when rendered at ``now`` (Unix time);
    ``links``: where the Mini App is, for the buttons that open it."""
    game = record.game
    stopped = record.stopped_by is not None
    if slot.seat is None:
        tr = translator(_language(game))
        if stopped:
            return Rendered(tr.t("stopped-table", name=html.escape(record.stopped_by or "")))
        if game.phase is Phase.LOBBY or game.state is None:
            return lobby_view(game, tr)
        return table_view(table_scene(game), tr, links=links)
    player = game.players[slot.seat]
    tr = translator(player.language)
    if stopped:
        return Rendered(tr.t("stopped-hand"))
    picked = current_pick(record, player.user_id, picks)
    scene = hand_scene(game, slot.seat, deadline=started_deadline(record, now))
    return hand_view(scene, tr, picked=picked, links=links)


def superseded_table(record: GameRecord) -> Rendered:
    """The table of a game that a newer one replaced in its chat: its text, no buttons."""
    return Rendered(render(record, slots_of(record, {})[0], {}, time.time()).text)
