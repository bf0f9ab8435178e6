"""What the bot knows of people outside a game's moves: who is a group's admin or member
(``AdminService``), who started the bot (``UserService``), their statistics
(``StatsService``), and what /mydata shows and /forget erases (``PersonalData``).

Who is a group admin (its creator or an administrator), who is a member: Telegram's
answer, remembered for a minute (``bot.storage.chats``). The question to Telegram comes
from the handlers; it is asked only when a decision needs the answer and the cache has
none.

What the bot knows about a user outside any game.

Statistics: the group's leaderboard (``leaderboard``, a pure function) and what /stats
shows. What a finished game adds is ``bot.schema.stats.game_result``; ``bot.storage.players``
counts it in the write that ends the game.

The leaderboard ranks players by durak rate (times the durak / games played), lowest
first; only players with at least ``MIN_GAMES`` finished games in the chat are ranked (a
single lucky game says little); ties go to who played more, then to more first places.
A draw counts as a game played and a draw, never as being the durak.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from typing import Final

from bot.model import GameRecord, Phase
from bot.rating import Skill
from bot.schema.settings import AI_LEVELS
from bot.schema.stats import MyRating, PlayerStats, Rated
from bot.storage import KEEP, AnswerCache, GameStore, RatingStore, StatsStore, Storage, UserStore
from bot.storage.games import Saved
from bot.storage.players import Kept
from engine.ai.ladder import ladder_rating

from .decisions import series_pending
from .outcomes import Check

Question = Callable[[], Awaitable[bool | None]]
"""Ask Telegram: True or False, or None when it refused to say (not remembered); an admin
question raises ``AdminUnknown`` when its answer could not be read."""


class AdminUnknown(Exception):
    """Telegram's answer to "is this user an admin?" could not be read (a server error, a
    lost connection, a timeout): nothing is decided, and the user is asked to try again."""

    def __init__(self, chat_id: int, user_id: int, reason: str) -> None:
        super().__init__(f"cannot tell whether {user_id} is an admin of {chat_id}: {reason}")
        self.chat_id = chat_id
        self.user_id = user_id


class AdminService:
    def __init__(self, cache: AnswerCache) -> None:
        self.cache = cache

    def check(self, chat_id: int, user_id: int, ask: Question) -> Check:
        """Is the user an admin of the group? See ``remembered``; one whose answer could
        not be read raises ``AdminUnknown`` (nothing remembered)."""

        async def is_admin() -> bool:
            return await remembered(self.cache, chat_id, user_id, ask)

        return is_admin


async def remembered(cache: AnswerCache, chat_id: int, user_id: int, ask: Question) -> bool:
    """The cached answer about the user in the group, else ``ask``'s, remembered; a question
    Telegram refused is a "no", asked again next time."""
    cached = await cache.get(chat_id, user_id)
    if cached is not None:
        return cached
    answer = await ask()
    if answer is None:
        return False
    await cache.put(chat_id, user_id, answer)
    return answer


class UserService:
    def __init__(self, users: UserStore) -> None:
        self.users = users

    async def started(self, user_id: int) -> None:
        """The user pressed Start in private: from now on the bot may write to them."""
        await self.users.mark_started(user_id)


MIN_GAMES: Final = 3
TOP: Final = 10


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """``ranked``: at most ``TOP`` players with ``MIN_GAMES`` or more games, best first.
    ``unranked``: how many others played fewer games."""

    ranked: list[PlayerStats]
    unranked: int
    min_games: int = MIN_GAMES


def leaderboard(
    players: Iterable[PlayerStats], *, min_games: int = MIN_GAMES, top: int = TOP
) -> Leaderboard:
    everyone = [p for p in players if p.games > 0]
    ranked = sorted(
        (p for p in everyone if p.games >= min_games),
        key=lambda p: (p.durak_rate, -p.games, -p.wins, p.name, p.user_id),
    )
    return Leaderboard(ranked[:top], len(everyone) - len(ranked), min_games)


class StatsService:
    """What /stats and /top show."""

    def __init__(self, store: StatsStore, ratings: RatingStore) -> None:
        self.store = store
        self.ratings = ratings

    async def top(self, chat_id: int) -> list[Rated]:
        """The group's people with ``MIN_GAMES`` rated games there or more (at most
        ``TOP``), highest first, with the computer levels among them for reference."""
        played = await self.ratings.played_in(chat_id)
        listed = [user for user, (_name, games) in played.items() if games >= MIN_GAMES]
        skills = await self.ratings.of(listed)
        people = sorted(
            (
                Rated(played[user][0], skill.points, games=played[user][1])
                for user, (skill, _total) in zip(listed, skills, strict=True)
            ),
            key=lambda row: (-row.points, row.name),
        )[:TOP]
        rows = [replace(row, place=place) for place, row in enumerate(people, start=1)]
        rows += [Rated("", Skill(*ladder_rating(level)).points, level=level) for level in AI_LEVELS]
        return sorted(rows, key=lambda row: -row.points)

    async def my_rating(self, user_id: int, chat_id: int | None = None) -> MyRating | None:
        """``user_id``'s rating and place in the group ``chat_id`` (None unless they played
        rated games there), or among everybody (``chat_id`` None; None before their first
        rated game)."""
        [(skill, games)] = await self.ratings.of([user_id])
        if chat_id is None:
            ranked = await self.ratings.rank(user_id)
            return None if ranked is None else MyRating(skill.points, games, *ranked)
        played = await self.ratings.played_in(chat_id)
        if user_id not in played:
            return None
        others = await self.ratings.of(list(played))
        higher = sum(other.points > skill.points for other, _games in others)
        return MyRating(skill.points, games, higher + 1, len(played))

    async def board(self, chat_id: int) -> Leaderboard:
        """The group's leaderboard."""
        return leaderboard(await self.store.chat(chat_id))

    async def totals(self, user_id: int) -> PlayerStats:
        """The user's totals over every chat."""
        return await self.store.user(user_id)

    async def versus(self, user_id: int) -> dict[str, PlayerStats]:
        """The user's record against computer players, by level (levels never met absent)."""
        return await self.store.vs_computers(user_id)


