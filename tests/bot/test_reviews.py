"""«Разбор» in the background (``bot.services.reviews``): one line of reviews, the computers'
waiting moves first, a kept review sent again, and what a person is told meanwhile."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

from kit import ANNA, BORIS, CHAT, Clock, dealt
from test_replays import SEED, play_out

from bot.i18n import translator
from bot.model import FinishedGame
from bot.schema.reviews import Moment, Review
from bot.services import GameService
from bot.services.replays import played
from bot.services.reviews import Reviews, review_pool
from bot.storage import Storage
from bot.ui.review import review_text
from engine.ai.review import costliest, decisions, judge
from engine.record import action_to_dict


class Inbox:
    """What the reviews said to whom: (user, language, review or game id)."""

    def __init__(self) -> None:
        self.reviews: list[tuple[int, str, Review]] = []
        self.waits: list[tuple[int, str, str]] = []
        self.said = asyncio.Condition()

    async def send(self, user_id: int, language: str, made: Review) -> None:
        async with self.said:
            self.reviews.append((user_id, language, made))
            self.said.notify_all()

    async def waiting(self, user_id: int, language: str, game_id: str) -> None:
        async with self.said:
            self.waits.append((user_id, language, game_id))
            self.said.notify_all()

    async def until(self, done: Callable[[], bool], timeout: float) -> None:
        async with self.said:
            await asyncio.wait_for(self.said.wait_for(done), timeout)


async def finished_game(storage: Storage, clock: Clock) -> FinishedGame:
    service = GameService(storage, clock=clock, seed=lambda: SEED)
    await play_out(service, await dealt(service, ANNA, BORIS))
    kept = await storage.finished.latest(CHAT)
    assert kept is not None
    return kept


async def test_a_review_is_the_engine_s_judgment_kept_and_sent_again(
    storage: Storage, clock: Clock
) -> None:
    finished = await finished_game(storage, clock)
    inbox = Inbox()
    reviews = Reviews(storage, inbox.send, inbox.waiting, lambda: False)
    reviews.start()
    try:
        assert (await reviews.ask(finished, ANNA.user_id)).ahead == 0
        await inbox.until(lambda: bool(inbox.reviews), timeout=60)
        [(user, language, made)] = inbox.reviews
        assert (user, language, made.game_id) == (ANNA.user_id, "ru", finished.game_id)
        # What the engine's review of the same game finds, seeded as the bot seeds it.
        chosen = list(decisions(finished.deal.start, played(finished)[0], 0))
        judged = costliest(judge(decision, seed=decision.index) for decision in chosen)
        names = ["Аня", "Борис"]
        assert made.decisions == len(chosen) > 0
        assert [(m.index, m.played, m.preferred) for m in made.moments] == [
            (j.index, action_to_dict(j.played, names), action_to_dict(j.preferred, names))
            for j in judged
        ]
        kept = await storage.reviews.get(CHAT, finished.game_id, ANNA.user_id)
        assert kept is not None and Review.from_dict(kept) == made
        # Asked again: the kept review at once, nothing made anew.
        again = await reviews.ask(finished, ANNA.user_id)
        assert again.review == made and len(inbox.reviews) == 2
    finally:
        await reviews.stop()


async def test_reviews_wait_in_line_and_for_the_computers(storage: Storage, clock: Clock) -> None:
    finished = await finished_game(storage, clock)
    inbox = Inbox()
    busy = True
    reviews = Reviews(storage, inbox.send, inbox.waiting, lambda: busy)
    reviews.start()
    try:
        assert (await reviews.ask(finished, ANNA.user_id)).ahead == 0
        assert (await reviews.ask(finished, BORIS.user_id)).ahead == 1
        assert (await reviews.ask(finished, BORIS.user_id)).ahead == 1  # asked twice: once
        # Told once it waited long (``SAY_WAITING_AFTER``), and nothing judged meanwhile.
        await inbox.until(lambda: bool(inbox.waits), timeout=30)
        assert inbox.reviews == []
        assert inbox.waits == [(ANNA.user_id, "ru", finished.game_id)]
        busy = False
        await inbox.until(lambda: len(inbox.reviews) == 2, timeout=120)
        assert [user for user, _, _ in inbox.reviews] == [ANNA.user_id, BORIS.user_id]
    finally:
        await reviews.stop()


def test_a_review_in_words() -> None:
    cover = {"p": "Аня", "a": "defend", "card": "AD", "on": "6C"}
    better = {"p": "Аня", "a": "take"}
    made = Review("abc123", 17, (Moment(13, cover, better, 0.61, 0.44),))
    assert review_text(made, translator("ru")).splitlines()[1] == (
        "Ход 14: твой выбор — покрыть 6♣ картой Т♦. Лучше было взять: 61% → 44%"
    )
    assert review_text(made, translator("uk")).splitlines()[1] == (
        "Хід 14: твій вибір — покрити 6♣ картою Т♦. Краще було взяти: 61% → 44%"
    )
    clean = Review("abc123", 17, ())
    assert "17" in review_text(clean, translator("ru"))


def test_reviews_are_judged_at_the_lowest_priority() -> None:
    """The reviews' own pool: a process the system runs last (``os.nice(19)``)."""
    pool = review_pool(1)
    assert pool is not None
    try:
        assert pool.submit(os.nice, 0).result(timeout=60) == 19
    finally:
        pool.shutdown()
    assert review_pool(0) is None
