"""No game ever freezes, as players see it, with the real bot against the fake
Telegram and a real Redis: a group upgraded to a supergroup plays on there; a bot removed
mid-game ends the game and tells every player; a join link seats members only; input that
used to slip through is answered; a name with HTML stops a table cleanly; a stored game the
bot cannot read neither stops it at start nor blocks its chat."""

from __future__ import annotations

import random

import pytest

from bot.i18n import translator
from bot.model import ChatSettings, Phase
from bot.schema.settings import SettingError
from bot.services import join_payload, start_link
from bot.storage.games import SCHEMA, decode
from bot.ui.callbacks import HandPress, LobbyPress
from bot.ui.render import rules_text
from bot.ui.settings import error_text

from .conftest import World
from .fake_telegram import FakeMessage, FakeUser
from .fake_telegram.text import auto_entities
from .harness import Table, plain

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

RU = translator("ru")


def tr_of(user: FakeUser) -> str:
    return "uk" if user.language_code == "uk" else "ru"


async def private_says(world: World, user: FakeUser, html_text: str) -> FakeMessage:
    return await world.fake.wait_for_bot_message(
        world.fake.private_chat(user), plain(html_text), timeout=10
    )


# -- item 6: a group upgraded to a supergroup -------------------------------------------------


async def test_a_group_upgraded_to_a_supergroup_plays_on_there(fast_world: World) -> None:
    world = fast_world
    players = world.players(2)
    group = world.fake.add_group(
        "Basic night", creator=players[0], members=players, chat_type="group"
    )
    old = Table(world.fake, world.redis, world.prefix, players, group=group)
    await old.start_game()
    rng = random.Random(3)
    await old.press_random(await old.settled(), rng)
    before = await old.settled()
    hands = {slot: mid for slot, mid in old.message_ids.items() if slot.startswith("h:")}
    await old.drained()  # the old table shows the last move

    supergroup = world.fake.migrate_to_supergroup(group)
    new = Table(world.fake, world.redis, world.prefix, players, group=supergroup)

    # The table is posted anew in the supergroup; nothing is left under the old id.
    record = await new.wait_record(lambda r: new.table_message_id(r) is not None)
    assert record.game.game_id == before.game.game_id
    assert record.game.state == before.game.state
    assert await old.record() is None
    table = new.table_message(record)
    assert table is not None and table.chat.id == supergroup.id
    cards = LobbyPress(game=record.game.game_id, op="cards").pack()
    await world.fake.wait_for(lambda: table.find_button(cards) is not None)
    # The hands were redrawn in place, their buttons now naming the supergroup.
    record = await new.settled()
    assert {slot: mid for slot, mid in new.message_ids.items() if slot.startswith("h:")} == hands
    chats = {HandPress.unpack(data).chat for _user, _msg, data in new.hand_buttons(record)}
    assert chats == {supergroup.id}
    # A second lobby cannot be opened there: the game is the chat's.
    world.fake.user_sends(players[1], supergroup, "/newgame")
    await world.fake.wait_for_bot_message(supergroup, plain(RU.t("reply-exists")), timeout=10)
    # And it plays to the end there, counted under the new id.
    await new.play_to_end(rng)
    await new.says_game_over()
    counted = await world.redis.hgetall(new.keys.chat_stats(supergroup.id))
    assert counted[f"{players[0].id}:g".encode()] == b"1"
    assert not await world.redis.exists(old.keys.chat_stats(group.id))


# -- item 7: the bot removed mid-game ----------------------------------------------------------


async def test_a_bot_removed_mid_game_ends_it_and_tells_every_player(fast_world: World) -> None:
    world = fast_world
    table = world.table(2)
    await table.start_game()
    rng = random.Random(4)
    await table.press_random(await table.settled(), rng)
    playing = await table.settled()
    await table.drained()
    mark = world.fake.mark()

    world.fake.bot_removed_from_group(table.group, by=table.players[0])

    ended = await table.wait_record(lambda r: r.game.phase is Phase.FINISHED)
    assert ended.gone and ended.stopped_by == ""
    for user in table.players:
        tr = translator(tr_of(user))
        await private_says(world, user, tr.t("gone-removed", group=table.group.title, lobby="no"))
        hand = table.hand_message(ended, user)
        assert hand is not None
        await table.says(hand, tr.t("stopped-hand"))
        assert hand.all_buttons() == []
    await table.drained()
    # Nothing more was sent to the group (it would fail), and nothing was counted.
    assert world.fake.sends_and_edits(table.group, since=mark) == []
    assert not await world.redis.exists(table.keys.chat_stats(table.group.id))
    assert ended.game.state == playing.game.state


# -- item 8: the join link seats members only -------------------------------------------------


