"""Telegram failing, as players see it: the real bot against a fake Telegram that fails the way the
real one does. A press whose answer fails, comes too late or is slow is still shown to
everybody at once; a player who deleted their hand gets it back with /start."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.i18n import private_language, translator
from bot.model import ChatSettings, Phase
from bot.storage import SettingsStore
from bot.turn_clock import CLOCK_GRACE

from .conftest import World, open_world
from .fake_telegram import QUERY_TOO_OLD, FakeTelegram, FakeUser, bad_request
from .harness import Table, plain

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


async def press_first_button(table: Table) -> tuple[FakeUser, str, int]:
    """Some player presses the first move button they are shown: (player, query, moves)."""
    record = await table.settled()
    assert record.game.state is not None
    user, message, data = table.hand_buttons(record)[0]
    return user, table.fake.user_presses(user, message, data), record.game.state.moves


async def shown_after(table: Table, moves: int) -> None:
    """The move after ``moves`` was saved and every hand shows it."""
    await table.wait_record(lambda r: r.game.state is not None and r.game.state.moves > moves)
    await table.settled()


@pytest.mark.parametrize("failure", ["server error", "query too old"])
async def test_a_press_whose_answer_fails_is_shown_all_the_same(
    fast_world: World, failure: str
) -> None:
    table = fast_world.table(2)
    await table.start_game()
    fake = fast_world.fake
    error = bad_request(QUERY_TOO_OLD) if failure == "query too old" else None
    for user in table.players:  # whoever presses first, their answer fails
        chat = fake.private_chat(user)
        if error is None:
            fake.server_error("answerCallbackQuery", chat=chat)
        else:
            fake.inject("answerCallbackQuery", error=error, chat=chat)
    _user, query, moves = await press_first_button(table)
    await shown_after(table, moves)
    assert not fake.callback_query(query).answered
    fake.clear_faults()


async def test_a_slow_answer_holds_up_nobody(fast_world: World) -> None:
    table = fast_world.table(3)
    await table.start_game()
    fake = fast_world.fake
    for user in table.players:
        fake.slow("answerCallbackQuery", 4.0, chat=fake.private_chat(user))
    _user, query, moves = await press_first_button(table)
    await shown_after(table, moves)
    assert not fake.callback_query(query).answered  # still on its way: nobody waited for it
    await fake.callback_answer(query, timeout=10)
    fake.clear_faults()


async def test_start_sends_a_deleted_hand_again(fast_world: World) -> None:
    table = fast_world.table(2)
    await table.start_game()
    record = await table.settled()
    fake = fast_world.fake
    user = table.players[0]
    hand = table.hand_message(record, user)
    assert hand is not None
    fake.user_deletes_message(user, hand)
    fake.user_starts_bot(user)
    await table.wait_record(lambda r: table.hand_message(r, user) not in (None, hand))
    record = await table.settled()
    again = table.hand_message(record, user)
    assert again is not None and again.text == hand.text
    assert fake.bot_messages(fake.private_chat(user))[-1] is again  # at the bottom


async def test_the_turn_clock_starts_when_the_buttons_arrive(fast_world: World) -> None:
    """Item 10: with a 10 s timer and the hands arriving 3 s late, the players who must act
    still get their 10 s, counted from the arrival."""
    world = fast_world
    table = world.table(2)
    settings = SettingsStore(world.redis, world.keys, ChatSettings())
    await settings.set(table.group.id, ChatSettings(turn_timeout=10))
    await table.all_start_bot()
    await table.gather()
    for user in table.players:
        world.fake.slow("sendMessage", 3.0, chat=world.fake.private_chat(user))
    before = time.time()
    await table.deal()
    record = await table.wait_record(
        lambda r: r.deadline is not None and r.deadline < before + CLOCK_GRACE + 10, timeout=10
    )
    assert record.deadline is not None
    assert record.deadline >= before + 3 + 10 - 0.5  # from the arrival, not from the deal
    world.fake.user_sends(table.players[0], table.group, "/stop")
    await table.wait_record(lambda r: r.game.phase is Phase.FINISHED)


@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_an_admin_whose_check_cannot_be_read_is_told_to_try_again(
    fast_world: World, lang: str
) -> None:
    """When Telegram's answer to getChatMember could not be read, an admin's
    command got no reply at all (and the log a traceback). Now the command and the press
    are answered «try again» (the reply in the group's language, the pop-up in the
    presser's), nothing changes, the log says it in one line, and trying again works."""
    world = fast_world
    table = world.table(2)
    fake = world.fake
    await SettingsStore(world.redis, world.keys, ChatSettings()).set(
        table.group.id, ChatSettings(turn_timeout=0, language=lang)
    )
    tr = translator(lang)
    await table.all_start_bot()
    await table.gather()
    lobby = await table.lobby_message()
    admin = table.players[1]  # not the lobby's creator: the bot must ask Telegram
    fake.set_member_status(table.group, admin, "administrator")

    fake.server_error("getChatMember", chat=table.group)
    mark = fake.last_message_id(table.group)
    fake.user_sends(admin, table.group, "/startgame")
    await fake.wait_for_bot_message(
        table.group, plain(tr.t("reply-admin-unknown")), since=mark, timeout=10
    )
    fake.inject("getChatMember", drop_connection=True, chat=table.group)
    own = translator(private_language(admin.language_code))
    assert await table.press_lobby(admin, lobby, "start") == own.t("answer-admin-unknown")
    record = await table.record()
    assert record is not None and record.game.phase is Phase.LOBBY

    assert await table.press_lobby(admin, lobby, "start") == own.t("answer-started")
    await table.wait_record(lambda r: r.game.phase is Phase.PLAYING)
    said = f"cannot tell whether {admin.id} is an admin of {table.group.id}"
    assert world.bot.log().count(said) == 2
    assert "Traceback" not in world.bot.log()


OUTAGE = 40.0  # seconds of 5xx, as measured: each message's back-off grew to 16 s


@pytest.mark.soak  # a 40 s outage
async def test_every_message_catches_up_soon_after_telegram_answers_again(
    fast_world: World,
) -> None:
    """Every send and edit fails for 40 s; once Telegram answers again, the
    hands and the table show the game within a few seconds (the first success wakes every
    waiting message), not each at its own back-off, which used to be 20 to 30 s away."""
    table = fast_world.table(2)
    await table.start_game()
    await table.settled()
    fake = fast_world.fake
    mark = fake.mark()
    outage = [fake.server_error(m, times=None) for m in ("sendMessage", "editMessageText")]
    _user, query, moves = await press_first_button(table)
    assert (await table.answer(query)).text is None
    moved = await table.wait_record(
        lambda r: r.game.state is not None and r.game.state.moves > moves
    )
    first = await table.wait_for(lambda: next(iter(fake.errors(since=mark)), None))
    await asyncio.sleep(max(0.0, first.at + OUTAGE - time.monotonic()))  # the outage lasts
    assert table.outdated(moved)  # nothing got through meanwhile
    for fault in outage:
        fault.remove()
    await table.wait_for(lambda: not table.outdated(moved), timeout=8)


async def test_the_bot_starts_while_telegram_fails_to_set_its_menus(
    redis_url: str, tmp_path: Path
) -> None:
    """A 5xx on ``setMyCommands`` at start: one warning line, and the bot plays on (it
    used to stop with a traceback); the menus come with the next start."""
    async for world in open_world(redis_url, lambda: tmp_path, _fail_menus):
        table = world.table(2)
        await table.start_game()
        log = world.bot.log()
        assert log.count("the command menus were not set") == 1, log


def _fail_menus(fake: FakeTelegram) -> None:
    fake.server_error("setMyCommands", times=None)
