"""What the bot keeps about people: who started it in private, where each one sits
(``UserStore``), and the statistics of their finished games (``StatsStore``).

What is kept about one person, read for /mydata (``UserStore.kept``) and erased by /forget
(``UserStore.erase``, one script, so a game ending meanwhile counts either before the erase,
and is erased, or after it): their totals and record against computers, their rows (counts
and name) in every group's statistics, the house rules of their private chat, their entries
of the user index that point to no unfinished game, and the mark that they started the bot
unless they still sit in an unfinished game (their hand must reach them). The erase runs
only with the token of the person's own confirmation button (``ask_forget``): a stale or
forged button changes nothing. Game records are ``GameStore``'s: ``bot.services.people``
changes those through it.

Statistics of finished games: per group chat and player, and per player over every chat.

They are written only by ``StatsStore.queue_finished``, which ``GameStore`` calls for the
write that ends a game by its play (``GameRecord.has_result``), with the commands of that
very write: the counts change if and only if the finishing move is saved, so every finished
game is counted exactly once, however many presses race for the last move. Games ended
with /stop are never counted.

``{p}:stats:chat:{chat}`` (hash): ``<user>:g`` games played, ``<user>:d`` times the durak,
``<user>:x`` draws, ``<user>:e`` times the durak with epaulettes (R-POG), ``<user>:p<k>``
games finished in place k (1 = first out; the durak is last), ``<user>:n`` the player's
name as last seen.
``{p}:stats:user:{user}`` (hash): ``g``, ``d``, ``x``, ``e``, ``p<k>``, over every chat.
``{p}:stats:vs:{user}`` (hash): ``<level>:g``, ``<level>:d``, ``<level>:x``: a person's
games with computer players of that level at the table (the strongest there), which are
counted only here, never in the group's or the person's statistics above.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from redis.asyncio import Redis

from bot import jsontext
from bot.model import ChatGame, RatingChange
from bot.rating import Skill, rate, sides
from bot.schema.settings import AI_LEVELS
from bot.schema.stats import GameResult, PlayerResult, PlayerStats, game_result
from engine.ai.ladder import ladder_rating

from .keys import Keys, text
from .tx import Writes

FORGET_SECONDS: Final = 600  # how long the /forget confirmation button erases
SCAN_COUNT: Final = 500  # keys a SCAN step looks at: /mydata and /forget walk the keyspace

# KEYS: the confirmation's token, the user index, the started set, the ratings by person,
# then every key deleted whole, then the groups' statistics and rated games. ARGV: the
# token, the user's id, how many keys are deleted whole, then (chat, game id) of each index
# entry to drop if it still says so. 1: erased; 0: the token was not the one asked for
# (nothing changed).
_ERASE: Final = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local user, whole = ARGV[2], tonumber(ARGV[3])
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[4], user)
for k = 5, 4 + whole do redis.call('DEL', KEYS[k]) end
local mine = user .. ':'
for k = 5 + whole, #KEYS do
  local fields = redis.call('HKEYS', KEYS[k])
  for _, field in ipairs(fields) do
    if field == user or string.sub(field, 1, #mine) == mine then
      redis.call('HDEL', KEYS[k], field)
    end
  end
end
for i = 4, #ARGV, 2 do
  if redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[i + 1] then
    redis.call('HDEL', KEYS[2], ARGV[i])
  end
end
if redis.call('EXISTS', KEYS[2]) == 0 then redis.call('SREM', KEYS[3], user) end
return 1
"""

