"""How soon each player sees their hand after «Начать», with the bot's production budgets:

    PYTHONPATH=. .venv/bin/python -m bench.hands_first [--games 10] [--players 4 6] [--json]

For each player count, ``--games`` groups one after the other: everybody starts the bot in
private, sits down, and the first player presses «Начать»; the time from that press until
every player's private chat has their hand. A group's table and lobby keep to the group's
budget (19 messages a minute): the hands go to private chats, outside it. Uses
``DURAK_TEST_REDIS_URL`` or starts a throwaway ``redis-server``.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from redis.asyncio import Redis

from tests.e2e.fake_telegram import FakeTelegram, FakeUser
from tests.e2e.harness import BotProcess, Table, delete_prefixed, on_test_redis

NAMES = ("Аня", "Борис", "Вера", "Гена", "Даша", "Егор")


async def hands_after_start(fake: FakeTelegram, redis: Redis, prefix: str, players: int) -> float:
    """Seconds from «Начать» until every player of a new group has their hand."""
    users: list[FakeUser] = [fake.add_user(NAMES[i]) for i in range(players)]
    table = Table(fake, redis, prefix, users)
    await table.all_start_bot()
    await table.gather()
    lobby = await table.lobby_message()
    chats = [fake.private_chat(user) for user in users]
    before = [fake.last_message_id(chat) for chat in chats]
    started = time.monotonic()
    await table.press_lobby(users[0], lobby, "start")
    await table.wait_for(
        lambda: all(fake.last_message_id(c) > b for c, b in zip(chats, before, strict=True)),
        timeout=30.0,
    )
    return time.monotonic() - started


async def run(
    redis_url: str, games: int, counts: list[int], workdir: Path
) -> dict[int, list[float]]:
    prefix = f"hands{uuid.uuid4().hex[:8]}"
    redis = Redis.from_url(redis_url)
    seconds: dict[int, list[float]] = {count: [] for count in counts}
    try:
        async with FakeTelegram() as fake:
            bot = BotProcess(fake, redis_url, prefix, workdir)
            await bot.start()
            try:
                for count in counts:
                    for _ in range(games):
                        seconds[count].append(await hands_after_start(fake, redis, prefix, count))
            finally:
                await bot.stop()
    finally:
        await delete_prefixed(redis, prefix)
        await redis.aclose()
    return seconds


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.hands_first", description=__doc__)
    parser.add_argument("--games", type=int, default=10, help="groups per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[4, 6], choices=range(2, 7))
    parser.add_argument("--json", action="store_true", help="one JSON object on the last line")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        measure = functools.partial(
            run, games=args.games, counts=args.players, workdir=Path(workdir)
        )
        seconds = asyncio.run(on_test_redis(Path(workdir), measure))
    figures = {
        count: {
            "p50_ms": round(statistics.median(values) * 1000, 1),
            "p99_ms": round(quantile(values, 0.99) * 1000, 1),
            "max_ms": round(max(values) * 1000, 1),
            "games": len(values),
        }
        for count, values in seconds.items()
    }
    for count, figure in figures.items():
        print(
            f"{count} players: «Начать» -> every hand p50 {figure['p50_ms']} ms, "
            f"p99 {figure['p99_ms']} ms, max {figure['max_ms']} ms ({figure['games']} games)"
        )
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
