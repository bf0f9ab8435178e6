"""The private chat: /start (with a join link's payload or without), and what the bot keeps
about the person: /mydata shows it, /forget erases it after a confirmation button
(``bot.services.people.PersonalData`` says what is erased and what is left, and why). In a
group, /mydata and /forget only say to use them in private: there they concern only the
person who sends them."""

from __future__ import annotations

import html
import logging

from aiogram import Bot, Router
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.delivery import Outbox
from bot.i18n import Translator, translator
from bot.services import Changed, Claim, GameService, Player, Refused
from bot.services.people import Found, PersonalData, Table, UserService
from bot.services.replays import Replays, parse_review_payload
from bot.services.reviews import Reviews
from bot.ui.callbacks import ForgetOp, ForgetPress
from bot.ui.errors import Said, refusal_message_id

from .after import ask_review_by_link
from .filters import IN_GROUP, IN_PRIVATE, UNDER_PRIVATE_MESSAGE
from .middlewares import PressAnswer
from .telegram import member_check

log = logging.getLogger(__name__)


def router() -> Router:
    router = Router(name="private")

    @router.message(IN_PRIVATE, CommandStart())
    async def start(
        message: Message,
        command: CommandObject,
        bot: Bot,
        service: GameService,
        user_service: UserService,
        outbox: Outbox,
        tr: Translator,
        player: Player,
        replays: Replays,
        reviews: Reviews,
        once: Claim | None = None,
    ) -> None:
        review = parse_review_payload(command.args.strip()) if command.args else None
        if review is not None:
            await user_service.started(player.user_id)
            await ask_review_by_link(*review, replays, reviews, outbox, player)
            return
        if command.args:
            outcome = await service.join_by_link(
                command.args.strip(), player, is_member=member_check(bot, player.user_id), once=once
            )
            match outcome:
                case Changed(record):
                    outbox.publish(record)
                    key = "start-joined"
                case Refused(reason):
                    key = refusal_message_id(reason, Said.START)
            await outbox.say(message.chat.id, tr.t(key, name=html.escape(player.name)))
            return
        await user_service.started(player.user_id)
        await outbox.say(message.chat.id, tr.t("start-welcome", name=html.escape(player.name)))
        # A player who blocked the bot mid-game, or deleted their hand, gets it again, as a
        # new message at the bottom of the chat.
        for record in await service.games_of(player.user_id):
            await outbox.resend_hand(record, player.user_id)

    @router.message(IN_PRIVATE, Command("mydata"))
    async def mydata(
        message: Message, service: GameService, outbox: Outbox, tr: Translator, player: Player
    ) -> None:
        found = await PersonalData(service.storage).found(player.user_id)
        await outbox.say(message.chat.id, mydata_text(found, tr))

    @router.message(IN_PRIVATE, Command("forget"))
    async def forget(
        message: Message, service: GameService, outbox: Outbox, tr: Translator, player: Player
    ) -> None:
        data = PersonalData(service.storage)
        found = await data.found(player.user_id)
        token = await data.ask_forget(player.user_id)
        text = tr.t("forget-ask")
        if found.playing:
            text += "\n\n" + tr.t("forget-ask-playing", count=len(found.playing))
        buttons = [
            InlineKeyboardButton(
                text=tr.t(f"button-forget-{op.value}"),
                callback_data=ForgetPress(token=token, op=op).pack(),
            )
            for op in (ForgetOp.YES, ForgetOp.NO)
        ]
        markup = InlineKeyboardMarkup(inline_keyboard=[buttons])
        await outbox.say(message.chat.id, text, markup=markup)

    @router.callback_query(UNDER_PRIVATE_MESSAGE, ForgetPress.filter())
    async def forget_press(
        query: CallbackQuery,
        callback_data: ForgetPress,
        bot: Bot,
        service: GameService,
        press_answer: PressAnswer,
        tr: Translator,
    ) -> None:
        """Erase, or not; a button of an older question (or a forged one) changes nothing
        and says so."""
        data, user_id = PersonalData(service.storage), query.from_user.id
        if callback_data.op is ForgetOp.NO:
            if not await data.cancel_forget(user_id, callback_data.token):
                press_answer.say("answer-forget-stale", alert=True)
                return
            await _close(bot, query, tr.t("forget-cancelled"))
            return
        forgotten = await data.forget(user_id, callback_data.token, _placeholder)
        if forgotten is None:
            press_answer.say("answer-forget-stale", alert=True)
            return
        text = tr.t("forget-done")
        if forgotten.playing:
            text += "\n\n" + tr.t("forget-ask-playing", count=len(forgotten.playing))
        await _close(bot, query, text)

    @router.message(IN_GROUP, Command("mydata", "forget"))
    async def private_only(message: Message, outbox: Outbox, tr: Translator) -> None:
        await outbox.say(message.chat.id, tr.t("reply-private-only"), reply_to=message.message_id)

    return router


