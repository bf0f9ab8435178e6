"""Build the bot from ``Settings``: the Bot, the Dispatcher with its routers, and the
dependencies handed to handlers through the dispatcher (storage, service, outbox,
settings). ``bot.__main__`` runs it; tests build it the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import signal
import sys
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.telegram import PRODUCTION, TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import TelegramNetworkError, TelegramRetryAfter, TelegramServerError
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
)
from redis.asyncio import Redis
from redis.exceptions import RedisError

from bot.config import Settings
from bot.delivery import Outbox
from bot.handlers import (
    AdminMiddleware,
    AnswerMiddleware,
    ContextMiddleware,
    OnceMiddleware,
    PersonMiddleware,
    routers,
)
from bot.handlers.telegram import ask_member
from bot.i18n import SUPPORTED, translator
from bot.model import ChatSettings, Phase
from bot.schema.reviews import Review
from bot.services import Changed, GameService, TurnSweeper, UpdateOnce
from bot.services.computers import ComputerTurns
from bot.services.games import show_migration, show_removal
from bot.services.people import AdminService, StatsService, UserService, remembered
from bot.services.replays import Replays
from bot.services.reviews import Reviews, review_pool
from bot.services.settings import SettingsService
from bot.storage import NewerRecord, Storage
from bot.storage.connect import redis_client
from bot.telegram_session import TelegramSession
from bot.ui.review import review_text
from bot.ui.webapp import TableLinks
from bot.web import Operated, WebhookReceiver, operator_app, serve, webhook_app
from bot.webapp.live import Live
from bot.webapp.server import Served, webapp_app

log = logging.getLogger(__name__)

GROUP_COMMANDS: Final = (
    "newgame",
    "join",
    "leave",
    "addbot",
    "removebot",
    "startgame",
    "stop",
    "rules",
    "settings",
    "set",
    "stats",
    "top",
    "replay",
    "help",
)
PRIVATE_COMMANDS: Final = (
    "play",
    "stop",
    "settings",
    "start",
    "rules",
    "stats",
    "replay",
    "mydata",
    "forget",
    "help",
)
# Workers that start within this many seconds of the one that did the start-up work (set
# the commands, resynchronise every chat) leave it to that one.
STARTUP_LEASE_SECONDS: Final = 30.0


@dataclass(slots=True)
class App:
    settings: Settings
    bot: Bot
    dispatcher: Dispatcher
    redis: Redis
    storage: Storage
    service: GameService
    outbox: Outbox
    sweeper: TurnSweeper
    computers: ComputerTurns
    reviews: Reviews
    context: ContextMiddleware
    live: Live | None = None  # the Mini App's open pages, with WEBAPP_URL

    async def close(self) -> None:
        """Let updates being handled finish, stop the clock, send what is pending (up to a
        few seconds each), close connections."""
        await self.context.drain()
        await self.sweeper.stop()
        await self.computers.stop()
        await self.reviews.stop()
        if self.live is not None:
            await self.live.stop()
        await self.outbox.close()
        await self.redis.aclose()
        await self.bot.session.close()

    def operated(self) -> Operated:
        """What the operator's ``/metrics`` and ``/healthz`` read."""
        return Operated(self.storage, lambda: self.outbox.budget.workers, self.service.clock)

    def served(self) -> Served:
        """What the Mini App's server serves (``bot.webapp.server``)."""
        assert self.live is not None

        async def may_watch(chat_id: int, user_id: int) -> bool:
            """A group's member, as Telegram said within a minute (``storage.members``):
            a watcher's page that reconnects asks Telegram once a minute at most."""
            ask = ask_member(self.bot, chat_id, user_id)
            return await remembered(self.storage.members, chat_id, user_id, ask)

        return Served(
            self.service,
            self.live,
            self.outbox.publish,
            self.settings.bot_token.get_secret_value(),
            float(self.settings.webapp_init_max_age),
            may_watch,
            float(self.settings.webapp_idle_seconds),
            page_closed=self.outbox.page_closed,
        )


def build_bot(settings: Settings) -> Bot:
    api = PRODUCTION
    if settings.telegram_api_url:
        api = TelegramAPIServer.from_base(settings.telegram_api_url)
    session = TelegramSession(api=api)
    return Bot(
        settings.bot_token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(parse_mode=ParseMode.HTML),
    )


