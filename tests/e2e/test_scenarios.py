"""The real bot process against the fake Telegram and a real Redis: joining through a deep
link, stale and forged presses, people who do not play, presses at the same moment, /stop,
the commands, and the turn timeout."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.i18n import private_language, translator
from bot.model import ChatSettings, Phase
from bot.storage import SettingsStore
from bot.ui.callbacks import HandPress, LobbyPress, encode_action
from engine import Take, Throw, legal_actions
from engine.cards import deck_mask

from .conftest import World
from .harness import Table, plain

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

RU = translator("ru")
UK = translator("uk")


async def test_join_through_the_deep_link(fast_world: World) -> None:
    world = fast_world
    host, stranger, other = world.players(3)
    group = world.fake.add_group("Deep links", creator=host, members=[stranger, other])
    table = Table(world.fake, world.redis, world.prefix, [host, stranger, other], group=group)
    world.fake.user_starts_bot(host)
    await world.fake.wait_for_bot_message(world.fake.private_chat(host))
    world.fake.user_sends(host, group, "/newgame")
    lobby = await table.lobby_message()
    record = await table.wait_record(lambda r: r.game.seat_of(host.id) == 0)

    # Join pressed by someone who never started the bot: the answer opens the bot's link.
    join = LobbyPress(game=record.game.game_id, op="join").pack()
    answer = await world.fake.callback_answer(world.fake.user_presses(stranger, lobby, join))
    assert answer.url is not None and "start=" in answer.url
    assert (await table.wait_record(lambda r: True)).game.seat_of(stranger.id) is None
    world.fake.user_follows_link(stranger, answer.url)
    await table.wait_record(lambda r: r.game.seat_of(stranger.id) == 1)
    await world.fake.wait_for_bot_message(
        world.fake.private_chat(stranger), plain(UK.t("start-joined", name=stranger.first_name))
    )
    await world.fake.wait_for(lambda: stranger.first_name in (lobby.text or ""))

    # /join by someone who never started the bot: a reply with a link button.
    world.fake.user_sends(other, group, "/join")
    reply = await world.fake.wait_for_bot_message(
        group, plain(RU.t("reply-need-start", name=other.first_name))
    )
    [[button]] = reply.buttons
    assert button.url is not None
    world.fake.user_follows_link(other, button.url)
    await table.wait_record(lambda r: r.game.seat_of(other.id) == 2)
    await world.fake.wait_for(lambda: other.first_name in (lobby.text or ""))


async def test_stale_and_forged_presses_change_nothing(fast_world: World) -> None:
    world = fast_world
    table = world.table(2)
    await table.start_game()
    first = await table.settled()
    assert first.game.state is not None
    attacker = table.by_id[first.game.players[first.game.state.acting[0]].user_id]
    hand = table.hand_message(first, attacker)
    assert hand is not None
    opening = next(b.callback_data for b in hand.all_buttons() if b.callback_data)
    assert opening is not None
    rng = random.Random(11)
    while True:  # play on until a new bout has begun: the opening keyboard is then stale
        record = await table.settled()
        if record.bout_from > 0:
            break
        await table.press_random(record, rng)
    before = await table.settled()
    assert before.game.state is not None
    stale = RU.t("answer-stale") if attacker.language_code == "ru" else UK.t("answer-stale")
    press = HandPress.unpack(opening)
    for data in (
        opening,  # an old keyboard
        press.model_copy(update={"moves": before.game.state.moves + 5}).pack(),  # "the future"
        press.model_copy(update={"game": "nogame"}).pack(),  # another game
    ):
        answer = await world.fake.callback_answer(
            world.fake.user_presses_data(attacker, hand, data)
        )
        assert answer.text == stale
    for data in ("h:x:y", "h:1:g:1:zz", "??"):  # garbage
        answer = await world.fake.callback_answer(
            world.fake.user_presses_data(attacker, hand, data)
        )
        assert answer.text is not None
    await table.drained()
    after = await table.record()
    assert after is not None
    assert after.game.version == before.game.version
    assert after.game.state == before.game.state


async def test_presses_by_people_who_do_not_play(fast_world: World) -> None:
    world = fast_world
    table = world.table(2)
    [outsider] = world.players(1)
    world.fake.set_member_status(table.group, outsider, "member")
    await table.all_start_bot()
    await table.gather()
    lobby = await table.lobby_message()
    # Only the creator or a group admin deals; the refusal in the presser's language.
    presser = table.players[1]
    own = translator(private_language(presser.language_code))
    assert await table.press_lobby(presser, lobby, "start") == own.t("answer-not-allowed-start")
    world.fake.user_sends(outsider, table.group, "/startgame")
    await world.fake.wait_for_bot_message(table.group, plain(RU.t("reply-not-allowed-start")))
    record = await table.deal()
    before = await table.settled()
    state = before.game.state
    assert state is not None
    # "My cards" under the table: the hand for a player, a refusal for anybody else.
    assert await table.press_lobby(outsider, lobby, "cards") == RU.t("answer-not-player")
    mine = await table.press_lobby(table.players[0], lobby, "cards")
    assert mine is not None and mine.startswith(RU.t("popup-hand", count=6, cards="", trump="")[:8])
    # A hand button forged in the outsider's own private chat.
    world.fake.user_starts_bot(outsider)
    welcome = await world.fake.wait_for_bot_message(world.fake.private_chat(outsider))
    seat = state.acting[0]
    data = HandPress(
        chat=table.group.id,
        game=record.game.game_id,
        moves=state.moves,
        act=encode_action(legal_actions(state, seat)[0]),
    )
    answer = await world.fake.callback_answer(
        world.fake.user_presses_data(outsider, welcome, data.pack())
    )
    assert answer.text == RU.t("answer-not-player")
    after = await table.record()
    assert after is not None and after.game.state == before.game.state


async def test_two_players_pressing_at_the_same_moment_are_both_served(
    fast_world: World,
) -> None:
    world = fast_world
    table = world.table(2)
    await table.start_game()
    rng = random.Random(5)
    for _ in range(400):  # play until the attacker may throw in while the defender defends
        record = await table.settled()
        assert record.game.phase is Phase.PLAYING, "the game ended before such a moment"
        state = record.game.state
        assert state is not None and state.bout is not None
        bout = state.bout
        both = bout.attacker in state.acting and bout.defender in state.acting
        throws = [a for a in legal_actions(state, bout.attacker) if isinstance(a, Throw)]
        if both and throws:
            break
        await table.press_random(record, rng)
    else:
        raise AssertionError("never a moment for two presses at once")
    attacker = table.by_id[record.game.players[bout.attacker].user_id]
    defender = table.by_id[record.game.players[bout.defender].user_id]
    attacker_hand = table.hand_message(record, attacker)
    defender_hand = table.hand_message(record, defender)
    assert attacker_hand is not None and defender_hand is not None
    throw = table.button_for(record, attacker, throws[0])
    take = table.button_for(record, defender, Take(bout.defender))
    q1 = world.fake.user_presses(attacker, attacker_hand, throw)
    q2 = world.fake.user_presses(defender, defender_hand, take)
    a1, a2 = await asyncio.gather(world.fake.callback_answer(q1), world.fake.callback_answer(q2))
    assert (a1.text, a2.text) == (None, None)
    after = await table.wait_record(
        lambda r: r.game.state is not None and r.game.state.moves >= state.moves + 2
    )
    s = after.game.state
    assert s is not None and s.moves == state.moves + 2
    kinds = [entry["e"] for entry in after.game.log]
    assert "ThrewIn" in kinds and ("DeclaredTake" in kinds or "Took" in kinds)
    # Consistent: every card of the deck is in exactly one place.
    places = [*s.hands, s.discard, sum(1 << c for c in s.stock)]
    if s.bout is not None:
        places.append(s.bout.table)
    seen = 0
    for mask in places:
        assert seen & mask == 0
        seen |= mask
    assert seen == deck_mask(36)


async def test_stop_tells_everyone_and_frees_the_chat(fast_world: World) -> None:
    world = fast_world
    table = world.table(2)
    [outsider] = world.players(1)
    world.fake.set_member_status(table.group, outsider, "member")
    record = await table.start_game()
    await table.settled()
    world.fake.user_sends(outsider, table.group, "/stop")
    await world.fake.wait_for_bot_message(table.group, plain(RU.t("reply-not-allowed-stop")))
    creator = table.players[0]
    world.fake.user_sends(creator, table.group, "/stop@durak_test_bot")
    name = creator.first_name
    await world.fake.wait_for_bot_message(table.group, plain(RU.t("reply-stopped", name=name)))
    stopped = await table.wait_record(lambda r: r.game.phase is Phase.FINISHED)
    assert stopped.stopped_by == name
    message = table.table_message(record)
    assert message is not None
    await table.says(message, RU.t("stopped-table", name=name))
    assert message.buttons == []
    for seat in stopped.game.players:
        hand = table.hand_message(stopped, table.by_id[seat.user_id])
        assert hand is not None
        await table.says(hand, translator(seat.language).t("stopped-hand"))
        assert hand.buttons == []
    world.fake.user_sends(table.players[1], table.group, "/newgame")
    await table.wait_record(
        lambda r: r.game.phase is Phase.LOBBY and r.game.game_id != record.game.game_id
    )


async def test_commands(fast_world: World) -> None:
    world = fast_world
    table = world.table(3)
    first, second, third = table.players
    await table.all_start_bot()
    world.fake.user_sends(first, table.group, "/durak@durak_test_bot")
    lobby = await table.lobby_message()
    world.fake.user_sends(second, table.group, "/newgame")
    exists = await world.fake.wait_for_bot_message(table.group, plain(RU.t("reply-exists")))
    assert exists.reply_to is not None and exists.reply_to.message_id == lobby.message_id
    world.fake.user_sends(second, table.group, "/join")
    world.fake.user_sends(third, table.group, "/join")
    await table.wait_record(lambda r: len(r.game.players) == 3)
    world.fake.user_sends(third, table.group, "/leave")
    await table.wait_record(lambda r: len(r.game.players) == 2)
    await world.fake.wait_for(lambda: third.first_name not in (lobby.text or ""))
    world.fake.user_sends(third, table.group, "/leave")
    await world.fake.wait_for_bot_message(table.group, plain(RU.t("reply-not-joined")))
    world.fake.user_sends(first, table.group, "/rules")
    await world.fake.wait_for_bot_message(table.group, plain(RU.t("rules-title")))
    world.fake.user_sends(first, table.group, "/help")
    await world.fake.wait_for_bot_message(table.group, "/startgame")
    world.fake.user_sends_private(first, "/join")
    await world.fake.wait_for_bot_message(
        world.fake.private_chat(first), plain(RU.t("reply-group-only"))
    )
    answer = await world.fake.callback_answer(world.fake.user_presses_data(first, lobby, "junk"))
    assert answer.text == RU.t("answer-malformed")
    world.fake.user_sends(first, table.group, "/startgame")
    await table.wait_record(lambda r: r.game.phase is Phase.PLAYING)
    for lang, tr in (("ru", RU), ("uk", UK)):
        commands = dict(world.fake.commands(scope={"type": "all_group_chats"}, language_code=lang))
        assert list(commands)[:2] == ["newgame", "join"]
        assert commands["stop"] == tr.t("command-stop")
        private = dict(world.fake.commands(scope={"type": "all_private_chats"}, language_code=lang))
        assert private["start"] == tr.t("command-start")
    # /leave in a running game: that player resigns and is the durak. The table says so,
    # once: no reply of its own besides.
    mark = world.fake.last_message_id(table.group)
    world.fake.user_sends(second, table.group, "/leave")
    over = await table.wait_record(lambda r: r.game.phase is Phase.FINISHED)
    assert over.game.state is not None and over.game.state.durak == 1
    await table.says_game_over(why="leave")
    await table.drained()
    assert [m.text for m in world.fake.bot_messages(table.group) if m.message_id > mark] == []


async def test_turn_timeout_plays_for_absent_players(fast_world: World) -> None:
    world = fast_world
    table = world.table(2)
    settings = SettingsStore(world.redis, world.keys, ChatSettings())
    await settings.set(table.group.id, ChatSettings(turn_timeout=1))
    record = await table.start_game()
    state = record.game.state
    assert state is not None and state.bout is not None
    attacker = state.bout.attacker
    hand = state.hand(attacker)
    lowest = min([c for c in hand if c.suit != state.trump] or hand, key=lambda c: (c.rank, c.suit))
    # The attacker is away: after a second the bot opens with the lowest non-trump.
    opened = await table.wait_record(
        lambda r: r.game.state is not None and r.game.state.moves >= 1, timeout=5
    )
    assert opened.game.log[0] == {
        "e": "Attacked",
        "player": attacker,
        "cards": [str(lowest)],
        "timeout": True,  # the table and that player's hand say the timer played it
        "moves": 1,
    }
    # The defender is away too: they take (the attacker has nothing to add or passes).
    took = await table.wait_record(lambda r: any(e["e"] == "Took" for e in r.game.log), timeout=5)
    told = [(e["e"], e.get("timeout", False)) for e in took.game.log if e["e"] != "Passed"]
    assert told[:3] == [("Attacked", True), ("DeclaredTake", True), ("Took", False)]
    world.fake.user_sends(table.players[0], table.group, "/stop")
    await table.wait_record(lambda r: r.game.phase is Phase.FINISHED)
