"""Many groups playing at once against the real bot, and what it costs:

    PYTHONPATH=. .venv/bin/python -m bench.load --groups 10 --seconds 20 [--json]

and beside them people each playing alone against computers, at a human pace, under
Telegram's budget:

    PYTHONPATH=. .venv/bin/python -m bench.load --solo 200 --solo-computers 5 \
        --solo-level hard --groups 20 --players 4 --seconds 90 [--workers 2] \
        [--reviews 50] [--json]

It starts its own ``redis-server``, the fake Bot API (``FakeTelegram``) and the real bot
(``python -m bot``; ``--workers 2``: two processes on the one Redis in webhook mode, the fake
sending each update to one of them at random as a reverse proxy would; one process polling
by default), all on 127.0.0.1. ``--solo N`` people each press Start in private, send
``/play`` there and seat ``--solo-computers`` (5) computers of ``--solo-level`` (``hard``)
with the lobby's buttons (the one seated at first is taken out if it is of another level),
then press «Начать». Then ``--groups`` groups of ``--players`` (4) people are seated and
dealt a game each. Then, for ``--seconds``, every table plays: one press at a time per
table, chosen at random (``--seed``) among the hand buttons drawn for the current position
(``Table.playable``; if none is shown yet, the table waits for the bot's next message to
it), made ``--think`` seconds (at random between half and one and a half times that) after
the buttons were seen, or at once with ``--think 0``. A finished game is followed by
«Сыграть ещё» and «Начать». Then it waits until every message shows the final position,
reads the bot's ``/metrics``, stops the bot and cleans up.

``--reviews N``: once the tables are seated, just before the load, N reviews («Разбор»,
``bot.services.reviews``) are asked for, so that they wait in the bot while the load runs
(``bench.review_games``): N games of two ``normal`` seats are played by the engine alone,
each kept in Redis as a game a person of its own played alone against a computer, and each
person presses Start with its review's link (``/start r<chat>_<game>``) and is told the
review is in line. Those people's chats count in none of the other figures.

Settings: without ``--solo``, the production settings except ``MESSAGES_PER_SECOND`` (all
chats together), raised to 100000 (the fake has no such limit, and Telegram's 30 a second
would make the benchmark measure that queue), and the test harness's no turn clock and
computers moving at once; people press as fast as the bot answers (``--think 0``). The
budget per group (19 a minute) stays, so tables lag behind and merge edits as in
production. With ``--solo``, the production settings throughout: ``MESSAGES_PER_SECOND``
25, ``DEFAULT_TURN_TIMEOUT`` 60 (the groups' turn clock runs), ``AI_PAUSE`` 1.5, and
``--think 1.5``. ``--env KEY=VALUE`` changes any setting.

The figures (``--json``: one JSON object on the last line, keys in brackets):

* moves/s [``moves_per_s``]: applied moves (hand presses answered without a pop-up, other
  than the two-step cover's pick and back) per second of the load.
* presses/s [``presses_per_s``]: every button press made during the load (hand and lobby)
  per second.
* press -> answer [``latency_ms_p50``, ``latency_ms_p99``]: for hand presses, from the
  press (the callback query created at the fake) to the bot's ``answerCallbackQuery``
  reaching the fake.
* press -> next buttons [``group_buttons_ms``, ``solo_buttons_ms``: p50, p90, p99, max and
  n]: for each move made in a group during the load, from the press to the moment the fake
  received the send or edit that shows a person to act in the position the move led to
  their buttons for it, once per such person (``bench.turns_seen``); for the solo
  players, from their press to their buttons of their next turn (the computers' moves in
  between included). Buttons that arrive after the load count too.
* clocks run out early [``early_timeouts`` of ``turn_timeouts``]: turn timeouts in the
  groups during the load, one per person timed out (read by the players in the game's
  log), for a person who had not yet received the buttons of that position, or had
  received them less than the turn time before the players read the timeout.

From ``/metrics`` (a scrape at the load's start and one once the display settled or
``--drain`` ran out, summed over the workers; ``null``, printed "n/a", for a metric the
bot does not have), counted between the two:

* [``turn_timeouts_metric``]: ``durak_turn_timeouts_total``, one per decision of the timer
  however many people it acted for; after the load the people no longer press, so their
  clocks run out.
* computer moves [``computer_moves``: level -> n]: ``durak_computer_moves_total{level}``.
* computer decisions [``decisions``: level -> n, p50_s, p99_s]:
  ``durak_computer_decision_seconds{level}``, the quantiles estimated from the buckets;
  [``degraded``: "level/reason" -> n]: ``durak_computer_degraded_total{level,reason}``.
* [``overran_log_lines``]: lines of the bot's log in that time saying a computer "overran
  its budget" (a ``hard`` computer silently playing as ``normal``).

The others:

* messages [``messages_per_group``, ``messages_per_solo``]: sends and edits the fake
  accepted during the load per group (its chat and its people's hands) and per solo
  player's chat.
* refusals [``refusals``, ``solo_refusals``]: answers that say nothing was done, counted
  by message id (``answer-busy``, ``answer-unavailable``, ``answer-stale`` for «Эта
  клавиатура устарела», ``error-<code>``, ...; ``other`` for a text that is none of them,
  ``unanswered`` for a press with no answer within 30 s), in the groups and in the solo
  games.
* bot CPU per move [``cpu_ms_per_move``]: user + system CPU time of the bot's processes
  (``/proc/<pid>/stat``) during the load's seconds, divided by the applied moves;
  [``cpu_ms_per_move_settled``] counts on until the display settled (see below), so work
  left for later is counted too; [``bot_cpu_share``] is the bot's CPU during the load as a
  share of one core, [``pool_cpu_share``] that of the processes the bot started (the pool
  where computer players think, ``AI_PROCESSES``), not counted in the others, nor the
  reviews' pool (counted in ``reviews``, below).
* display lag [``display_lag_s``]: from the last press to the last Bot API call (other than
  ``getUpdates``) before the bot fell quiet for a second with every game's messages showing
  its record in Redis exactly as the bot renders it (``Table.outdated``: the table's text
  and buttons, each hand's text and buttons). ``null`` if that did not happen within
  ``--drain`` seconds; ``behind`` then lists the messages still behind.
* [``driver_cpu_share``, ``redis_cpu_share``]: the CPU of this process (players and fake)
  and of redis-server during the load, as shares of one core: near 1.0 for the driver means
  the figures are the driver's limit, not the bot's.
* reviews [``reviews``, with ``--reviews``: ``asked``; ``delivered_before_load``,
  ``delivered_during_load``, ``waiting_at_end`` (asked, not delivered by the load's end),
  ``delivered_after_load`` (of those, by the time the display settled or ``--drain`` ran
  out); ``told_waiting``; ``failed_log_lines``; ``cpu_share``]: a review is delivered when
  the fake receives the bot's message to its person that begins «📈 Разбор игры»;
  ``told_waiting``: the people told «📈 Компьютерные игроки сейчас заняты...» (once a
  review has waited 5 s for the computers); ``failed_log_lines``: lines of the bot's log
  saying a review failed; ``cpu_share``: the reviews' pool (``REVIEW_PROCESSES``, its
  processes niced above the bot's) during the load, as a share of one core.

``--webapp``: the groups play in the Mini App, over its sockets (``bench.load_webapp``
says how, and defines its figures: move -> every page updated, bot CPU and Bot API calls per
move); ``--hidden`` with it: every page says «away», so the hands are edited as in the chat:

    PYTHONPATH=. .venv/bin/python -m bench.load --webapp --groups 200 --players 4 \
        --seconds 60 --think 3 [--hidden] [--py-spy OUT] [--json]

``--task-cpu OUT`` (with ``--webapp``) runs the bot under ``bench.task_cpu`` and prints
where its CPU went during the load, per task of its event loop, in CPU time; ``--py-spy
OUT`` records the (first) bot process with py-spy (``pip install py-spy``) from
the first press until the display settled and prints where its CPU went
(``bench.cpu_profile``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import aiohttp
from redis.asyncio import BlockingConnectionPool, Redis

from bot.config import Settings
from bot.ui.callbacks import ADD_LEVELS
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.harness import BotProcess, RedisServer, Stats, Table, bot_namespace

from .cpu_profile import summary
from .game_writes import GameWrites
from .load_tables import CallWatch, ChatWaiter, Players, seat_group, seat_solo
from .load_webapp import WebappLoad, run_webapp, webapp_report
from .processes import (
    STARTUP,
    cpu_by_pid,
    cpu_seconds,
    descendants,
    interpreter,
    own_cpu_seconds,
    start_py_spy,
    stop_py_spy,
    workers,
)
from .review_games import OtherActivity, Reviewers, play_games, review_pids
from .scrape import Scrape, scrape
from .task_cpu import report as task_cpu_report
from .turns_seen import quantiles

DEFAULT_ENV = {"MESSAGES_PER_SECOND": "100000"}
# With --solo: Telegram's budget, the turn clock and the computers' pause of production.
PRODUCTION_ENV = {
    name.upper(): str(Settings.model_fields[name].default)
    for name in ("messages_per_second", "default_turn_timeout", "ai_pause")
}
SOLO_THINK = 1.5  # seconds a person thinks before a press, by default with --solo
WEBAPP_THINK = 3.0  # the same, by default with --webapp
SETUP_AT_ONCE = 8  # tables being seated at the same time
COMPUTER_MOVES = "durak_computer_moves"
DECISIONS = "durak_computer_decision_seconds"
DEGRADED = "durak_computer_degraded"


@dataclass
class Result:
    groups: int
    players: int
    solo: int
    solo_computers: int
    solo_level: str
    think: float
    workers: int
    seconds: float
    moves: int
    presses: int
    lobby_presses: int
    games_finished: int
    latency_ms_p50: float
    latency_ms_p99: float
    people_latency_ms_p99: float | None  # in the groups without computer players
    group_buttons_ms: dict[str, float] | None
    solo_buttons_ms: dict[str, float] | None
    turn_timeouts: int
    early_timeouts: int
    turn_timeouts_metric: float | None
    computer_moves: dict[str, float] | None
    decisions: dict[str, dict[str, float]] | None
    degraded: dict[str, float] | None
    overran_log_lines: int
    messages_per_group: float | None
    messages_per_solo: float | None
    refusals: dict[str, int]
    solo_refusals: dict[str, int]
    cpu_ms_per_move: float | None
    cpu_ms_per_move_settled: float | None
    bot_cpu_share: float
    pool_cpu_share: float
    driver_cpu_share: float
    redis_cpu_share: float
    display_lag_s: float | None
    behind: list[str]
    calls_per_move: float | None
    game_writes_per_move: float | None
    game_writes: dict[int, int]
    setup_s: float
    bot_log_errors: int
    bot_log_first_errors: list[str]
    python: str  # the interpreter the bot ran on (``processes.interpreter``)
    reviews: dict[str, float] | None = None  # with --reviews (``_review_figures``)

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


async def _display_settled(
    fake: FakeTelegram,
    tables: list[Table],
    last_press: float,
    drain: float,
    activity: OtherActivity,
) -> tuple[float | None, list[str]]:
    """The display lag, or None and what is still behind after ``drain`` seconds (the
    bot's calls about the chats ``activity`` ignores, the reviews', not counted)."""
    deadline = time.monotonic() + drain
    behind = ["(the bot was never quiet for a second)"]
    while time.monotonic() < deadline:
        quiet = time.monotonic() - activity.last()
        if quiet >= 1.0 and not fake.world.undelivered:
            last_call = activity.last()
            behind = []
            for table in tables:
                record = await table.record()
                title = table.group.title or f"{table.players[0].first_name} in private"
                if record is None:
                    behind.append(f"{title}: no game")
                    continue
                where = f"{title} ({record.game.phase}, v{record.game.version})"
                behind += [f"{where} {what}" for what in table.outdated(record)]
            if not behind and activity.last() == last_call:
                return max(0.0, last_call - last_press), []
        await asyncio.sleep(0.1)
    return None, behind


@dataclass(frozen=True)
class Load:
    """What to run: the tables, the bot's processes and the players' pace."""

    groups: int
    seconds: float
    players: int = 4
    solo: int = 0
    solo_computers: int = 5
    solo_level: str = "hard"
    think: float = 0.0
    workers: int = 1
    seed: int = 1
    drain: float = 120.0
    py_spy: Path | None = None
    computers: tuple[str, ...] = ()
    computer_groups: int = 0
    reviews: int = 0


def bot_env(load: Load, env: dict[str, str]) -> dict[str, str]:
    """The bot's settings for ``load`` (see the module docstring), ``env`` over them."""
    return {**(PRODUCTION_ENV if load.solo else DEFAULT_ENV), **env}


