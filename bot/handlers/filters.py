"""Which chats a handler is for: the one place that names the group chat types."""

from __future__ import annotations

from typing import Final

from aiogram import F
from aiogram.enums import ChatType
from aiogram.types import CallbackQuery

GROUP_CHATS: Final = frozenset({ChatType.GROUP, ChatType.SUPERGROUP})

IN_GROUP: Final = F.chat.type.in_(GROUP_CHATS)
"""A message or a member update in a group."""
IN_PRIVATE: Final = F.chat.type == ChatType.PRIVATE
"""A message in the user's private chat with the bot."""
UNDER_GROUP_MESSAGE: Final = F.message.chat.type.in_(GROUP_CHATS)
"""A press on a button under a message in a group."""
UNDER_PRIVATE_MESSAGE: Final = F.message.chat.type == ChatType.PRIVATE
"""A press on a button under a message in a private chat."""


def pressed_chat(query: CallbackQuery) -> int:
    """The chat of the message whose button was pressed (``UNDER_GROUP_MESSAGE`` or
    ``UNDER_PRIVATE_MESSAGE`` let the press through, so there is one)."""
    assert query.message is not None
    return query.message.chat.id
