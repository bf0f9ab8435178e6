"""Another worker's Mini App server as a process of its own, for a test to kill (SIGKILL) while
it holds pages: the server of ``bot.webapp.server`` on the bot's Redis and key prefix, with no
outbox and no Telegram of its own (its moves reach the chat through the bot's outbox, as a
second worker's would).

    python -m tests.webapp.page_worker REDIS_URL PREFIX TOKEN HOST:PORT IDLE_SECONDS

prints ``ready`` once it listens, and serves until it is killed.
"""

from __future__ import annotations

import argparse
import asyncio

from bot.model import ChatSettings
from bot.services import GameService
from bot.storage import GameRecord, Storage
from bot.storage.connect import redis_client
from bot.web import serve
from bot.webapp.live import Live
from bot.webapp.server import Served, webapp_app


async def _nobody(_chat_id: int, _user_id: int) -> bool:
    return False


def _shown_by_the_bot(_record: GameRecord) -> None:
    """A move saved here is on the outbox's work list in Redis: the bot's outbox shows it."""


async def main(redis_url: str, prefix: str, token: str, listen: str, idle: float) -> None:
    redis = redis_client(redis_url)
    storage = Storage.create(redis, prefix, default_settings=ChatSettings())
    live = Live(redis, storage.keys.live(), storage.games.get)
    served = Served(GameService(storage), live, _shown_by_the_bot, token, 86_400.0, _nobody, idle)
    live.start()
    await live.subscribed.wait()
    await serve(webapp_app(served), listen)
    print("ready", flush=True)
    await asyncio.Event().wait()  # until killed


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("redis_url")
    parser.add_argument("prefix")
    parser.add_argument("token")
    parser.add_argument("listen")
    parser.add_argument("idle", type=float)
    args = parser.parse_args()
    asyncio.run(main(args.redis_url, args.prefix, args.token, args.listen, args.idle))
