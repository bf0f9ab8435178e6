"""One group's game as one Redis value, changed only by compare-and-set.

``GameStore.update(chat_id, decide)`` reads the value, lets ``decide`` compute the next
value from it, and writes that value together with everything that follows from it (the
user index, the turn deadline, the TTL) in one compare-and-set (``bot.storage.tx``): if
anybody wrote the key in between, nothing is written and ``decide`` runs again on the new
value, a bounded number of times: two presses at the same moment are both applied, in some
order, each to the state the other left behind; nothing is lost, doubled or reordered.

A write that ends a game by its play (``GameRecord.has_result``) also counts it in the
statistics (``StatsStore.queue_finished``), in the same write: counted if and only if the
finishing move is saved, so exactly once. It rates it too (``RatingStore.queue_rated``): a
rating does not add up as a count does, so that write also compares the people's ratings,
which an attempt that finds the game ending reads first (``_CompareMore``); so does a write
that deals a game, for the ratings its seats show (``Seat.rating``). Given the claim
of the update (or the page's press) the change comes from (``once``), the compare-and-set
also compares and marks it, so a press delivered twice saves once (``bot.storage.workers``).
``update_with_settings`` also compares the chat's settings and hands them to ``decide``, so
a lobby is never dealt by settings that changed before it was saved.

A stored value this version cannot read (``UnreadableRecord``: corruption) does not stop
the bot: the first read moves it to ``{p}:broken:{chat}`` (kept for ``BROKEN_TTL``, for an
operator), logs one warning, and the chat has no game. A record a newer version of the bot
saved (``NewerRecord``: its schema is above ``SCHEMA``, in a rolling upgrade or after a
rollback) is never changed here: every read of it raises, nothing is written, and the game
waits for a newer worker (``durak_games_newer_total``).

**The format.** Every record written carries ``"schema": SCHEMA``. Reading one, ``upgrade`` applies
``UPGRADES[n]`` for each older version ``n`` in turn, so a bot that is upgraded while games are
running reads them all. A format change adds one function here (``n -> n + 1``, pure, on the JSON
dict) and raises ``SCHEMA``; the test of each step keeps an old record of that version. A record
of a newer version is ``NewerRecord``, left as it is; one this code cannot read otherwise
(corruption) is ``UnreadableRecord``: ``GameStore`` moves it aside for an operator rather than
stop on it.

**The deadlines** (``DeadlineStore``): sorted sets of chat ids scored by a time: the turn
deadlines (when the bot acts for a person whose time ran out) and the computers' turns
(since when a computer player is due to act).

``GameStore`` writes them together with each game (``GameRecord.deadline``,
``GameRecord.computers_at``); the sweeper and the computer players only read them, so a
restart loses nothing. One write of the deadlines is not the game's: the start of the turn
clock when the buttons were shown (``start_clock``, see ``bot.turn_clock``), which only
ever lowers the deadline in force, and only while the game is at the position shown.

**A group that becomes a supergroup** gets a new chat id (Telegram's ``migrate_to_chat_id``):
``move_chat`` moves what the bot keeps under the old id to the new one in one transaction: the game
(with the user index and the turn deadline that follow it), the settings (unless the new chat
already has its own: they are newer) and the statistics (added to any the new chat has); it leaves
``{p}:moved:{old}`` pointing to the new id, so a press on a keyboard drawn for the old id still
finds the game. The admin cache follows after it (a cache: best effort). A second call finds
nothing left under the old id and changes nothing.

Which game ends up where is the caller's decision (``decide``, pure, may run again):
``bot.services.games.GameService.migrate_chat``.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from redis.asyncio import Redis

from bot import jsontext
from bot.metrics import GAMES_BROKEN, GAMES_NEWER
from bot.model import ChatSettings, GameRecord, Phase

from .chats import AnswerCache, SettingsStore
from .finished import FinishedStore
from .keys import Keys, chat_ids, text
from .outbox import DeliveryStore
from .players import RatingStore, StatsStore
from .tx import Seen, Writes, transact
from .workers import AlreadyApplied, Claim

log = logging.getLogger(__name__)

T = TypeVar("T")

BROKEN_TTL: Final = 30 * 86_400  # seconds an unreadable record is kept for an operator


class Keep:
    """``decide`` returns ``KEEP`` to leave the value as it is."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Final = Keep()

