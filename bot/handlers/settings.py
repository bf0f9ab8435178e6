"""/settings and /set: the chat's house rules, changed in a group by its admins only (the
creator or an administrator, as ``is_admin`` says; an anonymous admin writing on behalf of
the group counts), in a private chat by its person (the rules of their games with computer
players there). Parse -> ``SettingsService`` -> answer; the /settings message is edited in place,
a lobby that follows the change is republished. One handler per button (``SettingsOp``),
each for an admin only (``AdminsOnly``); every press is answered once, by
``bot.handlers.middlewares``."""

from __future__ import annotations

import functools
import logging
from typing import Any, Protocol, assert_never

from aiogram import BaseMiddleware, Bot, F, Router
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message, TelegramObject

from bot.delivery import Outbox
from bot.i18n import Translator, translator
from bot.model import ChatSettings, is_private_chat
from bot.services import Check, Claim
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
from .middlewares import Handler, PressAnswer

log = logging.getLogger(__name__)


class Draw(Protocol):
    """A view of the settings (the list, one rule's values, the closed message); ``private``:
    the chat is a person's."""

    def __call__(self, settings: ChatSettings, *, private: bool) -> Rendered: ...


def router() -> Router:
    router = Router(name="settings")
    # In a group its admins change its rules; in a private chat the person changes those of
    # their games with computer players there.
    router.callback_query.filter(UNDER_GROUP_MESSAGE | UNDER_PRIVATE_MESSAGE)
    router.callback_query.middleware(AdminsOnly())
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
    once: Claim | None = None,
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
        change = await settings_service.change(chat_id, words[0], words[1], once=once)
    except SettingError as error:
        await reply(error_text(error, await settings_service.get(chat_id), tr))
        return
    await reply(change_text(change, translator(change.settings.language), explain=True))
    outbox.publish(change.record)


# -- the buttons of the /settings message -----------------------------------------------------


class AdminsOnly(BaseMiddleware):
    """The buttons of /settings are an admin's: anybody else is told so in a pop-up, in
    their language, and no handler runs (nothing changes)."""

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        is_admin: Check = data["is_admin"]
        if await is_admin():
            return await handler(event, data)
        press_answer: PressAnswer = data["press_answer"]
        press_answer.say("settings-not-admin", alert=True)
        return None


async def press_set(
    query: CallbackQuery,
    callback_data: SettingsPress,
    bot: Bot,
    settings_service: SettingsService,
    outbox: Outbox,
    tr: Translator,
    presser_tr: Translator,
    press_answer: PressAnswer,
    once: Claim | None = None,
) -> None:
    """A value of a rule: set it. The pop-up says what changed (or why not) in the
    presser's language, the message shows the rules again in the chat's."""
    chat_id = pressed_chat(query)
    private = is_private_chat(chat_id)
    try:
        change = await settings_service.change(
            chat_id, callback_data.key, callback_data.value, once=once
        )
    except SettingError as error:  # a value the rules no longer allow
        settings = await settings_service.get(chat_id)
        press_answer.show(error_text(error, settings, presser_tr), alert=True)
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
    press_answer.show(change_text(change, presser_tr), alert=alert)
    await _show(bot, query, settings_view(change.settings, tr, private=private))


async def press_open(
    query: CallbackQuery,
    callback_data: SettingsPress,
    bot: Bot,
    settings_service: SettingsService,
    tr: Translator,
    press_answer: PressAnswer,
) -> None:
    """A rule with more than two values: show them, the current one ticked."""
    key = callback_data.key
    if key not in keys_of(private=is_private_chat(pressed_chat(query))):  # no such button here
        press_answer.say("answer-malformed")
        return
    await _redraw(bot, query, settings_service, functools.partial(settings_menu, key=key, tr=tr))


async def press_back(
    query: CallbackQuery, bot: Bot, settings_service: SettingsService, tr: Translator
) -> None:
    """Back from the values of a rule to the list of rules."""
    await _redraw(bot, query, settings_service, functools.partial(settings_view, tr=tr))


async def press_done(
    query: CallbackQuery, bot: Bot, settings_service: SettingsService, tr: Translator
) -> None:
    """Close the message: it keeps the rules and loses its buttons."""
    await _redraw(bot, query, settings_service, functools.partial(settings_done, tr=tr))


async def _redraw(
    bot: Bot, query: CallbackQuery, settings_service: SettingsService, draw: Draw
) -> None:
    """Draw the pressed chat's settings anew (``draw``: the list, one rule's values, or the
    closed message) into the /settings message that was pressed."""
    chat_id = pressed_chat(query)
    settings = await settings_service.get(chat_id)
    await _show(bot, query, draw(settings, private=is_private_chat(chat_id)))


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
