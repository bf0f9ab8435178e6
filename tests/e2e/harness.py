"""Driving the real bot end to end: the bot runs as a subprocess (``python -m bot``) against
``FakeTelegram`` and a real Redis; ``Table`` plays the humans of one group chat, pressing
only buttons the bot shows."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import NamedTuple, TypeVar

from redis.asyncio import Redis
from redis.exceptions import AuthenticationError as RedisAuthenticationError
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.delivery.drafts import render
from bot.delivery.plan import Picks, hand_slot, slots_of, table_slot
from bot.i18n import SUPPORTED, translator
from bot.model import GameRecord, Phase
from bot.schema.presses import Move
from bot.storage import Keys
from bot.storage.games import GameStore
from bot.storage.keys import namespace
from bot.ui.callbacks import HandPress, LobbyPress, decode_press
from bot.ui.common import name as player_name
from bot.ui.render import Rendered, hand_scene, hand_view, lobby_view, table_scene, table_view
from bot.ui.settings import setting_name, value_about, value_words
from engine import Action

from .fake_telegram import (
    CallbackAnswer,
    FakeChat,
    FakeMessage,
    FakeTelegram,
    FakeUser,
    parse_html,
)

ROOT = Path(__file__).resolve().parents[2]

T = TypeVar("T")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """A ``redis-server`` of a test's own on a free port. ``persistent``: an append-only
    file written at every command, so a test may kill it and start it again losing
    nothing, as in production (docker-compose.yml)."""

    def __init__(
        self, workdir: Path, *, persistent: bool = False, args: Sequence[str] = ()
    ) -> None:
        self.workdir = workdir
        self.persistent = persistent
        self.args = list(args)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        persistence = ["--appendonly", "yes", "--appendfsync", "always"]
        if not self.persistent:
            persistence = ["--appendonly", "no"]
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             *persistence, "--dir", str(self.workdir), *self.args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip

    async def wait_ready(self, timeout: float = 10.0) -> None:
        client = Redis.from_url(self.url)
        try:
            async with asyncio.timeout(timeout):
                while True:
                    try:
                        await client.ping()
                        return
                    except RedisAuthenticationError:  # up, and wants a password
                        return
                    except (OSError, RedisConnectionError):
                        await asyncio.sleep(0.05)
        finally:
            await client.aclose()

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


async def delete_prefixed(redis: Redis, prefix: str) -> None:
    """Every key under ``prefix:`` goes (a benchmark's own, after it)."""
    keys = [key async for key in redis.scan_iter(match=f"{prefix}:*")]
    if keys:
        await redis.delete(*keys)


async def on_test_redis(workdir: Path, run: Callable[[str], Awaitable[T]]) -> T:
    """``run`` on ``DURAK_TEST_REDIS_URL``, or on a throwaway ``redis-server`` (for a
    benchmark command run by hand)."""
    url = os.environ.get("DURAK_TEST_REDIS_URL")
    if url:
        return await run(url)
    server = RedisServer(workdir)
    server.start()
    try:
        await server.wait_ready()
        return await run(server.url)
    finally:
        server.stop()


class SentinelGroup:
    """A primary, its replica (``--replicaof``) and one sentinel watching them, each a
    ``redis-server`` of the test's own on a free port. One sentinel is a quorum of one:
    enough to fail over, and quick (it notices a silent primary after ``DOWN_AFTER_MS``)."""

    SERVICE = "durak"
    DOWN_AFTER_MS = 500

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        for name in ("primary", "replica", "sentinel"):
            (workdir / name).mkdir(exist_ok=True)
        # Without the delay a replica's first sync waits 5 s for others to join it.
        args = ["--logfile", "redis.log", "--repl-diskless-sync-delay", "0"]
        self.primary = RedisServer(workdir / "primary", args=args)
        self.replica = RedisServer(
            workdir / "replica",
            args=[*args, "--replicaof", "127.0.0.1", str(self.primary.port)],
        )
        self.sentinel_port = free_port()
        self.sentinel: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The bot's ``REDIS_URL`` for this group."""
        return f"redis+sentinel://127.0.0.1:{self.sentinel_port}/{self.SERVICE}/0"

    def sentinel_client(self) -> Redis:
        return Redis(host="127.0.0.1", port=self.sentinel_port, decode_responses=True)

    async def start(self, timeout: float = 15.0) -> None:
        """All three up, the replica in sync, and the sentinel in touch with the replica
        (else it would have nobody to promote: ``NOGOODSLAVE``)."""
        self.primary.start()
        await self.primary.wait_ready()
        self.replica.start()
        await self.replica.wait_ready()
        replica = Redis.from_url(self.replica.url, decode_responses=True)
        try:
            async with asyncio.timeout(timeout):
                while (await replica.info("replication")).get("master_link_status") != "up":
                    await asyncio.sleep(0.05)
        finally:
            await replica.aclose()
        config = self.workdir / "sentinel" / "sentinel.conf"
        config.write_text(
            f"port {self.sentinel_port}\n"
            "bind 127.0.0.1\n"
            f"dir {self.workdir / 'sentinel'}\n"
            "logfile sentinel.log\n"
            f"sentinel monitor {self.SERVICE} 127.0.0.1 {self.primary.port} 1\n"
            f"sentinel down-after-milliseconds {self.SERVICE} {self.DOWN_AFTER_MS}\n"
            f"sentinel failover-timeout {self.SERVICE} 5000\n"
        )
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.sentinel = subprocess.Popen(
            [binary, str(config), "--sentinel"],
            cwd=self.workdir / "sentinel",
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = self.sentinel_client()
        try:
            async with asyncio.timeout(timeout):
                while True:
                    if self.sentinel.poll() is not None:
                        raise RuntimeError(f"the sentinel exited:\n{self.log()}")
                    with contextlib.suppress(OSError, RedisConnectionError):
                        replicas = await client.sentinel_slaves(self.SERVICE)
                        if any(
                            r["port"] == self.replica.port
                            and r["flags"] == "slave"
                            and r["master-link-status"] == "ok"
                            for r in replicas
                        ):
                            return
                    await asyncio.sleep(0.05)
        except TimeoutError:
            raise TimeoutError(f"the sentinel never saw the replica:\n{self.log()}") from None
        finally:
            await client.aclose()

    async def primary_port(self) -> int:
        """The port of the primary as the sentinel names it now."""
        client = self.sentinel_client()
        try:
            address = await client.sentinel_get_master_addr_by_name(self.SERVICE)
            assert isinstance(address, tuple), address
            return int(address[1])
        finally:
            await client.aclose()

    async def wait_promoted(self, timeout: float = 20.0) -> None:
        """Until the sentinel names the replica as the primary, and the replica says so."""
        replica = Redis.from_url(self.replica.url, decode_responses=True)
        try:
            async with asyncio.timeout(timeout):
                while (
                    await self.primary_port() != self.replica.port
                    or (await replica.info("replication"))["role"] != "master"
                ):
                    await asyncio.sleep(0.05)
        except TimeoutError:
            raise TimeoutError(f"the replica was not promoted:\n{self.log()}") from None
        finally:
            await replica.aclose()

    def log(self) -> str:
        """The three servers' logs, for a failure's message."""
        parts = []
        for name in ("primary", "replica", "sentinel"):
            for path in (self.workdir / name).glob("*.log"):
                parts.append(f"--- {name}\n{path.read_text(errors='replace')[-4000:]}")
        return "\n".join(parts)

    def stop(self) -> None:
        if self.sentinel is not None and self.sentinel.poll() is None:
            self.sentinel.terminate()
            self.sentinel.wait(10)
        self.replica.stop()
        self.primary.stop()


def plain(html_text: str) -> str:
    """A Telegram HTML text as users see it."""
    return parse_html(html_text)[0]


def bot_namespace(fake: FakeTelegram, prefix: str) -> str:
    """The bot's own part of Redis under ``prefix`` (its ``REDIS_PREFIX``), as the bot
    started against ``fake`` uses it (``bot.storage.keys.namespace``)."""
    return namespace(prefix, int(fake.token.split(":", 1)[0]))


class BotProcess:
    """``python -m bot`` pointed at the fake and the test Redis."""

    def __init__(
        self,
        fake: FakeTelegram,
        redis_url: str,
        prefix: str,
        workdir: Path,
        **env: str,
    ) -> None:
        self.fake = fake
        self.env = {
            **os.environ,
            "BOT_TOKEN": fake.token,
            "TELEGRAM_API_URL": fake.base_url,
            "REDIS_URL": redis_url,
            "REDIS_PREFIX": prefix,
            "DEFAULT_TURN_TIMEOUT": "0",
            "AI_PAUSE": "0",  # computer players move at once
            "LOG_LEVEL": "INFO",
            "PYTHONPATH": str(ROOT),
            **env,
        }
        self.workdir = workdir
        self.module = "bot"  # what ``python -m`` runs (``bench.task_cpu`` wraps the bot)
        self.process: subprocess.Popen[bytes] | None = None
        self.runs = 0

    @property
    def log_path(self) -> Path:
        return self.workdir / f"bot-{self.runs}.log"

    async def start(self, timeout: float = 90.0) -> None:
        """Start the bot and wait until it polls for updates (or set its webhook). Seconds
        on an idle machine (importing aiogram); much longer on a loaded one: the deadline
        only catches a bot that never starts."""
        self.runs += 1
        polls, hooks = self.fake.polls_started, self.fake.world.webhooks_set
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", self.module],
                cwd=self.workdir,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while self.fake.polls_started <= polls and self.fake.world.webhooks_set <= hooks:
            if self.process.poll() is not None:
                raise RuntimeError(f"the bot exited at start:\n{self.log()}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the bot never polled:\n{self.log()}")
            await asyncio.sleep(0.02)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    async def stop(self, timeout: float = 15.0) -> int:
        """SIGTERM and wait; the exit code."""
        process = self.process
        if process is None or process.poll() is not None:
            return -1 if process is None else int(process.returncode)
        process.send_signal(signal.SIGTERM)
        return await self._wait(timeout)

    async def kill(self) -> None:
        """SIGKILL: no chance to finish anything."""
        process = self.process
        if process is not None and process.poll() is None:
            process.kill()
            await self._wait(10)

    async def _wait(self, timeout: float) -> int:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while self.process.poll() is None:
            if time.monotonic() > deadline:
                self.process.kill()
                self.process.wait()
                raise TimeoutError(f"the bot did not stop:\n{self.log()}")
            await asyncio.sleep(0.05)
        return int(self.process.returncode)


def shown_deadline(message: FakeMessage | None) -> float | None:
    """The turn deadline a hand message shows (its date-time entity), if any."""
    found = re.search(r'<tg-time unix="(\d+)"', (message.raw_text or "") if message else "")
    return None if found is None else float(found.group(1))


def _private_outdated(message: FakeMessage | None, record: GameRecord) -> list[str]:
    """``Table.outdated`` for a game in a person's private chat: its one message shows the
    lobby, or the person's view with their buttons (as the outbox renders it, with or
    without a card picked for the two-step cover)."""
    game, state = record.game, record.game.state
    slots = slots_of(record, {})
    if not slots:  # the person blocked the bot: nothing to show
        return []
    seat = slots[0].seat
    picks: list[Picks] = [{}]
    if seat is not None and state is not None and game.phase is Phase.PLAYING:
        person = game.players[seat].user_id
        picks += [{person: (state.moves, card)} for card in state.hand(seat)]
    now = time.time()
    differences = [
        _difference(message, render(record, slots_of(record, pick)[0], pick, now)) for pick in picks
    ]
    return [] if None in differences else [f"private: {differences[0]}"]


def _difference(message: FakeMessage | None, rendered: Rendered) -> str | None:
    """How ``message`` differs from ``rendered`` (its text as the bot sends it, and its
    buttons), in a few words; None if it shows exactly that."""
    if message is None or message.deleted:
        return "no message"
    if message.raw_text != rendered.text:
        shown = (message.raw_text or "").splitlines()
        wanted = rendered.text.splitlines()
        line = next(
            (i for i, pair in enumerate(zip(shown, wanted, strict=False)) if pair[0] != pair[1]),
            min(len(shown), len(wanted)),
        )
        got = shown[line] if line < len(shown) else ""
        want = wanted[line] if line < len(wanted) else ""
        return f"line {line + 1} shows {got[:60]!r}, not {want[:60]!r}"
    rows = [] if rendered.markup is None else rendered.markup.inline_keyboard
    expected = [[(b.text, b.callback_data or b.url) for b in row] for row in rows]
    if message.button_rows() != expected:
        return f"buttons {message.button_rows()}, not {expected}"
    return None


STALE = {translator(language).t("answer-stale") for language in SUPPORTED}


def _moved_on(record: GameRecord, *, moves: int) -> bool:
    state = record.game.state
    return state is not None and (state.moves != moves or state.finished)


@dataclass
class Stats:
    """What a played game cost."""

    moves: int = 0
    presses: int = 0
    answer_latencies: list[float] = field(default_factory=list)
    calls: int = 0
    max_group_window: int = 0

    @property
    def calls_per_move(self) -> float:
        return self.calls / self.moves if self.moves else 0.0

    def latency(self, quantile: float) -> float:
        values = sorted(self.answer_latencies)
        if not values:
            return 0.0
        if quantile == 0.5:
            return statistics.median(values)
        return values[min(len(values) - 1, round(quantile * (len(values) - 1)))]


class Waiter:
    """How a ``Table`` waits: for something the fake shows (``wait_for``), and between two
    reads of Redis (``pause``). This one wakes on every change of the fake and sleeps between
    reads: right for the few tables of a test. The load benchmark (``bench.load``) gives
    each of its hundreds of tables a waiter woken only by the calls about its own chats."""

    def __init__(self, fake: FakeTelegram) -> None:
        self.fake = fake

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float) -> T:
        return await self.fake.wait_for(predicate, timeout)

    async def pause(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class DealerAsked(NamedTuple):
    """``Table.dealer_asked``: the record asking, the lobby message, who names, the other."""

    record: GameRecord
    lobby: FakeMessage
    dealer: FakeUser
    other: FakeUser


class Table:
    """One group chat and its players, as seen by the test. ``patience`` multiplies every
    timeout (a bot under load is slower)."""

    def __init__(
        self,
        fake: FakeTelegram,
        redis: Redis,
        prefix: str,
        players: Sequence[FakeUser],
        *,
        group: FakeChat | None = None,
        waiter: Waiter | None = None,
        patience: float = 1.0,
    ) -> None:
        self.fake = fake
        self.redis = redis
        self.keys = Keys(bot_namespace(fake, prefix))
        self.players = list(players)
        self.group = group or fake.add_group("Durak night", creator=players[0], members=players)
        self.by_id = {user.id: user for user in players}
        self.waiter = waiter or Waiter(fake)
        self.patience = patience
        self.message_ids: dict[str, int] = {}  # slot -> message, as of the last ``record``

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 5.0) -> T:
        return await self.waiter.wait_for(predicate, timeout * self.patience)

    async def answer(self, query_id: str, timeout: float = 5.0) -> CallbackAnswer:
        """The bot's answer to a press (``FakeTelegram.callback_answer`` through the waiter)."""
        query = self.fake.callback_query(query_id)
        return await self.wait_for(lambda: query.answer, timeout)

    # -- reading ---------------------------------------------------------------------------

    async def record(self) -> GameRecord | None:
        """The game as the bot reads it (the turn deadline in force: ``bot.turn_clock``),
        and the ids of the messages that show it (``message_ids``: the outbox's own,
        ``bot.storage.outbox``), read at one moment."""
        chat = self.group.id
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.get(self.keys.game(chat))
            pipe.zscore(self.keys.deadlines(), str(chat))
            pipe.hgetall(self.keys.sent(chat))
            raw, in_force, sent = await pipe.execute()
        self.message_ids = {_text(slot): _message_id(value) for slot, value in sent.items()}
        record, unreadable = GameStore.read(raw, None if in_force is None else float(in_force))
        if unreadable is not None:
            raise unreadable
        return record

    async def wait_record(
        self, check: Callable[[GameRecord], bool], timeout: float = 10.0
    ) -> GameRecord:
        deadline = time.monotonic() + timeout * self.patience
        while True:
            record = await self.record()
            if record is not None and check(record):
                return record
            if time.monotonic() > deadline:
                raise TimeoutError(f"record never satisfied the check: {record!r}")
            await self.waiter.pause(0.01)

    def table_message_id(self, record: GameRecord) -> int | None:
        """The id of the message showing ``record``'s table (or, in a private game, all of
        it), as of the last ``record``."""
        return self.message_ids.get(table_slot(record.game.game_id))

    def table_message(self, record: GameRecord) -> FakeMessage | None:
        mid = self.table_message_id(record)
        return None if mid is None else self.fake.message(self.group, mid)

    def hand_message(self, record: GameRecord, user: FakeUser) -> FakeMessage | None:
        """The message that shows ``user`` their hand: in a private game, its one message
        (``bot.delivery.plan.player_slot``)."""
        if record.game.private:
            return self.table_message(record)
        mid = self.message_ids.get(hand_slot(record.game.game_id, user.id))
        return None if mid is None else self.fake.message(self.fake.private_chat(user), mid)

    @staticmethod
    def hand_presses(message: FakeMessage | None) -> list[HandPress]:
        if message is None:
            return []
        return [
            HandPress.unpack(b.callback_data)
            for b in message.all_buttons()
            if b.callback_data and b.callback_data.startswith("h:")
        ]

    async def lobby_message(self, timeout: float = 10.0) -> FakeMessage:
        record = await self.wait_record(lambda r: self.table_message_id(r) is not None, timeout)
        message = self.table_message(record)
        assert message is not None
        return message

    # -- acting ----------------------------------------------------------------------------

    async def all_start_bot(self) -> None:
        for user in self.players:
            self.fake.user_starts_bot(user)
        for user in self.players:
            await self.wait_for(partial(self.fake.last_bot_message, self.fake.private_chat(user)))

    async def gather(self) -> GameRecord:
        """/newgame by the first player, the others press Join; all seated."""
        first = self.players[0]
        self.fake.user_sends(first, self.group, "/newgame")
        lobby = await self.lobby_message()
        for user in self.players[1:]:
            await self.press_lobby(user, lobby, "join")
        return await self.wait_record(lambda r: len(r.game.players) == len(self.players))

    async def set_rule(self, key: str, value: str) -> None:
        """The group's creator (an admin) sends ``/set key value``; the bot confirms it, with
        what the value means where /settings tells it."""
        admin, ru = self.players[0], translator("ru")
        since = self.fake.last_message_id(self.group)
        self.fake.user_sends(admin, self.group, f"/set {key} {value}")
        words = value_words(key, value, ru)
        about = value_about(key, value, ru)
        if about is not None:
            words = ru.t("settings-about", value=words, about=about)
        reply = ru.t("settings-changed", name=setting_name(key, ru), value=words)
        await self.fake.wait_for_bot_message(self.group, plain(reply), since=since)

    async def teams_with_two_computers(self) -> tuple[FakeMessage, list[str | None]]:
        """Under ``teams: pairs`` (R-TEAM-1), both people sat down and the first added two
        computers: the lobby message and the bot's answers to the two additions."""
        anna = self.players[0]
        await self.all_start_bot()
        await self.set_rule("teams", "pairs")
        await self.gather()
        lobby = await self.lobby_message()
        added = [await self.press_lobby(anna, lobby, "bot+") for _ in range(2)]
        await self.wait_record(lambda r: len(r.game.players) == 4)
        return lobby, added

    async def dealer_asked(self) -> DealerAsked:
        """Under ``trump: dealer``, two players gathered and started, the bot asking the
        dealer to name the trump (R-TRUMP-1)."""
        await self.all_start_bot()
        await self.set_rule("trump", "dealer")
        await self.gather()
        lobby = await self.lobby_message()
        await self.press_lobby(self.players[0], lobby, "start")
        asking = await self.wait_record(lambda r: r.game.naming is not None)
        dealer = self.by_id[asking.game.naming or 0]
        other = next(user for user in self.players if user is not dealer)
        return DealerAsked(asking, lobby, dealer, other)

    async def press_lobby(self, user: FakeUser, message: FakeMessage, op: str) -> str | None:
        """Press a lobby/table button by its op; the pop-up text."""
        record = await self.wait_record(lambda r: self.table_message_id(r) == message.message_id)
        data = LobbyPress(game=record.game.game_id, op=op).pack()
        await self.wait_for(lambda: message.find_button(data) is not None)
        query = self.fake.user_presses(user, message, data)
        answer = await self.answer(query)
        return answer.text

    async def again(self, record: GameRecord, user: FakeUser | None = None) -> str | None:
        """Press «Сыграть ещё» on the finished game's table (by the group's creator unless
        ``user``); the pop-up text. ``deal`` then starts the new lobby."""
        message = self.table_message(record)
        assert message is not None
        return await self.press_lobby(user or self.players[0], message, "again")

    async def deal(self) -> GameRecord:
        lobby = await self.lobby_message()
        await self.press_lobby(self.players[0], lobby, "start")
        return await self.wait_record(lambda r: r.game.phase is Phase.PLAYING)

    async def start_game(self) -> GameRecord:
        """Everybody starts the bot in private, sits down, and the creator deals."""
        await self.all_start_bot()
        await self.gather()
        return await self.deal()

    async def settled(self, timeout: float = 15.0) -> GameRecord:
        """The record once every hand message shows it: each player who may act has
        buttons drawn at the current move count, nobody else has any."""
        deadline = time.monotonic() + timeout * self.patience
        while True:
            record = await self.record()
            if record is not None and self._shows(record):
                return record
            if time.monotonic() > deadline:
                raise TimeoutError(f"the hands never settled: {record!r}")
            await self.waiter.pause(0.005)

    async def drained(self, timeout: float = 15.0) -> None:
        """Until the bot has done all it means to do for this table's chats: every update
        was handed to it and none is still being handled (its key in ``bot.storage.workers``
        says ``run:``), and none of the chats is on the outbox's work list or has a note
        waiting (``bot.storage.outbox``, ``bot.storage.outbox``). A negative assertion
        («nothing more was sent») made after this follows the bot's last chance to send it;
        a quiet spell (``FakeTelegram.wait_idle``) also passes when a send is merely late."""
        chats = [self.group.id, *(user.id for user in self.players)]  # a private chat's id
        deadline = time.monotonic() + timeout * self.patience
        while not await self._drained(chats):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the bot never finished with the chats {chats}")
            await self.waiter.pause(0.01)

    async def _drained(self, chats: list[int]) -> bool:
        world = self.fake.world
        if world.undelivered:
            return False
        updates = [self.keys.update(u) for u in world.delivered_update_ids]
        if updates and any(
            isinstance(value, bytes) and value.startswith(b"run:")
            for value in await self.redis.mget(updates)
        ):
            return False
        async with self.redis.pipeline(transaction=True) as pipe:
            for chat in chats:
                pipe.zscore(self.keys.outbox(), str(chat))
                pipe.zscore(self.keys.notes_chats(), str(chat))
            waiting = await pipe.execute()
        return all(score is None for score in waiting)

    def _shows(self, record: GameRecord) -> bool:
        game, state = record.game, record.game.state
        if state is None:
            return False
        if game.phase is Phase.FINISHED:
            return True
        for seat, player in enumerate(game.players):
            if player.computer:  # no private chat
                continue
            user = self.by_id[player.user_id]
            message = self.hand_message(record, user)
            if message is None:
                return False
            presses = self.hand_presses(message)
            if any(p.moves != state.moves or p.game != game.game_id for p in presses):
                return False
            if bool(presses) != (seat in state.acting):
                return False
        return True

    def outdated(self, record: GameRecord) -> list[str]:
        """The messages of ``record``'s game that do not show it exactly as the bot renders
        it (text as sent, and buttons), each as ``"table: <how>"`` or ``"<player>: <how>"``.
        A hand in the middle of the two-step cover may show the targets of any card it
        holds. Empty: every message shows ``record``."""
        game = record.game
        if game.private:
            return _private_outdated(self.table_message(record), record)
        behind = []
        tr = translator(game.settings.language)
        if game.state is None or game.phase is Phase.LOBBY:
            table = lobby_view(game, tr)
        else:
            table = table_view(table_scene(game), tr)
        difference = _difference(self.table_message(record), table)
        if difference is not None:
            behind.append(f"table: {difference}")
        state = game.state
        if state is None:
            return behind
        for seat, player in enumerate(game.players):
            if player.computer:
                continue
            message = self.hand_message(record, self.by_id[player.user_id])
            tr = translator(player.language)
            picks = [None, *state.hand(seat)] if game.phase is Phase.PLAYING else [None]
            # The deadline is the one moment a render cannot know: when it was delivered.
            deadline = shown_deadline(message)
            scene = hand_scene(game, seat, deadline=deadline)
            differences = [
                _difference(message, hand_view(scene, tr, picked=card)) for card in picks
            ]
            if None not in differences:
                behind.append(f"{player.name}: {differences[0]}")
        return behind

    async def play_to_end(
        self, rng: random.Random, *, max_presses: int = 3000, stats: Stats | None = None
    ) -> GameRecord:
        """Press random shown buttons until the game is over."""
        for _ in range(max_presses):
            record = await self.settled()
            if record.game.phase is Phase.FINISHED:
                if stats is not None:
                    assert record.game.state is not None
                    stats.moves = record.game.state.moves
                return record
            buttons = self.hand_buttons(record)
            moves = record.game.state.moves if record.game.state else 0
            if not buttons:  # only computer players may act: they will
                await self.wait_record(partial(_moved_on, moves=moves))
                continue
            user, message, data = rng.choice(buttons)
            edits = message.edit_count
            query = self.fake.user_presses(user, message, data)
            answer = await self.answer(query, timeout=10)
            # Computer players move at once: a press may come after one changed the table.
            racing = bool(record.game.computers()) and answer.text in STALE
            assert answer.text is None or racing, f"unexpected pop-up {answer.text!r} for {data}"
            if stats is not None:
                stats.presses += 1
                stats.answer_latencies.append(self.answer_latency(query))
            await self._after_press(message, edits, moves)
        raise AssertionError(f"the game did not end within {max_presses} presses")

    async def _after_press(self, message: FakeMessage, edits: int, moves: int) -> None:
        """Wait until the press shows: the state moved on, or the presser's message
        changed (a pick step)."""
        deadline = time.monotonic() + 10
        while message.edit_count == edits:
            record = await self.record()
            state = record.game.state if record else None
            if state is not None and state.moves != moves:
                return
            if time.monotonic() > deadline:
                raise TimeoutError("the press never showed")
            await self.waiter.pause(0.005)

    async def press_random(self, record: GameRecord, rng: random.Random) -> None:
        """One random shown hand button, answered without a pop-up, and its effect shown."""
        user, message, data = rng.choice(self.hand_buttons(record))
        assert record.game.state is not None
        moves = record.game.state.moves
        edits = message.edit_count
        answer = await self.answer(self.fake.user_presses(user, message, data))
        assert answer.text is None, f"unexpected pop-up {answer.text!r} for {data}"
        await self._after_press(message, edits, moves)

    def hand_buttons(self, record: GameRecord) -> list[tuple[FakeUser, FakeMessage, str]]:
        """Every hand button shown now: (player, message, callback data)."""
        choices = []
        for player in record.game.players:
            if player.computer:
                continue
            user = self.by_id[player.user_id]
            message = self.hand_message(record, user)
            if message is None:
                continue
            for button in message.all_buttons():
                if button.callback_data and button.callback_data.startswith("h:"):
                    choices.append((user, message, button.callback_data))
        return choices

    def playable(self, record: GameRecord) -> list[tuple[FakeUser, FakeMessage, str]]:
        """The hand buttons shown now that were drawn for ``record``'s position (its game,
        its move count): what players who read their newest message may press."""
        game, state = record.game, record.game.state
        if state is None or game.phase is not Phase.PLAYING:
            return []
        return [
            (user, message, data)
            for user, message, data in self.hand_buttons(record)
            if (press := HandPress.unpack(data)).moves == state.moves and press.game == game.game_id
        ]

    def button_for(self, record: GameRecord, user: FakeUser, action: Action) -> str:
        """The callback data of the shown button that plays ``action``."""
        assert record.game.seat_of(user.id) is not None
        wanted = Move.of(action)  # the buttons are seat-free
        for _user, _message, data in self.hand_buttons(record):
            if _user is user and decode_press(HandPress.unpack(data).act) == wanted:
                return data
        raise AssertionError(f"{user.first_name} has no button for {action}")

    async def says(self, message: FakeMessage, html_text: str, timeout: float = 30) -> None:
        """Wait until ``message`` shows ``html_text`` (as Telegram shows HTML)."""
        text = plain(html_text)
        await self.waiter.wait_for(lambda: text in (message.text or ""), timeout)

    async def says_game_over(self, why: str = "none") -> GameRecord:
        """The game is over and its table names the durak (``why``: how they left, if they
        lost by leaving), or says it is a draw."""
        record = await self.record()
        assert record is not None and record.game.state is not None
        state = record.game.state
        assert state.finished and record.game.phase is Phase.FINISHED
        message = self.table_message(record)
        assert message is not None
        tr = translator(record.game.settings.language)
        if state.durak is None:
            await self.says(message, tr.t("table-draw"))
        else:
            durak = player_name(record.game, state.durak)  # a computer's with its mark
            await self.says(message, tr.t("table-order-durak", name=durak, why=why))
        return record

    def answer_latency(self, query_id: str) -> float:
        created = self.fake.callback_query(query_id).created_at
        for call in reversed(self.fake.calls("answerCallbackQuery")):
            if call.params.get("callback_query_id") == query_id:
                return call.at - created
        raise AssertionError(f"query {query_id} was never answered")


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _message_id(shown: bytes | str) -> int:
    """The message id in a value of the sent-message store (``bot.storage.outbox``)."""
    return int(_text(shown).partition(":")[0])
