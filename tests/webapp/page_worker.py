"""Another worker's Mini App server as a process of its own, for a test to kill (SIGKILL) while
it holds pages: the server of ``bot.webapp.server`` on the bot's Redis and key prefix, with no
outbox and no Telegram of its own (its moves reach the chat through the bot's outbox, as a
second worker's would).

    python -m tests.webapp.page_worker REDIS_URL PREFIX TOKEN HOST:PORT IDLE_SECONDS
        [--files N] [--connection-idle SECONDS] [--members]

prints ``ready`` once it listens, and serves until it is killed. ``--files`` sets the
process's limit of open files (as systemd's ``LimitNOFILE``), ``--connection-idle`` the
seconds a connection may wait for its first request (``bot.web.CONNECTION_IDLE_SECONDS``).
``--members``: everybody counts as a member of every group, so anybody's page may watch a
table; without it nobody does, and only players' pages open.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from bot.model import ChatSettings, GameRecord
from bot.services import GameService
from bot.storage import Storage
from bot.storage.connect import redis_client
from bot.web import CONNECTION_IDLE_SECONDS, serve
from bot.webapp.live import Live
from bot.webapp.server import Served, webapp_app
from tests.e2e.harness import free_port as _free_port

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True)
class Worker:
    process: asyncio.subprocess.Process
    listen: str  # host:port


@contextlib.asynccontextmanager
async def started(
    redis_url: str, prefix: str, token: str, idle: float, *options: str
) -> AsyncIterator[Worker]:
    """This module's server as a process of its own (``options``: ``--files``...), ready;
    killed at the end unless it was already."""
    listen = f"127.0.0.1:{_free_port()}"
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "tests.webapp.page_worker", redis_url, prefix, token, listen),
        *(str(idle), *options),
        stdout=asyncio.subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert process.stdout is not None
        assert await asyncio.wait_for(process.stdout.readline(), 90) == b"ready\n"
        yield Worker(process, listen)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def _nobody(_chat_id: int, _user_id: int) -> bool:
    return False


async def _everybody(_chat_id: int, _user_id: int) -> bool:
    return True


def _shown_by_the_bot(_record: GameRecord) -> None:
    """A move saved here is on the outbox's work list in Redis: the bot's outbox shows it."""


async def main(
    redis_url: str,
    prefix: str,
    token: str,
    listen: str,
    idle: float,
    connection_idle: float = CONNECTION_IDLE_SECONDS,
    members: bool = False,
) -> None:
    redis = redis_client(redis_url)
    storage = Storage.create(redis, prefix, default_settings=ChatSettings())
    live = Live(redis, storage.keys.live(), storage.games.get)
    may_watch = _everybody if members else _nobody
    served = Served(GameService(storage), live, _shown_by_the_bot, token, 86_400.0, may_watch, idle)
    live.start()
    await live.subscribed.wait()
    await serve(webapp_app(served), listen, connection_idle=connection_idle)
    print("ready", flush=True)
    await asyncio.Event().wait()  # until killed


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("redis_url")
    parser.add_argument("prefix")
    parser.add_argument("token")
    parser.add_argument("listen")
    parser.add_argument("idle", type=float)
    parser.add_argument("--files", type=int)
    parser.add_argument("--connection-idle", type=float, default=CONNECTION_IDLE_SECONDS)
    parser.add_argument("--members", action="store_true")
    args = parser.parse_args()
    if args.files is not None:
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (args.files, hard))
    asyncio.run(
        main(
            args.redis_url,
            args.prefix,
            args.token,
            args.listen,
            args.idle,
            args.connection_idle,
            args.members,
        )
    )