# -- /mydata and /forget ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Table:
    """A stored lobby or game that seats the person: its chat (their own private chat for
    a game with computers), its phase, and the name they have at it."""

    chat_id: int
    phase: Phase
    name: str


@dataclass(frozen=True, slots=True)
class Found:
    """What /mydata shows: ``kept`` (``bot.storage.players``), the lobbies and games that
    seat the person and go on (``playing``: /forget leaves them to finish), and the finished
    ones still kept for "Play again" (``finished``)."""

    user_id: int
    kept: Kept
    playing: list[Table]
    finished: list[Table]

    @property
    def nothing(self) -> bool:
        kept = self.kept
        return not (
            kept.started
            or kept.totals.games
            or kept.versus
            or kept.chats
            or kept.own_rules
            or kept.rating is not None
            or self.playing
            or self.finished
        )


@dataclass(frozen=True, slots=True)
class Forgotten:
    """/forget was confirmed: ``playing``, the lobbies and games left to finish."""

    playing: list[Table]


class PersonalData:
    """What the bot keeps about one person, shown (/mydata) and erased (/forget).

    **What /forget erases**, once its button is pressed (``bot.storage.players``): their
    totals, their record against computers, their counts and name in every group's
    statistics, the house rules of their private chat, and its finished game. In finished
    games still kept for "Play again" (a day) their name becomes ``placeholder``'s word
    ("игрок", "гравець"), in the game's language; the table there is redrawn so. So it does
    in the games kept for their record and replay (``RECORDS_DAYS``), and their reviews go;
    their private chat's kept games go whole.

    **What it leaves**, and why: a lobby or game they sit in that is not over (a series
    between its games too) goes on as it is, with their name, so that nobody's game
    breaks; so do the user index entries that lead their hand to them, and the mark that
    they started the bot (the bot cannot send a hand without it). A game that ends after
    /forget is counted like any game played after it: new data, which /forget erases
    again. Without such a game the mark goes too: a later join asks Telegram again whether
    the bot may write to them. Caches of Telegram's answers (a minute), the outbox's
    bookkeeping of their private chat (message ids and send budgets) and one-off messages
    waiting to be sent (an hour at most) expire by themselves.
    """

    def __init__(self, storage: Storage) -> None:
        self.users = storage.users
        self.games: GameStore = storage.games
        self.finished = storage.finished

    async def found(self, user_id: int) -> Found:
        kept = await self.users.kept(user_id)
        playing, finished = await self._tables(user_id)
        return Found(user_id, kept, playing, finished)

    async def ask_forget(self, user_id: int) -> str:
        """The token for a new confirmation button (an older one stops working)."""
        return await self.users.ask_forget(user_id)

    async def cancel_forget(self, user_id: int, token: str) -> bool:
        """The button no longer works; False if it already did not (a stale press)."""
        return await self.users.cancel_forget(user_id, token)

    async def forget(
        self, user_id: int, token: str, placeholder: Callable[[str], str]
    ) -> Forgotten | None:
        """Erase what is kept about ``user_id`` (the class docstring) if ``token`` is that
        of their newest confirmation button, else None and nothing changes.
        ``placeholder(language)``: the word a finished game shows instead of their name."""
        if not await self.users.forget_asked(user_id, token):
            return None
        playing, finished = await self._tables(user_id)
        for table in finished:
            if table.chat_id == user_id:
                await self.games.update(table.chat_id, _drop_finished)
            else:
                await self.games.update(table.chat_id, _renamed(user_id, placeholder))
        await self.finished.forget(user_id, placeholder)
        kept = await self.users.kept(user_id)
        live = {table.chat_id for table in playing}
        stale = {chat: game for chat, game in kept.seats.items() if chat not in live}
        # The token is checked again, and spent, with the erase: a second press of the
        # same button (or one that ran out meanwhile) erases nothing more.
        if not await self.users.erase(user_id, token, stale):
            return None
        return Forgotten(playing)

    async def _tables(self, user_id: int) -> tuple[list[Table], list[Table]]:
        """The stored lobbies and games that seat ``user_id``: those that go on, those over."""
        playing: list[Table] = []
        finished: list[Table] = []
        for chat_id, raw in sorted((await self.users.games_naming(user_id)).items()):
            record, _unreadable = GameStore.read(raw)
            seat = None if record is None else _seat_of(record, user_id)
            if record is None or seat is None:
                continue
            table = Table(chat_id, record.game.phase, record.game.players[seat].name)
            going_on = record.game.phase is not Phase.FINISHED or series_pending(record)
            (playing if going_on else finished).append(table)
        return playing, finished


