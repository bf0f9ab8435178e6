"""The computers' budget of thinking under load, through the real services, a real Redis and
the real pool of processes, without Telegram (no outbox, no Bot API: what is left is the
computers' own cost and schedule):

    PYTHONPATH=. .venv/bin/python -m bench.thinking --solo 200 --seconds 60

It starts its own ``redis-server``, opens ``--solo`` private games of one person against
``--computers`` (5) computers of ``--level`` (hard), and ``--normal`` (5) games of one person
against one ``normal`` computer, and runs ``ComputerTurns`` with the production settings
(``--env``-like options below change them) for ``--seconds``. A person plays a random legal
move ``--think`` seconds after their turn came. It prints, for each level, the computer
moves a second and the time from a move being due (its pause over) to its being saved
(``durak_computer_decision_seconds``: p50, p99, max, read from the histogram's buckets as
"at most"), the degraded decisions (``durak_computer_degraded_total`` by reason) and the
CPU of this process (the bot's share: the services, Redis client, scheduling) as a share
of one core. ``--json`` adds one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot.config import Settings
from bot.metrics import REGISTRY
from bot.model import ChatSettings, GameRecord, Phase
from bot.schema.presses import Move
from bot.services import GameService, Outcome, Player
from bot.services.computers import ComputerSeats, ComputerTurns
from bot.storage import Storage
from bot.storage.connect import redis_client
from engine import legal_actions
from tests.e2e.harness import RedisServer

PERSONS = 1_000_000  # user ids of the benchmark's people start here


async def no() -> bool:
    return False


def histogram(level: str) -> tuple[float, list[tuple[float, float]]]:
    """The decision-time histogram of ``level``: count, and (upper bound, cumulative)."""
    buckets = [
        (float(sample.labels["le"]), sample.value)
        for metric in REGISTRY.collect()
        for sample in metric.samples
        if sample.name == "durak_computer_decision_seconds_bucket"
        and sample.labels.get("level") == level
    ]
    count = REGISTRY.get_sample_value("durak_computer_decision_seconds_count", {"level": level})
    return count or 0.0, buckets


def at_most(buckets: list[tuple[float, float]], count: float, share: float) -> float:
    return next(bound for bound, seen in buckets if seen >= share * count)


class Bench:
    def __init__(self, storage: Storage, args: argparse.Namespace) -> None:
        self.storage = storage
        self.service = GameService(storage)
        self.args = args
        self.rng = random.Random(args.seed)
        self.people: set[asyncio.Task[None]] = set()

    async def open(self, person: Player, level: str, computers: int) -> None:
        chat_id = person.user_id  # a private chat's id is its person's
        settings = ChatSettings(turn_timeout=0, ai_level=level)
        await self.storage.settings.set(chat_id, settings)
        await self.storage.users.mark_started(person.user_id)
        seats = ComputerSeats(self.service)
        await seats.new_solo(chat_id, person)
        for _ in range(computers - 1):
            await seats.add(chat_id, person, level=level)
        started = await self.service.start(chat_id, person.user_id, is_admin=no)
        assert started.record is not None
        self.person_turn(started.record)

    def published(self, outcome: Outcome) -> None:
        if outcome.record is not None:
            self.person_turn(outcome.record)

    def person_turn(self, record: GameRecord) -> None:
        """If it is the person's turn in ``record``, they move ``--think`` seconds later."""
        state = record.game.state
        if record.game.phase is Phase.PLAYING and state is not None and 0 in state.acting:
            task = asyncio.get_running_loop().create_task(self.play(record.game.chat_id))
            self.people.add(task)
            task.add_done_callback(self.people.discard)

    async def play(self, chat_id: int) -> None:
        await asyncio.sleep(self.args.think)
        record = await self.storage.games.get(chat_id)
        if record is None or record.game.state is None or 0 not in record.game.state.acting:
            return
        state = record.game.state
        action = self.rng.choice(legal_actions(state, 0))
        outcome = await self.service.play(
            chat_id, record.game.game_id, state.moves, Move.of(action), chat_id
        )
        if outcome.record is not None:
            self.person_turn(outcome.record)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    # The defaults, or AI_* from the environment; the token is never used (no bot is made).
    settings = Settings(bot_token=SecretStr("123:" + "x" * 35), _env_file=None)
    with tempfile.TemporaryDirectory() as workdir:
        server = RedisServer(Path(workdir))
        server.start()
        redis = redis_client(server.url, max_connections=settings.redis_connections)
        try:
            await server.wait_ready()
            storage = Storage.create(redis, "bench", default_settings=ChatSettings())
            bench = Bench(storage, args)
            turns = ComputerTurns(
                bench.service,
                storage.computer_turns,
                bench.published,
                pause=settings.ai_pause,
                budget_ms=args.budget_ms or settings.ai_budget_ms,
                per_second=args.per_second or settings.ai_decisions_per_second,
                processes=settings.ai_processes if args.processes is None else args.processes,
            )
            for index in range(args.solo):
                await bench.open(Player(PERSONS + index, "P"), args.level, args.computers)
            for index in range(args.normal):
                await bench.open(Player(PERSONS + args.solo + index, "N"), "normal", 1)
            cpu, started = time.process_time(), time.monotonic()
            turns.start()
            await asyncio.sleep(args.seconds)
            cpu_share = (time.process_time() - cpu) / (time.monotonic() - started)
            await turns.stop()
            for task in list(bench.people):
                task.cancel()
        finally:
            await redis.aclose()
            server.stop()
    report: dict[str, Any] = {"bot_cpu_share": round(cpu_share, 2)}
    for level in sorted({args.level, "normal"}):
        count, buckets = histogram(level)
        if count:
            report[level] = {
                "moves_per_s": round(count / args.seconds, 1),
                "decision_s_p50": at_most(buckets, count, 0.5),
                "decision_s_p99": at_most(buckets, count, 0.99),
                "decision_s_max": at_most(buckets, count, 1.0),
            }
        report[f"{level}_degraded"] = {
            reason: REGISTRY.get_sample_value(
                "durak_computer_degraded_total", {"level": level, "reason": reason}
            )
            or 0
            for reason in ("short_budget", "overrun")
        }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--solo", type=int, default=200)
    parser.add_argument("--computers", type=int, default=5)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--normal", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=1.0, help="seconds a person takes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, help="AI_BUDGET_MS")
    parser.add_argument("--per-second", type=float, help="AI_DECISIONS_PER_SECOND")
    parser.add_argument("--processes", type=int, help="AI_PROCESSES")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = asyncio.run(run(args))
    for key, value in report.items():
        print(f"{key}: {value}")
    if args.json:
        print(json.dumps(report))


if __name__ == "__main__":
    main()
