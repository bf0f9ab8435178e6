"""The worker that makes one game's messages (its table in the group, each player's hand in
private) show what is saved in Redis, for as long as they may differ, and a while after
(``LINGER``), for the game's next change.

It holds the chat's lease (one worker at a time, whatever the number of processes), reloads
the game when poked (while the group's table alone may change, when the table may go:
``_only_table_changes``), and gives every message its own task: a slow or failing call holds up
only its own message, a group's budget only the group's table, a player's flood limit only
that player. A message is rendered just before it goes, from the newest position, so the
changes it could not show in time merge into one edit. Failures are retried with a capped
backoff, and at once when Telegram answers again (``bot.delivery.failures``), until the
message shows the game; nothing is ever given up. When every message shows the position
last loaded, the chat leaves the work list (unless a newer change came), and the worker
waits for the next change up to ``LINGER`` before it lets go of the chat. A message waits
for the budget over all chats in its class (``plan.ACTING`` ...) as of the newest
position, not as of when it started to wait.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Sequence
from typing import Final

from bot.model import GameRecord, Phase
from bot.storage import NewerRecord
from bot.storage.outbox import Loaded, Shown
from bot.turn_clock import started_deadline
from bot.waiting import wait_event

from .budget import Claim
from .drafts import Draft, draft, render
from .failures import Failure, backoff
from .host import LEASE_GRACE, LEASE_REFRESH, LEASE_SECONDS, Host
from .plan import ACTING, TABLE, WATCHING, Picks, Seen, Slot, held, shows, slots_of, to_change
from .sender import edit, post

log = logging.getLogger(__name__)

REPLIES_RECHECK: Final = 0.2  # seconds between looks whether a group's replies went
# Seconds a worker whose chat settled waits for the chat's next change before it lets go of
# the chat: in a game being played the next move comes within seconds, and the worker that
# stays needs no new lease and no new first read for it.
LINGER: Final = 30.0


class Lane:
    def __init__(self, outbox: Host, chat_id: int, players: Sequence[int] = ()) -> None:
        self.outbox = outbox
        self.chat_id = chat_id
        # The players the chat's last worker here showed (most often this one's too): the
        # first load asks whether they started the bot, in its one round trip.
        self.expected = list(players)
        self.record: GameRecord | None = None
        self.picks: Picks = {}
        self.started: set[int] = set()
        # Players whose Mini App page is open, and until when it counts: their hands wait.
        self.paged: dict[int, float] = {}
        self.slots: list[Slot] = []
        self.named: dict[str, Slot] = {}  # the same by name
        # What each message waiting for the budget over all chats claims (its class and
        # weight in the newest position loaded): updated by each load.
        self.claims: dict[str, Claim] = {}
        self.shown: dict[str, Shown] = {}  # read with the first load
        self.shown_loaded = False
        # What messages show that Redis does not know yet (``SentStore``): saved with the
        # next settling, or before the worker waits (``_save_shown``).
        self.unsaved: dict[str, Shown] = {}
        self.change = ""
        self.loaded_at = 0.0  # wall clock, compared with the work list's scores
        # Wall clock: the newest change on the work list the outbox told it of (``Outbox``
        # looks at each change several times, and a lane waiting for its table's budget
        # would wake for nothing each time).
        self.told_at = 0.0
        self.inflight: dict[str, asyncio.Task[None]] = {}
        self.retry_at: dict[str, float] = {}  # slot -> monotonic time
        self.attempts: dict[str, int] = {}
        self.replies_first = False  # the group's replies to earlier commands go first
        self.clock_for = -1  # the move count whose turn clock was started
        self.dirty = True
        # Monotonic: since when every message shows the position (the chat settled), while
        # the worker waits for the next change (``LINGER``); None while it works.
        self.settled_at: float | None = None
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        # Monotonic: renew the chat's lease by then (each load renews it, and the outbox
        # renews those of every worker in one round trip: ``Outbox.renew_leases``).
        self.lease_until = 0.0
        self.lost = False  # another worker holds the chat's lease now: stop
        # A newer version of the bot saved the game: its workers show it, this one lets go.
        self.newer = False
        # The lease was never ours, or is another worker's now: nothing to let go of.
        self.released = False

    @property
    def players(self) -> list[int]:
        """The players whose hands the worker shows, as of its last load."""
        return _players(self.slots)

    @property
    def busy(self) -> bool:
        """Whether it works on the chat's messages (not merely waiting for its next change
        with every message shown: ``LINGER``)."""
        working = self.settled_at is None or self.dirty
        return working and self.task is not None and not self.task.done()

    def poke(self) -> None:
        """Something changed: load the game again, now or, while only the table waits for
        its budget, once it may go (``_only_table_waits``; woken now, the loop would find
        nothing to do but wait again: under load that is most moves of a game)."""
        self.dirty = True
        if self.settled_at is not None or not self._only_table_waits():
            self.wake.set()

    def page_closed(self, user_id: int) -> None:
        """The user's Mini App page closed (``bot.webapp.presence``), in this process: their
        hand is held no longer, so a table waiting for its budget does not hold back the
        load that brings the hand up to date (``_only_table_waits``)."""
        self.paged.pop(user_id, None)
        self.poke()

    # -- the loop ---------------------------------------------------------------------------

    def lose(self) -> None:
        """The chat's lease is another worker's now (``Outbox.renew_leases``): stop."""
        self.lost = True
        self.wake.set()

    async def run(self) -> None:
        outbox = self.outbox
        try:
            # The first load takes the chat's lease: nothing to do if another worker has it.
            if not await self._reload(first=True):
                self.released, self.dirty = True, False
                return
            while not outbox.stopped and not self.lost and not self.newer:
                self.wake.clear()
                if self.dirty:
                    self.settled_at = None  # a change: the chat is to settle again
                # While the table alone may change, its delivery reads the newest position
                # when it may go (``_table_may_go``): no read now. But a table waiting for
                # the group's replies (``replies_first``) reads whether they went.
                only_table = self._only_table_changes() is not None and not self.replies_first
                if self.dirty and not only_table and not await self._reload():
                    break  # the lease is another worker's now
                next_at = self._dispatch()
                if not self.inflight and next_at is None:
                    if self.settled_at is None:
                        unsaved, self.unsaved = self.unsaved, {}
                        if not await outbox.delivery.settle(
                            self.chat_id, self.change, self._held_until(), shown=unsaved
                        ):
                            self.dirty = True
                            continue
                        self.settled_at = time.monotonic()
                    elif time.monotonic() >= self.settled_at + LINGER:
                        break  # no change for a while: the lease goes (``Outbox._lane_ended``)
                    next_at = self.settled_at + LINGER
                else:
                    self.settled_at = None
                if self.unsaved:
                    await self._save_shown()
                now = time.monotonic()
                renew_at = self.lease_until + LEASE_GRACE
                if now >= renew_at:  # the outbox did not renew it (``Outbox.renew_leases``)
                    if not await outbox.delivery.lease(self.chat_id, outbox.owner, LEASE_SECONDS):
                        self.lost = True
                        break
                    self.lease_until = renew_at = now + LEASE_REFRESH
                timeout = renew_at - now
                if next_at is not None:
                    timeout = min(timeout, max(0.0, next_at - now))
                if timeout > 0:
                    await wait_event(self.wake, timeout)
            if self.lost:
                log.warning("lost the outbox lease of %s", self.chat_id)
                self.released = True
        except asyncio.CancelledError:
            raise
        except NewerRecord as error:
            self._leave_to_newer(error)
        except Exception as error:
            # Redis down, most likely: the chat stays on the work list, and the outbox's main
            # loop starts a new worker for it once the lease can be taken again.
            log.warning("outbox worker of %s stopped: %s", self.chat_id, error)
        finally:
            for task in self.inflight.values():
                task.cancel()

    async def _reload(self, *, first: bool = False) -> bool:
        """Load the chat's newest position (renewing the lease, or with ``first`` taking
        it): False if another worker holds the lease."""
        outbox = self.outbox
        self.dirty = False
        loaded_at, renewed_at = time.time(), time.monotonic()
        # The players shown last time are asked about with the game (most often the same).
        loaded = await outbox.delivery.load(
            self.chat_id,
            self.players or self.expected,
            sent=not self.shown_loaded,
            owner=outbox.owner,
            lease_seconds=LEASE_SECONDS,
        )
        if loaded is None:
            self.lost = not first
            return False
        self.lease_until = renewed_at + LEASE_REFRESH
        await self._apply(loaded, loaded_at)
        return True

    async def _apply(self, loaded: Loaded, loaded_at: float) -> None:
        """Take ``loaded`` (read at ``loaded_at``, wall clock) as the newest position."""
        outbox = self.outbox
        games = outbox.storage.games
        change, picks = loaded.change, loaded.picks
        record, unreadable = games.read(loaded.game, loaded.deadline)
        if unreadable is not None:
            record = await games.get(self.chat_id)  # moves it aside, and says so
        slots = [] if record is None else slots_of(record, picks)
        paged = {user: until for user, until in loaded.pages.items() if until > loaded_at}
        players = _players(slots)
        started = {user for user in players if loaded.started.get(user)}
        started |= await outbox.started(u for u in players if u not in loaded.started)
        # Replies waiting since before this position was loaded answer commands that came
        # before the change it shows (or the command that made it): they go first, so a
        # group reads «not allowed» before a later «stopped», never after.
        replies_since = None if self.chat_id > 0 else loaded.replies_since
        self.replies_first = replies_since is not None and replies_since <= loaded_at
        # All at once, after the last await: a message task finishing meanwhile must not
        # see the new position with the old players (it would start the turn clock early).
        self.loaded_at = loaded_at
        self.change, self.record, self.picks, self.slots, self.started, self.paged = (
            change,
            record,
            picks,
            slots,
            started,
            paged,
        )
        self.named = {slot.name: slot for slot in slots}
        self._update_claims()
        if loaded.sent is not None:  # the first load: nothing was sent by this worker yet
            self.shown, self.shown_loaded = loaded.sent, True

    async def _save_shown(self) -> None:
        """Save what messages show now (``unsaved``) before the worker waits: a restart, or
        another worker, must not repeat an edit that went."""
        unsaved, self.unsaved = self.unsaved, {}
        try:
            await self.outbox.storage.sent.save(self.chat_id, unsaved)
        except BaseException:
            self.unsaved = {**unsaved, **self.unsaved}  # for the next try, or the settling
            raise

    def _only_table_changes(self) -> Slot | None:
        """The group's table, if it is the only message a change may bring: every hand is
        held (its player plays on the Mini App's page, or cannot be written to). A change
        is then read once the table may go (``_table_may_go``), not on every move: under
        load, most moves of a game come while its table waits for its budget, and only the
        newest position is shown anyway. A page whose time ran out, or that closed on this
        worker (``page_closed``), catches up at once; one that closed on another worker,
        with the table."""
        table = next((slot for slot in self.slots if slot.priority == TABLE), None)
        if table is None or self.chat_id > 0:
            return None
        if self.record is None or self.record.game.phase is not Phase.PLAYING:
            return None  # a change may deal: the hands go at once, not with the table
        if any(until <= time.time() for until in self.paged.values()):
            return None  # a page's time ran out: its hand may have to catch up now
        seen = self._seen()
        if not all(slot is table or held(slot, seen) for slot in self.slots):
            return None
        return table

    def _only_table_waits(self) -> bool:
        """Whether the table alone may change (``_only_table_changes``) and it waits for a
        budget (the group's, or its turn over all chats): a change need not wake the worker."""
        table = self._only_table_changes()
        if table is None:
            return False
        return table.name in self.inflight or self._free_at(table) > time.monotonic()

    def _dispatch(self) -> float | None:
        """Start a task for every message that should change (``plan.to_change``) and may go
        now; the monotonic time of the next retry or budget refill to wait for, or None if
        nothing waits. A table whose newest position is not read yet (``dirty``: only the
        table changes) is not known to show it."""
        now = time.monotonic()
        next_at: float | None = None
        changing = {slot.name for slot in to_change(self.slots, self._seen())}
        for slot in self.slots:
            if slot.name in self.inflight:
                continue
            if slot.name not in changing and not (self.dirty and slot.priority == TABLE):
                continue
            ready_at = max(self.retry_at.get(slot.name, 0.0), self._free_at(slot))
            if slot.priority == TABLE and self.replies_first:
                self.dirty = True  # look again soon: the replies may have gone by then
                ready_at = max(ready_at, now + REPLIES_RECHECK)
            if ready_at > now:
                next_at = ready_at if next_at is None else min(next_at, ready_at)
                continue
            task = asyncio.get_running_loop().create_task(self._deliver(slot))
            self.inflight[slot.name] = task
            task.add_done_callback(functools.partial(self._finished, slot.name))
        return next_at

    def _finished(self, name: str, _task: object) -> None:
        self.inflight.pop(name, None)
        self.wake.set()

    def _seen(self) -> Seen:
        """What the worker knows of the chat's messages, for ``bot.delivery.plan``."""
        return Seen(self.shown, self.started, self.paged)

    def _held_until(self) -> float | None:
        """When the first page that holds a hand behind the game stops counting as open, so
        that the chat is looked at again then (its worker may die without saying goodbye:
        ``bot.webapp.presence``); None if no page holds one."""
        seen = self._seen()
        held_by = [
            self.paged[slot.user_id]
            for slot in self.slots
            if slot.user_id in self.paged and slot.user_id in self.started
            and not shows(slot, seen)
        ]  # fmt: skip
        return min(held_by, default=None)

    def _free_at(self, slot: Slot) -> float:
        """The monotonic time before which ``slot``'s message may not go (its chat's
        budget: ``budget.Budget.free_at``)."""
        return self.outbox.budget.free_at(slot.chat_id)

    def _claim(self, slot: Slot) -> Claim:
        """What ``slot``'s message claims while it waits for the budget over all chats."""
        current = self._current(slot.name) or slot
        claim = self.claims[slot.name] = Claim(current.priority, current.waiting)
        return claim

    def _update_claims(self) -> None:
        """The waiting messages' classes and weights as of the newest position loaded (a
        message queued while computers moved is one a person waits on once it is their
        turn). A message gone from the newest position keeps its claim: it is not sent."""
        for name, claim in self.claims.items():
            current = self.named.get(name)
            if current is not None:
                claim.priority, claim.weight = current.priority, current.waiting

    def _current(self, name: str) -> Slot | None:
        return self.named.get(name)

    # -- one message ------------------------------------------------------------------------

    def _leave_to_newer(self, error: NewerRecord) -> None:
        """A newer version of the bot saved the game: its workers show it; this one stops."""
        if not self.newer:
            log.info("the messages of %s are left to a newer worker: %s", self.chat_id, error)
        self.newer = True
        self.wake.set()

    async def _deliver(self, slot: Slot) -> None:
        try:
            done = await self._try_deliver(slot)
        except asyncio.CancelledError:
            raise
        except NewerRecord as error:  # read when the group's table may go
            self._leave_to_newer(error)
        except Exception as error:
            await self._failed(slot, error)
        else:
            if done:
                self.attempts.pop(slot.name, None)
                self.retry_at.pop(slot.name, None)

    async def _try_deliver(self, slot: Slot) -> bool:
        """Show the newest position in ``slot``'s message; False if it has to wait for the
        group's budget first."""
        outbox = self.outbox
        record = self.record
        assert record is not None
        drafted: Draft | None = None
        if slot.priority != TABLE:
            drafted = draft(render(record, slot, self.picks, time.time(), outbox.links))
            if await self._unchanged(slot, drafted):
                return True
        # A group's table may wait its round behind players' views, never before anybody's
        # buttons: each player follows the game in private, the table is nobody's turn.
        rises_to = WATCHING if slot.priority == TABLE else ACTING
        try:
            await outbox.budget.gate.acquire(slot.chat_id, self._claim(slot), rises_to=rises_to)
        finally:
            del self.claims[slot.name]
        if slot.priority == TABLE and not await self._table_may_go():
            outbox.budget.gate.refund()
            return False
        if drafted is None or self.record is not record:
            # A table (rendered once it may go: it waits for its group's budget and its turn
            # over all chats, under load for seconds, while the game moves on), or a message
            # whose position moved on while it waited: the newest position, rendered now.
            current = self._current(slot.name)
            if current is None or self.record is None:
                outbox.budget.gate.refund()
                return True
            record, slot = self.record, current
            drafted = draft(render(record, slot, self.picks, time.time(), outbox.links))
            if await self._unchanged(slot, drafted):
                outbox.budget.gate.refund()
                return True
        shown = self.shown.get(slot.name)
        bot, rendered = outbox.bot, drafted.rendered
        if shown is None:
            message_id = await post(bot, slot.chat_id, rendered.text, rendered.markup)
        else:
            message_id = shown.message_id
            await edit(bot, slot.chat_id, message_id, rendered.text, rendered.markup)
        outbox.call_answered()
        await self._remember(slot, Shown(message_id, drafted.digest, slot.key))
        await self._maybe_start_clock()
        return True

    async def _table_may_go(self) -> bool:
        """Spend a message of the group's budget for its table, and read the newest position
        if changes came while it waited (``_only_table_changes``), in one round trip; False
        if the budget has no room yet (nothing spent; the table waits for it). (A table
        that turns out to show that position already costs a unit of the budget; a
        version that changes nothing on the table is rare.)"""
        outbox = self.outbox
        interval, tolerance = outbox.budget.group_limit()
        load, loaded_at = self.dirty, time.time()
        if load:
            self.dirty = False
        taken = await outbox.delivery.take_and_load(
            self.chat_id,
            interval,
            tolerance,
            outbox.owner,
            LEASE_SECONDS,
            self.players or self.expected,
            load=load,
        )
        if taken is None:
            self.lose()
            return False
        self.lease_until = time.monotonic() + LEASE_REFRESH
        if taken.wait > 0:
            self.dirty = self.dirty or load  # not read: the changes wait to be
            outbox.budget.group_full(self.chat_id, taken.wait)
            return False
        if taken.loaded is not None:
            await self._apply(taken.loaded, loaded_at)
        return True

    async def _unchanged(self, slot: Slot, drafted: Draft) -> bool:
        """The message already shows ``drafted``: note that it shows this position too."""
        shown = self.shown.get(slot.name)
        if shown is None or shown.digest != drafted.digest:
            return False
        if shown.key != slot.key:
            await self._remember(slot, Shown(shown.message_id, shown.digest, slot.key))
        return True

    async def _remember(self, slot: Slot, shown: Shown) -> None:
        """``slot``'s message shows ``shown`` now: in memory at once (a Redis hiccup must not
        resend), in Redis with the worker's next round trip (``unsaved``), or at once for a
        message just sent, whose id nothing else knows."""
        known = slot.name in self.shown
        self.shown[slot.name] = shown
        self.unsaved[slot.name] = shown
        if not known:
            await self._save_shown()

    async def _failed(self, slot: Slot, error: Exception) -> None:
        """Its part of a failed call (the worker's part is done by ``Host.failed``): a
        game's message is tried until it shows the game."""
        outbox = self.outbox
        failure = await outbox.failed(slot.chat_id, error)
        if failure is None:
            self._retry(slot, 5.0)
            return
        match failure.kind:
            case Failure.RETRY_AFTER:
                pass  # its chat's budget is blocked until then (``Budget.free_at``)
            case Failure.TRANSIENT:
                attempt = self.attempts[slot.name] = self.attempts.get(slot.name, 0) + 1
                if attempt == 1 or attempt % 10 == 0:
                    log.warning(
                        "sending %s to %s failed (%s, attempt %d); retrying",
                        slot.name,
                        slot.chat_id,
                        failure.description,
                        attempt,
                    )
                self._retry(slot, backoff(attempt))
            case Failure.GONE:
                # Somebody deleted the message: post it again (if it may be sent).
                self.shown.pop(slot.name, None)
                self.unsaved.pop(slot.name, None)
                await outbox.storage.sent.forget(self.chat_id, slot.name)
            case Failure.FORBIDDEN:
                if slot.user_id is not None:
                    self.started.discard(slot.user_id)
                    await outbox.unreachable(slot.user_id)
                else:
                    self._give_up(slot)
                    await outbox.chat_lost(self.chat_id)
            case Failure.MIGRATED:
                self._give_up(slot)
                if failure.chat_id is not None:
                    await outbox.chat_migrated(self.chat_id, failure.chat_id)
            case Failure.REFUSED | Failure.NOT_MODIFIED:
                log.error(
                    "Telegram refused %s for %s: %s", slot.name, slot.chat_id, failure.description
                )
                self._give_up(slot)

    def _retry(self, slot: Slot, seconds: float) -> None:
        self.retry_at[slot.name] = time.monotonic() + seconds

    def retry_now(self) -> None:
        """Telegram answers again: the messages waiting for their next try go now."""
        if self.retry_at:
            self.retry_at.clear()
            self.wake.set()

    def _give_up(self, slot: Slot) -> None:
        """This position cannot be shown in this message: count it as shown (in memory only;
        a later change or a restart tries again), so that one refusal does not loop."""
        shown = self.shown.get(slot.name) or Shown(0, "")
        self.shown[slot.name] = Shown(shown.message_id, shown.digest, slot.key)

    # -- the turn clock ---------------------------------------------------------------------

    async def _maybe_start_clock(self) -> None:
        """Once every player who must act now has been shown this position (their buttons),
        their turn clock starts (``bot.turn_clock``): a write of the deadline alone. A player
        on the Mini App's page is shown it by the page, which starts the clock itself
        (``bot.webapp.presence``); if every acting player is, nothing starts it here."""
        record = self.record
        if (
            record is None
            or record.deadline is None  # no turn timer in this chat
            or record.game.phase is not Phase.PLAYING
            or record.game.state is None
        ):
            return
        moves = record.game.state.moves
        if moves == self.clock_for:
            return
        in_chat = [
            slot
            for slot in self.slots
            if slot.priority == ACTING
            and slot.user_id in self.started
            and slot.reader not in self.paged
        ]
        if not in_chat and any(
            slot.priority == ACTING and slot.reader in self.paged for slot in self.slots
        ):
            return
        for slot in in_chat:
            shown = self.shown.get(slot.name)
            if shown is None or shown.key != slot.key:
                return
        self.clock_for = moves
        deadline = started_deadline(record, time.time())
        if deadline is None:
            return
        # Messages rendered from now on show this deadline (``drafts.render``), never a
        # later one, also while it is on its way to Redis.
        record.deadline = deadline
        storage = self.outbox.storage
        await storage.deadlines.start_clock(
            storage.keys.game(self.chat_id), self.chat_id, record.game.game_id, moves, deadline
        )


def _players(slots: list[Slot]) -> list[int]:
    """The players whose hands ``slots`` show."""
    return [slot.user_id for slot in slots if slot.user_id is not None]