def build(settings: Settings, *, redis: Redis | None = None, bot: Bot | None = None) -> App:
    """Everything wired together; nothing is started and no network is touched."""
    bot = bot or build_bot(settings)
    redis = redis or redis_client(settings.redis_url, max_connections=settings.redis_connections)
    defaults = ChatSettings(
        turn_timeout=settings.default_turn_timeout, language=settings.default_language
    )
    storage = Storage.create(
        redis,
        settings.redis_namespace,
        default_settings=defaults,
        finished_ttl=settings.finished_game_ttl,
        idle_ttl=settings.idle_game_ttl,
        records_ttl=settings.records_days * 86_400,
    )
    service = GameService(storage)

    async def chat_lost(chat_id: int) -> None:
        await show_removal(outbox, await service.bot_removed(chat_id))

    async def chat_migrated(old_chat_id: int, new_chat_id: int) -> None:
        await show_migration(outbox, await service.migrate_chat(old_chat_id, new_chat_id))

    outbox = Outbox(
        bot,
        storage,
        group_per_minute=settings.group_messages_per_minute,
        global_per_second=settings.messages_per_second,
        on_chat_lost=chat_lost,
        on_migrated=chat_migrated,
        links=TableLinks(settings.webapp_url) if settings.webapp_url else None,
    )

    def publish(outcome: Changed) -> None:
        outbox.publish(outcome.record)

    sweeper = TurnSweeper(service, storage.deadlines, publish)
    computers = ComputerTurns(
        service,
        storage.computer_turns,
        publish,
        pause=settings.ai_pause,
        budget_ms=settings.ai_budget_ms,
        per_second=settings.ai_decisions_per_second,
        processes=settings.ai_processes,
    )
    reviews = Reviews(
        storage,
        functools.partial(send_review, outbox),
        functools.partial(say_review_waits, outbox),
        computers_busy=lambda: computers.thinking.waiting() > 0,
        pool=review_pool(settings.review_processes),
    )
    dispatcher = Dispatcher(
        disable_fsm=True,
        service=service,
        computer_seats=computers.seats,
        replays=Replays(storage.finished),
        reviews=reviews,
        settings_service=SettingsService(storage),
        stats_service=StatsService(storage.stats, storage.ratings),
        user_service=UserService(storage.users),
        outbox=outbox,
        settings=settings,
    )
    # Inner middlewares (``bot.handlers.middlewares``): they run only for an update some
    # handler wants, so any other costs no Redis read. In this order: a press's one answer,
    # sent when all within are done, every update once, then the
    # context (``tr``, ``player``; it also tells a sender what a failure means), then
    # ``is_admin``.
    dispatcher.callback_query.middleware(AnswerMiddleware())
    once = OnceMiddleware(UpdateOnce(storage.updates))
    context = ContextMiddleware(service.chat_settings)
    admins = AdminMiddleware(AdminService(storage.admins))
    for observer in (
        dispatcher.message,
        dispatcher.callback_query,
        dispatcher.chat_member,
        dispatcher.my_chat_member,
    ):
        observer.middleware(once)
    dispatcher.message.middleware(context)
    dispatcher.message.middleware(PersonMiddleware())
    dispatcher.message.middleware(admins)
    dispatcher.callback_query.middleware(context)
    dispatcher.callback_query.middleware(admins)
    dispatcher.chat_member.middleware(context)
    dispatcher.my_chat_member.middleware(context)
    dispatcher.include_routers(*routers())
    live = None
    if settings.webapp_url:
        origin, keys = storage.games.origin, storage.keys
        live = Live(redis, keys.live(), storage.games.get, origin, keys.live_listener(origin))
        storage.games.on_saved = live.saved
    return App(
        settings,
        bot,
        dispatcher,
        redis,
        storage,
        service,
        outbox,
        sweeper,
        computers,
        reviews,
        context,
        live,
    )


async def send_review(outbox: Outbox, user_id: int, language: str, review: Review) -> None:
    """A finished review, in its person's private chat and language."""
    await outbox.say(user_id, review_text(review, translator(language)))


async def say_review_waits(outbox: Outbox, user_id: int, language: str, game_id: str) -> None:
    """A review waits for the computers: its person hears so once."""
    await outbox.say(user_id, translator(language).t("review-waiting", game=game_id))


