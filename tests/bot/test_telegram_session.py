"""``TelegramSession`` checks Bot API responses exactly as aiogram's ``AiohttpSession``
does: both sessions are fed the same raw responses (status and body), and must return equal
results or raise the same exception type with the same fields; and it counts, for the
operator, each failed call by kind and when the Bot API last answered."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import (
    AnswerCallbackQuery,
    EditMessageText,
    GetUpdates,
    SendMessage,
    TelegramMethod,
)

from bot.metrics import BOT_API, REGISTRY
from bot.telegram_session import TelegramSession

TOKEN = "42:TEST"
CHAT = -1001234567890

MESSAGE = {
    "message_id": 7,
    "date": 1700000000,
    "chat": {"id": CHAT, "type": "supergroup", "title": "Durak night"},
    "from": {"id": 42, "is_bot": True, "first_name": "Durak", "username": "durak_bot"},
    "text": "Козырь: 6♦",
    "reply_markup": {"inline_keyboard": [[{"text": "Т♦", "callback_data": "h:1:g:3:a31"}]]},
}
UPDATE = {
    "update_id": 1,
    "callback_query": {
        "id": "99",
        "from": {"id": 5, "is_bot": False, "first_name": "Аня"},
        "chat_instance": "1",
        "data": "h:1:g:3:k",
        "message": MESSAGE,
    },
}

SEND = SendMessage(chat_id=CHAT, text="Козырь: 6♦")
EDIT = EditMessageText(chat_id=CHAT, message_id=7, text="Козырь: 6♦")
ANSWER = AnswerCallbackQuery(callback_query_id="99")
UPDATES = GetUpdates(offset=1, timeout=30)


def error(code: int, description: str, **parameters: int) -> tuple[int, str]:
    body: dict[str, Any] = {"ok": False, "error_code": code, "description": description}
    if parameters:
        body["parameters"] = parameters
    return code, json.dumps(body)


def ok(result: Any) -> tuple[int, str]:
    return 200, json.dumps({"ok": True, "result": result})


RESPONSES: dict[str, tuple[TelegramMethod[Any], tuple[int, str]]] = {
    "sent": (SEND, ok(MESSAGE)),
    "edited": (EDIT, ok(MESSAGE)),
    "edited inline (true)": (EDIT, ok(True)),
    "answered": (ANSWER, ok(True)),
    "updates": (UPDATES, ok([UPDATE])),
    "no updates": (UPDATES, ok([])),
    "400 bad request": (EDIT, error(400, "Bad Request: message is not modified")),
    "400 migrate to chat": (
        SEND,
        error(400, "Bad Request: group chat was upgraded", migrate_to_chat_id=-1009876),
    ),
    "401 unauthorized": (SEND, error(401, "Unauthorized")),
    "403 forbidden": (SEND, error(403, "Forbidden: bot was blocked by the user")),
    "404 not found": (SEND, error(404, "Not Found")),
    "409 conflict": (UPDATES, error(409, "Conflict: terminated by other getUpdates request")),
    "413 too large": (SEND, error(413, "Request Entity Too Large")),
    "429 retry after": (EDIT, error(429, "Too Many Requests: retry after 7", retry_after=7)),
    "500 server error": (SEND, error(500, "Internal Server Error")),
    "500 restarting": (SEND, error(500, "Internal Server Error: restart")),
    "502 bad gateway": (SEND, error(502, "Bad Gateway")),
    "418 other": (SEND, error(418, "I'm a teapot")),
    "200 not ok": (SEND, (200, json.dumps({"ok": False, "description": "odd"}))),
    "200 not JSON": (SEND, (200, "<html>Bad Gateway</html>")),
    "200 wrong result": (SEND, ok("not a message")),
    "502 not JSON": (SEND, (502, "<html>Bad Gateway</html>")),
}


def fields(value: Any) -> Any:
    """Something ``==`` can compare: exceptions by type and text, models as they are."""
    if isinstance(value, BaseException):
        return (type(value), str(value))
    return value


def outcome(session: AiohttpSession, method: TelegramMethod[Any], status: int, body: str) -> Any:
    bot = Bot(TOKEN, session=session)
    try:
        response = session.check_response(bot, method, status, body)
    except Exception as raised:  # the point is which one
        return (
            type(raised),
            str(raised),
            tuple(fields(arg) for arg in raised.args),
            {key: fields(value) for key, value in vars(raised).items()},
        )
    return type(response), response, type(response.result)


@pytest.mark.parametrize("case", list(RESPONSES))
def test_check_response_is_aiogram_s(case: str) -> None:
    method, (status, body) = RESPONSES[case]
    stock = outcome(AiohttpSession(), method, status, body)
    ours = outcome(TelegramSession(), method, status, body)
    assert ours == stock


def test_error_fields_survive() -> None:
    """The fields the outbox reads: retry_after and migrate_to_chat_id."""
    method, (status, body) = RESPONSES["429 retry after"]
    kind, _text, _args, values = outcome(TelegramSession(), method, status, body)
    assert kind.__name__ == "TelegramRetryAfter" and values["retry_after"] == 7
    method, (status, body) = RESPONSES["400 migrate to chat"]
    kind, _text, _args, values = outcome(TelegramSession(), method, status, body)
    assert kind.__name__ == "TelegramMigrateToChat" and values["migrate_to_chat_id"] == -1009876


def failures(method: str, kind: str) -> float:
    return (
        REGISTRY.get_sample_value("durak_bot_api_errors_total", {"method": method, "kind": kind})
        or 0.0
    )


@pytest.mark.parametrize(
    ("case", "kind"),
    [("429 retry after", "429"), ("500 server error", "5xx"), ("403 forbidden", "4xx"),
     ("200 not ok", "4xx")],
)  # fmt: skip
def test_a_failed_call_is_counted_by_kind_and_the_api_as_reached(case: str, kind: str) -> None:
    method, (status, body) = RESPONSES[case]
    before = failures(method.__api_method__, kind)
    BOT_API.last_ok = 0.0
    outcome(TelegramSession(), method, status, body)
    assert failures(method.__api_method__, kind) == before + 1
    assert BOT_API.seconds_since() < 60


def test_a_success_is_not_counted_as_a_failure() -> None:
    method, (status, body) = RESPONSES["edited"]
    counted = [failures(method.__api_method__, k) for k in ("429", "5xx", "4xx")]
    BOT_API.last_ok = 0.0
    outcome(TelegramSession(), method, status, body)
    assert [failures(method.__api_method__, k) for k in ("429", "5xx", "4xx")] == counted
    assert BOT_API.seconds_since() < 60


@pytest.fixture
async def silent_api() -> AsyncIterator[str]:
    """A Bot API that never answers: the address of a socket that accepts and says nothing."""
    accepted: list[asyncio.StreamWriter] = []
    server = await asyncio.start_server(lambda _r, w: accepted.append(w), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        for writer in accepted:
            writer.close()
            await writer.wait_closed()
        server.close()
        await server.wait_closed()


async def test_a_call_with_no_answer_is_a_counted_network_error(silent_api: str) -> None:
    session = TelegramSession(api=TelegramAPIServer.from_base(silent_api), timeout=0.5)
    bot = Bot(TOKEN, session=session)
    before = failures("sendMessage", "network")
    try:
        with pytest.raises(TelegramNetworkError):
            await bot(SEND, request_timeout=1)
    finally:
        await session.close()
    assert failures("sendMessage", "network") == before + 1