# KEYS[1]: the confirmation's token; ARGV[1]: the token pressed. 1: it was the one, now gone.
_CANCEL: Final = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])
"""


@dataclass(frozen=True, slots=True)
class Kept:
    """What Redis holds about one person outside the game records: ``started``, the bot
    may write to them; ``seats``, chat id -> game id of the user index; ``totals`` and
    ``versus`` (``StatsStore.user``, ``vs_computers``); ``chats``, their row in each
    group's statistics, with the name kept there; ``own_rules``: their private chat has
    house rules of its own; ``rating``: their skill and rated games, if they have any."""

    started: bool
    seats: dict[int, str]
    totals: PlayerStats
    versus: dict[str, PlayerStats]
    chats: dict[int, PlayerStats]
    own_rules: bool
    rating: tuple[Skill, int] | None = None


class UserStore:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        self._erase = redis.register_script(_ERASE)
        self._cancel = redis.register_script(_CANCEL)

    async def mark_started(self, user_id: int) -> None:
        """The user pressed Start in private: the bot may write to them."""
        await self.redis.sadd(self.keys.started(), str(user_id))

    async def mark_unreachable(self, user_id: int) -> None:
        """Telegram refused a private message (blocked, or never started)."""
        await self.redis.srem(self.keys.started(), str(user_id))

    async def has_started(self, user_id: int) -> bool:
        return bool(await self.redis.sismember(self.keys.started(), str(user_id)))

    async def started_among(self, user_ids: list[int]) -> list[bool]:
        """``has_started`` for each of ``user_ids``, in one round trip."""
        flags = await self.redis.smismember(self.keys.started(), [str(u) for u in user_ids])
        return [bool(flag) for flag in flags]

    async def games_of(self, user_id: int) -> dict[int, str]:
        """Chat id -> game id of every unfinished lobby or game the user sits in."""
        raw = await self.redis.hgetall(self.keys.user_games(user_id))
        return {int(text(chat)): text(game) for chat, game in raw.items()}

    async def kept(self, user_id: int) -> Kept:
        """Everything this module keeps about ``user_id`` (see the module docstring)."""
        keys = self.keys
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.sismember(keys.started(), str(user_id))
            pipe.hgetall(keys.user_games(user_id))
            pipe.hgetall(keys.user_stats(user_id))
            pipe.hgetall(keys.versus_stats(user_id))
            pipe.exists(keys.settings(user_id))
            pipe.get(keys.rating(user_id))
            started, seats, totals, versus, own_rules, rating = await pipe.execute()
        chats = {}
        for key in await self._chat_stats_keys():
            counts = _row(user_id, await self.redis.hgetall(key))
            if counts:
                name = counts.pop(NAME, str(user_id))
                chats[keys.chat_of_stats_key(key)] = _stats(user_id, counts, name)
        return Kept(
            started=bool(started),
            seats={int(text(chat)): text(game) for chat, game in seats.items()},
            totals=_stats(user_id, {text(k): text(v) for k, v in totals.items()}),
            versus=_versus(user_id, versus),
            chats=chats,
            own_rules=bool(own_rules),
            rating=None if rating is None else _skill(rating),
        )

    async def games_naming(self, user_id: int) -> dict[int, bytes]:
        """Chat id -> stored game record (raw) of every game key whose value mentions
        ``user_id``: a superset of the records that seat them, for the caller to decode
        (a walk over the keyspace: for /mydata and /forget only)."""
        mention = str(user_id).encode()
        found: dict[int, bytes] = {}
        batch: list[str] = []

        async def read() -> None:
            for key, raw in zip(batch, await self.redis.mget(batch), strict=True):
                data = raw.encode() if isinstance(raw, str) else raw
                if data is not None and mention in data:
                    found[self.keys.chat_of_game_key(key)] = data
            batch.clear()

        async for key in self.redis.scan_iter(match=self.keys.game_pattern(), count=SCAN_COUNT):
            batch.append(text(key))
            if len(batch) >= SCAN_COUNT:
                await read()
        if batch:
            await read()
        return found

    async def ask_forget(self, user_id: int) -> str:
        """A new token for the person's /forget button (the one before no longer works)."""
        token = secrets.token_urlsafe(12)
        await self.redis.set(self.keys.forget(user_id), token, ex=FORGET_SECONDS)
        return token

    async def forget_asked(self, user_id: int, token: str) -> bool:
        """Is ``token`` that of the person's newest /forget button, still in time?"""
        held = await self.redis.get(self.keys.forget(user_id))
        return held is not None and text(held) == token

    async def cancel_forget(self, user_id: int, token: str) -> bool:
        """The button of ``token`` no longer works; False if it already did not."""
        return bool(await self._cancel(keys=[self.keys.forget(user_id)], args=[token]))

    async def erase(self, user_id: int, token: str, stale: Mapping[int, str]) -> bool:
        """Erase what this module keeps about ``user_id`` (the module docstring), if
        ``token`` is that of their newest /forget button; ``stale``: entries of the user
        index (chat id -> game id) that point to no unfinished game, dropped unless a game
        wrote them anew meanwhile. False if the token was not the one (nothing changed)."""
        keys = self.keys
        whole = [
            keys.user_stats(user_id),
            keys.versus_stats(user_id),
            keys.settings(user_id),
            keys.rating(user_id),
        ]
        script_keys = [
            keys.forget(user_id),
            keys.user_games(user_id),
            keys.started(),
            keys.ratings(),
            *whole,
            *await self._chat_stats_keys(),
            *await self._walk(keys.rated_pattern()),
        ]
        entries = [word for chat, game in stale.items() for word in (str(chat), game)]
        args: list[str | int] = [token, str(user_id), len(whole), *entries]
        return bool(await self._erase(keys=script_keys, args=args))

    async def _chat_stats_keys(self) -> list[str]:
        """Every group's statistics key (a walk over the keyspace)."""
        return await self._walk(self.keys.chat_stats_pattern())

    async def _walk(self, pattern: str) -> list[str]:
        return [text(k) async for k in self.redis.scan_iter(match=pattern, count=SCAN_COUNT)]


