"""The exact endgame on the fast core: alpha-beta with a transposition table over
``Position``s and action codes, for two players and everything known.

With two players left and the cards placed (the stock empty, so every other card is in the
one opponent's hand; or one world of the cards a seat has not seen, the stock's order
dealt) the game is a finite two-player game of perfect information (who may move when
several can is fixed by ``rollout.mover``). Its value: +1 the seat wins, 0 a draw, -1 the
seat is the durak. A hot module, compiled with the rules core: the search spends most of
its time in its own loop, the keys and the move order, not in the rules.

The search is bounded by a number of nodes (deterministic) or by a deadline; when it runs
out it gives up (``Unsolved``). ``engine.ai.endgame`` is its face for the computer players.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .core import DEFEND, EXCHANGE, PASS, TAKE, THROW, TRANSFER, Position
from .rollout import card_cost, mover, result_for, top_card

EXACT: Final = 0
LOWER: Final = 1  # the stored value is a lower bound
UPPER: Final = 2
CHECK_CLOCK_EVERY: Final = 256  # nodes between two looks at the clock


class Unsolved(Exception):
    """The search did not fit in its nodes or its time."""


class Solver:
    """Values of positions for ``seat``; one solver, and its table, per decision.
    ``limit``: the nodes it may visit (None: no limit); ``deadline``: the ``now()`` time by
    which it gives up."""

    def __init__(
        self, seat: int, limit: int | None, deadline: float, now: Callable[[], float]
    ) -> None:
        self.seat = seat
        self.limit = limit
        self.deadline = deadline
        self.now = now
        self.nodes = 0
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}

    def best_code(self, position: Position, candidates: list[int]) -> tuple[int, int]:
        """The candidate with the best exact value, and that value. Raises ``Unsolved``."""
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

    def values(self, position: Position, candidates: list[int]) -> list[int]:
        """The exact value of every candidate, in their order (to be weighed over worlds)."""
        values = []
        for code in candidates:
            after = position.copy()
            after.apply(code)
            # The values are -1, 0 or 1, so a window of (-1, 1) gives them exactly.
            values.append(self.value(after, -1, 1))
        return values

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


def is_solvable(position: Position) -> bool:
    """Two players still in, the game not over, and no Northern bottom card that may still
    change the trump (``_key`` does not hold the trump): the solver plays the rest of this
    world, the stock's draws as they lie in it."""
    return (
        not position.finished and position.north < 0 and len(position.out) == position.players - 2
    )


def _key(position: Position) -> tuple[int, ...]:
    """Everything that decides the rest of an endgame: the hands, the bout, the stock (in
    order) and the lowest trump while it may be exchanged (R-SIX-1), what the limit of later
    bouts depends on (R-LIMIT-3); the epaulette marks (R-POG). Only ints, so
    that the garbage collector stops tracking the table's keys: a table of a million tuples
    it had to walk again and again would cost more time than the search."""
    pairs = 0
    for attack, cover in zip(position.attacks, position.covers, strict=True):
        pairs = pairs << 12 | (attack + 1) << 6 | (cover + 1)
    stock = 0
    for card in position.stock:
        stock = stock << 6 | (card + 1)
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
        stock,
        position.six,
        flags,
    )


def _ordered(position: Position, codes: list[int]) -> list[int]:
    """Likely good moves first, so alpha-beta cuts early: cheap cards, then the rest; taking
    and passing last (equal ones in the order given)."""
    trump = position.trump
    top = top_card(position)
    keyed = [(_order_key(code, trump, top), index, code) for index, code in enumerate(codes)]
    keyed.sort()
    return [code for _, _, code in keyed]


def _order_key(code: int, trump: int, top: int) -> int:
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


__all__ = ["Solver", "Unsolved", "is_solvable"]
