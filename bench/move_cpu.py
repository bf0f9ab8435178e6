"""The CPU of a Mini App move's own path, alone: the page's move through
``bot.playing.make_move`` (the service's decision, the compare-and-set, the save),
with a real Redis and no Telegram, no pages, nothing else running in the process:

    PYTHONPATH=. .venv/bin/python -m bench.move_cpu [--games 20] [--rounds 200]

Four-player games, a random legal move of a seat that may act in each game in turn,
timed with the thread's CPU clock (``time.thread_time``) around each move only, on the
bot's own event loop (``bot.__main__.new_event_loop``: uvloop where installed). Uses
``DURAK_TEST_REDIS_URL`` or starts a throwaway ``redis-server``. The load benchmark
(``bench.load --webapp``) measures a move with everything around it; this is the part
of it that is the move itself.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from bot.__main__ import new_event_loop
from bot.model import ChatSettings, GameRecord
from bot.playing import MoveRequest, make_move
from bot.services import GameService, Player
from bot.storage import Storage
from bot.storage.connect import redis_client
from bot.ui.callbacks import encode_action
from engine import legal_actions
from tests.e2e.harness import delete_prefixed, on_test_redis
from tests.webapp.games import deal

PLAYERS = 4


@dataclass
class MoveCpu:
    moves: int = 0
    seconds: float = 0.0  # CPU

    @property
    def per_move_us(self) -> float:
        return self.seconds / max(self.moves, 1) * 1e6


async def _dealt(service: GameService, chat_id: int) -> GameRecord:
    """A four-player game in chat ``chat_id``, dealt."""
    players = [Player(-chat_id * 10 + seat, f"Игрок {seat}") for seat in range(PLAYERS)]
    return await deal(service, chat_id, *players)


async def measure(redis_url: str, games: int, rounds: int, seed: int) -> MoveCpu:
    """``rounds`` moves in each of ``games`` games (fewer where a game ends)."""
    redis = redis_client(redis_url)
    prefix = f"movecpu{uuid.uuid4().hex[:8]}"
    storage = Storage.create(redis, prefix, default_settings=ChatSettings(turn_timeout=30))
    service = GameService(storage)
    rng = random.Random(seed)
    spent = MoveCpu()
    try:
        records = {chat: await _dealt(service, chat) for chat in range(-1001, -1001 - games, -1)}
        for round_number in range(rounds):
            for chat, record in records.items():
                state = record.game.state
                if state is None or state.finished:
                    continue
                seat = next(s for s in range(state.players) if legal_actions(state, s))
                action = rng.choice(legal_actions(state, seat))
                request = MoveRequest(chat, record.game.game_id, state.moves, encode_action(action))
                user_id = record.game.players[seat].user_id
                played: list[GameRecord] = []
                started = time.thread_time()
                once = storage.updates.page_press(user_id, str(round_number))
                outcome = await make_move(
                    service, played.append, request, user_id, once=once, picks=False
                )
                spent.seconds += time.thread_time() - started
                if not played:
                    raise AssertionError(f"a legal move was refused: {outcome}")
                spent.moves += 1
                records[chat] = played[0]
    finally:
        await delete_prefixed(redis, prefix)
        await redis.aclose()
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as workdir,
        asyncio.Runner(loop_factory=new_event_loop) as runner,
    ):
        run = functools.partial(measure, games=args.games, rounds=args.rounds, seed=args.seed)
        spent = runner.run(on_test_redis(Path(workdir), run))
    print(f"{spent.moves} moves: {spent.per_move_us:.0f} µs of CPU a move (the move's own path)")


if __name__ == "__main__":
    main()
