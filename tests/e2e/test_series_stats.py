"""Series, statistics and leaving, with the real bot process, the fake Telegram and a real
Redis: a three-game series dealt by the losers to its standings, a game counted once when
its last moves are pressed together, a player who leaves the group mid-game (the durak, and
the table says why) or from a lobby, and /stats in the group and in private."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.i18n import private_language, translator
from bot.model import ChatSettings, GameRecord, Phase
from bot.schema.stats import PlayerStats
from bot.services.people import leaderboard
from bot.storage import SettingsStore, Storage
from bot.ui.callbacks import HandPress, encode_action
from bot.ui.stats import leaderboard_text, personal_text
from engine import Action, Attack, Card, Take, Throw, from_position
from engine.cards import deck_cards

from .conftest import World
from .fake_telegram import FakeMessage, FakeUser
from .harness import Table, plain

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

RU = translator("ru")


def storage_of(world: World) -> Storage:
    return Storage.create(world.redis, world.namespace, default_settings=ChatSettings())


async def configure(world: World, table: Table, settings: ChatSettings) -> None:
    await SettingsStore(world.redis, world.keys, ChatSettings()).set(table.group.id, settings)


async def press_next(table: Table, user: FakeUser, message: FakeMessage, game_id: str) -> None:
    """``user`` presses "Next game" under a finished game: the next one is dealt, and the
    old table loses its button."""
    assert message.find_button(RU.t("btn-again")) is None
    answer = await table.press_lobby(user, message, "next")
    assert answer == translator(private_language(user.language_code)).t("answer-started")
    await table.wait_record(lambda r: r.game.game_id != game_id)
    await table.fake.wait_for(lambda: not message.buttons, timeout=10)


@pytest.mark.soak  # three whole games: about 20 s
async def test_a_series_of_three_games_is_dealt_by_the_losers_and_ends_with_standings(
    fast_world: World,
) -> None:
    world = fast_world
    table = world.table(3)
    await configure(world, table, ChatSettings(turn_timeout=0, series=3))
    await table.start_game()
    rng = random.Random(31)
    ids = [user.id for user in table.players]
    durak_counts = dict.fromkeys(ids, 0)
    places: dict[int, dict[int, int]] = {user_id: {} for user_id in ids}
    draws = 0
    previous: GameRecord | None = None
    for number in (1, 2, 3):
        record = await table.settled()
        game, state = record.game, record.game.state
        assert game.series is not None and state is not None and state.bout is not None
        assert (game.series.number, game.series.length, state.moves) == (number, 3, 0)
        if previous is not None:
            # R-DEAL-1: the loser deals, after a draw the same dealer; R-START-3 with the
            # default from_under_fool: the dealer's left neighbour attacks.
            last = previous.game.state
            assert last is not None
            anchor = last.dealer if last.durak is None else last.durak
            dealer = game.players[state.dealer].user_id
            assert dealer == previous.game.players[anchor].user_id
            assert state.bout.attacker == (state.dealer + 1) % 3
            assert [p.user_id for p in game.players] == [p.user_id for p in previous.game.players]
        message = await table.lobby_message()  # this game's table (a new message)
        await table.says(message, RU.t("series-game", number=number, length=3))
        over = await table.play_to_end(rng)
        await table.says_game_over()
        end = over.game.state
        assert end is not None
        if end.durak is None:
            draws += 1
        else:
            durak_counts[over.game.players[end.durak].user_id] += 1
        for seat, player in enumerate(over.game.players):
            place = end.out.index(seat) + 1 if seat in end.out else 3
            places[player.user_id][place] = places[player.user_id].get(place, 0) + 1
        assert over.game.series is not None
        assert over.game.series.durak == durak_counts and over.game.series.draws == draws
        if number < 3:
            tally = " · ".join(
                RU.t("series-tally-entry", name=p.name, count=durak_counts[p.user_id])
                for p in over.game.players
            )
            await table.says(message, RU.t("series-tally", tally=tally))
            await press_next(table, table.players[number], message, over.game.game_id)
        previous = over

    assert previous is not None and previous.game.series is not None
    series = previous.game.series
    assert previous.game.series_over
    names = {p.user_id: p.name for p in previous.game.players}
    fewest = min(durak_counts.values())
    winners = [names[u] for u, count in durak_counts.items() if count == fewest]
    last_table = table.table_message(previous)
    assert last_table is not None
    await table.says(last_table, RU.t("series-over"))
    await table.says(
        last_table, RU.t("series-winner", count=len(winners), names=", ".join(winners))
    )
    for place, user_id, count in series.standings():
        assert count == durak_counts[user_id]
        assert place == 1 + sum(1 for other in durak_counts.values() if other < count)
        times = RU.t("series-times", count=count)
        await table.says(
            last_table, RU.t("series-standing", place=place, name=names[user_id], times=times)
        )
    assert last_table.find_button(RU.t("btn-again")) is not None

    # /stats in the group: every player has three games, so everyone is ranked.
    expected = [
        PlayerStats(
            user_id, names[user_id], 3, durak_counts[user_id], draws, places=places[user_id]
        )
        for user_id in ids
    ]
    board = leaderboard(expected)
    assert len(board.ranked) == 3
    mark = world.fake.last_message_id(table.group)
    world.fake.user_sends(table.players[2], table.group, "/stats")
    text = leaderboard_text(board.ranked, board.unranked, board.min_games, RU)
    await world.fake.wait_for_bot_message(table.group, plain(text), since=mark)

    # /stats in private: the player's own totals, in their language.
    user = table.players[1]
    tr = translator(private_language(user.language_code))
    chat = world.fake.private_chat(user)
    mark = world.fake.last_message_id(chat)
    world.fake.user_sends_private(user, "/stats")
    mine = next(p for p in expected if p.user_id == user.id)
    await world.fake.wait_for_bot_message(chat, plain(personal_text(mine, tr)), since=mark)


async def test_two_final_moves_pressed_together_count_the_game_once(fast_world: World) -> None:
    world = fast_world
    table = world.table(2)
    attacker_user, defender_user = table.players
    await table.start_game()
    await table.settled()
    # The test deals the last bout: Аня attacks with 6♠ and may throw in 6♣; Борис cannot
    # beat (trump ♦) and can only take. Pressed together, the throw and the take both
    # apply, in either order; the second ends the game.
    hands = [[Card.parse("6S"), Card.parse("6C")], [Card.parse("7H"), Card.parse("8H")]]
    rest = [card for card in deck_cards(36) if card not in hands[0] + hands[1]]
    ending = from_position(hands, trump=Card.parse("6D").suit, discard=rest, attacker=0)
    storage = storage_of(world)

    def put(record: GameRecord | None) -> tuple[GameRecord, GameRecord]:
        assert record is not None
        record.game.state = ending
        record.bout_from = 0
        return record, record

    record = await storage.games.update(table.group.id, put)
    users = {record.game.players[seat].user_id: seat for seat in (0, 1)}
    by_seat = {seat: table.by_id[user_id] for user_id, seat in users.items()}
    hands_shown = {seat: table.hand_message(record, by_seat[seat]) for seat in (0, 1)}

    def press(action: Action, moves: int) -> str:
        message = hands_shown[action.player]
        assert message is not None
        data = HandPress(
            chat=table.group.id, game=record.game.game_id, moves=moves, act=encode_action(action)
        ).pack()
        return world.fake.user_presses_data(by_seat[action.player], message, data)

    answer = await world.fake.callback_answer(press(Attack(0, (Card.parse("6S"),)), 0))
    assert answer.text is None
    await table.wait_record(lambda r: r.game.state is not None and r.game.state.moves == 1)
    throw = press(Throw(0, (Card.parse("6C"),)), 1)
    take = press(Take(1), 1)
    answers = await asyncio.gather(
        world.fake.callback_answer(throw), world.fake.callback_answer(take)
    )
    assert [a.text for a in answers] == [None, None]
    over = await table.wait_record(lambda r: r.game.phase is Phase.FINISHED)
    assert over.game.state is not None and over.game.state.durak == 1
    await table.says_game_over()
    await table.drained()
    stats = {p.user_id: p for p in await storage.stats.chat(table.group.id)}
    loser, winner = by_seat[1].id, by_seat[0].id
    assert (stats[loser].games, stats[loser].durak, dict(stats[loser].places)) == (1, 1, {2: 1})
    assert (stats[winner].games, stats[winner].durak, stats[winner].wins) == (1, 0, 1)
    assert {attacker_user.id, defender_user.id} == {loser, winner}


async def test_leaving_the_group_mid_game_makes_the_leaver_the_durak(fast_world: World) -> None:
    world = fast_world
    players = world.players(3)
    group = world.fake.add_group(
        "Leavers", creator=players[0], members=players, bot_status="administrator"
    )
    table = Table(world.fake, world.redis, world.prefix, players, group=group)
    await table.start_game()
    rng = random.Random(8)
    for _ in range(3):
        await table.press_random(await table.settled(), rng)
    before = await table.settled()
    leaver = table.by_id[before.game.players[1].user_id]
    assert world.fake.world.allowed_updates is not None
    assert "chat_member" in world.fake.world.allowed_updates  # a handler asks for them
    mark = world.fake.last_message_id(group)
    updates = world.fake.world.next_update_id
    world.fake.user_leaves(leaver, group)
    assert world.fake.world.next_update_id == updates + 2  # chat_member + left_chat_member

    over = await table.wait_record(lambda r: r.game.phase is Phase.FINISHED)
    assert over.game.state is not None and over.game.state.durak == 1
    assert {"e": "Resigned", "player": 1, "why": "left", "playing": [0, 2]} in over.game.log
    why = RU.t("table-order-durak", name=leaver.first_name, why="left")
    message = table.table_message(over)
    assert message is not None
    await table.says(message, why)
    await table.drained()
    # Both updates were handled; the second changed nothing; the table told it, nothing else.
    assert [m.text for m in world.fake.bot_messages(group) if m.message_id > mark] == []
    after = await table.record()
    assert after is not None and after.game.version == over.game.version
    stats = {p.user_id: p for p in await storage_of(world).stats.chat(group.id)}
    assert {u: (p.games, p.durak) for u, p in stats.items()} == {
        players[0].id: (1, 0),
        players[1].id: (1, 1),
        players[2].id: (1, 0),
    }

    # /stats in the group: nobody has three games yet.
    mark = world.fake.last_message_id(group)
    world.fake.user_sends(players[0], group, "/stats")
    await world.fake.wait_for_bot_message(
        group, plain(RU.t("stats-none-ranked", count=3, min=3)), since=mark
    )


async def test_leaving_the_group_from_a_lobby_unseats(fast_world: World) -> None:
    world = fast_world
    table = world.table(3)
    await table.all_start_bot()
    await table.gather()
    lobby = await table.lobby_message()
    removed = table.players[2]
    world.fake.user_removed(removed, table.group)
    record = await table.wait_record(lambda r: len(r.game.players) == 2)
    assert record.game.phase is Phase.LOBBY
    assert removed.id not in [p.user_id for p in record.game.players]
    await world.fake.wait_for(lambda: removed.first_name not in (lobby.text or ""), timeout=10)
