"""The tables of the load benchmark (``bench.load``): seating a group, or a person alone
against computers in private; the people of a table pressing the buttons they are shown;
and what the fake saw of it, read from its call log as it grows."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from redis.asyncio import Redis

from bot.handlers.telegram import fit_popup
from bot.i18n import SUPPORTED, MessageFormatError, all_message_ids, translator
from bot.model import GameRecord, Phase
from bot.schema.presses import Move
from bot.ui.callbacks import ADD_LEVELS, HandPress, LobbyOp, decode_press
from tests.e2e.fake_telegram import CallbackQueryRecord, FakeTelegram, FakeUser
from tests.e2e.fake_telegram.world import FLOOD_COUNTED_METHODS
from tests.e2e.harness import Stats, Table, Waiter

from .turns_seen import TurnLog

NAMES = ("Аня", "Борис", "Вера", "Гена", "Даша", "Егор")
LANGUAGES = ("ru", "uk", "ru", "uk", "ru", "ru")
SUCCESS_ANSWERS = frozenset({"answer-created", "answer-joined", "answer-left", "answer-started"})
PATIENCE = 6.0  # a table's timeouts (5 s for an answer) are this many times longer here
# ... and while the tables are seated: under Telegram's budget a reply waits behind the
# moves of the games already dealt.
SETUP_PATIENCE = 60.0

T = TypeVar("T")


class ChatWaiter(Waiter):
    """A table's waiter woken by ``CallWatch`` only for calls about its own chats, so that
    hundreds of tables do not all wake at every call the fake gets."""

    def __init__(self, fake: FakeTelegram) -> None:
        super().__init__(fake)
        self.changed = asyncio.Event()

    def arm(self) -> None:
        """From now on, ``woken`` returns at the next call about this table's chats."""
        self.changed.clear()

    async def woken(self, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self.changed.wait()

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float) -> T:
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout} s")
            self.arm()
            await self.woken(remaining)

    async def pause(self, seconds: float) -> None:
        # Between two reads of Redis: what the bot saves, it shows soon after.
        self.arm()
        await self.woken(max(seconds, 0.05))


@dataclass
class Tally:
    """What the fake saw of the presses made during the load."""

    stats: Stats = field(default_factory=Stats)  # hand presses, applied moves, latencies
    people_latencies: list[float] = field(default_factory=list)  # in groups without computers
    lobby_presses: int = 0
    refusals: Counter[str] = field(default_factory=Counter)  # in the groups
    solo_refusals: Counter[str] = field(default_factory=Counter)


