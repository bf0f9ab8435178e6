"""The skills of players who do not change (``engine.ai.lab.skills``): the model is the one
people are rated by, the fit is the most probable skills after all the games, and its
spreads say how far off it may be."""

from __future__ import annotations

import math
import random
from itertools import combinations

import pytest
from openskill.models import PlackettLuce

from engine.ai.lab.skills import Game, fit, game_terms, log_probability
from engine.rating import BETA, START_MU

TRUE_SKILLS = {"hard": 40.0, "normal": 32.5, "easy": 22.0, "random": 11.0}


def drawn_game(rng: random.Random, players: tuple[str, ...]) -> Game:
    """A game finished as the Plackett-Luce model says players of ``TRUE_SKILLS`` do:
    each next place goes to one of those left, by weight ``exp(mu / c)``."""
    c = BETA * math.sqrt(len(players))
    left, order = list(players), []
    while left:
        chosen = rng.choices(left, [math.exp(TRUE_SKILLS[p] / c) for p in left])[0]
        order.append(chosen)
        left.remove(chosen)
    return players, [order.index(p) + 1 for p in players]


def ladder_of_drawn_games(seed: int, per_table: int = 100) -> list[Game]:
    rng = random.Random(seed)
    tables = [t for size in (2, 3, 4) for t in combinations(TRUE_SKILLS, size)]
    return [drawn_game(rng, table) for table in tables for _ in range(per_table)]


@pytest.mark.parametrize(
    ("mus", "places"),
    [([30.0, 22.0], [1, 2]), ([30.0, 22.0, 27.0], [2, 1, 2]), ([25.0, 31.0, 18.0, 26.0],
     [3, 1, 4, 2]), ([20.0, 29.0, 24.0], [1, 1, 1])],
)  # fmt: skip
def test_a_games_probability_is_the_one_openskills_update_follows(
    mus: list[float], places: list[int]
) -> None:
    """openskill moves each ``mu`` by its ``sigma`` squared times the slope of this game's
    log-probability (Weng and Lin's update): with skills known almost exactly, the two
    agree, ties and all."""
    sigma = 1e-3
    model = PlackettLuce(beta=BETA, tau=0.0)
    ratings = [model.rating(mu=mu, sigma=sigma) for mu in mus]
    rated = model.rate([[r] for r in ratings], ranks=[float(place) for place in places])
    moved = [(team[0].mu - mu) / sigma**2 for team, mu in zip(rated, mus, strict=True)]
    _, gradient, _ = game_terms(mus, places)
    assert moved == pytest.approx(gradient, rel=1e-4)


def test_the_fit_finds_skills_that_made_the_games_within_their_spreads() -> None:
    """Games drawn from known skills: the fit orders the players as the skills do and puts
    each within three ``sigma`` of its true skill (measured from the players' average,
    which the games cannot tell, at a newcomer's ``mu``)."""
    average = sum(TRUE_SKILLS.values()) / len(TRUE_SKILLS)
    for seed in range(3):
        skills = fit(ladder_of_drawn_games(seed), list(TRUE_SKILLS))
        assert sorted(skills, key=lambda p: -skills[p].mu) == list(TRUE_SKILLS)
        for player, skill in skills.items():
            truth = TRUE_SKILLS[player] - average + START_MU
            assert abs(skill.mu - truth) < 3 * skill.sigma, (seed, player, skill)
            assert 0.2 < skill.sigma < 1.5


def test_the_fit_is_the_most_probable_whatever_the_games_order() -> None:
    games = ladder_of_drawn_games(7, per_table=20)
    skills = fit(games, list(TRUE_SKILLS))
    best = {player: skill.mu for player, skill in skills.items()}
    assert sum(best.values()) == pytest.approx(START_MU * len(best))
    top = log_probability(games, best)
    for player, mu in best.items():
        for step in (-0.5, 0.5):
            assert log_probability(games, {**best, player: mu + step}) < top
    again = fit(list(reversed(games)), list(reversed(TRUE_SKILLS)))
    for player, skill in skills.items():
        assert again[player].mu == pytest.approx(skill.mu, abs=1e-9)
        assert again[player].sigma == pytest.approx(skill.sigma, abs=1e-9)


def test_more_games_make_the_spreads_smaller() -> None:
    few = fit(ladder_of_drawn_games(3, per_table=25), list(TRUE_SKILLS))
    many = fit(ladder_of_drawn_games(3, per_table=100), list(TRUE_SKILLS))
    assert all(many[player].sigma < few[player].sigma for player in TRUE_SKILLS)
