"""After the game: «Проверить колоду» (the record, with the check of its deck), «Разбор» (the
presser's review, in private) and ``/replay`` (the record and the replay's link), in groups
and in private alike, for a game that was kept (``bot.services.replays``)."""

from __future__ import annotations

import html

from aiogram import Bot, F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message

from bot.delivery import Outbox
from bot.i18n import Translator, translator
from bot.model import FinishedGame
from bot.services import GameService, Player
from bot.services.games import start_link
from bot.services.replays import Replays, checked, file_name, record_text, review_payload
from bot.services.reviews import Reviews, reviewable
from bot.ui.callbacks import LobbyOp, LobbyPress
from bot.ui.webapp import replay_button
from engine.deck_seed import short

from .filters import pressed_chat
from .middlewares import PressAnswer
from .telegram import reach_check


def router() -> Router:
    router = Router(name="after")
    press = LobbyPress.filter
    router.callback_query.register(press_verify, press(F.op == LobbyOp.VERIFY))
    router.callback_query.register(press_review, press(F.op == LobbyOp.REVIEW))
    router.message.register(replay, Command("replay"))
    return router


async def press_verify(
    query: CallbackQuery,
    callback_data: LobbyPress,
    replays: Replays,
    outbox: Outbox,
    press_answer: PressAnswer,
    tr: Translator,
) -> None:
    """The game's record in the chat, with the check of its deck in one line."""
    chat_id = pressed_chat(query)
    finished = await replays.finished(chat_id, callback_data.game)
    if finished is None:
        press_answer.say("after-no-record", alert=True)
        return
    if not finished.settings.show_hands_after:
        press_answer.say("verify-hidden", alert=True)
        return
    await send_record(outbox, chat_id, finished, tr)


async def send_record(
    outbox: Outbox,
    chat_id: int,
    finished: FinishedGame,
    tr: Translator,
    reply_to: int | None = None,
) -> None:
    """The record's file, its deck checked here (``engine.verify``), and the replay's link."""
    verdict = checked(finished)
    if verdict.ok:
        said = tr.t("verify-ok", commitment=short(finished.commitment))
    else:
        said = tr.t("verify-failed", line=html.escape(verdict.line))
    name = file_name(finished)
    caption = tr.t("verify-caption", game=finished.game_id, verdict=said, file=name)
    await outbox.send_file(
        chat_id,
        (name, record_text(finished)),
        caption,
        markup=_replay_markup(outbox, finished, tr, private=chat_id > 0),
        reply_to=reply_to,
    )


async def press_review(
    query: CallbackQuery,
    callback_data: LobbyPress,
    bot: Bot,
    replays: Replays,
    reviews: Reviews,
    service: GameService,
    press_answer: PressAnswer,
    player: Player,
) -> None:
    """Line up the presser's review of the game; it comes in private. Someone the bot may
    not write to yet is sent to its private chat, whose Start asks for it."""
    chat_id = pressed_chat(query)
    finished = await replays.finished(chat_id, callback_data.game)
    refusal = _review_refusal(finished, player.user_id)
    if refusal is not None:
        press_answer.say(refusal, alert=True)
        return
    assert finished is not None
    if not await service.reachable(player.user_id, reach_check(bot, player.user_id)):
        me = await bot.me()
        press_answer.open(start_link(me.username or "", review_payload(chat_id, finished.game_id)))
        return
    asked = await reviews.ask(finished, player.user_id)
    if asked.review is None:
        press_answer.say("review-queued", ahead=asked.ahead)


async def ask_review_by_link(
    chat_id: int, game_id: str, replays: Replays, reviews: Reviews, outbox: Outbox, player: Player
) -> None:
    """``/start r<chat>_<game>`` in private: the review the person asked for before the bot
    could write to them."""
    tr = translator(player.language)
    finished = await replays.finished(chat_id, game_id)
    refusal = _review_refusal(finished, player.user_id)
    if refusal is not None:
        await outbox.say(player.user_id, tr.t(refusal))
        return
    assert finished is not None
    asked = await reviews.ask(finished, player.user_id)
    if asked.review is None:
        await outbox.say(player.user_id, tr.t("review-queued", ahead=asked.ahead))


def _review_refusal(finished: FinishedGame | None, user_id: int) -> str | None:
    """Why ``user_id`` may not have a review of ``finished`` (a message id), or None."""
    if finished is None:
        return "after-no-record"
    seat = finished.seat_of(user_id)
    if seat is None or finished.players[seat].computer:
        return "review-not-yours"
    if not reviewable(finished):
        return "review-blind"
    return None


async def replay(message: Message, replays: Replays, outbox: Outbox, tr: Translator) -> None:
    """``/replay``: the chat's last kept game: its record (where the chat shows the hands
    after the game) and the replay's link."""
    chat_id = message.chat.id
    finished = await replays.finished(chat_id)
    if finished is None:
        await outbox.say(chat_id, tr.t("replay-no-game"), reply_to=message.message_id)
        return
    if finished.settings.show_hands_after:
        await send_record(outbox, chat_id, finished, tr, reply_to=message.message_id)
        return
    text = "\n".join([tr.t("replay-text", game=finished.game_id), tr.t("replay-hands-hidden")])
    markup = _replay_markup(outbox, finished, tr, private=chat_id > 0)
    await outbox.say(chat_id, text, markup=markup, reply_to=message.message_id)


def _replay_markup(
    outbox: Outbox, finished: FinishedGame, tr: Translator, *, private: bool
) -> InlineKeyboardMarkup | None:
    links = outbox.links
    if links is None:
        return None
    button = replay_button(links, finished.chat_id, finished.game_id, tr, private=private)
    return None if button is None else InlineKeyboardMarkup(inline_keyboard=[[button]])