GAMES, DURAK, DRAWS, NAME, PLACE, EPAULETTES = "g", "d", "x", "n", "p", "e"


def _metrics(player: PlayerResult, draw: bool) -> list[str]:
    metrics = [GAMES, f"{PLACE}{player.place}"]
    if draw:
        metrics.append(DRAWS)
    elif player.durak:
        metrics.append(DURAK)
        if player.epaulettes:
            metrics.append(EPAULETTES)
    return metrics


def _stats(user_id: int, counts: Mapping[str, str], name: str = "") -> PlayerStats:
    places = {
        int(metric[1:]): int(value)
        for metric, value in counts.items()
        if metric.startswith(PLACE) and metric[1:].isdigit()
    }
    return PlayerStats(
        user_id,
        name,
        games=int(counts.get(GAMES, 0)),
        durak=int(counts.get(DURAK, 0)),
        draws=int(counts.get(DRAWS, 0)),
        epaulettes=int(counts.get(EPAULETTES, 0)),
        places=places,
    )


def _versus(user_id: int, raw: Mapping[bytes | str, bytes | str]) -> dict[str, PlayerStats]:
    """``{p}:stats:vs:{user}`` as read: the record by level."""
    by_level: dict[str, dict[str, str]] = {}
    for key, value in raw.items():
        level, _, metric = text(key).partition(":")
        by_level.setdefault(level, {})[metric] = text(value)
    return {level: _stats(user_id, counts) for level, counts in by_level.items()}


def _row(user_id: int, raw: Mapping[bytes | str, bytes | str]) -> dict[str, str]:
    """``user_id``'s metrics (and name) in a group's statistics hash, as read."""
    mine = f"{user_id}:"
    return {
        text(key)[len(mine) :]: text(value)
        for key, value in raw.items()
        if text(key).startswith(mine)
    }


