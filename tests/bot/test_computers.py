"""Computer players at a group's table, through the services with a real Redis:
seating and removing them, a game of one person and two computers played to the end, the
turn timer that never plays for a computer, statistics counted apart, and a restart while
a computer is due."""

from __future__ import annotations

import asyncio
import itertools
import random

import pytest
from kit import ANNA, BORIS, CHAT, Clock, no, reason_of, seated, yes

from bot.i18n import SUPPORTED, translator
from bot.model import ChatSettings, GameRecord, Phase
from bot.schema.presses import Move
from bot.schema.refusals import Reason
from bot.services import Changed, GameService, Outcome, Player
from bot.services.computers import ComputerSeats, ComputerTurns
from bot.storage import Storage
from bot.ui.lobby import lobby_view
from bot.ui.stats import personal_text
from engine import HouseRules, legal_actions

_queries = itertools.count()


@pytest.fixture
def service(storage: Storage, clock: Clock) -> GameService:
    return GameService(storage, clock=clock, seed=lambda: f"{7:064x}")


def turns_of(service: GameService, published: list[Outcome]) -> ComputerTurns:
    """The computer players' driver with no pause and no pool of processes."""
    return ComputerTurns(
        service,
        service.storage.computer_turns,
        published.append,
        pause=0.0,
        budget_ms=40,
        processes=0,
        clock=service.clock,
    )


async def test_computers_sit_down_with_the_chats_level_and_leave_again(
    service: GameService, storage: Storage
) -> None:
    await storage.settings.set(CHAT, ChatSettings(ai_level="hard"))
    await seated(service, ANNA, BORIS)
    seats = ComputerSeats(service)
    added = await seats.add(CHAT, BORIS)
    assert isinstance(added, Changed) and added.record is not None
    fedya = added.record.game.players[-1]
    assert (fedya.name, fedya.level, fedya.computer) == ("Федя", "hard", True)
    assert fedya.user_id < 0
    easy = await seats.add(CHAT, ANNA, level="easy")
    assert easy.record is not None
    assert [(p.name, p.level) for p in easy.record.game.players[2:]] == [
        ("Федя", "hard"),
        ("Маша", "easy"),
    ]
    # Computers have no private chat: they are not in the users' index.
    assert await storage.users.games_of(fedya.user_id) == {}
    # Only the lobby's creator (or an admin) takes one out again; the last seated first.
    refused = await seats.remove(CHAT, BORIS.user_id, is_admin=no)
    assert reason_of(refused) is Reason.NOT_ALLOWED_REMOVE_COMPUTER
    removed = await seats.remove(CHAT, ANNA.user_id, is_admin=no)
    assert isinstance(removed, Changed) and removed.record is not None
    assert [p.name for p in removed.record.game.players] == ["Аня", "Борис", "Федя"]
    await seats.remove(CHAT, BORIS.user_id, is_admin=yes)
    none = await seats.remove(CHAT, ANNA.user_id, is_admin=no)
    assert reason_of(none) is Reason.NO_COMPUTER


async def test_a_computer_takes_no_name_of_a_person_at_the_table(
    service: GameService, storage: Storage
) -> None:
    """Маша pressed «Добавить бота» and the computer sat as «🤖 Маша». A computer
    gets a name no person seated has (a whole name or one of its words, ё as е); a person
    who sits down later keeps their name, and the next computer avoids it too."""
    masha, fedya = Player(11, "Маша"), Player(12, "федя Иванов")
    await seated(service, masha, fedya)
    seats = ComputerSeats(service)
    await seats.add(CHAT, masha)
    await seats.add(CHAT, masha)
    await storage.users.mark_started(13)
    await service.join(CHAT, Player(13, "Лева"), can_message=no)
    added = await seats.add(CHAT, masha)
    assert added.record is not None
    game = added.record.game
    assert [(p.name, p.computer) for p in game.players] == [
        ("Маша", False),
        ("федя Иванов", False),
        ("Гоша", True),
        ("Соня", True),
        ("Лева", False),
        ("Ната", True),
    ]
    for lang in SUPPORTED:  # the lobby names each once, computers with their robot
        text = lobby_view(game, translator(lang)).text
        assert "🤖 Гоша" in text and "🤖 Соня" in text and "🤖 Ната" in text
        assert "🤖 Маша" not in text and "🤖 Федя" not in text and "🤖 Лёва" not in text


