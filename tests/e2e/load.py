"""Many groups playing at once against the real bot, and what it costs:

    PYTHONPATH=. .venv/bin/python -m tests.e2e.load --groups 10 --seconds 20 [--json]

It starts its own ``redis-server``, the fake Bot API (``FakeTelegram``) and the real bot
(``python -m bot``), all on 127.0.0.1; seats ``--players`` (4) players in each of
``--groups`` groups and deals a game in each. Then, for ``--seconds``, every group plays as
fast as the bot answers: one press at a time per group, chosen at random (``--seed``) among
the hand buttons drawn for the current position (``Table.playable``; if none is shown yet,
the group waits for the bot's next message to it); the next press as soon as the answer
came. A finished game is followed by «Сыграть ещё» and «Начать». Then it waits until every
message shows the final position, stops the bot and cleans up.

The bot runs with the production settings except ``MESSAGES_PER_SECOND`` (all chats
together), raised to 100000: the fake has no such limit, and Telegram's 30 a second would
make the benchmark measure that queue. The budget per group (19 a minute) stays, so tables
lag behind and merge edits as in production. ``--env KEY=VALUE`` changes any setting.

The figures (``--json``: one JSON object on the last line, keys in brackets):

* moves/s [``moves_per_s``]: applied moves (hand presses answered without a pop-up, other
  than the two-step cover's pick and back) per second of the load.
* presses/s [``presses_per_s``]: every button press made during the load (hand and lobby)
  per second.
* press -> answer [``latency_ms_p50``, ``latency_ms_p99``]: for hand presses, from the
  press (the callback query created at the fake) to the bot's ``answerCallbackQuery``
  reaching the fake.
* refusals [``refusals``]: answers that say nothing was done, counted by message id
  (``answer-busy``, ``answer-unavailable``, ``answer-stale``, ``error-<code>``, ...;
  ``other`` for a text that is none of them, ``unanswered`` for a press with no answer
  within 30 s).
* bot CPU per move [``cpu_ms_per_move``]: user + system CPU time of the bot process
  (``/proc/<pid>/stat``) during the load's seconds, divided by the applied moves;
  [``cpu_ms_per_move_settled``] counts on until the display settled (see below), so work
  left for later is counted too; [``bot_cpu_share``] is the bot's CPU during the load as a
  share of one core.
* display lag [``display_lag_s``]: from the last press to the last Bot API call (other than
  ``getUpdates``) before the bot fell quiet for a second with every game's messages showing
  its record in Redis exactly as the bot renders it (``Table.outdated``: the table's text
  and buttons, each hand's text and buttons). ``null`` if that did not happen within
  ``--drain`` seconds; ``behind`` then lists the messages still behind.
* [``driver_cpu_share``, ``redis_cpu_share``]: the CPU of this process (players and fake)
  and of redis-server during the load, as shares of one core: near 1.0 for the driver means
  the figures are the driver's limit, not the bot's.

``--py-spy OUT`` records the bot with py-spy (``pip install py-spy``) from the first press
until the display settled and prints where its CPU went (``tests.e2e.cpu_profile``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from redis.asyncio import BlockingConnectionPool, Redis

from bot.handlers.telegram import fit_popup
from bot.i18n import SUPPORTED, MessageFormatError, all_message_ids, translator
from bot.model import Phase
from bot.schema.presses import Move
from bot.storage import GameRecord
from bot.ui.callbacks import HandPress, decode_press

from .cpu_profile import summary
from .fake_telegram import CallbackQueryRecord, FakeTelegram, FakeUser
from .harness import BotProcess, RedisServer, Stats, Table, Waiter

NAMES = ("Аня", "Борис", "Вера", "Гена", "Даша", "Егор")
LANGUAGES = ("ru", "uk", "ru", "uk", "ru", "ru")
DEFAULT_ENV = {"MESSAGES_PER_SECOND": "100000"}
SUCCESS_ANSWERS = frozenset({"answer-created", "answer-joined", "answer-left", "answer-started"})
PATIENCE = 6.0  # a table's timeouts (5 s for an answer) are this many times longer here
SETUP_AT_ONCE = 8  # groups being seated at the same time

T = TypeVar("T")


class ChatWaiter(Waiter):
    """A table's waiter woken by ``CallWatch`` only for calls about its own chats, so that
    hundreds of tables do not all wake at every call the fake gets."""

    def __init__(self, fake: FakeTelegram) -> None:
        super().__init__(fake)
        self.changed = asyncio.Event()

    def arm(self) -> None:
        """From now on, ``woken`` returns at the next call about this table's chats."""
        self.changed.clear()

    async def woken(self, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self.changed.wait()

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float) -> T:
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout} s")
            self.arm()
            await self.woken(remaining)

    async def pause(self, seconds: float) -> None:
        # Between two reads of Redis: what the bot saves, it shows soon after.
        self.arm()
        await self.woken(max(seconds, 0.05))


