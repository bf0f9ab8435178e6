"""Presses on a player's private hand keyboard. Parse -> service -> answer -> outbox."""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.delivery import Outbox
from bot.i18n import Translator
from bot.services import GameService, Player, Result
from bot.ui.callbacks import HandPress
from bot.ui.render import error_text

from .telegram import answer, popup

log = logging.getLogger(__name__)

# Pop-ups for refused presses, by result (ILLEGAL uses the engine's error code).
REFUSALS = {
    Result.STALE: "answer-stale",
    Result.NOT_PLAYER: "answer-not-player",
    Result.GAME_OVER: "answer-game-over",
    Result.MALFORMED: "answer-malformed",
}


def router() -> Router:
    router = Router(name="play")

    @router.callback_query(HandPress.filter())
    async def hand_press(
        query: CallbackQuery,
        callback_data: HandPress,
        service: GameService,
        outbox: Outbox,
        tr: Translator,
        player: Player,
    ) -> None:
        press = callback_data
        outcome = await service.play(
            press.chat, press.game, press.moves, press.act, player.user_id, query.id
        )
        result = outcome.result
        record = outcome.record
        # Show the new position first: answering the press (which may fail or be slow) only
        # stops the spinner on the presser's button.
        if record is not None:
            if result is Result.PICKED and outcome.card is not None:
                await outbox.pick(record, player.user_id, outcome.card)
            elif result is Result.BACK:
                await outbox.pick(record, player.user_id, None)
            elif outcome.changed:
                outbox.publish(record)
        if result is Result.ILLEGAL:
            await answer(query, error_text(outcome.code, tr))
        elif result in REFUSALS:
            await answer(query, popup(tr, REFUSALS[result]))
        else:
            await answer(query)
        if result is Result.APPLIED:
            log.info(
                "move",
                extra={"chat": press.chat, "game": press.game, "moves": press.moves + 1},
            )

    return router