async def test_a_join_link_seats_only_members_of_the_group(fast_world: World) -> None:
    world = fast_world
    host, member, stranger, banned = world.players(4)
    group = world.fake.add_group("Members only", creator=host, members=[member, banned])
    table = Table(world.fake, world.redis, world.prefix, [host, member], group=group)
    world.fake.user_starts_bot(host)
    await world.fake.wait_for_bot_message(world.fake.private_chat(host))
    world.fake.user_sends(host, group, "/newgame")
    record = await table.wait_record(lambda r: r.game.seat_of(host.id) == 0)
    link = start_link(world.fake.bot_username, join_payload(group.id, record.game.game_id))
    world.fake.user_removed(banned, group)

    for outsider in (stranger, banned):
        world.fake.user_follows_link(outsider, link)
        await private_says(world, outsider, translator(tr_of(outsider)).t("start-not-member"))
    world.fake.user_follows_link(member, link)
    seated = await table.wait_record(lambda r: r.game.seat_of(member.id) is not None)
    assert {p.user_id for p in seated.game.players} == {host.id, member.id}


# -- item 11: input that slipped through -------------------------------------------------------


async def test_odd_numbers_and_posts_by_no_person_are_answered(fast_world: World) -> None:
    world = fast_world
    table = world.table(1)
    admin = table.players[0]
    for typed in ("²⁰", "٢٠", "-5"):
        world.fake.user_sends(admin, table.group, f"/set turn_timeout {typed}")
        error = SettingError("bad_value", "turn_timeout", typed)
        expected = error_text(error, ChatSettings(), RU)
        assert f"«{typed}»" in expected
        await world.fake.wait_for_bot_message(table.group, plain(expected), timeout=10)
    assert await table.redis.get(table.keys.settings(table.group.id)) is None

    # A command without a sender (a post on behalf of a channel carries no person).
    post = world.fake.world.add_message(
        table.group, None, text="/newgame", entities=auto_entities("/newgame")
    )
    world.fake._deliver_message(post)  # the fake has no "channel posts" helper yet
    await world.fake.wait_for_bot_message(
        table.group, plain(RU.t("reply-not-a-person")), timeout=10
    )
    assert await table.record() is None
    world.fake.user_sends(admin, table.group, "/rules")  # the bot still answers everyone
    rules = plain(rules_text(ChatSettings(turn_timeout=0), RU))  # the e2e default: no timer
    await world.fake.wait_for_bot_message(table.group, rules, timeout=10)


# -- item 13: a name with HTML in the stopped table --------------------------------------------


async def test_a_name_with_html_stops_the_table_cleanly(fast_world: World) -> None:
    world = fast_world
    tom = world.fake.add_user("Tom", last_name="<3", language_code="ru")
    [other] = world.players(1)
    group = world.fake.add_group("Hearts", creator=tom, members=[other])
    table = Table(world.fake, world.redis, world.prefix, [tom, other], group=group)
    record = await table.start_game()
    await table.settled()
    world.fake.user_sends(tom, group, "/stop")
    stopped = await table.wait_record(lambda r: r.game.phase is Phase.FINISHED)
    message = table.table_message(stopped)
    assert message is not None
    await table.says(message, RU.t("stopped-table", name="Tom &lt;3"))
    assert message.all_buttons() == []
    assert record.game.game_id == stopped.game.game_id


# -- item 12: a stored game the bot cannot read (restarts the bot: keep it last) --------------


async def test_an_unreadable_game_neither_stops_the_bot_nor_its_chat(fast_world: World) -> None:
    world = fast_world
    table = world.table(2)
    await table.all_start_bot()
    await table.gather()
    # Let the outbox finish with the lobby first: otherwise this very bot may be the one
    # that meets the unreadable record (as it should, but this test wants the restart to).
    await table.drained()
    key = table.keys.game(table.group.id)
    raw = await world.redis.get(key)
    assert isinstance(raw, bytes)
    broken = raw.replace(f'"schema":{SCHEMA}'.encode(), b'"schema":"four"')  # corrupt
    with pytest.raises(ValueError):
        decode(broken)
    await world.redis.set(key, broken)

    assert await world.bot.stop() == 0
    await world.bot.start()  # resume() meets it at once
    log_text = world.bot.log()
    warnings = [line for line in log_text.splitlines() if "cannot be read" in line]
    assert len(warnings) == 1 and str(table.group.id) in warnings[0]
    assert await world.redis.get(table.keys.broken(table.group.id)) == broken

    host = table.players[0]
    world.fake.user_sends(host, table.group, "/stop")
    await world.fake.wait_for_bot_message(table.group, plain(RU.t("reply-no-game")), timeout=10)
    world.fake.user_sends(host, table.group, "/newgame")
    lobby = await table.wait_record(lambda r: r.game.phase is Phase.LOBBY)
    assert lobby.game.seat_of(host.id) == 0