class StatsStore:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    def queue_finished(self, pipe: Writes, game: ChatGame) -> None:
        """Count ``game``, which the write of ``pipe`` ends: in the group's and the people's
        statistics, or, with computer players at the table, only in the people's record
        against the strongest of them."""
        result = game_result(game)
        if result is None:
            return
        levels = [p.level for p in game.players if p.level is not None]
        if levels:
            self.queue_vs_computers(pipe, result, max(levels, key=AI_LEVELS.index))
        else:
            self.queue(pipe, game.chat_id, result)

    def queue(self, pipe: Writes, chat_id: int, result: GameResult) -> None:
        """Add ``result``'s increments to ``pipe``, a transaction's writes (nothing is sent
        until it commits: ``bot.storage.tx``)."""
        chat_key = self.keys.chat_stats(chat_id)
        for player in result.players:
            user_key = self.keys.user_stats(player.user_id)
            for metric in _metrics(player, result.draw):
                pipe.hincrby(chat_key, f"{player.user_id}:{metric}", 1)
                pipe.hincrby(user_key, metric, 1)
            pipe.hset(chat_key, f"{player.user_id}:{NAME}", player.name)

    def queue_vs_computers(self, pipe: Writes, result: GameResult, level: str) -> None:
        """Like ``queue``, for a game with computer players of ``level``: only the people's
        record against computers changes."""
        for player in result.players:
            if player.user_id < 0:  # a computer player
                continue
            key = self.keys.versus_stats(player.user_id)
            for metric in _metrics(player, result.draw):
                if not metric.startswith(PLACE):
                    pipe.hincrby(key, f"{level}:{metric}", 1)

    async def vs_computers(self, user_id: int) -> dict[str, PlayerStats]:
        """A person's record against computer players, by level (levels never met: absent)."""
        return _versus(user_id, await self.redis.hgetall(self.keys.versus_stats(user_id)))

    def queue_move(
        self, pipe: Writes, old_chat: int, new_chat: int, counts: Mapping[bytes | str, Any]
    ) -> None:
        """``old_chat``'s statistics (``counts``, read with its game: ``bot.storage.chats``)
        go to ``new_chat``: added to any it has, its own names kept."""
        keys = self.keys
        _queue_moved_counts(pipe, keys.chat_stats(old_chat), keys.chat_stats(new_chat), counts)

    async def chat(self, chat_id: int) -> list[PlayerStats]:
        """Everyone who finished a game in this chat, in no particular order."""
        raw = await self.redis.hgetall(self.keys.chat_stats(chat_id))
        by_user: dict[int, dict[str, str]] = {}
        for key, value in raw.items():
            user, _, metric = text(key).partition(":")
            if user.lstrip("-").isdigit() and metric:
                by_user.setdefault(int(user), {})[metric] = text(value)
        return [
            _stats(user_id, counts, counts.get(NAME, str(user_id)))
            for user_id, counts in by_user.items()
            if GAMES in counts
        ]

    async def user(self, user_id: int) -> PlayerStats:
        """The user's counts over every chat (zeros if they never finished a game)."""
        raw = await self.redis.hgetall(self.keys.user_stats(user_id))
        return _stats(user_id, {text(k): text(v) for k, v in raw.items()})