async def run_load(load: Load, env: dict[str, str], workdir: Path) -> Result:
    server = RedisServer(workdir)
    server.start()
    prefix = f"load{uuid.uuid4().hex[:8]}"
    try:
        await server.wait_ready()
        # The players' own reads of Redis queue for a connection rather than fail.
        redis = Redis(connection_pool=BlockingConnectionPool.from_url(server.url, timeout=None))
        try:
            async with FakeTelegram() as fake:
                bots, metrics = workers(fake, server.url, prefix, workdir, load.workers, env)
                try:
                    for bot in bots:
                        await bot.start(timeout=STARTUP)
                    writes = GameWrites(server.url, workdir / "monitor.log")
                    return await _load(fake, redis, prefix, bots, metrics, server, writes, load)
                finally:
                    for bot in bots:
                        await bot.stop(timeout=60)
        finally:
            await redis.aclose()
    finally:
        server.stop()


async def _scrape(metrics: list[str]) -> Scrape | None:
    """The workers' metrics, or None if one of them did not answer."""
    try:
        return await scrape(metrics)
    except (aiohttp.ClientError, OSError, TimeoutError):
        return None


async def _load(
    fake: FakeTelegram,
    redis: Redis,
    prefix: str,
    bots: list[BotProcess],
    metrics: list[str],
    server: RedisServer,
    writes: GameWrites,
    load: Load,
) -> Result:
    assert server.process is not None
    bot_pids = [bot.process.pid for bot in bots if bot.process is not None]
    redis_pid = server.process.pid
    watch = CallWatch(fake)
    watcher = asyncio.create_task(watch.run())
    spy: subprocess.Popen[bytes] | None = None
    reviewers = Reviewers(fake)
    reviewed = play_games(load.reviews, load.seed)
    try:
        gate = asyncio.Semaphore(SETUP_AT_ONCE)

        async def group(index: int) -> tuple[Table, ChatWaiter]:
            async with gate:
                seated = load.computers if index < load.computer_groups else ()
                return await seat_group(fake, redis, prefix, watch, index, load.players, seated)

        async def alone(index: int) -> tuple[Table, ChatWaiter]:
            async with gate:
                return await seat_solo(
                    fake, redis, prefix, watch, index, load.solo_computers, load.solo_level
                )

        setup = time.monotonic()
        # The solo games first: they then wait for their people, and the groups' turn
        # clocks, started at the deal, do not run while the others are seated.
        solos = await asyncio.gather(*(alone(i) for i in range(load.solo)))
        seated = await asyncio.gather(*(group(i) for i in range(load.groups)))
        await fake.wait_idle(quiet=0.5, timeout=600)
        if reviewed:
            # Last, so that every review asked for is in line when the load begins.
            await reviewers.ask(redis, bot_namespace(fake, prefix), reviewed)
        tables = [table for table, _ in seated + solos]
        base = load.seed * 1_000_003
        teams = [
            Players(table, waiter, watch, base + i, load.think)
            for i, (table, waiter) in enumerate(seated + solos)
        ]
        if load.py_spy is not None:
            spy = start_py_spy(bot_pids[0], load.py_spy)
        before = await _scrape(metrics)
        writes.start()
        start, wall_start, mark = time.monotonic(), time.time(), fake.mark()
        activity = OtherActivity(fake, reviewers.chats)
        watch.start = start
        bot_cpu, pool_cpu, own_cpu, redis_cpu = (
            sum(map(cpu_seconds, bot_pids)),
            cpu_by_pid(descendants(bot_pids)),
            own_cpu_seconds(),
            cpu_seconds(redis_pid),
        )
        watch.until = start + load.seconds
        playing = [asyncio.create_task(team.play()) for team in teams]
        done, _ = await asyncio.wait(playing, timeout=load.seconds)
        for task in playing:
            task.cancel()
        for task in done:
            task.result()  # a team that failed fails the benchmark
        stop, wall_stop = time.monotonic(), time.time()
        load_cpu = sum(map(cpu_seconds, bot_pids)) - bot_cpu
        # The pools start at their first use, perhaps during the load; the reviews' apart.
        pool_now = cpu_by_pid(descendants(bot_pids))
        reviewing = review_pids(list(pool_now), bot_pids)
        used = {pid: cpu - pool_cpu.get(pid, 0.0) for pid, cpu in pool_now.items()}
        pool_load_cpu = sum(cpu for pid, cpu in used.items() if pid not in reviewing)
        review_load_cpu = sum(cpu for pid, cpu in used.items() if pid in reviewing)
        own_cpu = own_cpu_seconds() - own_cpu
        redis_cpu = cpu_seconds(redis_pid) - redis_cpu
        tally = watch.tally
        last_press = max((q.created_at for q in watch.pressed_queries()), default=stop)
        lag, behind = await _display_settled(fake, tables, last_press, load.drain, activity)
        writes.stop()
        total_cpu = sum(map(cpu_seconds, bot_pids)) - bot_cpu
        after = await _scrape(metrics)
        watch.catch_up()
        calls = len(fake.calls(since=mark)) - len(reviewers.calls(mark))
        for query in watch.pressed_queries():
            if query.answer is None:
                watch.refusals(query)["unanswered"] += 1
        if spy is not None:
            stop_py_spy(spy)
            spy = None
    finally:
        writes.stop()
        watcher.cancel()
        if spy is not None:
            stop_py_spy(spy)
    elapsed = stop - start
    stats = tally.stats
    refusals, solo_refusals = Counter(tally.refusals), Counter(tally.solo_refusals)
    stuck = sum(team.stuck for team in teams[: len(seated)])
    if stuck:
        refusals["stuck"] += stuck
    stuck = sum(team.stuck for team in teams[len(seated) :])
    if stuck:
        solo_refusals["stuck"] += stuck
    moves = stats.moves
    errors = _logged(bots, wall_start, lambda line: " ERROR " in line or " CRITICAL " in line)
    turns = watch.turns
    counted = None if before is None or after is None else after.since(before)
    written = writes.count(bot_namespace(fake, prefix), wall_start, wall_stop)
    return Result(
        groups=load.groups,
        players=load.players,
        solo=load.solo,
        solo_computers=load.solo_computers,
        solo_level=load.solo_level,
        think=load.think,
        workers=load.workers,
        seconds=round(elapsed, 2),
        moves=moves,
        presses=stats.presses,
        lobby_presses=tally.lobby_presses,
        games_finished=sum(team.games for team in teams),
        latency_ms_p50=round(stats.latency(0.5) * 1000, 1),
        latency_ms_p99=round(stats.latency(0.99) * 1000, 1),
        people_latency_ms_p99=(
            round(Stats(answer_latencies=tally.people_latencies).latency(0.99) * 1000, 1)
            if load.computer_groups and tally.people_latencies
            else None
        ),
        group_buttons_ms=quantiles(turns.next_buttons(watch.group_chats)),
        solo_buttons_ms=quantiles(turns.next_buttons(watch.solo_chats)),
        turn_timeouts=len(turns.timeouts),
        early_timeouts=turns.early_timeouts(float(bots[0].env["DEFAULT_TURN_TIMEOUT"])),
        turn_timeouts_metric=None if counted is None else _total(counted, "durak_turn_timeouts"),
        computer_moves=None if counted is None else _computer_moves(counted),
        decisions=None if counted is None else _decisions(counted),
        degraded=None if counted is None else _degraded(counted),
        overran_log_lines=len(_logged(bots, wall_start, lambda line: "overran its budget" in line)),
        messages_per_group=(
            round((watch.sent["group"] - reviewers.sent(start, watch.until)) / load.groups, 1)
            if load.groups
            else None
        ),
        messages_per_solo=round(watch.sent["solo"] / load.solo, 1) if load.solo else None,
        refusals=dict(refusals.most_common()),
        solo_refusals=dict(solo_refusals.most_common()),
        cpu_ms_per_move=round(load_cpu * 1000 / moves, 3) if moves else None,
        cpu_ms_per_move_settled=(
            round(total_cpu * 1000 / moves, 3) if moves and lag is not None else None
        ),
        bot_cpu_share=round(load_cpu / elapsed, 3),
        pool_cpu_share=round(pool_load_cpu / elapsed, 3),
        driver_cpu_share=round(own_cpu / elapsed, 3),
        redis_cpu_share=round(redis_cpu / elapsed, 3),
        display_lag_s=None if lag is None else round(lag, 2),
        behind=behind[:20],
        calls_per_move=round(calls / moves, 2) if moves else None,
        game_writes_per_move=written.per_move,
        game_writes=written.histogram,
        setup_s=round(start - setup, 1),
        bot_log_errors=len(errors),
        bot_log_first_errors=errors[:5],
        python=interpreter(),
        reviews=_review_figures(reviewers, bots, start, stop, review_load_cpu / elapsed),
    )


