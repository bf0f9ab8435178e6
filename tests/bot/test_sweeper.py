"""The turn sweeper against a real Redis, on the test's clock: it acts once a deadline has
passed on that clock (never on the wall clock), publishes what moved, and a chat that fails
does not stop the others."""

from __future__ import annotations

import asyncio
import logging

import pytest
from kit import ANNA, BORIS, CHAT, Clock, dealt

from bot.services import Changed, GameService, Outcome, TurnSweeper
from bot.storage import Storage
from bot.turn_clock import CLOCK_GRACE


@pytest.fixture
def service(storage: Storage, clock: Clock) -> GameService:
    return GameService(storage, clock=clock, seed=lambda: f"{42:064x}")


def sweeper_for(service: GameService, clock: Clock) -> tuple[TurnSweeper, list[Outcome]]:
    published: list[Outcome] = []
    sweeper = TurnSweeper(service, service.storage.deadlines, published.append, clock=clock)
    return sweeper, published


async def test_the_sweeper_acts_when_the_deadline_passes_on_its_clock(
    service: GameService, clock: Clock
) -> None:
    record = await dealt(service, ANNA, BORIS)
    assert record.deadline == clock.now + CLOCK_GRACE + 30
    assert record.game.state is not None
    attacker = record.game.state.acting
    sweeper, published = sweeper_for(service, clock)
    clock.now = record.deadline - 0.5
    assert await sweeper.sweep() == 0
    assert published == []
    clock.now = record.deadline
    assert await sweeper.sweep() == 1
    [outcome] = published
    assert isinstance(outcome, Changed) and outcome.timed_out == attacker
    assert outcome.record is not None and outcome.record.game.state is not None
    assert outcome.record.game.state.moves == 1
    assert await sweeper.sweep() == 0  # the next deadline is later on the same clock


async def test_a_chat_that_fails_does_not_stop_the_sweep(
    service: GameService, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    await dealt(service, ANNA, BORIS)
    other = CHAT - 1
    await service.storage.redis.zadd(service.storage.keys.deadlines(), {str(other): 0})
    real = service.expire_turn

    async def expire_turn(chat_id: int) -> Outcome:
        if chat_id == other:
            raise RuntimeError("boom")
        return await real(chat_id)

    service.expire_turn = expire_turn  # type: ignore[method-assign]
    sweeper, published = sweeper_for(service, clock)
    clock.now += 10_000
    with caplog.at_level(logging.ERROR, logger="bot.services.due"):
        assert await sweeper.sweep() == 1
    assert [o.chat_id for o in published] == [CHAT]
    assert any(str(other) in r.getMessage() for r in caplog.records)


async def test_the_running_sweeper_acts_at_once_and_stops_when_told(
    service: GameService, clock: Clock
) -> None:
    """The loop sweeps before it waits, so with the test's clock past the deadline it acts
    without any wall-clock time passing; ``stop`` wakes it from its wait."""
    await dealt(service, ANNA, BORIS)
    moved = asyncio.Event()
    published: list[Changed] = []

    def publish(outcome: Changed) -> None:
        published.append(outcome)
        moved.set()

    sweeper = TurnSweeper(service, service.storage.deadlines, publish, clock=clock)
    clock.now += 10_000
    sweeper.start()
    await asyncio.wait_for(moved.wait(), 5)
    await asyncio.wait_for(sweeper.stop(), 5)
    assert len(published) == 1 and published[0].timed_out
