"""Statistics against a real Redis: a finished game is counted exactly once, in the same
transaction as its last move, even when presses race for that move; /stop is not counted,
a resignation is; the leaderboard's rule and the texts of /stats."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from kit import ANNA, BORIS, CHAT, VERA, Clock, cards, dealt, position, put_state, reason_of, yes

from bot.i18n import SUPPORTED, translator
from bot.model import ChatGame, ChatSettings, GameRecord, Seat
from bot.schema.presses import Move
from bot.schema.refusals import Reason
from bot.schema.stats import GameResult, PlayerResult, PlayerStats, game_result
from bot.services import Changed, GameService
from bot.services.decisions import LEFT_CHAT
from bot.services.people import MIN_GAMES, leaderboard
from bot.storage import Storage
from bot.storage.tx import Writes
from bot.ui.stats import leaderboard_text, personal_text
from engine import Action, Attack, Card, Code, GameState, Take, Throw, apply

# Вера (seat 2) is out; Аня attacks Борис with 6♠ and may throw in 6♣; Борис cannot beat
# spades or clubs (trump ♦) and can only take. However the throw and the take are ordered,
# the second of them ends the game with Борис the durak, Аня second, Вера first.
RACE = position(["6S 6C", "7H 8H", ""], trump="D", attacker=0)


@pytest.fixture
def service(storage: Storage, clock: Clock) -> GameService:
    return GameService(storage, clock=clock, seed=lambda: f"{7:064x}")


async def dealt_at(service: GameService, state: GameState) -> GameRecord:
    """Аня, Борис and Вера (seats 0, 1, 2) at a game continuing from ``state``."""
    await dealt(service, ANNA, BORIS, VERA)
    return await put_state(service, state)


async def press(
    service: GameService, record: GameRecord, action: Action, moves: int
) -> Reason | Code | None:
    """Why the press was refused; None if it was played."""
    user = record.game.players[action.player].user_id
    outcome = await service.play(CHAT, record.game.game_id, moves, Move.of(action), user)
    return reason_of(outcome)


async def chat_stats(storage: Storage) -> dict[int, PlayerStats]:
    return {p.user_id: p for p in await storage.stats.chat(CHAT)}


async def test_stats_store_counts_per_chat_and_over_all_chats(storage: Storage) -> None:
    result = GameResult(
        (PlayerResult(1, "Аня", 1, False), PlayerResult(2, "Борис", 2, True)), draw=False
    )
    draw = GameResult((PlayerResult(1, "Аня", 2, False), PlayerResult(3, "Вера", 1, False)), True)

    def write(chat_id: int, game: GameResult) -> Callable[[Writes], None]:
        return lambda pipe: storage.stats.queue(pipe, chat_id, game)

    for chat_id, game in ((CHAT, result), (CHAT, draw), (-7, result)):
        writes = Writes()
        write(chat_id, game)(writes)
        await writes.send(storage.redis)
    here = await chat_stats(storage)
    assert here[1] == PlayerStats(1, "Аня", games=2, durak=0, draws=1, places={1: 1, 2: 1})
    assert here[2] == PlayerStats(2, "Борис", games=1, durak=1, draws=0, places={2: 1})
    assert here[3].draws == 1 and here[3].durak == 0 and here[3].wins == 1
    anna = await storage.stats.user(1)
    assert (anna.games, anna.durak, anna.draws, anna.wins) == (3, 0, 1, 2)
    boris = await storage.stats.user(2)
    assert (boris.games, boris.durak, boris.durak_rate) == (2, 2, 1.0)
    assert await storage.stats.user(99) == PlayerStats(99)


# -- a game is counted exactly once ---------------------------------------------------------


async def test_a_race_for_the_last_move_counts_the_game_once(
    service: GameService, storage: Storage
) -> None:
    """Аня throws in and Борис takes at the same moment (both on the keyboard drawn after
    the attack): both moves apply, the game ends once, it is counted once."""
    record = await dealt_at(service, RACE)
    assert await press(service, record, Attack(0, (Card.parse("6S"),)), 0) is None
    results = await asyncio.gather(
        press(service, record, Throw(0, (Card.parse("6C"),)), 1),
        press(service, record, Take(1), 1),
        # ... and a few more presses of the same final moves, from other devices:
        *(press(service, record, Take(1), 1) for _ in range(4)),
        *(press(service, record, Throw(0, (Card.parse("6C"),)), 1) for _ in range(4)),
    )
    assert results.count(None) == 2
    final = await service.games.get(CHAT)
    assert final is not None and final.game.state is not None
    assert final.game.state.durak == 1 and final.game.state.out == (2, 0)
    stats = await chat_stats(storage)
    assert {u: (p.games, p.durak, dict(p.places)) for u, p in stats.items()} == {
        ANNA.user_id: (1, 0, {2: 1}),
        BORIS.user_id: (1, 1, {3: 1}),
        VERA.user_id: (1, 0, {1: 1}),
    }
    assert (await storage.stats.user(BORIS.user_id)).durak == 1


async def test_a_last_move_and_a_resignation_at_once_count_one_game(
    service: GameService, storage: Storage
) -> None:
    record = await dealt_at(service, RACE)
    assert await press(service, record, Attack(0, (Card.parse("6S"),)), 0) is None
    assert await press(service, record, Throw(0, (Card.parse("6C"),)), 1) is None
    take, gone = await asyncio.gather(
        press(service, record, Take(1), 2),
        service.member_left(CHAT, ANNA.user_id, LEFT_CHAT),
    )
    final = await service.games.get(CHAT)
    assert final is not None and final.game.state is not None and final.game.state.finished
    durak = final.game.state.durak
    assert (take, reason_of(gone)) in {
        (None, Reason.NOT_JOINED),  # the take first: Аня was already out
        (Reason.GAME_OVER, None),  # Аня left first: she is the durak
    }
    stats = await chat_stats(storage)
    assert sum(p.games for p in stats.values()) == 3
    assert sum(p.durak for p in stats.values()) == 1
    assert stats[final.game.players[durak or 0].user_id].durak == 1


async def test_stop_is_not_counted_a_resignation_and_a_timeout_are(
    service: GameService, storage: Storage, clock: Clock
) -> None:
    await dealt_at(service, RACE)
    await service.stop(CHAT, ANNA.user_id, "Аня", is_admin=yes)
    assert await chat_stats(storage) == {}

    await dealt_at(service, RACE)
    resigned = await service.leave(CHAT, VERA.user_id)  # already out: not the durak
    assert reason_of(resigned) is Code.PLAYER_OUT
    resigned = await service.leave(CHAT, BORIS.user_id)
    assert isinstance(resigned, Changed)
    stats = await chat_stats(storage)
    assert {u: (p.games, p.durak) for u, p in stats.items()} == {
        ANNA.user_id: (1, 0),
        BORIS.user_id: (1, 1),
        VERA.user_id: (1, 0),
    }

    # The defender's time runs out: the bot takes for him, which ends the game.
    record = await dealt_at(service, apply(RACE, Attack(0, tuple(cards("6S 6C"))))[0])
    assert record.deadline is not None
    clock.now = record.deadline + 1
    outcome = await service.expire_turn(CHAT)
    assert isinstance(outcome, Changed) and outcome.record is not None
    assert outcome.record.game.state is not None and outcome.record.game.state.durak == 1
    assert (await chat_stats(storage))[BORIS.user_id].durak == 2
    assert reason_of(await service.expire_turn(CHAT)) is Reason.NO_GAME
    assert (await chat_stats(storage))[BORIS.user_id].games == 2  # not the stopped one


def test_game_result_places_the_durak_last() -> None:
    state = apply(apply(RACE, Attack(0, tuple(cards("6S 6C"))))[0], Take(1))[0]
    game = ChatGame(CHAT, "g", 1, ChatSettings())
    game.players = [Seat(p.user_id, p.name) for p in (ANNA, BORIS, VERA)]
    assert game_result(game) is None
    game.state = state
    assert game_result(game) == GameResult(
        (
            PlayerResult(ANNA.user_id, "Аня", 2, False),
            PlayerResult(BORIS.user_id, "Борис", 3, True),
            PlayerResult(VERA.user_id, "Вера", 1, False),
        ),
        draw=False,
    )


# -- the leaderboard and the texts ----------------------------------------------------------


def player(user_id: int, games: int, durak: int, wins: int = 0) -> PlayerStats:
    return PlayerStats(user_id, f"P{user_id}", games, durak, places={1: wins} if wins else {})


def test_leaderboard_ranks_by_durak_rate_from_min_games() -> None:
    board = leaderboard(
        [
            player(1, 10, 5),
            player(2, 4, 1),  # 25%
            player(3, 8, 2, wins=1),  # 25%, more games: above 2
            player(4, MIN_GAMES - 1, 0),  # too few games
            player(5, 3, 0),
            PlayerStats(6),
            *(player(100 + i, 5, 4) for i in range(10)),
        ]
    )
    assert [p.user_id for p in board.ranked[:4]] == [5, 3, 2, 1]
    assert len(board.ranked) == 10 and board.unranked == 1 and board.min_games == MIN_GAMES


@pytest.mark.parametrize("lang", SUPPORTED)
def test_stats_texts(lang: str) -> None:
    tr = translator(lang)
    assert leaderboard_text([], 0, 3, tr) == tr.t("stats-empty")
    text = leaderboard_text([player(1, 5, 1, wins=2), player(2, 21, 11)], 2, 3, tr)
    lines = text.split("\n")
    assert lines[0] == tr.t("stats-title")
    assert lines[3] == tr.t(
        "stats-line", place=1, name="P1", rate=20, games=tr.t("games-count", count=5), wins=2
    )
    assert tr.t("stats-unranked", count=2, min=3) in text
    assert personal_text(PlayerStats(1), tr) == tr.t("stats-me-empty")
    mine = personal_text(PlayerStats(1, games=5, durak=2, draws=1, places={1: 2, 3: 3}), tr)
    assert tr.t("stats-me-durak", times=tr.t("series-times", count=2), rate=40) in mine
    places = {
        "ru": "По местам: 1-е — 2 раза · 3-е — 5 раз",
        "uk": "За місцями: 1-ше — 2 рази · 3-тє — 5 разів",
    }
    mine = personal_text(PlayerStats(1, games=7, durak=2, places={1: 2, 3: 5}), tr)
    assert places[lang] in mine.splitlines()


@pytest.mark.parametrize(
    ("lang", "count", "expected"),
    [
        (
            "ru",
            3,
            "📊 Пока никто не сыграл 3 игр, чтобы попасть в таблицу: 3 игрока сыграли меньше.",
        ),
        ("ru", 1, "📊 Пока никто не сыграл 3 игр, чтобы попасть в таблицу: 1 игрок сыграл меньше."),
        (
            "ru",
            5,
            "📊 Пока никто не сыграл 3 игр, чтобы попасть в таблицу: 5 игроков сыграли меньше.",
        ),
        (
            "ru",
            21,
            "📊 Пока никто не сыграл 3 игр, чтобы попасть в таблицу: 21 игрок сыграл меньше.",
        ),
        (
            "uk",
            3,
            "📊 Поки ніхто не зіграв 3 ігор, щоб потрапити до таблиці: 3 гравці зіграли менше.",
        ),
        (
            "uk",
            1,
            "📊 Поки ніхто не зіграв 3 ігор, щоб потрапити до таблиці: 1 гравець зіграв менше.",
        ),
        (
            "uk",
            5,
            "📊 Поки ніхто не зіграв 3 ігор, щоб потрапити до таблиці: 5 гравців зіграли менше.",
        ),
        (
            "uk",
            22,
            "📊 Поки ніхто не зіграв 3 ігор, щоб потрапити до таблиці: 22 гравці зіграли менше.",
        ),
    ],
)
def test_a_board_nobody_is_ranked_on_says_so_instead_of_an_empty_table(
    lang: str, count: int, expected: str
) -> None:
    """«Ещё 3 игрока сыграли меньше 3 игр.» stood under an empty table."""
    board = leaderboard([player(i, 1 + i % 2, 0) for i in range(count)])
    assert not board.ranked and board.unranked == count
    assert leaderboard_text(board.ranked, board.unranked, board.min_games, translator(lang)) == (
        expected
    )


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "ru",
            "С людьми у тебя ещё нет ни одной доигранной игры, только с ботами. Собери стол в "
            "группе: /newgame\n\n🤖 <b>Против ботов</b> (считается отдельно):\n"
            "сильный: 1 игра, в дураках 0 раз",
        ),
        (
            "uk",
            "З людьми в тебе ще немає жодної дограної гри, лише з ботами. Збери стіл у групі: "
            "/newgame\n\n🤖 <b>Проти ботів</b> (рахується окремо):\nсильний: 1 гра, у дурнях 0 "
            "разів",
        ),
    ],
)
def test_my_stats_with_games_against_computers_only_do_not_say_i_have_none(
    lang: str, expected: str
) -> None:
    """Private /stats said «У тебя ещё нет ни одной доигранной игры…» and then
    «сильный: 1 игра» against computers."""
    versus = {"hard": PlayerStats(1, games=1)}
    assert personal_text(PlayerStats(1), translator(lang), versus) == expected
    assert personal_text(PlayerStats(1), translator(lang), {}) == translator(lang).t(
        "stats-me-empty"
    )


@pytest.mark.parametrize(
    ("lang", "count", "games", "times"),
    [
        ("ru", 1, "1 игра", "1 раз"),
        ("ru", 3, "3 игры", "3 раза"),
        ("ru", 5, "5 игр", "5 раз"),
        ("ru", 22, "22 игры", "22 раза"),
        ("uk", 1, "1 гра", "1 раз"),
        ("uk", 3, "3 гри", "3 рази"),
        ("uk", 5, "5 ігор", "5 разів"),
        ("uk", 11, "11 ігор", "11 разів"),
    ],
)
def test_games_and_times_have_plural_forms(lang: str, count: int, games: str, times: str) -> None:
    tr = translator(lang)
    assert tr.t("games-count", count=count) == games
    assert tr.t("series-times", count=count) == times