def _review_figures(
    reviewers: Reviewers, bots: list[BotProcess], start: float, stop: float, cpu_share: float
) -> dict[str, float] | None:
    """With ``--reviews``: how many reviews reached their people before the load (from
    ``start``, a ``time.monotonic()``), during it (until ``stop``) and after it until now
    (the display settled, or ``--drain`` ran out), how many were still waiting at its end,
    how many said they wait for the computers, the bot's log lines of a review that failed,
    and the reviews' pool's CPU during the load as a share of a core."""
    if not reviewers.people:
        return None
    delivered = reviewers.delivered().values()
    before = sum(1 for at in delivered if at < start)
    during = sum(1 for at in delivered if start <= at < stop)
    failed = _logged(
        bots, reviewers.asked_at, lambda line: "the review of" in line and "failed" in line
    )
    return {
        "asked": len(reviewers.people),
        "delivered_before_load": before,
        "delivered_during_load": during,
        "waiting_at_end": len(reviewers.people) - before - during,
        "delivered_after_load": len(delivered) - before - during,
        "told_waiting": len(reviewers.said("review-waiting")),
        "failed_log_lines": len(failed),
        "cpu_share": round(cpu_share, 3),
    }


def _total(counted: Scrape, family: str) -> float | None:
    if not counted.has(family):
        return None
    return sum(counted.by(f"{family}_total").values())


