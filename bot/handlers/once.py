"""Every update once, across Telegram's redeliveries and several workers: an inner
middleware, the first around every handler (so an update nobody wants costs nothing), runs
the handler as the one handling of its update (``bot.services.once``). A delivery of an
update another delivery handled (or is handling) does nothing; a press among them only stops
its button's spinner, silently."""

from __future__ import annotations

import logging
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import CallbackQuery, TelegramObject, Update

from bot.metrics import UPDATES
from bot.services.once import DUPLICATE, UpdateOnce

from .context import Handler, kind_of
from .telegram import answer

log = logging.getLogger(__name__)


class OnceMiddleware(BaseMiddleware):
    def __init__(self, once: UpdateOnce) -> None:
        self.once = once

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        update: Update | None = data.get("event_update")
        if update is None:
            return await handler(event, data)
        result = await self.once.run(update.update_id, lambda: handler(event, data))
        if result is not DUPLICATE:
            return result
        log.info("update %s was handled already", update.update_id)
        UPDATES.labels(kind=kind_of(event), outcome="duplicate").inc()
        if isinstance(event, CallbackQuery):
            await answer(event)
        return None
