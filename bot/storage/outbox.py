"""The outbox's shared state in Redis: which chats' messages may differ from their game, who
is bringing each one up to date, and how fast each chat may be written to.

A chat is on the work list (``{p}:outbox``) from the moment a change to show is saved (in the
same transaction as the game: ``queue_mark``) until a worker has made every message of the
game show it (``settle``). A worker process that dies mid-way leaves the chat on the list; its
lease expires and another worker (or the same process after a restart) finishes the job. So a
move that was saved is shown, whatever fails in between.

Per-chat budgets are kept here too (a GCRA "next free" time per chat, and Telegram's
retry-after as a key that expires), so every worker process keeps the same budget.

What the outbox last showed in each message slot, so that after a restart (or in another
worker process) it neither repeats an identical edit nor loses track of a message. The only
place that keeps the ids of the messages showing a game (its table, its hands).

One-off messages (replies, notices) waiting to be sent: a list per chat, in order, and
the chats that have any in a sorted set (scored by when the oldest came), so that any
worker process can send them: one that is stopped or killed leaves its chats' replies to
the others. A note is taken off its list only after it was sent (or given up), so a worker
killed in between leaves it for the next.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast, overload

from redis.asyncio import Redis

from engine import Card

from .keys import Keys, backlog, chat_ids, text
from .tx import Writes
from .workers import Leases, hold, let_go, milliseconds

# KEYS: the work list, the change counters, the re-checks, the chat's outbox lease, what the
# chat's messages show; ARGV: the chat, the change shown, when to look at the chat again (''
# for never), the worker letting go of the lease once the chat is settled ('' for none), the
# seconds what the messages show is kept, then slot and what its message shows, for each
# message whose new look is not saved yet. Those are saved whether or not the chat settles.
_SETTLE: Final = f"""
if #ARGV > 5 then
  redis.call('HSET', KEYS[5], unpack(ARGV, 6))
  redis.call('EXPIRE', KEYS[5], ARGV[5])
end
local current = redis.call('HGET', KEYS[2], ARGV[1])
if (not current) or current == ARGV[2] then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
  if ARGV[3] == '' then
    redis.call('ZREM', KEYS[3], ARGV[1])
  else
    redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
  end
  if ARGV[4] ~= '' then {let_go(4, 4)} end
  return 1
end
return 0
"""

# KEYS: the re-checks, the work list, the change counters; ARGV: now, how many at most. A
# chat due for a look goes on the work list as a change (unless it is there already, since
# earlier), so that a worker settling it meanwhile looks once more.
_RECHECK: Final = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, chat in ipairs(due) do
  redis.call('ZREM', KEYS[1], chat)
  redis.call('HINCRBY', KEYS[3], chat, 1)
  redis.call('ZADD', KEYS[2], 'NX', ARGV[1], chat)
end
return #due
"""

# GCRA (the "generic cell rate algorithm"): ``interval`` ms between messages on average, and
# up to ``tolerance`` ms ahead of that: a burst of tolerance / interval + 1 messages, then one
# per interval. Time is Redis's own, so every worker process agrees on it. ``take``: the
# chat's budget (its key and its "retry after" key), spent if it has room: 0, else the
# milliseconds to wait (nothing spent).
_TAKE_FUNCTION: Final = """
local function take(rate, block, interval, tolerance)
  local blocked = redis.call('PTTL', block)
  if blocked > 0 then return blocked end
  local time = redis.call('TIME')
  local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  local tat = tonumber(redis.call('GET', rate) or '0')
  if tat < now then tat = now end
  if tat - now > tolerance then return math.ceil(tat - now - tolerance) end
  local after = tat + interval
  redis.call('SET', rate, after, 'PX', math.ceil(after - now) + 1000)
  return 0
end
"""

# KEYS: the chat's budget, its "retry after"; ARGV: the interval and the tolerance (ms).
_TAKE: Final = (
    _TAKE_FUNCTION + "return take(KEYS[1], KEYS[2], tonumber(ARGV[1]), tonumber(ARGV[2]))\n"
)

