"""The buttons that open the Mini App (the drawn table, ``bot.webapp``) from the chat.

Telegram allows ``web_app`` buttons in private chats only: a player's hand message gets one
that opens ``WEBAPP_URL`` for its game's chat. A group's table gets a plain link to the
app's direct link (``t.me/<bot>/<short name>?startapp=<chat id>``), when the operator
registered the app with @BotFather (``WEBAPP_SHORT_NAME``)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from aiogram.types import InlineKeyboardButton, WebAppInfo

from bot.i18n import Translator


@dataclass(frozen=True, slots=True)
class TableLinks:
    """Where the Mini App is. ``url``: its page (``WEBAPP_URL``); ``direct``: its direct
    link ``https://t.me/<bot>/<short name>``, or None without a short name."""

    url: str
    direct: str | None = None

    def page(self, chat_id: int) -> str:
        separator = "&" if "?" in self.url else "?"
        return f"{self.url}{separator}{urlencode({'chat': chat_id})}"


def private_table_button(links: TableLinks, chat_id: int, tr: Translator) -> InlineKeyboardButton:
    """«🃏 Стол» under a hand in private: opens the page of the game of ``chat_id``."""
    return InlineKeyboardButton(
        text=tr.t("button-webapp"), web_app=WebAppInfo(url=links.page(chat_id))
    )


def group_table_button(
    links: TableLinks | None, chat_id: int, tr: Translator
) -> InlineKeyboardButton | None:
    """«🃏 Стол» under a group's table: the direct link with the chat in ``startapp``."""
    if links is None or links.direct is None:
        return None
    return InlineKeyboardButton(
        text=tr.t("button-webapp"), url=f"{links.direct}?startapp={chat_id}"
    )
