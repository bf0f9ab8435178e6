"""The bot in-process, without a network: the real Dispatcher from ``bot.app.build`` and a
Bot whose session answers like the Bot API (as aiogram's own tests do, a ``BaseSession``
whose ``make_request`` records the request and returns a canned response).

Responses are the JSON the Bot API sends, checked by aiogram's ``check_response``: a
refusal (``"ok": false``) raises the very exception a real one raises. Updates are built
from the JSON Telegram sends too (``Update.model_validate``), then fed to
``Dispatcher.feed_update``.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncGenerator
from typing import Any, cast

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.base import BaseSession
from aiogram.enums import ParseMode
from aiogram.methods import (
    AnswerCallbackQuery,
    DeleteMessage,
    EditMessageReplyMarkup,
    EditMessageText,
    GetChatMember,
    GetMe,
    SendChatAction,
    SendMessage,
    TelegramMethod,
)
from aiogram.methods.base import TelegramType
from aiogram.types import (
    ChatMemberAdministrator,
    ChatMemberBanned,
    ChatMemberLeft,
    ChatMemberMember,
    ChatMemberOwner,
    ChatMemberRestricted,
    Update,
)
from pydantic import BaseModel

from bot.app import App

TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0"
BOT_USER: dict[str, Any] = {
    "id": 123456789,
    "is_bot": True,
    "first_name": "Дурак",
    "username": "durak_test_bot",
}
ANONYMOUS_ADMIN: dict[str, Any] = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}
GROUP: dict[str, Any] = {"id": -1001234, "type": "supergroup", "title": "Дурак по пятницам"}


def user(user_id: int, name: str, language: str = "ru") -> dict[str, Any]:
    return {"id": user_id, "is_bot": False, "first_name": name, "language_code": language}


def private(person: dict[str, Any]) -> dict[str, Any]:
    return {"id": person["id"], "type": "private", "first_name": person["first_name"]}


MEMBER_TYPES: dict[str, type[BaseModel]] = {
    "creator": ChatMemberOwner,
    "administrator": ChatMemberAdministrator,
    "member": ChatMemberMember,
    "restricted": ChatMemberRestricted,
    "left": ChatMemberLeft,
    "kicked": ChatMemberBanned,
}


def member(person: dict[str, Any], status: str, **fields: Any) -> dict[str, Any]:
    """A ChatMember as getChatMember and chat_member updates carry it: the fields its
    status requires are false (``until_date``: 0, forever) unless given."""
    required = MEMBER_TYPES[status].model_fields.items()
    defaults = {n: 0 if n == "until_date" else False for n, f in required if f.is_required()}
    return {**defaults, **fields, "status": status, "user": person}


class MockedSession(BaseSession):
    """Answers every request the bot makes in these tests, and remembers each one.

    ``statuses``: what getChatMember says, by user id ("member" unless set); ``unknown``:
    requests of a method these tests do not expect (answered with an error)."""

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[TelegramMethod[Any]] = []
        self.statuses: dict[int, str] = {}
        self.unknown: list[TelegramMethod[Any]] = []
        self.posted: list[tuple[SendMessage, int]] = []  # every message sent, with its id
        self._message_ids = itertools.count(500)

    async def make_request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None = None
    ) -> TelegramType:
        self.requests.append(method)
        status, body = self.reply(method)
        response = self.check_response(bot, method, status, json.dumps(body))
        return cast(TelegramType, response.result)

    def reply(self, method: TelegramMethod[Any]) -> tuple[int, dict[str, Any]]:
        match method:
            case GetMe():
                return ok(BOT_USER)
            case SendMessage():
                message_id = next(self._message_ids)
                self.posted.append((method, message_id))
                return ok(self._message(method.chat_id, message_id, method.text))
            case EditMessageText() | EditMessageReplyMarkup():
                assert method.chat_id is not None and method.message_id is not None
                text = getattr(method, "text", "…")
                return ok(self._message(method.chat_id, method.message_id, text))
            case AnswerCallbackQuery() | SendChatAction() | DeleteMessage():
                return ok(True)
            case GetChatMember():
                person = user(method.user_id, f"user {method.user_id}")
                return ok(member(person, self.statuses.get(method.user_id, "member")))
        self.unknown.append(method)
        return 400, {"ok": False, "error_code": 400, "description": "Bad Request: not mocked"}

    @staticmethod
    def _message(chat_id: int | str, message_id: int, text: str) -> dict[str, Any]:
        chat_id = int(chat_id)
        chat = {"id": chat_id, "type": "private", "first_name": "x"} if chat_id > 0 else GROUP
        return {"message_id": message_id, "date": 0, "chat": chat, "from": BOT_USER, "text": text}

    async def close(self) -> None:
        pass

    async def stream_content(
        self,
        url: str,
        headers: dict[str, Any] | None = None,
        timeout: int = 30,
        chunk_size: int = 65536,
        raise_for_status: bool = True,
    ) -> AsyncGenerator[bytes, None]:  # pragma: no cover
        yield b""

    # -- what the tests ask ----------------------------------------------------------------

    def sent(self, kind: type[TelegramMethod[Any]], **fields: Any) -> list[Any]:
        """The requests of method ``kind`` whose fields have the given values."""
        return [
            r
            for r in self.requests
            if isinstance(r, kind) and all(getattr(r, k) == v for k, v in fields.items())
        ]

    def posts(self, chat_id: int) -> list[tuple[SendMessage, int]]:
        """The messages sent to ``chat_id``, with their ids, oldest first."""
        return [(m, i) for m, i in self.posted if m.chat_id == chat_id]

    def answers(self) -> list[str | None]:
        """The texts of every press answer, in order (None: answered without a text)."""
        return [r.text for r in self.requests if isinstance(r, AnswerCallbackQuery)]


def ok(result: Any) -> tuple[int, dict[str, Any]]:
    return 200, {"ok": True, "result": result}


def new_bot(session: MockedSession) -> Bot:
    return Bot(TOKEN, session=session, default=DefaultBotProperties(parse_mode=ParseMode.HTML))


class Telegram:
    """The users' side: what they send reaches the bot as Telegram would deliver it."""

    def __init__(self, app: App, session: MockedSession) -> None:
        self.app = app
        self.session = session
        self._update_ids = itertools.count(1)
        self._message_ids = itertools.count(1)

    async def feed(self, data: dict[str, Any]) -> Any:
        update_id = next(self._update_ids)
        update = Update.model_validate(
            {"update_id": update_id, **data}, context={"bot": self.app.bot}
        )
        return await self.app.dispatcher.feed_update(self.app.bot, update)

    async def send(
        self,
        sender: dict[str, Any],
        text: str,
        chat: dict[str, Any] | None = None,
        *,
        sender_chat: dict[str, Any] | None = None,
    ) -> Any:
        """A text message (a command if it starts with ``/``) in ``chat`` (the group)."""
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": 0,
            "chat": chat or GROUP,
            "from": sender,
            "text": text,
        }
        if text.startswith("/"):
            length = len(text.split(maxsplit=1)[0])
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        if sender_chat is not None:
            message["sender_chat"] = sender_chat
        return await self.feed({"message": message})

    async def press(
        self,
        presser: dict[str, Any],
        data: str,
        message_id: int,
        chat: dict[str, Any] | None = None,
    ) -> Any:
        """A press on a button with callback data ``data`` under the bot's message."""
        message = {
            "message_id": message_id,
            "date": 0,
            "chat": chat or GROUP,
            "from": BOT_USER,
            "text": "…",
        }
        query = {
            "id": f"q{next(self._update_ids)}",
            "from": presser,
            "chat_instance": "42",
            "data": data,
            "message": message,
        }
        return await self.feed({"callback_query": query})

    async def member_update(
        self, actor: dict[str, Any], old: dict[str, Any], new: dict[str, Any]
    ) -> Any:
        update = {"chat": GROUP, "from": actor, "date": 0, "old_chat_member": old}
        return await self.feed({"chat_member": {**update, "new_chat_member": new}})

    async def delivered(self) -> None:
        """Wait until the outbox has sent everything."""
        await self.app.outbox.idle(5.0)
