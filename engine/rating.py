"""Ratings on one scale for people and computer players.

The model is Plackett-Luce over a game's finishing order, as Weng and Lin define it: the
``openskill`` package updates people's skills with it one game after another
(``bot.rating``), and ``engine.arena ladder`` finds the computer players' from all their
games at once (``engine.ai.lab.skills``). A player's skill is a belief, a mean ``mu`` and
a spread ``sigma``, starting at ``START_MU`` and ``START_SIGMA``. What a person is shown is
a conservative figure, ``mu - 3 sigma`` (a skill they have with about 99.7 % certainty),
scaled so that everybody starts at ``START_POINTS`` (``displayed``). So a rating grows while
the bot gets to know a player (their ``sigma`` shrinks), and falls when they do worse than
expected.
"""

from __future__ import annotations

from typing import Final

START_MU: Final = 25.0
START_SIGMA: Final = 25.0 / 3
START_POINTS: Final = 1500
# The model's unit of luck, openskill's default (half the first spread): a player one BETA
# more skilled than another wins about two games in three of theirs, heads-up.
BETA: Final = START_SIGMA / 2
# Displayed points per unit of ``mu``: a settled player one ``START_SIGMA`` above another
# (the better of the two about four games in five, heads-up) shows about 170 points more.
POINTS_PER_MU: Final = 20.0


def displayed(mu: float, sigma: float) -> int:
    """The rating a person sees for a skill of ``mu`` and ``sigma``.

    >>> displayed(START_MU, START_SIGMA)
    1500
    >>> displayed(30.0, 2.0)
    1980
    """
    return round(START_POINTS + POINTS_PER_MU * (mu - 3 * sigma))
