"""Rendering: pure functions of (scene, Translator) -> ``Rendered`` (Telegram HTML text, at
most 4096 characters, and an inline keyboard). Nothing here sends anything. A scene
(``bot.ui.scene``) holds a view of the game, never its whole state.

    tr = translator(game.settings.language)
    table = table_view(table_scene(game), tr)          # the group's live table
    hand = hand_view(hand_scene(game, seat), translator(player.language))
    lobby = lobby_view(game, tr)                       # before the deal

The views live in ``bot.ui.lobby``, ``bot.ui.table`` and ``bot.ui.hand``; this module is
the one place to import them from.
"""

from __future__ import annotations

from bot.ui.board import narrate
from bot.ui.common import (
    MAX_POPUP,
    MAX_TEXT,
    SUIT_SYMBOLS,
    Rendered,
    card_label,
    cards_label,
    hand_label,
    sorted_hand,
)
from bot.ui.errors import error_text
from bot.ui.hand import action_label, deadline_line, hand_popup, hand_view
from bot.ui.lobby import lobby_view, rules_line, rules_text
from bot.ui.scene import HandScene, TableScene, hand_scene, table_scene
from bot.ui.table import table_view

__all__ = [
    "MAX_POPUP",
    "MAX_TEXT",
    "SUIT_SYMBOLS",
    "HandScene",
    "Rendered",
    "TableScene",
    "action_label",
    "card_label",
    "cards_label",
    "deadline_line",
    "error_text",
    "hand_label",
    "hand_popup",
    "hand_scene",
    "hand_view",
    "lobby_view",
    "narrate",
    "rules_line",
    "rules_text",
    "sorted_hand",
    "table_scene",
    "table_view",
]
