"""Series and the next game at the same table (RULES.md §2 ``series``, R-DEAL-1, R-START-1,
R-START-3, R-OUT-6), and players who leave the group, against a real Redis: the series
starts with the settings of its first deal, the loser deals the next game and the start
follows ``next_game_start``, players leave between games or mid-game, the standings."""

from __future__ import annotations

import itertools

import pytest
from kit import ANNA, BORIS, CHAT, GLEB, VERA, Clock, dealt, no, put_state, reason_of
from views import random_game

from bot.i18n import SUPPORTED, Translator, translator
from bot.model import ChatGame, ChatSettings, GameRecord, Phase, Series
from bot.schema.presses import Move
from bot.schema.refusals import Reason
from bot.services import Changed, GameService, Player, PressOutcome
from bot.services.decisions import LEFT_CHAT, REMOVED
from bot.storage import Storage
from bot.storage.games import decode, encode
from bot.turn_clock import CLOCK_GRACE
from bot.ui.callbacks import LobbyPress
from bot.ui.render import table_scene, table_view
from engine import (
    Action,
    Attack,
    Card,
    Defend,
    GameState,
    HouseRules,
    NextGameStart,
    Take,
    from_position,
    new_game,
)
from engine.cards import deck_cards
from engine.deck_seed import shuffled_deck

_queries = itertools.count()

SEED = f"{42:064x}"  # the deals these tests expect


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def ending(
    players: int, durak: int | None, attacker: int, dealer: int = 0
) -> tuple[GameState, list[Action]]:
    """A position one bout from the end (stock empty, every seat but two already out) and
    the moves that end it: ``durak`` takes the trump ace, or, with ``durak`` None, the
    defender covers the last card with their last card: a draw (R-OUT-5)."""
    defender = (attacker + 1) % players
    hands: list[list[Card]] = [[] for _ in range(players)]
    if durak is None:
        hands[attacker], hands[defender] = cards("6S"), cards("7S")
        moves: list[Action] = [
            Attack(attacker, (Card.parse("6S"),)),
            Defend(defender, Card.parse("7S"), Card.parse("6S")),
        ]
    else:
        assert durak == defender
        hands[attacker], hands[defender] = cards("AS"), cards("6H 7H")
        moves = [Attack(attacker, (Card.parse("AS"),)), Take(defender)]
    used = {card for hand in hands for card in hand}
    rest = [card for card in deck_cards(36) if card not in used]
    trump = Card.parse("6S").suit
    state = from_position(hands, trump=trump, discard=rest, attacker=attacker, dealer=dealer)
    return state, moves


@pytest.fixture
def service(storage: Storage) -> GameService:
    return GameService(storage, clock=Clock(), seed=lambda: SEED)


async def play_out(
    service: GameService, by_seat: list[Player], durak: int | None, attacker: int
) -> PressOutcome:
    """Finish the chat's game from ``ending(...)`` (the dealer stays): the outcome of the
    last move."""
    current = await service.games.get(CHAT)
    assert current is not None and current.game.state is not None
    state, moves = ending(len(by_seat), durak, attacker, current.game.state.dealer)
    record = await put_state(service, state)
    outcome: PressOutcome | None = None
    for move in moves:
        now = record.game.state
        assert now is not None
        outcome = await service.play(
            CHAT,
            record.game.game_id,
            now.moves,
            Move.of(move),
            by_seat[move.player].user_id,
        )
        assert isinstance(outcome, Changed), outcome
        assert outcome.record is not None
        record = outcome.record
    assert outcome is not None
    return outcome


def seats(record: GameRecord) -> list[Player]:
    by_id = {p.user_id: p for p in (ANNA, BORIS, VERA, GLEB)}
    return [by_id[seat.user_id] for seat in record.game.players]


def seat_of(record: GameRecord, player: Player) -> int:
    seat = record.game.seat_of(player.user_id)
    assert seat is not None
    return seat


# -- a whole series -----------------------------------------------------------------------


