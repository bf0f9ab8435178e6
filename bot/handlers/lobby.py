"""The group side: /newgame, /join, /leave, /addbot, /removebot, /startgame, /stop, and the
lobby and table buttons (Join, Leave, Add or remove a computer player, Start, Play again,
Next game of a series, My cards), one handler per command and per button (``LobbyOp``).
Parse -> service -> outbox, then answer."""

from __future__ import annotations

import html
import logging
from enum import StrEnum
from typing import Final, assert_never

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message

from bot.delivery import Outbox
from bot.i18n import Translator
from bot.model import Phase
from bot.schema.settings import AI_LEVELS
from bot.services import Check, GameService, Outcome, Player, Result
from bot.services.computers import ComputerSeats
from bot.ui.callbacks import LobbyOp, LobbyPress
from bot.ui.render import error_text, hand_popup, hand_scene

from .filters import IN_GROUP, UNDER_GROUP_MESSAGE, pressed_chat
from .telegram import (
    anonymous_admin,
    answer,
    join_link,
    link_button,
    popup,
    reach_check,
)

log = logging.getLogger(__name__)


def refusal_key(result: Result) -> str | None:
    """What a refused lobby command or button says: the message key after ``reply-`` or
    ``answer-``; None for a result that is no refusal. (mypy checks every result is here.)"""
    match result:
        case Result.EXISTS:
            return "exists"
        case Result.ALREADY_JOINED:
            return "already-joined"
        case Result.LOBBY_FULL:
            return "lobby-full"
        case Result.NO_LOBBY:
            return "no-lobby"
        case Result.GAME_RUNNING:
            return "game-running"
        case Result.NOT_JOINED:
            return "not-joined"
        case Result.NOT_ALLOWED:
            return "not-allowed"
        case Result.TOO_FEW:
            return "too-few"
        case Result.NO_GAME:
            return "no-game"
        case Result.STALE:
            return "stale-lobby"
        case Result.NOT_PLAYER:
            return "not-player"
        case Result.NO_COMPUTER:
            return "no-computer"
        case Result.NO_PERSON:
            return "no-person"
        case (
            Result.CREATED
            | Result.JOINED
            | Result.NEED_START
            | Result.LEFT
            | Result.RESIGNED
            | Result.STARTED
            | Result.STOPPED
            | Result.APPLIED
            | Result.PICKED
            | Result.BACK
            | Result.ILLEGAL
            | Result.DUPLICATE
            | Result.GAME_OVER
            | Result.NOT_DUE
            | Result.TIMED_OUT
            | Result.HAND
            | Result.BAD_LINK
            | Result.NOT_MEMBER
            | Result.MIGRATED
            | Result.CLOSED
            | Result.COMPUTER_ADDED
            | Result.COMPUTER_REMOVED
        ):
            return None
        case _:
            assert_never(result)


REFUSALS: Final = {result: key for result in Result if (key := refusal_key(result)) is not None}


class Guarded(StrEnum):
    """What only the lobby's creator or a group admin may do: a refusal names it
    («Убрать бота может только тот, кто собрал стол, или админ группы.»)."""

    START = "start"
    STOP = "stop"
    REMOVE_COMPUTER = "remove-computer"


def refusal(outcome: Outcome, guarded: Guarded | None = None) -> str:
    """The message key (after ``reply-``/``answer-``) for a refused lobby action; a refusal
    of ``guarded`` says which action it refused (``not-allowed-start``)."""
    key = refusal_key(outcome.result)
    if key is None:
        log.warning("no message for %s", outcome.result)
        return "stale-lobby"
    if outcome.result is Result.NOT_ALLOWED and guarded is not None:
        return f"{key}-{guarded}"
    return key


def publish(outbox: Outbox, outcome: Outcome) -> None:
    """Show what changed: the game, and the table of a game it replaced."""
    if outcome.previous is not None and outcome.previous.game.phase is Phase.FINISHED:
        outbox.publish(outcome.previous, superseded=True)
    if outcome.changed:
        outbox.publish(outcome.record)


