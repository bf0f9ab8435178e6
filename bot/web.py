"""The bot's HTTP side (aiohttp): the webhook Telegram calls when ``BOT_MODE=webhook``, and
for the operator ``/metrics`` (Prometheus) and ``/healthz`` on ``METRICS_LISTEN``.

The webhook answers Telegram once the update was handled (a press takes milliseconds), or
after ``ANSWER_WITHIN`` seconds if it takes longer, the rest in the background. So a worker
that is killed while it handles an update never answered it, and Telegram sends it again
(through the proxy, to a worker that lives); a press it saved is then found done (the
position moved on) and is not applied twice. At most ``MAX_CONCURRENT_UPDATES`` are handled
at once; while that many are, the next request waits for a free place, so Telegram (which
sends to a webhook only a few requests at a time) slows down instead of the bot queueing
without bound. A request without the secret token Telegram was given is refused (403); one
whose body is no update (not JSON, not UTF-8, not an object, not an update's fields, no
event the bot knows, nested deeper than any update) gets 400 and a warning of one line, a
body over aiohttp's 1 MiB gets 413. An update whose handling fails is logged and answered
all the same: sent again, it would fail again.

Why the receiver is ours and not aiogram's ``SimpleRequestHandler`` (with
``setup_application``): that handler keeps none of the promises above, and its public hooks
(``verify_secret``, ``resolve_bot``, ``close``) do not reach the parts that differ, so a
subclass would override ``handle`` whole and keep nothing of it but the route.

- ``handle_in_background=True`` (its default) answers before handling: an update that a
  killed worker was handling is lost instead of sent again.
- ``handle_in_background=False`` goes through ``Dispatcher.feed_webhook_update``: it sends a
  Bot API method a handler returns as the webhook's answer (past the bot's session and its
  metrics; whether Telegram carried it out is never known); it answers a slow update after
  55 seconds, not ``ANSWER_WITHIN`` (only a private parameter changes that), then lets it
  run on in a task that nothing keeps, which shutdown cannot wait for; and a handler that
  fails makes a 500, so Telegram sends the update again and again.
- It starts handling every request at once: nothing bounds how many run.
- A body that is no update fails inside it (a JSON, UTF-8 or validation error, a
  ``RecursionError`` for a deep one), and so does a secret header with a character outside
  ASCII (``secrets.compare_digest`` refuses such a string): each a 500 and an error with a
  traceback.
- Its ``register`` closes the bot's session, and ``setup_application`` runs the dispatcher's
  shutdown, when aiohttp shuts the application down: before the requests under way have
  finished.

What is aiogram's: ``Dispatcher.feed_update`` handles each update, as in polling, and a
method a handler returns is sent with ``Dispatcher.silent_call_request``, as polling sends it.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from aiogram import Bot, Dispatcher
from aiogram.methods import TelegramMethod
from aiogram.types import Update
from aiogram.types.update import UpdateTypeLookupError
from aiohttp import web
from aiohttp.http import HttpProcessingError
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import ValidationError
from redis.exceptions import RedisError

from bot.metrics import (
    BOT_API,
    GAMES_RUNNING,
    NOTES_OLDEST,
    NOTES_PENDING,
    OUTBOX_CHATS,
    OUTBOX_OLDEST,
    REGISTRY,
    WORKERS,
)
from bot.storage import Storage

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
# The Bot API counts as reached if it answered within this many seconds (long polling
# asks every few seconds; a webhook bot sends something whenever anybody plays).
API_HEALTHY_SECONDS = 300.0
# Telegram waits for a webhook's answer, but not forever: an update handled for longer
# (Redis failing over, say) is answered then and goes on in the background.
ANSWER_WITHIN = 5.0
# Telegram's deepest updates are about ten levels (the update, a message, the message it
# replies to, its keyboard, a row, a button...). Anything much deeper is no update, and
# pydantic and aiogram, which walk it recursively, could overflow the stack on it.
MAX_DEPTH: Final = 32
_JSON_KINDS: Final = {
    list: "array",
    str: "string",
    int: "number",
    float: "number",
    bool: "true or false",
    type(None): "null",
}


@dataclass(frozen=True, slots=True)
class Operated:
    """What ``/metrics`` and ``/healthz`` read, handed in by whoever runs the bot (this module
    does not import the app that builds it)."""

    storage: Storage
    workers: Callable[[], int]  # how many worker processes share the outbox now
    clock: Callable[[], float]  # wall-clock seconds, as the work lists' scores are


class WebhookReceiver:
    """Takes updates from Telegram's requests and feeds them to the dispatcher."""

    def __init__(self, bot: Bot, dispatcher: Dispatcher, secret: str, concurrency: int) -> None:
        self.bot = bot
        self.dispatcher = dispatcher
        self.secret = secret
        self.places = asyncio.Semaphore(concurrency)
        self.tasks: set[asyncio.Task[None]] = set()

    async def handle(self, request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "")
        # aiohttp keeps the bytes of a header that are not UTF-8 as surrogates: encoded back
        # as they came, any header compares (and fails) instead of raising.
        if not hmac.compare_digest(given.encode(errors="surrogateescape"), self.secret.encode()):
            log.warning("a webhook request without the secret token from %s", request.remote)
            return web.Response(status=403, text="forbidden")
        try:
            update = parse_update(await request.read(), self.bot)
        except ValueError as error:
            log.warning("a webhook request that is no update: %s", error)
            return web.Response(status=400, text="not an update")
        await self.places.acquire()
        task = asyncio.get_running_loop().create_task(self._feed(update))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        # Not wait_for: a slow update goes on in the background after the answer.
        await asyncio.wait({task}, timeout=ANSWER_WITHIN)
        return web.Response(status=200)

    async def _feed(self, update: Update) -> None:
        try:
            result = await self.dispatcher.feed_update(self.bot, update)
            if isinstance(result, TelegramMethod):  # through the bot's session, never the answer
                await self.dispatcher.silent_call_request(self.bot, result)
        except Exception:
            log.exception("update %s failed", update.update_id)
        finally:
            self.places.release()

    async def drain(self, timeout: float = 10.0) -> None:
        """Let the updates being handled finish (at most ``timeout`` seconds)."""
        if self.tasks:
            await asyncio.wait(set(self.tasks), timeout=timeout)


