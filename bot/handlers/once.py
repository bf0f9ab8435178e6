"""Every update once, and a chat's updates one at a time, in the order they came.

An inner middleware, the first around every handler (so an update nobody wants costs
nothing). A chat's updates are handled one after another in this process (a lock per chat,
taken before anything is awaited, so in the order Telegram sent them): four ``/set`` in a
row are applied and answered in that order, and a refusal is said before what a later
command did. Moves of one group were never concurrent anyway (each is a compare-and-set on
the one game). Then the handler runs as the one handling of its update
(``bot.services.once``): a delivery of an update another delivery handled (or is handling)
does nothing (a press among them is answered without a text: ``answers``, outside). The
handler gets the update's claim as ``once`` and hands it to each change it saves."""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import Chat, TelegramObject, Update

from bot.metrics import UPDATES
from bot.services import Claim
from bot.services.once import DUPLICATE, UpdateOnce

from .context import Handler, kind_of

log = logging.getLogger(__name__)


class OnceMiddleware(BaseMiddleware):
    def __init__(self, once: UpdateOnce) -> None:
        self.once = once
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        update: Update | None = data.get("event_update")
        if update is None:
            return await handler(event, data)
        chat: Chat | None = data.get("event_chat")
        if chat is None:
            return await self._once(update, handler, event, data)
        async with self._lock(chat.id):
            return await self._once(update, handler, event, data)

    def _lock(self, chat_id: int) -> asyncio.Lock:
        lock = self._locks.get(chat_id)
        if lock is None:
            lock = self._locks[chat_id] = asyncio.Lock()
        return lock

    async def _once(
        self, update: Update, handler: Handler, event: TelegramObject, data: dict[str, Any]
    ) -> Any:
        async def handle(claim: Claim | None) -> Any:
            data["once"] = claim
            return await handler(event, data)

        result = await self.once.run(update.update_id, handle)
        if result is not DUPLICATE:
            return result
        log.info("update %s was handled already", update.update_id)
        UPDATES.labels(kind=kind_of(event), outcome="duplicate").inc()
        return None