Saved = GameRecord | Keep | None
"""What a decision leaves of a chat's game: the record to save, ``KEEP`` (nothing to save)
or None (delete the game)."""
SavedSettings = ChatSettings | Keep
"""What a decision leaves of a chat's settings: the settings to save, or ``KEEP``."""


def encode(record: GameRecord) -> str:
    return jsontext.dumps({"schema": SCHEMA, **record.to_dict()})


def decode(raw: str | bytes) -> GameRecord:
    """The stored record, upgraded from an older format if need be; ``UnreadableRecord``
    if this version cannot read it."""
    try:
        return GameRecord.from_dict(upgrade(jsontext.loads(raw)))
    except UnreadableRecord:
        raise
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise UnreadableRecord(f"{type(error).__name__}: {error}") from error


Decide = Callable[[GameRecord | None], tuple[GameRecord | Keep | None, T]]
DecideWithSettings = Callable[
    [GameRecord | None, ChatSettings],
    tuple[GameRecord | Keep | None, ChatSettings | Keep, T],
]
""" ``decide`` of ``update_with_settings``: the new record, the chat's new settings (saved
in the same transaction), and the result."""


class GameStore:
    """Games by group chat id. Writes go through ``update`` only (or, across two chats,
    ``bot.storage.chats``, which uses the ``read``/``queue_*`` steps below)."""

    def __init__(
        self,
        redis: Redis,
        keys: Keys,
        delivery: DeliveryStore,
        *,
        settings: SettingsStore,
        stats: StatsStore,
        ratings: RatingStore,
        finished: FinishedStore,
        finished_ttl: int,
        idle_ttl: int,
    ) -> None:
        self.redis = redis
        self.keys = keys
        self.delivery = delivery
        self.settings = settings
        self.stats = stats
        self.ratings = ratings
        self.finished = finished
        self.finished_ttl = finished_ttl
        self.idle_ttl = idle_ttl
        # Told of every record this process saved that changes what the game shows, at
        # once, before its notice through Redis can come back (the Mini App's pages here:
        # ``bot.webapp.live.Live.saved``).
        self.on_saved: Callable[[GameRecord], None] | None = None
        self.origin = secrets.token_hex(6)  # this process, in the notices of what it saved

    async def get(self, chat_id: int) -> GameRecord | None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.get(self.keys.game(chat_id))
            pipe.zscore(self.keys.deadlines(), str(chat_id))
            raw, in_force = await pipe.execute()
        record, unreadable = self.read(raw, in_force)
        if unreadable is not None:
            # ``update`` moves it aside (once, with the warning); the chat has no game now.
            return await self.update(chat_id, lambda record: (KEEP, record))
        return record

    async def update(
        self, chat_id: int, decide: Decide[T], *, once: Claim | None = None, shown: bool = True
    ) -> T:
        """Apply ``decide`` atomically; see the module docstring. ``decide`` returns the new
        record (its version is set here), ``None`` to delete the game, or ``KEEP``, and a
        result handed back to the caller. It may run several times: keep it pure.

        ``once``: the claim of the update (or page press) this change comes from; the change
        is saved only if no other delivery of it saved one (else ``AlreadyApplied``), and
        marks it applied in the same write.

        ``shown=False`` is for bookkeeping that changes nothing any message shows (a message
        id, the start of the turn clock): the version stays, and the outbox is not asked to
        look at the chat again."""

        def without_settings(
            record: GameRecord | None, _settings: ChatSettings | None
        ) -> tuple[GameRecord | Keep | None, ChatSettings | Keep, T]:
            new, result = decide(record)
            return new, KEEP, result

        return await self._update(chat_id, None, without_settings, once, shown)

    async def update_with_settings(
        self, chat_id: int, decide: DecideWithSettings[T], *, once: Claim | None = None
    ) -> T:
        """``update``, with the chat's settings read in the same transaction (compared too:
        a settings change between the read and the write makes ``decide`` run again) and
        new settings, if ``decide`` returns any, saved with the record."""

        def with_settings(
            record: GameRecord | None, settings: ChatSettings | None
        ) -> tuple[GameRecord | Keep | None, ChatSettings | Keep, T]:
            assert settings is not None
            return decide(record, settings)

        return await self._update(chat_id, self.settings, with_settings, once, True)

    async def _update(
        self,
        chat_id: int,
        settings: SettingsStore | None,
        decide: Callable[
            [GameRecord | None, ChatSettings | None],
            tuple[GameRecord | Keep | None, ChatSettings | Keep, T],
        ],
        once: Claim | None,
        shown: bool,
    ) -> T:
        key = self.keys.game(chat_id)
        watched = [key] if settings is None else [key, settings.key(chat_id)]
        if once is not None:
            watched.append(once.key)
        # What the last attempt saved, for what follows a save that went through.
        saved: list[Callable[[], None]] = []

        async def attempt(seen: Seen, pipe: Writes) -> T:
            saved.clear()
            if once is not None and not once.holds(seen.values[once.key]):
                raise AlreadyApplied(once.key)
            raw = seen.values[key]
            current, unreadable = self.read(raw, seen.reads[0])
            chat_settings = None
            if settings is not None:
                chat_settings = settings.decode(seen.values[settings.key(chat_id)])
            before = Footprint.of(current)  # ``decide`` may change ``current``
            new, new_settings, result = decide(current, chat_settings)
            broken = None if unreadable is None else raw
            if isinstance(new, Keep) and isinstance(new_settings, Keep) and broken is None:
                return result
            if once is not None:
                once.queue_applied(pipe)
            if broken is not None:
                self.queue_quarantine(pipe, chat_id, broken)
            finishes = isinstance(new, GameRecord) and before.playing and new.has_result
            if isinstance(new, GameRecord) and (finishes or before.deals(new)):
                # The deal shows the people's ratings, the final move changes them: read
                # (and compared) with the game.
                compared = self.ratings.keys_for(new.game)
                if any(key not in seen.values for key in compared):
                    raise _CompareMore(compared)
                if finishes:
                    new.game.rated = self.ratings.queue_rated(pipe, new.game, seen.values)
                else:
                    self.ratings.show_dealt(new.game, seen.values)
            if not isinstance(new, Keep):
                self.queue_write(pipe, chat_id, before, new, shown=shown, told=True)
            elif broken is not None:
                pipe.delete(key)
            if not isinstance(new_settings, Keep):
                assert settings is not None
                settings.queue_set(pipe, chat_id, new_settings)
            if unreadable is not None:
                saved.append(functools.partial(self.warn_unreadable, chat_id, unreadable))
            if shown and isinstance(new, GameRecord) and self.on_saved is not None:
                saved.append(functools.partial(self.on_saved, new))
            return result

        deadline = self.deadline_read(chat_id)
        while True:
            try:
                result = await transact(
                    self.redis, watched, attempt, what=f"game {chat_id}", reads=[deadline]
                )
                break
            except _CompareMore as more:  # read them too, and decide again
                watched = [*watched, *(key for key in more.keys if key not in watched)]
        for then in saved:
            then()
        return result

    # -- the steps of a transaction, for ``update`` and ``bot.storage.chats`` ----------------

    @staticmethod
    def read(
        raw: bytes | str | None, in_force: float | bytes | None = None
    ) -> tuple[GameRecord | None, UnreadableRecord | None]:
        """The record in ``raw`` (None if there is none), or why it cannot be read: then
        the caller's transaction must ``queue_quarantine`` it and write the key anew.
        ``in_force``: the chat's score in the deadlines set, read with ``raw``. A record of
        a newer version raises ``NewerRecord``: nothing may be written over it."""
        if raw is None:
            return None, None
        try:
            return _with_deadline(decode(raw), in_force), None
        except UnreadableRecord as error:
            return None, error
        except NewerRecord:
            GAMES_NEWER.inc()
            raise

    def deadline_read(self, chat_id: int) -> tuple[str, str, str]:
        """For ``transact``'s ``reads``: the chat's turn deadline in force (its score in the
        deadlines set, which the start of the turn clock lowers without writing the game).
        Not compared at the write: it only ever moves earlier for the position the game is
        at, and every other change of it comes with a write of the game."""
        return ("ZSCORE", self.keys.deadlines(), str(chat_id))

    def queue_quarantine(self, pipe: Writes, chat_id: int, raw: bytes | str) -> None:
        """Keep an unreadable value under ``{p}:broken:{chat}`` for an operator (the caller
        then writes the game key anew, or deletes it)."""
        pipe.set(self.keys.broken(chat_id), raw, ex=BROKEN_TTL)

    def warn_unreadable(self, chat_id: int, error: UnreadableRecord) -> None:
        GAMES_BROKEN.inc()
        log.warning(
            "the game of chat %s cannot be read (%s); moved to %s",
            chat_id,
            error,
            self.keys.broken(chat_id),
            extra={"chat": chat_id},
        )

    def queue_write(
        self,
        pipe: Writes,
        chat_id: int,
        old: Footprint,
        new: GameRecord | None,
        *,
        shown: bool = True,
        told: bool = False,
    ) -> None:
        """Replace the game whose footprint was ``old`` by ``new`` (None: delete it), with
        everything that follows: the user index, the turn deadline, the TTLs, the statistics
        of a game it ends,
        and (unless ``shown`` is False) the outbox's work list. ``told``: ``on_saved`` will
        be told of ``new`` once saved, so its notice names this process (``origin``).
        """
        key = self.keys.game(chat_id)
        old_seated = old.seated
        new_seated = _seated(new)
        if new is None:
            pipe.delete(key)
        else:
            new.game.version = old.version + 1 if shown else old.version
            finished = new.game.phase is Phase.FINISHED
            ttl = self.finished_ttl if finished else self.idle_ttl
            pipe.set(key, encode(new), ex=ttl)
            pipe.expire(self.keys.sent(chat_id), ttl)
        for user_id in old_seated.keys() - new_seated.keys():
            pipe.hdel(self.keys.user_games(user_id), str(chat_id))
        for user_id, game_id in new_seated.items():
            if old_seated.get(user_id) != game_id:
                pipe.hset(self.keys.user_games(user_id), str(chat_id), game_id)
            pipe.expire(self.keys.user_games(user_id), self.idle_ttl)
        if new is not None and new.game.phase is Phase.PLAYING:
            pipe.sadd(self.keys.playing(), str(chat_id))
        else:
            pipe.srem(self.keys.playing(), str(chat_id))
        now = Footprint.of(new)
        _score(pipe, self.keys.deadlines(), chat_id, old.deadline, now.deadline)
        _score(pipe, self.keys.computers(), chat_id, old.computers_at, now.computers_at)
        if new is not None:
            if old.playing and new.has_result:
                self.stats.queue_finished(pipe, new.game)
                self.finished.queue_keep(pipe, new.game, time.time())
            if shown:
                saved = (new.game.game_id, new.game.version)
                origin = self.origin if told and self.on_saved is not None else None
                self.delivery.queue_mark(pipe, chat_id, time.time(), saved, origin)

    async def playing(self) -> int:
        """How many games are being played."""
        return int(await self.redis.scard(self.keys.playing()))

    async def active_chats(self) -> list[int]:
        """Chats with a game in any phase (a scan: for start-up only)."""
        chats = []
        async for key in self.redis.scan_iter(match=self.keys.game_pattern(), count=500):
            chats.append(self.keys.chat_of_game_key(text(key)))
        return chats


