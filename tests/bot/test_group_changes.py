"""The group changes under its game, against a real Redis: it becomes a supergroup (a new
chat id: the game, settings, statistics and admin cache move there, once, and play goes
on), or the bot is removed from it (the game ends at once, without statistics, and only
the hands show it: the group cannot be written to)."""

from __future__ import annotations

from typing import Any

import pytest
from kit import ANNA, BORIS, CHAT, GLEB, VERA, Clock, dealt, member, no, reason_of, seated
from redis.asyncio import Redis

from bot.delivery.drafts import render
from bot.delivery.plan import Slot, hand_slot, slots_of, table_slot
from bot.i18n import translator
from bot.model import ChatSettings, GameRecord, Phase
from bot.schema.presses import Move
from bot.schema.refusals import Reason
from bot.services import Changed, GameService, join_payload
from bot.services.games import closed_notes
from bot.storage import Storage
from bot.storage.outbox import Shown
from bot.turn_clock import CLOCK_GRACE
from bot.ui.callbacks import HandPress
from bot.ui.render import Rendered
from engine import legal_actions

NEW = -100_777  # the supergroup's id


@pytest.fixture
def service(storage: Storage, clock: Clock) -> GameService:
    return GameService(storage, clock=clock, seed=lambda: f"{42:064x}")


def drafts(record: GameRecord) -> list[tuple[Slot, Rendered]]:
    """Every message of the game and what it shows now."""
    return [(slot, render(record, slot, {}, 0.0)) for slot in slots_of(record, {})]


async def shown(storage: Storage, chat_id: int = CHAT) -> GameRecord:
    """The chat's game, as if the outbox had sent its table and the hands (their ids are
    the outbox's: ``bot.storage.outbox``)."""
    record = await storage.games.get(chat_id)
    assert record is not None
    for slot, message_id in sent_ids(record).items():
        await storage.sent.save(chat_id, {slot: Shown(message_id, "digest")})
    return record


def sent_ids(record: GameRecord) -> dict[str, int]:
    game = record.game
    hands = {hand_slot(game.game_id, p.user_id): 600 + p.user_id for p in game.players}
    return {table_slot(game.game_id): 500, **hands}


async def everything(redis: Redis, prefix: str) -> dict[str, Any]:
    """Every key of the test and its value, to see that a call changed nothing."""
    found: dict[str, Any] = {}
    async for raw in redis.scan_iter(match=f"{prefix}:*"):
        key = raw.decode() if isinstance(raw, bytes) else raw
        kind = await redis.type(key)
        kind = kind.decode() if isinstance(kind, bytes) else kind
        if kind == "string":
            found[key] = await redis.get(key)
        elif kind == "hash":
            found[key] = await redis.hgetall(key)
        elif kind == "zset":
            found[key] = await redis.zrange(key, 0, -1, withscores=True)
        elif kind == "set":
            found[key] = await redis.smembers(key)
    return found


# -- a group becomes a supergroup ------------------------------------------------------------


async def test_a_supergroup_takes_over_the_game_settings_statistics_and_admins(
    service: GameService, storage: Storage, redis: Redis, redis_prefix: str, clock: Clock
) -> None:
    settings = ChatSettings(turn_timeout=45, language="uk")
    await storage.settings.set(CHAT, settings)
    first = await dealt(service, ANNA, BORIS)
    await service.leave(CHAT, BORIS.user_id)  # a game counted in the chat's statistics
    await service.again(CHAT, first.game.game_id, ANNA)
    await service.join(CHAT, BORIS, can_message=no)  # who left is not seated again
    await service.start(CHAT, ANNA.user_id, is_admin=no)
    running = await shown(storage)
    stats = sorted((p.user_id, p.games, p.durak) for p in await storage.stats.chat(CHAT))
    assert stats == [(1, 1, 0), (2, 1, 1)]
    await storage.admins.put(CHAT, ANNA.user_id, True)

    outcome = await service.migrate_chat(CHAT, NEW)

    assert isinstance(outcome, Changed)
    moved = outcome.record
    assert moved is not None and outcome.chat_id == NEW
    assert moved.game.game_id == running.game.game_id and moved.game.chat_id == NEW
    # The hands are the same messages; the old group's table cannot be edited there.
    hands = {slot: shown.message_id for slot, shown in (await storage.sent.load(NEW)).items()}
    assert hands == {s: i for s, i in sent_ids(running).items() if s.startswith("h:")}
    assert moved.game.state == running.game.state and moved.deadline == running.deadline
    assert moved.game.version > running.game.version
    assert await storage.games.get(CHAT) is None
    assert await storage.games.get(NEW) == moved
    assert await storage.users.games_of(ANNA.user_id) == {NEW: moved.game.game_id}
    assert await storage.deadlines.due(10**10) == [NEW]
    assert await storage.settings.get(NEW) == settings
    assert not await redis.exists(storage.keys.settings(CHAT))
    assert sorted((p.user_id, p.games, p.durak) for p in await storage.stats.chat(NEW)) == stats
    assert await storage.stats.chat(CHAT) == []
    assert await storage.admins.get(NEW, ANNA.user_id) is True
    assert await storage.admins.get(CHAT, ANNA.user_id) is None
    assert await storage.moved_to(CHAT) == NEW

    # Telegram tells twice (and a failed send may tell again): nothing changes any more.
    before = await everything(redis, redis_prefix)
    again = await service.migrate_chat(CHAT, NEW)
    assert reason_of(again) is Reason.NO_GAME
    assert again.record == moved
    assert await everything(redis, redis_prefix) == before

    # Play goes on in the new chat: the turn timer too.
    clock.now += 46 + CLOCK_GRACE
    assert isinstance(await service.expire_turn(NEW), Changed)


