"""The private chat: /start (with a join link's payload or without)."""

from __future__ import annotations

import html

from aiogram import Bot, Router
from aiogram.filters import CommandObject, CommandStart
from aiogram.types import Message

from bot.delivery import Outbox
from bot.i18n import Translator
from bot.services import Changed, Claim, GameService, Player, Refused
from bot.services.people import UserService
from bot.ui.errors import Said, refusal_message_id

from .filters import IN_PRIVATE
from .telegram import member_check


def router() -> Router:
    router = Router(name="private")
    router.message.filter(IN_PRIVATE)

    @router.message(CommandStart())
    async def start(
        message: Message,
        command: CommandObject,
        bot: Bot,
        service: GameService,
        user_service: UserService,
        outbox: Outbox,
        tr: Translator,
        player: Player,
        once: Claim | None = None,
    ) -> None:
        if command.args:
            outcome = await service.join_by_link(
                command.args.strip(), player, is_member=member_check(bot, player.user_id), once=once
            )
            match outcome:
                case Changed(record):
                    outbox.publish(record)
                    key = "start-joined"
                case Refused(reason):
                    key = refusal_message_id(reason, Said.START)
            await outbox.say(message.chat.id, tr.t(key, name=html.escape(player.name)))
            return
        await user_service.started(player.user_id)
        await outbox.say(message.chat.id, tr.t("start-welcome", name=html.escape(player.name)))
        # A player who blocked the bot mid-game, or deleted their hand, gets it again, as a
        # new message at the bottom of the chat.
        for record in await service.games_of(player.user_id):
            await outbox.resend_hand(record, player.user_id)

    return router
