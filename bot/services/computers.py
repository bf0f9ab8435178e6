"""Computer players at a group's table (``engine.ai``): seating them in a lobby, and
their moves.

A computer's move goes the way a person's press goes: the game is loaded, the engine
decides, and the move is saved with one compare-and-set that checks the position it was
chosen for is still the current one (``GameService.update``). Choosing takes time (the
``hard`` level searches), so it happens before the transaction, on the loaded state and
outside the event loop (``ComputerTurns``); a position that moved on meanwhile is chosen
for again. A computer sees only its seat's view: ``engine.ai.choose_action`` is given the
state and the seat and reads only ``view_for(state, seat)`` of it (the engine's guarantee,
tested there).

Computer players' turns: a background task that lets each computer act when it is due.

A change that makes it a computer's turn writes the chat into a sorted set in Redis, in the
game's own transaction (``GameRecord.computers_at``), so a restarted bot picks up the
computers that were about to act. A computer acts ``pause`` seconds after that change (a
human-like beat, so people can follow), once its table's turn came in the computers' budget
of thinking (``ThinkingQueue``: tables in turn, at most ``per_second`` decisions started a
second, a search only with a place in the pool, its budget shortened when many wait);
chooses outside the event loop (``hard`` in a pool of processes, with its time budget
enforced from the search's start); and plays through ``ComputerSeats.move``: a
compare-and-set on the position it chose for. With several worker processes, one of them
thinks for a chat's computer at a time (a lease in Redis, taken once the turn came, which
a killed worker's lapses after the longest a search may take); and were two ever to move at
once, the second finds the position moved on. A computer's move is never silently made by
a weaker level: a shortened search and a search that overran (the heuristic player moves
instead) are counted in ``durak_computer_degraded_total{level,reason}``, and the time from
a move being due to its being saved in ``durak_computer_decision_seconds{level}``.

The computers' budget of thinking: which waiting table's computer decides next, and how
long a ``hard`` one may search (``ThinkingQueue``), in one process of the bot.

Fair across tables: a decision waits in its share's line, and the shares are served in
turn (round robin), one decision each per round, for both limits a decision needs: a start
(at most ``per_second`` decisions start a second, so computers never take the event loop
from people) and, for a search, a place in the pool (``places`` searches at once, one per
process). A share is a table, or a person alone with computers at several tables (their
tables share one turn, ``share_of``): a table's wait depends on how many shares wait, never
on how many computers another table has or how many tables one person opened. A decision
that needs no place (``easy``, ``normal``) passes a search that waits for one.

When the pool is busy a search gets less time rather than waiting longer: its budget is the
pool's time for the next ``within`` seconds shared among the searches waiting, so the last
of them still starts within about ``within`` seconds, and a table of people does not wait
half a minute for a computer that thinks 300 ms while two hundred other tables wait. We
chose this over letting every search take its full budget in turn because the people at the
table wait for the computer's move, and a move some seconds late costs them more than a
search a little shallower. The budget never goes below ``MIN_BUDGET_MS``: past that, the
searches wait their turn. Every shortened search is counted (``durak_computer_degraded_total
{reason="short_budget"}``), never silent.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final

from bot.metrics import COMPUTER_DECISION, COMPUTER_DEGRADED, COMPUTER_MOVES
from bot.model import ChatGame, ChatSettings, GameRecord, Phase, Seat
from bot.schema.refusals import Reason
from bot.schema.settings import AI_LEVELS
from bot.storage import KEEP, Claim, DeadlineStore, NewerRecord, Saved, SavedSettings
from bot.storage.workers import worker_name
from engine import Action, GameState, IllegalAction, SeatView, apply, legal_actions, view_for
from engine.ai import choose_action, choose_for_view, watched_discard

from .decisions import LobbyGuard, Player, advance, computers_to_act, creator_or_admin
from .due import DueLoop
from .games import GameService
from .outcomes import Changed, Check, Outcome, Refused

# Names for computer players, one per seat at most (a table has at most eight seats). The
# tables write them with a robot in front: «🤖 Федя».
COMPUTER_NAMES: Final = ("Федя", "Маша", "Гоша", "Соня", "Лёва", "Ната", "Тёма", "Рита")


def computer_seat(taken: list[Seat], level: str) -> Seat:
    """The next computer player for a table where ``taken`` sit: the first name no
    computer there has and no person there is called (Маша adds a bot: it is not «🤖 Маша»);
    its user id, negative, follows from the name, so it is unique at the table. Names are
    chosen when the computer sits down: a person who joins later keeps their name, and the
    robot in front of the computer's tells the two apart."""
    used = {seat.user_id for seat in taken}
    people = set().union(*(_words(seat.name) for seat in taken if not seat.computer))
    free = [(i, name) for i, name in enumerate(COMPUTER_NAMES) if -(i + 1) not in used]
    if not free:
        raise ValueError("no free name for a computer player")
    # Only a table of people whose names take every free one gets a namesake.
    index, name = next(((i, n) for i, n in free if not _words(n) & people), free[0])
    return Seat(-(index + 1), name, level=level)