# ``read(k, a)``: what a worker reads to bring a chat's messages up to date, in one reply (a
# script runs alone, so all of it is of one moment). KEYS from k on: the change counters,
# the game, the deadlines, the picks, the open pages, the chats whose one-off messages wait,
# the users who started the bot, what the chat's messages show; ARGV from a on: the chat,
# '1' to read what the messages show (else '0'), then (from a + 2) the users asked about.
_READ_FUNCTION: Final = """
local function read(k, a)
  local chat = ARGV[a]
  local started = {}
  if #ARGV > a + 1 then started = redis.call('SMISMEMBER', KEYS[k + 6], unpack(ARGV, a + 2)) end
  local sent = false
  if ARGV[a + 1] == '1' then sent = redis.call('HGETALL', KEYS[k + 7]) end
  return {
    redis.call('HGET', KEYS[k], chat),
    redis.call('GET', KEYS[k + 1]),
    redis.call('ZSCORE', KEYS[k + 2], chat),
    redis.call('HGETALL', KEYS[k + 3]),
    redis.call('HGETALL', KEYS[k + 4]),
    redis.call('ZSCORE', KEYS[k + 5], chat),
    started,
    sent,
  }
end
"""

# KEYS: the chat's outbox lease, then ``read``'s; ARGV: the worker taking or renewing the
# lease ('' for none), its milliseconds, then ``read``'s. Nil if another worker holds it.
_LOAD: Final = (
    _READ_FUNCTION + "if ARGV[1] ~= '' then\n" + hold(1, 1, 2, "false") + "end\nreturn read(2, 3)\n"
)

# KEYS: the chat's budget, its "retry after", the chat's outbox lease, then ``read``'s; ARGV:
# the interval and the tolerance (ms), '1' to read the chat if the budget has room (else
# '0'), the worker renewing the lease, its milliseconds, then ``read``'s. Nil if another
# worker holds the lease (nothing spent), else {the milliseconds to wait (0: spent), and
# if read, what ``read`` answers}.
_TAKE_AND_LOAD: Final = (
    _TAKE_FUNCTION
    + _READ_FUNCTION
    + hold(3, 4, 5, "false")
    + """
local wait = take(KEYS[1], KEYS[2], tonumber(ARGV[1]), tonumber(ARGV[2]))
if wait > 0 or ARGV[3] ~= '1' then return {wait} end
return {0, read(4, 6)}
"""
)


@dataclass(frozen=True, slots=True)
class Loaded:
    """What a worker reads to bring a chat's messages up to date (``DeliveryStore.load``)."""

    change: str
    game: bytes | None
    deadline: float | None  # the score in the deadlines set: see ``GameStore.read``
    picks: dict[int, tuple[int, Card]]
    pages: dict[int, float]  # user -> until when their Mini App page counts as open
    replies_since: float | None  # since when the chat's one-off messages wait (None: none)
    started: dict[int, bool]  # of the users asked about: may the bot write to them?
    sent: dict[str, Shown] | None  # slot -> what its message shows, if asked for


