"""The outbox: the only place that sends or edits messages.

Every saved change of a game puts its chat on a work list in Redis, in the same transaction
(``bot.storage.outbox``). The outbox's main loop takes chats off that list: for each one,
one worker (a ``Lane``, holding the chat's lease) makes every message of the game show what
Redis holds, and retries until it does. So a move that was saved is shown even if Telegram
fails for minutes, the bot restarts, or another process saved it; several processes can run
the loop side by side (one worker per chat at a time).

* Nothing is sent when a message already shows exactly that text and keyboard (a hash per
  message, in Redis, so a restart does not repeat edits either); a message is rendered just
  before it goes, from the newest position, so rapid changes merge into one edit.
* Budgets (``budget.Budget``, every limit in one place): each group's sends and edits keep
  to ``group_per_minute`` in any minute (shared by every process, in Redis); Telegram's
  "retry after" blocks only the chat it names; over all chats at most ``global_per_second``
  messages go each second, those a person waits on first and chats in turn within a class
  (``budget.PriorityGate``, ``plan.ACTING`` ...). That budget is the bot's, shared by its
  worker processes through the roll of workers alive in Redis (``bot.storage.workers``):
  every second each says what it has waiting, and the workers holding the most urgent
  messages take the most of it (``budget.share``); a killed worker's share goes back to
  the others.
* A failed send is tried again at most a few seconds later, and at once when Telegram
  answers again after an outage (``bot.delivery.failures``).
* ``TelegramForbiddenError`` in a private chat marks the player unreachable: their hand is
  not sent again until they /start the bot; in the group it means the bot was removed.
* A player's hand waits while their Mini App page counts as open (``bot.webapp.presence``):
  the chat leaves the work list with a time to look at it again, when that page's entry
  runs out (``DeliveryStore.settle``, ``recheck``), so a page whose worker died without a
  goodbye holds the hand no longer than its idle time.

One-off messages (replies, notices) go through ``say``: in order per chat, kept in Redis until
they went, so any worker may send them (``bot.delivery.notes``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Final

from aiogram import Bot
from aiogram.types import InlineKeyboardMarkup

from bot.model import GameRecord, Phase
from bot.storage import Storage
from bot.storage.workers import worker_name
from bot.ui.webapp import TableLinks
from bot.waiting import wait_event
from engine import Card

from .budget import Budget
from .drafts import superseded_table
from .failures import Classified, Failure, Outage, classify
from .host import LEASE_REFRESH, LEASE_SECONDS
from .lane import Lane
from .notes import Note, NoteLane
from .plan import player_slot, table_slot

log = logging.getLogger(__name__)

POLL_SECONDS: Final = 0.25  # how often the work list in Redis is looked at
# How often a worker says it is alive and what it has waiting (bot.storage.workers): as
# often as the shares of the budget should follow where the urgent messages are.
ROLL_CALL_SECONDS: Final = 1.0
# Between two reads of the whole work list, each look reads only the chats that changed
# since the last one (less this much, for other processes' clocks and transactions still
# on their way): the whole list is every game under way, and most wait for their group's
# budget in a worker that already holds them. The whole list finds the chats whose worker
# died (their lease ran out) or that another worker held when they were last looked at.
WHOLE_LIST_SECONDS: Final = 5.0
CHANGES_OVERLAP: Final = 2.0
# How long a worker leaves a chat whose game a newer version of the bot saved before it
# looks again (a rollback, or a rolling upgrade that stopped half-way).
NEWER_REST: Final = 10.0
# How often the leases of this worker's chats are renewed together (``renew_leases``).
LEASE_KEEPING: Final = 1.0

ChatHook = Callable[[int], Awaitable[None]]
MigrationHook = Callable[[int, int], Awaitable[None]]


async def _nothing(*_args: object) -> None:
    return None


class Outbox:
    def __init__(
        self,
        bot: Bot,
        storage: Storage,
        *,
        group_per_minute: int = 19,
        global_per_second: float = 25.0,
        on_chat_lost: ChatHook = _nothing,
        on_migrated: MigrationHook = _nothing,
        links: TableLinks | None = None,
    ) -> None:
        self.bot = bot
        self.links = links  # the Mini App's, for the buttons that open it (``bot.ui.webapp``)
        self.storage = storage
        self.delivery = storage.delivery
        self.budget = Budget(
            self.delivery,
            group_per_minute=group_per_minute,
            global_per_second=global_per_second,
        )
        self.roll_call_at = 0.0  # monotonic time this worker next tells the roll it is alive
        self.whole_list_at = 0.0  # monotonic time of the next read of the whole work list
        self.look_at = 0.0  # monotonic time of the next look at the work list in Redis
        self.keep_leases_at = 0.0  # monotonic time of the next renewal of the lanes' leases
        self.looked_at = 0.0  # wall time of the last look at the work list
        self.on_chat_lost = on_chat_lost
        self.on_migrated = on_migrated
        self.owner = worker_name()
        self.lanes: dict[int, Lane] = {}
        # Chat -> the players its last worker here showed (``Lane.expected``), while its
        # game goes on.
        self.players_of: dict[int, list[int]] = {}
        self.notes: dict[int, NoteLane] = {}
        self.wanted: set[int] = set()
        # Chats whose game a newer version of the bot saved (``Lane.newer``), until when
        # this worker leaves their messages to the newer workers (monotonic).
        self.newer_until: dict[int, float] = {}
        self.wanted_notes: set[int] = set()
        self.saving: set[asyncio.Task[None]] = set()  # notes on their way to Redis
        self.outage = Outage()
        self._recovered = asyncio.Event()  # set (and replaced) when an outage ends
        self.stopped = False
        self._wake = asyncio.Event()
        # Set whenever this worker may have run out of work (for ``idle``): a worker or a
        # note's save ended, or the main loop took what was wanted.
        self._quieter = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # -- what the rest of the bot calls -------------------------------------------------------

    def start(self) -> None:
        """Run the main loop (also started by the first ``publish`` or ``say``)."""
        if self._task is None and not self.stopped:
            self._task = asyncio.get_running_loop().create_task(self._run())

    def publish(self, record: GameRecord | None, *, superseded: bool = False) -> None:
        """Make the game's messages show ``record`` soon. Saving it already put the chat on
        the work list; this only saves the wait for the next look at it. ``superseded``: a
        newer game replaced this one in its chat: its table keeps its text, loses its
        buttons (a one-off edit)."""
        if record is None or self.stopped:
            return
        game = record.game
        if superseded:
            if not record.gone:
                task = asyncio.get_running_loop().create_task(self._supersede(record))
                self.saving.add(task)
                task.add_done_callback(self.saving.discard)
                task.add_done_callback(self._may_be_quiet)
            return
        self.poke(game.chat_id)

    async def table_message(self, record: GameRecord) -> int | None:
        """The id of the message that shows ``record``'s table, if there is one."""
        game = record.game
        shown = await self.storage.sent.get(game.chat_id, table_slot(game.game_id))
        return None if shown is None else shown.message_id

    def poke(self, chat_id: int) -> None:
        if self.stopped:
            return
        self.start()
        lane = self.lanes.get(chat_id)
        if lane is not None:
            lane.poke()
        else:
            self.wanted.add(chat_id)
            self._wake.set()

    def page_closed(self, chat_id: int, user_id: int) -> None:
        """The user's Mini App page of the chat closed or went idle (saved already): if this
        process brings the chat's messages up to date, their hand catches up now."""
        lane = self.lanes.get(chat_id)
        if lane is not None:
            lane.page_closed(user_id)

    async def pick(self, record: GameRecord, user_id: int, card: Card | None) -> None:
        """Show the player the attack cards ``card`` can cover (the two-step cover), or,
        with None, their whole hand again."""
        state = record.game.state
        moves = -1 if state is None else state.moves
        await self.delivery.pick(record.game.chat_id, user_id, moves, card)
        self.poke(record.game.chat_id)

    async def resend_hand(self, record: GameRecord, user_id: int) -> None:
        """Post the player's hand as a new message (the old one may be deleted, or far up)."""
        game = record.game
        slot = player_slot(game, user_id)
        await self.storage.sent.forget(game.chat_id, slot)
        await self.delivery.mark(game.chat_id, time.time())
        lane = self.lanes.get(game.chat_id)
        if lane is not None:
            lane.shown.pop(slot, None)
            lane.unsaved.pop(slot, None)
        self.poke(game.chat_id)

    async def say(
        self,
        chat_id: int,
        text: str,
        *,
        markup: InlineKeyboardMarkup | None = None,
        reply_to: int | None = None,
    ) -> None:
        """Send a one-off message (in order with the chat's other one-off messages). It is
        in Redis when this returns (RedisError if it cannot be), and goes soon after."""
        if not self.stopped:
            await self._save_note(Note(chat_id, text, markup, reply_to))

    async def send_file(
        self,
        chat_id: int,
        file: tuple[str, str],
        caption: str,
        *,
        markup: InlineKeyboardMarkup | None = None,
        reply_to: int | None = None,
    ) -> None:
        """Send the text file ``(name, content)`` with ``caption``, as ``say`` sends a text."""
        if not self.stopped:
            await self._save_note(Note(chat_id, caption, markup, reply_to, file=file))

    async def idle(self, timeout: float = 10.0) -> None:
        """Wait until nothing is waiting to be sent (for tests and shutdown). Looked at
        again whenever this worker may have gone quiet (``_quieter``), and at the main
        loop's pace for work only Redis knows of (another worker's chats)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            self._quieter.clear()
            # _busy() again after the look at Redis: a poke may have come meanwhile.
            if not self._busy() and not await self._work_in_redis() and not self._busy():
                return
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError("the outbox did not drain")
            await wait_event(self._quieter, min(left, POLL_SECONDS))

    async def close(self, timeout: float = 5.0) -> None:
        """Send what is pending (up to ``timeout`` seconds), then stop; whatever is left
        stays in Redis for another worker or the next start."""
        with contextlib.suppress(TimeoutError, Exception):
            await self.idle(timeout)
        self.stopped = True
        self._wake.set()
        tasks = [t for t in (self._task,) if t is not None]
        tasks += [lane.task for lane in self.lanes.values() if lane.task is not None]
        tasks += [n.task for n in self.notes.values() if n.task is not None]
        tasks += list(self.saving)
        for lane in list(self.lanes.values()):
            lane.poke()
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        for chat_id in list(self.lanes):
            with contextlib.suppress(Exception):
                await self.delivery.release(chat_id, self.owner)
        for chat_id in list(self.notes):
            await self._release_notes(chat_id)
        with contextlib.suppress(Exception):
            await self.storage.workers.leave(self.owner)

    # -- what lanes call (``bot.delivery.host.Host``) ----------------------------------------

    async def started(self, users: Iterable[int]) -> set[int]:
        """Which of ``users`` the bot may write to in private."""
        ids = list(users)
        if not ids:
            return set()
        flags = await self.storage.users.started_among(ids)
        return {user for user, flag in zip(ids, flags, strict=True) if flag}

    async def unreachable(self, user_id: int) -> None:
        log.info("user %s cannot receive private messages", user_id)
        await self.storage.users.mark_unreachable(user_id)

    async def chat_lost(self, chat_id: int) -> None:
        log.warning("the bot cannot write to chat %s any more", chat_id)
        await self.on_chat_lost(chat_id)

    async def chat_migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        log.info("chat %s is now supergroup %s", old_chat_id, new_chat_id)
        await self.on_migrated(old_chat_id, new_chat_id)
        self.poke(new_chat_id)

    async def failed(self, chat_id: int, error: Exception) -> Classified | None:
        """What a failed call to ``chat_id`` means (``failures.classify``), with the whole
        worker's part of it done: Telegram's "retry after" blocks the chat's budget, a
        passing failure counts towards an outage. None (logged): not a failure of sending
        but a bug of ours."""
        failure = classify(error)
        if failure is None:
            log.exception("a call to %s failed", chat_id, exc_info=error)
        elif failure.kind is Failure.RETRY_AFTER:
            await self.budget.blocked(chat_id, failure.seconds)
        elif failure.kind is Failure.TRANSIENT:
            self.outage.failed()
        return failure

    def call_answered(self) -> None:
        """A call went through. After an outage, every message of this worker waiting for
        its next try goes now (``bot.delivery.failures``)."""
        if not self.outage.answered():
            return
        log.info("Telegram answers again: every waiting message is tried now")
        for lane in self.lanes.values():
            lane.retry_now()
        recovered, self._recovered = self._recovered, asyncio.Event()
        recovered.set()

    async def pause_before_retry(self, seconds: float) -> None:
        """Wait ``seconds`` before trying a failed call again, or until an outage ends."""
        recovered = self._recovered
        await wait_event(recovered, seconds)

    async def hold_notes(self, chat_id: int, seconds: float) -> bool:
        """Take or renew the lease on sending ``chat_id``'s notes."""
        key = self.storage.keys.notes_lease(chat_id)
        return await self.storage.leases.take(key, self.owner, seconds)

    # -- internals ------------------------------------------------------------------------

    async def _run_lane(self, lane: Lane) -> None:
        """A chat's worker, and what follows when it stops (see ``_lane_ended``)."""
        try:
            await lane.run()
        finally:
            await self._lane_ended(lane)

    async def _run_notes(self, lane: NoteLane) -> None:
        try:
            await lane.run()
        finally:
            await self._note_lane_ended(lane)

    async def _note_lane_ended(self, lane: NoteLane) -> None:
        if self.notes.get(lane.chat_id) is lane:
            del self.notes[lane.chat_id]
        await self._release_notes(lane.chat_id)
        if not self.stopped and lane.chat_id in self.wanted_notes:
            self._wake.set()  # a note came as the lane was leaving

    async def _lane_ended(self, lane: Lane) -> None:
        # The lease goes before the worker: a change meanwhile pokes this worker, and the
        # worker that follows takes the lease anew.
        if not lane.released:
            with contextlib.suppress(Exception):
                await self.delivery.release(lane.chat_id, self.owner)
        if self.lanes.get(lane.chat_id) is lane:
            del self.lanes[lane.chat_id]
        record = lane.record
        if lane.players and record is not None and record.game.phase is not Phase.FINISHED:
            self.players_of[lane.chat_id] = lane.players
        else:
            self.players_of.pop(lane.chat_id, None)
        if lane.newer:
            self.newer_until[lane.chat_id] = time.monotonic() + NEWER_REST
        elif not self.stopped and lane.dirty:
            self.poke(lane.chat_id)

    def _busy(self) -> bool:
        return bool(
            self.wanted
            or self.wanted_notes
            or self.saving
            or any(lane.busy for lane in self.lanes.values())
            or any(notes.busy for notes in self.notes.values())
        )

    def _may_be_quiet(self, *_task: object) -> None:
        self._quieter.set()

    async def _work_in_redis(self) -> bool:
        """Whether any chat waits for its messages or its notes (in any worker)."""
        return bool(await self.delivery.due(time.time(), 1) or await self.storage.notes.waiting(1))

    async def _release_notes(self, chat_id: int) -> None:
        with contextlib.suppress(Exception):  # unreleased, it lapses by itself
            await self.storage.leases.release(self.storage.keys.notes_lease(chat_id), self.owner)

    async def _supersede(self, record: GameRecord) -> None:
        """The table of ``record``'s game keeps its text and loses its buttons (a one-off
        edit, saved for a caller that cannot wait: ``publish``; a failure is logged)."""
        chat_id = record.game.chat_id
        try:
            message_id = await self.table_message(record)
            if message_id is not None:
                await self._save_note(Note(chat_id, superseded_table(record).text, edit=message_id))
        except Exception as error:
            log.warning("a one-off edit of %s was not saved: %s", chat_id, error)

    async def _save_note(self, note: Note) -> None:
        await self.storage.notes.push(note.chat_id, note.to_json(), time.time())
        if not self.stopped:
            self.start()
            self.wanted_notes.add(note.chat_id)
            self._wake.set()

    async def _run(self) -> None:
        """Start a worker for every chat on the work list (or poked) that has none."""
        failures = 0
        while not self.stopped:
            self._wake.clear()
            try:
                await self._take_work()
                failures = 0
                pause = max(0.0, self.look_at - time.monotonic())
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis down: the list waits there for us
                failures += 1
                if failures == 1:
                    log.warning("the outbox cannot read its work list (%s); retrying", error)
                self.look_at = 0.0  # look again after the pause
                pause = min(5.0, POLL_SECONDS * 2**failures)
            self._may_be_quiet()
            await wait_event(self._wake, pause)

    async def _roll_call(self) -> None:
        """Every second: say this worker is alive and what it has waiting, and take its
        share of the budget."""
        now = time.monotonic()
        if now < self.roll_call_at:
            return
        self.roll_call_at = now + ROLL_CALL_SECONDS
        demands = await self.storage.workers.present(self.owner, self.budget.gate.demand())
        self.budget.follow(self.owner, demands)

    async def _take_work(self) -> None:
        """Start a worker for the chats changed here (``wanted``), and every
        ``POLL_SECONDS`` for those on the work list in Redis. A change saved here wakes
        the loop at once, most often for a chat whose worker just ended: it is started
        without reading the list again (under load that is many times a second), the list
        is read on its own time."""
        wanted, self.wanted = self.wanted, set()
        look = time.monotonic() >= self.look_at
        if look:
            self.look_at = time.monotonic() + POLL_SECONDS
            await self._roll_call()
        await self._take_notes(waiting=look)
        due: dict[int, float] = {}
        if look:
            now = time.time()
            await self.delivery.recheck(now)  # hands that waited for a page whose time ran out
            due = await self._due(now)
        for chat_id, changed_at in due.items():
            lane = self.lanes.get(chat_id)
            if lane is not None and changed_at > max(lane.loaded_at, lane.told_at):
                lane.told_at = changed_at
                lane.poke()  # changed by another process since the worker last looked
        since = time.monotonic()
        self.newer_until = {chat: at for chat, at in self.newer_until.items() if at > since}
        for chat_id in wanted | due.keys():
            if chat_id in self.lanes or chat_id in self.newer_until or self.stopped:
                continue
            # Its first load takes the chat's lease, or ends it if another process is on it.
            lane = self.lanes[chat_id] = Lane(self, chat_id, self.players_of.get(chat_id, ()))
            lane.task = asyncio.get_running_loop().create_task(self._run_lane(lane))
            lane.task.add_done_callback(self._may_be_quiet)
        if look:
            await self.renew_leases()

    async def renew_leases(self) -> None:
        """Every ``LEASE_KEEPING`` seconds, renew the leases of the chats whose workers here
        renew theirs within that time (``Lane.lease_until``) in one round trip; a worker
        whose lease ran out meanwhile (another process may be on its chat) stops, and the
        chat, still on the work list, gets a new one."""
        now = time.monotonic()
        if now < self.keep_leases_at:
            return
        self.keep_leases_at = now + LEASE_KEEPING
        due = [
            lane
            for lane in self.lanes.values()
            if lane.lease_until and lane.lease_until < now + LEASE_KEEPING and not lane.released
        ]
        if not due:
            return
        keys = [self.storage.keys.outbox_lease(lane.chat_id) for lane in due]
        held = await self.storage.leases.renew(keys, self.owner, LEASE_SECONDS)
        for lane, ours in zip(due, held, strict=True):
            if ours:
                lane.lease_until = max(lane.lease_until, now + LEASE_REFRESH)
            else:
                lane.lose()

    async def _due(self, now: float) -> dict[int, float]:
        """The chats on the work list: all of them now and then, else those that changed
        (or came back to it: ``recheck``) since the last look (``WHOLE_LIST_SECONDS``)."""
        whole = time.monotonic() >= self.whole_list_at
        since = None if whole else self.looked_at - CHANGES_OVERLAP
        due = await self.delivery.due_with_times(now, since=since)
        self.looked_at = now
        if whole:
            self.whole_list_at = time.monotonic() + WHOLE_LIST_SECONDS
        return due

    async def _take_notes(self, *, waiting: bool = True) -> None:
        """A note lane for every chat with notes just saved here, and (``waiting``) with
        notes waiting in Redis, that no worker is sending."""
        wanted, self.wanted_notes = self.wanted_notes, set()
        if waiting:
            wanted |= set(await self.storage.notes.waiting())
        for chat_id in wanted:
            lane = self.notes.get(chat_id)
            if (lane is not None and lane.busy) or self.stopped:
                continue
            if not await self.hold_notes(chat_id, LEASE_SECONDS):
                continue  # another worker sends them
            notes = self.notes[chat_id] = NoteLane(self, chat_id)
            notes.lease_until = time.monotonic() + LEASE_REFRESH
            notes.task = asyncio.get_running_loop().create_task(self._run_notes(notes))
            notes.task.add_done_callback(self._may_be_quiet)