def before_ratings(text: str, tr: Translator) -> str:
    """A finished table's text up to what the game did to the ratings."""
    return text.partition(tr.t("table-ratings"))[0]


async def test_a_series_of_three_deals_on_with_the_loser_and_ends_with_the_standings(
    service: GameService, storage: Storage
) -> None:
    await storage.settings.set(CHAT, ChatSettings(series=3))
    first = await dealt(service, ANNA, BORIS, VERA)
    assert first.game.series == Series(3, 1, {1: 0, 2: 0, 3: 0})
    rules = first.game.settings.rules
    # The chat's settings change mid-series: the series keeps those of its first deal.
    await storage.settings.set(
        CHAT,
        ChatSettings(rules=HouseRules(deck=24, next_game_start=NextGameStart.UNDER_FOOL), series=5),
    )

    # Game 1: Борис (seat 1) is the durak.
    over = await play_out(service, seats(first), durak=1, attacker=0)
    record = over.record
    assert record is not None and record.game.phase is Phase.FINISHED
    assert record.game.series == Series(3, 1, {1: 0, 2: 1, 3: 0})
    assert not record.game.series_over
    tr = translator("ru")
    shown = table_view(table_scene(record.game), tr)
    assert tr.t("series-game", number=1, length=3) in shown.text
    assert shown.markup is not None
    [[button], *_after_the_game] = shown.markup.inline_keyboard
    assert button.text == tr.t("btn-next-game", number=2, length=3)
    assert button.callback_data == LobbyPress(game=record.game.game_id, op="next").pack()

    # Only a player of the series deals the next game; the loser deals (R-DEAL-1) and his
    # left neighbour attacks (from under the fool, R-START-3).
    refused = await service.next_in_series(CHAT, record.game.game_id, GLEB)
    assert reason_of(refused) is Reason.NOT_PLAYER
    nxt = await service.next_in_series(CHAT, record.game.game_id, VERA)
    assert isinstance(nxt, Changed) and nxt.record is not None
    assert nxt.previous is not None and nxt.previous.game.game_id == record.game.game_id
    second = nxt.record
    state = second.game.state
    assert state is not None and state.bout is not None and state.moves == 0
    assert second.game.phase is Phase.PLAYING and second.game.game_id != record.game.game_id
    assert second.game.players[state.dealer].user_id == BORIS.user_id
    assert state.bout.attacker == (state.dealer + 1) % 3
    assert state.rules == rules and second.game.settings.series == 3
    assert second.deadline == 1000.0 + CLOCK_GRACE + 60  # the series keeps its turn timer too
    assert second.game.series is not None and second.game.series.number == 2
    assert await storage.users.games_of(ANNA.user_id) == {CHAT: second.game.game_id}
    # The old button again (a second press of "Next game"): out of date.
    late = await service.next_in_series(CHAT, record.game.game_id, ANNA)
    assert reason_of(late) is Reason.STALE_LOBBY

    # Game 2: a draw. Nobody's count grows; the same dealer deals game 3.
    dealer = second.game.players[state.dealer].user_id
    over = await play_out(service, seats(second), durak=None, attacker=0)
    assert over.record is not None and over.record.game.series is not None
    assert over.record.game.series.draws == 1
    assert sorted(over.record.game.series.durak.values()) == [0, 0, 1]
    third = await service.next_in_series(CHAT, over.record.game.game_id, ANNA)
    assert third.record is not None and third.record.game.state is not None
    state = third.record.game.state
    assert third.record.game.players[state.dealer].user_id == dealer
    assert state.bout is not None and state.bout.attacker == (state.dealer + 1) % 3

    # Game 3: Вера is the durak. The series is over: Аня was never the durak and wins;
    # Борис and Вера share the second place.
    vera = seat_of(third.record, VERA)
    last = await play_out(service, seats(third.record), durak=vera, attacker=(vera - 1) % 3)
    final = last.record
    assert final is not None and final.game.series is not None and final.game.series_over
    assert final.game.series.winners() == [ANNA.user_id]
    assert [(p, c) for p, _u, c in final.game.series.standings()] == [(1, 0), (2, 1), (2, 1)]
    for lang in SUPPORTED:
        tr = translator(lang)
        shown = table_view(table_scene(final.game), tr)
        assert tr.t("series-over") in shown.text
        assert tr.t("series-winner", count=1, names="Аня") in shown.text
        times = tr.t("series-times", count=1)
        assert tr.t("series-standing", place=2, name="Борис", times=times) in shown.text
        assert tr.t("series-standing", place=2, name="Вера", times=times) in shown.text
        assert tr.t("series-draws", count=1) in shown.text
        assert shown.markup is not None
        [[button], *_after_the_game] = shown.markup.inline_keyboard
        assert button.callback_data is not None
        assert LobbyPress.unpack(button.callback_data).op == "again"
    nothing = await service.next_in_series(CHAT, final.game.game_id, ANNA)
    assert reason_of(nothing) is Reason.STALE_LOBBY

    # "Play again" after a series: a lobby; its deal starts a new series with the chat's
    # settings of now, and still continues the table (the loser deals).
    again = await service.again(CHAT, final.game.game_id, ANNA)
    assert again.record is not None and again.record.game.series is None
    started = await service.start(CHAT, ANNA.user_id, is_admin=no)
    assert started.record is not None and started.record.game.state is not None
    state = started.record.game.state
    assert started.record.game.series == Series(5, 1, {1: 0, 2: 0, 3: 0})
    assert state.rules.deck == 24
    assert started.record.game.players[state.dealer].user_id == VERA.user_id
    assert state.bout is not None and state.bout.attacker == (state.dealer - 1) % 3


