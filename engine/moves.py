"""Who may act now, and every action they may take: the legal moves of a position.

Both come from the core (``Position.to_act`` and ``Position.legal``), as codes turned into
``Action`` values; ``apply`` accepts exactly what ``legal_actions`` lists.
"""

from __future__ import annotations

from .actions import Action
from .state import GameState


def to_act(state: GameState) -> tuple[int, ...]:
    """The players who may act now, clockwise from the primary attacker."""
    return state.acting


def legal_actions(state: GameState, player: int) -> list[Action]:
    """Every action ``player`` may take now, the cards of each ``Attack`` and ``Throw`` in
    ascending order. ``apply`` accepts exactly these, and also each ``Attack`` and ``Throw``
    with its cards named in another order: it sorts them, so the state and events are those
    of the listed action. It refuses everything else."""
    if player not in state.acting:
        return []
    return state.legal_actions(player)