@dataclass
class Tally:
    """What the fake saw of the presses made during the load."""

    stats: Stats = field(default_factory=Stats)  # hand presses, applied moves, latencies
    people_latencies: list[float] = field(default_factory=list)  # in groups without computers
    lobby_presses: int = 0
    refusals: Counter[str] = field(default_factory=Counter)


class CallWatch:
    """Reads the fake's call log as it grows: wakes the table each call is about, and counts
    the answers to presses made from ``start`` until ``until`` (the load)."""

    def __init__(self, fake: FakeTelegram) -> None:
        self.fake = fake
        self.seen = fake.mark()
        self.waiters: dict[int, ChatWaiter] = {}  # chat id -> its table's waiter
        self.with_computers: set[int] = set()  # the groups where computer players sit
        self.tally = Tally()
        self.start = self.until = 0.0
        self.popups = _popup_ids()

    def add(self, waiter: ChatWaiter, chat_ids: Iterable[int]) -> None:
        for chat_id in chat_ids:
            self.waiters[chat_id] = waiter

    async def run(self) -> None:
        signal_ = self.fake.world.signal
        while True:
            calls = self.fake.calls(since=self.seen)
            self.seen = self.fake.mark()
            for call in calls:
                chat_id = call.chat_id
                if call.method == "answerCallbackQuery":
                    query = self.fake.callback_query(str(call.params.get("callback_query_id")))
                    chat_id = query.message.chat.id
                    if self.start <= query.created_at < self.until:
                        self._count(query.data, query.created_at, call.at, call.params)
                        if query.data.startswith("h:") and (
                            HandPress.unpack(query.data).chat not in self.with_computers
                        ):
                            self.tally.people_latencies.append(call.at - query.created_at)
                waiter = self.waiters.get(chat_id) if chat_id is not None else None
                if waiter is not None:
                    waiter.changed.set()
            await signal_.wait_changed(1.0)

    def pressed_queries(self) -> list[CallbackQueryRecord]:
        """The presses made during the load."""
        return [
            query
            for query in self.fake.world.callback_queries.values()
            if self.start <= query.created_at < self.until
        ]

    def _count(self, data: str, pressed: float, answered: float, params: dict[str, Any]) -> None:
        tally = self.tally
        text = params.get("text") or None
        kind = None if text is None else self.popups.get(str(text), "other")
        if not data.startswith("h:"):
            tally.lobby_presses += 1
        else:
            tally.stats.presses += 1
            tally.stats.answer_latencies.append(answered - pressed)
            if kind is None and isinstance(decode_press(HandPress.unpack(data).act), Move):
                tally.stats.moves += 1
        if kind is not None and kind not in SUCCESS_ANSWERS:
            tally.refusals[kind] += 1


def _popup_ids() -> dict[str, str]:
    """Pop-up text -> its message id, for every ``answer-*`` and ``error-*`` message that
    takes no variable, in every language."""
    ids: dict[str, str] = {}
    for lang in SUPPORTED:
        tr = translator(lang)
        for message_id in sorted(all_message_ids(lang)):
            if message_id.startswith(("answer-", "error-")):
                with contextlib.suppress(MessageFormatError):
                    text = tr.t(message_id)
                    ids.setdefault(text, message_id)
                    ids.setdefault(fit_popup(text), message_id)
    return ids


class Group:
    """One group chat whose players press as fast as the bot answers."""

    def __init__(self, table: Table, waiter: ChatWaiter, watch: CallWatch, seed: int) -> None:
        self.table = table
        self.waiter = waiter
        self.watch = watch
        self.rng = random.Random(seed)
        self.games = 0
        self.stuck = 0

    async def play(self) -> None:
        """Press until cancelled."""
        table = self.table
        while True:
            self.waiter.arm()
            record = await table.record()
            if record is None:
                raise RuntimeError(f"the game of {table.group!r} is gone from Redis")
            try:
                if record.game.phase is Phase.FINISHED:
                    self.games += 1
                    await table.again(record)
                    await table.deal()
                    continue
                if record.game.phase is Phase.LOBBY:
                    await table.deal()
                    continue
            except TimeoutError:
                self.stuck += 1  # the table never showed the button, or the answer
                continue
            choices = table.playable(record)
            if not choices:
                await self.waiter.woken(1.0)
                continue
            user, message, data = self.rng.choice(choices)
            query = self.table.fake.user_presses(user, message, data)
            with contextlib.suppress(TimeoutError):  # counted as "unanswered" at the end
                await table.answer(query, timeout=30 / PATIENCE)