async def test_a_single_game_has_no_series(service: GameService) -> None:
    record = await dealt(service, ANNA, BORIS)
    assert record.game.series is None
    over = await play_out(service, seats(record), durak=1, attacker=0)
    assert over.record is not None and over.record.game.series is None
    shown = table_view(table_scene(over.record.game), translator("ru"))
    assert translator("ru").t("series-game", number=1, length=3)[:5] not in shown.text
    assert shown.markup is not None
    [[button], *_after_the_game] = shown.markup.inline_keyboard
    assert button.callback_data is not None
    assert LobbyPress.unpack(button.callback_data).op == "again"
    assert (
        reason_of(await service.next_in_series(CHAT, over.record.game.game_id, ANNA))
        is Reason.STALE_LOBBY
    )


# -- leaving ------------------------------------------------------------------------------------


async def test_the_loser_leaves_between_games_the_first_game_rule_deals(
    service: GameService, storage: Storage
) -> None:
    """R-START-3: the loser is gone, so the next game starts like a first game (R-DEAL-1
    by lot, R-START-1 the lowest trump); the leaver forfeits the series."""
    await storage.settings.set(CHAT, ChatSettings(series=3))
    first = await dealt(service, ANNA, BORIS, VERA)
    over = await play_out(service, seats(first), durak=2, attacker=1)
    assert over.record is not None
    outsider = await service.leave(CHAT, GLEB.user_id)
    assert reason_of(outsider) is Reason.NOT_JOINED
    left = await service.leave(CHAT, VERA.user_id)
    assert isinstance(left, Changed) and left.record is not None
    series = left.record.game.series
    assert series is not None and series.left == [VERA.user_id]
    assert series.durak == {ANNA.user_id: 0, BORIS.user_id: 0}
    assert reason_of(await service.leave(CHAT, VERA.user_id)) is Reason.NOT_JOINED
    refused = await service.next_in_series(CHAT, over.record.game.game_id, VERA)
    assert reason_of(refused) is Reason.NOT_PLAYER
    nxt = await service.next_in_series(CHAT, over.record.game.game_id, BORIS)
    assert nxt.record is not None and nxt.record.game.state is not None
    assert [p.user_id for p in nxt.record.game.players] == [ANNA.user_id, BORIS.user_id]
    # the table's second game (``game_number``, which sets the epaulette rank, R-POG-2)
    rules = first.game.settings.rules
    assert nxt.record.game.state == new_game(
        2, rules=rules, seed=SEED, game_number=2, order=shuffled_deck(SEED, 36)
    )


