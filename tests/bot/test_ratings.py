"""Ratings against a real Redis (``bot.storage.players.RatingStore``): a finished game is
rated exactly once, in the same write as its last move, also when presses race for that
move; two games ending at once for one person are both rated, one after the other; a
stopped game is not rated; the end of a rated game says what it did to each rating."""

from __future__ import annotations

import asyncio

import pytest
from kit import (
    ANNA,
    BORIS,
    CHAT,
    VERA,
    Clock,
    dealt,
    no,
    position,
    put_state,
    reason_of,
    seated,
    yes,
)

from bot.i18n import translator
from bot.model import GameRecord
from bot.rating import Side, Skill, rate
from bot.schema.presses import Move
from bot.schema.stats import MyRating, Rated
from bot.services import DUPLICATE, Changed, Claim, GameService, PressOutcome, UpdateOnce
from bot.services.computers import ComputerSeats
from bot.services.people import StatsService
from bot.storage import Storage
from bot.ui.board import rating_lines, signed
from bot.ui.stats import my_rating_line, top_text
from engine import Action, Attack, Card, Take, Throw
from engine.ai.ladder import ladder_rating
from engine.rating import START_POINTS, displayed

OTHER = -1002  # a second group


# Вера (seat 2) is out; Аня attacks Борис with 6♠ and throws in 6♣; Борис can only take:
# the game ends with Борис the durak, Аня second, Вера first.
RACE = position(["6S 6C", "7H 8H", ""], trump="D", attacker=0)


@pytest.fixture
def service(storage: Storage, clock: Clock) -> GameService:
    return GameService(storage, clock=clock, seed=lambda: f"{7:064x}")


async def press(
    service: GameService, record: GameRecord, action: Action, moves: int, chat: int = CHAT
) -> object:
    user = record.game.players[action.player].user_id
    outcome = await service.play(chat, record.game.game_id, moves, Move.of(action), user)
    return reason_of(outcome)


async def to_the_last_move(service: GameService, chat: int = CHAT) -> GameRecord:
    """Аня, Борис and Вера at ``RACE``, Аня's attack and throw-in made: Борис's take ends
    the game."""
    await dealt(service, ANNA, BORIS, VERA, chat=chat)
    record = await put_state(service, RACE, chat=chat)
    assert await press(service, record, Attack(0, (Card.parse("6S"),)), 0, chat) is None
    assert await press(service, record, Throw(0, (Card.parse("6C"),)), 1, chat) is None
    return record


async def test_a_race_for_the_last_move_rates_the_game_once(
    service: GameService, storage: Storage
) -> None:
    record = await to_the_last_move(service)
    results = await asyncio.gather(*(press(service, record, Take(1), 2) for _ in range(6)))
    assert results.count(None) == 1
    people = [VERA.user_id, ANNA.user_id, BORIS.user_id]  # first out, second, the durak
    rated = await storage.ratings.of(people)
    assert [games for _skill, games in rated] == [1, 1, 1]
    vera, anna, boris = (skill for skill, _games in rated)
    assert vera.mu > anna.mu > boris.mu
    final = await service.games.get(CHAT)
    assert final is not None
    changes = {change.user_id: change for change in final.game.rated}
    assert {u: changes[u].before for u in people} == dict.fromkeys(people, START_POINTS)
    assert [changes[u].after for u in people] == [s.points for s, _games in rated]
    names = {VERA.user_id: VERA.name, ANNA.user_id: ANNA.name, BORIS.user_id: BORIS.name}
    assert await storage.ratings.played_in(CHAT) == {u: (names[u], 1) for u in people}


