"""The buttons that open the Mini App (the drawn table, ``bot.webapp``) from the chat.

Telegram allows ``web_app`` buttons in private chats only: a player's hand message gets one
that opens ``WEBAPP_URL`` for its game's chat. A group's table gets a plain link to the
app's direct link (``t.me/<bot>/<short name>?startapp=<chat id>``), when the operator
registered the app with @BotFather (``WEBAPP_SHORT_NAME``).

A finished game's replay is the page ``replay`` beside the table's (``/replay?chat=&game=``).
Its direct link carries both in the one ``startapp`` Telegram allows (at most 64 of
``A-Za-z0-9_-``): ``r``, the chat's id with ``m`` for its minus sign, ``_``, the game's id
(``replay_start_param``: ``r`` ``m1001`` ``_`` ``Ab3_x-`` for chat -1001, game ``Ab3_x-``).
The chat's part has no ``_``, so the first ``_`` ends it, whatever the game's id holds; the
table's page (static/app.js) reads it so and goes to the replay's."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlencode, urljoin, urlsplit, urlunsplit

from aiogram.types import InlineKeyboardButton, WebAppInfo

from bot.i18n import Translator

REPLAY_PATH: Final = "replay"  # the replay page, beside the table's page (bot.webapp.server)
REPLAY_START: Final = re.compile(r"r(m?)([0-9]{1,19})_([A-Za-z0-9_-]{1,40})")


@dataclass(frozen=True, slots=True)
class TableLinks:
    """Where the Mini App is. ``url``: its page (``WEBAPP_URL``); ``direct``: its direct
    link ``https://t.me/<bot>/<short name>``, or None without a short name."""

    url: str
    direct: str | None = None

    def page(self, chat_id: int) -> str:
        separator = "&" if "?" in self.url else "?"
        return f"{self.url}{separator}{urlencode({'chat': chat_id})}"

    def replay_page(self, chat_id: int, game_id: str) -> str:
        """The replay of ``game_id`` in ``chat_id``: ``replay`` taken relative to the
        table's page, as that page takes its own ``static/`` files (``.../durak/`` and
        ``.../durak/index.html`` both give ``.../durak/replay``), its query kept."""
        parts = urlsplit(self.url)
        path = urljoin(parts.path or "/", REPLAY_PATH)
        ours = urlencode({"chat": chat_id, "game": game_id})
        query = f"{parts.query}&{ours}" if parts.query else ours
        return urlunsplit((parts.scheme, parts.netloc, path, query, ""))

    def replay_link(self, chat_id: int, game_id: str) -> str | None:
        """The direct link that opens the replay of ``game_id``; None without one."""
        if self.direct is None:
            return None
        return f"{self.direct}?startapp={replay_start_param(chat_id, game_id)}"


def replay_start_param(chat_id: int, game_id: str) -> str:
    """The ``startapp`` of a replay's direct link (the module's docstring)."""
    chat = f"m{-chat_id}" if chat_id < 0 else str(chat_id)
    return f"r{chat}_{game_id}"


def read_replay_start_param(param: str) -> tuple[int, str] | None:
    """The chat and the game of a replay's ``startapp``; None for anything else."""
    found = REPLAY_START.fullmatch(param)
    if found is None:
        return None
    minus, digits, game_id = found.groups()
    return (-int(digits) if minus else int(digits)), game_id


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


def replay_button(
    links: TableLinks | None, chat_id: int, game_id: str, tr: Translator, private: bool
) -> InlineKeyboardButton | None:
    """«▶️ Повтор» of a finished game: the page itself in a private chat, the direct link in
    a group (None there without a short name, and anywhere without the Mini App)."""
    if links is None:
        return None
    if private:
        return InlineKeyboardButton(
            text=tr.t("button-replay"), web_app=WebAppInfo(url=links.replay_page(chat_id, game_id))
        )
    link = links.replay_link(chat_id, game_id)
    return None if link is None else InlineKeyboardButton(text=tr.t("button-replay"), url=link)