class DeliveryStore:
    def __init__(self, redis: Redis, keys: Keys, idle_ttl: int, leases: Leases) -> None:
        self.redis = redis
        self.keys = keys
        self.idle_ttl = idle_ttl
        self._settle = redis.register_script(_SETTLE)
        self._recheck = redis.register_script(_RECHECK)
        self._load = redis.register_script(_LOAD)
        self.leases = leases
        self._take = redis.register_script(_TAKE)
        self._take_and_load = redis.register_script(_TAKE_AND_LOAD)

    # -- the work list ----------------------------------------------------------------------

    def queue_mark(
        self,
        pipe: Writes,
        chat_id: int,
        now: float,
        saved: tuple[str, int] | None = None,
        origin: str | None = None,
    ) -> None:
        """In a transaction that saves a change to show: put the chat on the work list, and
        tell the Mini App's open pages (``bot.webapp.live``) in every worker; ``saved``: the
        game id and version written, and ``origin``: the process that saved them, if it
        hands its pages the record itself, named in that notice («chat game version
        [origin]»)."""
        pipe.hincrby(self.keys.outbox_seq(), str(chat_id), 1)
        pipe.zadd(self.keys.outbox(), {str(chat_id): now})
        notice = [str(chat_id)]
        if saved is not None:
            notice += [saved[0], str(saved[1])] + ([] if origin is None else [origin])
        if origin is None:
            pipe.publish(self.keys.live(), " ".join(notice))
        else:  # the saver's own pages have the record (``Live.saved``): not it, the others
            pipe.notify(self.keys.live(), " ".join(notice), self.keys.live_listener(origin))

    async def mark(self, chat_id: int, now: float) -> None:
        """A change to show that is not a game write (a picked card, a hand to send again)."""
        writes = Writes()
        self.queue_mark(writes, chat_id, now)
        await writes.send(self.redis)

    async def due(self, now: float, limit: int = 500) -> list[int]:
        """Chats whose messages may differ from their game, longest waiting first."""
        members = cast(
            "list[bytes]", await self.redis.zrangebyscore(self.keys.outbox(), "-inf", now, 0, limit)
        )
        return [int(text(m)) for m in members]

    async def backlog(self) -> tuple[int, float | None]:
        """How many chats are on the work list, and since when the oldest waits."""
        return await backlog(self.redis, self.keys.outbox())

    async def due_with_times(
        self, now: float, limit: int = 500, *, since: float | None = None
    ) -> dict[int, float]:
        """Like ``due``, with when each chat last changed (or was due for a retry);
        ``since``: only the chats that changed from then on."""
        # The reply as Redis gives it (member, score, member, ...), not through redis-py's
        # pairing, which turns each score into a float in Python calls of its own: the
        # outbox looks at the list every second, and under load it holds hundreds of chats.
        reply = await self.redis.execute_command(  # type: ignore[no-untyped-call]
            "ZRANGEBYSCORE",
            self.keys.outbox(),
            "-inf" if since is None else since,
            now,
            "WITHSCORES",
            "LIMIT",
            0,
            limit,
        )
        return {int(member): float(score) for member, score in _score_pairs(reply)}

    async def pending(self) -> int:
        """How many chats are on the work list."""
        return int(await self.redis.zcard(self.keys.outbox()))

    async def settle(
        self,
        chat_id: int,
        change: str,
        recheck_at: float | None = None,
        *,
        release: str | None = None,
        shown: Mapping[str, Shown] | None = None,
    ) -> bool:
        """Every message shows change ``change``: off the list, unless a newer one came.
        ``recheck_at``: a message still waits, for a time only (a player's hand while their
        Mini App page counts as open): the chat goes back on the list then (``recheck``).
        ``release``: the worker whose lease on the chat ends with it, in the same round trip
        (the lease stays when a newer change came). ``shown``: what messages show that is
        not saved yet (``SentStore``), saved in the same round trip, settled or not."""
        keys = self.keys
        entries = [word for slot, s in (shown or {}).items() for word in (slot, stored(s))]
        done = await self._settle(
            keys=[
                keys.outbox(),
                keys.outbox_seq(),
                keys.outbox_later(),
                keys.outbox_lease(chat_id),
                keys.sent(chat_id),
            ],
            args=[
                str(chat_id),
                change,
                "" if recheck_at is None else repr(recheck_at),
                release or "",
                self.idle_ttl,
                *entries,
            ],
        )
        return bool(done)

    async def recheck(self, now: float, limit: int = 500) -> int:
        """The chats whose time to be looked at again has come go back on the work list (see
        ``settle``); how many did."""
        moved = await self._recheck(
            keys=[self.keys.outbox_later(), self.keys.outbox(), self.keys.outbox_seq()],
            args=[repr(now), limit],
        )
        return int(moved)

    # -- leases: one worker per chat at a time -------------------------------------------------

    async def lease(self, chat_id: int, owner: str, seconds: float) -> bool:
        """Take or extend the chat's lease for ``owner``; False if another worker holds it."""
        return await self.leases.take(self.keys.outbox_lease(chat_id), owner, seconds)

    async def release(self, chat_id: int, owner: str) -> None:
        await self.leases.release(self.keys.outbox_lease(chat_id), owner)

    # -- budgets --------------------------------------------------------------------------

    async def take(self, chat_id: int, interval: float, tolerance: float) -> float:
        """Spend one message of the chat's budget: 0 if it may go now, else the seconds to
        wait (nothing spent). See ``_TAKE``."""
        wait_ms = await self._take(
            keys=[self.keys.outbox_rate(chat_id), self.keys.outbox_block(chat_id)],
            args=[int(interval * 1000), int(tolerance * 1000)],
        )
        return int(wait_ms) / 1000.0

    async def take_and_load(
        self,
        chat_id: int,
        interval: float,
        tolerance: float,
        owner: str,
        lease_seconds: float,
        users: Sequence[int] = (),
        *,
        load: bool = True,
    ) -> Taken | None:
        """``take`` and, if the budget had room and ``load``, ``load`` (without what the
        messages show), in one round trip that renews ``owner``'s lease on the chat; None,
        with nothing spent, if another worker holds that lease. A group's table asks so once
        it may go over all chats: the newest position is read with its group's budget."""
        keys = self.keys
        reply = await self._take_and_load(
            keys=[
                keys.outbox_rate(chat_id),
                keys.outbox_block(chat_id),
                keys.outbox_lease(chat_id),
                *self._read_keys(chat_id),
            ],
            args=[
                int(interval * 1000),
                int(tolerance * 1000),
                "1" if load else "0",
                owner,
                milliseconds(lease_seconds),
                *self._read_args(chat_id, users, sent=False),
            ],
        )
        if reply is None:
            return None
        wait_ms, *read = reply
        loaded = _loaded(read[0], users, sent=False) if read else None
        return Taken(int(wait_ms) / 1000.0, loaded)

    async def block(self, chat_id: int, seconds: float) -> None:
        """Telegram said "retry after": nothing goes to the chat until then."""
        await self.redis.set(self.keys.outbox_block(chat_id), "1", px=milliseconds(seconds))

    # -- the two-step cover: which card a player picked ---------------------------------------

    @overload
    async def load(
        self, chat_id: int, users: Sequence[int] = (), *, sent: bool = False
    ) -> Loaded: ...

    @overload
    async def load(
        self,
        chat_id: int,
        users: Sequence[int] = (),
        *,
        sent: bool = False,
        owner: str,
        lease_seconds: float,
    ) -> Loaded | None: ...

    async def load(
        self,
        chat_id: int,
        users: Sequence[int] = (),
        *,
        sent: bool = False,
        owner: str | None = None,
        lease_seconds: float = 0.0,
    ) -> Loaded | None:
        """In one round trip, at one moment (``_LOAD``): the chat's change counter (for
        ``settle``), its stored game (raw), its turn deadline in force, the cards its
        players picked (user -> the move count when picked, the card), their open pages,
        since when its one-off messages wait, which of ``users`` (the players the caller
        expects) started the bot and, with ``sent``, what the chat's messages show
        (``SentStore``). A worker reads this on every change it shows: one round trip and
        one reply keep its cost per move down. ``owner``: the worker whose lease on the
        chat (``lease``) is taken or renewed for ``lease_seconds`` in the same round trip;
        None if another worker holds it."""
        reply = await self._load(
            keys=[self.keys.outbox_lease(chat_id), *self._read_keys(chat_id)],
            args=[
                owner or "",
                milliseconds(lease_seconds),
                *self._read_args(chat_id, users, sent=sent),
            ],
        )
        return None if reply is None else _loaded(reply, users, sent=sent)

    def _read_keys(self, chat_id: int) -> list[str]:
        """The keys of the scripts' ``read``, in its order."""
        keys = self.keys
        return [
            keys.outbox_seq(),
            keys.game(chat_id),
            keys.deadlines(),
            keys.picks(chat_id),
            keys.pages(chat_id),
            keys.notes_chats(),
            keys.started(),
            keys.sent(chat_id),
        ]

    @staticmethod
    def _read_args(chat_id: int, users: Sequence[int], *, sent: bool) -> list[str]:
        """The arguments of the scripts' ``read``, in its order."""
        return [str(chat_id), "1" if sent else "0", *(str(u) for u in users)]

    # -- open Mini App pages: their players' hand messages wait -------------------------------

    async def pages_open(self, marks: Iterable[tuple[int, int, float]]) -> None:
        """For each mark (chat, user, until), in one round trip: the user's page shows the
        chat's game until ``until`` at least, so the outbox leaves their hand message alone
        (``bot.webapp.presence``) and looks at it again then. A worker that dies leaves
        entries that simply run out; each chat's key goes with the chat's idle time."""
        by_chat: dict[int, list[str]] = {}  # chat -> user, until, user, until ...
        for chat_id, user_id, until in marks:
            by_chat.setdefault(chat_id, []).extend((str(user_id), repr(until)))
        if not by_chat:
            return
        writes = Writes()
        for chat_id, entries in by_chat.items():
            key = self.keys.pages(chat_id)
            writes.hset(key, items=entries)
            writes.expire(key, self.idle_ttl)
        await writes.send(self.redis)

    async def page_closed(self, chat_id: int, user_id: int) -> None:
        """The user's page closed or went idle: their hand message catches up."""
        writes = Writes()
        writes.hdel(self.keys.pages(chat_id), str(user_id))
        self.queue_mark(writes, chat_id, time.time())
        await writes.send(self.redis)

    async def pick(self, chat_id: int, user_id: int, moves: int, card: Card | None) -> None:
        """Remember (or, with None, forget) the user's picked card, and show it."""
        key = self.keys.picks(chat_id)
        writes = Writes()
        if card is None:
            writes.hdel(key, str(user_id))
        else:
            writes.hset(key, str(user_id), f"{moves}:{card}")
            writes.expire(key, self.idle_ttl)
        self.queue_mark(writes, chat_id, time.time())
        await writes.send(self.redis)


