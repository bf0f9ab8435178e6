"""Statistics: the group's leaderboard (``leaderboard``, a pure function) and what /stats
shows. What a finished game adds is ``bot.schema.stats.game_result``; ``bot.storage.stats``
counts it in the write that ends the game.

The leaderboard ranks players by durak rate (times the durak / games played), lowest
first; only players with at least ``MIN_GAMES`` finished games in the chat are ranked (a
single lucky game says little); ties go to who played more, then to more first places.
A draw counts as a game played and a draw, never as being the durak.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from bot.schema.stats import PlayerStats
from bot.storage import StatsStore

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
