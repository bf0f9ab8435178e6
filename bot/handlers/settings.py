"""/settings and /set: the group's house rules, changed by its admins only (the creator or an
administrator, asked through the one cached ``admin_check``; an anonymous admin writing on
behalf of the group counts). Parse -> ``SettingsService`` -> answer; the /settings message
is edited in place, a lobby that follows the change is republished."""

from __future__ import annotations

import logging
from typing import Final

from aiogram import Bot, Router
from aiogram.enums import ChatType
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.delivery import Outbox
from bot.i18n import Translator, translator
from bot.services import Check
from bot.services.settings import KEYS, ChangeResult, SettingError, SettingsService
from bot.ui.common import Rendered
from bot.ui.settings import (
    SettingsPress,
    change_text,
    error_text,
    set_list,
    settings_done,
    settings_menu,
    settings_view,
)

from .filters import IN_GROUP, IN_PRIVATE
from .telegram import answer, fit_popup, popup

log = logging.getLogger(__name__)

OPS: Final = frozenset({"open", "set", "back", "done"})


def router() -> Router:
    router = Router(name="settings")

    @router.message(IN_PRIVATE, Command("settings", "set"))
    async def group_only(message: Message, outbox: Outbox, tr: Translator) -> None:
        outbox.say(message.chat.id, tr.t("reply-group-only"))

    @router.message(IN_GROUP, Command("settings"))
    async def show(
        message: Message,
        settings_service: SettingsService,
        outbox: Outbox,
        tr: Translator,
        is_admin: Check,
    ) -> None:
        """The rules, with buttons for an admin and without for anybody else."""
        editable = await is_admin()
        view = settings_view(await settings_service.get(message.chat.id), tr, editable=editable)
        outbox.say(message.chat.id, view.text, markup=view.markup, reply_to=message.message_id)

    @router.message(IN_GROUP, Command("set"))
    async def set_(
        message: Message,
        command: CommandObject,
        settings_service: SettingsService,
        outbox: Outbox,
        tr: Translator,
        is_admin: Check,
    ) -> None:
        """``/set`` lists the keys and values (anybody may look); ``/set <key> <value>``
        changes one (an admin only)."""
        chat_id = message.chat.id
        words = (command.args or "").split()

        def reply(text: str) -> None:
            outbox.say(chat_id, text, reply_to=message.message_id)

        if not words:
            reply(set_list(await settings_service.get(chat_id), tr))
            return
        if not await is_admin():
            reply(tr.t("settings-not-admin"))
            return
        if len(words) != 2:
            reply(tr.t("settings-usage"))
            return
        try:
            change = await settings_service.change(chat_id, words[0], words[1])
        except SettingError as error:
            reply(error_text(error, await settings_service.get(chat_id), tr))
            return
        reply(change_text(change, translator(change.settings.language)))
        outbox.publish(change.record)

    @router.callback_query(SettingsPress.filter())
    async def press(
        query: CallbackQuery,
        callback_data: SettingsPress,
        bot: Bot,
        settings_service: SettingsService,
        outbox: Outbox,
        tr: Translator,
        is_admin: Check,
    ) -> None:
        """A button of the /settings message; every press is answered exactly once."""
        message = query.message
        op, key = callback_data.op, callback_data.key
        if (
            message is None
            or message.chat.type == ChatType.PRIVATE
            or op not in OPS
            or (op in ("open", "set") and key not in KEYS)
        ):
            await answer(query, popup(tr, "answer-malformed"))
            return
        chat_id = message.chat.id
        if not await is_admin():
            await answer(query, popup(tr, "settings-not-admin"), show_alert=True)
            return
        if op == "set":
            try:
                change = await settings_service.change(chat_id, key, callback_data.value)
            except SettingError as error:  # a value the rules no longer allow
                settings = await settings_service.get(chat_id)
                await answer(query, fit_popup(error_text(error, settings, tr)), show_alert=True)
                view = settings_view(settings, tr)
            else:
                tr = translator(change.settings.language)
                refused = change.result is ChangeResult.TOO_MANY_SEATED
                outbox.publish(change.record)
                await answer(query, fit_popup(change_text(change, tr)), show_alert=refused)
                view = settings_view(change.settings, tr)
        else:
            await answer(query)
            settings = await settings_service.get(chat_id)
            if op == "open":
                view = settings_menu(settings, key, tr)
            elif op == "done":
                view = settings_done(settings, tr)
            else:
                view = settings_view(settings, tr)
        await _show(bot, chat_id, message.message_id, view)

    return router


async def _show(bot: Bot, chat_id: int, message_id: int, view: Rendered) -> None:
    """Edit the /settings message that was pressed. This is the answer to an admin's press,
    at a person's pace, so it goes at once rather than through the outbox; if Telegram
    refuses, the pop-up has already said what changed and the next press redraws it."""
    try:
        await bot.edit_message_text(
            text=view.text, chat_id=chat_id, message_id=message_id, reply_markup=view.markup
        )
    except TelegramRetryAfter as error:
        log.warning("settings message in %s not redrawn: retry after %s s", chat_id, error)
    except TelegramBadRequest as error:
        if "message is not modified" not in error.message.lower():
            log.warning("settings message in %s not redrawn: %s", chat_id, error.message)
