"""/settings and /set: the chat's house rules, changed in a group by its admins only (the
creator or an administrator, as ``is_admin`` says; an anonymous admin writing on behalf of
the group counts), in a private chat by its person (the rules of their games with computer
players there). Parse -> ``SettingsService`` -> answer; the /settings message is edited in place,
a lobby that follows the change is republished. One handler per button (``SettingsOp``);
every press is answered exactly once."""

from __future__ import annotations

import logging
from typing import assert_never

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.delivery import Outbox
from bot.i18n import Translator, translator
from bot.model import is_private_chat
from bot.services import Check
from bot.services.settings import KEYS, ChangeResult, SettingError, SettingsService, keys_of
from bot.ui.callbacks import SettingsOp, SettingsPress
from bot.ui.common import Rendered
from bot.ui.settings import (
    change_text,
    error_text,
    set_list,
    settings_done,
    settings_menu,
    settings_view,
)

from .filters import UNDER_GROUP_MESSAGE, UNDER_PRIVATE_MESSAGE, pressed_chat
from .telegram import answer, fit_popup, popup

log = logging.getLogger(__name__)


def router() -> Router:
    router = Router(name="settings")
    # In a group its admins change its rules; in a private chat the person changes those of
    # their games with computer players there.
    router.callback_query.filter(UNDER_GROUP_MESSAGE | UNDER_PRIVATE_MESSAGE)
    router.message.register(show, Command("settings"))
    router.message.register(set_, Command("set"))
    # A press with a key no rule has falls through to the catch-all ("malformed").
    press = SettingsPress.filter
    router.callback_query.register(press_set, press((F.op == SettingsOp.SET) & F.key.in_(KEYS)))
    router.callback_query.register(press_open, press((F.op == SettingsOp.OPEN) & F.key.in_(KEYS)))
    router.callback_query.register(press_back, press(F.op == SettingsOp.BACK))
    router.callback_query.register(press_done, press(F.op == SettingsOp.DONE))
    return router


# -- commands ---------------------------------------------------------------------------------


async def show(
    message: Message,
    settings_service: SettingsService,
    outbox: Outbox,
    tr: Translator,
    is_admin: Check,
) -> None:
    """The rules, with buttons for an admin and without for anybody else."""
    editable, chat_id = await is_admin(), message.chat.id
    settings = await settings_service.get(chat_id)
    view = settings_view(settings, tr, editable=editable, private=is_private_chat(chat_id))
    await outbox.say(message.chat.id, view.text, markup=view.markup, reply_to=message.message_id)


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

    async def reply(text: str) -> None:
        await outbox.say(chat_id, text, reply_to=message.message_id)

    if not words:
        settings = await settings_service.get(chat_id)
        await reply(set_list(settings, tr, private=is_private_chat(chat_id)))
        return
    if not await is_admin():
        await reply(tr.t("settings-not-admin"))
        return
    if len(words) != 2:
        await reply(tr.t("settings-usage"))
        return
    try:
        change = await settings_service.change(chat_id, words[0], words[1])
    except SettingError as error:
        await reply(error_text(error, await settings_service.get(chat_id), tr))
        return
    await reply(change_text(change, translator(change.settings.language)))
    outbox.publish(change.record)


# -- the buttons of the /settings message -----------------------------------------------------


async def press_set(
    query: CallbackQuery,
    callback_data: SettingsPress,
    bot: Bot,
    settings_service: SettingsService,
    outbox: Outbox,
    tr: Translator,
    presser_tr: Translator,
    is_admin: Check,
) -> None:
    """A value of a rule: set it. The pop-up says what changed (or why not) in the
    presser's language, the message shows the rules again in the chat's."""
    if await _not_admin(query, presser_tr, is_admin):
        return
    chat_id = pressed_chat(query)
    private = is_private_chat(chat_id)
    try:
        change = await settings_service.change(chat_id, callback_data.key, callback_data.value)
    except SettingError as error:  # a value the rules no longer allow
        settings = await settings_service.get(chat_id)
        await answer(query, fit_popup(error_text(error, settings, presser_tr)), show_alert=True)
        await _show(bot, query, settings_view(settings, tr, private=private))
        return
    tr = translator(change.settings.language)  # the message follows a change of language
    match change.result:
        case ChangeResult.CHANGED | ChangeResult.SAME:
            alert = False
        case ChangeResult.TOO_MANY_SEATED:  # refused: more sit in the lobby than it allows
            alert = True
        case _:
            assert_never(change.result)
    outbox.publish(change.record)
    await answer(query, fit_popup(change_text(change, presser_tr)), show_alert=alert)
    await _show(bot, query, settings_view(change.settings, tr, private=private))


async def press_open(
    query: CallbackQuery,
    callback_data: SettingsPress,
    bot: Bot,
    settings_service: SettingsService,
    tr: Translator,
    presser_tr: Translator,
    is_admin: Check,
) -> None:
    """A rule with more than two values: show them, the current one ticked."""
    if await _not_admin(query, presser_tr, is_admin):
        return
    chat_id = pressed_chat(query)
    private = is_private_chat(chat_id)
    if callback_data.key not in keys_of(private=private):  # no such button here
        await answer(query, popup(presser_tr, "answer-malformed"))
        return
    await answer(query)
    settings = await settings_service.get(chat_id)
    await _show(bot, query, settings_menu(settings, callback_data.key, tr, private=private))


async def press_back(
    query: CallbackQuery,
    bot: Bot,
    settings_service: SettingsService,
    tr: Translator,
    presser_tr: Translator,
    is_admin: Check,
) -> None:
    """Back from the values of a rule to the list of rules."""
    if await _not_admin(query, presser_tr, is_admin):
        return
    await answer(query)
    chat_id = pressed_chat(query)
    settings = await settings_service.get(chat_id)
    await _show(bot, query, settings_view(settings, tr, private=is_private_chat(chat_id)))


async def press_done(
    query: CallbackQuery,
    bot: Bot,
    settings_service: SettingsService,
    tr: Translator,
    presser_tr: Translator,
    is_admin: Check,
) -> None:
    """Close the message: it keeps the rules and loses its buttons."""
    if await _not_admin(query, presser_tr, is_admin):
        return
    await answer(query)
    chat_id = pressed_chat(query)
    settings = await settings_service.get(chat_id)
    await _show(bot, query, settings_done(settings, tr, private=is_private_chat(chat_id)))


async def _not_admin(query: CallbackQuery, presser_tr: Translator, is_admin: Check) -> bool:
    """Only an admin may press; anybody else is told so, in their language (and nothing
    changes)."""
    if await is_admin():
        return False
    await answer(query, popup(presser_tr, "settings-not-admin"), show_alert=True)
    return True


async def _show(bot: Bot, query: CallbackQuery, view: Rendered) -> None:
    """Edit the /settings message that was pressed. This is the answer to an admin's press,
    at a person's pace, so it goes at once rather than through the outbox; if Telegram
    refuses, the pop-up has already said what changed and the next press redraws it."""
    assert query.message is not None
    chat_id, message_id = query.message.chat.id, query.message.message_id
    try:
        await bot.edit_message_text(
            text=view.text, chat_id=chat_id, message_id=message_id, reply_markup=view.markup
        )
    except TelegramRetryAfter as error:
        log.warning("settings message in %s not redrawn: retry after %s s", chat_id, error)
    except TelegramBadRequest as error:
        if "message is not modified" not in error.message.lower():
            log.warning("settings message in %s not redrawn: %s", chat_id, error.message)