@dataclass(frozen=True, slots=True)
class Taken:
    """What ``DeliveryStore.take_and_load`` answers: the seconds to wait for the chat's
    budget (0: a message of it was spent), and the chat as read then (None if not read)."""

    wait: float
    loaded: Loaded | None


def _loaded(reply: list[Any], users: Sequence[int], *, sent: bool) -> Loaded:
    """``Loaded`` from what the scripts' ``read`` answered."""
    change, game, deadline, picks, pages, replies, flags, shown = reply
    return Loaded(
        "" if change is None else text(change),
        game,
        None if deadline is None else float(deadline),
        _picks(_pairs(picks)),
        {int(text(user)): float(until) for user, until in _pairs(pages).items()},
        None if replies is None else float(replies),
        dict(zip(users, map(bool, flags), strict=True)),
        shown_in(_pairs(shown)) if sent else None,
    )


def _picks(raw: dict[bytes | str, bytes | str]) -> dict[int, tuple[int, Card]]:
    picks: dict[int, tuple[int, Card]] = {}
    for user, value in raw.items():
        moves, _, card = text(value).partition(":")
        try:
            picks[int(text(user))] = (int(moves), Card.parse(card))
        except ValueError:
            continue
    return picks


def _pairs(flat: list[Any]) -> dict[Any, Any]:
    """A hash as a script returns it (field, value, field, value...), as a dict."""
    return dict(zip(flat[::2], flat[1::2], strict=True))


