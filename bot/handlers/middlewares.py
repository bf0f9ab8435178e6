"""The inner middlewares around every handler, outermost first: the press's one answer
(``AnswerMiddleware``), every update once and a chat's updates in order
(``OnceMiddleware``), and what every handler gets besides the update (``ContextMiddleware``,
``PersonMiddleware``, ``AdminMiddleware``).

Every press answered exactly once, by ``AnswerMiddleware`` when its handling ends (in a
``finally``, as aiogram's ``CallbackAnswerMiddleware`` does): a handler, or a middleware
within, only says what the answer should say (``PressAnswer``), in the presser's language,
so none can forget to answer or answer twice.

The answer comes after the handler has published what changed: it only stops the spinner on
the presser's button (and shows a pop-up), never what the game shows, so a failure to send
it ("query is too old" after a restart or a repeated delivery, Telegram failing or slow) is
logged, not raised. A delivery of a press that was handled already (``OnceMiddleware``,
within) is answered without a text, as its first delivery said what there was to say.

What every handler gets besides the update: the chat's ``Translator`` (``tr``, the
group's language in a group), the sender's own (``presser_tr``, their Telegram language, as
their private chat speaks it: for what only they see), the sender as a ``Player``
(``player``, only when a person sent it), ``is_admin`` (asked only if called), and a
refusal when Redis stays too busy (for a press, said by its one answer).

Every update once, and a chat's updates one at a time, in the order they came: an inner
middleware, the first around every handler (so an update nobody wants costs nothing). A chat's
updates are handled one after another in this process (a lock per chat, taken before anything is
awaited, so in the order Telegram sent them): four ``/set`` in a row are applied and answered in
that order, and a refusal is said before what a later command did. A press on a hand keyboard
waits behind the group whose game it plays (``_waits_behind``), so the presses of one game's
players do not collide in its compare-and-set. Then the handler runs as the one handling of its
update (``bot.storage.workers.UpdateOnce``): a delivery of an update another delivery handled (or
is handling) does nothing (a press among them is answered without a text). The handler gets the
update's claim as ``once`` and hands it to each change it saves."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, Final

from aiogram import BaseMiddleware
from aiogram.enums import ChatType
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest
from aiogram.types import CallbackQuery, Chat, Message, TelegramObject, Update, User
from redis.exceptions import RedisError

from bot.i18n import Translator, private_language, translator
from bot.metrics import PRESS_ANSWER, UPDATES
from bot.model import ChatSettings
from bot.schema.refusals import Reason
from bot.services import (
    DUPLICATE,
    Changed,
    Check,
    Claim,
    NewerRecord,
    Outcome,
    Player,
    Refused,
    StorageBusy,
    UpdateOnce,
)
from bot.services.people import AdminService, AdminUnknown
from bot.ui.callbacks import HandPress
from bot.ui.errors import popup_text
from bot.waiting import wait_event
from engine import Code

from .filters import GROUP_CHATS
from .telegram import admin_check, anonymous_admin, fit_popup

log = logging.getLogger(__name__)


def presser_translator(user: User | None) -> Translator:
    """The sender's own language (their Telegram language, as their private chat speaks
    it): for what only they see."""
    return translator(private_language(user.language_code if user else None))


class PressAnswer:
    """What the one answer to a press says; by default nothing (the spinner stops). Handed
    to handlers as ``press_answer``; the last thing said is the answer."""

    __slots__ = ("alert", "text", "tr", "url")

    def __init__(self, tr: Translator) -> None:
        self.tr = tr  # the presser's language
        self.text: str | None = None
        self.alert = False
        self.url: str | None = None

    def say(self, message_id: str, *, alert: bool = False, **args: object) -> None:
        """The message ``message_id``, in the presser's language."""
        self.show(self.tr.t(message_id, **args), alert=alert)

    def show(self, text: str, *, alert: bool = False) -> None:
        """A text already in the presser's language (their hand, a rule's change), cut to
        what a pop-up holds; ``alert``: a box to close rather than a passing note."""
        self.text, self.alert = fit_popup(text), alert

    def refuse(self, reason: Reason | Code) -> None:
        """Why nothing changed. A press delivered again is answered without a text."""
        text = popup_text(reason, self.tr)
        if text is not None:
            self.show(text)

    def tell(self, outcome: Outcome, done: str) -> None:
        """``done`` (a message id) if ``outcome`` changed something, else why not."""
        match outcome:
            case Changed():
                self.say(done)
            case Refused(reason):
                self.refuse(reason)

    def open(self, url: str) -> None:
        """Open ``url`` (a ``t.me`` link to the bot's private chat) instead of a pop-up."""
        self.url = url

    async def send(self, query: CallbackQuery) -> None:
        try:
            await query.answer(self.text, show_alert=self.alert or None, url=self.url)
        except TelegramBadRequest as error:
            log.info("press %s not answered: %s", query.id, error.message)
        except (TelegramAPIError, TimeoutError) as error:
            log.warning("press %s not answered: %s", query.id, error)


class AnswerMiddleware(BaseMiddleware):
    """The outermost inner middleware for presses: ``press_answer`` for everything within,
    sent once whatever happens there (a refusal, an error, a duplicate delivery)."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, CallbackQuery):
            return await handler(event, data)
        started = time.monotonic()
        press_answer = data["press_answer"] = PressAnswer(presser_translator(event.from_user))
        try:
            return await handler(event, data)
        finally:
            await press_answer.send(event)
            PRESS_ANSWER.observe(time.monotonic() - started)


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
        except NewerRecord as error:
            # A newer version of the bot saved this game (a rolling upgrade under way, or a
            # rollback): it is left as it is; the person tries again on a newer worker.
            log.warning("chat %s: %s; left to a newer worker", chat.id if chat else None, error)
            await _refuse(event, data, tr, "updating")
            outcome = "newer_version"
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
    sender that nothing happened, and why (busy, unavailable, updating, admin-unknown)."""
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


def _waits_behind(event: TelegramObject, chat: Chat | None) -> int | None:
    """The chat whose updates this one is handled after: for a press on a hand keyboard (in
    a private chat) the group whose game it plays, so that the presses of one game's players
    are applied one after another instead of colliding in its compare-and-set; for anything
    else its own chat."""
    if isinstance(event, CallbackQuery) and event.data:
        with contextlib.suppress(ValueError, TypeError):
            return HandPress.unpack(event.data).chat
    return None if chat is None else chat.id


class OnceMiddleware(BaseMiddleware):
    def __init__(self, once: UpdateOnce) -> None:
        self.once = once
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        update: Update | None = data.get("event_update")
        if update is None:
            return await handler(event, data)
        chat_id = _waits_behind(event, data.get("event_chat"))
        if chat_id is None:
            return await self._once(update, handler, event, data)
        async with self._lock(chat_id):
            return await self._once(update, handler, event, data)

    def _lock(self, chat_id: int) -> asyncio.Lock:
        lock = self._locks.get(chat_id)
        if lock is None:
            lock = self._locks[chat_id] = asyncio.Lock()
        return lock

    async def _once(
        self, update: Update, handler: Handler, event: TelegramObject, data: dict[str, Any]
    ) -> Any:
        async def handle(claim: Claim | None) -> Any:
            data["once"] = claim
            return await handler(event, data)

        result = await self.once.run(update.update_id, handle)
        if result is not DUPLICATE:
            return result
        log.info("update %s was handled already", update.update_id)
        UPDATES.labels(kind=kind_of(event), outcome="duplicate").inc()
        return None
