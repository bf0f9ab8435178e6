"""The bot's HTTP side in-process (aiohttp's test server, the app ``bot.app.build`` makes,
a mocked Bot API session, Redis real): the webhook's secret, its hand-over of updates, and
the operator's ``/metrics`` and ``/healthz``, and the container's health check that asks it;
the settings that configure them."""

from __future__ import annotations

import asyncio
import io
import socket
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from pydantic import ValidationError
from telegram_mock import GROUP, TOKEN, user

from bot import healthcheck
from bot.app import App
from bot.config import Settings
from bot.metrics import BOT_API
from bot.web import SECRET_HEADER, WebhookReceiver, operator_app, serve, webhook_app

SECRET = "s3cret_token-1"
ANNA = user(1, "Аня")


def newgame(update_id: int) -> dict[str, Any]:
    text = "/newgame"
    entity = {"type": "bot_command", "offset": 0, "length": len(text)}
    message = {"message_id": 5, "date": 0, "chat": GROUP, "from": ANNA, "text": text}
    return {"update_id": update_id, "message": {**message, "entities": [entity]}}


async def test_the_webhook_refuses_requests_without_its_secret(app: App) -> None:
    receiver = WebhookReceiver(app.bot, app.dispatcher, SECRET, 10)
    async with TestClient(TestServer(webhook_app(receiver, "/hook"))) as client:
        for headers in ({}, {SECRET_HEADER: "guess"}):
            response = await client.post("/hook", json=newgame(1), headers=headers)
            assert response.status == 403
        bad = await client.post("/hook", data=b"{not json", headers={SECRET_HEADER: SECRET})
        assert bad.status == 400
    assert await app.service.games.get(GROUP["id"]) is None  # nothing was handled


def nested(depth: int) -> bytes:
    """An update carrying an object ``depth`` levels deep."""
    return b'{"update_id": 1, "x": ' + b'{"a": ' * depth + b"1" + b"}" * (depth + 1)


MALFORMED = {
    "empty": b"",
    "not JSON": b"{not json",
    "not UTF-8": b'{"update_id": 1, "message": "\xff"}',
    "an array": b"[1, 2]",
    "a number": b"42",
    "null": b"null",
    "a string": b'"/newgame"',
    "no update id": b'{"message": {}}',
    "a wrong field": b'{"update_id": 1, "message": 5}',
    "an int past Python's digit limit": b'{"update_id": ' + b"9" * 5000 + b"}",
    "no event": b'{"update_id": 1}',
    "arrays 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
    "objects 100,000 deep": nested(100_000),
    "objects 900 deep (JSON reads it, aiogram could not)": nested(900),
}


