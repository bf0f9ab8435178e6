"""Play one game with the real bot against the fake Telegram and print what it cost:

    .venv/bin/python -m bench.measure [--players 4] [--seed 7]

Bot API calls per game action, the most sends+edits to the group in any 60 s, and the time
from a press to its callback answer (median, p99). Uses ``DURAK_TEST_REDIS_URL`` or starts
a throwaway ``redis-server``.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import tempfile
import uuid
from pathlib import Path

from redis.asyncio import Redis

from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.harness import BotProcess, Stats, Table, delete_prefixed, on_test_redis


async def measure(
    redis_url: str, players: int, seed: int, workdir: Path, prefix: str | None = None
) -> Stats:
    prefix = prefix or f"measure{uuid.uuid4().hex[:8]}"
    redis = Redis.from_url(redis_url)
    names = ["Аня", "Борис", "Вера", "Гена", "Даша", "Егор"]
    try:
        async with FakeTelegram() as fake:
            bot = BotProcess(fake, redis_url, prefix, workdir)
            await bot.start()
            try:
                users = [fake.add_user(names[i], username=f"p{i}") for i in range(players)]
                table = Table(fake, redis, prefix, users)
                await table.all_start_bot()
                await table.gather()
                mark = fake.mark()
                await table.deal()
                stats = Stats()
                record = await table.play_to_end(random.Random(seed), stats=stats)
                message = table.table_message(record)
                assert message is not None
                await fake.wait_for(lambda: not message.buttons or "again" in str(message.buttons))
                await fake.wait_idle(quiet=0.3, timeout=60)
                stats.calls = len(fake.calls(since=mark))
                stats.max_group_window = fake.max_sends_and_edits_in_window(table.group)
                errors = [e for e in fake.errors() if e.method != "getUpdates"]
                if errors:
                    raise AssertionError(f"Bot API errors: {errors}")
            finally:
                await bot.stop()
    finally:
        await delete_prefixed(redis, prefix)
        await redis.aclose()
    return stats


def report(stats: Stats, players: int) -> str:
    return (
        f"{players}-player game: {stats.moves} moves, {stats.presses} presses\n"
        f"  Bot API calls per game action: {stats.calls_per_move:.2f} "
        f"({stats.calls} calls)\n"
        f"  most sends+edits to the group in any 60 s: {stats.max_group_window}\n"
        f"  press -> callback answer: median {stats.latency(0.5) * 1000:.1f} ms, "
        f"p99 {stats.latency(0.99) * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        folder = Path(workdir)
        run = functools.partial(measure, players=args.players, seed=args.seed, workdir=folder)
        stats = asyncio.run(on_test_redis(folder, run))
    print(report(stats, args.players))


if __name__ == "__main__":
    main()
