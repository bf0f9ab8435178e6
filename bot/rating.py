"""The players' ratings: a finished game as one match of the Plackett-Luce model, through
the ``openskill`` package, on the scale of ``engine.rating`` (shared with the computer
players' ladder, ``engine.arena ladder``).

A finished game ranks its sides (``sides``): without teams each player, by the order they
left (R-OUT-6: those who left at the end of one bout tie), the durak last; with teams each
team, by when its last player left, the losing team last (R-TEAM-4); a draw ties everybody.
A player who resigned or was removed for timing out is the durak of that game
(``engine.resign``), so is ranked last. ``rate`` gives everybody's new skill: a person's
moves; a computer player's is its level's fixed one and does not (nobody can farm it). A
skill's spread never grows from a game (``limit_sigma``): a result can only make the bot
surer of a player.

Pure: the skills are kept by ``bot.storage.players``, which rates a game in the same write
as its final move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from engine import GameState
from engine.rating import BETA, START_MU, START_SIGMA, displayed

MODEL: Final = PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=BETA, limit_sigma=True)


@dataclass(frozen=True, slots=True)
class Skill:
    """What the bot believes of a player's skill: a mean and a spread (``engine.rating``)."""

    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def points(self) -> int:
        """The rating shown: conservative, 1,500 at the start (``engine.rating.displayed``)."""
        return displayed(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a match: a player, or a team, and its rank (1 = best; equal ranks tie)."""

    seats: tuple[int, ...]
    rank: int


def sides(state: GameState, outs: Sequence[Sequence[int]] = ()) -> tuple[Side, ...]:
    """The ranked sides of a finished game (see the module docstring); () if it is not
    finished or has fewer than two seats. ``outs``: the seats that left, one list per bout's
    end (``ChatGame.outs``); players who left at the end of one bout tie, and so do teams
    whose last players did."""
    if not state.finished or state.players < 2:
        return ()
    teams = state.teams or tuple((seat,) for seat in range(state.players))
    durak = state.durak
    if durak is None:  # a draw (R-OUT-5, R-TEAM-4)
        return tuple(Side(team, 1) for team in teams)
    left = _bout_left(state, outs)
    losing = next(team for team in teams if durak in team)
    finished = [team for team in teams if team != losing]
    # A team finished when its last player left (without teams: the player did).
    left_at = {team: max(left[seat] for seat in team) for team in finished}
    ranked = [
        Side(team, 1 + sum(other < left_at[team] for other in left_at.values()))
        for team in sorted(finished, key=left_at.__getitem__)
    ]
    return (*ranked, Side(losing, len(finished) + 1))


def _bout_left(state: GameState, outs: Sequence[Sequence[int]]) -> dict[int, int]:
    """Seat -> the count of bout ends before the one it left at: ``outs`` when they tell
    the order the game kept (``GameState.out``), else one seat a bout. Who was still in
    when the game ended otherwise (a resignation) left last, together."""
    together = [list(bout) for bout in outs]
    if [seat for bout in together for seat in bout] != list(state.out):
        together = [[seat] for seat in state.out]
    left = {seat: index for index, bout in enumerate(together) for seat in bout}
    return {seat: left.get(seat, len(together)) for seat in range(state.players)}


def rate(
    game: Sequence[Side], skills: Sequence[Skill], fixed: frozenset[int] = frozenset()
) -> list[Skill]:
    """Everybody's skill after ``game`` (``skills`` and the result by seat); the seats in
    ``fixed`` (computer players) keep theirs."""
    teams = [
        [MODEL.create_rating([skills[s].mu, skills[s].sigma]) for s in side.seats] for side in game
    ]
    rated = MODEL.rate(teams, ranks=[side.rank for side in game])
    after = list(skills)
    for side, team in zip(game, rated, strict=True):
        for seat, rating in zip(side.seats, team, strict=True):
            if seat not in fixed:
                after[seat] = Skill(float(rating.mu), float(rating.sigma))
    return after