@dataclass(frozen=True, slots=True)
class Footprint:
    """What a stored record implies outside its key (the user index, the deadline, the
    computers' turn), and whether it was being played (a write that finishes it counts it)."""

    version: int
    seated: dict[int, str]
    deadline: float | None
    computers_at: float | None = None
    playing: bool = False
    game_id: str = ""

    @classmethod
    def of(cls, record: GameRecord | None) -> Footprint:
        if record is None:
            return cls(0, {}, None)
        game = record.game
        playing = game.phase is Phase.PLAYING
        return cls(
            game.version,
            _seated(record),
            record.deadline,
            record.computers_at,
            playing,
            game.game_id,
        )

    def deals(self, new: GameRecord) -> bool:
        """Whether writing ``new`` over the record this is of deals a game."""
        dealt = new.game.phase is Phase.PLAYING
        return dealt and not (self.playing and self.game_id == new.game.game_id)

    def at_least(self, version: int) -> Footprint:
        """The same, with a version no lower than ``version`` (versions never go back)."""
        return dataclasses.replace(self, version=max(self.version, version))


def _with_deadline(record: GameRecord, in_force: float | str | bytes | None) -> GameRecord:
    """``record`` with the turn deadline in force: its saved deadline (set by its last
    move), lowered to the chat's score in the deadlines set once the clock started
    (``bot.turn_clock``)."""
    if record.deadline is not None and in_force is not None:
        record.deadline = min(record.deadline, float(in_force))
    return record


