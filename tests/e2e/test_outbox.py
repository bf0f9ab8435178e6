"""The outbox against the fake Telegram (in-process): no identical edits, rapid changes
merged, the group budget kept, "retry after" obeyed, players who blocked the bot skipped,
deleted messages posted again, and nothing repeated after a restart."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from redis.asyncio import Redis

from bot.delivery import Outbox
from bot.model import ChatGame, ChatSettings, Phase, Seat
from bot.storage import GameRecord, Storage
from engine import new_game

from .fake_telegram import FakeChat, FakeTelegram, FakeUser

pytestmark = pytest.mark.e2e


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest.fixture
async def bot(fake: FakeTelegram) -> AsyncIterator[Bot]:
    session = AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url))
    instance = Bot(fake.token, session=session, default=DefaultBotProperties(parse_mode="HTML"))
    try:
        yield instance
    finally:
        await instance.session.close()


@pytest.fixture
def storage(redis: Redis, redis_prefix: str) -> Storage:
    return Storage.create(redis, redis_prefix, default_settings=ChatSettings())


@pytest.fixture
async def users(fake: FakeTelegram, storage: Storage) -> list[FakeUser]:
    """Two players who have started the bot (so the bot may write to them)."""
    players = [fake.add_user("Аня", started=True), fake.add_user("Борис", started=True)]
    for player in players:
        await storage.users.mark_started(player.id)
    return players


@pytest.fixture
def group(fake: FakeTelegram, users: list[FakeUser]) -> FakeChat:
    return fake.add_group("Outbox", creator=users[0], members=users)


async def save(
    storage: Storage, group: FakeChat, users: list[FakeUser], **changes: object
) -> GameRecord:
    """A lobby (or, with ``state``, a game) of ``users`` stored for ``group``."""

    def decide(current: GameRecord | None) -> tuple[GameRecord, GameRecord]:
        if current is None:
            game = ChatGame(group.id, "g1", users[0].id, ChatSettings())
            game.players = [Seat(u.id, u.first_name) for u in users]
            current = GameRecord(game)
        for name, value in changes.items():
            setattr(current.game, name, value)
        return current, current

    return await storage.games.update(group.id, decide)


async def test_no_identical_edits_and_rapid_changes_merge(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    outbox = Outbox(bot, storage)
    record = await save(storage, group, users)
    outbox.publish(record)
    await outbox.idle()
    assert len(fake.sends_and_edits(group)) == 1
    outbox.publish(record)  # the same again
    await outbox.idle()
    assert len(fake.sends_and_edits(group)) == 1
    # Ten changes at once: the last one wins, in one edit.
    records = []
    for count in range(10):
        names = [Seat(u.id, f"{u.first_name}{count}") for u in users]
        records.append(await save(storage, group, users, players=names))
    for record in records:
        outbox.publish(record)
    stale = await storage.games.get(group.id)
    assert stale is not None
    stale.game.version -= 5
    outbox.publish(stale)  # an older version published late is ignored
    await outbox.idle()
    table = fake.last_bot_message(group)
    assert table is not None and "Аня9" in (table.text or "")
    assert len(fake.sends_and_edits(group)) == 2
    assert fake.errors() == []
    await outbox.close()


async def test_group_budget_is_kept_and_the_last_state_shown(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    fake.enable_flood_control(group_limit=20)
    outbox = Outbox(bot, storage, group_per_minute=19)
    for count in range(40):
        record = await save(storage, group, users, players=[Seat(users[0].id, f"n{count}")])
        outbox.publish(record)
        await asyncio.sleep(0.02)
    assert len(fake.sends_and_edits(group)) <= 5  # a burst, then spread out
    await outbox.idle(timeout=10)
    table = fake.last_bot_message(group)
    assert table is not None and "n39" in (table.text or "")
    assert fake.max_sends_and_edits_in_window(group) <= 19
    assert fake.errors() == []
    await outbox.close()


async def test_retry_after_is_obeyed(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    fake.enable_flood_control(group_limit=1, window=2.0)
    outbox = Outbox(bot, storage, group_per_minute=60)  # more than this "Telegram" allows
    for count in range(4):
        outbox.say(group.id, f"note {count}")
    await outbox.idle(timeout=15)
    texts = [m.text for m in fake.bot_messages(group)]
    assert texts == [f"note {count}" for count in range(4)]  # all, in order
    assert {e.error_code for e in fake.errors()} == {429}
    await outbox.close()


async def test_a_player_who_blocked_the_bot_is_skipped(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    silent = fake.add_user("Вера")  # never started the bot
    players = [*users, silent]
    await storage.users.mark_started(silent.id)  # the bot believes it may write
    outbox = Outbox(bot, storage)
    state = new_game(3, seed=1)
    record = await save(storage, group, players, state=state, phase=Phase.PLAYING)
    outbox.publish(record)
    await outbox.idle()
    assert not await storage.users.has_started(silent.id)
    for user in users:
        assert len(fake.bot_messages(fake.private_chat(user))) == 1
    assert fake.last_bot_message(group) is not None
    mark = fake.mark()
    outbox.publish(await save(storage, group, players, log=[{"e": "x"}]))
    await outbox.idle()
    assert [c for c in fake.calls(since=mark) if c.chat_id == silent.id] == []
    stored = await storage.games.get(group.id)
    assert stored is not None
    assert set(stored.game.hand_message_ids) == {u.id for u in users}
    await outbox.close()


async def test_a_deleted_table_is_posted_again(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    outbox = Outbox(bot, storage)
    outbox.publish(await save(storage, group, users))
    await outbox.idle()
    first = await storage.games.get(group.id)
    assert first is not None and first.game.table_message_id is not None
    await bot.delete_message(group.id, first.game.table_message_id)
    outbox.publish(await save(storage, group, users, players=[Seat(users[0].id, "new name")]))
    await outbox.idle()
    second = await storage.games.get(group.id)
    assert second is not None and second.game.table_message_id not in (
        None,
        first.game.table_message_id,
    )
    table = fake.last_bot_message(group)
    assert table is not None and "new name" in (table.text or "")
    await outbox.close()


async def test_a_restarted_outbox_repeats_nothing(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    first = Outbox(bot, storage)
    record = await save(storage, group, users, state=new_game(2, seed=3), phase=Phase.PLAYING)
    first.publish(record)
    await first.idle()
    await first.close()
    mark = fake.mark()
    second = Outbox(bot, storage)  # a new process: nothing in memory
    stored = await storage.games.get(group.id)
    assert stored is not None
    second.publish(stored)
    await second.idle()
    assert fake.calls(since=mark) == []
    await second.close()


async def test_a_worker_leaves_when_the_messages_match_and_a_change_brings_one_back(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    outbox = Outbox(bot, storage)
    outbox.publish(await save(storage, group, users))
    await outbox.idle()
    assert group.id not in outbox.lanes
    assert await storage.delivery.pending() == 0  # off the work list in Redis too
    mark = fake.mark()
    outbox.publish(await save(storage, group, users))  # unchanged: nothing to send
    await outbox.idle()
    assert fake.calls(since=mark) == []
    outbox.publish(await save(storage, group, users, players=[Seat(users[1].id, "later")]))
    await outbox.idle()
    assert [c.method for c in fake.calls(since=mark)] == ["editMessageText"]
    await outbox.close()


async def test_a_change_saved_before_a_crash_is_shown_after_the_restart(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    """Saving a change puts its chat on the work list in Redis: a bot that died before it
    showed the change shows it when it starts again, without being told."""
    await save(storage, group, users, state=new_game(2, seed=5), phase=Phase.PLAYING)
    assert await storage.delivery.pending() == 1
    outbox = Outbox(bot, storage)  # a new process, nothing published to it
    outbox.start()
    await outbox.idle()
    assert fake.last_bot_message(group) is not None
    for user in users:
        assert len(fake.bot_messages(fake.private_chat(user))) == 1
    assert await storage.delivery.pending() == 0
    await outbox.close()