async def set_commands(bot: Bot, default_language: str) -> None:
    """The command menu in Russian and Ukrainian (and the default language for the rest)."""
    for language_code in ("", *SUPPORTED):
        tr = translator(language_code or default_language)
        for scope, names in (
            (BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
            (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
        ):
            commands = [BotCommand(command=n, description=tr.t(f"command-{n}")) for n in names]
            await bot.set_my_commands(commands, scope=scope, language_code=language_code or None)
    await bot.delete_my_commands(scope=BotCommandScopeDefault())


async def resume(app: App) -> int:
    """After a start or restart: bring the messages of every stored lobby and game up to
    date (the outbox sends only what differs from what they show, so this costs nothing
    when nothing was pending). Returns how many unfinished games it found."""
    count, newer = 0, 0
    for chat_id in await app.storage.games.active_chats():
        try:
            record = await app.storage.games.get(chat_id)
        except NewerRecord:
            newer += 1  # a newer worker shows it
            continue
        if record is None:
            continue
        app.outbox.publish(record)
        count += record.game.phase is not Phase.FINISHED
    if newer:
        log.warning("%s games were saved by a newer version: left to a newer worker", newer)
    return count


async def start_up(app: App) -> int | None:
    """The work of a start, before serving: the command menus and a resynchronisation of
    every chat (``resume``: how many unfinished games it found), once for the workers that
    start together (a rolling restart, WORKERS at once), so None when another does it. An
    error here (RedisError, the Bot API's) is the caller's to report; then ``close`` the app."""
    startup = app.storage.keys.startup()
    if not await app.storage.leases.take(startup, app.outbox.owner, STARTUP_LEASE_SECONDS):
        return None
    try:
        try:
            await set_commands(app.bot, app.settings.default_language)
        except (TelegramServerError, TelegramRetryAfter, TelegramNetworkError) as error:
            # The menus are a convenience: the bot plays without them, and the next start
            # sets them again.
            log.warning("the command menus were not set: %s", error)
        return await resume(app)
    except BaseException:
        with contextlib.suppress(RedisError):  # a worker that starts next does it again
            await app.storage.leases.release(startup, app.outbox.owner)
        raise


async def run(app: App, games: int | None) -> None:
    """After ``start_up`` (which found ``games``): long polling, or the webhook
    (``BOT_MODE``), until SIGTERM or SIGINT; then a graceful stop. With ``METRICS_LISTEN``,
    ``/metrics`` and ``/healthz`` meanwhile."""
    bot, settings = app.bot, app.settings
    operator = webapp = None
    try:
        me = await bot.me()
        links = app.outbox.links
        if links is not None and settings.webapp_short_name and me.username:
            # Groups open the Mini App through its direct link (no web_app buttons there).
            direct = f"https://t.me/{me.username}/{settings.webapp_short_name}"
            app.outbox.links = TableLinks(links.url, direct)
        app.outbox.start()
        app.sweeper.start()
        app.computers.start()
        app.reviews.start()
        if settings.metrics_listen:
            operator = await serve(operator_app(app.operated()), settings.metrics_listen)
        if app.live is not None and settings.webapp_listen:
            app.live.start()
            webapp = await serve(webapp_app(app.served()), settings.webapp_listen)
        log.info(settings.bot_mode, extra={"bot": me.username, "games_resumed": games})
        if settings.bot_mode == "webhook":
            await _run_webhook(app)
        else:
            await _run_polling(app)
    finally:
        log.info("stopping")
        if operator is not None:
            await operator.cleanup()
        if webapp is not None:
            await webapp.cleanup()
        with contextlib.suppress(RedisError):  # a worker that starts next does it again
            await app.storage.leases.release(app.storage.keys.startup(), app.outbox.owner)
        await app.close()


async def _run_polling(app: App) -> None:
    # Updates cannot be polled while a webhook is set (say, by an earlier webhook run).
    await app.bot.delete_webhook(drop_pending_updates=False)
    await app.dispatcher.start_polling(
        app.bot,
        allowed_updates=app.dispatcher.resolve_used_update_types(),
        handle_signals=True,
        close_bot_session=False,
        tasks_concurrency_limit=app.settings.max_concurrent_updates,
    )


async def _run_webhook(app: App) -> None:
    """Serve the webhook until SIGTERM or SIGINT. Each process (worker) of the bot sets
    the same webhook: Telegram keeps one per bot, so setting it again changes nothing."""
    settings = app.settings
    assert settings.webhook_url and settings.webhook_secret and settings.webhook_listen
    secret = settings.webhook_secret.get_secret_value()
    receiver = WebhookReceiver(app.bot, app.dispatcher, secret, settings.max_concurrent_updates)
    path = urlsplit(settings.webhook_url).path or "/"
    runner = await serve(webhook_app(receiver, path), settings.webhook_listen)
    try:
        await app.bot.set_webhook(
            settings.webhook_url,
            secret_token=secret,
            allowed_updates=app.dispatcher.resolve_used_update_types(),
            max_connections=min(100, settings.max_concurrent_updates),
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(number, stop.set)
        await stop.wait()
    finally:
        await runner.cleanup()  # no new requests; Telegram sends them again later
        await receiver.drain()


# -- logging ---------------------------------------------------------------------------------

_STANDARD = frozenset(vars(logging.makeLogRecord({})).keys()) | {"message", "asctime"}


def _extras(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in vars(record).items() if k not in _STANDARD}


class KeyValueFormatter(logging.Formatter):
    """``2024-05-01 12:00:00 INFO bot.handlers.play move chat=-100 moves=12``."""

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        extras = " ".join(f"{k}={v}" for k, v in _extras(record).items())
        return f"{line} {extras}" if extras else line


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        data = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **_extras(record),
        }
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)


def setup_logging(settings: Settings) -> None:
    handler = logging.StreamHandler(sys.stderr)
    if settings.log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(KeyValueFormatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    logging.basicConfig(level=settings.log_level, handlers=[handler], force=True)
    if settings.log_level != "DEBUG":
        logging.getLogger("aiogram.event").setLevel(logging.WARNING)