def _seated(record: GameRecord | None) -> dict[int, str]:
    """Users sitting in an unfinished lobby or game of ``record``, with its game id."""
    if record is None or record.game.phase is Phase.FINISHED:
        return {}
    game = record.game
    return {seat.user_id: game.game_id for seat in game.players if not seat.computer}


def _score(pipe: Writes, key: str, chat_id: int, old: float | None, new: float | None) -> None:
    """Keep ``chat_id``'s score in the sorted set ``key`` in step with the record."""
    if new is None:
        pipe.zrem(key, str(chat_id))
    elif old != new:
        pipe.zadd(key, {str(chat_id): new})


SCHEMA: Final = 7


class _CompareMore(Exception):
    """A write needs ``keys`` compared too, which were not read (the people's ratings, for
    the final move of a game): ``GameStore._update`` reads them as well and runs again."""

    def __init__(self, keys: list[str]) -> None:
        super().__init__(keys)
        self.keys = keys


class UnreadableRecord(ValueError):
    """A stored game this version of the bot cannot read."""


class NewerRecord(Exception):
    """A stored game a newer version of the bot saved: this version leaves it as it is, to
    a newer worker, and says so to whoever acted on it (``bot.handlers``, the Mini App)."""

    def __init__(self, schema: int) -> None:
        super().__init__(f"record schema {schema}; this bot writes {SCHEMA}")
        self.schema = schema


