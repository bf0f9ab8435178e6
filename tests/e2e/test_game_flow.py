"""Whole games with the real bot process, the fake Telegram and a real Redis, played by
pressing only buttons the bot shows (chosen at random with a seeded RNG), with the
production budget of sends and edits per group; and a bot killed and restarted mid-game."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.delivery.host import LEASE_SECONDS
from bot.i18n import private_language, translator
from bot.model import Phase

from .conftest import World
from .harness import Stats

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

RU = translator("ru")


async def test_two_player_game_is_played_to_the_end_and_again(world: World) -> None:
    table = world.table(2)
    await table.start_game()
    record = await table.play_to_end(random.Random(2))
    await table.says_game_over()
    assert record.game.log[-1]["e"] == "GameOver"

    # "Play again": a new lobby with the same players; the old table loses its buttons.
    old = table.table_message(record)
    assert old is not None
    assert old.find_button(RU.t("btn-again")) is not None
    answer = await table.press_lobby(table.players[1], old, "again")
    assert answer == translator(private_language(table.players[1].language_code)).t(
        "answer-created"
    )
    lobby = await table.wait_record(lambda r: r.game.phase is Phase.LOBBY)
    assert [p.user_id for p in lobby.game.players] == [p.user_id for p in record.game.players]
    assert lobby.game.creator_id == table.players[1].id
    await world.fake.wait_for(lambda: not old.buttons, timeout=30)
    await table.deal()
    again = await table.settled()
    assert again.game.state is not None and again.game.state.moves == 0
    # The loser deals the next game; after a draw (the deal is random: it happens) the same
    # dealer deals again (R-DEAL-1).
    first = record.game.state
    assert first is not None
    dealer = first.dealer if first.durak is None else first.durak
    assert again.game.players[again.game.state.dealer].user_id == (
        record.game.players[dealer].user_id
    )


async def test_four_player_game_without_a_bot_api_error(world: World) -> None:
    table = world.table(4)
    await table.all_start_bot()
    await table.gather()
    mark = world.fake.mark()
    await table.deal()
    stats = Stats()
    await table.play_to_end(random.Random(4), stats=stats)
    await table.says_game_over()
    await table.drained(timeout=30)
    errors = [e for e in world.fake.errors(since=mark) if e.method != "getUpdates"]
    assert errors == []
    stats.calls = len(world.fake.calls(since=mark))
    stats.max_group_window = world.fake.max_sends_and_edits_in_window(table.group)
    assert stats.max_group_window <= 19
    assert stats.latency(0.99) < 1.0
    print(
        f"\n4 players: {stats.moves} moves, {stats.calls_per_move:.2f} Bot API calls per move,"
        f" at most {stats.max_group_window} group sends+edits in 60 s, press -> answer"
        f" median {stats.latency(0.5) * 1000:.1f} ms, p99 {stats.latency(0.99) * 1000:.1f} ms"
    )


@pytest.mark.soak  # a bot started three times and a whole game: about 20 s
async def test_bot_killed_and_restarted_mid_game_goes_on(world: World) -> None:
    table = world.table(3)
    await table.start_game()
    rng = random.Random(3)
    for _ in range(12):
        await table.press_random(await table.settled(), rng)
    before = await table.settled()
    await world.bot.kill()
    # The killed bot's outbox worker may still hold the chat's lease (the group's budget
    # holds back the table's edits, so it had not finished): nothing of this game can be
    # shown until that lease lapses, up to LEASE_SECONDS after the kill. A press made
    # meanwhile is answered, but its effect shows only then (a pick changes no position,
    # so ``settled`` does not wait for it).
    lease = table.keys.outbox_lease(table.group.id)
    killed = await world.redis.get(lease)

    # A press while the bot is down waits in Telegram's queue and is served after the start.
    user, message, data = rng.choice(table.hand_buttons(before))
    query = world.fake.user_presses(user, message, data)
    await world.bot.start()
    answer = await world.fake.callback_answer(query, timeout=15)
    assert answer.text is None
    async with asyncio.timeout(2 * LEASE_SECONDS):  # the restarted bot may take the game on
        while killed is not None and await world.redis.get(lease) == killed:
            await table.waiter.pause(0.05)
    record = await table.play_to_end(rng)
    assert record.game.state is not None and before.game.state is not None
    assert record.game.state.moves > before.game.state.moves
    await table.says_game_over()
    # The restarted bot edited the same messages: a greeting and one hand per player, and
    # one table in the group.
    for user in table.players:
        assert len(world.fake.bot_messages(world.fake.private_chat(user))) == 2
    assert len(world.fake.bot_messages(table.group)) == 1
