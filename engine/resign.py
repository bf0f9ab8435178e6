"""Leaving a game before it ends: that player loses (the bot's rule, as in the most popular
Durak app), so a game never waits for someone who has gone."""

from __future__ import annotations

from .errors import Code, IllegalAction
from .events import Event
from .state import GameState


def resign(state: GameState, seat: int) -> tuple[GameState, tuple[Event, ...]]:
    """The game ended with ``seat`` as the durak. Players already out keep their places;
    the others follow clockwise from the resigning player's left."""
    if state.bout is None:
        raise IllegalAction(Code.GAME_OVER, "the game is over")
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise IllegalAction(Code.UNKNOWN_PLAYER, f"there is no player {seat!r} at this table")
    if seat in state.out:
        raise IllegalAction(Code.PLAYER_OUT, "this player has left the game")
    position = state.position()
    events: list[Event] = []
    position.log = events
    position.resign(seat)
    position.log = None
    return GameState(position), tuple(events)