def _from_1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 had no ``schema`` field and no ``x.gone`` (the bot was removed from the
    group; see ``GameRecord.gone``): nobody was ever gone then."""
    extra = dict(data.get("x") or {})
    extra.setdefault("gone", False)
    return {**data, "x": extra}


def _from_2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 had no computer players: no ``x.computers_at`` (nobody of them due) and no
    ``settings.ai_level`` (the level a computer is seated with: ``normal``)."""
    extra = {**(data.get("x") or {}), "computers_at": None}
    settings = {"ai_level": "normal", **(data.get("settings") or {})}
    return {**data, "x": extra, "settings": settings}


def _from_3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 3 kept the ids of the messages showing the game (``table_msg``, ``hand_msgs``),
    written back by the outbox; they are the outbox's own now (``bot.storage.outbox``, which
    held them already), and the game is written only by the move that changes it."""
    return {key: value for key, value in data.items() if key not in ("table_msg", "hand_msgs")}


def _from_4(data: dict[str, Any]) -> dict[str, Any]:
    """Version 4 had no ratings (``rated``, a seat's ``r``) and no blind games (the rule
    ``blind``, RULES.md section 14), all of them optional: its records read as they are.
    The version rose because a worker of version 4 cannot read a blind game's rules: it
    leaves every newer record to the newer workers (``NewerRecord``) instead of taking a
    blind game for a corrupt one."""
    return data


def _from_5(data: dict[str, Any]) -> dict[str, Any]:
    """Version 5 kept no ``deal`` (the seed, the dealt position and the actions: a game's
    record, docs/FAIR-DEAL.md), which is optional: a game dealt by version 5 reads as it is
    and ends without a record. The version rose so that a worker of version 5, which would
    write such a game back without its deal, leaves it to the newer workers."""
    return data


def _from_6(data: dict[str, Any]) -> dict[str, Any]:
    """Version 6 kept no count of each seat's covers turned up and caught false in the
    ``doubt`` game (R-DOUBT-3, the state's ``doubted`` and ``caught``), which read as zeros
    when absent: a game of version 6 reads as it is. The version rose so that a worker of
    version 6, which would write a game back without them, leaves it to the newer workers."""
    return data


UPGRADES: Final[dict[int, Callable[[dict[str, Any]], dict[str, Any]]]] = {
    1: _from_1,
    2: _from_2,
    3: _from_3,
    4: _from_4,
    5: _from_5,
    6: _from_6,
}


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` in the current format (a record without a version is version 1)."""
    version = data.get("schema", 1)
    if isinstance(version, int) and version > SCHEMA:
        raise NewerRecord(version)
    if not isinstance(version, int) or not 1 <= version <= SCHEMA:
        raise UnreadableRecord(f"record schema {version!r}; this bot reads 1..{SCHEMA}")
    while version < SCHEMA:
        data = UPGRADES[version](data)
        version += 1
    return {**data, "schema": SCHEMA}


# KEYS: the game, the deadlines set; ARGV: the chat id, the game id, its move count when its
# buttons were shown, the deadline from then. XX: a chat without a deadline (no turn timer,
# or nobody's turn) gets none; LT: a deadline never moves later.
_START_CLOCK: Final = """
local raw = redis.call('GET', KEYS[1])
if not raw then return false end
local game = cjson.decode(raw)
local state = game['state']
if game['id'] ~= ARGV[2] or type(state) ~= 'table' or state['moves'] ~= tonumber(ARGV[3]) then
  return false
end
redis.call('ZADD', KEYS[2], 'XX', 'LT', ARGV[4], ARGV[1])
return redis.call('ZSCORE', KEYS[2], ARGV[1])
"""


class DeadlineStore:
    def __init__(self, redis: Redis, key: str) -> None:
        self.redis = redis
        self.key = key
        self._start_clock = redis.register_script(_START_CLOCK)

    async def due(self, now: float, limit: int = 50) -> list[int]:
        """Chats scored at or before ``now``, earliest first."""
        members = await self.redis.zrangebyscore(self.key, "-inf", now, start=0, num=limit)
        return chat_ids(members)

    async def next_due(self) -> float | None:
        """The earliest score, if any."""
        first = await self.redis.zrange(self.key, 0, 0, withscores=True)
        return float(first[0][1]) if first else None

    async def drop(self, chat_id: int) -> None:
        """Forget a chat that has nothing due (its game is gone)."""
        await self.redis.zrem(self.key, str(chat_id))

    async def start_clock(
        self, game_key: str, chat_id: int, game_id: str, moves: int, deadline: float
    ) -> float | None:
        """The buttons of move ``moves`` of ``game_id`` (stored at ``game_key``) were shown:
        its deadline in force becomes ``deadline`` if that is earlier and the game is still
        at that position. The deadline in force afterwards; None if the game moved on (or
        has no turn clock running)."""
        score = await self._start_clock(
            keys=[game_key, self.key], args=[str(chat_id), game_id, moves, repr(deadline)]
        )
        return None if score is None else float(score)


# -- a group that became a supergroup ----------------------------------------------------

MoveDecide = Callable[[GameRecord | None, GameRecord | None], tuple[Saved, Saved, T]]
"""``decide(old chat's record, new chat's record)`` -> (what the old chat's key holds
afterwards, what the new chat's key holds, a result): a record, None (deleted) or KEEP."""


async def move_chat(
    games: GameStore,
    settings: SettingsStore,
    stats: StatsStore,
    admins: AnswerCache,
    old_chat: int,
    new_chat: int,
    decide: MoveDecide[T],
) -> T:
    keys = games.keys
    # The old chat's statistics and rated games are read but not compared: they change only
    # with a write of its game (the one that finishes it), which is compared, and (rated
    # games) when somebody leaves the group, which a group becoming a supergroup does not.
    compared = [
        keys.game(old_chat),
        keys.game(new_chat),
        settings.key(old_chat),
        settings.key(new_chat),
    ]
    reads = [
        games.deadline_read(old_chat),
        games.deadline_read(new_chat),
        ("HGETALL", keys.chat_stats(old_chat)),
        ("HGETALL", keys.sent(old_chat)),
        ("HGETALL", keys.rated(old_chat)),
    ]
    warnings: list[tuple[int, UnreadableRecord]] = []  # of the attempt that went through

    async def attempt(seen: Seen, pipe: Writes) -> T:
        warnings.clear()
        raws = [seen.values[keys.game(old_chat)], seen.values[keys.game(new_chat)]]
        in_force, counts, shown, rated = seen.reads[:2], seen.reads[2], seen.reads[3], seen.reads[4]
        (old, old_error), (new, new_error) = map(games.read, raws, in_force)
        old_settings = seen.values[settings.key(old_chat)]
        new_settings = seen.values[settings.key(new_chat)]
        old_before, new_before = Footprint.of(old), Footprint.of(new)
        old_after, new_after, result = decide(old, new)
        unreadable: list[tuple[int, bytes | str, UnreadableRecord, Saved]] = [
            (chat, raw, error, after)
            for chat, raw, error, after in (
                (old_chat, raws[0], old_error, old_after),
                (new_chat, raws[1], new_error, new_after),
            )
            if error is not None and raw is not None
        ]
        games_change = not (isinstance(old_after, Keep) and isinstance(new_after, Keep))
        if not (games_change or unreadable or old_settings is not None or counts or rated):
            return result
        for chat, raw, _error, after in unreadable:
            games.queue_quarantine(pipe, chat, raw)
            if isinstance(after, Keep):
                pipe.delete(keys.game(chat))
        if not isinstance(old_after, Keep):
            games.queue_write(pipe, old_chat, old_before, old_after)
        if not isinstance(new_after, Keep):
            # The moved game keeps counting its versions up (the outbox drops older ones).
            games.queue_write(pipe, new_chat, new_before.at_least(old_before.version), new_after)
            # The players' private hands stay the same messages (the outbox edits them);
            # the table is posted anew, as the old group's messages cannot be edited.
            for slot, value in _hand_messages(shown, new_after).items():
                pipe.hset(keys.sent(new_chat), slot, value)
                pipe.expire(keys.sent(new_chat), games.idle_ttl)
        if old_settings is not None:
            settings.queue_move(pipe, old_chat, new_chat, old_settings, new_settings)
        if counts:
            stats.queue_move(pipe, old_chat, new_chat, counts)
        if rated:
            games.ratings.queue_move(pipe, old_chat, new_chat, rated)
        pipe.set(keys.moved(old_chat), str(new_chat), ex=games.idle_ttl)
        warnings.extend((chat, error) for chat, _raw, error, _after in unreadable)
        return result

    what = f"chat {old_chat} moving"
    result = await transact(games.redis, compared, attempt, what=what, reads=reads)
    for chat, error in warnings:
        games.warn_unreadable(chat, error)
    await admins.move(old_chat, new_chat)
    return result


async def moved_to(games: GameStore, chat_id: int) -> int | None:
    """The new id of a group that became a supergroup, if it did (lately)."""
    raw = await games.redis.get(games.keys.moved(chat_id))
    return None if raw is None else int(raw)


def _hand_messages(shown: dict[Any, Any], record: GameRecord | None) -> dict[str, bytes]:
    """The outbox's record of the hand messages of ``record``'s game, from ``shown``."""
    if record is None:
        return {}
    prefix = f"h:{record.game.game_id}:"
    return {name: value for slot, value in shown.items() if (name := text(slot)).startswith(prefix)}
