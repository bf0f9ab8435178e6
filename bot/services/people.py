"""What the bot knows of people outside a game's moves: who is a group's admin or member
(``AdminService``), who started the bot (``UserService``), and their statistics
(``StatsService``).

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
from dataclasses import dataclass
from typing import Final

from bot.schema.stats import PlayerStats
from bot.storage import AnswerCache, StatsStore, UserStore

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
    """What /stats shows."""

    def __init__(self, store: StatsStore) -> None:
        self.store = store

    async def board(self, chat_id: int) -> Leaderboard:
        """The group's leaderboard."""
        return leaderboard(await self.store.chat(chat_id))

    async def totals(self, user_id: int) -> PlayerStats:
        """The user's totals over every chat."""
        return await self.store.user(user_id)

    async def versus(self, user_id: int) -> dict[str, PlayerStats]:
        """The user's record against computer players, by level (levels never met absent)."""
        return await self.store.vs_computers(user_id)
