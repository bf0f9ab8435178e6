"""/stats: in a group its leaderboard and the sender's rating there, in private the user's
own totals and rating over every chat; /top: a group's ratings."""

from __future__ import annotations

from aiogram import Router
from aiogram.enums import ChatType
from aiogram.filters import Command
from aiogram.types import Message

from bot.delivery import Outbox
from bot.i18n import Translator
from bot.services.people import MIN_GAMES, StatsService
from bot.ui.stats import leaderboard_text, my_rating_line, personal_text, top_text

from .filters import IN_GROUP, IN_PRIVATE


def router() -> Router:
    router = Router(name="stats")

    @router.message(Command("stats"))
    async def stats(
        message: Message, stats_service: StatsService, outbox: Outbox, tr: Translator
    ) -> None:
        chat, user = message.chat, message.from_user
        if chat.type == ChatType.PRIVATE:
            if user is None:
                return
            totals = await stats_service.totals(user.id)
            versus = await stats_service.versus(user.id)
            text = personal_text(totals, tr, versus)
            mine = await stats_service.my_rating(user.id)
            if mine is not None:
                text = f"{text}\n\n{my_rating_line(mine, tr, here=False)}"
            await outbox.say(chat.id, text)
            return
        board = await stats_service.board(chat.id)
        text = leaderboard_text(board.ranked, board.unranked, board.min_games, tr)
        # Only here, where they played: a rating is shown nowhere else but in private.
        mine = None if user is None else await stats_service.my_rating(user.id, chat.id)
        if mine is not None:
            text = f"{text}\n\n{my_rating_line(mine, tr, here=True)}"
        await outbox.say(chat.id, text, reply_to=message.message_id)

    @router.message(IN_GROUP, Command("top"))
    async def top(
        message: Message, stats_service: StatsService, outbox: Outbox, tr: Translator
    ) -> None:
        rows = await stats_service.top(message.chat.id)
        await outbox.say(
            message.chat.id, top_text(rows, MIN_GAMES, tr), reply_to=message.message_id
        )

    @router.message(IN_PRIVATE, Command("top"))
    async def top_in_private(message: Message, outbox: Outbox, tr: Translator) -> None:
        await outbox.say(message.chat.id, tr.t("reply-group-only"))

    return router
