"""The exact endgame: the stock empty and two players left, so every card is known.

The seat knows its own hand, the table and the discard; with the stock empty every other
card in play is in the one opponent's hand. The game is then a finite two-player game of
perfect information (who may move when several can is fixed by ``playout.who_acts``), and
alpha-beta with a transposition table finds its value: +1 the seat wins, 0 a draw, -1 the
seat is the durak.

The search is bounded: by a number of nodes (iterations mode, deterministic) or by the
budget's deadline. When it runs out it gives up (``Unsolved``) and the caller falls back on
sampling and playouts.
"""

from __future__ import annotations

from typing import Final

from ..actions import Action, Defend, Exchange, Pass, Take, Throw, Transfer
from ..moves import legal_actions
from ..play import apply
from ..state import GameState
from .budget import Budget
from .heuristics import cost
from .playout import who_acts

EXACT: Final = 0
LOWER: Final = 1  # the stored value is a lower bound
UPPER: Final = 2
CHECK_CLOCK_EVERY: Final = 256  # nodes between two looks at the clock


class Unsolved(Exception):
    """The endgame did not fit in the budget."""


def is_endgame(state: GameState) -> bool:
    """Stock empty, two players still in, game not over: perfect information."""
    return state.bout is not None and not state.stock and len(state.out) == len(state.hands) - 2


class EndgameSolver:
    """Values of positions for ``seat``; one solver, and its table, per decision."""

    def __init__(self, seat: int, budget: Budget, share: float = 1.0) -> None:
        """``share``: the part of a time budget the solver may spend."""
        self.seat = seat
        self.limit = budget.node_limit()
        self.deadline = budget.deadline_after(share)
        self.now = budget.now
        self.nodes = 0
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}

    def best(self, state: GameState, candidates: list[Action]) -> tuple[Action, int]:
        """The candidate with the best exact value, and that value. Raises ``Unsolved``."""
        best_action = candidates[0]
        best_value = -2
        for action in _ordered(state, candidates):
            after, _ = apply(state, action)
            value = self.value(after, best_value, 1)
            if value > best_value:
                best_action, best_value = action, value
                if value == 1:
                    break
        return best_action, best_value

    def value(self, state: GameState, alpha: int, beta: int) -> int:
        """The exact value when it lies strictly between ``alpha`` and ``beta``; otherwise a
        bound on the right side of the window (fail-hard alpha-beta)."""
        if state.bout is None:
            if state.durak is None:
                return 0
            losing = state.losing_team or (state.durak,)  # with teams, the team (R-TEAM-4)
            return -1 if self.seat in losing else 1
        self.nodes += 1
        if self.limit is not None:
            if self.nodes > self.limit:
                raise Unsolved
        elif self.nodes % CHECK_CLOCK_EVERY == 0 and self.now() > self.deadline:
            raise Unsolved
        key = _key(state)
        stored = self.table.get(key)
        if stored is not None:
            flag, stored_value = stored
            if flag == EXACT:
                return stored_value
            if flag == LOWER and stored_value >= beta:
                return stored_value
            if flag == UPPER and stored_value <= alpha:
                return stored_value
        mover = who_acts(state)
        maximizing = mover == self.seat
        original_alpha, original_beta = alpha, beta
        best = -2 if maximizing else 2
        for action in _ordered(state, legal_actions(state, mover)):
            after, _ = apply(state, action)
            value = self.value(after, alpha, beta)
            if maximizing:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        if best <= original_alpha:
            flag = UPPER
        elif best >= original_beta:
            flag = LOWER
        else:
            flag = EXACT
        self.table[key] = (flag, best)
        return best


def _key(state: GameState) -> tuple[int, ...]:
    """Everything that decides the rest of an endgame: the hands, the bout, and what the
    limit of later bouts depends on (R-LIMIT-3). Only ints, so that the garbage collector
    stops tracking the table's keys: a table of a million tuples it had to walk again and
    again would cost more time than the search."""
    bout = state.bout
    assert bout is not None
    pairs = 0
    for attack, cover in zip(bout.attacks, bout.covers, strict=True):
        pairs = pairs << 12 | (attack + 1) << 6 | (0 if cover is None else cover + 1)
    flags = bout.taking | (state.discard == 0) << 1 | (state.bouts_played == 0) << 2
    return (*state.hands, bout.attacker, bout.defender, bout.limit, bout.passed, pairs, flags)


def _ordered(state: GameState, actions: list[Action]) -> list[Action]:
    """Likely good moves first, so alpha-beta cuts early: cheap cards, then the rest; taking
    and passing last."""
    trump = int(state.trump)

    def key(action: Action) -> int:
        if isinstance(action, Defend | Transfer):
            return cost(action.card, trump)
        if isinstance(action, Take | Pass):
            return 50
        if isinstance(action, Exchange):
            return -50  # (no exchange without a stock: never in an endgame)
        if isinstance(action, Throw):
            return cost(action.cards[0], trump) - len(action.cards)
        return cost(action.cards[0], trump) - 2 * len(action.cards)

    return sorted(actions, key=key)


__all__ = ["EndgameSolver", "Unsolved", "is_endgame"]