async def test_computers_count_toward_the_seats_and_a_game_needs_a_person(
    service: GameService, storage: Storage
) -> None:
    await storage.settings.set(CHAT, ChatSettings(rules=HouseRules(max_players=2)))
    await seated(service, ANNA)
    seats = ComputerSeats(service)
    assert isinstance(await seats.add(CHAT, ANNA), Changed)
    assert reason_of(await seats.add(CHAT, ANNA)) is Reason.LOBBY_FULL
    assert isinstance(await service.leave(CHAT, ANNA.user_id, game_id=None), Changed)
    refused = await service.start(CHAT, ANNA.user_id, is_admin=yes)
    assert reason_of(refused) is Reason.TOO_FEW
    assert isinstance(await service.join(CHAT, BORIS, can_message=yes), Changed)
    await service.leave(CHAT, BORIS.user_id)
    assert isinstance(await seats.add(CHAT, ANNA), Changed)
    alone = await service.start(CHAT, ANNA.user_id, is_admin=yes)
    assert reason_of(alone) is Reason.NO_PERSON


async def play_person(service: GameService, record: GameRecord, rng: random.Random) -> bool:
    """One random legal move of the person (Аня) if she may act; whether she moved."""
    state = record.game.state
    assert state is not None
    if 0 not in state.acting or record.game.players[0].computer:
        return False
    action = rng.choice(legal_actions(state, 0))
    outcome = await service.play(
        CHAT, record.game.game_id, state.moves, Move.of(action), ANNA.user_id
    )
    assert isinstance(outcome, Changed), outcome
    return True


async def play_to_end(service: GameService, turns: ComputerTurns, rng: random.Random) -> None:
    """Аня plays random moves, the computers theirs, until the game is over."""
    storage = service.storage
    for _ in range(2000):
        record = await storage.games.get(CHAT)
        assert record is not None and record.game.state is not None
        if record.game.phase is Phase.FINISHED:
            return
        if await play_person(service, record, rng):
            continue
        # Nobody but computers may act: their turn is listed in Redis, and never timed.
        assert record.deadline is None
        assert await storage.computer_turns.due(service.clock()) == [CHAT]
        outcome = await turns.play(CHAT)
        assert outcome is not None and isinstance(outcome, Changed)
    raise AssertionError("the game did not end")


async def test_a_series_goes_on_with_its_computers(service: GameService, storage: Storage) -> None:
    await storage.settings.set(CHAT, ChatSettings(series=3))
    await seated(service, ANNA)
    await ComputerSeats(service).add(CHAT, ANNA, level="easy")
    first = await service.start(CHAT, ANNA.user_id, is_admin=no)
    assert first.record is not None and first.record.game.series is not None
    await play_to_end(service, turns_of(service, []), random.Random(8))
    over = await storage.games.get(CHAT)
    assert over is not None and over.game.series is not None
    assert set(over.game.series.durak) == {ANNA.user_id, -1}  # the computer is in the tally
    nxt = await service.next_in_series(CHAT, over.game.game_id, ANNA)
    assert isinstance(nxt, Changed) and nxt.record is not None
    assert sorted(str(p.level) for p in nxt.record.game.players) == ["None", "easy"]
    assert nxt.record.game.series is not None and nxt.record.game.series.number == 2


async def test_one_person_and_two_computers_play_to_the_end(
    service: GameService, storage: Storage
) -> None:
    await seated(service, ANNA)
    seats = ComputerSeats(service)
    await seats.add(CHAT, ANNA, level="easy")
    await seats.add(CHAT, ANNA, level="normal")
    started = await service.start(CHAT, ANNA.user_id, is_admin=no)
    assert isinstance(started, Changed)
    published: list[Outcome] = []
    await play_to_end(service, turns_of(service, published), random.Random(3))
    assert published and all(o.record is not None for o in published)
    assert await storage.computer_turns.due(10**12) == []
    # Counted apart: the group's leaderboard and Аня's totals stay empty; her record
    # against computers (the strongest level at the table) has the game.
    assert await storage.stats.chat(CHAT) == []
    assert (await storage.stats.user(ANNA.user_id)).games == 0
    versus = await storage.stats.vs_computers(ANNA.user_id)
    assert set(versus) == {"normal"} and versus["normal"].games == 1
    # /stats in private tells it, apart from her totals.
    for lang in SUPPORTED:
        tr = translator(lang)
        text = personal_text(await storage.stats.user(ANNA.user_id), tr, versus)
        assert tr.t("stats-me-only-computers") in text and tr.t("stats-vs-title") in text
        assert tr.t("stats-me-empty") not in text
        assert tr.t("ai-level-normal") in text


