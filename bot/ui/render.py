"""Rendering: pure functions of (ChatGame, viewer, Translator) -> ``Rendered`` (Telegram HTML
text, at most 4096 characters, and an inline keyboard). Nothing here sends anything.

    tr = translator(game.settings.language)
    table = table_view(game, tr)          # the group's live table
    hand = hand_view(game, seat, translator(private_language(code)))

The views live in ``bot.ui.lobby``, ``bot.ui.table`` and ``bot.ui.hand``; this module is
the one place to import them from.
"""

from __future__ import annotations

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
from bot.ui.hand import action_label, hand_popup, hand_view
from bot.ui.lobby import lobby_view, rules_line, rules_text
from bot.ui.table import narrate, table_view

__all__ = [
    "MAX_POPUP",
    "MAX_TEXT",
    "SUIT_SYMBOLS",
    "Rendered",
    "action_label",
    "card_label",
    "cards_label",
    "error_text",
    "hand_label",
    "hand_popup",
    "hand_view",
    "lobby_view",
    "narrate",
    "rules_line",
    "rules_text",
    "sorted_hand",
    "table_view",
]