async def test_a_press_on_a_hand_drawn_for_the_old_id_plays_in_the_new_chat(
    service: GameService,
) -> None:
    record = await dealt(service, ANNA, BORIS)
    await service.migrate_chat(CHAT, NEW)
    state = record.game.state
    assert state is not None
    seat = state.acting[0]
    act = Move.of(legal_actions(state, seat)[0])
    outcome = await service.play(
        CHAT, record.game.game_id, state.moves, act, record.game.players[seat].user_id
    )
    assert isinstance(outcome, Changed) and outcome.record is not None
    assert outcome.chat_id == NEW
    # Redrawn, the hands' buttons carry the new id.
    presses = [
        HandPress.unpack(button.callback_data)
        for slot, rendered in drafts(outcome.record)
        if slot.user_id is not None and rendered.markup is not None
        for row in rendered.markup.inline_keyboard
        for button in row
        if button.callback_data
    ]
    assert presses and {p.chat for p in presses} == {NEW}


async def test_a_lobby_moves_and_its_old_join_link_seats_in_the_new_chat(
    service: GameService,
) -> None:
    lobby = await seated(service, ANNA)
    outcome = await service.migrate_chat(CHAT, NEW)
    assert isinstance(outcome, Changed) and outcome.record is not None
    assert outcome.record.game.phase is Phase.LOBBY
    old_link = join_payload(CHAT, lobby.game.game_id)
    joined = await service.join_by_link(old_link, BORIS, is_member=member)
    assert isinstance(joined, Changed) and joined.chat_id == NEW


async def test_a_game_already_in_the_new_chat_stays_and_the_old_one_ends_unscored(
    service: GameService, storage: Storage, redis: Redis, redis_prefix: str
) -> None:
    """Somebody opened a lobby in the supergroup before the move: it is what people see
    there now, so it stays; the old game cannot be shown anywhere and ends, unscored."""
    await dealt(service, ANNA, BORIS)
    await storage.users.mark_started(GLEB.user_id)
    there = await service.new_lobby(NEW, GLEB, can_message=no)
    assert there.record is not None

    outcome = await service.migrate_chat(CHAT, NEW)

    assert isinstance(outcome, Changed) and outcome.record == there.record
    ended = outcome.closed
    assert ended is not None and ended.game.chat_id == CHAT
    assert ended.game.phase is Phase.FINISHED and ended.gone and ended.stopped_by == ""
    assert await storage.games.get(CHAT) == ended
    assert await storage.games.get(NEW) == there.record
    assert await storage.users.games_of(ANNA.user_id) == {}
    assert await storage.deadlines.due(10**10) == []
    assert await storage.stats.chat(NEW) == [] and await storage.stats.chat(CHAT) == []
    assert {user for user, _text in closed_notes(ended, clash=True)} == {1, 2}
    before = await everything(redis, redis_prefix)
    assert not isinstance(await service.migrate_chat(CHAT, NEW), Changed)
    assert await everything(redis, redis_prefix) == before


