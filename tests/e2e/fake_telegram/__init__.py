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

Failures real Telegram produces are injected from the test: ``fake.server_error(method)``,
``fake.too_many_requests(method, retry_after)``, ``fake.slow(method, seconds)``,
``fake.network_failure(method)`` or the general ``fake.inject(...)``; and the world changes
under the bot with ``fake.user_deletes_message``, ``fake.migrate_to_supergroup`` and
``fake.bot_removed_from_group``.
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
from .text import EntityParseError, parse_html

__all__ = [
    "ANONYMOUS_ADMIN_ID",
    "QUERY_TOO_OLD",
    "ApiError",
    "Button",
    "CallRecord",
    "CallbackAnswer",
    "CallbackQueryRecord",
    "EntityParseError",
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