class CallWatch:
    """Reads the fake's call log as it grows: wakes the table each call is about, notes the
    buttons each person was shown (``TurnLog``), and counts the answers to presses made
    from ``start`` until ``until`` (the load) and the sends and edits in that time."""

    def __init__(self, fake: FakeTelegram) -> None:
        self.fake = fake
        self.seen = fake.mark()
        self.waiters: dict[int, ChatWaiter] = {}  # chat id -> its table's waiter
        self.with_computers: set[int] = set()  # the groups where computer players sit
        self.group_chats: set[int] = set()  # the groups and their people's private chats
        self.solo_chats: set[int] = set()  # the private chats of people playing alone
        self.turns = TurnLog()
        self.sent: Counter[str] = Counter()  # "group" or "solo" -> sends and edits
        self.tally = Tally()
        self.start = self.until = 0.0
        self.popups = _popup_ids()

    def add(self, waiter: ChatWaiter, chat_ids: Iterable[int], *, solo: bool = False) -> None:
        for chat_id in chat_ids:
            self.waiters[chat_id] = waiter
            (self.solo_chats if solo else self.group_chats).add(chat_id)

    async def run(self) -> None:
        signal_ = self.fake.world.signal
        while True:
            self.catch_up()
            await signal_.wait_changed(1.0)

    def catch_up(self) -> None:
        """Read the calls made since the last reading."""
        calls = self.fake.calls(since=self.seen)
        self.seen = self.fake.mark()
        for call in calls:
            self.turns.call(call)
            chat_id = call.chat_id
            if call.method == "answerCallbackQuery":
                query = self.fake.callback_query(str(call.params.get("callback_query_id")))
                chat_id = query.message.chat.id
                if self.start <= query.created_at < self.until:
                    self._count(query, call.at, call.params)
            elif call.ok and call.method in FLOOD_COUNTED_METHODS:
                self._sent(call.chat_id, call.at)
            waiter = self.waiters.get(chat_id) if chat_id is not None else None
            if waiter is not None:
                waiter.changed.set()

    def _sent(self, chat_id: int | None, at: float) -> None:
        if chat_id is not None and self.start <= at < self.until:
            self.sent["solo" if chat_id in self.solo_chats else "group"] += 1

    def pressed_queries(self) -> list[CallbackQueryRecord]:
        """The presses made during the load."""
        return [
            query
            for query in self.fake.world.callback_queries.values()
            if self.start <= query.created_at < self.until
        ]

    def game_chat(self, query: CallbackQueryRecord) -> int:
        """The chat of the game a press is about (a hand's press comes from private)."""
        if query.data.startswith("h:"):
            return HandPress.unpack(query.data).chat
        return query.message.chat.id

    def refusals(self, query: CallbackQueryRecord) -> Counter[str]:
        """Where a refusal of ``query`` is counted: the groups' or the solo games'."""
        tally = self.tally
        return tally.solo_refusals if self.game_chat(query) in self.solo_chats else tally.refusals

    def _count(self, query: CallbackQueryRecord, answered: float, params: dict[str, Any]) -> None:
        tally, data, pressed = self.tally, query.data, query.created_at
        text = params.get("text") or None
        kind = None if text is None else self.popups.get(str(text), "other")
        if not data.startswith("h:"):
            tally.lobby_presses += 1
        else:
            tally.stats.presses += 1
            tally.stats.answer_latencies.append(answered - pressed)
            if kind is None and isinstance(decode_press(HandPress.unpack(data).act), Move):
                tally.stats.moves += 1
                self.turns.moved(data, pressed)
            chat = self.game_chat(query)
            if chat not in self.with_computers and chat not in self.solo_chats:
                tally.people_latencies.append(answered - pressed)
        if kind is not None and kind not in SUCCESS_ANSWERS:
            self.refusals(query)[kind] += 1


def _popup_ids() -> dict[str, str]:
    """Pop-up text -> its message id, for every ``answer-*`` and ``error-*`` message that
    takes no variable, in every language."""
    ids: dict[str, str] = {}
    for lang in SUPPORTED:
        tr = translator(lang)
        for message_id in sorted(all_message_ids(lang)):
            if message_id.startswith(("answer-", "error-")):
                with contextlib.suppress(MessageFormatError):
                    text = tr.t(message_id)
                    ids.setdefault(text, message_id)
                    ids.setdefault(fit_popup(text), message_id)
    return ids


class Players:
    """The people of one table (a group, or one person alone against computers in private),
    pressing as fast as the bot answers, or ``think`` seconds (at random between half and
    one and a half times that) after they see their buttons."""

    def __init__(
        self, table: Table, waiter: ChatWaiter, watch: CallWatch, seed: int, think: float
    ) -> None:
        self.table = table
        self.waiter = waiter
        self.watch = watch
        self.rng = random.Random(seed)
        self.think = think
        self.games = 0
        self.stuck = 0

    async def play(self) -> None:
        """Press until cancelled."""
        table = self.table
        while True:
            self.waiter.arm()
            record = await table.record()
            if record is None:
                raise RuntimeError(f"the game of {table.group!r} is gone from Redis")
            self.watch.turns.read(record, time.monotonic())
            try:
                if record.game.phase is Phase.FINISHED:
                    self.games += 1
                    await self.ponder()
                    await table.again(record)
                    await table.deal()
                    continue
                if record.game.phase is Phase.LOBBY:
                    await table.deal()
                    continue
            except TimeoutError:
                self.stuck += 1  # the table never showed the button, or the answer
                continue
            choices = table.playable(record)
            if not choices:
                await self.waiter.woken(1.0)
                continue
            user, message, data = self.rng.choice(choices)
            await self.ponder()
            if message.find_button(data) is None:
                continue  # the keyboard changed while the person thought (a turn timeout)
            query = self.table.fake.user_presses(user, message, data)
            with contextlib.suppress(TimeoutError):  # counted as "unanswered" at the end
                await table.answer(query, timeout=30 / PATIENCE)

    async def ponder(self) -> None:
        """A person's thinking before a press: the pace of the load, not a wait for the bot."""
        if self.think > 0:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)


