"""When Telegram's answer to "is this user an admin?" could not be read (``AdminUnknown``),
the command or press that needed it changes nothing: its sender is told to try again, in a
reply or a pop-up, and the log gets one line (no traceback)."""

from __future__ import annotations

import logging
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import CallbackQuery, Message, TelegramObject

from bot.delivery import Outbox
from bot.i18n import Translator
from bot.services.admins import AdminUnknown

from .context import Handler
from .telegram import answer, popup

log = logging.getLogger(__name__)


class AdminUnknownMiddleware(BaseMiddleware):
    """Inner middleware for messages and presses, inside ``AdminMiddleware``: the handler's
    ``is_admin`` raised ``AdminUnknown`` before anything was decided."""

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        try:
            return await handler(event, data)
        except AdminUnknown as error:
            log.warning("%s; told to try again", error)
            tr: Translator = data["tr"]
            if isinstance(event, CallbackQuery):
                await answer(event, popup(tr, "answer-admin-unknown"), show_alert=True)
            elif isinstance(event, Message):
                outbox: Outbox = data["outbox"]
                text = tr.t("reply-admin-unknown")
                await outbox.say(event.chat.id, text, reply_to=event.message_id)
            return None
