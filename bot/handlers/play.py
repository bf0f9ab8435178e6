"""Presses on a player's private hand keyboard: played (``bot.playing``), published by the
outbox, and answered by the press's one answer (``answers``)."""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.delivery import Outbox
from bot.playing import MoveRequest, make_move, refusal
from bot.services import Changed, Claim, GameService, Player, Viewed
from bot.ui.callbacks import HandPress

from .middlewares import PressAnswer

log = logging.getLogger(__name__)


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
        once: Claim | None = None,
    ) -> None:
        press = callback_data
        request = MoveRequest(press.chat, press.game, press.moves, press.act)
        outcome = await make_move(service, outbox.publish, request, player.user_id, once=once)
        match outcome:
            case Changed():
                log.info(
                    "move",
                    extra={"chat": press.chat, "game": press.game, "moves": press.moves + 1},
                )
            case Viewed(record, _, card):  # a card picked to cover with, or back from it
                await outbox.pick(record, player.user_id, card)
        text = refusal(outcome, press_answer.tr)
        if text is not None:
            press_answer.show(text)

    return router