def _computer_moves(counted: Scrape) -> dict[str, float] | None:
    """Level -> moves of computer players (``durak_computer_moves_total``)."""
    if not counted.has(COMPUTER_MOVES):
        return None
    moves = counted.by(f"{COMPUTER_MOVES}_total", "level")
    return {level: n for (level,), n in sorted(moves.items()) if n}


def _decisions(counted: Scrape) -> dict[str, dict[str, float]] | None:
    """Level -> decisions, p50 and p99 in seconds (``durak_computer_decision_seconds``)."""
    if not counted.has(DECISIONS):
        return None
    return {
        level: {"n": n, "p50_s": round(p50, 3), "p99_s": round(p99, 3)}
        for level, (n, [p50, p99]) in sorted(
            counted.quantiles(DECISIONS, "level", (0.5, 0.99)).items()
        )
    }


def _degraded(counted: Scrape) -> dict[str, float] | None:
    """ "level/reason" -> decisions (``durak_computer_degraded_total``)."""
    if not counted.has(DEGRADED):
        return None
    found = counted.by(f"{DEGRADED}_total", "level", "reason")
    return {"/".join(key): n for key, n in sorted(found.items()) if n}


def _logged(bots: list[BotProcess], since: float, wanted: Callable[[str], bool]) -> list[str]:
    """The lines of the bot's logs logged from ``since`` (a ``time.time()``) on that are
    ``wanted``."""
    lines = []
    for bot in bots:
        for line in bot.log().splitlines():
            if not wanted(line):
                continue
            with contextlib.suppress(ValueError):
                logged = datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()
                if logged >= since:
                    lines.append(line)
    return lines