async def test_a_series_ends_early_with_fewer_than_two_players(
    service: GameService, storage: Storage
) -> None:
    await storage.settings.set(CHAT, ChatSettings(series=5))
    first = await dealt(service, ANNA, BORIS)
    over = await play_out(service, seats(first), durak=1, attacker=0)
    assert over.record is not None
    left = await service.member_left(CHAT, ANNA.user_id, REMOVED)
    assert isinstance(left, Changed) and left.record is not None
    assert left.record.game.series_over
    tr = translator("uk")
    text = table_view(table_scene(left.record.game), tr).text
    assert tr.t("series-over-early") in text
    assert tr.t("series-winner", count=1, names="Борис") in text
    again = await service.member_left(CHAT, ANNA.user_id, LEFT_CHAT)
    assert not isinstance(again, Changed)


async def test_leaving_the_group_mid_game_loses_it_and_the_table_says_why(
    service: GameService, storage: Storage
) -> None:
    await storage.settings.set(CHAT, ChatSettings(series=3))
    await dealt(service, ANNA, BORIS, VERA)
    outcome = await service.member_left(CHAT, BORIS.user_id, LEFT_CHAT)
    assert isinstance(outcome, Changed) and outcome.record is not None
    game = outcome.record.game
    assert game.phase is Phase.FINISHED and game.state is not None
    assert game.state.durak == 1 and outcome.seat == 1
    assert {"e": "Resigned", "player": 1, "why": "left", "playing": [0, 2]} in game.log
    # He has left the series too: two players go on.
    assert game.series is not None and game.series.durak == {1: 0, 3: 0}
    assert not game.series_over
    for lang in SUPPORTED:
        tr = translator(lang)
        text = table_view(table_scene(game), tr).text
        # Named once, with why: in the finishing order (a resignation told once).
        assert tr.t("table-order-durak", name="Борис", why="left") in text
        assert before_ratings(text, tr).count("Борис") == 1
    # The same news again (the chat_member update after the service message): nothing.
    twice = await service.member_left(CHAT, BORIS.user_id, LEFT_CHAT)
    assert reason_of(twice) is Reason.NOT_JOINED
    nxt = await service.next_in_series(CHAT, game.game_id, ANNA)
    assert nxt.record is not None
    assert [p.user_id for p in nxt.record.game.players] == [ANNA.user_id, VERA.user_id]


@pytest.mark.parametrize("why", ["leave", "removed"])
async def test_the_table_says_why_the_leaver_is_the_durak(service: GameService, why: str) -> None:
    await dealt(service, ANNA, BORIS)
    if why == "leave":
        outcome = await service.leave(CHAT, ANNA.user_id)
    else:
        outcome = await service.member_left(CHAT, ANNA.user_id, REMOVED)
    assert isinstance(outcome, Changed) and outcome.record is not None
    for lang in SUPPORTED:
        tr = translator(lang)
        text = table_view(table_scene(outcome.record.game), tr).text
        assert tr.t("table-order-durak", name="Аня", why=why) in text
        # Told once: not again in the log or a line of its own (the ratings name everybody).
        assert before_ratings(text, tr).count("Аня") == 1


STILL_PLAYING = {"ru": "Ещё играли: {}", "uk": "Ще грали: {}"}
LEFT_MID_GAME = {
    "ru": "🤡 {} — дурак: встаёт из-за стола посреди игры",
    "uk": "🤡 {} — дурень: встає з-за столу посеред гри",
}
FINISHING_ORDER = {"ru": "<b>Кто как вышел:</b>", "uk": "<b>Хто як вийшов:</b>"}