async def test_a_finished_game_stays_behind_but_a_series_between_games_moves(
    service: GameService, storage: Storage
) -> None:
    first = await dealt(service, ANNA, BORIS)
    await service.leave(CHAT, BORIS.user_id)
    outcome = await service.migrate_chat(CHAT, NEW)
    assert reason_of(outcome) is Reason.NO_GAME
    old = await storage.games.get(CHAT)
    assert old is not None and old.game.game_id == first.game.game_id
    assert await storage.games.get(NEW) is None
    assert len(await storage.stats.chat(NEW)) == 2  # the statistics moved all the same

    other = -100_888
    await storage.settings.set(other, ChatSettings(series=3))
    await storage.users.mark_started(ANNA.user_id)
    await service.new_lobby(other, ANNA, can_message=no)
    for player in (BORIS, VERA):
        await storage.users.mark_started(player.user_id)
        await service.join(other, player, can_message=no)
    await service.start(other, ANNA.user_id, is_admin=no)
    between = await service.leave(other, VERA.user_id)  # game 1 over; Аня and Борис go on
    assert between.record is not None
    moved = await service.migrate_chat(other, NEW + 1)
    assert isinstance(moved, Changed)
    nxt = await service.next_in_series(NEW + 1, between.record.game.game_id, ANNA)
    assert isinstance(nxt, Changed) and nxt.chat_id == NEW + 1


# -- the bot is removed from the group -------------------------------------------------------


async def test_a_removed_bot_ends_the_game_at_once_without_statistics(
    service: GameService, storage: Storage, redis: Redis, redis_prefix: str, clock: Clock
) -> None:
    await dealt(service, ANNA, BORIS)
    await shown(storage)
    outcome = await service.bot_removed(CHAT)
    assert isinstance(outcome, Changed)
    record = outcome.record
    assert record is not None and record.gone and record.stopped_by == ""
    assert record.game.phase is Phase.FINISHED
    assert await storage.games.get(CHAT) == record
    assert await storage.deadlines.due(10**10) == []
    assert await storage.users.games_of(ANNA.user_id) == {}
    assert await storage.stats.chat(CHAT) == []
    assert (await storage.stats.user(ANNA.user_id)).games == 0
    clock.now += 10_000
    assert reason_of(await service.expire_turn(CHAT)) is Reason.NO_GAME

    # Only the hands are drawn again, and they say the game is over.
    messages = drafts(record)
    assert table_slot(record.game.game_id) not in {slot.name for slot, _ in messages}
    assert {slot.chat_id for slot, _ in messages} == {ANNA.user_id, BORIS.user_id}
    for _slot, rendered in messages:
        assert rendered.text == translator("ru").t("stopped-hand")
        assert rendered.markup is None
    notes = dict(closed_notes(record, group="Tom <3 & co"))
    assert set(notes) == {ANNA.user_id, BORIS.user_id}
    assert "Tom &lt;3 &amp; co" in notes[ANNA.user_id]
    assert notes[ANNA.user_id] == translator("ru").t(
        "gone-removed", group="Tom &lt;3 &amp; co", lobby="no"
    )

    before = await everything(redis, redis_prefix)
    again = await service.bot_removed(CHAT)
    assert reason_of(again) is Reason.NO_GAME
    assert await everything(redis, redis_prefix) == before

    # Added back, the group plays again; the ended game's table is not touched.
    await storage.users.mark_started(ANNA.user_id)
    created = await service.new_lobby(CHAT, ANNA, can_message=no)
    assert isinstance(created, Changed) and created.previous == record


async def test_a_removed_bot_closes_a_lobby_and_leaves_a_finished_game_alone(
    service: GameService, storage: Storage
) -> None:
    await seated(service, ANNA, BORIS)
    closed = await service.bot_removed(CHAT)
    assert isinstance(closed, Changed) and closed.record is not None
    assert await storage.users.games_of(BORIS.user_id) == {}
    assert drafts(closed.record) == []
    notes = dict(closed_notes(closed.record))
    assert notes[BORIS.user_id] == translator("ru").t("gone-removed-untitled", lobby="yes")

    other = -100_999
    await storage.users.mark_started(ANNA.user_id)
    await service.new_lobby(other, ANNA, can_message=no)
    await service.join(other, BORIS, can_message=no)
    await service.start(other, ANNA.user_id, is_admin=no)
    finished = await service.leave(other, BORIS.user_id)
    assert finished.record is not None
    outcome = await service.bot_removed(other)
    assert reason_of(outcome) is Reason.NO_GAME and outcome.record is not None
    assert outcome.record.gone and outcome.record.stopped_by is None  # its result stands
    assert len(await storage.stats.chat(other)) == 2
