"""What every handler gets besides the update: the chat's ``Translator`` (``tr``, the
group's language in a group), the sender's own (``presser_tr``, their Telegram language, as
their private chat speaks it: for what only they see), the sender as a ``Player``
(``player``, only when a person sent it), ``is_admin`` (asked only if called), and a
refusal when Redis stays too busy (for a press, said by its one answer: ``answers``)."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, Final

from aiogram import BaseMiddleware
from aiogram.enums import ChatType
from aiogram.exceptions import TelegramAPIError
from aiogram.types import CallbackQuery, Chat, Message, TelegramObject, User
from redis.exceptions import RedisError

from bot.i18n import Translator, private_language, translator
from bot.metrics import UPDATES
from bot.model import ChatSettings
from bot.services import Check, Player, StorageBusy
from bot.services.admins import AdminService, AdminUnknown
from bot.waiting import wait_event

from .answers import PressAnswer, presser_translator
from .filters import GROUP_CHATS
from .telegram import admin_check, anonymous_admin

log = logging.getLogger(__name__)

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]
SettingsOf = Callable[[int], Awaitable[ChatSettings]]
PERSON: Final = frozenset({"player", "is_admin"})  # handler arguments only a person has


def player_of(user: User) -> Player:
    return Player(user.id, user.full_name, private_language(user.language_code))


class ContextMiddleware(BaseMiddleware):
    """Inner middleware for messages, callback queries and member updates: it runs once a
    handler wants the update, so an update nobody wants costs no Redis read. It refuses
    politely when Redis is busy or down, and counts the updates being handled, so a
    stopping bot can let them finish (``drain``) before closing Redis."""

    def __init__(self, settings_of: SettingsOf) -> None:
        self.settings_of = settings_of
        self.active = 0
        self._idle = asyncio.Event()
        self._idle.set()

    async def drain(self, timeout: float = 5.0) -> None:
        """Wait until no update is being handled (at most ``timeout`` seconds)."""
        await wait_event(self._idle, timeout)

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        chat: Chat | None = data.get("event_chat")
        user: User | None = data.get("event_from_user")
        presser_tr = tr = presser_translator(user)
        self.active += 1
        self._idle.clear()
        outcome = "error"
        try:
            if chat is not None and chat.type != ChatType.PRIVATE:
                tr = translator((await self.settings_of(chat.id)).language)
            data["tr"] = tr
            data["presser_tr"] = presser_tr
            if user is not None and _from_a_person(event, chat):
                data["player"] = player_of(user)
            result = await handler(event, data)
            outcome = "handled"
            return result
        except StorageBusy:
            log.warning("redis stayed busy for chat %s", chat.id if chat else None)
            await _refuse(event, data, tr, "busy")
            outcome = "busy"
            return None
        except RedisError as error:
            # Redis is down or unreachable: nothing was saved, so nothing changed; say so
            # rather than leave the press spinning.
            log.error("redis unavailable for chat %s: %s", chat.id if chat else None, error)
            await _refuse(event, data, tr, "unavailable")
            outcome = "unavailable"
            return None
        except AdminUnknown as error:
            # Telegram's answer to "is this an admin?" could not be read: nothing was
            # decided; the sender may simply try again.
            log.warning("%s; told to try again", error)
            await _refuse(event, data, tr, "admin-unknown")
            outcome = "admin_unknown"
            return None
        finally:
            UPDATES.labels(kind=kind_of(event), outcome=outcome).inc()
            self.active -= 1
            if not self.active:
                self._idle.set()


def kind_of(event: TelegramObject) -> str:
    """``message``, ``callback_query``, ``chat_member_updated``, ... (for the metrics)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(event).__name__).lower()


async def _refuse(event: TelegramObject, data: dict[str, Any], tr: Translator, why: str) -> None:
    """Tell the presser (in their language, by the press's answer) or the chat of the
    sender that nothing happened, and why (busy, unavailable, admin-unknown)."""
    if isinstance(event, CallbackQuery):
        press_answer: PressAnswer = data["press_answer"]
        press_answer.say(f"answer-{why}")
    elif isinstance(event, Message):
        try:
            await event.answer(tr.t(f"reply-{why}"))
        except TelegramAPIError as error:
            log.warning("could not tell chat %s: %s", event.chat.id, error)


def _from_a_person(event: TelegramObject, chat: Chat | None) -> bool:
    """Not a post on behalf of a channel (or of another chat): Telegram then puts a
    placeholder account into ``from``, which must not sit at a table or open one. A
    message on behalf of the group itself is an anonymous admin's (see the handlers)."""
    if not isinstance(event, Message) or event.sender_chat is None:
        return True
    return chat is not None and event.sender_chat.id == chat.id


class PersonMiddleware(BaseMiddleware):
    """Inner middleware for messages: a handler that needs the sender as a ``Player``, or
    asks whether they are an admin, is not called for a message no person sent (a
    channel's post, a message without ``from``); the chat is told why instead. Handlers
    that need nobody (/rules, /help, /stats, service messages) run as usual."""

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        target = data.get("handler")
        needs_player = target is not None and not PERSON.isdisjoint(getattr(target, "params", ()))
        if needs_player and "player" not in data and isinstance(event, Message):
            tr: Translator = data["tr"]
            await data["outbox"].say(
                event.chat.id, tr.t("reply-not-a-person"), reply_to=event.message_id
            )
            return None
        return await handler(event, data)


class AdminMiddleware(BaseMiddleware):
    """Inner middleware for messages and presses: hands the handler ``is_admin``, a
    ``Check`` that asks only when called: is whoever sent this an admin of the group? A
    message sent on behalf of the group (an anonymous admin) is, without asking; anybody
    else is asked of Telegram through ``AdminService``'s cache. In a private chat the person
    is its admin: its house rules are theirs (a game there is theirs alone)."""

    def __init__(self, admins: AdminService) -> None:
        self.admins = admins

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        chat: Chat | None = data.get("event_chat")
        user: User | None = data.get("event_from_user")
        is_admin: Check = _no
        if isinstance(event, Message) and anonymous_admin(event):
            is_admin = _yes
        elif chat is not None and chat.type == ChatType.PRIVATE:
            is_admin = _yes  # the person's own chat: they sit alone at its table
        elif chat is not None and user is not None and chat.type in GROUP_CHATS:
            is_admin = admin_check(data["bot"], self.admins, chat.id, user.id)
        data["is_admin"] = is_admin
        return await handler(event, data)


async def _yes() -> bool:
    return True


async def _no() -> bool:
    return False
