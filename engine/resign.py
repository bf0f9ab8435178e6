"""Leaving a game before it ends: that player loses (the bot's rule, as in the most popular
Durak app), so a game never waits for someone who has gone."""

from __future__ import annotations

from .errors import Code, IllegalAction
from .events import Event, GameOver, Resigned
from .state import CLOCKWISE, GameState


def resign(state: GameState, seat: int) -> tuple[GameState, tuple[Event, ...]]:
    """The game ended with ``seat`` as the durak. Players already out keep their places;
    the others follow clockwise from the resigning player's left."""
    if state.bout is None:
        raise IllegalAction(Code.GAME_OVER, "the game is over")
    if not 0 <= seat < state.players:
        raise IllegalAction(Code.UNKNOWN_PLAYER, f"there is no player {seat!r} at this table")
    if seat in state.out:
        raise IllegalAction(Code.PLAYER_OUT, "this player has left the game")
    others = tuple(s for s in CLOCKWISE[state.players][seat][1:] if s not in state.out)
    finished = state._replace(
        out=state.out + others, bout=None, durak=seat, moves=state.moves + 1, acting=()
    )
    return finished, (Resigned(seat), GameOver(seat))
