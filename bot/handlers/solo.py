"""A game alone with computer players, in the person's private chat with the bot:
``/newgame`` (or ``/play``) opens a lobby there with one computer player; its buttons seat
more of a chosen level or take them out, and deal. The table and the hand are then one
message (``bot.delivery.drafts``). The chat's own house rules apply; the person changes
them with /settings there. Parse -> service -> outbox, then answer, as in the group."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.delivery import Outbox
from bot.i18n import Translator
from bot.services import Check, Claim, GameService, Player, Refused
from bot.services.computers import ComputerSeats
from bot.ui.callbacks import ADD_LEVELS, TRUMP_SUITS, LobbyOp, LobbyPress
from bot.ui.errors import Said, refusal_text

from .filters import IN_PRIVATE, UNDER_PRIVATE_MESSAGE, pressed_chat
from .lobby import (
    answer_press,
    press_again,
    press_next,
    press_remove_computer,
    press_start,
    press_team,
    press_trump,
    publish,
)
from .middlewares import PressAnswer


async def new_game(
    message: Message,
    computer_seats: ComputerSeats,
    outbox: Outbox,
    tr: Translator,
    player: Player,
    once: Claim | None = None,
) -> None:
    outcome = await computer_seats.new_solo(message.chat.id, player, once=once)
    if isinstance(outcome, Refused):  # the game is above in this chat
        await outbox.say(message.chat.id, tr.t("reply-solo-exists"))
        return
    publish(outbox, outcome)


async def stop(
    message: Message,
    service: GameService,
    outbox: Outbox,
    tr: Translator,
    player: Player,
    is_admin: Check,
    once: Claim | None = None,
) -> None:
    outcome = await service.stop(
        message.chat.id, player.user_id, player.name, is_admin=is_admin, once=once
    )
    if isinstance(outcome, Refused):
        await outbox.say(message.chat.id, refusal_text(outcome.reason, Said.REPLY, tr))
        return
    publish(outbox, outcome)


async def press_add(
    query: CallbackQuery,
    callback_data: LobbyPress,
    computer_seats: ComputerSeats,
    outbox: Outbox,
    press_answer: PressAnswer,
    player: Player,
    once: Claim | None = None,
) -> None:
    """Seat one more computer player, of the level on the button."""
    level = ADD_LEVELS[callback_data.op]
    chat_id, game_id = pressed_chat(query), callback_data.game
    outcome = await computer_seats.add(chat_id, player, level=level, game_id=game_id, once=once)
    answer_press(outbox, press_answer, outcome, "answer-computer-added")


def router() -> Router:
    router = Router(name="solo")
    router.message.filter(IN_PRIVATE)
    router.callback_query.filter(UNDER_PRIVATE_MESSAGE)
    router.message.register(new_game, Command("newgame", "play", "durak"))
    router.message.register(stop, Command("stop"))
    press = LobbyPress.filter
    router.callback_query.register(press_add, press(F.op.in_(set(ADD_LEVELS))))
    router.callback_query.register(press_remove_computer, press(F.op == LobbyOp.REMOVE_COMPUTER))
    router.callback_query.register(press_start, press(F.op == LobbyOp.START))
    router.callback_query.register(press_again, press(F.op == LobbyOp.AGAIN))
    router.callback_query.register(press_next, press(F.op == LobbyOp.NEXT))
    router.callback_query.register(press_team, press(F.op == LobbyOp.TEAM))
    router.callback_query.register(press_trump, press(F.op.in_(set(TRUMP_SUITS))))
    return router