def _seat_of(record: GameRecord, user_id: int) -> int | None:
    seat = record.game.seat_of(user_id)
    return None if seat is None or record.game.players[seat].computer else seat


def _over(record: GameRecord | None) -> bool:
    """A finished game that no series continues."""
    return record is not None and record.game.phase is Phase.FINISHED and not series_pending(record)


def _drop_finished(record: GameRecord | None) -> tuple[Saved, None]:
    """A decision: the person's private chat's game goes, if it is over."""
    return (None if _over(record) else KEEP), None


def _renamed(
    user_id: int, placeholder: Callable[[str], str]
) -> Callable[[GameRecord | None], tuple[Saved, None]]:
    """A decision: in a game that is over, ``user_id``'s seat (and the name of who stopped
    it, if that was theirs) shows ``placeholder``'s word instead of their name."""

    def decide(record: GameRecord | None) -> tuple[Saved, None]:
        if record is None or not _over(record):
            return KEEP, None
        seat = _seat_of(record, user_id)
        if seat is None:
            return KEEP, None
        game = record.game
        old, word = game.players[seat].name, placeholder(game.settings.language)
        if old == word:
            return KEEP, None
        game.players[seat] = replace(game.players[seat], name=word)
        if record.stopped_by == old:
            record.stopped_by = word
        return record, None

    return decide
