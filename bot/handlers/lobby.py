"""The group side: /newgame, /join, /leave, /addbot, /removebot, /startgame, /stop, and the
lobby and table buttons (Join, Leave, Add or remove a computer player, Start, Play again,
Next game of a series, My cards), one handler per command and per button (``LobbyOp``).
Parse -> service -> outbox; a command's reply or a press's answer says what the outcome
names (``tell``, ``answer_press``)."""

from __future__ import annotations

import html
import logging

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message

from bot.delivery import Outbox
from bot.i18n import Translator
from bot.model import Phase
from bot.schema.refusals import Reason
from bot.schema.settings import AI_LEVELS
from bot.services import Changed, Check, Claim, GameService, Outcome, Player, Refused, Viewed
from bot.services.computers import ComputerSeats
from bot.ui.callbacks import TRUMP_SUITS, LobbyOp, LobbyPress
from bot.ui.errors import Said, refusal_text
from bot.ui.render import hand_popup, hand_scene

from .filters import IN_GROUP, UNDER_GROUP_MESSAGE, pressed_chat
from .middlewares import PressAnswer
from .telegram import anonymous_admin, join_link, link_button, reach_check

log = logging.getLogger(__name__)


def publish(outbox: Outbox, outcome: Outcome) -> None:
    """Show what changed: the game, and the table of a game it replaced."""
    if not isinstance(outcome, Changed):
        return
    previous = outcome.previous
    if previous is not None and previous.game.phase is Phase.FINISHED:
        outbox.publish(previous, superseded=True)
    outbox.publish(outcome.record)


async def tell(
    outbox: Outbox, message: Message, tr: Translator, outcome: Outcome, done: str | None = None
) -> None:
    """Show what a command changed and reply ``done`` (a text), if any; or reply why
    nothing changed."""
    match outcome:
        case Changed():
            publish(outbox, outcome)
            if done is not None:
                await reply(outbox, message, done)
        case Refused(reason):
            await reply(outbox, message, refusal_text(reason, Said.REPLY, tr))


def answer_press(outbox: Outbox, press_answer: PressAnswer, outcome: Outcome, done: str) -> None:
    """Show what a press changed and answer ``done`` (a message id), or why not."""
    publish(outbox, outcome)
    press_answer.tell(outcome, done)


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
    router.callback_query.register(press_team, press(F.op == LobbyOp.TEAM))
    router.callback_query.register(press_trump, press(F.op.in_(set(TRUMP_SUITS))))
    return router


# -- commands ---------------------------------------------------------------------------------


async def new_game(
    message: Message,
    bot: Bot,
    service: GameService,
    outbox: Outbox,
    tr: Translator,
    player: Player,
    once: Claim | None = None,
) -> None:
    if anonymous_admin(message):
        await reply(outbox, message, tr.t("reply-anonymous"))
        return
    outcome = await service.new_lobby(
        message.chat.id, player, can_message=reach_check(bot, player.user_id), once=once
    )
    if isinstance(outcome, Refused):  # a game is running: a reply to its table
        record = outcome.record
        table = await outbox.table_message(record) if record is not None else None
        text = refusal_text(outcome.reason, Said.REPLY, tr)
        await reply(outbox, message, text, reply_to=table or message.message_id)
        return
    publish(outbox, outcome)
    if outcome.record.game.seat_of(player.user_id) is None:
        await _ask_to_start(bot, outbox, message, tr, player, outcome.record.game.game_id)


async def join(
    message: Message,
    bot: Bot,
    service: GameService,
    outbox: Outbox,
    tr: Translator,
    player: Player,
    once: Claim | None = None,
) -> None:
    if anonymous_admin(message):
        await reply(outbox, message, tr.t("reply-anonymous"))
        return
    outcome = await service.join(
        message.chat.id, player, can_message=reach_check(bot, player.user_id), once=once
    )
    match outcome:
        case Refused(Reason.NEED_START, record) if record is not None:
            await _ask_to_start(bot, outbox, message, tr, player, record.game.game_id)
        case _:
            await tell(outbox, message, tr, outcome)