async def test_a_final_move_delivered_twice_is_rated_once(
    service: GameService, storage: Storage
) -> None:
    """Telegram delivers the last press again while its first delivery is slow (its claim
    lapsed): the redelivery plays it, the first finds it applied and saves nothing."""
    record = await to_the_last_move(service)
    once, update = UpdateOnce(storage.updates), 77

    async def take(claim: Claim | None) -> PressOutcome:
        game_id = record.game.game_id
        return await service.play(CHAT, game_id, 2, Move.of(Take(1)), BORIS.user_id, once=claim)

    async def slow(claim: Claim | None) -> PressOutcome:
        await storage.redis.delete(storage.keys.update(update))  # its claim lapsed
        redelivered = await once.run(update, take)  # meanwhile
        assert isinstance(redelivered, Changed)
        return await take(claim)

    assert await once.run(update, slow) is DUPLICATE
    rated = await storage.ratings.of([ANNA.user_id, BORIS.user_id, VERA.user_id])
    assert [games for _skill, games in rated] == [1, 1, 1]


async def test_two_games_ending_at_once_for_one_person_are_both_rated(
    service: GameService, storage: Storage
) -> None:
    here, there = await to_the_last_move(service), await to_the_last_move(service, OTHER)
    await asyncio.gather(press(service, here, Take(1), 2), press(service, there, Take(1), 2, OTHER))
    [(anna, games)] = await storage.ratings.of([ANNA.user_id])
    assert games == 2
    ends = [await service.games.get(chat) for chat in (CHAT, OTHER)]
    mine = [next(c for c in end.game.rated if c.user_id == ANNA.user_id) for end in ends if end]
    # One after the other: the later game started from where the earlier one left her.
    first, second = sorted(mine, key=lambda change: change.before)
    assert first.before == START_POINTS and second.before == first.after
    assert second.after == anna.points


async def test_a_stopped_game_is_not_rated(service: GameService, storage: Storage) -> None:
    await to_the_last_move(service)
    await service.stop(CHAT, ANNA.user_id, "Аня", is_admin=yes)
    assert await storage.ratings.of([ANNA.user_id]) == [(Skill(), 0)]
    assert await storage.ratings.played_in(CHAT) == {}


@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_the_end_of_a_rated_game_says_each_change(service: GameService, lang: str) -> None:
    record = await to_the_last_move(service)
    await press(service, record, Take(1), 2)
    final = await service.games.get(CHAT)
    assert final is not None
    lines = rating_lines(final.game, translator(lang))
    assert lines[1] == "<b>Рейтинг:</b>"
    vera = next(c for c in final.game.rated if c.user_id == VERA.user_id)
    delta = signed(vera.after - vera.before)
    assert f"Вера: 1\xa0500 → {vera.after:,} ({delta})".replace(",", "\xa0") in lines


def test_signed_changes_read_as_people_write_them() -> None:
    assert [signed(n) for n in (15, -7, 0)] == ["+15", "−7", "±0"]


def test_twenty_wins_against_normal_end_above_it_and_twenty_losses_to_easy_below() -> None:
    """The computers' fixed skills (the shipped ladder) do not move; a person's does."""
    normal, easy = Skill(*ladder_rating("normal")), Skill(*ladder_rating("easy"))
    person = Skill()
    for _ in range(20):
        person, computer = rate([Side((0,), 1), Side((1,), 2)], [person, normal], frozenset({1}))
        assert computer == normal
    assert person.points > displayed(normal.mu, normal.sigma)
    person = Skill()
    for _ in range(20):
        person, _computer = rate([Side((0,), 2), Side((1,), 1)], [person, easy], frozenset({1}))
    assert person.points < displayed(easy.mu, easy.sigma)


async def test_the_deal_shows_each_seat_s_rating(service: GameService, storage: Storage) -> None:
    """Read with the deal, kept with the game: a person's once they have a rated game, a
    computer's level's always."""
    first = await to_the_last_move(service)
    assert [seat.rating for seat in first.game.players] == [None, None, None]
    assert await press(service, first, Take(1), 2) is None
    again = await dealt(service, ANNA, BORIS, VERA)
    rated = await storage.ratings.of([seat.user_id for seat in again.game.players])
    assert [seat.rating for seat in again.game.players] == [skill.points for skill, _ in rated]
    assert len({seat.rating for seat in again.game.players}) == 3
    await seated(service, ANNA, chat=OTHER)
    await ComputerSeats(service).add(OTHER, ANNA, level="easy")
    started = await service.start(OTHER, ANNA.user_id, is_admin=no)
    assert isinstance(started, Changed) and started.record is not None
    shown = {seat.level: seat.rating for seat in started.record.game.players}
    assert shown == {None: rated[0][0].points, "easy": displayed(*ladder_rating("easy"))}


