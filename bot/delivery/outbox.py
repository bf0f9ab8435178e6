"""The outbox: the only place that sends or edits messages.

Handlers and the sweeper ``publish`` a game record after every change; the outbox renders
what each of the game's messages should show (``drafts``) and one worker per group chat (a
``Lane``) makes the messages match:

* nothing is sent when a message already shows exactly that text and keyboard (a hash per
  message, kept in memory and in Redis, so a restart does not repeat edits either);
* a newer draft replaces an older one not yet sent (latest wins; drafts of an older game
  version never replace newer ones), so rapid changes merge into one edit;
* sends and edits to a group spend tokens of a per-group bucket that lets at most
  ``group_per_minute`` through in any minute; while it is empty, table edits wait and merge;
* ``TelegramRetryAfter`` empties the bucket for the time Telegram asks, then retries;
* ``TelegramForbiddenError`` in a private chat marks the player unreachable: their hand
  is not sent again until they /start the bot; the table and "My cards" still work.

New message ids are saved into the ``ChatGame`` (by compare-and-set), so a restarted bot
edits the same messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from dataclasses import dataclass
from typing import Any, Final

from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import InlineKeyboardMarkup, ReplyParameters
from redis.exceptions import RedisError

from bot.storage import KEEP, GameRecord, Storage
from engine import Card

from .budget import TokenBucket, per_minute
from .drafts import Draft, digest, drafts_for, known_message_id, slot_game, table_slot

log = logging.getLogger(__name__)

MAX_ATTEMPTS: Final = 5
GAMES_KEPT_PER_LANE: Final = 3
IDLE_LANE_SECONDS: Final = 600.0  # a chat's worker with nothing to do for this long ends


@dataclass(frozen=True, slots=True)
class Note:
    """A one-off message (a command's reply, a notice): sent once, in order, never merged."""

    chat_id: int
    text: str
    markup: InlineKeyboardMarkup | None = None
    reply_to: int | None = None


class _Retry(Exception):
    def __init__(self, after: float) -> None:
        super().__init__(after)
        self.after = after


class Outbox:
    def __init__(
        self,
        bot: Bot,
        storage: Storage,
        *,
        group_per_minute: int = 19,
        global_per_second: float = 25.0,
    ) -> None:
        self.bot = bot
        self.storage = storage
        self.group_per_minute = group_per_minute
        self.global_bucket = TokenBucket(global_per_second, global_per_second)
        self.lanes: dict[int, Lane] = {}
        self.unreachable: set[int] = set()
        self.picks: dict[str, dict[int, tuple[int, Card]]] = {}  # game -> user -> (moves, card)
        self.closing = False

    # -- what the rest of the bot calls -------------------------------------------------------

    def publish(self, record: GameRecord | None, *, superseded: bool = False) -> None:
        """Make the game's messages show ``record`` (soon; merged with later changes)."""
        if record is None or self.closing:
            return
        game = record.game
        moves = game.state.moves if game.state is not None else -1
        picks = self.picks.get(game.game_id, {})
        for user_id, (at, _card) in list(picks.items()):
            if at != moves:
                del picks[user_id]
        lane = self._lane(game.chat_id)
        lane.note_game(game.game_id)
        drafts = drafts_for(
            record, picks={u: c for u, (_, c) in picks.items()}, superseded=superseded
        )
        for draft in drafts:
            lane.offer(draft, known_message_id(record, draft.slot))

    def pick(self, record: GameRecord, user_id: int, card: Card) -> None:
        """Show the player the attack cards ``card`` can cover (the two-step cover)."""
        state = record.game.state
        if state is not None:
            self.picks.setdefault(record.game.game_id, {})[user_id] = (state.moves, card)
        self.publish(record)

    def unpick(self, record: GameRecord, user_id: int) -> None:
        self.picks.get(record.game.game_id, {}).pop(user_id, None)
        self.publish(record)

    def say(
        self,
        chat_id: int,
        text: str,
        *,
        markup: InlineKeyboardMarkup | None = None,
        reply_to: int | None = None,
    ) -> None:
        """Send a one-off message (in order with the chat's other one-off messages)."""
        if self.closing:
            return
        lane = self._lane(chat_id)
        lane.notes.append(Note(chat_id, text, markup, reply_to))
        lane.wake.set()

    def reachable(self, user_id: int) -> None:
        """The user started the bot again: hands may go to them."""
        self.unreachable.discard(user_id)

    async def idle(self, timeout: float = 10.0) -> None:
        """Wait until nothing is waiting to be sent (for tests and shutdown)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while any(lane.busy for lane in self.lanes.values()):
            if loop.time() >= deadline:
                raise TimeoutError("the outbox did not drain")
            await asyncio.sleep(0.02)

    async def close(self, timeout: float = 5.0) -> None:
        """Send what is pending (up to ``timeout`` seconds), then stop the workers."""
        with contextlib.suppress(TimeoutError):
            await self.idle(timeout)
        self.closing = True
        for lane in self.lanes.values():
            lane.stop()
        tasks = [lane.task for lane in self.lanes.values() if lane.task is not None]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    # -- internals ------------------------------------------------------------------------

    def _lane(self, chat_id: int) -> Lane:
        lane = self.lanes.get(chat_id)
        if lane is None:
            bucket = per_minute(self.group_per_minute) if chat_id < 0 else None
            lane = self.lanes[chat_id] = Lane(self, chat_id, bucket)
            lane.task = asyncio.get_running_loop().create_task(lane.run())
        return lane

    def delay(self, chat_id: int, lane: Lane) -> float:
        """Seconds before a message to ``chat_id`` may go (0: now)."""
        wait = self.global_bucket.wait_time()
        if chat_id < 0 and chat_id == lane.chat_id and lane.bucket is not None:
            wait = max(wait, lane.bucket.wait_time())
        return wait

    def spend(self, chat_id: int, lane: Lane) -> None:
        self.global_bucket.take()
        if chat_id < 0 and chat_id == lane.chat_id and lane.bucket is not None:
            lane.bucket.take()

    async def mark_unreachable(self, user_id: int) -> None:
        if user_id not in self.unreachable:
            log.info("user %s cannot receive private messages", user_id)
        self.unreachable.add(user_id)
        await self.storage.users.mark_unreachable(user_id)

    async def save_message_id(self, chat_id: int, slot: str, message_id: int) -> None:
        """Keep a new message id in the game, so a restarted bot edits the same message."""
        game_id = slot_game(slot)

        def decide(record: GameRecord | None) -> tuple[Any, None]:
            if record is None or record.game.game_id != game_id:
                return KEEP, None
            game = record.game
            if slot == table_slot(game_id):
                if game.table_message_id == message_id:
                    return KEEP, None
                game.table_message_id = message_id
            else:
                user_id = int(slot.rsplit(":", 1)[1])
                if game.hand_message_ids.get(user_id) == message_id:
                    return KEEP, None
                game.hand_message_ids[user_id] = message_id
            return record, None

        await self.storage.games.update(chat_id, decide)


class Lane:
    """The worker of one chat: its game's table and hands, and its one-off messages."""

    def __init__(self, outbox: Outbox, chat_id: int, bucket: TokenBucket | None) -> None:
        self.outbox = outbox
        self.chat_id = chat_id
        self.bucket = bucket
        self.drafts: dict[str, Draft] = {}
        self.versions: dict[str, int] = {}  # slot -> newest game version offered
        self.ids: dict[str, int] = {}  # slot -> message id
        self.shown: dict[str, str] = {}  # slot -> digest of what that message shows
        self.attempts: dict[str, int] = {}
        self.gone: set[tuple[int, int]] = set()  # (chat, message id) Telegram no longer has
        self.unsaved: set[str] = set()  # slots sent whose message id the game lacks yet
        self.notes: deque[Note] = deque()
        self.games: deque[str] = deque()
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.loaded = False
        self.sending = False
        self.stopped = False

    @property
    def busy(self) -> bool:
        return bool(self.drafts or self.notes or self.sending or not self.loaded)

    def offer(self, draft: Draft, known_id: int | None) -> None:
        if draft.version < self.versions.get(draft.slot, -1):
            return  # an older version of the game, published late
        self.versions[draft.slot] = draft.version
        if (
            known_id is not None
            and draft.slot not in self.ids
            and (draft.chat_id, known_id) not in self.gone
        ):
            self.ids[draft.slot] = known_id
        self.drafts[draft.slot] = draft
        self.wake.set()

    def note_game(self, game_id: str) -> None:
        """Remember at most a few games per chat; forget the slots of older ones."""
        if game_id in self.games:
            return
        self.games.append(game_id)
        while len(self.games) > GAMES_KEPT_PER_LANE:
            old = self.games.popleft()
            for table in (self.versions, self.ids, self.shown, self.attempts):
                for slot in [s for s in table if slot_game(s) == old]:
                    del table[slot]
            self.outbox.picks.pop(old, None)

    def stop(self) -> None:
        self.stopped = True
        self.wake.set()

    async def run(self) -> None:
        while not self.stopped:
            self.wake.clear()
            try:
                wait = await self._step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox lane %s failed; retrying", self.chat_id)
                wait = 1.0
            if self.stopped:
                break
            if wait is None or wait > 0:
                try:
                    await asyncio.wait_for(self.wake.wait(), wait or IDLE_LANE_SECONDS)
                except TimeoutError:
                    if wait is None and not self.busy:
                        self._retire()
                        return

    def _retire(self) -> None:
        """Nothing to do for long: leave; a later message makes a new worker, which reads
        what the messages show from Redis. (No await here: nobody can offer meanwhile.)"""
        if self.outbox.lanes.get(self.chat_id) is self:
            del self.outbox.lanes[self.chat_id]

    async def _load(self) -> None:
        """What the chat's messages showed before a restart."""
        for slot, (message_id, shown) in (
            await self.outbox.storage.sent.load(self.chat_id)
        ).items():
            self.ids.setdefault(slot, message_id)
            if self.ids[slot] == message_id:
                self.shown.setdefault(slot, shown)
        self.loaded = True

    async def _step(self) -> float | None:
        """Send what may go now; None when there is nothing left, else seconds to wait."""
        if not self.loaded:
            await self._load()
        outbox = self.outbox
        wait: float | None = None
        self.sending = True
        try:
            while self.notes:
                note = self.notes[0]
                delay = outbox.delay(note.chat_id, self)
                if delay > 0:
                    return delay
                outbox.spend(note.chat_id, self)
                try:
                    await self._send_note(note)
                except _Retry as retry:
                    return retry.after
                self.notes.popleft()
            ready: list[Draft] = []
            for slot, draft in list(self.drafts.items()):
                if self._needless(draft):
                    del self.drafts[slot]
                else:
                    delay = outbox.delay(draft.chat_id, self)
                    if delay > 0:
                        wait = delay if wait is None else min(wait, delay)
                        continue
                    outbox.spend(draft.chat_id, self)
                    ready.append(draft)
            if not ready:
                return wait
            results = await asyncio.gather(
                *(self._deliver(d) for d in ready), return_exceptions=True
            )
        finally:
            self.sending = False
        for draft, result in zip(ready, results, strict=True):
            if isinstance(result, _Retry):
                wait = result.after if wait is None else min(wait, result.after)
            elif isinstance(result, BaseException):
                log.error("sending %s failed", draft.slot, exc_info=result)
                self._done(draft)
            else:
                self._done(draft)
        return 0.0 if wait is None else wait

    def _needless(self, draft: Draft) -> bool:
        """The message shows this already, or may not be sent, or cannot reach its player."""
        if draft.user_id is not None and draft.user_id in self.outbox.unreachable:
            return True
        if draft.slot in self.ids:
            return self.shown.get(draft.slot) == draft.digest
        return not draft.may_send

    def _done(self, draft: Draft) -> None:
        self.attempts.pop(draft.slot, None)
        if self.drafts.get(draft.slot) is draft:
            del self.drafts[draft.slot]

    async def _remember(self, slot: str, message_id: int, shown: str) -> None:
        """Note what the message shows, in memory and in Redis, and give the game the id
        of a message just sent (kept pending until Redis takes it: a retry then edits the
        message rather than send a second one)."""
        self.ids[slot] = message_id
        self.shown[slot] = shown
        await self.outbox.storage.sent.save(self.chat_id, slot, message_id, shown)
        if slot in self.unsaved:
            await self.outbox.save_message_id(self.chat_id, slot, message_id)
            self.unsaved.discard(slot)

    async def _deliver(self, draft: Draft) -> None:
        """Send or edit one slot's message; ``_Retry`` when it should be tried again."""
        bot = self.outbox.bot
        slot = draft.slot
        text = draft.rendered.text
        markup = draft.rendered.markup
        message_id = self.ids.get(slot)
        try:
            if message_id is None:
                sent = await bot.send_message(draft.chat_id, text, reply_markup=markup)
                self.ids[slot] = sent.message_id
                self.unsaved.add(slot)
                await self._remember(slot, sent.message_id, draft.digest)
            else:
                await bot.edit_message_text(
                    text=text, chat_id=draft.chat_id, message_id=message_id, reply_markup=markup
                )
                await self._remember(slot, message_id, draft.digest)
        except TelegramRetryAfter as error:
            self._blocked(draft.chat_id, error.retry_after)
            raise _Retry(error.retry_after) from None
        except TelegramForbiddenError:
            if draft.user_id is not None:
                await self.outbox.mark_unreachable(draft.user_id)
            else:
                log.warning("the bot cannot write to chat %s any more", draft.chat_id)
        except TelegramBadRequest as error:
            description = error.message.lower()
            if "message is not modified" in description and message_id is not None:
                await self._remember(slot, message_id, draft.digest)
            elif message_id is not None and (
                "message to edit not found" in description or "can't be edited" in description
            ):
                # Somebody deleted the message: post it again, if it is still wanted.
                self.gone.add((draft.chat_id, message_id))
                self.ids.pop(slot, None)
                self.shown.pop(slot, None)
                await self.outbox.storage.sent.forget(self.chat_id, slot)
                if draft.may_send:
                    raise _Retry(0.0) from None
            else:
                log.error("Telegram refused %s for %s: %s", slot, draft.chat_id, error.message)
        except (TelegramNetworkError, TelegramServerError, TimeoutError, RedisError) as error:
            attempts = self.attempts[slot] = self.attempts.get(slot, 0) + 1
            if attempts >= MAX_ATTEMPTS:
                log.error("giving up on %s after %d attempts: %s", slot, attempts, error)
                return
            log.warning("sending %s failed (%s); retrying", slot, error)
            raise _Retry(min(2.0**attempts, 30.0)) from None

    async def _send_note(self, note: Note) -> None:
        reply = (
            None
            if note.reply_to is None
            else ReplyParameters(message_id=note.reply_to, allow_sending_without_reply=True)
        )
        try:
            await self.outbox.bot.send_message(
                note.chat_id, note.text, reply_markup=note.markup, reply_parameters=reply
            )
        except TelegramRetryAfter as error:
            self._blocked(note.chat_id, error.retry_after)
            raise _Retry(error.retry_after) from None
        except TelegramForbiddenError:
            if note.chat_id > 0:
                await self.outbox.mark_unreachable(note.chat_id)
        except TelegramBadRequest as error:
            log.error("Telegram refused a message to %s: %s", note.chat_id, error.message)
        except (TelegramNetworkError, TelegramServerError, TimeoutError) as error:
            log.warning("a message to %s was lost: %s", note.chat_id, error)

    def _blocked(self, chat_id: int, seconds: float) -> None:
        log.warning("Telegram asks to wait %s s before writing to %s", seconds, chat_id)
        if chat_id == self.chat_id and self.bucket is not None:
            self.bucket.block(seconds)
        else:
            self.outbox.global_bucket.block(seconds)


__all__ = ["Draft", "Lane", "Note", "Outbox", "digest"]