class RatingStore:
    """People's ratings (``bot.rating``): one skill per person over every chat
    (``{p}:rating:{user}``: ``mu``, ``sigma`` and the rated games, JSON), the rating shown
    by person (``{p}:ratings``, sorted: a person's rank among everybody, never listed), and
    how many rated games each person played in each chat and their name there
    (``{p}:rated:{chat}``: who /top lists there, and where their rating may be shown; a
    person who leaves the group is taken off, ``left``).

    A game is rated by the write of its final move, as its statistics are counted
    (``GameStore.update``), with one difference: a rating is not a count that adds up, so
    that write also compares the skills it read (``keys_for``). Two games ending at once for
    one person are rated one after the other, each exactly once, and a final move saved
    twice is rated once. Computer players have their level's fixed skill
    (``engine.ai.ladder``), which no game moves. The write that deals a game reads the
    skills too, for the ratings its seats show (``show_dealt``)."""

    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    def keys_for(self, game: ChatGame) -> list[str]:
        """What a write that finishes ``game`` compares: its people's skills."""
        return [self.keys.rating(p.user_id) for p in game.players if not p.computer]

    def queue_rated(
        self, pipe: Writes, game: ChatGame, seen: Mapping[str, Any]
    ) -> list[RatingChange]:
        """Rate ``game``, which the write of ``pipe`` finishes by its play, from its people's
        skills as read (``seen``, by key: ``keys_for``); what it did to each person's
        rating. Nothing for a game that has no result to rate."""
        state = game.state
        ranked = () if state is None else sides(state, game.outs)
        if not ranked:
            return []
        skills = [
            _skill(seen[self.keys.rating(p.user_id)]) if p.level is None else _fixed(p.level)
            for p in game.players
        ]
        fixed = frozenset(seat for seat, p in enumerate(game.players) if p.computer)
        after = rate(ranked, [skill for skill, _games in skills], fixed)
        changes = []
        for seat, player in enumerate(game.players):
            if player.computer:
                continue
            (old, games), new = skills[seat], after[seat]
            value = {"mu": new.mu, "sigma": new.sigma, "games": games + 1}
            pipe.set(self.keys.rating(player.user_id), jsontext.dumps(value))
            pipe.zadd(self.keys.ratings(), {str(player.user_id): new.points})
            played = self.keys.rated(game.chat_id)
            pipe.hincrby(played, str(player.user_id), 1)
            pipe.hset(played, f"{player.user_id}:{NAME}", player.name)
            changes.append(RatingChange(player.user_id, old.points, new.points))
        return changes

    def show_dealt(self, game: ChatGame, seen: Mapping[str, Any]) -> None:
        """Give each seat of ``game``, which the write being prepared deals, the rating its
        table shows (``Seat.rating``), from its people's skills as read (``seen``, by key:
        ``keys_for``)."""
        for seat in game.players:
            if seat.level is not None:
                seat.rating = _fixed(seat.level)[0].points
                continue
            skill, games = _skill(seen[self.keys.rating(seat.user_id)])
            seat.rating = skill.points if games else None

    async def of(self, user_ids: Sequence[int]) -> list[tuple[Skill, int]]:
        """Each person's skill and how many rated games it comes from."""
        if not user_ids:
            return []
        raws = await self.redis.mget([self.keys.rating(user) for user in user_ids])
        return [_skill(raw) for raw in raws]

    async def played_in(self, chat_id: int) -> dict[int, tuple[str, int]]:
        """Who played rated games in ``chat_id`` (and is still there): their name and how
        many games."""
        raw = {
            text(k): text(v)
            for k, v in (await self.redis.hgetall(self.keys.rated(chat_id))).items()
        }
        return {
            int(field): (raw.get(f"{field}:{NAME}", ""), int(games))
            for field, games in raw.items()
            if ":" not in field
        }

    async def rank(self, user_id: int) -> tuple[int, int] | None:
        """A rated person's place among everybody rated (1 = the highest), and how many
        that is; None if they have no rated game."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrevrank(self.keys.ratings(), str(user_id))
            pipe.zcard(self.keys.ratings())
            place, everybody = await pipe.execute()
        return None if place is None else (int(place) + 1, int(everybody))

    async def left(self, chat_id: int, user_id: int) -> None:
        """``user_id`` is no longer in the group: /top there lists them no more."""
        await self.redis.hdel(self.keys.rated(chat_id), str(user_id), f"{user_id}:{NAME}")

    def queue_move(
        self, pipe: Writes, old_chat: int, new_chat: int, counts: Mapping[bytes | str, Any]
    ) -> None:
        """A group became a supergroup: its rated games (``counts``, read with its game) go
        with it, added to any there."""
        keys = self.keys
        _queue_moved_counts(pipe, keys.rated(old_chat), keys.rated(new_chat), counts)


def _skill(raw: bytes | str | None) -> tuple[Skill, int]:
    """A stored skill and its count of rated games; a new player's if there is none."""
    if raw is None:
        return Skill(), 0
    data = jsontext.loads(raw)
    return Skill(float(data["mu"]), float(data["sigma"])), int(data["games"])


def _queue_moved_counts(
    pipe: Writes, old_key: str, new_key: str, counts: Mapping[bytes | str, Any]
) -> None:
    """A chat's hash of per-person counts and names (``<user>:<metric>`` or ``<user>``, and
    ``<user>:n``) moves to another chat's: counts added, names kept where there are some."""
    for field_name, value in counts.items():
        name = text(field_name)
        if name.endswith(f":{NAME}"):
            pipe.hsetnx(new_key, name, text(value))
        else:
            pipe.hincrby(new_key, name, int(text(value)))
    pipe.delete(old_key)


def _fixed(level: str) -> tuple[Skill, int]:
    """A computer player's skill: its level's, from the ladder."""
    mu, sigma = ladder_rating(level)
    return Skill(mu, sigma), 0
