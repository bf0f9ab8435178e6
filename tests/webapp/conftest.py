"""The Mini App's server in-process over a real Redis: a game service on the test's key
prefix, the live subscription, and an aiohttp test client of ``webapp_app``."""

from __future__ import annotations

import contextlib
import socket
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import pytest
import pytest_asyncio
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer, get_port_socket
from playwright.async_api import Browser, async_playwright
from redis.asyncio import Redis

from bot.model import ChatSettings, GameRecord
from bot.services import GameService, Player
from bot.storage import Storage
from bot.web import RUNNER_OPTIONS
from bot.webapp.live import Live
from bot.webapp.server import MayWatch, PageLimits, Served, webapp_app
from engine import HouseRules
from tests.prefixes import delete_prefix

from .games import deal
from .pages import CHROMIUM

TOKEN = "123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
CHAT = -1001
ANNA, BORIS = Player(1, "Аня"), Player(2, "Борис", "uk")
MEMBER, STRANGER = 3, 4  # in the group, not playing; not in the group
VERA, GLEB = Player(5, "Вера"), Player(6, "Гліб", "uk")  # for a table of four (teams)
IDLE = 60.0  # WEBAPP_IDLE_SECONDS's default
SocketFactory = Callable[[str, int, socket.AddressFamily], socket.socket]


@dataclass
class Site:
    service: GameService
    client: TestClient[web.Request, web.Application]
    live: Live
    published: list[GameRecord] = field(default_factory=list)

    async def deal(self, *more: Player) -> GameRecord:
        """Anna and Boris (and ``more``) at the group's table, dealt (or, under ``trump:
        dealer``, the dealer asked for the trump: R-TRUMP-1)."""
        return await deal(self.service, CHAT, ANNA, BORIS, *more)

    async def house_rules(self, rules: HouseRules) -> None:
        """The group's rules for its next game."""
        await self.service.storage.settings.set(CHAT, ChatSettings(rules=rules, turn_timeout=0))

    async def record(self) -> GameRecord:
        record = await self.service.games.get(CHAT)
        assert record is not None
        return record


async def may_watch(chat_id: int, user_id: int) -> bool:
    return chat_id == CHAT and user_id in (ANNA.user_id, BORIS.user_id, MEMBER)


@pytest.fixture
async def site(redis: Redis, redis_prefix: str) -> AsyncIterator[Site]:
    async with open_site(redis, redis_prefix) as opened:
        yield opened


@contextlib.asynccontextmanager
async def open_site(
    redis: Redis,
    redis_prefix: str,
    *,
    limits: PageLimits | None = None,
    idle: float = IDLE,
    watch: MayWatch = may_watch,
    socket_factory: SocketFactory = get_port_socket,
) -> AsyncIterator[Site]:
    """One worker's Mini App server on the test's Redis prefix (open two for two workers),
    run as the bot runs it (``bot.web.RUNNER_OPTIONS``), on a socket made by
    ``socket_factory``."""
    storage = Storage.create(redis, redis_prefix, default_settings=ChatSettings(turn_timeout=0))
    service = GameService(storage)
    live = Live(redis, storage.keys.live(), storage.games.get)
    published: list[GameRecord] = []
    served = Served(
        service, live, published.append, TOKEN, 86_400.0, watch, idle, limits=limits or PageLimits()
    )
    live.start()
    try:
        await live.subscribed.wait()
        server = TestServer(webapp_app(served), socket_factory=socket_factory)
        await server.start_server(**RUNNER_OPTIONS)
        async with TestClient(server) as client:
            yield Site(service, client, live, published)
    finally:
        await live.stop()


@contextlib.asynccontextmanager
async def site_of_module(redis_url: str) -> AsyncIterator[Site]:
    """A site of its own for a module's tests (a key prefix of its own), removed after."""
    redis = Redis.from_url(redis_url)
    prefix = f"t{uuid.uuid4().hex[:12]}"
    try:
        async with open_site(redis, prefix) as opened:
            yield opened
    finally:
        await delete_prefix(redis, prefix)
        await redis.aclose()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    """Debian's Chromium (``pages.CHROMIUM``), one for a test module's pages."""
    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            yield chromium
        finally:
            await chromium.close()