def mydata_text(found: Found, tr: Translator) -> str:
    """What /mydata says: everything kept about the person, one line each."""
    kept, lines = found.kept, [tr.t("mydata-title", id=found.user_id)]
    if found.nothing:
        lines.append(tr.t("mydata-nothing"))
    if kept.started:
        lines.append(tr.t("mydata-started"))
    for table in found.playing:
        lines.append(
            tr.t("mydata-playing", where=_where(table.chat_id, found, tr), name=_name(table))
        )
    for table in found.finished:
        lines.append(
            tr.t("mydata-finished", where=_where(table.chat_id, found, tr), name=_name(table))
        )
    for chat_id, row in sorted(kept.chats.items()):
        where = _where(chat_id, found, tr)
        name = html.escape(row.name, quote=False)
        lines.append(
            tr.t(
                "mydata-chat",
                where=where,
                name=name,
                games=row.games,
                durak=row.durak,
                draws=row.draws,
            )
        )
    if kept.totals.games:
        totals = kept.totals
        lines.append(
            tr.t("mydata-totals", games=totals.games, durak=totals.durak, draws=totals.draws)
        )
    for level, row in sorted(kept.versus.items()):
        lines.append(
            tr.t(
                "mydata-versus",
                level=html.escape(level),
                games=row.games,
                durak=row.durak,
                draws=row.draws,
            )
        )
    if kept.own_rules:
        lines.append(tr.t("mydata-rules"))
    if kept.rating is not None:
        skill, games = kept.rating
        lines.append(tr.t("mydata-rating", points=skill.points, games=games))
    lines.append("")
    lines.append(tr.t("mydata-footer"))
    return "\n".join(lines)


def _where(chat_id: int, found: Found, tr: Translator) -> str:
    return (
        tr.t("mydata-here") if chat_id == found.user_id else tr.t("mydata-group", chat=str(chat_id))
    )


def _name(table: Table) -> str:
    return html.escape(table.name, quote=False)


def _placeholder(language: str) -> str:
    """The word a finished game shows instead of a forgotten player's name: the game's
    language, since the whole table reads it."""
    return translator(language).t("player-forgotten")


async def _close(bot: Bot, query: CallbackQuery, text: str) -> None:
    """The /forget question becomes ``text``, without its buttons. The answer to the
    person's press, at a person's pace, so it goes at once rather than through the outbox;
    if Telegram refuses, the question stays, and its buttons no longer work."""
    assert query.message is not None
    chat_id, message_id = query.message.chat.id, query.message.message_id
    try:
        await bot.edit_message_text(text=text, chat_id=chat_id, message_id=message_id)
    except TelegramRetryAfter as error:
        log.warning("the /forget question in %s not closed: retry after %s s", chat_id, error)
    except TelegramBadRequest as error:
        log.warning("the /forget question in %s not closed: %s", chat_id, error.message)