def _score_pairs(reply: list[Any]) -> Iterable[tuple[bytes, bytes | float]]:
    """A sorted set's members with their scores, from a raw reply: pairs under RESP3 (a
    member and a number), every other word a score under RESP2 (a member and its text)."""
    if reply and isinstance(reply[0], list):
        return cast("list[tuple[bytes, float]]", reply)
    words = iter(reply)
    return zip(words, words, strict=True)


@dataclass(frozen=True, slots=True)
class Shown:
    """A message slot's message, the hash of its text and keyboard, and the key of the
    position it shows (see ``bot.delivery.plan.Slot.key``)."""

    message_id: int
    digest: str
    key: str = ""


class SentStore:
    def __init__(self, redis: Redis, keys: Keys, ttl: int) -> None:
        self.redis = redis
        self.keys = keys
        self.ttl = ttl

    async def load(self, chat_id: int) -> dict[str, Shown]:
        """Slot -> what its message shows."""
        return shown_in(await self.redis.hgetall(self.keys.sent(chat_id)))

    async def get(self, chat_id: int, slot: str) -> Shown | None:
        """What ``slot``'s message shows, if it was sent."""
        value = await self.redis.hget(self.keys.sent(chat_id), slot)
        return None if value is None else _shown(value)

    async def save(self, chat_id: int, shown: Mapping[str, Shown]) -> None:
        """What the messages of ``shown``'s slots show now, in one round trip."""
        key = self.keys.sent(chat_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(key, mapping={slot: stored(s) for slot, s in shown.items()})
            pipe.expire(key, self.ttl)
            await pipe.execute()

    async def forget(self, chat_id: int, slot: str) -> None:
        await self.redis.hdel(self.keys.sent(chat_id), slot)


def stored(shown: Shown) -> str:
    """How ``shown`` is kept in the chat's hash (``_shown`` reads it)."""
    return f"{shown.message_id}:{shown.digest}:{shown.key}"


def shown_in(raw: dict[Any, Any]) -> dict[str, Shown]:
    """The stored hash of a chat's slots (``HGETALL``) as slot -> what its message shows."""
    return {text(slot): _shown(value) for slot, value in raw.items()}


def _shown(value: bytes | str) -> Shown:
    message_id, _, rest = text(value).partition(":")
    digest, _, key = rest.partition(":")
    return Shown(int(message_id), digest, key)


MAX_QUEUED: Final = 20  # per chat; a flood of commands drops the oldest replies
TTL: Final = 3600  # a reply nobody could send for an hour is not worth sending

# Take the first note off the chat's list if it is still the one sent; the chat leaves the
# set of chats with notes when its list is empty (or expired).
_DONE: Final = """
if redis.call('LINDEX', KEYS[1], 0) == ARGV[1] then
  redis.call('LPOP', KEYS[1])
end
if redis.call('LLEN', KEYS[1]) == 0 then
  redis.call('ZREM', KEYS[2], ARGV[2])
  return 0
end
return 1
"""


class NoteStore:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        self._done = redis.register_script(_DONE)

    async def push(self, chat_id: int, raw: str, now: float) -> None:
        key = self.keys.notes(chat_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.rpush(key, raw)
            pipe.ltrim(key, -MAX_QUEUED, -1)
            pipe.expire(key, TTL)
            pipe.zadd(self.keys.notes_chats(), {str(chat_id): now}, nx=True)
            await pipe.execute()

    async def since(self, chat_id: int) -> float | None:
        """Since when the chat has notes waiting (None: it has none)."""
        score = await self.redis.zscore(self.keys.notes_chats(), str(chat_id))
        return None if score is None else float(score)

    async def first(self, chat_id: int) -> str | None:
        """The chat's oldest note waiting, if any."""
        raw = await self.redis.lindex(self.keys.notes(chat_id), 0)
        if raw is None:
            return None
        return text(raw)

    async def done(self, chat_id: int, raw: str) -> bool:
        """``raw`` went (or was given up): off the list. Whether more are waiting."""
        more = await self._done(
            keys=[self.keys.notes(chat_id), self.keys.notes_chats()], args=[raw, str(chat_id)]
        )
        return bool(more)

    async def waiting(self, limit: int = 100) -> list[int]:
        """Chats with notes waiting, oldest first."""
        members = await self.redis.zrange(self.keys.notes_chats(), 0, limit - 1)
        return chat_ids(members)

    async def backlog(self) -> tuple[int, float | None]:
        """How many chats have notes waiting, and since when the oldest has waited."""
        return await backlog(self.redis, self.keys.notes_chats())
