"""Redis: the key layout (``keys``), the one compare-and-set (``tx``), and one module per
feature: a chat's game (``games``), the group's own settings (``chats``), people and their
statistics (``players``), the outbox's state (``outbox``), the workers' coordination
(``workers``), and how to connect (``connect``). A game changes only through
``GameStore.update`` (compare-and-set); nothing about a game lives only in memory."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from redis.asyncio import Redis

from bot.model import ChatSettings

from .chats import ADMIN_TTL, MEMBER_TTL, AnswerCache, SettingsStore
from .finished import FinishedStore, ReviewStore
from .games import (
    KEEP,
    DeadlineStore,
    GameStore,
    MoveDecide,
    NewerRecord,
    Saved,
    SavedSettings,
    move_chat,
    moved_to,
)
from .keys import Keys
from .outbox import DeliveryStore, NoteStore, SentStore
from .players import RatingStore, StatsStore, UserStore
from .tx import StorageBusy
from .workers import AlreadyApplied, Claim, Leases, UpdateLog, WorkerRoll

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Storage:
    """Every store over one Redis connection pool."""

    redis: Redis
    keys: Keys
    games: GameStore
    settings: SettingsStore
    users: UserStore
    deadlines: DeadlineStore
    computer_turns: DeadlineStore
    delivery: DeliveryStore
    sent: SentStore
    admins: AnswerCache
    members: AnswerCache  # who may watch a group's table in the Mini App
    stats: StatsStore
    ratings: RatingStore
    leases: Leases
    workers: WorkerRoll
    notes: NoteStore
    updates: UpdateLog
    finished: FinishedStore  # finished games kept for their record, replay and review
    reviews: ReviewStore

    @classmethod
    def create(
        cls,
        redis: Redis,
        prefix: str,
        *,
        default_settings: ChatSettings,
        finished_ttl: int = 86_400,
        idle_ttl: int = 7 * 86_400,
        records_ttl: int = 30 * 86_400,
    ) -> Storage:
        keys = Keys(prefix)
        finished = FinishedStore(redis, keys, records_ttl)
        settings = SettingsStore(redis, keys, default_settings)
        leases = Leases(redis)
        delivery = DeliveryStore(redis, keys, idle_ttl, leases)
        stats = StatsStore(redis, keys)
        ratings = RatingStore(redis, keys)
        games = GameStore(
            redis,
            keys,
            delivery,
            settings=settings,
            stats=stats,
            ratings=ratings,
            finished=finished,
            finished_ttl=finished_ttl,
            idle_ttl=idle_ttl,
        )
        deadlines = DeadlineStore(redis, keys.deadlines())
        return cls(
            redis=redis,
            keys=keys,
            games=games,
            settings=settings,
            users=UserStore(redis, keys),
            deadlines=deadlines,
            computer_turns=DeadlineStore(redis, keys.computers()),
            delivery=delivery,
            sent=SentStore(redis, keys, idle_ttl),
            admins=AnswerCache(redis, keys.admin, keys.admin_pattern, ADMIN_TTL),
            members=AnswerCache(redis, keys.member, keys.member_pattern, MEMBER_TTL),
            stats=stats,
            ratings=ratings,
            leases=leases,
            workers=WorkerRoll(redis, keys.workers()),
            notes=NoteStore(redis, keys),
            updates=UpdateLog(redis, keys, leases),
            finished=finished,
            reviews=ReviewStore(redis, keys, records_ttl),
        )

    async def move_chat(self, old_chat: int, new_chat: int, decide: MoveDecide[T]) -> T:
        """Everything kept under ``old_chat`` moves to ``new_chat`` (``bot.storage.chats``)."""
        return await move_chat(
            self.games, self.settings, self.stats, self.admins, old_chat, new_chat, decide
        )

    async def moved_to(self, chat_id: int) -> int | None:
        """The new id of a group that became a supergroup, if it did (lately)."""
        return await moved_to(self.games, chat_id)


__all__ = [
    "KEEP",
    "AlreadyApplied",
    "AnswerCache",
    "Claim",
    "DeadlineStore",
    "DeliveryStore",
    "FinishedStore",
    "GameStore",
    "Keys",
    "Leases",
    "NewerRecord",
    "NoteStore",
    "RatingStore",
    "ReviewStore",
    "Saved",
    "SavedSettings",
    "SentStore",
    "SettingsStore",
    "StatsStore",
    "Storage",
    "StorageBusy",
    "UpdateLog",
    "UserStore",
    "WorkerRoll",
]
