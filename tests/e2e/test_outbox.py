"""The outbox against the fake Telegram (in-process): no identical edits, rapid changes
merged, the group budget kept, "retry after" obeyed, players who blocked the bot skipped,
deleted messages posted again, and nothing repeated after a restart."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Callable

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from redis.asyncio import Redis

from bot.delivery import Outbox, failures
from bot.delivery import lane as lane_module
from bot.delivery.host import LEASE_REFRESH
from bot.delivery.outbox import LEASE_KEEPING
from bot.delivery.plan import hand_slot
from bot.i18n import translator
from bot.model import ChatGame, ChatSettings, GameRecord, Phase, Seat
from bot.services import GameService
from bot.services.games import show_migration, show_removal
from bot.storage import Storage
from engine import new_game

from .fake_telegram import FakeChat, FakeTelegram, FakeUser
from .harness import plain

pytestmark = pytest.mark.e2e


@pytest.fixture
async def bot(fake: FakeTelegram) -> AsyncIterator[Bot]:
    """The bot as the app builds it: HTML texts (the conftest's bot sends plain ones)."""
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
        await outbox.say(group.id, f"note {count}")
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
    hands = {slot for slot in await storage.sent.load(group.id) if slot.startswith("h:")}
    assert hands == {hand_slot(record.game.game_id, u.id) for u in users}
    await outbox.close()


async def test_a_deleted_table_is_posted_again(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    outbox = Outbox(bot, storage)
    outbox.publish(await save(storage, group, users))
    await outbox.idle()
    record = await storage.games.get(group.id)
    assert record is not None
    first = await outbox.table_message(record)
    assert first is not None
    await bot.delete_message(group.id, first)
    outbox.publish(await save(storage, group, users, players=[Seat(users[0].id, "new name")]))
    await outbox.idle()
    assert await outbox.table_message(record) not in (None, first)
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


async def test_a_worker_settles_when_the_messages_match_waits_for_a_change_then_leaves(
    fake: FakeTelegram,
    bot: Bot,
    storage: Storage,
    group: FakeChat,
    users: list[FakeUser],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every message shows the game: the chat leaves the work list, and its worker waits
    a while (``LINGER``) for the next change, which it shows without a new lease; with
    none, it leaves and lets go of the chat."""
    monkeypatch.setattr(lane_module, "LINGER", 1.0)
    outbox = Outbox(bot, storage)
    outbox.publish(await save(storage, group, users))
    await outbox.idle()
    assert await storage.delivery.pending() == 0  # off the work list in Redis
    lane = outbox.lanes[group.id]
    assert not lane.busy
    mark = fake.mark()
    outbox.publish(await save(storage, group, users))  # unchanged: nothing to send
    await outbox.idle()
    assert fake.calls(since=mark) == []
    outbox.publish(await save(storage, group, users, players=[Seat(users[1].id, "later")]))
    await outbox.idle()
    assert [c.method for c in fake.calls(since=mark)] == ["editMessageText"]
    assert outbox.lanes[group.id] is lane  # the same worker
    await asyncio.wait_for(_until(lambda: group.id not in outbox.lanes), 5)
    assert await storage.redis.get(storage.keys.outbox_lease(group.id)) is None
    await outbox.close()


async def test_a_worker_whose_chat_another_process_took_stops(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    """The outbox renews its workers' leases together; one whose lease is another
    process's by then (it ran out while this one stalled) stops, and leaves the chat
    alone."""
    outbox = Outbox(bot, storage)
    outbox.publish(await save(storage, group, users))
    await outbox.idle()
    await storage.delivery.block(group.id, 30)  # the table waits: its worker stays
    outbox.publish(await save(storage, group, users, players=[Seat(users[1].id, "later")]))
    await asyncio.wait_for(_until(lambda: group.id in outbox.lanes), 5)
    lane = outbox.lanes[group.id]
    await asyncio.wait_for(_until(lambda: lane.lease_until > 0), 5)
    lease = storage.keys.outbox_lease(group.id)
    assert await storage.redis.get(lease) == outbox.owner.encode()
    await storage.redis.set(lease, "another-process", px=60_000)
    mark = fake.mark()
    await storage.redis.delete(storage.keys.outbox_block(group.id))
    # Renewed with the others before its own renewal would have been due (LEASE_GRACE later).
    await asyncio.wait_for(
        _until(lambda: group.id not in outbox.lanes), LEASE_REFRESH + LEASE_KEEPING + 0.5
    )
    assert lane.lost
    assert await storage.redis.get(lease) == b"another-process"
    assert fake.calls(since=mark) == []
    await storage.redis.delete(storage.keys.outbox())  # the other process's work now
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


# -- Telegram failing -------------------------------------------------------------------------


async def playing(
    storage: Storage, group: FakeChat, users: list[FakeUser], seed: int = 3
) -> GameRecord:
    return await save(
        storage, group, users, state=new_game(len(users), seed=seed), phase=Phase.PLAYING
    )


async def test_a_message_is_retried_until_it_shows_the_game(
    fake: FakeTelegram,
    bot: Bot,
    storage: Storage,
    group: FakeChat,
    users: list[FakeUser],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Item 3: minutes of 5xx and lost connections (here: twelve failures in a row, more
    than the five the outbox used to try) and the table still ends up right."""
    monkeypatch.setattr(failures, "MAX_BACKOFF", 0.05)
    fake.server_error("sendMessage", chat=group, times=6)
    fake.network_failure("sendMessage", chat=group, times=6)
    outbox = Outbox(bot, storage, group_per_minute=60)
    outbox.publish(await playing(storage, group, users))
    await outbox.idle(timeout=20)
    assert fake.last_bot_message(group) is not None
    assert len([c for c in fake.errors() if c.chat_id == group.id]) >= 6
    await outbox.close()


async def test_a_restart_takes_up_the_work_a_failing_telegram_left(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    """Item 3: the bot stops while Telegram fails; the next start shows the game."""
    down = fake.server_error("sendMessage", chat=group, times=None)
    first = Outbox(bot, storage)
    first.publish(await playing(storage, group, users))
    await fake.wait_for(lambda: [c for c in fake.errors() if c.chat_id == group.id])  # it tried
    await first.close(timeout=0.1)
    assert fake.last_bot_message(group) is None
    down.remove()
    second = Outbox(bot, storage)
    second.start()
    await second.idle(timeout=20)
    assert fake.last_bot_message(group) is not None
    await second.close()


async def test_a_flood_limit_in_one_private_chat_holds_up_nobody_else(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    """Item 4: Telegram's "retry after" for one player's chat waits only for that chat."""
    anna, boris = users
    other_group = fake.add_group("Other", creator=boris, members=users)
    outbox = Outbox(bot, storage)
    outbox.publish(await playing(storage, group, users))
    await outbox.idle()
    fake.too_many_requests("editMessageText", 60, chat=fake.private_chat(anna), times=None)
    outbox.publish(await playing(storage, group, users, seed=4))  # every hand changes
    outbox.publish(await playing(storage, other_group, [boris, anna], seed=9))
    boris_chat = fake.private_chat(boris)
    (boris_hand,) = fake.bot_messages(boris_chat)
    await fake.wait_for(lambda: boris_hand.edit_count > 0, timeout=5)
    await fake.wait_for(lambda: fake.last_bot_message(other_group), timeout=5)
    await fake.wait_for(lambda: len(fake.bot_messages(boris_chat)) == 2, timeout=5)
    assert fake.errors()[-1].error_code == 429
    await outbox.close(timeout=0.1)


async def test_replies_in_the_group_never_hold_back_the_hands(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    """Item 4: a spectator sending /rules again and again uses up the group's budget; the
    players' hands go at once all the same."""
    outbox = Outbox(bot, storage, group_per_minute=6)
    for count in range(8):
        await outbox.say(group.id, f"rules {count}")
    outbox.publish(await playing(storage, group, users))
    for user in users:
        chat = fake.private_chat(user)
        await fake.wait_for(functools.partial(fake.bot_messages, chat), timeout=3)
    assert len(fake.bot_messages(group)) < 8  # the replies are still waiting
    await outbox.close(timeout=0.1)


async def test_the_players_who_must_act_get_their_buttons_first(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat
) -> None:
    """Item 4: within the budget over all chats, the acting player's hand goes first."""
    players = [fake.add_user(name, started=True) for name in ("Аня", "Борис", "Вера", "Гена")]
    for player in players:
        await storage.users.mark_started(player.id)
    outbox = Outbox(bot, storage, global_per_second=1)
    await outbox.say(group.id, "a reply that takes the one token there is")
    record = await save(storage, group, players, state=new_game(4, seed=11), phase=Phase.PLAYING)
    assert record.game.state is not None
    acting = {players[seat].id for seat in record.game.state.acting}
    mark = fake.mark()
    outbox.publish(record)
    await outbox.idle(timeout=10)
    sends = [c for c in fake.calls(since=mark) if c.method == "sendMessage"]
    first_hands = [c.chat_id for c in sends if c.chat_id is not None and c.chat_id > 0]
    assert set(first_hands[: len(acting)]) == acting
    await outbox.close()


async def test_a_deleted_hand_comes_back_and_start_posts_it_anew(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    """Item 5: "message to edit not found" sends a new message; so does /start."""
    anna = users[0]
    outbox = Outbox(bot, storage)
    outbox.publish(await playing(storage, group, users))
    await outbox.idle()
    chat = fake.private_chat(anna)
    (hand,) = fake.bot_messages(chat)
    fake.user_deletes_message(anna, hand)
    outbox.publish(await playing(storage, group, users, seed=4))  # another position
    await outbox.idle()
    (again,) = fake.bot_messages(chat)
    assert again.message_id != hand.message_id
    stored = await storage.games.get(group.id)
    assert stored is not None
    shown = await storage.sent.get(group.id, hand_slot(stored.game.game_id, anna.id))
    assert shown is not None and shown.message_id == again.message_id
    await outbox.resend_hand(stored, anna.id)  # what /start does
    await outbox.idle()
    latest = fake.bot_messages(chat)[-1]
    assert latest.message_id > again.message_id
    assert latest.text == again.text
    await outbox.close()


async def test_a_send_that_finds_the_group_upgraded_moves_the_game(
    fake: FakeTelegram, bot: Bot, storage: Storage, users: list[FakeUser]
) -> None:
    """Found by the outbox: a send to the old group id fails with
    ``migrate_to_chat_id``; the game moves and its table is posted in the supergroup."""
    group = fake.add_group("Basic", creator=users[0], members=users, chat_type="group")
    service = GameService(storage)
    moved: list[tuple[int, int]] = []

    async def migrated(old: int, new: int) -> None:
        moved.append((old, new))
        await show_migration(outbox, await service.migrate_chat(old, new))

    outbox = Outbox(bot, storage, on_migrated=migrated)
    outbox.publish(await playing(storage, group, users))
    await outbox.idle()
    supergroup = fake.migrate_to_supergroup(group)  # the bot has not read the updates yet
    outbox.publish(await playing(storage, group, users, seed=4))
    await outbox.idle()
    assert moved == [(group.id, supergroup.id)]
    table = fake.last_bot_message(supergroup)
    assert table is not None and table.buttons
    record = await storage.games.get(supergroup.id)
    assert record is not None and await outbox.table_message(record) == table.message_id
    for user in users:  # the hands stay the same messages
        assert len(fake.bot_messages(fake.private_chat(user))) == 1
    await outbox.close()


async def test_a_send_that_finds_the_bot_removed_ends_the_game(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    """Found by the outbox: the group answers 403; the game ends without
    statistics and every player is told in private."""
    service = GameService(storage)

    async def lost(chat_id: int) -> None:
        await show_removal(outbox, await service.bot_removed(chat_id))

    outbox = Outbox(bot, storage, on_chat_lost=lost)
    outbox.publish(await playing(storage, group, users))
    await outbox.idle()
    fake.bot_removed_from_group(group, by=users[0])
    outbox.publish(await playing(storage, group, users, seed=4))
    await outbox.idle()
    record = await storage.games.get(group.id)
    assert record is not None and record.gone and record.game.phase is Phase.FINISHED
    for user in users:
        hand, note = fake.bot_messages(fake.private_chat(user))
        assert hand.text == plain(translator("ru").t("stopped-hand"))
        assert note.text == plain(translator("ru").t("gone-removed-untitled", lobby="no"))
    assert await storage.stats.chat(group.id) == []
    await outbox.close()


async def test_two_workers_share_the_budget_over_all_chats(
    bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    """Two outboxes on one Redis (two worker processes) each send at most half of the
    bot's messages a second; when one stops, the other has the whole budget again."""
    first = Outbox(bot, storage, global_per_second=20)
    second = Outbox(bot, storage, global_per_second=20)
    first.start()
    second.start()
    record = await save(storage, group, users)
    first.publish(record)
    await first.idle(timeout=10)
    for outbox in (first, second):
        await asyncio.wait_for(_until(lambda o=outbox: o.budget.workers == 2), 10)  # type: ignore[misc]
        assert outbox.budget.gate.bucket.rate == 10
    await second.close()
    first.roll_call_at = 0.0  # its next look at the roll: now
    first.poke(group.id)
    await asyncio.wait_for(_until(lambda: first.budget.workers == 1), 10)
    assert first.budget.gate.bucket.rate == 20
    await first.close()


async def _until(check: Callable[[], bool]) -> None:
    while not check():
        await asyncio.sleep(0.02)


async def test_replies_a_stopped_worker_could_not_send_are_sent_by_another(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    """Replies wait in Redis, not in a worker: one that stops (or is killed) while the
    group's budget holds them back leaves them to the next, which sends each once, in
    order, with markup and reply-to as they were said."""
    first = Outbox(bot, storage, group_per_minute=60)
    await storage.delivery.block(group.id, 1.0)  # Telegram said "retry after 1 s"
    asked = fake.user_sends(users[0], group, "/help")
    for count in range(3):
        await first.say(group.id, f"reply {count}", reply_to=asked.message_id)
    await first.close(timeout=0.2)  # stopped before the group could be written to again
    assert fake.bot_messages(group) == []
    assert await storage.notes.waiting() == [group.id]

    second = Outbox(bot, storage, group_per_minute=60)
    second.start()
    await second.idle(timeout=10)
    sent = fake.bot_messages(group)
    assert [m.text for m in sent] == [f"reply {count}" for count in range(3)]
    assert all(m.reply_to is not None and m.reply_to.message_id == asked.message_id for m in sent)
    assert await storage.notes.waiting() == []
    await second.close()


# -- a person waiting first, fairly across chats ------------------------------------

SOLO_SEEDS = {False: 0, True: 6}  # deals where a computer (seat 3) / the person acts first


async def solo_games(fake: FakeTelegram, storage: Storage, count: int) -> list[FakeUser]:
    """``count`` people each playing alone against five computers, where a computer is to
    move: a message nobody waits on yet."""
    people = [fake.add_user(f"Соло{i}", started=True) for i in range(count)]
    for person in people:
        await solo_position(storage, person, person_acts=False)
    return people


async def solo_position(storage: Storage, person: FakeUser, *, person_acts: bool) -> GameRecord:
    def decide(current: GameRecord | None) -> tuple[GameRecord, GameRecord]:
        if current is None:
            game = ChatGame(person.id, f"s{person.id}", person.id, ChatSettings())
            game.players = [Seat(person.id, person.first_name)]
            game.players += [Seat(-seat, f"🤖 {seat}", level="easy") for seat in range(1, 6)]
            current = GameRecord(game)
        current.game.state = new_game(6, seed=SOLO_SEEDS[person_acts])
        current.game.phase = Phase.PLAYING
        return current, current

    record = await storage.games.update(person.id, decide)
    assert record.game.state is not None
    assert (0 in record.game.state.acting) is person_acts
    return record


async def test_a_player_who_must_act_goes_before_solo_games_whose_computers_move(
    fake: FakeTelegram, bot: Bot, storage: Storage, group: FakeChat, users: list[FakeUser]
) -> None:
    outbox = Outbox(bot, storage, global_per_second=4)
    people = await solo_games(fake, storage, 12)
    for person in people:
        outbox.poke(person.id)
    await _flood_queued(fake, outbox, people, 10)
    record = await playing(storage, group, users, seed=0)
    assert record.game.state is not None and record.game.state.acting == (1,)
    mark = fake.mark()
    outbox.publish(record)
    acting = fake.private_chat(users[1])
    await fake.wait_for(functools.partial(fake.last_bot_message, acting), timeout=10)
    solo = {person.id for person in people}
    ahead = [c for c in fake.calls(since=mark) if c.chat_id in solo and c.at < _first(fake, acting)]
    assert len(ahead) <= 1  # a send already on its way at the publish, at most
    await outbox.idle(timeout=20)
    assert all(fake.last_bot_message(fake.private_chat(p)) is not None for p in people)
    await outbox.close()


async def test_a_solo_message_overtakes_while_waiting_once_its_person_must_act(
    fake: FakeTelegram, bot: Bot, storage: Storage
) -> None:
    """A message queued while the computers moved waits as its person's buttons once it is
    their turn: it must not keep waiting behind the flood."""
    outbox = Outbox(bot, storage, global_per_second=4)
    people = await solo_games(fake, storage, 12)
    for person in people:
        outbox.poke(person.id)
    await _flood_queued(fake, outbox, people, 30)
    last = people[-1]  # queued last: first come, first served would send it last
    mark = fake.mark()
    outbox.publish(await solo_position(storage, last, person_acts=True))
    chat = fake.private_chat(last)
    await fake.wait_for(functools.partial(fake.last_bot_message, chat), timeout=10)
    others = {person.id for person in people[:-1]}
    ahead = [c for c in fake.calls(since=mark) if c.chat_id in others and c.at < _first(fake, chat)]
    # At most what the budget hands out while the outbox loads the new position (a token
    # every 0.25 s; under a loaded machine the load takes a few tenths): the flood's
    # remaining eleven went first before (five within the same time).
    assert len(ahead) <= 2, ahead
    await outbox.idle(timeout=20)
    await outbox.close()


async def _flood_queued(
    fake: FakeTelegram, outbox: Outbox, people: list[FakeUser], timeout: float
) -> None:
    """Wait until the solo games' messages queue for the budget (eight of them at least),
    and those already handed a token (the budget's first burst) reached Telegram: a test's
    mark from then on counts only what the budget hands out after it."""

    def queued() -> bool:
        arrived = sum(len(fake.bot_messages(fake.private_chat(p))) for p in people)
        waiting = outbox.budget.gate.waiting
        return waiting >= 8 and arrived >= len(people) - waiting

    await asyncio.wait_for(_until(queued), timeout)


def _first(fake: FakeTelegram, chat: FakeChat) -> float:
    """When the bot first wrote to ``chat``."""
    return next(c.at for c in fake.calls(chat=chat) if c.method == "sendMessage" and c.ok)