@dataclass
class Result:
    groups: int
    players: int
    seconds: float
    moves: int
    presses: int
    lobby_presses: int
    games_finished: int
    latency_ms_p50: float
    latency_ms_p99: float
    people_latency_ms_p99: float | None  # in the groups without computer players
    refusals: dict[str, int]
    cpu_ms_per_move: float | None
    cpu_ms_per_move_settled: float | None
    bot_cpu_share: float
    driver_cpu_share: float
    redis_cpu_share: float
    display_lag_s: float | None
    behind: list[str]
    calls_per_move: float | None
    setup_s: float
    bot_log_errors: int
    bot_log_first_errors: list[str]

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds

    @property
    def presses_per_s(self) -> float:
        return (self.presses + self.lobby_presses) / self.seconds

    def to_json(self) -> dict[str, Any]:
        data = dict(vars(self))
        data["moves_per_s"] = round(self.moves_per_s, 1)
        data["presses_per_s"] = round(self.presses_per_s, 1)
        return data


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _seat(
    fake: FakeTelegram,
    redis: Redis,
    prefix: str,
    watch: CallWatch,
    index: int,
    players: int,
    computers: tuple[str, ...],
) -> tuple[Table, ChatWaiter]:
    users: list[FakeUser] = []
    for seat in range(players):
        users.append(
            fake.add_user(
                f"{NAMES[seat % len(NAMES)]} {index + 1}",
                language_code=LANGUAGES[seat % len(LANGUAGES)],
                username=f"g{index}p{seat}",
            )
        )
    waiter = ChatWaiter(fake)
    group = fake.add_group(f"Стол {index + 1}", creator=users[0], members=users)
    table = Table(fake, redis, prefix, users, group=group, waiter=waiter, patience=PATIENCE)
    watch.add(waiter, [table.group.id, *(user.id for user in users)])
    await table.all_start_bot()
    await table.gather()
    for count, level in enumerate(computers, start=players + 1):
        watch.with_computers.add(group.id)
        fake.user_sends(users[0], group, f"/addbot {level}")
        await table.wait_record(functools.partial(_has_seats, count=count))
    await table.deal()
    return table, waiter


def _has_seats(record: GameRecord, *, count: int) -> bool:
    return len(record.game.players) == count


async def _display_settled(
    fake: FakeTelegram, tables: list[Table], last_press: float, drain: float
) -> tuple[float | None, list[str]]:
    """The display lag, or None and what is still behind after ``drain`` seconds."""
    deadline = time.monotonic() + drain
    behind: list[str] = []
    while time.monotonic() < deadline:
        quiet = time.monotonic() - fake.world.last_bot_activity
        if quiet >= 1.0 and not fake.world.undelivered:
            last_call = fake.world.last_bot_activity
            behind = []
            for table in tables:
                record = await table.record()
                if record is None:
                    behind.append(f"{table.group.title}: no game")
                    continue
                where = f"{table.group.title} ({record.game.phase}, v{record.game.version})"
                behind += [f"{where} {what}" for what in table.outdated(record)]
            if not behind and fake.world.last_bot_activity == last_call:
                return max(0.0, last_call - last_press), []
        await asyncio.sleep(0.1)
    return None, behind


async def run_load(
    groups: int,
    seconds: float,
    *,
    players: int = 4,
    seed: int = 1,
    env: dict[str, str] | None = None,
    drain: float = 120.0,
    py_spy: Path | None = None,
    computers: tuple[str, ...] = (),
    computer_groups: int = 0,
    workdir: Path,
) -> Result:
    server = RedisServer(workdir)
    server.start()
    prefix = f"load{uuid.uuid4().hex[:8]}"
    try:
        await server.wait_ready()
        # The players' own reads of Redis queue for a connection rather than fail.
        redis = Redis(connection_pool=BlockingConnectionPool.from_url(server.url, timeout=None))
        try:
            async with FakeTelegram() as fake:
                bot = BotProcess(
                    fake, server.url, prefix, workdir, **{**DEFAULT_ENV, **(env or {})}
                )
                await bot.start()
                try:
                    return await _load(
                        fake, redis, prefix, bot, server, groups, seconds, players, seed,
                        drain, py_spy, computers, computer_groups,
                    )  # fmt: skip
                finally:
                    await bot.stop(timeout=60)
        finally:
            await redis.aclose()
    finally:
        server.stop()


