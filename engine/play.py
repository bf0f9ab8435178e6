"""Doing it: ``apply`` an action to a ``GameState``, through the core.

``apply`` accepts an action exactly when the core lists it (``Position.legal``), applies it
to a copy of the position (so the input never changes) and returns the new state with the
events that happened (``GameState.after``, compiled with the core where it can be).
Everything that follows from an action without anybody choosing (automatic passes, closing
a bout, drawing, exits, the next bout) happens inside the same ``apply``, so every state it
returns waits for a player's decision. Why an action is refused is ``refusals.py``'s to say.
This module stays plain Python: compiled, a typed parameter would turn junk passed as an
action into a ``TypeError`` instead of ``IllegalAction("unknown_action")``.
"""

from __future__ import annotations

from .actions import Action
from .errors import IllegalAction
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
    done = state.after(action)
    if done is None:
        raise refusal(state, action)
    return done
