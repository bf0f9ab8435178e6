"""Computer players at a group's table with the real bot, the fake Telegram and a
real Redis: seated from the lobby's buttons and commands, a game of one person and two
computers played to the end by pressing the shown buttons, «Сыграть ещё» keeping them, and
a bot restarted while a computer is about to move."""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator
from functools import partial

import pytest
import pytest_asyncio

from bot.i18n import private_language, translator
from bot.model import GameRecord, Phase
from bot.ui.callbacks import HandPress, LobbyPress

from .conftest import World, open_world
from .harness import STALE, Table

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

RU = translator("ru")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def slow_world(
    redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[World]:
    """A bot whose computer players wait two seconds before each move."""
    async for opened in open_world(
        redis_url,
        lambda: tmp_path_factory.mktemp("bot"),
        MESSAGES_PER_SECOND="500",
        GROUP_MESSAGES_PER_MINUTE="60",
        AI_PAUSE="2",
    ):
        yield opened


async def seat_computers(table: Table, *levels: str, seated: int = 1) -> None:
    """The lobby, where ``seated`` sit, gets a computer player per level (``/addbot``)."""
    person = table.players[0]
    for count, level in enumerate(levels, start=seated + 1):
        table.fake.user_sends(person, table.group, f"/addbot {level}")
        await table.wait_record(partial(_seats, count=count))


def _seats(record: GameRecord, *, count: int) -> bool:
    return len(record.game.players) == count


@pytest.mark.soak  # a whole game at the computers' pace: about 15 s
async def test_one_person_and_two_computers_play_to_the_end(fast_world: World) -> None:
    world = fast_world
    table = world.table(1)
    await table.all_start_bot()
    await table.gather()
    lobby = await table.lobby_message()
    assert await table.press_lobby(table.players[0], lobby, "bot+") == RU.t("answer-computer-added")
    await table.wait_record(lambda r: len(r.game.players) == 2)
    await seat_computers(table, "hard", seated=2)
    record = await table.wait_record(lambda r: len(r.game.players) == 3)
    assert [p.level for p in record.game.players] == [None, "normal", "hard"]
    await table.says(lobby, RU.t("lobby-computer", place=3, name="🤖 Маша", level="сильный"))
    await table.deal()
    finished = await table.play_to_end(random.Random(1))
    assert finished.game.phase is Phase.FINISHED
    assert [p.computer for p in finished.game.players].count(True) == 2
    table_message = table.table_message(finished)
    assert table_message is not None and "🤖 Федя" in (table_message.text or "")
    # Only the person has a private message.
    assert len(world.fake.bot_messages(world.fake.private_chat(table.players[0]))) == 2
    # «Сыграть ещё» keeps the computers.
    await table.again(finished)
    again = await table.wait_record(lambda r: r.game.phase is Phase.LOBBY)
    assert [p.level for p in again.game.players[1:]] == [
        p.level for p in finished.game.players if p.computer
    ]


async def test_a_restart_while_a_computer_is_about_to_move(slow_world: World) -> None:
    world = slow_world
    table = world.table(1)
    await table.all_start_bot()
    await table.gather()
    await seat_computers(table, "normal")
    await table.deal()
    rng = random.Random(4)
    while True:
        record = await table.settled()
        state = record.game.state
        assert state is not None and record.game.phase is Phase.PLAYING
        if any(record.game.players[s].computer for s in state.acting):
            break
        await table.press_random(record, rng)
    # The computer waits its two seconds: the bot is killed meanwhile, and started again.
    await world.bot.kill()
    await world.bot.start()
    moved = await table.wait_record(
        lambda r: r.game.state is not None and r.game.state.moves > state.moves, timeout=15
    )
    assert moved.game.phase in (Phase.PLAYING, Phase.FINISHED)


@pytest.mark.soak  # a whole game at the computers' pace: about 15 s
async def test_a_private_game_against_three_computers(fast_world: World) -> None:
    """``/play`` in the private chat, three computers seated with the buttons, and the game
    played to the end by pressing the buttons of the one message that shows it all."""
    world = fast_world
    person, table, lobby = await world.solo()
    record = await table.wait_record(lambda r: len(r.game.players) == 2)
    assert record.game.private and record.deadline is None
    for op, count in (("bot+h", 3), ("bot+e", 4)):
        await table.press_lobby(person, lobby, op)
        await table.wait_record(partial(_seats, count=count))
    await table.press_lobby(person, lobby, "start")
    rng = random.Random(6)
    give_up = time.monotonic() + 240  # a hard computer thinks 300 ms a move, longer on CI
    while time.monotonic() < give_up:
        record = await table.wait_record(lambda r: r.game.phase is not Phase.LOBBY)
        state = record.game.state
        assert state is not None and record.deadline is None  # no clock, alone
        if record.game.phase is Phase.FINISHED:
            break
        presses = [
            button.callback_data
            for button in lobby.all_buttons()
            if button.callback_data
            and button.callback_data.startswith("h:")
            and HandPress.unpack(button.callback_data).moves == state.moves
        ]
        if not presses:  # a computer is to act, or the message is about to show the move
            await table.waiter.pause(0.02)
            continue
        edits = lobby.edit_count
        answer = await table.answer(world.fake.user_presses(person, lobby, rng.choice(presses)))
        assert answer.text is None or answer.text in STALE
        await table._after_press(lobby, edits, state.moves)  # a move, or the pick step shown
    else:
        raise AssertionError("the game did not end")
    # One message in the chat besides the greeting: the lobby became the game, and it ends
    # with the finishing order and «Сыграть ещё».
    tr = translator(private_language(person.language_code))
    await table.says(lobby, tr.t("table-title-over"))
    again = LobbyPress(game=record.game.game_id, op="again").pack()
    await table.wait_for(lambda: lobby.find_button(again))
    messages = world.fake.bot_messages(table.group)
    assert [m.message_id for m in messages if m.all_buttons()] == [lobby.message_id]
