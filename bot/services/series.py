"""Series (RULES.md §2 ``series``, S1 §6, R-OUT-6): several games in a row at one table,
the durak counts kept. Pure functions on game records; ``GameService`` saves them.

* A series begins when a lobby is dealt and the chat's ``series`` setting is above 1; the
  settings of that moment stay the series' settings (only the language follows the chat).
* When a game of the series ends, the table shows the tally and a "Next game" button (no
  automatic deal: a button survives restarts, and nobody is dealt in while away). Any
  player of the series may press it; the next game is dealt at once to the same seats
  (R-DEAL-1, R-START-3 through ``engine.next_game``), without a lobby.
* Players may leave between games (or during one, resigning it): they forfeit the series
  and leave the standings. With fewer than two players left the series ends early.
* After the last game: the standings. Whoever was the durak least often wins; equal counts
  share the place. A draw makes nobody the durak (it is counted in ``Series.draws``).
"""

from __future__ import annotations

import dataclasses

from bot.model import ChatGame, GameRecord, LastGame, Phase, Seat, Series
from bot.schema.refusals import Reason
from bot.storage import KEEP, Saved
from engine import next_game

from .outcomes import Changed, Outcome, Refused


def begin_series(game: ChatGame) -> None:
    """Game 1 of a series, if the game's settings ask for one (else a single game)."""
    length = game.settings.series
    game.series = Series.begin(length, [p.user_id for p in game.players]) if length > 1 else None


def tally_series(game: ChatGame) -> None:
    """A game of the series has just finished: count its durak (a draw: nobody)."""
    series, state = game.series, game.state
    if series is None or state is None or not state.finished:
        return
    if state.durak is None:
        series.draws += 1
        return
    user_id = game.players[state.durak].user_id
    if user_id in series.durak:
        series.durak[user_id] += 1


def series_pending(record: GameRecord) -> bool:
    """A game of a series is over and the next one may be dealt."""
    game = record.game
    return (
        game.series is not None
        and game.phase is Phase.FINISHED
        and record.stopped_by is None
        and game.state is not None
        and game.state.finished
        and not game.series_over
    )


def next_series_game(record: GameRecord, *, game_id: str, language: str, seed: int) -> ChatGame:
    """The next game of ``record``'s series, dealt to the players still in it, in their
    clockwise order: the loser deals, or the same dealer after a draw; the start follows
    ``next_game_start``; a dealer who left is replaced by the first-game rule (all of it
    ``engine.next_game``). Raises ``engine.SetupError`` if it cannot be dealt."""
    old = record.game
    series = old.series
    assert series is not None and old.state is not None
    remaining = [i for i, p in enumerate(old.players) if series.in_series(p.user_id)]
    settings = dataclasses.replace(old.settings, language=language)
    game = ChatGame(old.chat_id, game_id, old.creator_id, settings)
    game.players = [
        Seat(p.user_id, p.name, p.language, p.level) for p in (old.players[i] for i in remaining)
    ]
    game.state = next_game(old.state, seed=seed, remaining=remaining, rules=settings.rules)
    game.phase = Phase.PLAYING
    game.series = dataclasses.replace(
        series, number=series.number + 1, durak=dict(series.durak), left=list(series.left)
    )
    return game


def series_lobby(record: GameRecord, *, game_id: str, language: str) -> GameRecord:
    """The next game of ``record``'s series before its deal, for a deal that waits (the
    dealer names the trump, ``bot.services.naming``): the players still in it, the series
    one game further, and the last game as ``previous``, so the deal continues the same
    table as ``next_series_game`` does."""
    old = record.game
    series = old.series
    assert series is not None and old.state is not None
    settings = dataclasses.replace(old.settings, language=language)
    game = ChatGame(old.chat_id, game_id, old.creator_id, settings)
    game.players = [
        Seat(p.user_id, p.name, p.language, p.level)
        for p in old.players
        if series.in_series(p.user_id)
    ]
    game.series = dataclasses.replace(
        series, number=series.number + 1, durak=dict(series.durak), left=list(series.left)
    )
    new = GameRecord(game)
    new.previous = LastGame(old.state, tuple(p.user_id for p in old.players))
    return new


def leave_series(record: GameRecord, user_id: int) -> tuple[Saved, Outcome]:
    """A decision: between the games of a series, ``user_id`` leaves it (forfeiting it)."""
    series = record.game.series
    if not series_pending(record) or series is None or not series.drop(user_id):
        return KEEP, Refused(Reason.NOT_JOINED, record)
    return record, Changed(record)