async def seat_group(
    fake: FakeTelegram,
    redis: Redis,
    prefix: str,
    watch: CallWatch,
    index: int,
    players: int,
    computers: tuple[str, ...],
) -> tuple[Table, ChatWaiter]:
    """A group of ``players`` people: Start in private, ``/newgame`` and «Играю», an
    ``/addbot`` for each of ``computers``, and «Начать»."""
    users: list[FakeUser] = []
    for seat in range(players):
        users.append(
            fake.add_user(
                f"{NAMES[seat % len(NAMES)]} {index + 1}",
                language_code=LANGUAGES[seat % len(LANGUAGES)],
                username=f"g{index}p{seat}",
            )
        )
    waiter = ChatWaiter(fake)
    group = fake.add_group(f"Стол {index + 1}", creator=users[0], members=users)
    table = Table(fake, redis, prefix, users, group=group, waiter=waiter, patience=SETUP_PATIENCE)
    watch.add(waiter, [table.group.id, *(user.id for user in users)])
    await table.all_start_bot()
    await table.gather()
    for count, level in enumerate(computers, start=players + 1):
        watch.with_computers.add(group.id)
        fake.user_sends(users[0], group, f"/addbot {level}")
        await table.wait_record(functools.partial(has_seats, count=count))
    await table.deal()
    table.patience = PATIENCE
    return table, waiter


async def seat_solo(
    fake: FakeTelegram,
    redis: Redis,
    prefix: str,
    watch: CallWatch,
    index: int,
    computers: int,
    level: str,
) -> tuple[Table, ChatWaiter]:
    """A person alone in private: Start, ``/play``, the lobby's buttons to seat
    ``computers`` computers of ``level`` (the one seated at first out if it is of another
    level), and «Начать»."""
    user = fake.add_user(
        f"{NAMES[index % len(NAMES)]} соло {index + 1}",
        language_code=LANGUAGES[index % len(LANGUAGES)],
        username=f"s{index}",
    )
    chat = fake.private_chat(user)
    waiter = ChatWaiter(fake)
    table = Table(fake, redis, prefix, [user], group=chat, waiter=waiter, patience=SETUP_PATIENCE)
    watch.add(waiter, [chat.id], solo=True)
    await table.all_start_bot()
    fake.user_sends_private(user, "/play")
    lobby = await table.lobby_message()
    record = await table.wait_record(functools.partial(has_seats, count=2))
    seated = 2
    if record.game.players[1].level != level:
        await table.press_lobby(user, lobby, LobbyOp.REMOVE_COMPUTER)
        seated = 1
        await table.wait_record(functools.partial(has_seats, count=seated))
    add = next(op for op, its_level in ADD_LEVELS.items() if its_level == level)
    for count in range(seated + 1, computers + 2):
        await table.press_lobby(user, lobby, add)
        await table.wait_record(functools.partial(has_seats, count=count))
    await table.deal()
    table.patience = PATIENCE
    return table, waiter


def has_seats(record: GameRecord, *, count: int) -> bool:
    return len(record.game.players) == count