async def reply(
    outbox: Outbox,
    message: Message,
    text: str,
    *,
    markup: InlineKeyboardMarkup | None = None,
    reply_to: int | None = None,
) -> None:
    """A one-off answer to a command, as a reply to it (or to ``reply_to``)."""
    await outbox.say(message.chat.id, text, markup=markup, reply_to=reply_to or message.message_id)


def router() -> Router:
    router = Router(name="lobby")
    router.message.filter(IN_GROUP)
    router.callback_query.filter(UNDER_GROUP_MESSAGE)
    router.message.register(new_game, Command("newgame", "durak"))
    router.message.register(join, Command("join"))
    router.message.register(leave, Command("leave"))
    router.message.register(add_computer, Command("addbot"))
    router.message.register(remove_computer, Command("removebot"))
    router.message.register(start_game, Command("startgame"))
    router.message.register(stop, Command("stop"))
    # A press with an op no button has (any more) falls through to the catch-all.
    press = LobbyPress.filter
    router.callback_query.register(press_join, press(F.op == LobbyOp.JOIN))
    router.callback_query.register(press_leave, press(F.op == LobbyOp.LEAVE))
    router.callback_query.register(press_start, press(F.op == LobbyOp.START))
    router.callback_query.register(press_again, press(F.op == LobbyOp.AGAIN))
    router.callback_query.register(press_next, press(F.op == LobbyOp.NEXT))
    router.callback_query.register(press_cards, press(F.op == LobbyOp.CARDS))
    router.callback_query.register(press_add_computer, press(F.op == LobbyOp.ADD_COMPUTER))
    router.callback_query.register(press_remove_computer, press(F.op == LobbyOp.REMOVE_COMPUTER))
    return router


# -- commands ---------------------------------------------------------------------------------


async def new_game(
    message: Message,
    bot: Bot,
    service: GameService,
    outbox: Outbox,
    tr: Translator,
    player: Player,
) -> None:
    if anonymous_admin(message):
        await reply(outbox, message, tr.t("reply-anonymous"))
        return
    outcome = await service.new_lobby(
        message.chat.id, player, can_message=reach_check(bot, player.user_id)
    )
    if outcome.result is Result.EXISTS:  # a reply to the running game's table
        assert outcome.record is not None
        table = await outbox.table_message(outcome.record)
        await reply(outbox, message, tr.t("reply-exists"), reply_to=table or message.message_id)
        return
    publish(outbox, outcome)
    record = outcome.record
    if record is not None and record.game.seat_of(player.user_id) is None:
        await _ask_to_start(bot, outbox, message, tr, player, record.game.game_id)


async def join(
    message: Message,
    bot: Bot,
    service: GameService,
    outbox: Outbox,
    tr: Translator,
    player: Player,
) -> None:
    if anonymous_admin(message):
        await reply(outbox, message, tr.t("reply-anonymous"))
        return
    outcome = await service.join(
        message.chat.id, player, can_message=reach_check(bot, player.user_id)
    )
    match outcome.result:
        case Result.JOINED:
            publish(outbox, outcome)
        case Result.NEED_START:
            assert outcome.record is not None
            await _ask_to_start(bot, outbox, message, tr, player, outcome.record.game.game_id)
        case _:
            await reply(outbox, message, tr.t(f"reply-{refusal(outcome)}"))


async def leave(
    message: Message, service: GameService, outbox: Outbox, tr: Translator, player: Player
) -> None:
    outcome = await service.leave(message.chat.id, player.user_id)
    match outcome.result:
        case Result.LEFT | Result.RESIGNED:  # the table tells it (once: no reply besides)
            publish(outbox, outcome)
        case Result.ILLEGAL:
            await reply(outbox, message, error_text(outcome.code, tr))
        case _:
            await reply(outbox, message, tr.t(f"reply-{refusal(outcome)}"))


