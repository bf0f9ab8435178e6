"""Several worker processes of the bot on one Redis, in webhook mode: the fake
Telegram delivers each update to one of two workers at random (as a reverse proxy would),
20 groups play at once with racing presses (two players pressing together, a double tap),
and one worker is killed (SIGKILL) mid-game. Every game still ends; no move is lost or
applied twice; every press is answered once; no message is sent twice; each group's
budget of sends and edits holds across the workers.

What a kill may leave, and the test allows: an update the killed worker was handling when
it died was never answered, so the fake sends it again to the other worker; if the killed
worker had already saved that press, the other finds the position moved on and says so
(the one press answered with a pop-up though it was applied), and if it had already
answered it, the answer is asked for twice. A message the killed worker had just sent but
not yet recorded may be sent again by the worker that takes the chat over. Those are
counted only for what was in flight at the kill, and only within a second before it."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import pytest_asyncio
from redis.asyncio import Redis

from bot.model import GameRecord, Phase
from bot.schema.presses import Move
from bot.ui.callbacks import HandPress, decode_press

from .conftest import LANGUAGES, NAMES
from .fake_telegram import FakeTelegram
from .harness import BotProcess, Table, free_port

# soak: 20 whole games on two workers, about 80 s (tests/soak.py)
pytestmark = [pytest.mark.e2e, pytest.mark.soak, pytest.mark.asyncio(loop_scope="module")]

GAMES = 20
GROUP_PER_MINUTE = 20
SECRET = "workers-secret"


@dataclass
class Cluster:
    fake: FakeTelegram
    redis: Redis
    prefix: str
    workers: list[BotProcess]
    addresses: list[str]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def cluster(
    redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Cluster]:
    prefix = f"e2e{uuid.uuid4().hex[:10]}"
    redis = Redis.from_url(redis_url)
    ports = [free_port(), free_port()]
    addresses = [f"http://127.0.0.1:{port}/tg-hook" for port in ports]
    try:
        async with FakeTelegram() as fake:
            fake.webhook.targets = addresses
            workers = [
                BotProcess(
                    fake,
                    redis_url,
                    prefix,
                    Path(tmp_path_factory.mktemp(f"worker{index}")),
                    BOT_MODE="webhook",
                    # What Telegram is told; the fake sends to the workers' own addresses.
                    WEBHOOK_URL="http://127.0.0.1:8443/tg-hook",
                    WEBHOOK_SECRET=SECRET,
                    WEBHOOK_LISTEN=f"127.0.0.1:{port}",
                    MESSAGES_PER_SECOND="250",
                    GROUP_MESSAGES_PER_MINUTE=str(GROUP_PER_MINUTE),
                )
                for index, port in enumerate(ports)
            ]
            for worker in workers:
                await worker.start()
            try:
                yield Cluster(fake, redis, prefix, workers, addresses)
            finally:
                for worker in workers:
                    assert worker.process is not None
                    if worker.process.poll() is None:
                        code = await worker.stop()
                        assert code == 0, f"a worker exited with {code}:\n{worker.log()}"
                    assert "Traceback" not in worker.log(), worker.log()
    finally:
        keys = [key async for key in redis.scan_iter(match=f"{prefix}:*", count=1000)]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()


@dataclass
class Presses:
    """Every hand press the players made: (query id, data), and the moves they asked for."""

    made: list[tuple[str, str]] = field(default_factory=list)

    def applied(self, fake: FakeTelegram) -> set[tuple[int, str]]:
        """The distinct moves answered without a pop-up: (presser, data). A double tap of
        one button is one move however it was answered."""
        done = set()
        for query_id, data in self.made:
            query = fake.callback_query(query_id)
            is_move = isinstance(decode_press(HandPress.unpack(data).act), Move)
            if is_move and query.answer is not None and query.answer.text is None:
                done.add((query.user.id, data))
        return done


async def play(table: Table, rng: random.Random, presses: Presses) -> GameRecord:
    """Random shown buttons until the game is over: sometimes two players at once,
    sometimes the same button twice."""
    fake = table.fake
    for _ in range(2000):
        record = await table.settled(timeout=60)
        if record.game.phase is Phase.FINISHED:
            return record
        buttons = table.playable(record)
        if not buttons:
            await asyncio.sleep(0.01)
            continue
        first = rng.choice(buttons)
        chosen = [first]
        others = [b for b in buttons if b[0] is not first[0]]
        if others and rng.random() < 0.5:
            chosen.append(rng.choice(others))  # two players press together
        elif rng.random() < 0.2:
            chosen.append(first)  # a double tap
        queries = []
        for user, message, data in chosen:
            queries.append(fake.user_presses_data(user, message, data))
            presses.made.append((queries[-1], data))
        for query in queries:
            await table.answer(query, timeout=60)
    raise AssertionError("a game did not end within 2000 presses")


def group_table(cluster: Cluster, index: int) -> Table:
    fake = cluster.fake
    users = [
        fake.add_user(f"{NAMES[i]}{index}", language_code=LANGUAGES[i], username=f"w{index}p{i}")
        for i in range(2 + index % 2)
    ]
    return Table(fake, cluster.redis, cluster.prefix, users, patience=6)


async def test_two_workers_one_killed_every_game_ends_and_nothing_doubles(
    cluster: Cluster,
) -> None:
    fake = cluster.fake
    tables = [group_table(cluster, index) for index in range(GAMES)]
    await asyncio.gather(*(table.start_game() for table in tables))
    presses = Presses()
    games = [
        asyncio.create_task(play(table, random.Random(index), presses))
        for index, table in enumerate(tables)
    ]

    # Kill the first worker once the games are well under way (about a third of the
    # presses), or when they all ended before that.
    await fake.wait_for(
        lambda: len(presses.made) >= GAMES * 50 or all(game.done() for game in games),
        timeout=600,
    )
    victim, address = cluster.workers[0], cluster.addresses[0]
    cut = {u for u, target in fake.webhook.in_flight.items() if target == address}
    killed_at = time.monotonic()  # the clock of the fake's call log
    await victim.kill()
    cut |= {u for u, target in fake.webhook.in_flight.items() if target == address}
    cut_queries = {
        update["callback_query"]["id"]
        for update in fake.world.updates
        if update["update_id"] in cut and "callback_query" in update
    }
    calls_at_kill = fake.mark()

    finished = await asyncio.wait_for(asyncio.gather(*games), timeout=600)
    await asyncio.gather(*(table.says_game_over() for table in tables))

    # Both workers served updates, and the survivor went on after the kill.
    served = Counter(target for _update, target in fake.webhook.deliveries)
    assert served[cluster.addresses[0]] > 0 and served[cluster.addresses[1]] > 0
    assert fake.calls(since=calls_at_kill), "nothing happened after the kill"

    # No move lost or applied twice: each game made exactly the moves that were answered
    # as made (the players are all people, with no turn timer, so every move is a press).
    applied = presses.applied(fake)
    for table, record in zip(tables, finished, strict=True):
        state = record.game.state
        assert state is not None and state.finished
        ours = {(user, data) for user, data in applied if user in table.by_id}
        excused = {
            (fake.callback_query(q).user.id, d)
            for q, d in presses.made
            if q in cut_queries and fake.callback_query(q).user.id in table.by_id
        }
        assert len(ours) <= state.moves <= len(ours | excused), table.group.id

    # Every press answered, and once (but a press cut by the kill may have been asked twice).
    answers = Counter(
        call.params.get("callback_query_id") for call in fake.calls("answerCallbackQuery")
    )
    for query_id, _data in presses.made:
        assert fake.callback_query(query_id).answer is not None, query_id
        if query_id not in cut_queries:
            assert answers[query_id] == 1, (query_id, answers[query_id])

    # No message sent twice: every sendMessage is a new text or keyboard for its chat,
    # except what the killed worker had sent within the second before it died.
    seen: dict[tuple[int | None, str, str], float] = {}
    resent = 0
    for call in fake.calls("sendMessage"):
        key = (call.chat_id, str(call.params.get("text")), str(call.params.get("reply_markup")))
        if key in seen:
            assert killed_at - 1.0 <= seen[key] <= killed_at, key
            resent += 1
        seen[key] = call.at

    # Each group's budget held across the two workers. The fake times a call when its event
    # loop gets to it, which on a loaded machine is seconds after the worker spent the
    # budget on it, squeezing calls together: the window is one budget interval short of a
    # minute (with one budget, at most 18 calls fit in it as spent; with each worker keeping
    # its own, twice as many).
    interval = 60.0 / (GROUP_PER_MINUTE - 4)
    busiest = max(
        fake.max_sends_and_edits_in_window(table.group, window=60.0 - interval) for table in tables
    )
    assert busiest <= GROUP_PER_MINUTE
    print(  # the figures of the run, for the README (pytest -s)
        f"workers: {dict(served)} updates served; {len(presses.made)} presses, "
        f"{len(applied)} moves; {len(cut_queries)} presses cut by the kill, "
        f"{sum(answers[q] > 1 for q in cut_queries)} of them answered twice; "
        f"{resent} messages sent again after the kill; "
        f"busiest group {busiest} sends+edits in {60.0 - interval:.2f} s"
    )
