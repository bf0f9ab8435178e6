"""Presses on a player's private hand keyboard. Parse -> service -> outbox -> answer."""

from __future__ import annotations

import logging
from typing import Final, assert_never

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.delivery import Outbox
from bot.i18n import Translator
from bot.services import GameService, Player, Result
from bot.ui.callbacks import HandPress, decode_press
from bot.ui.render import error_text

from .telegram import answer, popup

log = logging.getLogger(__name__)

MALFORMED: Final = "answer-malformed"  # button data no keyboard of ours carries

# Pop-ups for refused presses, by result (ILLEGAL uses the engine's error code).
REFUSALS: Final = {
    Result.STALE: "answer-stale",
    Result.NOT_PLAYER: "answer-not-player",
    Result.GAME_OVER: "answer-game-over",
}


def router() -> Router:
    router = Router(name="play")

    @router.callback_query(HandPress.filter())
    async def hand_press(
        query: CallbackQuery,
        callback_data: HandPress,
        service: GameService,
        outbox: Outbox,
        presser_tr: Translator,
        player: Player,
    ) -> None:
        press = callback_data
        try:
            request = decode_press(press.act)
        except ValueError:
            await answer(query, popup(presser_tr, MALFORMED))
            return
        outcome = await service.play(
            press.chat, press.game, press.moves, request, player.user_id, query.id
        )
        record = outcome.record
        # Show the new position first: answering the press (which may fail or be slow) only
        # stops the spinner on the presser's button.
        match outcome.result:
            case Result.APPLIED:
                assert record is not None
                outbox.publish(record)
                await answer(query)
                log.info(
                    "move",
                    extra={"chat": press.chat, "game": press.game, "moves": press.moves + 1},
                )
            case Result.PICKED:
                assert record is not None and outcome.card is not None
                await outbox.pick(record, player.user_id, outcome.card)
                await answer(query)
            case Result.BACK:
                assert record is not None
                await outbox.pick(record, player.user_id, None)
                await answer(query)
            case Result.DUPLICATE:
                await answer(query)
            case Result.ILLEGAL:
                await answer(query, error_text(outcome.code, presser_tr))
            case Result.STALE | Result.NOT_PLAYER | Result.GAME_OVER:
                await answer(query, popup(presser_tr, REFUSALS[outcome.result]))
            case _:
                assert_never(outcome.result)

    return router
