"""Redis: the key layout (``keys``) and one module per kind of value. A game changes only
through ``GameStore.update`` (compare-and-set); nothing about a game lives only in memory."""

from __future__ import annotations

from dataclasses import dataclass

from redis.asyncio import Redis

from bot.model import ChatSettings

from .admins import AdminCache
from .chats import SettingsStore
from .deadlines import DeadlineStore
from .delivery import DeliveryStore
from .games import KEEP, GameRecord, GameStore, StorageBusy
from .keys import Keys
from .sent import SentStore
from .stats import StatsStore
from .users import UserStore


@dataclass(frozen=True, slots=True)
class Storage:
    """Every store over one Redis connection pool."""

    redis: Redis
    keys: Keys
    games: GameStore
    settings: SettingsStore
    users: UserStore
    deadlines: DeadlineStore
    delivery: DeliveryStore
    sent: SentStore
    admins: AdminCache
    stats: StatsStore

    @classmethod
    def create(
        cls,
        redis: Redis,
        prefix: str,
        *,
        default_settings: ChatSettings,
        finished_ttl: int = 86_400,
        idle_ttl: int = 7 * 86_400,
    ) -> Storage:
        keys = Keys(prefix)
        delivery = DeliveryStore(redis, keys, idle_ttl)
        return cls(
            redis=redis,
            keys=keys,
            games=GameStore(redis, keys, delivery, finished_ttl=finished_ttl, idle_ttl=idle_ttl),
            settings=SettingsStore(redis, keys, default_settings),
            users=UserStore(redis, keys),
            deadlines=DeadlineStore(redis, keys),
            delivery=delivery,
            sent=SentStore(redis, keys, idle_ttl),
            admins=AdminCache(redis, keys),
            stats=StatsStore(redis, keys),
        )


__all__ = [
    "KEEP",
    "AdminCache",
    "DeadlineStore",
    "DeliveryStore",
    "GameRecord",
    "GameStore",
    "Keys",
    "SentStore",
    "SettingsStore",
    "StatsStore",
    "Storage",
    "StorageBusy",
    "UserStore",
]