def _words(name: str) -> set[str]:
    """The words of a name, for comparing: «Маша Петрова» is called Маша, «Лёва» Лева."""
    return set(name.casefold().replace("ё", "е").split())


class ComputerSeats:
    """Seating computer players in a lobby, and applying their chosen moves."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def add(
        self,
        chat_id: int,
        player: Player,
        *,
        level: str | None = None,
        game_id: str | None = None,
        once: Claim | None = None,
    ) -> Outcome:
        """Seat a computer player of ``level`` (the chat's ``ai_level`` if None). Anybody at
        the group may; a full lobby refuses."""
        if level is not None and level not in AI_LEVELS:
            raise ValueError(f"unknown level {level!r}")

        def decide(record: GameRecord) -> tuple[Saved, Outcome]:
            game = record.game
            if len(game.players) >= game.settings.rules.max_players:
                return KEEP, Refused(Reason.LOBBY_FULL, record)
            game.players.append(computer_seat(game.players, level or game.settings.ai_level))
            return record, Changed(record)

        guard = LobbyGuard(player.user_id, game_id)
        return await self.service.in_lobby(chat_id, guard, decide, once=once)

    async def new_solo(self, chat_id: int, player: Player, *, once: Claim | None = None) -> Outcome:
        """``/newgame`` in a person's private chat (``chat_id``): a lobby there with the
        person and one computer player of the chat's level; the buttons add more (up to the
        chat's ``max_players``) or take them out. A lobby or game already there stays."""

        def decide(
            record: GameRecord | None, settings: ChatSettings
        ) -> tuple[Saved, SavedSettings, Outcome]:
            if record is not None and record.game.phase is not Phase.FINISHED:
                return KEEP, KEEP, Refused(Reason.EXISTS, record)
            game = ChatGame(chat_id, ChatGame.new_id(), player.user_id, settings)
            game.players = [player.seat()]
            game.players.append(computer_seat(game.players, settings.ai_level))
            new = GameRecord(game)
            return new, KEEP, Changed(new, previous=record)

        return await self.service.update_with_settings(chat_id, decide, once=once)

    async def remove(
        self,
        chat_id: int,
        user_id: int,
        *,
        is_admin: Check,
        game_id: str | None = None,
        once: Claim | None = None,
    ) -> Outcome:
        """Take the last computer player seated out of the lobby (its creator or an admin)."""
        guard = LobbyGuard(user_id, game_id)
        allowed = creator_or_admin(user_id, is_admin, Reason.NOT_ALLOWED_REMOVE_COMPUTER)

        def decide(record: GameRecord) -> tuple[Saved, Outcome]:
            seats = record.game.computers()
            if not seats:
                return KEEP, Refused(Reason.NO_COMPUTER, record)
            del record.game.players[seats[-1]]
            return record, Changed(record)

        return await self.service.in_lobby(chat_id, guard, decide, ask=allowed, once=once)

    async def move(
        self, chat_id: int, game_id: str, moves: int, seat: int, action: Action
    ) -> Outcome:
        """Play ``action``, chosen for computer ``seat`` at move ``moves`` of ``game_id``,
        if that is still the position: otherwise refused as ``STALE`` (choose again)."""
        now = self.service.clock()

        def decide(record: GameRecord | None) -> tuple[Saved, Outcome]:
            if record is None or record.game.game_id != game_id:
                return KEEP, Refused(Reason.STALE, record)
            game, state = record.game, record.game.state
            if game.phase is not Phase.PLAYING or state is None or state.moves != moves:
                return KEEP, Refused(Reason.STALE, record)
            if seat not in computers_to_act(game):
                return KEEP, Refused(Reason.STALE, record)
            played = action
            try:
                after, events = apply(state, played)
            except IllegalAction:
                # A level must choose a legal action; should one not, the table goes on.
                played = legal_actions(state, seat)[0]
                after, events = apply(state, played)
            advance(record, after, list(events), now, played=[played])
            return record, Changed(record, events=tuple(events), seat=seat)

        return await self.service.update(chat_id, decide)


def due_computer(record: GameRecord | None) -> tuple[int, str] | None:
    """The computer player to act in ``record`` now, with its level; None if none is."""
    if record is None:
        return None
    seats = computers_to_act(record.game)
    if not seats:
        return None
    level = record.game.players[seats[0]].level
    assert level is not None
    return seats[0], level


# Seconds by which a waiting search should start: well inside the 10 s (p99) from a move
# being due to its being saved that we aim for, and a beat people at the table still accept.
WITHIN: Final = 3.0
MIN_BUDGET_MS: Final = 20.0  # below this a search samples too few worlds to be worth it
REMEMBERED: Final = 10_000  # shares whose last turn is remembered, the latest


def share_of(game: ChatGame) -> str:
    """Whose share of the computers' thinking a decision at ``game``'s table is: the person's
    if one person sits with computers (in their private chat or in a group: however many
    such tables they open, one share), else the table's."""
    people = [player.user_id for player in game.players if not player.computer]
    return f"person:{people[0]}" if len(people) == 1 else f"table:{game.chat_id}"


class Turn:
    """A decision's turn: ``budget_ms`` for a search (None for a decision that searches
    not), ``short`` when that is less than the full budget. A search's place is given back
    when its job ends (``running``), which may be after the turn: a search that overran
    still occupies its process."""

    def __init__(self, queue: ThinkingQueue, budget_ms: float | None, short: bool) -> None:
        self.queue = queue
        self.budget_ms = budget_ms
        self.short = short
        self.job: asyncio.Future[Any] | None = None
        self._held = budget_ms is not None

    def running(self, job: asyncio.Future[Any]) -> None:
        """The search now runs as ``job``: its place is free once the job ends."""
        self.job = job
        job.add_done_callback(self._job_done)

    def _job_done(self, job: asyncio.Future[Any]) -> None:
        if not job.cancelled():
            job.exception()  # an overrun job's failure was told already, or nobody waits
        self.release()

    def end(self) -> None:
        """The turn is over: the place is free unless a job still runs in it."""
        if self.job is None or self.job.done():
            self.release()

    def release(self) -> None:
        if self._held:
            self._held = False
            self.queue.place_freed()


@dataclass
class _Waiter:
    searching: bool
    future: asyncio.Future[Turn] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class ThinkingQueue:
    """``places``: searches at once; ``per_second``: decisions started a second at most;
    ``budget_ms``: a search's full budget; ``clock``: monotonic seconds, the event loop's."""

    def __init__(
        self,
        *,
        places: int,
        per_second: float,
        budget_ms: float,
        within: float = WITHIN,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.places = places
        self.searching = 0  # places taken
        self.interval = 1.0 / per_second
        self.budget_ms = budget_ms
        self.within = within
        self.clock = clock
        self.next_start = 0.0
        self.lines: dict[str, deque[_Waiter]] = {}  # each share's waiting decisions
        # Shares by when they were last served, longest ago first: the round's order, which
        # a share keeps while it has nothing waiting (it was served just now, wait or not).
        self.served: OrderedDict[str, int] = OrderedDict()
        self.turns = 0  # turns given, to stamp ``served``
        self._timer: asyncio.TimerHandle | None = None

    def waiting(self) -> int:
        return sum(len(line) for line in self.lines.values())

    @contextlib.asynccontextmanager
    async def turn(self, share: str, *, searching: bool) -> AsyncIterator[Turn]:
        """Wait for ``share``'s turn (and a place in the pool if ``searching``)."""
        waiter = _Waiter(searching)
        self.lines.setdefault(share, deque()).append(waiter)
        self._grant()
        try:
            turn = await waiter.future
        except asyncio.CancelledError:
            self._forget(share, waiter)
            raise
        try:
            yield turn
        finally:
            turn.end()

    def place_freed(self) -> None:
        self.searching -= 1
        self._grant()

    def _forget(self, share: str, waiter: _Waiter) -> None:
        """A waiter cancelled: out of its line, or its place back if it was granted one."""
        line = self.lines.get(share)
        if line is not None and waiter in line:
            line.remove(waiter)
            if not line:
                del self.lines[share]
        elif waiter.future.done() and not waiter.future.cancelled():
            waiter.future.result().end()

    def _grant(self) -> None:
        """Give turns while a start and the place a waiter needs are free: to the waiting
        share served longest ago (never served: first), which then goes to the end."""
        while self.lines:
            now = self.clock()
            if now < self.next_start:
                self._wake_at(self.next_start - now)
                return
            ready = [s for s, line in self.lines.items() if self._can_go(line[0])]
            if not ready:
                return  # searches wait for a place; place_freed calls again
            share = min(ready, key=lambda s: self.served.get(s, -1))
            line = self.lines[share]
            waiter = line.popleft()
            if not line:
                del self.lines[share]
            self._served(share)
            self.next_start = max(now, self.next_start) + self.interval
            if waiter.future.cancelled():
                continue
            waiter.future.set_result(self._turn(waiter.searching))

    def _served(self, share: str) -> None:
        self.turns += 1
        self.served[share] = self.turns
        self.served.move_to_end(share)
        while len(self.served) > REMEMBERED:
            self.served.popitem(last=False)  # forgotten: first in line anyway, as before

    def _can_go(self, waiter: _Waiter) -> bool:
        return not waiter.searching or self.searching < self.places

    def _turn(self, searching: bool) -> Turn:
        if not searching:
            return Turn(self, None, short=False)
        self.searching += 1
        behind = sum(w.searching for line in self.lines.values() for w in line)
        share_ms = self.places * self.within * 1000 / (behind + 1)
        budget = min(self.budget_ms, max(MIN_BUDGET_MS, share_ms))
        return Turn(self, budget, short=budget < self.budget_ms)

    def _wake_at(self, delay: float) -> None:
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(delay, self._woken)

    def _woken(self) -> None:
        self._timer = None
        self._grant()


log = logging.getLogger(__name__)

SLOW = "hard"  # the level that searches, and so runs in the pool of processes
FALLBACK = "normal"  # what plays when a search overruns its budget by far
DUE_BATCH: Final = 50  # chats newly due read from Redis a round, besides those at work


def overrun_seconds(budget_ms: float) -> float:
    """How long a search of ``budget_ms`` may run before the heuristic player takes over."""
    return budget_ms / 1000 * 3 + 2.0


@dataclass(frozen=True)
class Due:
    """A computer due to act: its seat and level in ``record``'s ``state``; ``at``: when
    its move became due (the change that made it so, plus the pause)."""

    record: GameRecord
    state: GameState
    seat: int
    level: str
    at: float


def choose(state: GameState, seat: int, level: str, seed: str, budget_ms: float) -> Action:
    """``engine.ai.choose_action``."""
    return choose_action(state, seat, level, seed=seed, budget_ms=budget_ms)


def choose_from_view(
    view: SeatView, discard: int, legal: list[Action], level: str, seed: str, budget_ms: float
) -> Action:
    """``engine.ai.choose_for_view``, in a pool of processes: only what the seat may know
    goes there (its view, the discard it watched, its legal actions), not the state."""
    return choose_for_view(view, discard, legal, level, seed=seed, budget_ms=budget_ms)


class ComputerTurns(DueLoop):
    what = "computer players"

    def __init__(
        self,
        service: GameService,
        queue: DeadlineStore,
        publish: Callable[[Changed], None],
        *,
        pause: float = 1.5,
        budget_ms: float = 300.0,
        per_second: float = 50.0,
        processes: int = 1,
        pool: Executor | None = None,
        within: float = WITHIN,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(queue, clock, lag=pause)
        self.service = service
        self.seats = ComputerSeats(service)
        self.publish = publish
        self.pause = pause
        self.budget_ms = budget_ms
        if pool is None and processes > 0:
            pool = ProcessPoolExecutor(processes)
        self.pool = pool  # None: the default threads of this process
        self.thinking = ThinkingQueue(
            places=max(1, processes), per_second=per_second, budget_ms=budget_ms, within=within
        )
        self.owner = worker_name()
        self.lease_seconds = overrun_seconds(budget_ms) + 5.0
        self.playing: dict[int, asyncio.Task[Outcome | None]] = {}

    async def stop(self) -> None:
        await super().stop()
        for task in list(self.playing.values()):
            task.cancel()
        await asyncio.gather(*self.playing.values(), return_exceptions=True)
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)

    async def act(self) -> None:
        # Past the chats already at work here (they keep their place in the sorted set until
        # their computer moved), so a chat that came due later is seen and waits its turn.
        limit = len(self.playing) + DUE_BATCH
        self.dispatch(await self.queue.due(self.clock() - self.pause, limit=limit))

    def dispatch(self, chats: list[int]) -> None:
        """A task per chat with a computer due, unless one is already at work there."""
        for chat_id in chats:
            if chat_id not in self.playing:
                task = asyncio.get_running_loop().create_task(self.play(chat_id))
                self.playing[chat_id] = task
                task.add_done_callback(functools.partial(self._done, chat_id))

    def _done(self, chat_id: int, _task: asyncio.Task[Outcome | None]) -> None:
        self.playing.pop(chat_id, None)

    async def play(self, chat_id: int) -> Outcome | None:
        """One computer move in ``chat_id`` if one is due, once the table's turn came and no
        other worker is choosing it; the outcome, or None."""
        try:
            first = await self._due(chat_id)
            if first is None:
                return None
            share = share_of(first.record.game)
            async with self.thinking.turn(share, searching=first.level == SLOW) as turn:
                return await self._leased(chat_id, first.level, turn)
        except asyncio.CancelledError:
            raise
        except NewerRecord:
            return None  # a newer worker's computers move there (counted by the read)
        except Exception:
            log.exception("a computer move in chat %s failed", chat_id)
            return None

    async def _leased(self, chat_id: int, level: str, turn: Turn) -> Outcome | None:
        """The move, under the chat's lease, for the position as it is after the wait."""
        storage = self.service.storage
        lease = storage.keys.computers_lease(chat_id)
        if not await storage.leases.take(lease, self.owner, self.lease_seconds):
            return None
        try:
            due = await self._due(chat_id)
            if due is None or due.level != level:
                return None  # listed again: the loop brings it back in its own line
            state, game_id = due.state, due.record.game.game_id
            seed = f"{game_id}:{state.moves}:{due.seat}"
            action = await self._choose(turn, state, due.seat, level, seed)
            outcome = await self.seats.move(chat_id, game_id, state.moves, due.seat, action)
        finally:
            await storage.leases.release(lease, self.owner)
        if isinstance(outcome, Changed):
            COMPUTER_MOVES.labels(level=level).inc()
            COMPUTER_DECISION.labels(level=level).observe(max(0.0, self.clock() - due.at))
            log.info("computer moved", extra={"chat": chat_id, "seat": due.seat, "level": level})
            self.publish(outcome)
        return outcome

    async def _due(self, chat_id: int) -> Due | None:
        """The computer due in ``chat_id`` now, its pause over; None if none (and a record
        that says nobody is due leaves the sorted set)."""
        record = await self.service.games.get(chat_id)
        due = due_computer(record)
        if due is None:
            await self._settle(chat_id)
            return None
        assert record is not None and record.game.state is not None
        since = record.computers_at if record.computers_at is not None else self.clock()
        at = since + self.pause
        if at > self.clock():
            return None  # another worker just moved the computer before it
        return Due(record, record.game.state, due[0], due[1], at)

    async def _choose(
        self, turn: Turn, state: GameState, seat: int, level: str, seed: str
    ) -> Action:
        """The computer's action, chosen outside the event loop. A search runs once it has a
        place in the pool, so the overrun is counted from its start, not from its wait; one
        that overruns its budget by far gives way to the heuristic player, counted."""
        if level != SLOW or turn.budget_ms is None:
            return choose(state, seat, level, seed, self.budget_ms)  # a few milliseconds
        budget = turn.budget_ms
        view, legal = view_for(state, seat), legal_actions(state, seat)
        job = asyncio.get_running_loop().run_in_executor(
            self.pool, choose_from_view, view, watched_discard(state), legal, level, seed, budget
        )
        turn.running(job)
        try:
            # shield: the job runs on in its process whatever we do, and keeps its place.
            action: Action = await asyncio.wait_for(asyncio.shield(job), overrun_seconds(budget))
        except TimeoutError:
            COMPUTER_DEGRADED.labels(level=level, reason="overrun").inc()
            log.warning("a %s computer overran its budget; playing %s", level, FALLBACK)
            return choose(state, seat, FALLBACK, seed, self.budget_ms)
        if turn.short:
            COMPUTER_DEGRADED.labels(level=level, reason="short_budget").inc()
        return action

    async def _settle(self, chat_id: int) -> None:
        """Nothing is due in ``chat_id`` although it was listed: a record that says so drops
        it (in its own transaction, so a change that makes a computer due again wins)."""

        def decide(record: GameRecord | None) -> tuple[Saved, None]:
            if record is None:
                return None, None  # writing "no game" drops what followed it
            if due_computer(record) is not None:
                return KEEP, None
            if record.computers_at is None:
                return record, None  # rewriting it drops the stray entry
            record.computers_at = None
            return record, None

        await self.service.games.update(chat_id, decide, shown=False)
