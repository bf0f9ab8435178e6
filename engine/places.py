"""The finishing places of a finished game (R-OUT-6), read from its events.

The final state keeps the order in which the players left (``GameState.out``) but not the
bout each one left in, so it cannot tell two players who left together from two who left
one after another; the events can: leaving is checked only when a bout ends (R-OUT-2), and
the ``PlayerOut`` events of one bout's end come one straight after another, with a
``BoutStarted`` (or the ``GameOver``) between two bouts' ends.
"""

from __future__ import annotations

from collections.abc import Iterable

from .events import Event, GameOver, PlayerOut

__all__ = ["places"]


def places(players: int, events: Iterable[Event]) -> tuple[int, ...]:
    """Each seat's finishing place, 1 the best, from the events of a whole game in order
    (everything ``apply`` returned, move after move).

    Players who leave at the end of the same bout share a place, and the next place counts
    them all (1, 2, 2, 4); the durak is last, alone. A draw (R-OUT-5) ties everybody, those
    who left before it too: the game has no loser (people's games are rated so too). A
    resignation (``Resigned``, the bot's rule) makes the resigning player the durak; the
    others still in share the place after those already out, as if they had left together.

    These are the places of players, not of teams: under teams (R-TEAM-4) a losing team's
    other players are placed with the winners still in, and the caller reads the teams.

    >>> from engine.events import BoutStarted, Drew, Resigned
    >>> game = [PlayerOut(2, 1), BoutStarted(3, 0, 6), PlayerOut(0, 2), PlayerOut(3, 3),
    ...         GameOver(1)]
    >>> places(4, game)
    (2, 4, 1, 2)
    >>> places(3, [PlayerOut(1, 1), BoutStarted(2, 0, 6), Drew(0, 2), PlayerOut(2, 2),
    ...            PlayerOut(0, 3), GameOver(None)])  # a draw
    (1, 1, 1)
    >>> places(3, [Resigned(0), GameOver(0)])
    (3, 1, 1)
    """
    place = [0] * players  # 0: no place yet
    placed = 0  # seats with a place so far
    shared = 0  # the place of the run of PlayerOut events being read, 0 outside one
    for event in events:
        if isinstance(event, PlayerOut):
            if not shared:
                shared = placed + 1
            place[event.player] = shared
            placed += 1
            continue
        shared = 0
        if isinstance(event, GameOver):  # a resignation ends with one too
            if event.durak is None:
                return (1,) * players  # a draw: nobody lost, whoever left first
            for seat in range(players):
                if not place[seat] and seat != event.durak:
                    place[seat] = placed + 1
            place[event.durak] = players
            return tuple(place)
    raise ValueError("the game is not over: no GameOver among its events")
