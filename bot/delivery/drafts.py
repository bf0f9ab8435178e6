"""What every message of a game should show now: a pure function of the game record.

A game has message slots: its table in the group (``t:<game>``) and each player's hand in
private (``h:<game>:<user>``). ``drafts_for`` renders each slot; the outbox then makes the
messages match, sending only what differs from what they show.
"""

from __future__ import annotations

import hashlib
import html
from dataclasses import dataclass

from bot.i18n import translator
from bot.model import Phase
from bot.storage import GameRecord
from bot.ui.render import Rendered, hand_view, lobby_view, table_view
from engine import Card


@dataclass(frozen=True, slots=True)
class Draft:
    """``rendered`` for message slot ``slot`` in chat ``chat_id``. ``may_send``: post a new
    message if the slot has none yet (a finished game only edits what exists)."""

    chat_id: int
    slot: str
    rendered: Rendered
    may_send: bool
    version: int
    user_id: int | None = None  # the player, for hand slots

    @property
    def digest(self) -> str:
        return digest(self.rendered)


def digest(rendered: Rendered) -> str:
    markup = "" if rendered.markup is None else rendered.markup.model_dump_json(exclude_none=True)
    return hashlib.sha1(f"{rendered.text}\x00{markup}".encode()).hexdigest()[:16]


def table_slot(game_id: str) -> str:
    return f"t:{game_id}"


def hand_slot(game_id: str, user_id: int) -> str:
    return f"h:{game_id}:{user_id}"


def slot_game(slot: str) -> str:
    return slot.split(":")[1]


def drafts_for(
    record: GameRecord,
    *,
    picks: dict[int, Card] | None = None,
    superseded: bool = False,
) -> list[Draft]:
    """Every slot of ``record``'s game. ``picks``: user id -> the cover card they picked (the
    two-step cover). ``superseded``: a newer game replaced this one in the chat, so its
    table keeps its text and loses its buttons."""
    game = record.game
    version = game.version
    group_tr = translator(game.settings.language)
    stopped = record.stopped_by is not None
    if stopped:
        name = html.escape(record.stopped_by or "", quote=False)
        table = Rendered(group_tr.t("stopped-table", name=name))
    elif superseded:
        table = Rendered(table_view(game, group_tr).text)
    elif game.phase is Phase.LOBBY:
        table = lobby_view(game, group_tr)
    else:
        table = table_view(game, group_tr)
    drafts = [
        Draft(
            game.chat_id,
            table_slot(game.game_id),
            table,
            may_send=not (stopped or superseded),
            version=version,
        )
    ]
    if record.gone:  # the bot can no longer write to the group: only the hands change
        drafts = []
    if game.state is None:
        return drafts
    playing = game.phase is Phase.PLAYING
    for seat, player in enumerate(game.players):
        tr = translator(player.language)
        if stopped:
            hand = Rendered(tr.t("stopped-hand"))
        else:
            picked = (picks or {}).get(player.user_id) if playing else None
            hand = hand_view(game, seat, tr, picked=picked)
        drafts.append(
            Draft(
                player.user_id,
                hand_slot(game.game_id, player.user_id),
                hand,
                may_send=playing,
                version=version,
                user_id=player.user_id,
            )
        )
    return drafts


def known_message_id(record: GameRecord, slot: str) -> int | None:
    """The message id ``record`` keeps for ``slot``."""
    game = record.game
    if slot == table_slot(game.game_id):
        return game.table_message_id
    prefix = f"h:{game.game_id}:"
    if slot.startswith(prefix):
        return game.hand_message_ids.get(int(slot[len(prefix) :]))
    return None
