"""The questions the services ask Telegram through the handlers (``Check`` callables), and
message helpers the handlers share."""

from __future__ import annotations

import logging

from aiogram import Bot
from aiogram.enums import ChatMemberStatus
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
)
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.services import Check, MemberCheck, join_payload, start_link
from bot.services.people import AdminService, AdminUnknown, Question
from bot.ui.common import MAX_POPUP

log = logging.getLogger(__name__)

ADMIN_STATUSES = frozenset({ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR})
MEMBER_STATUSES = ADMIN_STATUSES | {ChatMemberStatus.MEMBER}


def ask_admin(bot: Bot, chat_id: int, user_id: int) -> Question:
    """Telegram's answer (getChatMember): is the user the group's creator or an
    administrator? None if Telegram refuses to say; ``AdminUnknown`` if its answer could not
    be read (an admin must not be told "only admins may" then)."""

    async def ask() -> bool | None:
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except (TelegramBadRequest, TelegramForbiddenError):
            return None
        except (TelegramAPIError, ClientDecodeError, TimeoutError) as error:
            raise AdminUnknown(chat_id, user_id, str(error) or type(error).__name__) from error
        return member.status in ADMIN_STATUSES

    return ask


def admin_check(bot: Bot, admins: AdminService, chat_id: int, user_id: int) -> Check:
    """Is the user the group's creator or an administrator? Asked only when the service
    needs to know: from the cache (a minute, in Redis), else getChatMember, remembered. A
    refusal from Telegram is a "no" that is not remembered; an answer that could not be read
    raises ``AdminUnknown`` (``ContextMiddleware`` tells the user to try again)."""
    return admins.check(chat_id, user_id, ask_admin(bot, chat_id, user_id))


def member_check(bot: Bot, user_id: int) -> MemberCheck:
    """Is the user a member of the group? Creator, administrator, member, or restricted
    but still a member; anything else (left, banned, never there) is a "no", and so is an
    error from Telegram: a seat is only given to someone Telegram vouches for."""

    async def is_member(chat_id: int) -> bool:
        return await ask_member(bot, chat_id, user_id)() is True

    return is_member


def ask_member(bot: Bot, chat_id: int, user_id: int) -> Question:
    """Telegram's answer (getChatMember): is the user a member of the group (see
    ``member_check``)? None if Telegram gave none (an error: not to be remembered)."""

    async def ask() -> bool | None:
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except TelegramAPIError as error:
            log.info("cannot tell if %s is in %s: %s", user_id, chat_id, error)
            return None
        if member.status == ChatMemberStatus.RESTRICTED:
            return bool(getattr(member, "is_member", False))
        return member.status in MEMBER_STATUSES

    return ask


def anonymous_admin(message: Message) -> bool:
    """Sent "on behalf of the group" by an anonymous admin."""
    return message.sender_chat is not None and message.sender_chat.id == message.chat.id


def reach_check(bot: Bot, user_id: int) -> Check:
    """Can the bot write to the user in private? (A user who never pressed Start: no.)"""

    async def can_message() -> bool:
        try:
            await bot.send_chat_action(user_id, "typing")
        except (TelegramBadRequest, TelegramForbiddenError):
            return False
        return True

    return can_message


async def join_link(bot: Bot, chat_id: int, game_id: str) -> str:
    me = await bot.me()
    return start_link(me.username or "", join_payload(chat_id, game_id))


def link_button(text: str, url: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text=text, url=url)]])


def fit_popup(text: str) -> str:
    """``text`` cut to the 200 characters a callback answer may hold."""
    return text if len(text) <= MAX_POPUP else text[: MAX_POPUP - 1] + "…"
