"""Every update once (``bot.storage.updates``): handling one delivery of a Telegram update
under its claim, so that another delivery of it does nothing. The handling is handed the
claim, to pass to every change it saves (``once=``)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

from redis.exceptions import RedisError

from bot.storage import AlreadyApplied, Claim, UpdateLog

log = logging.getLogger(__name__)

T = TypeVar("T")


class _Duplicate:
    def __repr__(self) -> str:
        return "DUPLICATE"


DUPLICATE: Final = _Duplicate()
"""What ``UpdateOnce.run`` returns for a delivery of an update another one handled."""


class UpdateOnce:
    def __init__(self, updates: UpdateLog) -> None:
        self.updates = updates

    async def run(
        self, update_id: int, handle: Callable[[Claim | None], Awaitable[T]]
    ) -> T | _Duplicate:
        """``handle(claim)`` as the one handling of ``update_id``; DUPLICATE (and nothing
        done) if another delivery of it handled it or saved a change of it first."""
        try:
            claim = await self.updates.claim(update_id)
        except RedisError as error:
            # Redis is down: nothing can be saved, so nothing can be applied twice; the
            # handler says that nothing was done.
            log.warning("update %s not claimed: %s", update_id, error)
            return await handle(None)
        if claim is None:
            return DUPLICATE
        try:
            result = await handle(claim)
        except AlreadyApplied:
            return DUPLICATE
        except BaseException:
            await self._let_go(claim)
            raise
        try:
            await self.updates.finish(claim)
        except RedisError as error:  # its changes are saved and marked: at worst a reply twice
            log.warning("update %s not marked done: %s", update_id, error)
        return result

    async def _let_go(self, claim: Claim) -> None:
        try:
            await self.updates.abandon(claim)
        except RedisError as error:  # it lapses by itself
            log.warning("claim %s not released: %s", claim.key, error)