async def test_a_game_ended_by_leaving_says_who_was_still_playing(service: GameService) -> None:
    """After /leave the result said «Кто как вышел: 1. Оля 2. Петя» though
    neither went out. A game ended by a player leaving it has no finishing order of
    players who did not finish: it says who was still playing, then who left."""
    await dealt(service, ANNA, BORIS, VERA)
    outcome = await service.leave(CHAT, VERA.user_id)
    assert isinstance(outcome, Changed) and outcome.record is not None
    game = outcome.record.game
    names = ", ".join(p.name for p in game.players if p.user_id != VERA.user_id)
    for lang in SUPPORTED:
        lines = table_view(table_scene(game), translator(lang)).text.splitlines()
        assert FINISHING_ORDER[lang] not in lines
        at = lines.index(STILL_PLAYING[lang].format(names))
        assert lines[at + 1] == LEFT_MID_GAME[lang].format("Вера")


async def test_a_game_left_after_someone_went_out_keeps_their_place(
    service: GameService,
) -> None:
    """Who went out before the leaver left keeps their place; the others were still
    playing."""
    record = await dealt(service, ANNA, BORIS, VERA)
    state = next(
        g.state for g in random_game(3, 5, HouseRules()) if g.state and len(g.state.out) == 1
    )
    assert not state.finished
    await put_state(service, state)
    [first] = state.out
    leaver, playing = (seat for seat in range(3) if seat != first)
    user = record.game.players[leaver]
    outcome = await service.leave(CHAT, user.user_id)
    assert outcome.record is not None
    players = outcome.record.game.players
    for lang in SUPPORTED:
        tr = translator(lang)
        lines = table_view(table_scene(outcome.record.game), tr).text.splitlines()
        at = lines.index(FINISHING_ORDER[lang])
        assert lines[at : at + 4] == [
            FINISHING_ORDER[lang],
            tr.t("table-order-line", place=1, name=players[first].name),
            STILL_PLAYING[lang].format(players[playing].name),
            LEFT_MID_GAME[lang].format(user.name),
        ]


async def test_leaving_the_group_from_a_lobby_unseats(service: GameService) -> None:
    for player in (ANNA, BORIS):
        await service.storage.users.mark_started(player.user_id)
    await service.new_lobby(CHAT, ANNA, can_message=no)
    await service.join(CHAT, BORIS, can_message=no)
    outcome = await service.member_left(CHAT, BORIS.user_id, LEFT_CHAT)
    assert isinstance(outcome, Changed) and outcome.record is not None
    assert [p.user_id for p in outcome.record.game.players] == [ANNA.user_id]
    assert await service.storage.users.games_of(BORIS.user_id) == {}
    again = await service.member_left(CHAT, BORIS.user_id, LEFT_CHAT)
    assert reason_of(again) is Reason.NOT_JOINED
    assert reason_of(await service.member_left(-5, BORIS.user_id)) is Reason.NO_GAME


async def test_a_player_already_out_who_leaves_the_group_is_not_the_durak(
    service: GameService, storage: Storage
) -> None:
    await storage.settings.set(CHAT, ChatSettings(series=3))
    record = await dealt(service, ANNA, BORIS, VERA)
    # Вера (seat 2) has no cards left: out. Аня attacks Борис.
    await put_state(service, ending(3, 1, 0)[0])
    outcome = await service.member_left(CHAT, VERA.user_id, LEFT_CHAT)
    assert isinstance(outcome, Changed) and outcome.record is not None
    assert outcome.record.game.phase is Phase.PLAYING
    assert outcome.record.game.series is not None
    assert VERA.user_id in outcome.record.game.series.left
    assert record.game.game_id == outcome.record.game.game_id


# -- the stored form ----------------------------------------------------------------------------


def test_series_round_trip_and_records_without_one() -> None:
    game = ChatGame(CHAT, "g1", 1, ChatSettings(series=5))
    game.series = Series(5, 2, {1: 1, 2: 0}, draws=1, left=[3])
    record = GameRecord(game)
    assert decode(encode(record)) == record
    data = record.to_dict()
    del data["series"]
    assert GameRecord.from_dict(data).game.series is None  # stored before series existed


def test_standings_share_places_on_equal_counts() -> None:
    series = Series(5, 5, {1: 2, 2: 0, 3: 2, 4: 0, 5: 3})
    assert series.standings() == [(1, 2, 0), (1, 4, 0), (3, 1, 2), (3, 3, 2), (5, 5, 3)]
    assert series.winners() == [2, 4]
    assert series.drop(4) and not series.drop(4)
    assert series.winners() == [2] and series.left == [4]


