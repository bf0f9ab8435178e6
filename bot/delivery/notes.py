"""One-off messages (a command's reply, a notice, the last edit of a replaced table): sent
once, in order per chat, never merged. They wait in Redis (``bot.storage.outbox``) until
they went, so any worker process may send them: a worker that stops, or is killed, leaves
its chats' replies to the others. One worker at a time sends a chat's notes (a lease).
They wait for the chat's own budget and never hold back a game's messages (which go in
their own tasks, see ``bot.delivery.lane``)."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Final

from aiogram.types import InlineKeyboardMarkup

from .budget import Claim
from .failures import Failure, backoff
from .host import LEASE_REFRESH, LEASE_SECONDS, Host
from .plan import NOTE
from .sender import edit, post, post_file

log = logging.getLogger(__name__)

MAX_ATTEMPTS: Final = 10  # a reply nobody saw within about half a minute is not worth more


@dataclass(frozen=True, slots=True)
class Note:
    """Send ``text`` (as a reply to ``reply_to``), or, with ``edit``, make message ``edit``
    show it; with ``file``, send the text file ``(name, content)`` with ``text`` as its
    caption. ``key`` tells two notes of the same text apart."""

    chat_id: int
    text: str
    markup: InlineKeyboardMarkup | None = None
    reply_to: int | None = None
    edit: int | None = None
    key: str = field(default_factory=lambda: secrets.token_hex(6))
    file: tuple[str, str] | None = None

    def to_json(self) -> str:
        data: dict[str, Any] = {"chat": self.chat_id, "text": self.text, "key": self.key}
        if self.file is not None:
            data["file"] = list(self.file)
        if self.markup is not None:
            data["markup"] = self.markup.model_dump(mode="json", exclude_none=True)
        if self.reply_to is not None:
            data["reply_to"] = self.reply_to
        if self.edit is not None:
            data["edit"] = self.edit
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: str) -> Note:
        data = json.loads(raw)
        markup = data.get("markup")
        return cls(
            chat_id=int(data["chat"]),
            text=str(data["text"]),
            markup=None if markup is None else InlineKeyboardMarkup.model_validate(markup),
            reply_to=data.get("reply_to"),
            edit=data.get("edit"),
            key=str(data["key"]),
            file=None if data.get("file") is None else (str(data["file"][0]), str(data["file"][1])),
        )


class NoteLane:
    """Sends the notes of one chat, oldest first, while this worker holds the chat's lease."""

    def __init__(self, outbox: Host, chat_id: int) -> None:
        self.outbox = outbox
        self.chat_id = chat_id
        self.task: asyncio.Task[None] | None = None
        self.lease_until = 0.0  # monotonic: when to renew the lease (as ``Lane``)

    @property
    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    async def run(self) -> None:
        outbox, store = self.outbox, self.outbox.storage.notes
        try:
            while not outbox.stopped and await self._hold():
                raw = await store.first(self.chat_id)
                if raw is None:  # sent them all, or the list expired: the chat leaves the set
                    if await store.done(self.chat_id, ""):
                        continue  # unless one came just now
                    return
                try:
                    note = Note.from_json(raw)
                except (ValueError, KeyError, TypeError):
                    log.warning("an unreadable note for %s: %r", self.chat_id, raw[:80])
                else:
                    if not await self._deliver(note):
                        return  # stopping: the note stays for the next worker
                if not await store.done(self.chat_id, raw):
                    return
        except asyncio.CancelledError:
            raise
        except Exception as error:  # Redis down: the notes wait there for us
            log.warning("the notes of %s wait: %s", self.chat_id, error)

    async def _hold(self) -> bool:
        """Renew the chat's lease when due; False if another worker has it now."""
        now = time.monotonic()
        if now < self.lease_until:
            return True
        if not await self.outbox.hold_notes(self.chat_id, LEASE_SECONDS):
            return False
        self.lease_until = now + LEASE_REFRESH
        return True

    async def _deliver(self, note: Note) -> bool:
        """Send ``note``, retrying what may pass later; False if the outbox stopped first."""
        outbox = self.outbox
        attempt = 0
        while not outbox.stopped:
            wait = await outbox.budget.wait(self.chat_id, note=True)
            if wait > 0:
                await asyncio.sleep(min(wait, LEASE_REFRESH))
                if not await self._hold():
                    return False
                continue
            await outbox.budget.gate.acquire(self.chat_id, Claim(NOTE))
            try:
                await self._send(note)
                outbox.call_answered()
                return True
            except Exception as error:  # the worker's part: ``Host.failed``; the note's below
                failure = await outbox.failed(self.chat_id, error)
                if failure is None:
                    return True
                if failure.kind is Failure.RETRY_AFTER:
                    continue  # its chat's budget is blocked until then
                if failure.kind is Failure.GONE:
                    return True  # an edit of a message that is gone: nothing to do
                if failure.kind is Failure.FORBIDDEN and self.chat_id > 0:
                    await outbox.unreachable(self.chat_id)
                    return True
                if failure.kind is Failure.TRANSIENT and attempt + 1 < MAX_ATTEMPTS:
                    attempt += 1
                    await outbox.pause_before_retry(backoff(attempt))
                    continue
                log.warning("a message to %s was lost: %s", self.chat_id, error)
                return True
        return False

    async def _send(self, note: Note) -> None:
        bot = self.outbox.bot
        if note.edit is not None:
            await edit(bot, note.chat_id, note.edit, note.text, None)
        elif note.file is not None:
            name, content = note.file
            await post_file(
                bot, note.chat_id, name, content, note.text, note.markup, reply_to=note.reply_to
            )
        else:
            await post(bot, note.chat_id, note.text, note.markup, reply_to=note.reply_to)