@pytest.mark.parametrize("body", MALFORMED.values(), ids=MALFORMED.keys())
async def test_a_malformed_webhook_body_is_400_and_one_warning_line(
    app: App, body: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    receiver = WebhookReceiver(app.bot, app.dispatcher, SECRET, 10)
    async with TestClient(TestServer(webhook_app(receiver, "/hook"))) as client:
        bad = await client.post("/hook", data=body, headers={SECRET_HEADER: SECRET})
        assert bad.status == 400
        warnings = [r for r in caplog.records if r.name == "bot.web"]
        assert [r.levelname for r in warnings] == ["WARNING"]
        assert "\n" not in warnings[0].getMessage()
        assert not [r for r in caplog.records if r.exc_info or r.levelname == "ERROR"]
        assert await app.service.games.get(GROUP["id"]) is None  # nothing was handled
        good = await client.post("/hook", json=newgame(2), headers={SECRET_HEADER: SECRET})
        assert good.status == 200  # the webhook still works
        assert await app.service.games.get(GROUP["id"]) is not None


async def test_a_webhook_body_over_a_mebibyte_is_413(app: App) -> None:
    receiver = WebhookReceiver(app.bot, app.dispatcher, SECRET, 10)
    body = b'{"update_id": 1, "x": "' + b"a" * (1 << 20) + b'"}'
    async with TestClient(TestServer(webhook_app(receiver, "/hook"))) as client:
        response = await client.post(
            "/hook", data=io.BytesIO(body), headers={SECRET_HEADER: SECRET}
        )
        assert response.status == 413
    assert await app.service.games.get(GROUP["id"]) is None


async def test_the_webhook_answers_once_the_update_was_handled(app: App) -> None:
    """So a worker killed mid-update leaves it unanswered, and Telegram sends it again."""
    receiver = WebhookReceiver(app.bot, app.dispatcher, SECRET, 10)
    async with TestClient(TestServer(webhook_app(receiver, "/hook"))) as client:
        response = await client.post("/hook", json=newgame(1), headers={SECRET_HEADER: SECRET})
        assert response.status == 200
        record = await app.service.games.get(GROUP["id"])
        assert record is not None  # the lobby /newgame opened, before the answer
        assert not receiver.tasks


async def test_metrics_and_health(app: App) -> None:
    async with TestClient(TestServer(operator_app(app.operated()))) as client:
        BOT_API.last_ok = 0.0
        unhealthy = await client.get("/healthz")
        assert unhealthy.status == 503
        assert await unhealthy.json() == {"redis": True, "bot_api": False}
        BOT_API.reached()
        healthy = await client.get("/healthz")
        assert healthy.status == 200
        text = await (await client.get("/metrics")).text()
    for name in (
        "durak_updates_total",
        "durak_press_answer_seconds_bucket",
        "durak_outbox_chats",
        "durak_games_running",
        "durak_turn_timeouts_total",
    ):
        assert name in text


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"bot_mode": "webhook"}, "WEBHOOK_URL"),
        ({"bot_mode": "webhook", "webhook_url": "http://x.org/h"}, "https"),
        ({"bot_mode": "webhook", "webhook_url": "https://x.org/h"}, "WEBHOOK_SECRET"),
        ({"webhook_secret": "has spaces"}, "WEBHOOK_SECRET"),
        ({"metrics_listen": "9100"}, "host:port"),
    ],
)
def test_webhook_and_metrics_settings_are_checked(env: dict[str, str], says: str) -> None:
    with pytest.raises(ValidationError) as raised:
        Settings(bot_token=TOKEN, _env_file=None, **env)  # type: ignore[arg-type]
    assert says in str(raised.value)


@pytest.mark.parametrize(
    ("listen", "url"),
    [
        ("0.0.0.0:9090", "http://127.0.0.1:9090/healthz"),
        ("127.0.0.1:9100", "http://127.0.0.1:9100/healthz"),
        ("bot-1:9090", "http://bot-1:9090/healthz"),
        ("[::]:9090", "http://[::1]:9090/healthz"),
        ("::1:9090", "http://[::1]:9090/healthz"),
    ],
)
def test_the_health_check_asks_where_the_bot_listens(listen: str, url: str) -> None:
    assert healthcheck.healthz_url(listen) == url


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_the_health_check_follows_healthz(app: App) -> None:
    port = free_port()
    listen = f"0.0.0.0:{port}"
    runner = await serve(operator_app(app.operated()), listen)
    try:
        BOT_API.last_ok = 0.0
        healthy, said = await asyncio.to_thread(healthcheck.check, listen)
        assert not healthy
        assert said == '503 {"redis": true, "bot_api": false}'
        BOT_API.reached()
        healthy, said = await asyncio.to_thread(healthcheck.check, listen)
        assert healthy
        assert said.startswith("200 ")
    finally:
        await runner.cleanup()
    healthy, said = await asyncio.to_thread(healthcheck.check, listen, 2.0)
    assert not healthy
    assert said.startswith(f"no answer from http://127.0.0.1:{port}/healthz")


@pytest.mark.parametrize("listen", [None, "", "9090"])
def test_the_health_check_fails_without_metrics_listen(listen: str | None) -> None:
    healthy, said = healthcheck.check(listen)
    assert not healthy
    assert "METRICS_LISTEN" in said
