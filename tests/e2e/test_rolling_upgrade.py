"""A rolling upgrade with games under way: a worker of this version and one of the next
(``tests.e2e.next_version``, whose game records have a newer schema) on one Redis, in
webhook mode behind one address, as a proxy would put them. Games dealt on the old worker
go on on the new one; a press the old worker gets on a game the new one saved is answered
«the bot is being updated» and changes nothing (no game moved aside, none damaged); once
the old worker stops, every game plays to its end. The real bot, a real Redis, the fake
Bot API."""

from __future__ import annotations

import random
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio
from redis.asyncio import Redis

from bot.i18n import translator
from bot.model import Phase

from .conftest import LANGUAGES, NAMES
from .fake_telegram import FakeTelegram
from .harness import BotProcess, Table, delete_prefixed, free_port
from .next_version import as_next_version

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

GAMES = 3
SECRET = "upgrade-secret"


@dataclass
class Roll:
    fake: FakeTelegram
    redis: Redis
    prefix: str
    old: BotProcess
    new: BotProcess
    old_address: str
    new_address: str


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def roll(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Roll]:
    prefix = f"e2e{uuid.uuid4().hex[:10]}"
    redis = Redis.from_url(redis_url)
    ports = [free_port(), free_port()]
    old_address, new_address = (f"http://127.0.0.1:{port}/tg-hook" for port in ports)
    try:
        async with FakeTelegram() as fake:
            fake.webhook.targets = [old_address]
            old, new = (
                BotProcess(
                    fake,
                    redis_url,
                    prefix,
                    Path(tmp_path_factory.mktemp(name)),
                    BOT_MODE="webhook",
                    WEBHOOK_URL="http://127.0.0.1:8443/tg-hook",
                    WEBHOOK_SECRET=SECRET,
                    WEBHOOK_LISTEN=f"127.0.0.1:{port}",
                    MESSAGES_PER_SECOND="250",
                    GROUP_MESSAGES_PER_MINUTE="60",
                )
                for name, port in zip(("old", "new"), ports, strict=True)
            )
            new.module = "tests.e2e.next_version"
            await old.start()
            try:
                yield Roll(fake, redis, prefix, old, new, old_address, new_address)
            finally:
                for worker in (old, new):
                    if worker.process is not None and worker.process.poll() is None:
                        assert await worker.stop() == 0, worker.log()
                    if worker.process is not None:
                        assert "Traceback" not in worker.log(), worker.log()
    finally:
        await delete_prefixed(redis, prefix)
        await redis.aclose()


def group_table(roll: Roll, index: int) -> Table:
    fake = roll.fake
    users = [
        fake.add_user(f"{NAMES[i]}{index}", language_code=LANGUAGES[i], username=f"u{index}p{i}")
        for i in range(2)
    ]
    return Table(fake, roll.redis, roll.prefix, users, patience=4)


async def press_one(table: Table, rng: random.Random) -> str | None:
    """One shown button of the settled position pressed; the text of its answer."""
    record = await table.settled(timeout=30)
    user, message, data = rng.choice(table.playable(record))
    query = table.fake.user_presses_data(user, message, data)
    return (await table.answer(query, timeout=30)).text


async def test_games_go_on_across_a_rolling_upgrade(roll: Roll) -> None:
    fake, rng = roll.fake, random.Random(5)
    tables = [group_table(roll, index) for index in range(GAMES)]
    for table in tables:  # dealt and played a little on the old worker
        await table.start_game()
        await press_one(table, rng)

    # The new worker starts and alone gets the updates for a while: it saves each game
    # once, in its own format.
    await roll.new.start()
    fake.webhook.targets = [roll.new_address]
    with as_next_version():
        for table in tables:
            await press_one(table, rng)
        before = [await roll.redis.get(table.keys.game(table.group.id)) for table in tables]

        # A press on the old worker, on a game the new one saved: refused, nothing changed.
        fake.webhook.targets = [roll.old_address]
        answer = await press_one(tables[0], rng)
        assert answer == translator(LANGUAGES[0]).t("answer-updating") or answer == translator(
            LANGUAGES[1]
        ).t("answer-updating")
        after = [await roll.redis.get(table.keys.game(table.group.id)) for table in tables]
        assert after == before
        assert not [key async for key in roll.redis.scan_iter(match=f"{roll.prefix}:*broken*")]

        # The old worker stops; the new one plays every game to its end.
        assert await roll.old.stop() == 0
        assert "left to a newer worker" in roll.old.log()
        fake.webhook.targets = [roll.new_address]
        for table in tables:
            finished = await table.play_to_end(rng)
            assert finished.game.phase is Phase.FINISHED