def _figures(quantiles: dict[str, float] | None) -> str:
    if quantiles is None:
        return "none"
    return (
        f"p50 {quantiles['p50']:.0f}, p90 {quantiles['p90']:.0f}, p99 {quantiles['p99']:.0f}, "
        f"max {quantiles['max']:.0f} ms (n {quantiles['n']:.0f})"
    )


def _counts(counts: dict[str, int] | dict[str, float] | None) -> str:
    if counts is None:
        return "n/a"
    return ", ".join(f"{kind} {count:.0f}" for kind, count in counts.items()) or "none"


def report(result: Result) -> str:
    lag = "never settled" if result.display_lag_s is None else f"{result.display_lag_s:.2f} s"
    per_move = "n/a" if result.cpu_ms_per_move is None else f"{result.cpu_ms_per_move:.2f} ms"
    settled = result.cpu_ms_per_move_settled
    to_settled = "n/a" if settled is None else f"{settled:.2f} ms"
    solo = (
        f", {result.solo} solo against {result.solo_computers} {result.solo_level}"
        if result.solo
        else ""
    )
    decisions = "n/a"
    if result.decisions is not None:
        decisions = (
            "; ".join(
                f"{level} {d['n']:.0f}, p50 {d['p50_s']:.2f} s, p99 {d['p99_s']:.2f} s"
                for level, d in result.decisions.items()
            )
            or "none"
        )
    timeouts = (
        "n/a" if result.turn_timeouts_metric is None else f"{result.turn_timeouts_metric:.0f}"
    )
    written = {f"x{times}": positions for times, positions in result.game_writes.items()}
    lines = [
        f"load: {result.groups} groups x {result.players} players{solo}; "
        f"{result.workers} bot process(es), think {result.think:g} s; {result.seconds:.1f} s "
        f"(seated in {result.setup_s:.0f} s)",
        f"  moves/s {result.moves_per_s:.1f} ({result.moves} applied moves, "
        f"{result.games_finished} games finished)",
        f"  presses/s {result.presses_per_s:.1f} ({result.presses} hand, "
        f"{result.lobby_presses} lobby)",
        f"  press -> answer: p50 {result.latency_ms_p50:.1f} ms, "
        f"p99 {result.latency_ms_p99:.1f} ms",
        f"  press -> next buttons, groups: {_figures(result.group_buttons_ms)}",
        f"  press -> next buttons, solo: {_figures(result.solo_buttons_ms)}",
        f"  turn clocks run out before the buttons: {result.early_timeouts} of "
        f"{result.turn_timeouts} timeouts seen (durak_turn_timeouts_total {timeouts})",
        f"  computer moves: {_counts(result.computer_moves)}; decisions: {decisions}",
        f'  degraded decisions: {_counts(result.degraded)}; "overran its budget" in the log: '
        f"{result.overran_log_lines}",
        f"  sends+edits during the load: per group {result.messages_per_group}, "
        f"per solo chat {result.messages_per_solo}",
        f"  refusals: {_counts(result.refusals)}",
        *([f"  refusals in solo games: {_counts(result.solo_refusals)}"] if result.solo else []),
        *(
            [f"  press -> answer in the groups without computers: p99 {people:.1f} ms"]
            if (people := result.people_latency_ms_p99) is not None
            else []
        ),
        f"  bot CPU per applied move: {per_move} during the load "
        f"(bot {result.bot_cpu_share:.0%} of a core, its computers' pool "
        f"{result.pool_cpu_share:.0%}), {to_settled} until the display settled",
        f"  display lag: {lag}; Bot API calls per move {result.calls_per_move}",
        f"  game-key writes per applied move: {result.game_writes_per_move} "
        f"(positions written once, twice...: {_counts(written)})",
        f"  driver {result.driver_cpu_share:.0%} of a core, "
        f"redis-server {result.redis_cpu_share:.0%}",
        f"  python: {result.python}",
    ]
    if (reviews := result.reviews) is not None:
        lines.append(
            f"  reviews: {reviews['asked']:.0f} asked before the load; delivered "
            f"{reviews['delivered_before_load']:.0f} before it, "
            f"{reviews['delivered_during_load']:.0f} during it, "
            f"{reviews['waiting_at_end']:.0f} still waiting at its end "
            f"({reviews['delivered_after_load']:.0f} of them delivered after it, by the "
            f"display's settling or --drain's end); {reviews['told_waiting']:.0f} said they "
            f"wait for the computers, "
            f"{reviews['failed_log_lines']:.0f} failed (bot log); their pool "
            f"{reviews['cpu_share']:.0%} of a core during the load"
        )
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
    parser.add_argument("--solo", type=int, default=0, help="people alone against computers")
    parser.add_argument("--solo-computers", type=int, default=5, choices=range(1, 6))
    parser.add_argument("--solo-level", default="hard", choices=tuple(ADD_LEVELS.values()))
    parser.add_argument(
        "--think",
        type=float,
        default=None,
        help=f"seconds a person thinks before a press (default 0; {SOLO_THINK} with --solo)",
    )
    parser.add_argument("--workers", type=int, default=1, help="bot processes (2+: webhook)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--drain", type=float, default=120.0, help="most seconds to settle")
    parser.add_argument("--env", type=_env_pair, action="append", default=[], metavar="K=V")
    parser.add_argument("--py-spy", type=Path, default=None, metavar="OUT")
    parser.add_argument("--json", action="store_true", help="one JSON object on the last line")
    parser.add_argument(
        "--reviews", type=int, default=0, metavar="N", help="reviews asked for before the load"
    )
    parser.add_argument(
        "--computers", default="", help="levels of computer players to seat, e.g. hard,normal"
    )
    parser.add_argument(
        "--computer-groups", type=int, default=0, help="how many groups seat --computers"
    )
    parser.add_argument(
        "--webapp", action="store_true", help="the groups play in the Mini App (load_webapp)"
    )
    parser.add_argument("--hidden", action="store_true", help="--webapp: pages say «away»")
    parser.add_argument(
        "--slow-readers",
        type=int,
        default=0,
        metavar="N",
        help="--webapp: in the first N games a player's second page never reads (load_webapp)",
    )
    parser.add_argument(
        "--task-cpu",
        type=Path,
        default=None,
        metavar="OUT",
        help="--webapp: where the bot's CPU went, per task (bench.task_cpu)",
    )
    args = parser.parse_args(argv)
    if args.webapp:
        _main_webapp(parser, args)
        return
    if args.slow_readers:
        parser.error("--slow-readers is a --webapp option")
    if args.reviews < 0:
        parser.error("--reviews: 0 or more")
    think = args.think if args.think is not None else (SOLO_THINK if args.solo else 0.0)
    load = Load(
        groups=args.groups,
        seconds=args.seconds,
        players=args.players,
        solo=args.solo,
        solo_computers=args.solo_computers,
        solo_level=args.solo_level,
        think=think,
        workers=args.workers,
        seed=args.seed,
        drain=args.drain,
        py_spy=args.py_spy,
        computers=tuple(level for level in args.computers.split(",") if level),
        computer_groups=args.computer_groups,
        reviews=args.reviews,
    )
    with tempfile.TemporaryDirectory(prefix="durak-load-") as workdir:
        result = asyncio.run(run_load(load, bot_env(load, dict(args.env)), Path(workdir)))
    print(report(result))
    if args.py_spy is not None:
        print(summary(args.py_spy.read_text()))
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    sys.stdout.flush()


