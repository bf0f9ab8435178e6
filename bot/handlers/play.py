"""Presses on a player's private hand keyboard. Parse -> service -> outbox; the press's one
answer (``answers``) says why a press changed nothing."""

from __future__ import annotations

import logging
from typing import Final

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.delivery import Outbox
from bot.services import Changed, GameService, Player, Refused, Viewed
from bot.ui.callbacks import HandPress, decode_press

from .answers import PressAnswer

log = logging.getLogger(__name__)

MALFORMED: Final = "answer-malformed"  # button data no keyboard of ours carries


def router() -> Router:
    router = Router(name="play")

    @router.callback_query(HandPress.filter())
    async def hand_press(
        query: CallbackQuery,
        callback_data: HandPress,
        service: GameService,
        outbox: Outbox,
        press_answer: PressAnswer,
        player: Player,
    ) -> None:
        press = callback_data
        try:
            request = decode_press(press.act)
        except ValueError:
            press_answer.say(MALFORMED)
            return
        outcome = await service.play(
            press.chat, press.game, press.moves, request, player.user_id, query.id
        )
        match outcome:
            case Changed(record):
                outbox.publish(record)
                log.info(
                    "move",
                    extra={"chat": press.chat, "game": press.game, "moves": press.moves + 1},
                )
            case Viewed(record, _, card):  # a card picked to cover with, or back from it
                await outbox.pick(record, player.user_id, card)
            case Refused(reason):
                press_answer.refuse(reason)

    return router