async def add_computer(
    message: Message,
    command: CommandObject,
    computer_seats: ComputerSeats,
    outbox: Outbox,
    tr: Translator,
    player: Player,
) -> None:
    """``/addbot [easy|normal|hard]``: seat a computer player (the chat's level if none)."""
    level = (command.args or "").strip().lower() or None
    if level is not None and level not in AI_LEVELS:
        await reply(outbox, message, tr.t("reply-bad-level"))
        return
    outcome = await computer_seats.add(message.chat.id, player, level=level)
    if outcome.result is Result.COMPUTER_ADDED:
        publish(outbox, outcome)
        return
    await reply(outbox, message, tr.t(f"reply-{refusal(outcome)}"))


async def remove_computer(
    message: Message,
    computer_seats: ComputerSeats,
    outbox: Outbox,
    tr: Translator,
    player: Player,
    is_admin: Check,
) -> None:
    """``/removebot``: the last computer player seated stands up (creator or admin)."""
    outcome = await computer_seats.remove(message.chat.id, player.user_id, is_admin=is_admin)
    if outcome.result is Result.COMPUTER_REMOVED:
        publish(outbox, outcome)
        return
    await reply(outbox, message, tr.t(f"reply-{refusal(outcome, Guarded.REMOVE_COMPUTER)}"))


async def start_game(
    message: Message,
    service: GameService,
    outbox: Outbox,
    tr: Translator,
    player: Player,
    is_admin: Check,
) -> None:
    outcome = await service.start(message.chat.id, player.user_id, is_admin=is_admin)
    match outcome.result:
        case Result.STARTED:
            publish(outbox, outcome)
        case _:
            await reply(outbox, message, tr.t(f"reply-{refusal(outcome, Guarded.START)}"))


async def stop(
    message: Message,
    service: GameService,
    outbox: Outbox,
    tr: Translator,
    player: Player,
    is_admin: Check,
) -> None:
    name = player.name
    if anonymous_admin(message):
        name = message.chat.title or name
    outcome = await service.stop(message.chat.id, player.user_id, name, is_admin=is_admin)
    match outcome.result:
        case Result.STOPPED:
            publish(outbox, outcome)
            await reply(outbox, message, tr.t("reply-stopped", name=html.escape(name)))
        case _:
            await reply(outbox, message, tr.t(f"reply-{refusal(outcome, Guarded.STOP)}"))


# -- the buttons of the lobby and table messages ----------------------------------------------


async def press_join(
    query: CallbackQuery,
    callback_data: LobbyPress,
    bot: Bot,
    service: GameService,
    outbox: Outbox,
    presser_tr: Translator,
    player: Player,
) -> None:
    """Sit down; someone the bot cannot write to yet is sent to its private chat first."""
    chat_id, game_id = pressed_chat(query), callback_data.game
    outcome = await service.join(
        chat_id, player, game_id=game_id, can_message=reach_check(bot, player.user_id)
    )
    if outcome.result is Result.NEED_START:
        await answer(query, url=await join_link(bot, chat_id, game_id))
        return
    await answer_press(query, outbox, presser_tr, outcome, "answer-joined")


async def press_leave(
    query: CallbackQuery,
    callback_data: LobbyPress,
    service: GameService,
    outbox: Outbox,
    presser_tr: Translator,
    player: Player,
) -> None:
    """Stand up from the lobby."""
    chat_id, game_id = pressed_chat(query), callback_data.game
    outcome = await service.leave(chat_id, player.user_id, game_id=game_id)
    await answer_press(query, outbox, presser_tr, outcome, "answer-left")


