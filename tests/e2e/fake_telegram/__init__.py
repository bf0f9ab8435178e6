"""A local fake Telegram Bot API server for end-to-end tests of the bot.

Typical use::

    async with FakeTelegram() as fake:
        alice = fake.add_user("Alice", started=True)
        group = fake.add_group("Durak night", creator=alice)
        # start the bot with TELEGRAM_API_URL=fake.base_url and BOT_TOKEN=fake.token
        fake.user_sends(alice, group, "/newgame")
        message = await fake.wait_for_bot_message(group, "Join")
        query_id = fake.user_presses(alice, message, "Join")
        answer = await fake.callback_answer(query_id)
"""

from .client import FakeTelegram, ImpossibleUserAction
from .faults import Fault
from .model import (
    ANONYMOUS_ADMIN_ID,
    QUERY_TOO_OLD,
    ApiError,
    Button,
    CallbackAnswer,
    CallbackQueryRecord,
    CallRecord,
    FakeChat,
    FakeMember,
    FakeMessage,
    FakeUser,
    FloodLimits,
    MessageVersion,
    bad_request,
    forbidden,
    server_error,
    too_many_requests,
)
from .text import parse_html

__all__ = [
    "ANONYMOUS_ADMIN_ID",
    "QUERY_TOO_OLD",
    "ApiError",
    "Button",
    "CallRecord",
    "CallbackAnswer",
    "CallbackQueryRecord",
    "FakeChat",
    "FakeMember",
    "FakeMessage",
    "FakeTelegram",
    "FakeUser",
    "Fault",
    "FloodLimits",
    "ImpossibleUserAction",
    "MessageVersion",
    "bad_request",
    "forbidden",
    "parse_html",
    "server_error",
    "too_many_requests",
]
