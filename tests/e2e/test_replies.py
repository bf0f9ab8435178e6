"""A group's replies to commands, and its players' hands, with the production budget of a
group (19 sends and edits a minute): replies go out in the order of the commands, a few at
once when the budget allows rather than one every four seconds, and before the table shows
what a later command did; the hands of a new deal go at once, whatever the group's table
waits for. The real bot, a real Redis, the fake Bot API."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.i18n import translator
from bot.model import Phase
from bot.ui.callbacks import LobbyPress

from .conftest import World, open_world
from .fake_telegram import FakeMessage
from .harness import plain

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

RU = translator("ru")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def group_budget(
    redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[World]:
    async for opened in open_world(
        redis_url, lambda: tmp_path_factory.mktemp("bot"), MESSAGES_PER_SECOND="500"
    ):
        yield opened


async def test_replies_go_in_the_order_of_the_commands_a_few_at_once(group_budget: World) -> None:
    world, fake = group_budget, group_budget.fake
    table = world.table(2)
    admin = table.players[0]
    await table.all_start_bot()
    await table.gather()
    lobby = await table.lobby_message()
    await table.says(lobby, table.players[1].first_name)  # the lobby shows both: it went
    # The lobby took some of the group's budget: start from a full one (its GCRA key).
    await world.redis.delete(table.keys.outbox_rate(table.group.id))
    commands = [
        fake.user_sends(admin, table.group, f"/set {key} {value}")
        for key, value in (
            ("series", "3"),
            ("turn_timeout", "30"),
            ("deck", "24"),
            ("transfer", "on"),
        )
    ]
    replies = await fake.wait_for(lambda: _replies_to(fake.bot_messages(table.group), commands), 30)
    # In the order of the commands:
    answered = [reply.reply_to.message_id for reply in replies if reply.reply_to is not None]
    assert answered == [command.message_id for command in commands]
    sent = [
        call.at
        for call in fake.calls("sendMessage", chat=table.group)
        if call.ok and any(call.params.get("text") == reply.raw_text for reply in replies)
    ]
    assert len(sent) == 4
    # The first three at once (within the group's burst), not one every 4 s.
    # A few at once (the group's burst, shared with the lobby's edits), not one every 4 s.
    assert sent[1] - sent[0] < 2.0, sent


async def test_a_refusal_goes_before_the_table_shows_a_later_command(group_budget: World) -> None:
    world, fake = group_budget, group_budget.fake
    table = world.table(2)
    admin, member = table.players
    await table.start_game()
    await table.settled()
    refused = fake.user_sends(member, table.group, "/stop")  # not theirs to stop
    fake.user_sends(admin, table.group, "/stop")
    record = await table.wait_record(lambda r: r.game.phase is Phase.FINISHED)
    message = table.table_message(record)
    assert message is not None
    stopped = plain(RU.t("stopped-table", name=admin.full_name))
    await table.says(message, RU.t("stopped-table", name=admin.full_name))
    refusal = await fake.wait_for(
        lambda: _replies_to(fake.bot_messages(table.group), [refused]), 30
    )
    calls = fake.calls(chat=table.group)
    said = next(i for i, c in enumerate(calls) if c.params.get("text") == refusal[0].raw_text)
    shown = next(
        i
        for i, c in enumerate(calls)
        if c.method == "editMessageText" and stopped in plain(str(c.params.get("text", "")))
    )
    assert said < shown, "the table showed the later /stop before the earlier refusal"


def _replies_to(sent: list[FakeMessage], commands: list[FakeMessage]) -> list[FakeMessage]:
    """The bot's replies to ``commands``, oldest first, once there is one for each."""
    ids = {command.message_id for command in commands}
    replies = [m for m in sent if m.reply_to is not None and m.reply_to.message_id in ids]
    return replies if len(replies) == len(commands) else []


async def test_the_hands_of_a_deal_go_at_once_while_the_groups_table_waits(
    group_budget: World,
) -> None:
    world, fake = group_budget, group_budget.fake
    table = world.table(4)
    await table.all_start_bot()
    await table.gather()
    lobby = await table.lobby_message()
    await table.says(lobby, table.players[-1].first_name)  # the lobby shows everybody
    # Telegram asks the group to wait (its "retry after"): the table may not change for 5 s.
    await world.redis.set(table.keys.outbox_block(table.group.id), "1", px=5000)
    chats = [fake.private_chat(user) for user in table.players]
    before = [fake.last_message_id(chat) for chat in chats]
    started = time.monotonic()
    await table.press_lobby(table.players[0], lobby, "start")
    await table.wait_for(
        lambda: all(fake.last_message_id(c) > b for c, b in zip(chats, before, strict=True)),
        timeout=3.0,
    )
    assert time.monotonic() - started < 3.0
    record = await table.record()
    assert record is not None
    start = LobbyPress(game=record.game.game_id, op="start").pack()
    assert lobby.find_button(start) is not None  # the table waited: it still shows the lobby
