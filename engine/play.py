"""Doing it: ``apply`` an action to a ``GameState``, through the core.

``apply`` accepts an action exactly when the core lists it (``Position.legal``), applies it
to a copy of the position (so the input never changes) and returns the new state with the
events that happened. Everything that follows from an action without anybody choosing
(automatic passes, closing a bout, drawing, exits, the next bout) happens inside the same
``apply``, so every state it returns waits for a player's decision. Why an action is
refused is ``refusals.py``'s to say.
"""

from __future__ import annotations

from .actions import Action
from .codes import encode
from .errors import Code, IllegalAction
from .events import Event
from .refusals import refusal
from .state import GameState


def check(state: GameState, action: Action) -> None:
    """Raise ``IllegalAction`` with a stable code unless ``action`` is allowed now."""
    apply(state, action)


def is_legal(state: GameState, action: Action) -> bool:
    try:
        apply(state, action)
    except IllegalAction:
        return False
    return True


def apply(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """The state after ``action`` and what happened. Raises ``IllegalAction`` (and changes
    nothing) unless the action is allowed now."""
    position = state._position
    if position.finished:
        raise IllegalAction(Code.GAME_OVER, "the game is over")
    code = encode(action)
    if code >= 0 and code in state.legal_codes((code >> 3) & 7):
        after = position.copy()
        events: list[Event] = []
        after.log = events
        after.apply(code)
        after.log = None
        return GameState(after), tuple(events)
    raise refusal(state, action)
