"""/stats: in a group its leaderboard, in private the user's own totals over every chat."""

from __future__ import annotations

from aiogram import Router
from aiogram.enums import ChatType
from aiogram.filters import Command
from aiogram.types import Message

from bot.delivery import Outbox
from bot.i18n import Translator
from bot.services.people import StatsService
from bot.ui.stats import leaderboard_text, personal_text


def router() -> Router:
    router = Router(name="stats")

    @router.message(Command("stats"))
    async def stats(
        message: Message, stats_service: StatsService, outbox: Outbox, tr: Translator
    ) -> None:
        chat = message.chat
        if chat.type == ChatType.PRIVATE:
            user = message.from_user
            if user is None:
                return
            totals = await stats_service.totals(user.id)
            versus = await stats_service.versus(user.id)
            await outbox.say(chat.id, personal_text(totals, tr, versus))
            return
        board = await stats_service.board(chat.id)
        text = leaderboard_text(board.ranked, board.unranked, board.min_games, tr)
        await outbox.say(chat.id, text, reply_to=message.message_id)

    return router
