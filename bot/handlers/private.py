"""The private chat: /start (with a join link's payload or without)."""

from __future__ import annotations

import html
from typing import Final, assert_never

from aiogram import Bot, Router
from aiogram.filters import CommandObject, CommandStart
from aiogram.types import Message

from bot.delivery import Outbox
from bot.i18n import Translator
from bot.services import GameService, Player, Result
from bot.services.users import UserService

from .filters import IN_PRIVATE
from .telegram import member_check


def join_reply(result: Result) -> str:
    """What ``/start <join link>`` says, by result (mypy checks every result is here)."""
    match result:
        case Result.JOINED:
            return "start-joined"
        case Result.ALREADY_JOINED:
            return "start-already-joined"
        case Result.LOBBY_FULL:
            return "start-lobby-full"
        case Result.GAME_RUNNING:
            return "start-game-running"
        case Result.BAD_LINK:
            return "start-welcome"
        case Result.NOT_MEMBER:
            return "start-not-member"
        case Result.NO_LOBBY | Result.STALE:
            return "start-no-lobby"
        case (  # not what a join link gives: say there is no lobby to join
            Result.CREATED
            | Result.EXISTS
            | Result.NEED_START
            | Result.LEFT
            | Result.RESIGNED
            | Result.NOT_JOINED
            | Result.STARTED
            | Result.NOT_ALLOWED
            | Result.TOO_FEW
            | Result.STOPPED
            | Result.NO_GAME
            | Result.APPLIED
            | Result.PICKED
            | Result.BACK
            | Result.NOT_PLAYER
            | Result.ILLEGAL
            | Result.DUPLICATE
            | Result.GAME_OVER
            | Result.NOT_DUE
            | Result.TIMED_OUT
            | Result.HAND
            | Result.MIGRATED
            | Result.CLOSED
            | Result.COMPUTER_ADDED
            | Result.COMPUTER_REMOVED
            | Result.NO_COMPUTER
            | Result.NO_PERSON
        ):
            return "start-no-lobby"
        case _:
            assert_never(result)


JOIN_REPLIES: Final = {result: join_reply(result) for result in Result}


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
    ) -> None:
        if command.args:
            outcome = await service.join_by_link(
                command.args.strip(), player, is_member=member_check(bot, player.user_id)
            )
            if outcome.changed:
                outbox.publish(outcome.record)
            key = join_reply(outcome.result)
            await outbox.say(message.chat.id, tr.t(key, name=html.escape(player.name)))
            return
        await user_service.started(player.user_id)
        await outbox.say(message.chat.id, tr.t("start-welcome", name=html.escape(player.name)))
        # A player who blocked the bot mid-game, or deleted their hand, gets it again, as a
        # new message at the bottom of the chat.
        for record in await service.games_of(player.user_id):
            await outbox.resend_hand(record, player.user_id)

    return router
