"""The outbox's only calls to Telegram: ``post`` a message (or ``post_file``, a file with a
caption), ``edit`` one, for a game's
messages (``bot.delivery.lane``) and one-off notes (``bot.delivery.notes``) alike. What a
failed call means is decided once (``bot.delivery.failures.classify``) and what it means for
the whole worker is done once (``Outbox.failed``); each kind of message then does its own
part: a game's message is tried until it shows the game, a note gives up after a while."""

from __future__ import annotations

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, ReplyParameters

from .failures import Failure, classify


async def post(
    bot: Bot,
    chat_id: int,
    text: str,
    markup: InlineKeyboardMarkup | None,
    *,
    reply_to: int | None = None,
) -> int:
    """Send a new message (as a reply to ``reply_to``, also if that one is gone); its id."""
    sent = await bot.send_message(
        chat_id, text, reply_markup=markup, reply_parameters=_reply(reply_to)
    )
    return sent.message_id


async def post_file(
    bot: Bot,
    chat_id: int,
    name: str,
    content: str,
    caption: str,
    markup: InlineKeyboardMarkup | None,
    *,
    reply_to: int | None = None,
) -> int:
    """Send a text file ``name`` with ``caption`` (a game's record); its message id."""
    sent = await bot.send_document(
        chat_id,
        BufferedInputFile(content.encode("utf-8"), filename=name),
        caption=caption,
        reply_markup=markup,
        reply_parameters=_reply(reply_to),
    )
    return sent.message_id


def _reply(reply_to: int | None) -> ReplyParameters | None:
    """A reply to message ``reply_to``, which goes also if that one is gone."""
    if reply_to is None:
        return None
    return ReplyParameters(message_id=reply_to, allow_sending_without_reply=True)


async def edit(
    bot: Bot, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None
) -> None:
    """Make message ``message_id`` show ``text`` and ``markup``; that it shows them already
    is no failure."""
    try:
        await bot.edit_message_text(
            text=text, chat_id=chat_id, message_id=message_id, reply_markup=markup
        )
    except TelegramBadRequest as error:
        failure = classify(error)
        if failure is None or failure.kind is not Failure.NOT_MODIFIED:
            raise
