"""The webhook receiver's promises that aiogram's own request handler would not keep
(``bot.web``'s docstring says which): the answer waits for the handling, but not past
``ANSWER_WITHIN``, and shutdown waits for the rest; no more than its places are handled at
once; a failing update is answered; a secret header of any bytes is refused, not a 500; a
Bot API method a handler returns is sent through the bot's session, not in the answer.

A bare dispatcher with one handler the test steers (no Redis, no game)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from aiogram import Dispatcher, Router
from aiogram.methods import SendMessage
from aiogram.types import Message
from aiohttp.test_utils import TestClient, TestServer
from telegram_mock import MockedSession, new_bot

from bot import web
from bot.web import SECRET_HEADER, WebhookReceiver, webhook_app

SECRET = "s3cret_token-1"
CHAT = {"id": 7, "type": "private", "first_name": "Аня"}

Handler = Callable[[Message], Awaitable[Any]]


def update(update_id: int) -> dict[str, Any]:
    message = {"message_id": update_id, "date": 0, "chat": CHAT, "text": "hi"}
    return {"update_id": update_id, "message": message}


class Hook:
    """A receiver with ``places`` places serving a dispatcher whose one handler is ``handler``
    (set by the test), and a client posting to it."""

    def __init__(self, places: int) -> None:
        self.session = MockedSession()
        self.handler: Handler = self.nothing
        router = Router()
        router.message()(self.handle)
        dispatcher = Dispatcher()
        dispatcher.include_router(router)
        self.receiver = WebhookReceiver(new_bot(self.session), dispatcher, SECRET, places)
        self.client = TestClient(TestServer(webhook_app(self.receiver, "/hook")))

    @staticmethod
    async def nothing(_message: Message) -> None:
        return None

    async def handle(self, message: Message) -> Any:
        return await self.handler(message)

    async def post(self, update_id: int) -> int:
        response = await self.client.post(
            "/hook", json=update(update_id), headers={SECRET_HEADER: SECRET}
        )
        assert await response.read() == b""  # an answer that asks Telegram for nothing
        return response.status


@pytest.fixture
async def hook() -> AsyncIterator[Hook]:
    opened = Hook(places=2)
    async with opened.client:
        yield opened


async def test_a_slow_update_is_answered_after_answer_within_and_shutdown_waits_for_it(
    hook: Hook, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web, "ANSWER_WITHIN", 0.1)
    release, finished = asyncio.Event(), asyncio.Event()

    async def slow(_message: Message) -> None:
        await release.wait()
        finished.set()

    hook.handler = slow
    assert await hook.post(1) == 200  # answered while the update is still being handled
    assert hook.receiver.tasks
    assert not finished.is_set()
    drained = asyncio.create_task(hook.receiver.drain())
    done, _ = await asyncio.wait({drained}, timeout=0.05)
    assert not done  # waits for the update under way
    release.set()
    await drained
    assert finished.is_set()
    assert not hook.receiver.tasks


async def test_no_more_updates_than_places_are_handled_at_once(
    hook: Hook, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web, "ANSWER_WITHIN", 0.05)
    release = asyncio.Event()
    running, most = 0, 0

    async def held(_message: Message) -> None:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await release.wait()
        running -= 1

    hook.handler = held
    assert await hook.post(1) == 200
    assert await hook.post(2) == 200
    third = asyncio.create_task(hook.post(3))
    done, _ = await asyncio.wait({third}, timeout=0.2)
    assert not done  # the request waits for a place: backpressure
    assert running == 2
    release.set()
    assert await third == 200
    await hook.receiver.drain()
    assert most == 2
    assert running == 0


async def test_a_failing_update_is_logged_and_answered(
    hook: Hook, caplog: pytest.LogCaptureFixture
) -> None:
    async def failing(_message: Message) -> None:
        raise RuntimeError("a fault of the handler")

    hook.handler = failing
    for update_id in (1, 2, 3):  # each gives back its place
        assert await hook.post(update_id) == 200
    failures = [r for r in caplog.records if r.name == "bot.web" and r.levelname == "ERROR"]
    assert [r.getMessage() for r in failures] == [f"update {n} failed" for n in (1, 2, 3)]
    assert all(r.exc_info for r in failures)


@pytest.mark.parametrize(
    "given", [b"", b"guess", SECRET.encode() + b"\xc3\xa9", b"s3cr\xe9t"], ids=repr
)
async def test_a_request_without_the_secret_is_refused_whatever_its_header_holds(
    hook: Hook, given: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    """Sent as raw bytes: a client library would not send a header that is not UTF-8."""
    caplog.set_level(logging.WARNING)
    server = hook.client.server
    reader, writer = await asyncio.open_connection(server.host, server.port)
    body = b'{"update_id": 1, "message": {}}'
    writer.write(
        b"POST /hook HTTP/1.1\r\nHost: bot\r\nConnection: close\r\n"
        + b"Content-Length: %d\r\n%s: %s\r\n\r\n" % (len(body), SECRET_HEADER.encode(), given)
        + body
    )
    status = await reader.readline()
    writer.close()
    await writer.wait_closed()
    assert status.split()[1] == b"403"
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert said == ["a webhook request without the secret token from 127.0.0.1"]


async def test_a_method_a_handler_returns_is_sent_through_the_session(hook: Hook) -> None:
    """As polling does; the webhook's answer stays empty (``Hook.post`` checks)."""

    async def answering(message: Message) -> SendMessage:
        return SendMessage(chat_id=message.chat.id, text="hello")

    hook.handler = answering
    assert await hook.post(1) == 200
    assert [m.text for m in hook.session.sent(SendMessage, chat_id=CHAT["id"])] == ["hello"]
