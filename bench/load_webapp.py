"""The load benchmark's Mini App mode:

    PYTHONPATH=. .venv/bin/python -m bench.load --webapp --groups 200 --players 4 \\
        --seconds 60 --think 3 [--hidden] [--slow-readers N] [--py-spy OUT] [--json]

It starts its own ``redis-server``, the fake Bot API and the real bot (``python -m bot``,
one process, polling, as the chat mode does) with the Mini App on a free local port, and
seats ``--groups`` groups of ``--players`` people through the chat (Start, ``/newgame``,
«Играю», «Начать»: the chat mode's steps). Then every player opens the Mini App (a WebSocket
with an ``initData`` signed for them), and for ``--seconds`` each game plays over the
sockets: a person whose page offers moves makes a random one ``--think`` seconds later
(between half and one and a half times that), one move at a time per game. Settings:
production's (Telegram's 25 messages a second over all chats), but no turn clock (the test
harness's) so that nobody's time runs out while the machine is loaded. A page says «here»
as often as the server's "hello" asks, as the real page does while visible, so its player's
hand message in private waits ("fewer messages"); ``--hidden``: every page says
«away» at once, as a page left in the background, so the hands are edited on every move as
before the Mini App (the "before" of that figure).

``--slow-readers N``: in each of the first ``N`` games one seated player has, besides their
page, a second one that never reads (``SlowReader``, the slow reader of
``tests/webapp/test_public_surface.py``): a socket with a receive buffer of a kilobyte that
sends refused moves as often as the bot lets a page send (``PageLimits``), so that their
answers and the game's moves back up in the bot's buffers to it. When the bot cuts it
(``PageLimits.send_deadline``), another opens at once: such a page is there throughout.
The figures below stay those of the pages that read; the slow readers' refused moves cost
the bot CPU that ``cpu_ms_per_move`` counts (it is the bot's, whatever it spent it on).

The figures (``--json``: one JSON object on the last line):

* move -> every page [``pages_ms``: p50, p90, p99, max, n]: from a move sent on the
  mover's socket until every page of that game (the mover's included) received the new
  position.
* move -> the mover's page [``answer_ms``]: from the move sent until the mover's own page
  shows it (a move played is answered by its position), or its refusal arrives.
* bot CPU per move [``cpu_ms_per_move``]: the bot process's user + system CPU during the
  load, divided by the moves applied.
* [``bot_cpu_share``, ``driver_cpu_share``, ``redis_cpu_share``]: the share of one core the
  bot, this benchmark's own process (the fake Bot API, every page, the players) and
  redis-server were busy: on two cores, a driver near 100% measures itself.
* Bot API calls per move [``api_calls_per_move``]: every call the bot made to the fake
  during the load (sends, edits, answers; not getUpdates), divided by the moves applied.
  With the pages open: the group's table, under its budget; ``--hidden``: each hand
  message and the group's table, merged under Telegram's budget.
* Redis commands per move [``redis_commands_per_move``; ``redis_commands``: the most
  frequent, by name]: the commands redis-server processed during the load (``INFO
  commandstats``; the bot's alone, the players use only the sockets; MULTI, EXEC and WATCH
  count as commands), divided by the moves applied.
* [``python``]: the interpreter the bot ran on, whose build moves the CPU figures.
* [``slow_readers``, ``slow_readers_cut``]: ``--slow-readers``, and how many times the bot
  cut one of them during the load.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import aiohttp
from redis.asyncio import BlockingConnectionPool, Redis

from bot.webapp.server import PageLimits
from tests.e2e.fake_telegram import FakeTelegram, FakeUser
from tests.e2e.harness import RedisServer, Table, free_port
from tests.webapp.raw import open_socket_page, text_frame
from tests.webapp.signing import sign_init_data, socket_protocols

from . import task_cpu
from .load_tables import CallWatch, seat_group
from .processes import (
    STARTUP,
    cpu_seconds,
    interpreter,
    own_cpu_seconds,
    start_py_spy,
    stop_py_spy,
    workers,
)
from .turns_seen import quantiles

SETUP_AT_ONCE = 8  # games being seated at the same time
WAIT = 30.0  # seconds a page may wait for a position on a loaded machine
# What a slow reader sends: a move the bot refuses at once (no such action), whose answer
# names the tap's id, so that each message it sends makes the bot send it one back.
REFUSED: Final = {"type": "move", "game": "g", "moves": 0, "act": "zz", "id": "x" * 40}
SLOW_RECEIVE_BUFFER = 1024  # bytes: the slow reader's kernel receive buffer
REOPEN_AFTER = 0.5  # seconds before a slow reader whose socket did not open tries again


@dataclass(frozen=True)
class WebappLoad:
    """What to run: the games, the players' pace, and whether their pages are in use."""

    games: int
    seconds: float
    players: int = 4
    think: float = 3.0
    seed: int = 22
    hidden: bool = False
    slow_readers: int = 0  # games (the first ones) with a page that never reads
    py_spy: Path | None = None
    task_cpu: Path | None = None  # ``bench.task_cpu``'s counts, written here