async def test_the_timer_plays_for_people_only(
    service: GameService, storage: Storage, clock: Clock
) -> None:
    await seated(service, ANNA)
    await ComputerSeats(service).add(CHAT, ANNA, level="normal")
    record = (await service.start(CHAT, ANNA.user_id, is_admin=no)).record
    assert record is not None and record.game.state is not None
    while 0 not in record.game.state.acting:  # the computer opens: let it
        outcome = await turns_of(service, []).play(CHAT)
        assert outcome is not None and outcome.record is not None
        record = outcome.record
        assert record.game.state is not None
    assert record.deadline is not None  # the person has a clock
    clock.now = record.deadline + 1
    expired = await service.expire_turn(CHAT)
    assert isinstance(expired, Changed) and expired.timed_out == (0,)


async def test_a_restarted_bot_lets_the_due_computer_act(
    service: GameService, storage: Storage
) -> None:
    await until_the_computer_is_due(service, "hard", random.Random(9))
    # The bot that made the computer due is gone; a new one finds the turn in Redis.
    published: list[Outcome] = []
    new_bot = turns_of(service, published)
    assert await storage.computer_turns.due(service.clock()) == [CHAT]
    new_bot.dispatch(await storage.computer_turns.due(service.clock()))
    for task in list(new_bot.playing.values()):
        await task
    assert len(published) == 1  # the move
    await new_bot.stop()


async def test_one_worker_at_a_time_chooses_a_computers_move(
    service: GameService, storage: Storage
) -> None:
    """Two processes of the bot see the same computer due: one thinks, the other leaves it
    (a lease in Redis); a lease left by a killed worker lapses and the move is made."""
    record = await until_the_computer_is_due(service, "normal", random.Random(5))
    first, second = turns_of(service, []), turns_of(service, [])
    lease = storage.keys.computers_lease(CHAT)
    assert await storage.leases.take(lease, first.owner, 30)  # the first is thinking
    assert await second.play(CHAT) is None
    assert (await storage.games.get(CHAT)) == record  # nothing moved
    await storage.redis.pexpire(lease, 1)  # the first was killed: its lease lapses
    async with asyncio.timeout(5):
        while await storage.redis.exists(lease):
            await asyncio.sleep(0.001)
    moved = await second.play(CHAT)
    assert moved is not None and isinstance(moved, Changed)
    assert await storage.redis.exists(lease) == 0  # let go after the move


async def test_a_computer_waits_out_its_pause_whoever_is_asked(
    service: GameService, storage: Storage, clock: Clock
) -> None:
    """A worker that had the chat in line while another moved its computer finds the next
    computer due but its pause not over: it leaves the move for when it is due."""
    await until_the_computer_is_due(service, "normal", random.Random(5))
    published: list[Outcome] = []
    paused = ComputerTurns(
        service, storage.computer_turns, published.append, pause=1.5, processes=0, clock=clock
    )
    assert await paused.play(CHAT) is None
    assert (await storage.computer_turns.due(clock())) == [CHAT]  # still listed
    clock.now += 1.5
    moved = await paused.play(CHAT)
    assert moved is not None and isinstance(moved, Changed)


async def until_the_computer_is_due(
    service: GameService, level: str, rng: random.Random
) -> GameRecord:
    """Аня and a computer of ``level`` at the table, dealt; Аня plays until only the
    computer may act. The record then."""
    await seated(service, ANNA)
    await ComputerSeats(service).add(CHAT, ANNA, level=level)
    record = (await service.start(CHAT, ANNA.user_id, is_admin=no)).record
    assert record is not None and record.game.state is not None
    while not record.game.state.acting or 0 in record.game.state.acting:
        assert await play_person(service, record, rng)
        fresh = await service.storage.games.get(CHAT)
        assert fresh is not None and fresh.game.state is not None
        record = fresh
    return record
