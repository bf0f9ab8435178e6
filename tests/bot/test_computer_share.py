"""The computers' budget of thinking, through the services with a real Redis and
``ComputerTurns`` choosing for real: a busy pool shortens a ``hard`` search and counts it,
never silently plays ``normal``, and a wait for a place is no overrun; tables take turns
whatever their number of computers; a person alone at several tables has one share.

The pool is a thread that starts each search only when the test lets it go (``HeldPool``),
so what waits for a place, and in what order the tables are served, is the test's to see."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest
from kit import ANNA, BORIS, VERA, Clock, no

from bot.metrics import REGISTRY
from bot.model import ChatGame, ChatSettings, Seat
from bot.schema.presses import Move
from bot.services import Changed, GameService, Outcome, Player
from bot.services.computers import ComputerSeats, ComputerTurns, share_of
from bot.storage import Storage
from engine import legal_actions


class HeldPool(ThreadPoolExecutor):
    """One thread; each job (a real search) starts once the test releases ``go``. Records
    the budget every search was given."""

    def __init__(self) -> None:
        super().__init__(1)
        self.go = threading.Semaphore(0)
        self.budgets: list[float] = []
        self.finished = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.budgets.append(args[-1])

        def held() -> Any:
            self.go.acquire()
            try:
                return fn(*args, **kwargs)
            finally:
                self.finished += 1

        return super().submit(held)

    @property
    def running(self) -> int:
        return len(self.budgets) - self.finished


@pytest.fixture
def service(storage: Storage, clock: Clock) -> GameService:
    return GameService(storage, clock=clock, seed=lambda: f"{7:064x}")


@pytest.fixture
async def pool() -> AsyncIterator[HeldPool]:
    held = HeldPool()
    yield held
    held.go.release(1000)  # nothing stays blocked for the interpreter to wait on
    held.shutdown(wait=True)


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def until(condition: Callable[[], bool], seconds: float = 15.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.005)


async def table(
    service: GameService, chat_id: int, person: Player, computers: int, level: str = "hard"
) -> None:
    """``person`` alone with ``computers`` computer players of ``level`` in ``chat_id``
    (a group, or the person's private chat), dealt."""
    await service.storage.users.mark_started(person.user_id)
    await service.new_lobby(chat_id, person, can_message=no)
    seats = ComputerSeats(service)
    for _ in range(computers):
        assert isinstance(await seats.add(chat_id, person, level=level), Changed)
    assert isinstance(await service.start(chat_id, person.user_id, is_admin=no), Changed)


async def people_play(service: GameService, chat_id: int, rng: random.Random) -> None:
    """The person at ``chat_id`` (seat 0) plays random moves while they may act."""
    while True:
        record = await service.storage.games.get(chat_id)
        assert record is not None and record.game.state is not None
        state = record.game.state
        if 0 not in state.acting:
            return
        action = rng.choice(legal_actions(state, 0))
        user_id = record.game.players[0].user_id
        outcome = await service.play(
            chat_id, record.game.game_id, state.moves, Move.of(action), user_id
        )
        assert isinstance(outcome, Changed), outcome


def turns_with(
    service: GameService, pool: HeldPool, published: list[Outcome], **options: Any
) -> ComputerTurns:
    """The computer players' driver with no pause, a pool of one place, no pacing to speak
    of; its loop is not started: the test dispatches."""
    settings: dict[str, Any] = {"budget_ms": 20, "per_second": 10_000.0, **options}
    return ComputerTurns(
        service,
        service.storage.computer_turns,
        published.append,
        pause=0.0,
        processes=1,
        pool=pool,
        clock=service.clock,
        **settings,
    )


async def one_search(
    service: GameService,
    turns: ComputerTurns,
    pool: HeldPool,
    published: list[Outcome],
    chats: list[int],
    rng: random.Random,
) -> int:
    """People whose turn it is play; every table with a computer due waits its turn; once
    one search runs and the others wait in line, it may go. The chat whose computer moved."""
    for chat_id in chats:
        await people_play(service, chat_id, rng)
    storage = service.storage
    due = await storage.computer_turns.due(service.clock())
    assert sorted(due) == sorted(chats)  # every table's computer wants to move
    turns.dispatch(due)
    await until(lambda: pool.running == 1 and turns.thinking.waiting() == len(due) - 1)
    before = len(published)
    pool.go.release()
    await until(lambda: len(published) > before)
    moved = published[before]
    assert isinstance(moved, Changed) and moved.record is not None
    return moved.record.game.chat_id


async def test_a_busy_pool_shortens_hard_and_counts_it_and_a_wait_is_no_overrun(
    service: GameService, storage: Storage, clock: Clock, pool: HeldPool
) -> None:
    """Three tables' hard computers want the one place: the two that wait are not in the
    pool (their wait runs no overrun clock) though the search before them is stuck past its
    overrun; that one alone falls back to normal, counted; the next search is shortened
    (two wanted the pool's next 50 ms), counted; the last gets its full budget."""
    chats = [-2001, -2002, -2003]
    for chat_id, person in zip(chats, (ANNA, BORIS, VERA), strict=True):
        await table(service, chat_id, person, computers=1)
        await people_play(service, chat_id, random.Random(chat_id))
    overrun = sample("durak_computer_degraded_total", level="hard", reason="overrun")
    short = sample("durak_computer_degraded_total", level="hard", reason="short_budget")
    decided = sample("durak_computer_decision_seconds_count", level="hard")
    waited = sample("durak_computer_decision_seconds_sum", level="hard")
    published: list[Outcome] = []
    turns = turns_with(service, pool, published, budget_ms=40, within=0.05)

    turns.dispatch(chats[:1])
    await until(lambda: pool.running == 1)
    turns.dispatch(chats[1:])
    await until(lambda: turns.thinking.waiting() == 2)
    clock.now += 7  # the moves are saved 7 s after they were due
    # The first search is stuck past its overrun (3 × 40 ms + 2 s): it alone falls back.
    await until(lambda: len(published) == 1)
    assert published[0].record is not None and published[0].record.game.chat_id == chats[0]
    assert sample("durak_computer_degraded_total", level="hard", reason="overrun") == overrun + 1
    # Its search still runs, so it keeps the place: the others still wait, not in the pool.
    assert pool.running == 1 and len(pool.budgets) == 1 and turns.thinking.waiting() == 2

    pool.go.release(3)
    await until(lambda: len(published) == 3)
    assert len(published) == 3  # each a move
    assert pool.finished == 3
    # Waiting over 2 s in line was no overrun; the second search was shortened, and said so.
    assert pool.budgets == [40, 25, 40]
    assert sample("durak_computer_degraded_total", level="hard", reason="overrun") == overrun + 1
    assert sample("durak_computer_degraded_total", level="hard", reason="short_budget") == (
        short + 1
    )
    assert sample("durak_computer_decision_seconds_count", level="hard") == decided + 3
    assert sample("durak_computer_decision_seconds_sum", level="hard") == pytest.approx(waited + 21)
    await turns.stop()


async def test_a_normal_computer_passes_searches_that_wait_for_the_pool(
    service: GameService, storage: Storage, pool: HeldPool
) -> None:
    """While one hard search holds the only place and another waits for it, a normal
    computer (a millisecond's choice) at a third table moves at once."""
    searching, waiting, quick = -2001, -2002, -2003
    await table(service, searching, ANNA, computers=1)
    await table(service, waiting, BORIS, computers=1)
    await table(service, quick, VERA, computers=1, level="normal")
    for chat_id in (searching, waiting, quick):
        await people_play(service, chat_id, random.Random(chat_id))
    published: list[Outcome] = []
    turns = turns_with(service, pool, published)
    turns.dispatch([searching])
    await until(lambda: pool.running == 1)
    turns.dispatch([waiting])
    await until(lambda: turns.thinking.waiting() == 1)
    turns.dispatch([quick])
    await until(lambda: len(published) == 1)
    assert published[0].record is not None and published[0].record.game.chat_id == quick
    assert pool.running == 1 and turns.thinking.waiting() == 1  # the searches still wait
    pool.go.release(2)
    await until(lambda: len(published) == 3)
    # Both searches then: the one that held the place and the one that waited (released
    # together, they finish in either order).
    assert {o.record.game.chat_id for o in published[1:] if o.record} == {searching, waiting}
    await turns.stop()


async def test_tables_take_turns_whatever_their_number_of_computers(
    service: GameService, storage: Storage, pool: HeldPool
) -> None:
    """Аня alone with five hard computers in her private chat, Борис with one in a group:
    while both tables' computers want to move, the searches alternate between them."""
    solo, group = ANNA.user_id, -2002
    await table(service, solo, ANNA, computers=5)
    await table(service, group, BORIS, computers=1)
    published: list[Outcome] = []
    turns = turns_with(service, pool, published)
    rng, chats = random.Random(4), [solo, group]
    order = [await one_search(service, turns, pool, published, chats, rng) for _ in range(8)]
    assert order in ([solo, group] * 4, [group, solo] * 4), order
    await turns.stop()


async def test_a_person_alone_at_several_tables_has_one_share(
    service: GameService, storage: Storage, pool: HeldPool
) -> None:
    """Аня alone with computers at two groups shares one turn between them; Борис alone at
    one gets every other search, not one in three."""
    first, second, boris = -2001, -2002, -2003
    await table(service, first, ANNA, computers=2)
    await table(service, second, ANNA, computers=2)
    await table(service, boris, BORIS, computers=2)
    published: list[Outcome] = []
    turns = turns_with(service, pool, published)
    rng = random.Random(6)
    chats = [first, second, boris]
    order = [await one_search(service, turns, pool, published, chats, rng) for _ in range(8)]
    annas = [chat_id != boris for chat_id in order]
    assert annas in ([True, False] * 4, [False, True] * 4), order
    assert {first, second} <= set(order)  # both of her tables move, in turn
    await turns.stop()


def test_a_table_of_several_people_is_its_own_share() -> None:
    """``share_of``: one person with computers is the person's; several people, the table's."""
    game = ChatGame(-5, "g", ANNA.user_id, ChatSettings())
    game.players = [Seat(ANNA.user_id, "Аня"), Seat(-1, "Федя", level="hard")]
    assert share_of(game) == f"person:{ANNA.user_id}"
    game.players.append(Seat(BORIS.user_id, "Борис"))
    assert share_of(game) == "table:-5"
