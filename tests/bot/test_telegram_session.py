"""``TelegramSession`` checks Bot API responses exactly as aiogram's ``AiohttpSession``
does: both sessions are fed the same raw responses (status and body), and must return equal
results or raise the same exception type with the same fields. Its requests hold what
aiogram's form holds, as a JSON body."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import (
    AnswerCallbackQuery,
    EditMessageText,
    GetUpdates,
    SendDocument,
    SendMessage,
    SetMyCommands,
    TelegramMethod,
)
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    WebAppInfo,
)
from aiohttp import web

from bot.telegram_session import ShownEdit, TelegramSession

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


def _form_fields(session: AiohttpSession, bot: Bot, method: TelegramMethod[Any]) -> dict[str, str]:
    form = session.build_form_data(bot, method)
    return {options["name"]: value for options, _headers, value in form._fields}


@pytest.mark.parametrize(
    "method",
    [
        SendMessage(
            chat_id=CHAT,
            text="Козырь: <b>6♦</b> & «ход»",
            reply_markup=InlineKeyboardMarkup(
                inline_keyboard=[[InlineKeyboardButton(text="Т♦", callback_data="h:1:g:3:a31")]]
            ),
        ),
        EditMessageText(
            chat_id=CHAT, message_id=7, text="Козырь: 6♦", disable_web_page_preview=False
        ),
        AnswerCallbackQuery(callback_query_id="99", text="Не твой ход", show_alert=True),
        GetUpdates(offset=1, timeout=30, allowed_updates=["message", "callback_query"]),
        SetMyCommands(
            commands=[BotCommand(command="newgame", description="Новая игра")],
            scope=BotCommandScopeAllGroupChats(),
            language_code="uk",
        ),
    ],
    ids=lambda method: type(method).__name__,
)
def test_a_json_body_holds_what_aiogram_s_form_holds(method: TelegramMethod[Any]) -> None:
    """The same parameters, the bot's defaults (parse_mode) included, the same ones left
    out; nested objects as JSON values where the form has them as JSON text."""
    bot = Bot(TOKEN, default=DefaultBotProperties(parse_mode="HTML"))
    body = TelegramSession().json_body(bot, method)
    assert body is not None
    sent = json.loads(body)
    form = _form_fields(AiohttpSession(), bot, method)
    assert sent.keys() == form.keys()
    for key, value in sent.items():
        assert value == (form[key] if isinstance(value, str) else json.loads(form[key])), key
    if isinstance(method, SendMessage):
        assert sent["parse_mode"] == "HTML"


def test_a_call_with_a_file_goes_as_aiogram_s_form() -> None:
    method = SendDocument(chat_id=CHAT, document=BufferedInputFile(b"log", filename="game.json"))
    assert TelegramSession().json_body(Bot(TOKEN), method) is None


@pytest.mark.parametrize("case", [c for c, (m, _) in RESPONSES.items() if m is EDIT])
def test_the_outbox_s_edit_fails_as_aiogram_s_and_answers_its_message_unparsed(case: str) -> None:
    """``ShownEdit`` (the outbox's edits) raises what ``EditMessageText`` raises, with the
    same fields; an edit that went answers the message as Telegram sent it."""
    _method, (status, body) = RESPONSES[case]
    shown = ShownEdit(chat_id=CHAT, message_id=7, text="Козырь: 6♦")
    ours = outcome(TelegramSession(), shown, status, body)
    stock = outcome(TelegramSession(), EDIT, status, body)
    if isinstance(stock[0], type) and issubclass(stock[0], BaseException):
        kind, text, _args, values = ours

        # The same words, but for the method's name in a flood limit's text.
        def named(value: Any) -> Any:
            return (
                value.replace("ShownEdit", "EditMessageText") if isinstance(value, str) else value
            )

        assert (kind, named(text)) == stock[:2]
        assert {k: named(v) for k, v in values.items() if k != "method"} == {
            k: v for k, v in stock[3].items() if k != "method"
        }
        assert values["method"] is not None
    else:
        result = json.loads(body)["result"]
        assert ours[1].result == result


KEYBOARDS = {
    "no keyboard": None,
    "buttons of every kind the bot sends": InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text="Т♦", callback_data="h:1:g:3:a31")],
            [
                InlineKeyboardButton(
                    text="🃏 Стол", url="https://t.me/durak_bot/table?startapp=c-1"
                ),
                InlineKeyboardButton(
                    text="🃏", web_app=WebAppInfo(url="https://durak.example/app")
                ),
            ],
        ]
    ),
}


@pytest.mark.parametrize("keyboard", list(KEYBOARDS))
def test_the_outbox_s_edit_body_holds_what_aiogram_s_method_holds(keyboard: str) -> None:
    """``edit_body`` (written straight from the text and the keyboard's JSON) holds what
    ``json_body`` of the same ``ShownEdit`` holds: the bot's defaults included."""
    markup = KEYBOARDS[keyboard]
    bot = Bot(TOKEN, default=DefaultBotProperties(parse_mode="HTML"))
    session = TelegramSession()
    text = "Козырь: <b>6♦</b> & «ход»"
    keyboard_json = None if markup is None else markup.model_dump_json(exclude_none=True)
    lean = session.edit_body(bot, CHAT, 7, text, keyboard_json)
    stock = session.json_body(
        bot, ShownEdit(chat_id=CHAT, message_id=7, text=text, reply_markup=markup)
    )
    assert stock is not None
    assert json.loads(lean) == json.loads(stock)
    assert json.loads(lean)["parse_mode"] == "HTML"


class Answering:
    """A real HTTP server that answers every call with the status and body it is given."""

    def __init__(self) -> None:
        self.answer: tuple[int, str] = ok(True)
        self.bodies: list[dict[str, Any]] = []

    async def handle(self, request: web.Request) -> web.Response:
        self.bodies.append(json.loads(await request.read()))
        status, body = self.answer
        return web.Response(status=status, text=body, content_type="application/json")


@pytest.fixture
async def answering() -> AsyncIterator[tuple[Answering, str]]:
    server = Answering()
    app = web.Application()
    app.router.add_post("/{tail:.*}", server.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield server, f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


@pytest.mark.parametrize("case", [c for c, (m, _) in RESPONSES.items() if m is EDIT])
async def test_the_outbox_s_edit_raises_what_aiogram_s_edit_raises(
    case: str, answering: tuple[Answering, str]
) -> None:
    """``edit_text`` over real HTTP: an edit that went returns, any other answer raises
    what the same answer to aiogram's ``ShownEdit`` raises, with the same fields."""
    server, base = answering
    server.answer = RESPONSES[case][1]
    session = TelegramSession(api=TelegramAPIServer.from_base(base))
    bot = Bot(TOKEN, session=session, default=DefaultBotProperties(parse_mode="HTML"))
    shown = ShownEdit(chat_id=CHAT, message_id=7, text="Козырь: 6♦")
    stock = outcome(TelegramSession(), shown, *server.answer)
    try:
        await session.edit_text(bot, CHAT, 7, "Козырь: 6♦", None, None)
    except Exception as raised:  # the point is which one
        ours: Any = (type(raised), str(raised), {k: fields(v) for k, v in vars(raised).items()})
        assert ours[0] is stock[0] and ours[1] == stock[1]
        assert {k: v for k, v in ours[2].items() if k != "method"} == {
            k: v for k, v in stock[3].items() if k != "method"
        }
        assert isinstance(vars(raised)["method"], ShownEdit)
    else:
        assert not (isinstance(stock[0], type) and issubclass(stock[0], BaseException)), case
    finally:
        await session.close()
    assert server.bodies == [
        {"chat_id": CHAT, "message_id": 7, "text": "Козырь: 6♦", "parse_mode": "HTML"}
    ]


async def test_the_outbox_s_edit_with_no_answer_is_a_network_error() -> None:
    """Nobody listening: aiogram's ``TelegramNetworkError``, for the edit."""
    session = TelegramSession(api=TelegramAPIServer.from_base("http://127.0.0.1:9"))
    bot = Bot(TOKEN, session=session)
    try:
        with pytest.raises(TelegramNetworkError) as raised:
            await session.edit_text(bot, CHAT, 7, "Козырь: 6♦", None, None)
    finally:
        await session.close()
    assert isinstance(raised.value.method, ShownEdit)
