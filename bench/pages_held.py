"""How many Mini App pages one worker holds open, and what each of them costs it:

    PYTHONPATH=. .venv/bin/python -m bench.pages_held --pages 5000 [--json]

It starts its own ``redis-server`` and one Mini App worker (``tests.webapp.page_worker``:
``--members``, so that anybody may watch a table, and ``--files`` raised to what the pages
need), deals as many games of two as ``--pages`` watchers need under
``PageLimits.watchers_per_chat``, and opens that many watchers' pages (a person each, the
``initData`` signed for the worker's token). Each page is read by a task of its own, as a
browser reads its socket: it answers the worker's pings and its close. Once every page has
its first position, the figures (``--json``: one JSON object on the last line):

* descriptors [``fds_before``, ``fds_with``, ``fds_per_page``, ``fds_besides``]: the
  worker's open file descriptors (``/proc/PID/fd``) before any page and with all of them
  open. Pages opening at once open Redis connections at once, which the worker's pool keeps
  (``redis_before``, ``redis_with``): ``fds_per_page`` is the growth without those, and
  ``fds_besides`` what the worker holds besides its pages, those connections included.
* memory [``rss_before_kb``, ``rss_with_kb``, ``kb_per_page``]: its resident memory
  (``VmRSS``) likewise, and the difference a page.
* a move [``move_ms``, ``move_pages``]: one move in the first game (``GameService.play`` on
  the same Redis, as a tap on a page is played), from its save until every page of that game
  received the new version, as this process saw them arrive: it reads every page itself, so
  the figure includes its own time to read them (``save_ms``: the save itself).

This process holds a descriptor a page too: its soft limit of open files is raised to its
hard limit at start, and more pages than that allows are refused.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import resource
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from redis.asyncio import Redis

from bot.model import ChatSettings
from bot.services import GameService, Player
from bot.storage import Storage
from bot.webapp.server import PageLimits
from tests.e2e.harness import RedisServer
from tests.webapp.games import deal, play_a_move
from tests.webapp.page_worker import started
from tests.webapp.signing import sign_init_data, socket_protocols

from .processes import interpreter

TOKEN = "123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
IDLE = 60.0  # the worker's idle seconds (``WEBAPP_IDLE_SECONDS``'s default)
FIRST_CHAT = -1_000_000_000_001  # the games' chats count down from here
FIRST_WATCHER = 1_000_000  # watchers' user ids count up from here; players' are below
OPEN_AT_ONCE = 100  # pages connecting at the same time
# Descriptors besides the pages that the worker's limit (``--files``) allows: far more than
# it needs, so that only the pages could reach the limit.
WORKER_BESIDES = 1000
WAIT = 120.0  # seconds for every page to open, or to receive a version
SETTLE = 1.0  # seconds the worker is left alone before its /proc is read


@dataclass
class Page:
    """One watcher's open page: the newest version it received, and when (monotonic)."""

    socket: aiohttp.ClientWebSocketResponse
    version: int = -1
    arrived: float = 0.0
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def read(self) -> None:
        try:
            async for message in self.socket:
                if message.type is not aiohttp.WSMsgType.TEXT:
                    continue
                data = json.loads(message.data)
                if data["type"] == "state":
                    self.version, self.arrived = data["version"], time.monotonic()
                    self.changed.set()
        finally:
            self.changed.set()  # a page closed wakes whoever waits for it

    async def reached(self, version: int) -> float:
        """When the page received ``version`` (or a newer one)."""
        while self.version < version:
            if self.socket.closed:
                raise ConnectionError(f"a page was closed ({self.socket.close_code})")
            self.changed.clear()
            await self.changed.wait()
        return self.arrived


def descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def connections_to(pid: int, port: int) -> int:
    """The process's TCP connections to ``port`` (on any host)."""
    fds = Path(f"/proc/{pid}/fd")
    sockets: set[str] = set()
    for fd in fds.iterdir():
        with contextlib.suppress(FileNotFoundError):  # closed meanwhile
            sockets.add(os.readlink(fd))
    count = 0
    for line in Path(f"/proc/{pid}/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()  # sl, local address, remote address, ..., inode (tenth)
        remote_port = int(fields[2].rsplit(":", 1)[1], 16)
        if remote_port == port and f"socket:[{fields[9]}]" in sockets:
            count += 1
    return count


def resident_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def raise_own_limit(pages: int) -> None:
    """This process's soft limit of open files up to its hard limit: a page is a socket on
    this side too. SystemExit if even that is too few for ``pages``."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # The worker's limit is set under the hard limit it inherits from here, and is the larger
    # need: this process holds fewer descriptors besides its pages.
    need = pages + WORKER_BESIDES
    if hard < need:
        raise SystemExit(f"{pages} pages need {need} open files; the hard limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def held(pages: int, workdir: Path) -> dict[str, Any]:
    server = RedisServer(workdir)
    server.start()
    try:
        await server.wait_ready()
        redis = Redis.from_url(server.url)
        try:
            return await _held(pages, server, redis)
        finally:
            await redis.aclose()
    finally:
        server.stop()


async def _held(pages: int, server: RedisServer, redis: Redis) -> dict[str, Any]:
    prefix = f"held{uuid.uuid4().hex[:8]}"
    storage = Storage.create(redis, prefix, default_settings=ChatSettings(turn_timeout=0))
    service = GameService(storage)
    per_chat = PageLimits().watchers_per_chat
    chats = [FIRST_CHAT - i for i in range(math.ceil(pages / per_chat))]
    dealt = [
        await deal(service, chat, Player(1 + 2 * i, "Аня"), Player(2 + 2 * i, "Борис"))
        for i, chat in enumerate(chats)
    ]
    files = str(pages + WORKER_BESIDES)
    readers: list[asyncio.Task[None]] = []
    async with (
        started(server.url, prefix, TOKEN, IDLE, "--files", files, "--members") as worker,
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session,
    ):
        pid = worker.process.pid
        await asyncio.sleep(SETTLE)
        fds_before, rss_before = descriptors(pid), resident_kb(pid)
        redis_before = connections_to(pid, server.port)
        gate = asyncio.Semaphore(OPEN_AT_ONCE)

        async def open_page(index: int) -> Page:
            init = sign_init_data(TOKEN, FIRST_WATCHER + index)
            async with gate:
                socket = await session.ws_connect(
                    f"http://{worker.listen}/ws",
                    params={"chat": str(chats[index // per_chat])},
                    protocols=socket_protocols(init),
                )
            page = Page(socket)
            readers.append(asyncio.create_task(page.read()))
            return page

        try:
            began = time.monotonic()
            async with asyncio.timeout(WAIT):
                opened = await asyncio.gather(*(open_page(i) for i in range(pages)))
                for index, page in enumerate(opened):
                    await page.reached(dealt[index // per_chat].game.version)
            opened_in = time.monotonic() - began
            await asyncio.sleep(SETTLE)
            fds_with, rss_with = descriptors(pid), resident_kb(pid)
            redis_with = connections_to(pid, server.port)
            watching = opened[:per_chat]  # the first game's
            asked = time.monotonic()
            moved = await play_a_move(service, dealt[0])
            saved = time.monotonic()
            async with asyncio.timeout(WAIT):
                arrivals = await asyncio.gather(
                    *(page.reached(moved.game.version) for page in watching)
                )
        finally:
            for reader in readers:
                reader.cancel()
    redis_added = redis_with - redis_before
    return {
        "pages": pages,
        "games": len(chats),
        "opened_in_s": round(opened_in, 1),
        "fds_before": fds_before,
        "fds_with": fds_with,
        "fds_per_page": round((fds_with - fds_before - redis_added) / pages, 3),
        "fds_besides": fds_before + redis_added,
        "redis_before": redis_before,
        "redis_with": redis_with,
        "rss_before_kb": rss_before,
        "rss_with_kb": rss_with,
        "kb_per_page": round((rss_with - rss_before) / pages, 1),
        "move_pages": len(watching),
        "save_ms": round((saved - asked) * 1000, 1),
        "move_ms": round((max(arrivals) - saved) * 1000, 1),
        "python": interpreter(),
    }


def report(result: dict[str, Any]) -> str:
    return (
        f"One Mini App worker: {result['pages']} watchers' pages open over {result['games']} "
        f"games (opened in {result['opened_in_s']} s)\n"
        f"  descriptors: {result['fds_before']} before any page, {result['fds_with']} with "
        f"them: {result['fds_per_page']} a page, {result['fds_besides']} besides the pages "
        f"(connections to Redis: {result['redis_before']} before, {result['redis_with']} "
        f"with them)\n"
        f"  memory (VmRSS): {result['rss_before_kb']} KB before, {result['rss_with_kb']} KB "
        f"with them: {result['kb_per_page']} KB a page\n"
        f"  a move -> every one of its game's {result['move_pages']} pages: "
        f"{result['move_ms']} ms from its save (the save: {result['save_ms']} ms)\n"
        f"  python: {result['python']}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--json", action="store_true", help="one JSON object on the last line")
    args = parser.parse_args(argv)
    if args.pages < 1:
        parser.error("--pages: at least one")
    raise_own_limit(args.pages)
    with tempfile.TemporaryDirectory(prefix="durak-pages-") as workdir:
        result = asyncio.run(held(args.pages, Path(workdir)))
    print(report(result))
    if args.json:
        print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
