"""/help and /rules anywhere, a hint for group commands sent in private, and the last
resort for callback data nobody understood (answered, nothing changes)."""

from __future__ import annotations

from aiogram import Router
from aiogram.enums import ChatType
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.delivery import Outbox
from bot.i18n import Translator
from bot.services import GameService
from bot.ui.render import rules_text

from .filters import IN_PRIVATE
from .middlewares import PressAnswer


def router() -> Router:
    router = Router(name="common")

    @router.message(Command("help"))
    async def help_(message: Message, outbox: Outbox, tr: Translator) -> None:
        await outbox.say(message.chat.id, tr.t("help"), reply_to=_reply_to(message))

    @router.message(IN_PRIVATE, Command("rules"))
    async def private_rules(
        message: Message, service: GameService, outbox: Outbox, tr: Translator
    ) -> None:
        """The rules of the person's own games with computer players, the ones /play here
        deals by, then those of the tables they sit at in groups (a lobby or a game)."""
        chat_id = message.chat.id
        own = await service.chat_settings(chat_id)
        await outbox.say(chat_id, rules_text(own, tr, private=True))
        user = message.from_user
        records = await service.games_of(user.id) if user is not None else []
        for record in records:
            if not record.game.private:  # the game here: its rules are those above
                await outbox.say(chat_id, rules_text(record.game.settings, tr, game=True))

    @router.message(Command("rules"))
    async def rules(message: Message, service: GameService, outbox: Outbox, tr: Translator) -> None:
        settings = await service.chat_settings(message.chat.id)
        await outbox.say(message.chat.id, rules_text(settings, tr), reply_to=_reply_to(message))

    @router.message(
        IN_PRIVATE,
        Command("join", "addbot", "removebot", "startgame"),
    )
    async def group_only(message: Message, outbox: Outbox, tr: Translator) -> None:
        await outbox.say(message.chat.id, tr.t("reply-group-only"))

    @router.callback_query()
    async def unknown_button(query: CallbackQuery, press_answer: PressAnswer) -> None:
        press_answer.say("answer-malformed")

    return router


def _reply_to(message: Message) -> int | None:
    return None if message.chat.type == ChatType.PRIVATE else message.message_id
