"""The skills of players who do not change, found from all their games at once.

People are rated one game after another (``bot.rating``, openskill's Plackett-Luce update):
their skill moves, so the newest games should count most. A computer level does not move,
so every game of the ladder says the same about it. This module finds the one ``mu`` per
player that explains all the games best, under the same model and on the same scale as
people's ratings:

- a game of ``n`` players who finished in places ``r`` (1 the best, equal places a tie) has
  the Plackett-Luce probability that Weng and Lin's update follows, ties counted as they
  and openskill count them::

      log P = sum over q of (1 / A_q) * (t_q - log(sum over s with r_s >= r_q of exp(t_s)))

  with ``t = mu / c``, ``c = BETA * sqrt(n)`` (the skills known exactly) and ``A_q`` the
  number of players who share ``q``'s place;
- before any game every ``mu`` is believed ``START_MU`` with a spread ``START_SIGMA``, as
  a newcomer's is.

The result (``fit``) is the most probable ``mu`` of each player after all the games, found
by Newton's method (the log-probability is concave, so there is one), and its ``sigma``
from the curvature there (the Laplace approximation): about two chances in three that the
skill lies within one ``sigma``. Every game counts once, whatever order it was played in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ...rating import BETA, START_MU, START_SIGMA

__all__ = ["Game", "Skill", "fit", "log_probability"]

Game = tuple[Sequence[str], Sequence[int]]  # the players by seat, their places by seat
MAX_STEPS = 100
CLOSE_ENOUGH = 1e-9  # a Newton step shorter than this, in mu, ends the search


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float


def game_terms(
    mus: Sequence[float], places: Sequence[int]
) -> tuple[float, list[float], list[list[float]]]:
    """One game's log-probability, its gradient and its Hessian in the players' ``mu``
    (by seat), for ``mus`` and ``places`` by seat."""
    n = len(mus)
    c = BETA * math.sqrt(n)
    weights = [math.exp((mu - max(mus)) / c) for mu in mus]  # shifted: no overflow
    log_p = 0.0
    gradient = [0.0] * n
    hessian = [[0.0] * n for _ in range(n)]
    for q in range(n):
        tied = sum(place == places[q] for place in places)
        rest = [s for s in range(n) if places[s] >= places[q]]
        total = sum(weights[s] for s in rest)
        share = {s: weights[s] / total for s in rest}
        log_p += (math.log(weights[q]) - math.log(total)) / tied
        gradient[q] += 1 / (tied * c)
        for s in rest:
            gradient[s] -= share[s] / (tied * c)
            for t in rest:
                covariance = share[s] * ((s == t) - share[t])
                hessian[s][t] -= covariance / (tied * c * c)
    return log_p, gradient, hessian


def log_probability(games: Sequence[Game], mus: dict[str, float]) -> float:
    """The log-probability of ``games`` given every player's ``mu``, the belief before any
    game included (the quantity ``fit`` makes largest)."""
    prior = sum(-((mu - START_MU) ** 2) / (2 * START_SIGMA**2) for mu in mus.values())
    return prior + sum(
        game_terms([mus[p] for p in players], places)[0] for players, places in games
    )


def fit(games: Sequence[Game], players: Sequence[str]) -> dict[str, Skill]:
    """Each of ``players``' most probable skill after ``games``, and its spread.

    >>> skills = fit([(("a", "b"), (1, 2))] * 9 + [(("a", "b"), (2, 1))], ["a", "b"])
    >>> skills["a"].mu > 25 > skills["b"].mu, round(skills["a"].mu + skills["b"].mu, 6)
    (True, 50.0)
    """
    index = {player: k for k, player in enumerate(players)}
    mus = [START_MU] * len(players)
    for _ in range(MAX_STEPS):
        gradient, hessian = totals(games, index, mus)
        step = solve([[-value for value in row] for row in hessian], gradient)
        mus = [mu + delta for mu, delta in zip(mus, step, strict=True)]
        if max(map(abs, step)) < CLOSE_ENOUGH:
            break
    else:
        raise ArithmeticError(f"the skills did not settle in {MAX_STEPS} steps")
    _, hessian = totals(games, index, mus)
    spread = given_average(inverse([[-value for value in row] for row in hessian]))
    return {p: Skill(mus[k], math.sqrt(spread[k][k])) for p, k in index.items()}


def given_average(covariance: list[list[float]]) -> list[list[float]]:
    """The spread of the skills once their average is known.

    A game tells only how far apart its players are: adding the same to every ``mu``
    changes no game's probability. Only the belief before any game says where they lie
    together, and there the most probable ``mu`` average ``START_MU`` exactly (the games'
    pulls sum to nothing). That is the scale's convention, a newcomer's start at the
    players' average; so each ``sigma`` says how sure a player's place is beside the
    others', not how sure the convention is.

    >>> given_average([[2.0, 0.0], [0.0, 2.0]])
    [[1.0, -1.0], [-1.0, 1.0]]
    """
    sums = [sum(row) for row in covariance]
    total = sum(sums)
    return [[value - sums[k] * sums[j] / total for j, value in enumerate(row)]
            for k, row in enumerate(covariance)]  # fmt: skip


def totals(
    games: Sequence[Game], index: dict[str, int], mus: list[float]
) -> tuple[list[float], list[list[float]]]:
    """The gradient and Hessian of ``log_probability`` over every player, at ``mus``."""
    size = len(mus)
    gradient = [-(mu - START_MU) / START_SIGMA**2 for mu in mus]
    hessian = [[-(k == j) / START_SIGMA**2 for j in range(size)] for k in range(size)]
    for players, places in games:
        seats = [index[player] for player in players]
        _, game_gradient, game_hessian = game_terms([mus[k] for k in seats], places)
        for a, k in enumerate(seats):
            gradient[k] += game_gradient[a]
            for b, j in enumerate(seats):
                hessian[k][j] += game_hessian[a][b]
    return gradient, hessian


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``matrix x = vector``, for a symmetric positive definite ``matrix``."""
    inverted = inverse(matrix)
    return [sum(row[j] * vector[j] for j in range(len(vector))) for row in inverted]


def inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small positive definite ``matrix`` (Gauss-Jordan; the matrices here
    are a player a row, four at most in the ladder).

    >>> inverse([[2.0, 0.0], [0.0, 4.0]])
    [[0.5, 0.0], [0.0, 0.25]]
    """
    size = len(matrix)
    rows = [list(row) + [float(k == j) for j in range(size)] for k, row in enumerate(matrix)]
    for k in range(size):
        pivot = max(range(k, size), key=lambda r: abs(rows[r][k]))
        rows[k], rows[pivot] = rows[pivot], rows[k]
        lead = rows[k][k]
        rows[k] = [value / lead for value in rows[k]]
        for r in range(size):
            if r != k and rows[r][k]:
                factor = rows[r][k]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[k], strict=True)]
    return [row[size:] for row in rows]