async def leave(
    message: Message,
    service: GameService,
    outbox: Outbox,
    tr: Translator,
    player: Player,
    once: Claim | None = None,
) -> None:
    outcome = await service.leave(message.chat.id, player.user_id, once=once)
    await tell(outbox, message, tr, outcome)  # the table tells who left (no reply besides)


async def add_computer(
    message: Message,
    command: CommandObject,
    computer_seats: ComputerSeats,
    outbox: Outbox,
    tr: Translator,
    player: Player,
    once: Claim | None = None,
) -> None:
    """``/addbot [easy|normal|hard]``: seat a computer player (the chat's level if none)."""
    level = (command.args or "").strip().lower() or None
    if level is not None and level not in AI_LEVELS:
        await reply(outbox, message, tr.t("reply-bad-level"))
        return
    outcome = await computer_seats.add(message.chat.id, player, level=level, once=once)
    await tell(outbox, message, tr, outcome)


async def remove_computer(
    message: Message,
    computer_seats: ComputerSeats,
    outbox: Outbox,
    tr: Translator,
    player: Player,
    is_admin: Check,
    once: Claim | None = None,
) -> None:
    """``/removebot``: the last computer player seated stands up (creator or admin)."""
    outcome = await computer_seats.remove(
        message.chat.id, player.user_id, is_admin=is_admin, once=once
    )
    await tell(outbox, message, tr, outcome)


async def start_game(
    message: Message,
    service: GameService,
    outbox: Outbox,
    tr: Translator,
    player: Player,
    is_admin: Check,
    once: Claim | None = None,
) -> None:
    outcome = await service.start(message.chat.id, player.user_id, is_admin=is_admin, once=once)
    await tell(outbox, message, tr, outcome)


async def stop(
    message: Message,
    service: GameService,
    outbox: Outbox,
    tr: Translator,
    player: Player,
    is_admin: Check,
    once: Claim | None = None,
) -> None:
    name = player.name
    if anonymous_admin(message):
        name = message.chat.title or name
    outcome = await service.stop(
        message.chat.id, player.user_id, name, is_admin=is_admin, once=once
    )
    await tell(outbox, message, tr, outcome, tr.t("reply-stopped", name=html.escape(name)))


# -- the buttons of the lobby and table messages ----------------------------------------------


async def press_join(
    query: CallbackQuery,
    callback_data: LobbyPress,
    bot: Bot,
    service: GameService,
    outbox: Outbox,
    press_answer: PressAnswer,
    player: Player,
    once: Claim | None = None,
) -> None:
    """Sit down; someone the bot cannot write to yet is sent to its private chat first."""
    chat_id, game_id = pressed_chat(query), callback_data.game
    outcome = await service.join(
        chat_id, player, game_id=game_id, can_message=reach_check(bot, player.user_id), once=once
    )
    if isinstance(outcome, Refused) and outcome.reason is Reason.NEED_START:
        press_answer.open(await join_link(bot, chat_id, game_id))
        return
    answer_press(outbox, press_answer, outcome, "answer-joined")


async def press_leave(
    query: CallbackQuery,
    callback_data: LobbyPress,
    service: GameService,
    outbox: Outbox,
    press_answer: PressAnswer,
    player: Player,
    once: Claim | None = None,
) -> None:
    """Stand up from the lobby."""
    chat_id, game_id = pressed_chat(query), callback_data.game
    outcome = await service.leave(chat_id, player.user_id, game_id=game_id, once=once)
    answer_press(outbox, press_answer, outcome, "answer-left")


async def press_start(
    query: CallbackQuery,
    callback_data: LobbyPress,
    service: GameService,
    outbox: Outbox,
    press_answer: PressAnswer,
    player: Player,
    is_admin: Check,
    once: Claim | None = None,
) -> None:
    """Deal (the lobby's creator or a group admin)."""
    chat_id, game_id = pressed_chat(query), callback_data.game
    outcome = await service.start(
        chat_id, player.user_id, is_admin=is_admin, game_id=game_id, once=once
    )
    answer_press(outbox, press_answer, outcome, "answer-started")