async def _load(
    fake: FakeTelegram,
    redis: Redis,
    prefix: str,
    bot: BotProcess,
    server: RedisServer,
    groups: int,
    seconds: float,
    players: int,
    seed: int,
    drain: float,
    py_spy: Path | None,
    computers: tuple[str, ...],
    computer_groups: int,
) -> Result:
    assert bot.process is not None and server.process is not None
    bot_pid, redis_pid = bot.process.pid, server.process.pid
    watch = CallWatch(fake)
    watcher = asyncio.create_task(watch.run())
    spy: subprocess.Popen[bytes] | None = None
    try:
        gate = asyncio.Semaphore(SETUP_AT_ONCE)

        async def seat(index: int) -> tuple[Table, ChatWaiter]:
            async with gate:
                seated = computers if index < computer_groups else ()
                return await _seat(fake, redis, prefix, watch, index, players, seated)

        setup = time.monotonic()
        seated = await asyncio.gather(*(seat(i) for i in range(groups)))
        await fake.wait_idle(quiet=0.5, timeout=120)
        tables = [table for table, _ in seated]
        teams = [Group(t, w, watch, seed * 1_000_003 + i) for i, (t, w) in enumerate(seated)]
        if py_spy is not None:
            spy = _start_py_spy(bot_pid, py_spy)
        start, wall_start, mark = time.monotonic(), time.time(), fake.mark()
        watch.start = start
        bot_cpu, own_cpu, redis_cpu = (
            cpu_seconds(bot_pid),
            own_cpu_seconds(),
            cpu_seconds(redis_pid),
        )
        watch.until = start + seconds
        playing = [asyncio.create_task(team.play()) for team in teams]
        done, _ = await asyncio.wait(playing, timeout=seconds)
        for task in playing:
            task.cancel()
        for task in done:
            task.result()  # a team that failed fails the benchmark
        stop = time.monotonic()
        load_cpu = cpu_seconds(bot_pid) - bot_cpu
        own_cpu = own_cpu_seconds() - own_cpu
        redis_cpu = cpu_seconds(redis_pid) - redis_cpu
        tally = watch.tally
        last_press = max((q.created_at for q in watch.pressed_queries()), default=stop)
        lag, behind = await _display_settled(fake, tables, last_press, drain)
        total_cpu = cpu_seconds(bot_pid) - bot_cpu
        calls = len(fake.calls(since=mark))
        unanswered = sum(1 for query in watch.pressed_queries() if query.answer is None)
        if spy is not None:
            _stop_py_spy(spy)
            spy = None
    finally:
        watcher.cancel()
        if spy is not None:
            _stop_py_spy(spy)
    elapsed = stop - start
    stats = tally.stats
    refusals = Counter(tally.refusals)
    if unanswered:
        refusals["unanswered"] += unanswered
    stuck = sum(team.stuck for team in teams)
    if stuck:
        refusals["stuck"] += stuck
    moves = stats.moves
    errors, first_errors = _log_problems(bot, wall_start)
    return Result(
        groups=groups,
        players=players,
        seconds=round(elapsed, 2),
        moves=moves,
        presses=stats.presses,
        lobby_presses=tally.lobby_presses,
        games_finished=sum(team.games for team in teams),
        latency_ms_p50=round(stats.latency(0.5) * 1000, 1),
        latency_ms_p99=round(stats.latency(0.99) * 1000, 1),
        people_latency_ms_p99=(
            round(Stats(answer_latencies=tally.people_latencies).latency(0.99) * 1000, 1)
            if computer_groups and tally.people_latencies
            else None
        ),
        refusals=dict(refusals.most_common()),
        cpu_ms_per_move=round(load_cpu * 1000 / moves, 3) if moves else None,
        cpu_ms_per_move_settled=(
            round(total_cpu * 1000 / moves, 3) if moves and lag is not None else None
        ),
        bot_cpu_share=round(load_cpu / elapsed, 3),
        driver_cpu_share=round(own_cpu / elapsed, 3),
        redis_cpu_share=round(redis_cpu / elapsed, 3),
        display_lag_s=None if lag is None else round(lag, 2),
        behind=behind[:20],
        calls_per_move=round(calls / moves, 2) if moves else None,
        setup_s=round(start - setup, 1),
        bot_log_errors=errors,
        bot_log_first_errors=first_errors,
    )


