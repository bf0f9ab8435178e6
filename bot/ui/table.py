"""The group's live table message: public facts only, never a hand (RULES.md §11). In a
series, the game's number and the tally, and after a game the next-game button or the
standings (``bot.ui.stats``). The lobby is ``bot.ui.lobby``."""

from __future__ import annotations

import functools

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.model import ChatGame
from bot.ui.board import finished_lines, log_lines, table_lines
from bot.ui.callbacks import LobbyOp, LobbyPress
from bot.ui.common import Rendered, fit, keyboard
from bot.ui.scene import TableScene
from bot.ui.webapp import TableLinks, group_table_button


def _my_cards_button(game_id: str, tr: Translator) -> InlineKeyboardButton:
    data = LobbyPress(game=game_id, op="cards").pack()
    return InlineKeyboardButton(text=tr.t("btn-my-cards"), callback_data=data)


def _again_button(game: ChatGame, tr: Translator) -> InlineKeyboardButton:
    data = LobbyPress(game=game.game_id, op="again").pack()
    return InlineKeyboardButton(text=tr.t("btn-again"), callback_data=data)


def _next_button(game: ChatGame, tr: Translator) -> InlineKeyboardButton:
    series = game.series
    assert series is not None
    data = LobbyPress(game=game.game_id, op="next").pack()
    text = tr.t("btn-next-game", number=series.number + 1, length=series.length)
    return InlineKeyboardButton(text=text, callback_data=data)


def finish_button(game: ChatGame, tr: Translator) -> InlineKeyboardButton:
    """Under a finished game: the next game of its series, or «Сыграть ещё»."""
    pending = game.series is not None and not game.series_over
    return _next_button(game, tr) if pending else _again_button(game, tr)


def after_buttons(game: ChatGame, tr: Translator) -> list[list[InlineKeyboardButton]]:
    """Under a game that ended and was kept (it committed to its deck): «Проверить колоду»
    and «Разбор»."""
    if game.commitment is None:
        return []
    buttons = [(LobbyOp.VERIFY, "btn-verify"), (LobbyOp.REVIEW, "btn-review")]
    return [
        [
            InlineKeyboardButton(
                text=tr.t(text), callback_data=LobbyPress(game=game.game_id, op=op).pack()
            )
            for op, text in buttons
        ]
    ]


def _finished_view(scene: TableScene, tr: Translator) -> Rendered:
    game = scene.game
    lines = finished_lines(game, scene.view, tr)
    return Rendered(fit(lines), keyboard([[finish_button(game, tr)], *after_buttons(game, tr)]))


def table_view(scene: TableScene, tr: Translator, *, links: TableLinks | None = None) -> Rendered:
    """The group's table: trump, stock and discard, every player with card count and role,
    the pairs on the table, whose move it is, the last events; a "My cards" button, and
    with the Mini App's direct link (``links``) a «🃏 Стол» link beside it. After the game:
    the finishing order with the durak or a draw, and a "Play again" button."""
    game, view = scene.game, scene.view
    if view.finished:
        return _finished_view(scene, tr)
    lines = [*table_lines(game, view, tr), *log_lines(game, tr)]
    return Rendered(fit(lines), _playing_keyboard(game.game_id, game.chat_id, tr, links))


@functools.lru_cache(maxsize=4096)
def _playing_keyboard(
    game_id: str, chat_id: int, tr: Translator, links: TableLinks | None
) -> InlineKeyboardMarkup | None:
    """The table's buttons while its game is played: the same at every move of the game,
    so built once (their models were a third of a table's rendering). Shared by every
    rendering of the game: never changed in place."""
    row = [_my_cards_button(game_id, tr)]
    link = group_table_button(links, chat_id, tr)
    if link is not None:
        row.append(link)
    return keyboard([row])
