"""The exact endgame for the computer players: ``engine.solve`` bounded by a ``Budget``.

With the stock empty and two players left every card is known: the seat knows its own
hand, the table and the discard, and every other card in play is in the one opponent's
hand. ``hard`` also solves every world of a stock of a card or two (``hard._solved``).
"""

from __future__ import annotations

from ..actions import Action
from ..codes import decode, encode
from ..solve import Solver, Unsolved, is_solvable
from ..state import GameState
from .budget import Budget


def is_endgame(state: GameState) -> bool:
    """Stock empty, two players still in, game not over: perfect information."""
    return state.bout is not None and not state.stock and len(state.out) == len(state.hands) - 2


def solver_for(seat: int, budget: Budget, share: float = 1.0) -> Solver:
    """A solver for ``seat``: ``budget``'s nodes in iterations mode, else ``share`` of its
    time."""
    return Solver(seat, budget.node_limit(), budget.deadline_after(share), budget.now)


def best(solver: Solver, state: GameState, candidates: list[Action]) -> tuple[Action, int]:
    """The candidate with the best exact value in ``state``, and that value. Raises
    ``Unsolved``."""
    code, value = solver.best_code(state.position(), [encode(a) for a in candidates])
    return decode(code), value


__all__ = ["Solver", "Unsolved", "best", "is_endgame", "is_solvable", "solver_for"]
