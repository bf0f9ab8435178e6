"""House rules by admin command, end to end: the real bot process against the fake Telegram
and a real Redis. Only admins change anything (an anonymous admin too); a change reaches
the next game, or the open lobby at once; bad keys and values get the valid ones; settings
survive a restart; the group's language follows the setting."""

from __future__ import annotations

import pytest

from bot.i18n import private_language, translator
from bot.model import ChatSettings, Phase
from bot.storage import SettingsStore
from bot.ui.callbacks import SettingsPress
from bot.ui.settings import setting_name, value_words
from engine import ThrowIn

from .conftest import World
from .fake_telegram import FakeMessage, FakeUser
from .harness import Table, plain

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

RU = translator("ru")
UK = translator("uk")
DEFAULTS = ChatSettings(turn_timeout=0)  # the harness runs the bot with DEFAULT_TURN_TIMEOUT=0


def store(world: World) -> SettingsStore:
    return SettingsStore(world.redis, world.keys, DEFAULTS)


def changed_text(key: str, value: str, message_id: str = "settings-changed") -> str:
    return plain(RU.t(message_id, name=setting_name(key, RU), value=value_words(key, value, RU)))


async def command(world: World, table: Table, user: FakeUser | None, text: str, reply: str) -> None:
    """``user`` (None: an anonymous admin) sends ``text``; the bot answers with ``reply``."""
    since = world.fake.last_message_id(table.group)
    if user is None:
        world.fake.anonymous_admin_sends(table.group, text)
    else:
        world.fake.user_sends(user, table.group, text)
    await world.fake.wait_for_bot_message(table.group, plain(reply), since=since)


async def open_settings(world: World, table: Table, user: FakeUser) -> FakeMessage:
    since = world.fake.last_message_id(table.group)
    world.fake.user_sends(user, table.group, "/settings")
    return await world.fake.wait_for_bot_message(
        table.group, plain(RU.t("settings-title")), since=since
    )


async def press(
    world: World, user: FakeUser, message: FakeMessage, op: str, key: str = "", value: str = ""
) -> str | None:
    """Press a button the message shows; the pop-up text."""
    data = SettingsPress(op=op, key=key, value=value).pack()
    await world.fake.wait_for(lambda: message.find_button(data) is not None)
    answer = await world.fake.callback_answer(world.fake.user_presses(user, message, data))
    return answer.text


async def test_only_admins_change_the_settings(fast_world: World) -> None:
    world = fast_world
    table = world.table(2)
    admin, member = table.players
    message = await open_settings(world, table, admin)
    assert message.buttons
    edits = message.edit_count
    # A member's press: a pop-up in their language, nothing changes.
    own = translator(private_language(member.language_code))
    assert await press(world, member, message, "set", "transfer", "on") == own.t(
        "settings-not-admin"
    )
    assert await press(world, member, message, "open", "deck") == own.t("settings-not-admin")
    await command(world, table, member, "/set throw_in all", RU.t("settings-not-admin"))
    # A member may look: the rules without buttons.
    since = world.fake.last_message_id(table.group)
    world.fake.user_sends(member, table.group, "/settings")
    shown = await world.fake.wait_for_bot_message(
        table.group, plain(RU.t("settings-admins-only")), since=since
    )
    assert shown.buttons == []
    await table.drained()
    assert message.edit_count == edits
    # Telegram was asked once about the member: the answer is kept for a minute.
    asked = [
        call
        for call in world.fake.calls("getChatMember", chat=table.group)
        if call.params.get("user_id") in (member.id, str(member.id))
    ]
    assert len(asked) == 1
    assert await world.redis.get(world.keys.settings(table.group.id)) is None


async def test_an_admin_sets_the_rules_and_the_next_game_is_dealt_by_them(
    fast_world: World,
) -> None:
    world = fast_world
    table = world.table(2)
    admin = table.players[0]
    message = await open_settings(world, table, admin)
    # throw_in: a list of its values, then the choice.
    assert await press(world, admin, message, "open", "throw_in") is None
    await table.says(message, RU.t("settings-pick", name=setting_name("throw_in", RU)))
    assert await press(world, admin, message, "set", "throw_in", "all") == changed_text(
        "throw_in", "all"
    )
    await table.says(message, RU.t("settings-row", name="Подкидывают", value="все"))
    # deck: the same way.
    await press(world, admin, message, "open", "deck")
    assert await press(world, admin, message, "set", "deck", "52") == changed_text("deck", "52")
    await table.says(message, value_words("deck", "52", RU))
    # Done: the final settings stay, the buttons go.
    assert await press(world, admin, message, "done") is None
    await world.fake.wait_for(lambda: not message.buttons)
    await table.says(message, RU.t("settings-title-done"))
    assert value_words("throw_in", "all", RU) in (message.text or "")
    saved = await store(world).get(table.group.id)
    assert (saved.rules.deck, saved.rules.throw_in, saved.rules.max_players) == (
        52,
        ThrowIn.ALL,
        8,
    )

    await table.all_start_bot()
    await table.gather()
    lobby = await table.lobby_message()
    await table.says(lobby, RU.t("rules-line-throw-in-all"))
    record = await table.deal()
    state = record.game.state
    assert state is not None
    assert state.rules.deck == 52 and state.rules.throw_in is ThrowIn.ALL
    assert len(state.stock) == 52 - 2 * 6

    # During the game: saved, and said to apply from the next game; the game keeps its rules.
    await command(
        world,
        table,
        admin,
        "/set throw_in neighbors",
        changed_text("throw_in", "neighbors", "settings-changed-after-this-game"),
    )
    running = await table.record()
    assert running is not None and running.game.phase is Phase.PLAYING
    assert running.game.state is not None
    assert running.game.state.rules.throw_in is ThrowIn.ALL
    assert (await store(world).get(table.group.id)).rules.throw_in is ThrowIn.NEIGHBORS