@dataclass
class Page:
    """One player's open Mini App: the newest position it received."""

    user: FakeUser
    socket: aiohttp.ClientWebSocketResponse
    here_every: float  # seconds, as the server's "hello" says
    sent_at: float = 0.0  # monotonic: when the page last said anything (a move, «here»)
    state: dict[str, Any] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    answers: asyncio.Queue[str] = field(default_factory=asyncio.Queue)  # refusals
    # Moves waiting to show here: the version they lead to, and when it arrived (resolved).
    waiting: list[tuple[int, asyncio.Future[float]]] = field(default_factory=list)

    async def listen(self) -> None:
        async for message in self.socket:
            data = json.loads(message.data)
            if data["type"] == "state" and data["version"] > self.state.get("version", -1):
                self.state = data
                self.changed.set()
                arrived = time.monotonic()
                for target, future in self.waiting:
                    if target <= data["version"] and not future.done():
                        future.set_result(arrived)
                self.waiting = [(t, f) for t, f in self.waiting if not f.done()]
            elif data["type"] == "answer":
                self.answers.put_nowait(data["text"])

    async def present(self, hidden: bool, phase: float) -> None:
        """What the page says of itself: «away» once if ``hidden``, else «here» every
        ``here_every`` seconds, the first after ``phase`` (a share of that time), and as the
        page does (static/app.js), not before ``here_every`` after its last move. People
        open their pages at different moments: every page's «here» in the same second
        would be a burst no real crowd makes."""
        if hidden:
            await self.socket.send_json({"type": "away"})
            return
        await asyncio.sleep(phase * self.here_every)
        while True:
            wait = self.sent_at + self.here_every - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            await self.socket.send_json({"type": "here"})
            self.sent_at = time.monotonic()

    async def outcome(self, version: int) -> str | None:
        """What became of the page's move to ``version``: None once the page shows it (a
        move played is answered by its position), else the refusal's text."""
        refused = asyncio.ensure_future(self.answers.get())
        shown = asyncio.ensure_future(self.reached(version))
        try:
            async with asyncio.timeout(WAIT):  # not wait_for (bot/waiting.py says why)
                await asyncio.wait((refused, shown), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (refused, shown):
                task.cancel()
        return refused.result() if refused.done() and not refused.cancelled() else None

    async def reached(self, version: int) -> float:
        """When this page received ``version`` (or a newer one)."""
        if self.state.get("version", -1) >= version:
            return time.monotonic()
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiting.append((version, future))
        return await future


@dataclass
class SlowReader:
    """A page of a seated player that never reads after the upgrade and sends refused moves
    (``REFUSED``) as often as the bot allows a page to (``PageLimits``): each makes the bot
    answer it, into buffers nobody empties. When the bot cuts it (a send fails), it opens
    another: one is there for as long as ``run`` runs."""

    host: str
    port: int
    path: str  # the socket's, with its query
    init_data: str
    cut: int = 0  # times the bot cut it
    opened: asyncio.Event = field(default_factory=asyncio.Event)  # its first socket is open

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        frame = text_frame(json.dumps(REFUSED))
        every = 1 / PageLimits().messages_per_second
        while True:
            try:
                sock = await open_socket_page(
                    self.host,
                    self.port,
                    self.path,
                    self.init_data,
                    receive_buffer=SLOW_RECEIVE_BUFFER,
                )
            except OSError:  # the bot did not take it (busy, or a refusal): again shortly
                await asyncio.sleep(REOPEN_AFTER)
                continue
            self.opened.set()
            try:
                while True:
                    await loop.sock_sendall(sock, frame)
                    await asyncio.sleep(every)
            except OSError:  # reset or broken: the bot cut the connection
                self.cut += 1
            finally:
                sock.close()


def slow_reader(host: str, port: int, token: str, table: Table) -> SlowReader:
    """A slow reader of the table's first player."""
    user = table.players[0]
    init = sign_init_data(token, user.id, first_name=user.first_name)
    return SlowReader(host, port, f"/ws?chat={table.group.id}&version=-1", init)


@dataclass
class PageTally:
    latencies: list[float] = field(default_factory=list)  # move -> every page
    answers: list[float] = field(default_factory=list)  # move -> shown to the mover, or refused
    moves: int = 0
    refused: int = 0
    finished: int = 0


async def open_pages(
    session: aiohttp.ClientSession, base: str, token: str, table: Table
) -> list[Page]:
    pages = []
    for user in table.players:
        init = sign_init_data(token, user.id, first_name=user.first_name)
        socket = await session.ws_connect(
            f"{base}ws", params={"chat": str(table.group.id)}, protocols=socket_protocols(init)
        )
        hello = await socket.receive_json(timeout=WAIT)
        pages.append(Page(user, socket, hello["here_every"]))
    return pages


async def play(pages: list[Page], rng: random.Random, think: float, tally: PageTally) -> None:
    """One game: a player whose page offers moves makes one, and every page is timed."""
    while True:
        movers = [p for p in pages if p.state.get("actions")]
        if not movers:
            if any(p.state.get("finished") for p in pages):
                tally.finished += 1
                return
            for page in pages:
                page.changed.clear()
            changes = [asyncio.create_task(p.changed.wait()) for p in pages]
            await asyncio.wait(changes, timeout=WAIT, return_when=asyncio.FIRST_COMPLETED)
            for change in changes:
                change.cancel()
            continue
        page = rng.choice(movers)
        if think > 0:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
        state = page.state
        action = rng.choice(state["actions"])
        target = state["version"] + 1
        shown = [asyncio.create_task(p.reached(target)) for p in pages]
        sent = page.sent_at = time.monotonic()
        await page.socket.send_json(
            {"type": "move", "game": state["game"], "moves": state["moves"],
             "act": action["act"], "id": uuid.uuid4().hex[:12]}
        )  # fmt: skip
        refusal = await page.outcome(target)
        tally.answers.append(time.monotonic() - sent)
        if refusal is not None:  # the position changed under the player: look again
            tally.refused += 1
            for task in shown:
                task.cancel()
            continue
        async with asyncio.timeout(WAIT):
            arrivals = await asyncio.gather(*shown)
        tally.latencies.append(max(arrivals) - sent)
        tally.moves += 1


async def _commands(redis: Redis) -> Counter[str]:
    """The commands redis-server has processed so far, by name."""
    stats = await redis.info("commandstats")
    return Counter({name.removeprefix("cmdstat_"): int(s["calls"]) for name, s in stats.items()})


async def run_webapp(load: WebappLoad, env: dict[str, str], workdir: Path) -> dict[str, Any]:
    server = RedisServer(workdir)
    server.start()
    prefix = f"webapp{uuid.uuid4().hex[:8]}"
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    own = {"WEBAPP_URL": base, "WEBAPP_LISTEN": f"127.0.0.1:{port}"}
    spy = None
    try:
        await server.wait_ready()
        assert server.process is not None
        redis = Redis(connection_pool=BlockingConnectionPool.from_url(server.url, timeout=None))
        async with (
            FakeTelegram() as fake,
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session,
        ):
            if load.task_cpu is not None:
                own[task_cpu.OUT_ENV] = str(load.task_cpu.resolve())
            [bot], _ = workers(fake, server.url, prefix, workdir, 1, {**env, **own})
            if load.task_cpu is not None:
                bot.module = "bench.task_cpu"
            await bot.start(timeout=STARTUP)
            try:
                watch = CallWatch(fake)
                watcher = asyncio.create_task(watch.run())
                gate = asyncio.Semaphore(SETUP_AT_ONCE)

                async def seat(index: int) -> Table:
                    async with gate:
                        table, _ = await seat_group(
                            fake, redis, prefix, watch, index, load.players, ()
                        )
                        return table

                setup = time.monotonic()
                tables = await asyncio.gather(*(seat(i) for i in range(load.games)))
                await fake.wait_idle(quiet=0.5, timeout=600)
                seated_in = time.monotonic() - setup
                games = [await open_pages(session, base, fake.token, t) for t in tables]
                listeners = [asyncio.create_task(p.listen()) for g in games for p in g]
                phases = random.Random(load.seed)
                listeners += [
                    asyncio.create_task(p.present(load.hidden, phases.random()))
                    for g in games
                    for p in g
                ]
                for game in games:  # every page has its first position
                    for page in game:
                        async with asyncio.timeout(WAIT):
                            await page.changed.wait()
                slow = [
                    slow_reader("127.0.0.1", port, fake.token, t)
                    for t in tables[: load.slow_readers]
                ]
                listeners += [asyncio.create_task(s.run()) for s in slow]
                for reader in slow:  # there from the start of the load
                    async with asyncio.timeout(WAIT):
                        await reader.opened.wait()
                tally = PageTally()
                assert bot.process is not None
                pid, redis_pid = bot.process.pid, server.process.pid
                if load.py_spy is not None:
                    spy = start_py_spy(pid, load.py_spy)
                if load.task_cpu is not None:
                    os.kill(pid, signal.SIGUSR1)
                cpu, redis_cpu = cpu_seconds(pid), cpu_seconds(redis_pid)
                own_cpu = own_cpu_seconds()
                mark, before, start = fake.mark(), await _commands(redis), time.monotonic()
                rng = random.Random(load.seed)
                players = [
                    asyncio.create_task(play(g, random.Random(rng.random()), load.think, tally))
                    for g in games
                ]
                done, _ = await asyncio.wait(players, timeout=load.seconds)
                for task in players:
                    task.cancel()
                for task in done:
                    task.result()
                elapsed = time.monotonic() - start
                cpu = cpu_seconds(pid) - cpu
                slow_cut = sum(reader.cut for reader in slow)
                if load.task_cpu is not None:
                    os.kill(pid, signal.SIGUSR2)
                own_cpu = own_cpu_seconds() - own_cpu
                redis_cpu = cpu_seconds(redis_pid) - redis_cpu
                commands = await _commands(redis)
                commands.subtract(before)
                calls = len(fake.calls(since=mark))
                if spy is not None:
                    stop_py_spy(spy)
                    spy = None
                for task in (*listeners, watcher):
                    task.cancel()
            finally:
                if spy is not None:
                    stop_py_spy(spy)
                await bot.stop(timeout=60)
        await redis.aclose()
    finally:
        server.stop()
    moves = max(tally.moves, 1)
    return {
        "games": load.games,
        "hidden": load.hidden,
        "players": load.players,
        "think_s": load.think,
        "seconds": round(elapsed, 1),
        "seated_in_s": round(seated_in, 1),
        "moves": tally.moves,
        "moves_per_s": round(tally.moves / elapsed, 1),
        "refused": tally.refused,
        "finished": tally.finished,
        "pages_ms": quantiles(tally.latencies),
        "answer_ms": quantiles(tally.answers),
        "cpu_ms_per_move": round(cpu * 1000 / moves, 2),
        "bot_cpu_share": round(cpu / elapsed, 2),
        "driver_cpu_share": round(own_cpu / elapsed, 2),
        "redis_cpu_share": round(redis_cpu / elapsed, 2),
        "api_calls_per_move": round(calls / moves, 2),
        "redis_commands_per_move": round(commands.total() / moves, 1),
        "redis_commands": {
            name: round(calls / moves, 2) for name, calls in commands.most_common(12) if calls
        },
        "python": interpreter(),
        "slow_readers": load.slow_readers,
        "slow_readers_cut": slow_cut,
    }


def webapp_report(result: dict[str, Any]) -> str:
    pages = result["pages_ms"] or {}
    answer = result["answer_ms"] or {}
    shown = "hidden («away»)" if result["hidden"] else "open"
    return (
        f"Mini App: {result['games']} games of {result['players']}, pages {shown}; "
        f"{result['moves']} moves in {result['seconds']} s ({result['moves_per_s']}/s; "
        f"{result['refused']} refused, {result['finished']} games over; seated in "
        f"{result['seated_in_s']} s)\n"
        f"  move -> every page: p50 {pages.get('p50')} ms, p90 {pages.get('p90')} ms, "
        f"p99 {pages.get('p99')} ms, max {pages.get('max')} ms\n"
        f"  move -> the mover's page (or refusal): p50 {answer.get('p50')} ms, "
        f"p99 {answer.get('p99')} ms\n"
        f"  bot CPU per move: {result['cpu_ms_per_move']} ms (the bot busy "
        f"{result['bot_cpu_share']:.0%} of a core; this benchmark's own process, which plays "
        f"the fake Bot API and every page, {result['driver_cpu_share']:.0%}; redis-server "
        f"{result['redis_cpu_share']:.0%})\n"
        f"  Bot API calls per move: {result['api_calls_per_move']}; Redis commands per move: "
        f"{result['redis_commands_per_move']} ("
        + ", ".join(f"{name} {n}" for name, n in result["redis_commands"].items())
        + f")\n  slow readers: {result['slow_readers']}, cut {result['slow_readers_cut']} "
        f"times\n  python: {result['python']}"
    )