async def press_again(
    query: CallbackQuery,
    callback_data: LobbyPress,
    service: GameService,
    outbox: Outbox,
    press_answer: PressAnswer,
    player: Player,
    once: Claim | None = None,
) -> None:
    """Play again: a new lobby with the same players."""
    outcome = await service.again(pressed_chat(query), callback_data.game, player, once=once)
    answer_press(outbox, press_answer, outcome, "answer-created")


async def press_next(
    query: CallbackQuery,
    callback_data: LobbyPress,
    service: GameService,
    outbox: Outbox,
    press_answer: PressAnswer,
    player: Player,
    once: Claim | None = None,
) -> None:
    """The next game of a series, dealt at once."""
    outcome = await service.next_in_series(
        pressed_chat(query), callback_data.game, player, once=once
    )
    answer_press(outbox, press_answer, outcome, "answer-started")


async def press_add_computer(
    query: CallbackQuery,
    callback_data: LobbyPress,
    computer_seats: ComputerSeats,
    outbox: Outbox,
    press_answer: PressAnswer,
    player: Player,
    once: Claim | None = None,
) -> None:
    """Seat a computer player of the chat's level."""
    chat_id, game_id = pressed_chat(query), callback_data.game
    outcome = await computer_seats.add(chat_id, player, game_id=game_id, once=once)
    answer_press(outbox, press_answer, outcome, "answer-computer-added")


async def press_remove_computer(
    query: CallbackQuery,
    callback_data: LobbyPress,
    computer_seats: ComputerSeats,
    outbox: Outbox,
    press_answer: PressAnswer,
    player: Player,
    is_admin: Check,
    once: Claim | None = None,
) -> None:
    """The last computer player seated stands up (the lobby's creator or an admin)."""
    chat_id, game_id = pressed_chat(query), callback_data.game
    outcome = await computer_seats.remove(
        chat_id, player.user_id, is_admin=is_admin, game_id=game_id, once=once
    )
    answer_press(outbox, press_answer, outcome, "answer-computer-removed")


async def press_team(
    query: CallbackQuery,
    callback_data: LobbyPress,
    service: GameService,
    outbox: Outbox,
    press_answer: PressAnswer,
    player: Player,
    once: Claim | None = None,
) -> None:
    """Move to the next team (R-TEAM-1)."""
    chat_id, game_id = pressed_chat(query), callback_data.game
    outcome = await service.switch_team(chat_id, player.user_id, game_id=game_id, once=once)
    answer_press(outbox, press_answer, outcome, "answer-team-switched")


async def press_trump(
    query: CallbackQuery,
    callback_data: LobbyPress,
    service: GameService,
    outbox: Outbox,
    press_answer: PressAnswer,
    player: Player,
    once: Claim | None = None,
) -> None:
    """The dealer names the trump (R-TRUMP-1): the game is dealt."""
    chat_id, game_id = pressed_chat(query), callback_data.game
    suit = TRUMP_SUITS[callback_data.op]
    outcome = await service.name_trump(chat_id, game_id, player.user_id, suit, once=once)
    answer_press(outbox, press_answer, outcome, "answer-trump-named")


async def press_cards(
    query: CallbackQuery,
    callback_data: LobbyPress,
    service: GameService,
    press_answer: PressAnswer,
    presser_tr: Translator,
    player: Player,
) -> None:
    """My cards, in a pop-up (for a player who does not open the private chat)."""
    outcome = await service.hand(pressed_chat(query), callback_data.game, player.user_id)
    match outcome:
        case Viewed(record, seat):
            press_answer.show(
                hand_popup(hand_scene(record.game, seat).view, presser_tr), alert=True
            )
        case Refused(reason):
            press_answer.refuse(reason)


async def _ask_to_start(
    bot: Bot, outbox: Outbox, message: Message, tr: Translator, player: Player, game_id: str
) -> None:
    """The user has never started the bot in private: a button that does it and seats them."""
    url = await join_link(bot, message.chat.id, game_id)
    text = tr.t("reply-need-start", name=html.escape(player.name))
    await reply(outbox, message, text, markup=link_button(tr.t("button-open-bot"), url))
