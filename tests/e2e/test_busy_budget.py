"""With the real bot, the fake Telegram and a real Redis: people playing alone
against computers (``/play``) while a group plays, under a small budget over all chats.
The group's turn clock starts only once its players who must act were shown their
buttons, also while the solo games fill the budget. (Who goes first is tested on the
outbox itself, where the order is exact: ``test_outbox.py``.)"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from collections.abc import AsyncIterator
from functools import partial

import pytest
import pytest_asyncio

from bot.model import ChatSettings, GameRecord, Phase
from bot.storage import SettingsStore
from bot.ui.callbacks import HandPress

from .conftest import World, open_world
from .fake_telegram import CallRecord, FakeUser
from .harness import STALE, Table

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

SOLO_GAMES = 8
COMPUTERS = 5  # a solo game's, as in the issue
GROUP_PRESSES = 8
TURN = 120  # the group's turn timer, seconds: it runs while the solo games are dealt
HAND_BUTTON = re.compile(r"""["']h:""")  # callback data of a hand button in reply_markup


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def busy_world(
    redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[World]:
    """Four messages a second over all chats, and computers that take 0.3 s a move: the
    solo games' computer moves alone want far more than that."""
    async for opened in open_world(
        redis_url,
        lambda: tmp_path_factory.mktemp("bot"),
        MESSAGES_PER_SECOND="4",
        GROUP_MESSAGES_PER_MINUTE="60",
        AI_PAUSE="0.3",
    ):
        yield opened


def _seats(record: GameRecord, *, count: int) -> bool:
    return len(record.game.players) == count


def _in(record: GameRecord, *, phase: Phase) -> bool:
    return record.game.phase is phase


async def solo_game(world: World, person: FakeUser) -> Table:
    """``/play`` (one computer), more easy computers up to ``COMPUTERS``, and the deal."""
    chat = world.fake.private_chat(person)
    table = Table(world.fake, world.redis, world.prefix, [person], group=chat, patience=6)
    world.fake.user_starts_bot(person)
    world.fake.user_sends_private(person, "/play")
    lobby = await table.lobby_message()
    for count in range(3, COMPUTERS + 2):
        await table.press_lobby(person, lobby, "bot+e")
        await table.wait_record(partial(_seats, count=count))
    await table.press_lobby(person, lobby, "start")
    await table.wait_record(partial(_in, phase=Phase.PLAYING))
    return table


async def play_alone(table: Table, rng: random.Random) -> None:
    """The person presses a button of the current position a second or two after it is
    shown (a person's pace: at machine speed, people waiting would fill the budget), and
    plays again when the game is over."""
    person = table.players[0]
    message = await table.lobby_message()
    while True:
        record = await table.record()
        state = None if record is None else record.game.state
        assert record is not None and state is not None
        if record.game.phase is Phase.FINISHED:
            await table.press_lobby(person, message, "again")
            await table.wait_record(partial(_in, phase=Phase.LOBBY))
            message = await table.lobby_message()
            await table.press_lobby(person, message, "start")
            await table.wait_record(partial(_in, phase=Phase.PLAYING))
            continue
        presses = [
            button.callback_data
            for button in message.all_buttons()
            if button.callback_data
            and button.callback_data.startswith("h:")
            and HandPress.unpack(button.callback_data).moves == state.moves
        ]
        if not presses:
            await table.waiter.pause(0.05)
            continue
        await asyncio.sleep(rng.uniform(1.5, 3.0))  # thinking
        edits = message.edit_count
        query = table.fake.user_presses(person, message, rng.choice(presses))
        answer = await table.answer(query, timeout=30)
        assert answer.text is None or answer.text in STALE
        with contextlib.suppress(TimeoutError):
            await table._after_press(message, edits, state.moves)


LAG = 0.5  # seconds the fake's note of a call may trail the bot's


def delivered(call: CallRecord) -> bool:
    return call.ok and call.method in ("sendMessage", "editMessageText")


def with_buttons(call: CallRecord) -> bool:
    return HAND_BUTTON.search(str(call.params.get("reply_markup", ""))) is not None


async def test_the_turn_clock_starts_at_the_buttons_while_solo_games_fill_the_budget(
    busy_world: World,
) -> None:
    """Only presses that made a move count: a pick (the two-step cover's first step) redraws
    the picker's buttons in the same position, whose clock started when it was first shown
    (before the pick). Counting the pick's redraw as the buttons' arrival made this test
    see the deadline 4.5-5.5 s "early": the time from the position's
    buttons to the pick."""
    world, fake = busy_world, busy_world.fake
    rng = random.Random(18)
    table = world.table(2)
    table.patience = 6
    chats = {user.id: fake.private_chat(user).id for user in table.players}
    settings = SettingsStore(world.redis, world.keys, ChatSettings())
    await settings.set(table.group.id, ChatSettings(turn_timeout=TURN))
    await table.start_game()
    await table.settled()
    people = [fake.add_user(f"Соло{i}", language_code="ru") for i in range(SOLO_GAMES)]
    solos = await asyncio.gather(*(solo_game(world, person) for person in people))
    solo_chats = {solo.group.id for solo in solos}
    tasks = [asyncio.create_task(play_alone(t, random.Random(i))) for i, t in enumerate(solos)]
    try:
        start = fake.mark()
        for _ in range(GROUP_PRESSES):
            record = await table.settled()
            if record.game.phase is Phase.FINISHED:
                break
            mark, moves = fake.mark(), _moves(record)
            await table.press_random(record, rng)
            record = await table.settled()
            if _moves(record) == moves:  # a pick or its undo: the same position
                continue
            calls = [c for c in fake.calls(since=mark) if delivered(c)]
            arrived = buttons_arrived(record, calls, chats)
            if arrived is None:  # the game is over, or somebody's buttons did not change
                continue
            # The clock started when the buttons arrived, not at the move (nor its grace).
            wall = arrived + time.time() - time.monotonic()
            record = await table.wait_record(partial(_clock_started, near=wall + TURN))
            # (Within LAG: the fake notes a call as it handles it.)
            assert record.deadline is not None and record.deadline >= wall + TURN - LAG
        # The solo games went on meanwhile: the group played beside them, not after them.
        solo = [c for c in fake.calls(since=start) if delivered(c) and c.chat_id in solo_chats]
        assert len(solo) >= 2 * GROUP_PRESSES
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _moves(record: GameRecord) -> int:
    assert record.game.state is not None
    return record.game.state.moves


def _clock_started(record: GameRecord, *, near: float) -> bool:
    return record.deadline is not None and record.deadline < near + 2


def buttons_arrived(
    record: GameRecord, calls: list[CallRecord], chats: dict[int, int]
) -> float | None:
    """When the last of the players who must act in ``record`` got their buttons among
    ``calls`` (monotonic time; ``chats``: user -> private chat); None if one of them got no
    new buttons or nobody must act (the game is over)."""
    state = record.game.state
    if state is None or record.game.phase is not Phase.PLAYING or not state.acting:
        return None
    arrivals = []
    for seat in state.acting:
        chat = chats[record.game.players[seat].user_id]
        first = next((c.at for c in calls if c.chat_id == chat and with_buttons(c)), None)
        if first is None:
            return None
        arrivals.append(first)
    return max(arrivals)