async def test_an_anonymous_admin_changes_a_setting(fast_world: World) -> None:
    world = fast_world
    table = world.table(2)
    await command(world, table, None, "/set transfer on", changed_text("transfer", "on"))
    assert (await store(world).get(table.group.id)).rules.transfer is True
    since = world.fake.last_message_id(table.group)
    world.fake.anonymous_admin_sends(table.group, "/settings")
    message = await world.fake.wait_for_bot_message(
        table.group, plain(RU.t("settings-title")), since=since
    )
    assert message.find_button(SettingsPress(op="set", key="transfer", value="off").pack())


async def test_set_with_a_bad_key_or_value_lists_the_valid_ones(fast_world: World) -> None:
    world = fast_world
    table = world.table(2)
    admin = table.players[0]
    keys = (
        "deck, max_players, throw_in, first_bout_limit, no_trump_start, next_game_start, "
        "transfer, transfer_first_bout, teams, trump, top_card, trump_six_exchange, pogony, blind, "
        "turn_timeout, series, language, ai_level, show_hands_after"
    )
    await command(
        world, table, admin, "/set jokers 2", RU.t("settings-unknown-key", key="jokers", keys=keys)
    )
    await command(
        world,
        table,
        admin,
        "/set throw_in everybody",
        RU.t(
            "settings-bad-value",
            key="throw_in",
            value="everybody",
            values="neighbors, all, neighbors_first_rank",
        ),
    )
    await command(
        world,
        table,
        admin,
        "/set max_players 9",
        RU.t(
            "settings-bad-value",
            key="max_players",
            value="9",
            values=RU.t("set-values-range", min=2, max=6),
        ),
    )
    await command(world, table, admin, "/set deck", RU.t("settings-usage"))
    await command(world, table, table.players[1], "/set", RU.t("set-list-title"))
    assert await world.redis.get(world.keys.settings(table.group.id)) is None


async def test_settings_survive_a_restart(fast_world: World) -> None:
    world = fast_world
    table = world.table(2)
    admin = table.players[0]
    await command(world, table, admin, "/set series 5", changed_text("series", "5"))
    await command(world, table, admin, "/set turn_timeout 30", changed_text("turn_timeout", "30"))
    assert await world.bot.stop() == 0
    assert "Traceback" not in world.bot.log()
    await world.bot.start()
    await command(world, table, admin, "/rules", RU.t("rules-series", count=5))
    message = await open_settings(world, table, admin)
    await table.says(message, RU.t("settings-row", name="Серия", value="5 игр"))
    await table.says(message, RU.t("settings-row", name="Время на ход", value="30 с"))


async def test_a_lobby_of_three_refuses_max_players_two(fast_world: World) -> None:
    world = fast_world
    table = world.table(3)
    admin = table.players[0]
    await table.all_start_bot()
    await table.gather()
    lobby = await table.lobby_message()
    refusal = RU.t("settings-too-many-seated", seated=3, limit=2)
    await command(world, table, admin, "/set max_players 2", refusal)
    message = await open_settings(world, table, admin)
    await press(world, admin, message, "open", "max_players")
    assert await press(world, admin, message, "set", "max_players", "2") == refusal
    record = await table.record()
    assert record is not None and record.game.settings.rules.max_players == 6
    assert (await store(world).get(table.group.id)).rules.max_players == 6
    # Three still fit: the lobby follows at once and its rules line says so.
    await command(
        world,
        table,
        admin,
        "/set max_players 3",
        changed_text("max_players", "3", "settings-changed-now"),
    )
    await table.says(lobby, RU.t("rules-line-players", count=3))
    record = await table.record()
    assert record is not None and record.game.settings.rules.max_players == 3


async def test_the_language_setting_switches_the_group_to_ukrainian(fast_world: World) -> None:
    world = fast_world
    table = world.table(2)
    admin = table.players[0]
    message = await open_settings(world, table, admin)
    answer = await press(world, admin, message, "set", "language", "uk")
    own = translator(private_language(admin.language_code))  # the pop-up: the admin's own
    assert answer == own.t(
        "settings-changed", name=own.t("setting-language"), value=own.t("lang-uk")
    )
    await table.says(message, UK.t("settings-title"))
    assert message.find_button(SettingsPress(op="set", key="language", value="ru").pack())
    await command(world, table, admin, "/rules", UK.t("rules-title"))
    await command(world, table, admin, "/help", UK.t("help").splitlines()[0])
    await command(world, table, admin, "/set", UK.t("set-list-title"))
    await table.all_start_bot()
    world.fake.user_sends(admin, table.group, "/newgame")
    lobby = await table.lobby_message()
    await table.says(lobby, UK.t("lobby-gathering"))


async def test_the_command_menu_and_help_name_settings_and_set(fast_world: World) -> None:
    world = fast_world
    for lang, tr in (("ru", RU), ("uk", UK)):
        commands = dict(world.fake.commands(scope={"type": "all_group_chats"}, language_code=lang))
        assert commands["settings"] == tr.t("command-settings")
        assert commands["set"] == tr.t("command-set")
        assert "/settings" in tr.t("help") and "/set " in tr.t("help")
    table = world.table(1)
    since = world.fake.last_message_id(table.group)
    world.fake.user_sends(table.players[0], table.group, "/help")
    await world.fake.wait_for_bot_message(table.group, "/settings", since=since)
    # In private: the person's own rules, for their games with computer players there.
    person = table.players[0]
    world.fake.user_sends_private(person, "/settings")
    tr = translator(private_language(person.language_code))
    await world.fake.wait_for_bot_message(
        world.fake.private_chat(person), plain(tr.t("settings-title"))
    )