def _log_problems(bot: BotProcess, since: float) -> tuple[int, list[str]]:
    """How many lines of the bot's log logged from ``since`` (a ``time.time()``) on are errors,
    and the first few."""
    lines = []
    for line in bot.log().splitlines():
        if " ERROR " not in line and " CRITICAL " not in line:
            continue
        with contextlib.suppress(ValueError):
            logged = datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()
            if logged >= since:
                lines.append(line)
    return len(lines), lines[:5]


def _start_py_spy(pid: int, out: Path) -> subprocess.Popen[bytes]:
    binary = shutil.which("py-spy")
    if binary is None:
        raise SystemExit("--py-spy: no py-spy on PATH (pip install py-spy)")
    return subprocess.Popen(
        [binary, "record", "--pid", str(pid), "--rate", "200", "--format", "raw",
         "--output", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip


def _stop_py_spy(spy: subprocess.Popen[bytes]) -> None:
    spy.send_signal(signal.SIGINT)
    try:
        spy.wait(30)
    except subprocess.TimeoutExpired:
        spy.kill()
        spy.wait()


def report(result: Result) -> str:
    refusals = ", ".join(f"{kind} {count}" for kind, count in result.refusals.items())
    lag = "never settled" if result.display_lag_s is None else f"{result.display_lag_s:.2f} s"
    per_move = "n/a" if result.cpu_ms_per_move is None else f"{result.cpu_ms_per_move:.2f} ms"
    settled = result.cpu_ms_per_move_settled
    to_settled = "n/a" if settled is None else f"{settled:.2f} ms"
    lines = [
        f"load: {result.groups} groups x {result.players} players, {result.seconds:.1f} s "
        f"(seated in {result.setup_s:.0f} s)",
        f"  moves/s {result.moves_per_s:.1f} ({result.moves} applied moves, "
        f"{result.games_finished} games finished)",
        f"  presses/s {result.presses_per_s:.1f} ({result.presses} hand, "
        f"{result.lobby_presses} lobby)",
        f"  press -> answer: p50 {result.latency_ms_p50:.1f} ms, "
        f"p99 {result.latency_ms_p99:.1f} ms",
        f"  refusals: {refusals or 'none'}",
        *(
            [f"  press -> answer in the groups without computers: p99 {people:.1f} ms"]
            if (people := result.people_latency_ms_p99) is not None
            else []
        ),
        f"  bot CPU per applied move: {per_move} during the load "
        f"(bot {result.bot_cpu_share:.0%} of a core), {to_settled} until the display settled",
        f"  display lag: {lag}; Bot API calls per move {result.calls_per_move}",
        f"  driver {result.driver_cpu_share:.0%} of a core, "
        f"redis-server {result.redis_cpu_share:.0%}",
    ]
    if result.behind:
        lines.append(f"  still behind: {', '.join(result.behind)}")
    if result.bot_log_errors:
        lines.append(f"  bot log: {result.bot_log_errors} errors during the load, the first:")
        lines += [f"    {line}" for line in result.bot_log_first_errors]
    return "\n".join(lines)


def _env_pair(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, not {text!r}")
    return key, value


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--groups", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--drain", type=float, default=120.0, help="most seconds to settle")
    parser.add_argument("--env", type=_env_pair, action="append", default=[], metavar="K=V")
    parser.add_argument("--py-spy", type=Path, default=None, metavar="OUT")
    parser.add_argument("--json", action="store_true", help="one JSON object on the last line")
    parser.add_argument(
        "--computers", default="", help="levels of computer players to seat, e.g. hard,normal"
    )
    parser.add_argument(
        "--computer-groups", type=int, default=0, help="how many groups seat --computers"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="durak-load-") as workdir:
        result = asyncio.run(
            run_load(
                args.groups,
                args.seconds,
                players=args.players,
                seed=args.seed,
                env=dict(args.env),
                drain=args.drain,
                py_spy=args.py_spy,
                computers=tuple(level for level in args.computers.split(",") if level),
                computer_groups=args.computer_groups,
                workdir=Path(workdir),
            )
        )
    print(report(result))
    if args.py_spy is not None:
        print(summary(args.py_spy.read_text()))
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
