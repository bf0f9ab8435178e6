"""Fixtures for end-to-end tests: the fake Telegram, the real bot process, a real Redis.

Starting the bot costs seconds (importing aiogram), so a test module shares one bot and one
fake (``world``, module scope): every test plays in its own group with its own users."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from redis.asyncio import Redis

from bot.storage import Keys
from bot.storage.connect import redis_client
from tests.prefixes import delete_prefix

from .fake_telegram import FakeMessage, FakeTelegram, FakeUser
from .harness import BotProcess, Table, bot_namespace

NAMES = ("Аня", "Борис", "Вера", "Гена", "Даша", "Егор")
LANGUAGES = ("ru", "uk", "ru", "uk", "ru", "ru")


@dataclass
class World:
    fake: FakeTelegram
    redis: Redis
    prefix: str
    bot: BotProcess

    @property
    def namespace(self) -> str:
        """The bot's own part of Redis (``bot.storage.keys.namespace``)."""
        return bot_namespace(self.fake, self.prefix)

    @property
    def keys(self) -> Keys:
        return Keys(self.namespace)

    def players(self, count: int) -> list[FakeUser]:
        return [
            self.fake.add_user(NAMES[i], language_code=LANGUAGES[i], username=f"p{i}")
            for i in range(count)
        ]

    def table(self, count: int) -> Table:
        return Table(self.fake, self.redis, self.prefix, self.players(count))

    async def solo(self) -> tuple[FakeUser, Table, FakeMessage]:
        """One person sends ``/play`` in their private chat: the person, their table (the
        private chat stands for the group) and the lobby message there."""
        [person] = self.players(1)
        chat = self.fake.private_chat(person)
        table = Table(self.fake, self.redis, self.prefix, [person], group=chat)
        self.fake.user_starts_bot(person)
        self.fake.user_sends_private(person, "/play")
        return person, table, await table.lobby_message()


async def open_world(
    redis_url: str,
    workdir_factory: Callable[[], Path],
    set_up: Callable[[FakeTelegram], None] | None = None,
    /,
    **env: str,
) -> AsyncIterator[World]:
    """A fake Telegram (``set_up`` prepares it before the bot starts), a bot process and a
    Redis prefix of their own, cleaned up after."""
    prefix = f"e2e{uuid.uuid4().hex[:10]}"
    redis = redis_client(redis_url)  # as the bot opens it: a Sentinel URL works too
    try:
        async with FakeTelegram() as fake:
            if set_up is not None:
                set_up(fake)
            bot = BotProcess(fake, redis_url, prefix, workdir_factory(), **env)
            await bot.start()
            try:
                yield World(fake, redis, prefix, bot)
            finally:
                code = await bot.stop()
                log = bot.log()
                assert code == 0, f"the bot exited with {code}:\n{log}"
                assert "Traceback" not in log, log
    finally:
        await delete_prefix(redis, prefix)
        await redis.aclose()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    """One bot for the module, with the production budget per group (19 sends and edits a
    minute). The test players press at machine speed, so the budget over all chats is
    raised (Telegram's ~30 a second would make a 170-move game last half a minute)."""
    async for opened in open_world(
        redis_url, lambda: tmp_path_factory.mktemp("bot"), MESSAGES_PER_SECOND="500"
    ):
        yield opened


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def fast_world(
    redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[World]:
    """One bot for the module, with a generous budget per group too: for tests about what
    the bot says, not about how often."""
    async for opened in open_world(
        redis_url,
        lambda: tmp_path_factory.mktemp("bot"),
        MESSAGES_PER_SECOND="500",
        GROUP_MESSAGES_PER_MINUTE="60",
    ):
        yield opened


# -- in-process tests of the fake and of the outbox: a fake Telegram and a Bot pointed at it -


def make_bot(fake: FakeTelegram, token: str | None = None) -> Bot:
    session = AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url))
    return Bot(token or fake.token, session=session)


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest.fixture
async def bot(fake: FakeTelegram) -> AsyncIterator[Bot]:
    instance = make_bot(fake)
    try:
        yield instance
    finally:
        await instance.session.close()
