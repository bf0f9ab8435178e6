"""What the outbox's workers share with it: the leases they hold on their chats, and the part
of ``Outbox`` they use (``Host``), so that neither a ``Lane`` nor a ``NoteLane`` imports the
outbox that starts them (no import cycle: ``tests/bot/test_layers.py``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Protocol

from aiogram import Bot

from bot.storage import Storage
from bot.storage.outbox import DeliveryStore
from bot.ui.webapp import TableLinks

from .budget import Budget
from .failures import Classified

# A worker holds its chat's lease this long, and renews it this often: a worker killed
# mid-way leaves its chats to another one at most LEASE_SECONDS later. The outbox renews
# the leases of all its chats' workers together (``Outbox.renew_leases``); a worker renews
# its own only if that is LEASE_GRACE late.
LEASE_SECONDS: Final = 15.0
LEASE_REFRESH: Final = 5.0
LEASE_GRACE: Final = (LEASE_SECONDS - LEASE_REFRESH) / 2


class Host(Protocol):
    """The part of ``Outbox`` its workers use (see there)."""

    bot: Bot
    storage: Storage
    delivery: DeliveryStore
    budget: Budget
    owner: str
    stopped: bool
    links: TableLinks | None  # the Mini App's, for the buttons that open it

    async def started(self, users: Iterable[int]) -> set[int]: ...

    async def unreachable(self, user_id: int) -> None: ...

    async def chat_lost(self, chat_id: int) -> None: ...

    async def chat_migrated(self, old_chat_id: int, new_chat_id: int) -> None: ...

    async def failed(self, chat_id: int, error: Exception) -> Classified | None: ...

    def call_answered(self) -> None: ...

    async def pause_before_retry(self, seconds: float) -> None: ...

    async def hold_notes(self, chat_id: int, seconds: float) -> bool: ...
