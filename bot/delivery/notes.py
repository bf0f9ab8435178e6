"""One-off messages (a command's reply, a notice, the last edit of a replaced table): sent
once, in order per chat, never merged. They are the chat's conversation, not its game, so
they live in memory only; they wait for the chat's own budget and never hold back a game's
messages (which go in their own tasks, see ``bot.delivery.lane``)."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from aiogram.types import InlineKeyboardMarkup, ReplyParameters

from .drafts import NOTE
from .failures import Failure, backoff, classify

if TYPE_CHECKING:
    from .outbox import Outbox

log = logging.getLogger(__name__)

MAX_QUEUED: Final = 20  # per chat; a flood of commands drops the oldest replies
MAX_ATTEMPTS: Final = 6  # a reply nobody saw within about half a minute is not worth more


@dataclass(frozen=True, slots=True)
class Note:
    """Send ``text`` (as a reply to ``reply_to``), or, with ``edit``, make message ``edit``
    show it."""

    chat_id: int
    text: str
    markup: InlineKeyboardMarkup | None = None
    reply_to: int | None = None
    edit: int | None = None


class NoteLane:
    """The one-off messages of one chat, in order."""

    def __init__(self, outbox: Outbox, chat_id: int) -> None:
        self.outbox = outbox
        self.chat_id = chat_id
        self.queue: deque[Note] = deque()
        self.task: asyncio.Task[None] | None = None

    @property
    def busy(self) -> bool:
        return bool(self.queue) or (self.task is not None and not self.task.done())

    def add(self, note: Note) -> None:
        if len(self.queue) >= MAX_QUEUED:
            dropped = self.queue.popleft()
            log.warning("too many messages for %s; dropped %r", self.chat_id, dropped.text[:40])
        self.queue.append(note)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    async def run(self) -> None:
        while self.queue and not self.outbox.stopped:
            note = self.queue[0]
            attempt = 0
            while True:
                wait = await self.outbox.budget_wait(self.chat_id, note=True)
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue
                await self.outbox.gate.acquire(NOTE)
                try:
                    await self._send(note)
                    break
                except Exception as error:  # classified below; anything else is a bug
                    failure = classify(error)
                    if failure is None:
                        log.exception("a message to %s failed", self.chat_id)
                        break
                    if failure.kind is Failure.RETRY_AFTER:
                        await self.outbox.blocked(self.chat_id, failure.seconds)
                        continue
                    if failure.kind in (Failure.NOT_MODIFIED, Failure.GONE):
                        break  # an edit of a message that shows it, or is gone: nothing to do
                    if failure.kind is Failure.FORBIDDEN and self.chat_id > 0:
                        await self.outbox.unreachable(self.chat_id)
                        break
                    if failure.kind is Failure.TRANSIENT and attempt + 1 < MAX_ATTEMPTS:
                        attempt += 1
                        await asyncio.sleep(backoff(attempt))
                        continue
                    log.warning("a message to %s was lost: %s", self.chat_id, error)
                    break
            if self.queue and self.queue[0] is note:
                self.queue.popleft()

    async def _send(self, note: Note) -> None:
        bot = self.outbox.bot
        if note.edit is not None:
            await bot.edit_message_text(
                text=note.text, chat_id=note.chat_id, message_id=note.edit, reply_markup=None
            )
            return
        reply = (
            None
            if note.reply_to is None
            else ReplyParameters(message_id=note.reply_to, allow_sending_without_reply=True)
        )
        await bot.send_message(
            note.chat_id, note.text, reply_markup=note.markup, reply_parameters=reply
        )
