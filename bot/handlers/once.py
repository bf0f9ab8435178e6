"""Every update once, across Telegram's redeliveries and several workers: an inner
middleware, the first around every handler (so an update nobody wants costs nothing),
claims the update's id (``UpdateLog``), hands the claim to the game store's transactions
(``CURRENT``), and marks the update done after. A delivery of an update another delivery
handled (or is handling) does nothing; a press among them only stops its button's spinner,
silently."""

from __future__ import annotations

import logging
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import CallbackQuery, TelegramObject, Update
from redis.exceptions import RedisError

from bot.metrics import UPDATES
from bot.storage import AlreadyApplied, UpdateLog
from bot.storage.updates import CURRENT, Claim

from .context import Handler, kind_of
from .telegram import answer

log = logging.getLogger(__name__)


class OnceMiddleware(BaseMiddleware):
    def __init__(self, updates: UpdateLog) -> None:
        self.updates = updates

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        update: Update | None = data.get("event_update")
        held = CURRENT.get()
        if update is None or (held is not None and held.key == self.updates.key(update.update_id)):
            return await handler(event, data)  # no update, or this one claimed already
        try:
            claim = await self.updates.claim(update.update_id)
        except RedisError as error:
            # Redis is down: nothing can be saved, so nothing can be applied twice; the
            # handler says that nothing was done (``ContextMiddleware``).
            log.warning("update %s not claimed: %s", update.update_id, error)
            return await handler(event, data)
        if claim is None:
            return await self._duplicate(update.update_id, event)
        reset = CURRENT.set(claim)
        try:
            result = await handler(event, data)
        except AlreadyApplied:
            return await self._duplicate(update.update_id, event)
        except BaseException:
            await self._let_go(claim)
            raise
        finally:
            CURRENT.reset(reset)
        try:
            await self.updates.finish(claim)
        except RedisError as error:  # its changes are saved and marked: at worst a reply twice
            log.warning("update %s not marked done: %s", update.update_id, error)
        return result

    async def _duplicate(self, update_id: int, event: TelegramObject) -> None:
        log.info("update %s was handled already", update_id)
        UPDATES.labels(kind=kind_of(event), outcome="duplicate").inc()
        if isinstance(event, CallbackQuery):
            await answer(event)

    async def _let_go(self, claim: Claim) -> None:
        try:
            await self.updates.abandon(claim)
        except RedisError as error:  # it lapses by itself
            log.warning("claim %s not released: %s", claim.key, error)
