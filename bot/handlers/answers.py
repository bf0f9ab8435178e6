"""Every press answered exactly once, by ``AnswerMiddleware`` when its handling ends (in a
``finally``, as aiogram's ``CallbackAnswerMiddleware`` does): a handler, or a middleware
within, only says what the answer should say (``PressAnswer``), in the presser's language,
so none can forget to answer or answer twice.

The answer comes after the handler has published what changed: it only stops the spinner on
the presser's button (and shows a pop-up), never what the game shows, so a failure to send
it ("query is too old" after a restart or a repeated delivery, Telegram failing or slow) is
logged, not raised. A delivery of a press that was handled already (``OnceMiddleware``,
within) is answered without a text, as its first delivery said what there was to say."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest
from aiogram.types import CallbackQuery, TelegramObject, User

from bot.i18n import Translator, private_language, translator
from bot.metrics import PRESS_ANSWER
from bot.schema.refusals import Reason
from bot.services import Changed, Outcome, Refused
from bot.ui.errors import popup_text
from engine import Code

from .telegram import fit_popup

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