# -- "Play again" continues the table too ---------------------------------------------------


async def test_play_again_follows_who_is_left_and_the_rules_of_now(
    service: GameService, storage: Storage
) -> None:
    """R-START-3 after "Play again": without the loser the next game starts like a first
    game; a player who stood up is skipped; the chat's current rules apply, and a lobby
    never holds more players than they allow."""
    first = await dealt(service, ANNA, BORIS, VERA)
    over = await play_out(service, seats(first), durak=1, attacker=0)  # Борис
    assert over.record is not None
    again = await service.again(CHAT, over.record.game.game_id, ANNA)
    assert again.record is not None
    await service.leave(CHAT, BORIS.user_id)  # the loser stands up
    started = await service.start(CHAT, ANNA.user_id, is_admin=no)
    assert started.record is not None and started.record.game.state is not None
    assert [p.user_id for p in started.record.game.players] == [ANNA.user_id, VERA.user_id]
    rules = started.record.game.settings.rules
    # by lot (R-DEAL-1), the table's second game (``game_number``)
    assert started.record.game.state == new_game(
        2, rules=rules, seed=SEED, game_number=2, order=shuffled_deck(SEED, 36)
    )

    # Вера loses; the chat now plays 24 cards.
    vera = seat_of(started.record, VERA)
    over = await play_out(service, seats(started.record), durak=vera, attacker=1 - vera)
    assert over.record is not None
    await storage.settings.set(CHAT, ChatSettings(rules=HouseRules(deck=24)))
    again = await service.again(CHAT, over.record.game.game_id, VERA)
    assert again.record is not None and len(again.record.game.players) == 2
    started = await service.start(CHAT, VERA.user_id, is_admin=no)
    assert started.record is not None and started.record.game.state is not None
    state = started.record.game.state
    assert state.rules.deck == 24
    assert started.record.game.players[state.dealer].user_id == VERA.user_id
    assert state.bout is not None and state.bout.attacker == (state.dealer + 1) % 2


async def test_play_again_seats_no_more_than_the_rules_of_now_allow(
    service: GameService, storage: Storage
) -> None:
    first = await dealt(service, ANNA, BORIS, VERA)
    over = await play_out(service, seats(first), durak=0, attacker=2)  # Аня
    assert over.record is not None
    await storage.settings.set(CHAT, ChatSettings(rules=HouseRules(deck=24, max_players=2)))
    again = await service.again(CHAT, over.record.game.game_id, BORIS)
    assert again.record is not None
    assert [p.user_id for p in again.record.game.players] == [ANNA.user_id, BORIS.user_id]
    started = await service.start(CHAT, BORIS.user_id, is_admin=no)
    assert started.record is not None and started.record.game.state is not None
    state = started.record.game.state
    assert started.record.game.players[state.dealer].user_id == ANNA.user_id


async def test_play_again_keeps_the_players_and_the_loser_deals(service: GameService) -> None:
    record = await dealt(service, ANNA, BORIS, VERA)
    assert seats(record) == [ANNA, BORIS, VERA]
    over = await play_out(service, [ANNA, BORIS, VERA], durak=2, attacker=1)  # Vera: the durak
    assert over.record is not None and over.record.game.phase is Phase.FINISHED
    again = await service.again(CHAT, record.game.game_id, BORIS)
    assert isinstance(again, Changed) and again.record is not None
    lobby = again.record.game
    assert [p.user_id for p in lobby.players] == [1, 2, 3] and lobby.creator_id == 2
    started = await service.start(CHAT, BORIS.user_id, is_admin=no)
    assert started.record is not None and started.record.game.state is not None
    assert started.record.game.state.dealer == 2  # the loser deals (R-DEAL-1)
    assert started.record.game.state.bout is not None
    assert started.record.game.state.bout.attacker == 0  # from under the fool (R-START-3)