def _main_webapp(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--webapp``: the groups play over the Mini App's sockets (``load_webapp``)."""
    if args.solo or args.computer_groups or args.workers != 1:
        parser.error("--webapp plays groups of people on one bot process")
    if args.reviews:
        parser.error("--reviews is a chat option")
    if args.task_cpu is not None and args.py_spy is not None:
        parser.error("--task-cpu and --py-spy would each count the other")
    if not 0 <= args.slow_readers <= args.groups:
        parser.error("--slow-readers: from 0 to --groups")
    load = WebappLoad(
        games=args.groups,
        seconds=args.seconds,
        players=args.players,
        think=WEBAPP_THINK if args.think is None else args.think,
        seed=args.seed,
        hidden=args.hidden,
        slow_readers=args.slow_readers,
        py_spy=args.py_spy,
        task_cpu=args.task_cpu,
    )
    env = {**PRODUCTION_ENV, "DEFAULT_TURN_TIMEOUT": "0", **dict(args.env)}
    with tempfile.TemporaryDirectory(prefix="durak-load-") as workdir:
        result = asyncio.run(run_webapp(load, env, Path(workdir)))
    print(webapp_report(result))
    if args.py_spy is not None:
        print(summary(args.py_spy.read_text()))
    if args.task_cpu is not None:
        print(task_cpu_report(args.task_cpu, result["moves"]))
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
