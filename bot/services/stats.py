"""Statistics: what a finished game adds (``game_result``, counted by ``count_finished`` in
the transaction that ends the game) and the group's leaderboard (``leaderboard``). Pure
functions; ``bot.storage.stats`` keeps the counts.

The leaderboard ranks players by durak rate (times the durak / games played), lowest
first; only players with at least ``MIN_GAMES`` finished games in the chat are ranked (a
single lucky game says little); ties go to who played more, then to more first places.
A draw counts as a game played and a draw, never as being the durak.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from bot.model import ChatGame, Phase
from bot.schema.settings import AI_LEVELS
from bot.schema.stats import GameResult, PlayerResult, PlayerStats
from bot.storage import GameRecord, StatsStore

from .series import tally_series

MIN_GAMES: Final = 3
TOP: Final = 10


def game_result(game: ChatGame) -> GameResult | None:
    """The result of ``game``'s finished engine state, or None if it is not finished.
    Places follow the order of leaving (R-OUT-6); the durak takes the last place."""
    state = game.state
    if state is None or not state.finished or len(game.players) != state.players:
        return None
    players = []
    for seat, seat_player in enumerate(game.players):
        # The durak has no place in ``out``: theirs is the last.
        place = state.out.index(seat) + 1 if seat in state.out else state.players
        durak = seat == state.durak
        epaulettes = durak and state.epaulettes  # R-POG
        players.append(
            PlayerResult(seat_player.user_id, seat_player.name, place, durak, bool(epaulettes))
        )
    return GameResult(tuple(players), draw=state.durak is None)


def count_finished(
    record: GameRecord, queue: Callable[..., None], queue_vs: Callable[..., None]
) -> None:
    """``record`` was being played before the write that saves it: if that write ends the
    game (not /stop), count the game in it: the series tally in the record, and the
    statistics as commands of the same transaction (``queue`` is ``StatsStore.queue``; for a
    game with computer players ``queue_vs``, ``StatsStore.queue_vs_computers``)."""
    game = record.game
    if game.phase is not Phase.FINISHED or record.stopped_by is not None:
        return
    result = game_result(game)
    if result is None:
        return
    tally_series(game)
    levels = [p.level for p in game.players if p.level is not None]
    if levels:  # counted apart: a person's record against computers, by level
        level = max(levels, key=AI_LEVELS.index)
        record.also.append(functools.partial(queue_vs, result=result, level=level))
        return
    record.also.append(functools.partial(queue, chat_id=game.chat_id, result=result))


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