async def press_start(
    query: CallbackQuery,
    callback_data: LobbyPress,
    service: GameService,
    outbox: Outbox,
    presser_tr: Translator,
    player: Player,
    is_admin: Check,
) -> None:
    """Deal (the lobby's creator or a group admin)."""
    chat_id, game_id = pressed_chat(query), callback_data.game
    outcome = await service.start(chat_id, player.user_id, is_admin=is_admin, game_id=game_id)
    await answer_press(query, outbox, presser_tr, outcome, "answer-started", Guarded.START)


async def press_again(
    query: CallbackQuery,
    callback_data: LobbyPress,
    service: GameService,
    outbox: Outbox,
    presser_tr: Translator,
    player: Player,
) -> None:
    """Play again: a new lobby with the same players."""
    outcome = await service.again(pressed_chat(query), callback_data.game, player)
    await answer_press(query, outbox, presser_tr, outcome, "answer-created")


async def press_next(
    query: CallbackQuery,
    callback_data: LobbyPress,
    service: GameService,
    outbox: Outbox,
    presser_tr: Translator,
    player: Player,
) -> None:
    """The next game of a series, dealt at once."""
    outcome = await service.next_in_series(pressed_chat(query), callback_data.game, player)
    await answer_press(query, outbox, presser_tr, outcome, "answer-started")


async def press_add_computer(
    query: CallbackQuery,
    callback_data: LobbyPress,
    computer_seats: ComputerSeats,
    outbox: Outbox,
    presser_tr: Translator,
    player: Player,
) -> None:
    """Seat a computer player of the chat's level."""
    chat_id, game_id = pressed_chat(query), callback_data.game
    outcome = await computer_seats.add(chat_id, player, game_id=game_id)
    await answer_press(query, outbox, presser_tr, outcome, "answer-computer-added")


async def press_remove_computer(
    query: CallbackQuery,
    callback_data: LobbyPress,
    computer_seats: ComputerSeats,
    outbox: Outbox,
    presser_tr: Translator,
    player: Player,
    is_admin: Check,
) -> None:
    """The last computer player seated stands up (the lobby's creator or an admin)."""
    chat_id, game_id = pressed_chat(query), callback_data.game
    outcome = await computer_seats.remove(
        chat_id, player.user_id, is_admin=is_admin, game_id=game_id
    )
    await answer_press(
        query, outbox, presser_tr, outcome, "answer-computer-removed", Guarded.REMOVE_COMPUTER
    )


async def press_cards(
    query: CallbackQuery,
    callback_data: LobbyPress,
    service: GameService,
    presser_tr: Translator,
    player: Player,
) -> None:
    """My cards, in a pop-up (for a player who does not open the private chat)."""
    outcome = await service.hand(pressed_chat(query), callback_data.game, player.user_id)
    if outcome.result is Result.HAND:
        assert outcome.record is not None and outcome.seat is not None
        text = hand_popup(hand_scene(outcome.record.game, outcome.seat).view, presser_tr)
        await answer(query, text, show_alert=True)
        return
    await answer(query, popup(presser_tr, f"answer-{refusal(outcome)}"))


async def answer_press(
    query: CallbackQuery,
    outbox: Outbox,
    presser_tr: Translator,
    outcome: Outcome,
    done: str,
    guarded: Guarded | None = None,
) -> None:
    """Show what changed, then answer the press in the presser's language: ``done`` if it
    changed something, else why not (naming ``guarded``, the action only the creator or an
    admin may take)."""
    if outcome.changed:
        publish(outbox, outcome)
        await answer(query, popup(presser_tr, done))
    else:
        await answer(query, popup(presser_tr, f"answer-{refusal(outcome, guarded)}"))


async def _ask_to_start(
    bot: Bot, outbox: Outbox, message: Message, tr: Translator, player: Player, game_id: str
) -> None:
    """The user has never started the bot in private: a button that does it and seats them."""
    url = await join_link(bot, message.chat.id, game_id)
    text = tr.t("reply-need-start", name=html.escape(player.name))
    await reply(outbox, message, text, markup=link_button(tr.t("button-open-bot"), url))