# -- /top and /stats ---------------------------------------------------------------------------


async def rated_games(service: GameService, count: int, chat: int = CHAT) -> None:
    """``count`` rated games of Аня, Борис and Вера in ``chat``: Вера out first, Борис the
    durak, each time."""
    for _ in range(count):
        record = await to_the_last_move(service, chat)
        assert await press(service, record, Take(1), 2, chat) is None


async def test_top_lists_who_played_enough_here_and_not_who_left(
    service: GameService, storage: Storage
) -> None:
    stats = StatsService(storage.stats, storage.ratings)
    await rated_games(service, 2)
    assert [row.level for row in await stats.top(CHAT)] == ["hard", "normal", "easy"]
    await rated_games(service, 1)
    rows = await stats.top(CHAT)
    people = [row for row in rows if row.level is None]
    assert [(row.place, row.name, row.games) for row in people] == [
        (1, "Вера", 3),
        (2, "Аня", 3),
        (3, "Борис", 3),
    ]
    assert [row.points for row in rows] == sorted((row.points for row in rows), reverse=True)
    await service.member_left(CHAT, BORIS.user_id)
    assert "Борис" not in [row.name for row in await stats.top(CHAT)]


async def test_my_rating_is_shown_where_i_played_and_in_private(
    service: GameService, storage: Storage
) -> None:
    stats = StatsService(storage.stats, storage.ratings)
    assert await stats.my_rating(ANNA.user_id) is None
    await rated_games(service, 1)
    here = await stats.my_rating(ANNA.user_id, CHAT)
    assert here is not None and (here.place, here.of, here.games) == (2, 3, 1)
    assert await stats.my_rating(ANNA.user_id, OTHER) is None  # she never played there
    anywhere = await stats.my_rating(ANNA.user_id)
    assert anywhere is not None and anywhere.points == here.points


@pytest.mark.parametrize(
    ("lang", "games"),
    [("ru", {1: "1 игра", 3: "3 игры", 5: "5 игр"}), ("uk", {1: "1 гра", 3: "3 гри", 5: "5 ігор"})],
)
def test_top_and_my_rating_in_words(lang: str, games: dict[int, str]) -> None:
    tr = translator(lang)
    rows = [
        Rated("Оля", 1627, place=1, games=5),
        Rated("", 1580, level="hard"),
        Rated("Вася", 1512, place=2, games=3),
        Rated("Петя", 1490, place=3, games=1),
    ]
    text = top_text(rows, 3, tr)
    assert f"1. Оля — <b>1\xa0627</b> ({games[5]})" in text
    assert f"3. Петя — <b>1\xa0490</b> ({games[1]})" in text
    assert "🤖 " + tr.t("ai-level-hard") + " — 1\xa0580" in text
    assert top_text([Rated("", 1580, level="hard")], 3, tr) == tr.t("top-empty", min=3)
    mine = my_rating_line(MyRating(1512, 3, 2, 7), tr, here=False)
    assert "1\xa0512" in mine and games[3] in mine and "7" in mine


async def test_a_group_that_becomes_a_supergroup_keeps_its_rated_games(
    service: GameService, storage: Storage
) -> None:
    await rated_games(service, 1)
    before = await storage.ratings.played_in(CHAT)
    await service.migrate_chat(CHAT, OTHER)
    assert await storage.ratings.played_in(OTHER) == before
    assert await storage.ratings.played_in(CHAT) == {}
