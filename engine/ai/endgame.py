"""The exact endgame: the stock empty and two players left, so every card is known.

The seat knows its own hand, the table and the discard; with the stock empty every other
card in play is in the one opponent's hand. The game is then a finite two-player game of
perfect information (who may move when several can is fixed by ``rollout.mover``), and
alpha-beta with a transposition table finds its value: +1 the seat wins, 0 a draw, -1 the
seat is the durak.

The search is bounded: by a number of nodes (iterations mode, deterministic) or by the
budget's deadline. When it runs out it gives up (``Unsolved``) and the caller falls back on
sampling and playouts.
"""

from __future__ import annotations

from typing import Final

from ..actions import Action
from ..codes import decode, encode
from ..core import DEFEND, EXCHANGE, PASS, TAKE, THROW, TRANSFER, Position
from ..rollout import card_cost, mover, result_for, top_card
from ..state import GameState
from .budget import Budget

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
    """Values of positions for ``seat``; one solver, and its table, per decision. It
    searches on the fast core (``engine.search`` positions and action codes)."""

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
        code, value = self.best_code(state.position(), [encode(a) for a in candidates])
        return decode(code), value

    def best_code(self, position: Position, candidates: list[int]) -> tuple[int, int]:
        """``best`` for a position and action codes."""
        best_code = candidates[0]
        best_value = -2
        for code in _ordered(position, candidates):
            after = position.copy()
            after.apply(code)
            value = self.value(after, best_value, 1)
            if value > best_value:
                best_code, best_value = code, value
                if value == 1:
                    break
        return best_code, best_value

    def value(self, position: Position, alpha: int, beta: int) -> int:
        """The exact value when it lies strictly between ``alpha`` and ``beta``; otherwise a
        bound on the right side of the window (fail-hard alpha-beta)."""
        if position.finished:
            # 0 for a draw; with teams the team's result (R-TEAM-4)
            return round(2 * result_for(position, self.seat)) - 1
        self.nodes += 1
        if self.limit is not None:
            if self.nodes > self.limit:
                raise Unsolved
        elif self.nodes % CHECK_CLOCK_EVERY == 0 and self.now() > self.deadline:
            raise Unsolved
        key = _key(position)
        stored = self.table.get(key)
        if stored is not None:
            flag, stored_value = stored
            if flag == EXACT:
                return stored_value
            if flag == LOWER and stored_value >= beta:
                return stored_value
            if flag == UPPER and stored_value <= alpha:
                return stored_value
        seat = mover(position)
        maximizing = seat == self.seat
        original_alpha, original_beta = alpha, beta
        best = -2 if maximizing else 2
        for code in _ordered(position, position.legal(seat)):
            after = position.copy()
            after.apply(code)
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


def is_endgame_position(position: Position) -> bool:
    """``is_endgame`` for a position."""
    return (
        not position.finished and not position.stock and len(position.out) == position.players - 2
    )


def _key(position: Position) -> tuple[int, ...]:
    """Everything that decides the rest of an endgame: the hands, the bout, and what the
    limit of later bouts depends on (R-LIMIT-3); the epaulette marks (R-POG). Only ints, so
    that the garbage collector stops tracking the table's keys: a table of a million tuples
    it had to walk again and again would cost more time than the search."""
    pairs = 0
    for attack, cover in zip(position.attacks, position.covers, strict=True):
        pairs = pairs << 12 | (attack + 1) << 6 | (cover + 1)
    flags = (
        position.taking
        | (position.discard == 0) << 1
        | (position.bouts_played == 0) << 2
        | position.epaulettes << 3
    )
    return (
        *position.hands,
        position.attacker,
        position.defender,
        position.limit,
        position.passed,
        pairs,
        flags,
    )


def _ordered(position: Position, codes: list[int]) -> list[int]:
    """Likely good moves first, so alpha-beta cuts early: cheap cards, then the rest; taking
    and passing last."""
    trump = position.trump
    top = top_card(position)

    def key(code: int) -> int:
        kind = code & 7
        payload = code >> 6
        if kind == DEFEND:
            return card_cost(payload & 63, trump, top)
        if kind == TRANSFER:
            return card_cost(payload, trump, top)
        if kind in (TAKE, PASS):
            return 50
        if kind == EXCHANGE:
            return -50  # (no exchange without a stock: never in an endgame)
        lowest = (payload & -payload).bit_length() - 1
        count = payload.bit_count()
        return card_cost(lowest, trump, top) - (count if kind == THROW else 2 * count)

    return sorted(codes, key=key)


__all__ = ["EndgameSolver", "Unsolved", "is_endgame", "is_endgame_position"]
