"""Every update once: the fake Telegram delivers every update twice (both
copies in one getUpdates batch, or two webhook requests at once), and a lobby, /addbot and
«🤖 Добавить бота», /set, a game and /stop are each applied once, in polling and in webhook
mode. The real bot, a real Redis."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from functools import partial

import pytest
import pytest_asyncio

from bot.i18n import translator
from bot.model import GameRecord, Phase

from .conftest import World, open_world
from .fake_telegram import FakeChat, FakeTelegram
from .harness import free_port, plain
from .test_settings import changed_text

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

RU = translator("ru")
SECRET = "e2e-twice-secret"


@pytest_asyncio.fixture(scope="module", loop_scope="module", params=["polling", "webhook"])
async def twice(
    request: pytest.FixtureRequest, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[World]:
    env = {"MESSAGES_PER_SECOND": "500", "GROUP_MESSAGES_PER_MINUTE": "60"}
    if request.param == "webhook":
        port = free_port()
        env |= {
            "BOT_MODE": "webhook",
            "WEBHOOK_URL": f"http://127.0.0.1:{port}/hook",
            "WEBHOOK_SECRET": SECRET,
            "WEBHOOK_LISTEN": f"127.0.0.1:{port}",
        }
    async for opened in open_world(redis_url, lambda: tmp_path_factory.mktemp("bot"), **env):
        opened.fake.world.duplicate_updates = True
        yield opened


def said(fake: FakeTelegram, chat: FakeChat, html_text: str) -> int:
    """How many of the bot's messages in ``chat`` say ``html_text``."""
    text = plain(html_text)
    return sum(text in (message.text or "") for message in fake.bot_messages(chat))


def _seats(record: GameRecord, count: int) -> bool:
    return len(record.game.players) == count


async def test_each_update_delivered_twice_is_applied_once(twice: World) -> None:
    world, fake = twice, twice.fake
    table = world.table(2)
    host = table.players[0]
    group = table.group

    await table.all_start_bot()  # /start twice each: one greeting each
    await table.gather()  # /newgame twice, «Играю» pressed (and delivered) twice
    lobby = await table.lobby_message()

    fake.user_sends(host, group, "/addbot")
    await table.wait_record(partial(_seats, count=3))
    added = await table.press_lobby(host, lobby, "bot+")
    assert added == RU.t("answer-computer-added")
    await table.wait_record(partial(_seats, count=4))

    fake.user_sends(host, group, "/set turn_timeout 30")
    changed = changed_text("turn_timeout", "30")
    await fake.wait_for_bot_message(group, plain(changed), timeout=30)  # the group's budget

    record = await table.deal()
    assert len(record.game.players) == 4  # neither /addbot nor the button seated two
    assert record.game.settings.turn_timeout == 30
    rng = random.Random(18)
    for _ in range(6):
        record = await table.settled()
        if record.game.phase is not Phase.PLAYING or not table.hand_buttons(record):
            break
        await table.press_random(record, rng)

    fake.user_sends(host, group, "/stop")
    stopped = await table.wait_record(lambda r: r.game.phase is Phase.FINISHED)
    assert stopped.stopped_by is not None
    # /stop is the last update; its reply arriving means every earlier one, and the copy
    # of each that came with it, was handled.
    stop_reply = RU.t("reply-stopped", name=host.full_name)
    await fake.wait_for_bot_message(group, plain(stop_reply), timeout=30)
    await fake.wait_for(lambda: not fake.world.undelivered)

    assert said(fake, group, changed) == 1
    assert said(fake, group, stop_reply) == 1
    for user in table.players:  # one greeting (/start twice) and one hand each
        assert len(fake.bot_messages(fake.private_chat(user))) == 2
    log = world.bot.log()
    assert log.count("was handled already") >= 8, log