def parse_update(body: bytes, bot: Bot) -> Update:
    """The update a webhook request's ``body`` carries; ValueError saying in one line why it
    carries none."""
    try:
        data = json.loads(body.decode("utf-8"))  # UnicodeDecodeError is a ValueError
    except RecursionError:  # the JSON decoder's own guard, at about a thousand levels
        raise ValueError("JSON nested too deep to read") from None
    if not isinstance(data, dict):
        raise ValueError(f"JSON {_JSON_KINDS.get(type(data), 'value')} where an object belongs")
    if _deeper_than(data, MAX_DEPTH):
        raise ValueError(f"JSON nested deeper than {MAX_DEPTH} levels")
    try:
        update = Update.model_validate(data, context={"bot": bot})
    except ValidationError as error:  # several lines of text: the first error's gist
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the update"
        raise ValueError(f"{where}: {first['msg']} ({error.error_count()} error(s))") from None
    try:
        _ = update.event_type
    except UpdateTypeLookupError:  # aiogram would warn and drop it
        raise ValueError("no event of a kind the bot knows") from None
    return update


def _deeper_than(data: dict[str, Any], limit: int) -> bool:
    """Whether ``data`` nests objects and lists more than ``limit`` levels deep (walked with a
    stack: the point is not to recurse on it)."""
    stack: list[tuple[dict[str, Any] | list[Any], int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def webhook_app(receiver: WebhookReceiver, path: str) -> web.Application:
    application = web.Application()
    application.router.add_post(path, receiver.handle)
    return application


def operator_app(operated: Operated) -> web.Application:
    """``/metrics`` and ``/healthz``."""

    async def metrics(_request: web.Request) -> web.Response:
        await refresh(operated)
        return web.Response(
            body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )

    async def healthz(_request: web.Request) -> web.Response:
        checks = await health(operated)
        status = 200 if all(checks.values()) else 503
        return web.Response(status=status, text=json.dumps(checks), content_type="application/json")

    application = web.Application()
    application.router.add_get("/metrics", metrics)
    application.router.add_get("/healthz", healthz)
    return application


async def refresh(operated: Operated) -> None:
    """The figures that live in Redis or in the outbox, read now."""
    storage = operated.storage
    try:
        now = operated.clock()
        for (count, age), backlog in (
            ((OUTBOX_CHATS, OUTBOX_OLDEST), storage.delivery.backlog),
            ((NOTES_PENDING, NOTES_OLDEST), storage.notes.backlog),
        ):
            chats, oldest = await backlog()
            count.set(chats)
            age.set(0.0 if oldest is None else max(0.0, now - oldest))
        GAMES_RUNNING.set(await storage.games.playing())
    except RedisError as error:
        log.warning("metrics: cannot read Redis: %s", error)
    WORKERS.set(operated.workers())


async def health(operated: Operated) -> dict[str, bool]:
    """Process up (it answers), Redis reachable, the Bot API reached recently."""
    try:
        redis = bool(await asyncio.wait_for(operated.storage.redis.ping(), 2.0))
    except (RedisError, OSError, TimeoutError):
        redis = False
    return {"redis": redis, "bot_api": BOT_API.seconds_since() < API_HEALTHY_SECONDS}


class ClientErrorInOneLine(logging.Filter):
    """aiohttp logs a request that is not HTTP (a malformed request line, a header over its
    limit) as an error with a traceback, and the error's text quotes the request's first
    bytes: for a Mini App page, its ``initData``. Anybody can send one, so each becomes one
    warning line that names the kind of error and nothing it quoted. Any other error
    aiohttp logs (a fault of ours) keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError):
            if record.levelno > logging.WARNING:
                record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.msg = f"{record.msg} (%s, status %s)"
            record.args = (*_args(record), type(error).__name__, error.code)
            record.exc_info = None
            record.exc_text = None
        return True


def _args(record: logging.LogRecord) -> tuple[object, ...]:
    args = record.args
    if args is None:
        return ()
    return args if isinstance(args, tuple) else (args,)


HTTP_LOG: Final = logging.getLogger("bot.http")
HTTP_LOG.addFilter(ClientErrorInOneLine())

# Seconds a connection may stay open without a request under way: before its first request
# (one that sends nothing, or a request line that never ends), and between two requests of
# a kept-alive one. aiohttp's own default is about an hour, so a thousand silent connections
# could hold a worker's file descriptors. A page's socket, once open, is not concerned
# (``bot.webapp.server`` has its own deadlines).
CONNECTION_IDLE_SECONDS: Final = 15.0

RUNNER_OPTIONS: Final[dict[str, Any]] = {
    "access_log": None,
    "keepalive_timeout": CONNECTION_IDLE_SECONDS,
    "logger": HTTP_LOG,
}
"""How every server of the bot runs (aiohttp's ``AppRunner`` options); tests serve alike."""


async def serve(
    application: web.Application,
    listen: str,
    *,
    connection_idle: float = CONNECTION_IDLE_SECONDS,
) -> web.AppRunner:
    """``application`` listening on ``listen`` (host:port); stop it with ``cleanup()``."""
    host, _, port = listen.rpartition(":")
    options = {**RUNNER_OPTIONS, "keepalive_timeout": connection_idle}
    runner = web.AppRunner(application, **options)
    await runner.setup()
    await web.TCPSite(runner, host, int(port)).start()
    return runner
