"""The players' ratings (``bot.rating``): a finished game as one Plackett-Luce match
(R-OUT-6, R-TEAM-4), checked against the model's formula by hand and against openskill's
own published example, with computers' skills fixed and spreads that never grow."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rating import MODEL, Side, Skill, rate, sides
from engine import (
    Attack,
    Card,
    Defend,
    Event,
    GameState,
    HouseRules,
    Pass,
    PlayerOut,
    Suit,
    apply,
    from_position,
    legal_actions,
    new_game,
    resign,
    to_act,
)
from engine.cards import deck_cards
from engine.rating import START_MU, START_SIGMA
from engine.rules import Teams


def endgame(hands: list[str]) -> GameState:
    """Seat 0 attacks with its one card, seat 1 covers it with its one card (trump ♠, the
    stock empty, the rest in the discard); a hand "" is a player already out."""
    cards = [[Card.parse(word) for word in hand.split()] for hand in hands]
    used = {card for hand in cards for card in hand}
    rest = [card for card in deck_cards(36) if card not in used]
    return from_position(cards, trump=Suit.SPADES, discard=rest, attacker=0)


def the_last_bout(state: GameState) -> tuple[GameState, list[Event]]:
    """0 attacks with 7♥, 1 covers it with 8♥: the bout closes, everybody draws nothing."""
    state, attacked = apply(state, Attack(0, (Card.parse("7H"),)))
    state, covered = apply(state, Defend(1, Card.parse("8H"), on=Card.parse("7H")))
    if not state.finished:
        state, passed = apply(state, Pass(0))
        return state, [*attacked, *covered, *passed]
    return state, [*attacked, *covered]


def played_out(players: int, seed: int, rules: HouseRules | None = None) -> GameState:
    """A game of random legal moves to its end."""
    rng = random.Random(seed)
    state = new_game(players, rules=rules, seed=seed)
    while not state.finished:
        seat = to_act(state)[0]
        state, _events = apply(state, rng.choice(legal_actions(state, seat)))
    return state


def test_a_heads_up_win_moves_both_by_the_models_formula() -> None:
    """By hand (Weng and Lin, Plackett-Luce): two new players, c² = Σ(σ² + τ² + β²), the
    winner's chance 1/2, so the winner gains (σ² + τ²) / c · 1/2 and the loser as much less."""
    variance = START_SIGMA**2 + MODEL.tau**2
    c = math.sqrt(2 * (variance + MODEL.beta**2))
    gain = variance / c * 0.5
    winner, loser = rate([Side((0,), 1), Side((1,), 2)], [Skill(), Skill()])
    assert winner.mu == pytest.approx(START_MU + gain)
    assert loser.mu == pytest.approx(START_MU - gain)
    assert winner.sigma == loser.sigma < START_SIGMA
    assert winner.points > Skill().points and loser.points > Skill().points - 100


def test_a_team_match_gives_openskills_published_result() -> None:
    """openskill's own example: a team of (25, 8.333) and (32.444, 5.123) beats one of
    (43.381, 2.421) and (25.188, 6.211); its README gives the four ratings after."""
    before = [Skill(25.0, 25 / 3), Skill(32.444, 5.123), Skill(43.381, 2.421), Skill(25.188, 6.211)]
    after = rate([Side((0, 1), 1), Side((2, 3), 2)], before)
    published = [(28.6696, 8.0715), (33.8309, 5.0628), (43.0713, 2.4167), (23.1495, 6.1379)]
    for skill, (mu, sigma) in zip(after, published, strict=True):
        assert skill.mu == pytest.approx(mu, abs=0.01)
        assert skill.sigma == pytest.approx(sigma, abs=0.01)


def test_r_out_6_the_order_of_leaving_ranks_the_players_and_the_durak_last() -> None:
    for seed in range(20):
        state = played_out(4, seed)
        game = sides(state)
        if state.durak is None:
            assert {side.rank for side in game} == {1}
            continue
        assert [side.seats for side in game] == [(seat,) for seat in (*state.out, state.durak)]
        assert [side.rank for side in game] == [1, 2, 3, 4]


def test_r_out_6_players_who_leave_at_the_end_of_one_bout_tie() -> None:
    state, events = the_last_bout(endgame(["7H", "8H", "9C 10C"]))
    together = [[event.player for event in events if isinstance(event, PlayerOut)]]
    assert together == [[0, 1]] and state.durak == 2
    assert sides(state, together) == (Side((0,), 1), Side((1,), 1), Side((2,), 3))
    # Without the bouts kept (a game saved before they were), one seat a bout.
    assert [side.rank for side in sides(state)] == [1, 2, 3]


def test_r_out_5_a_draw_ties_everybody() -> None:
    """Seat 2 left earlier; 0 and 1 leave together with no card left anywhere: a draw."""
    state, _events = the_last_bout(endgame(["7H", "8H", ""]))
    assert state.durak is None
    game = sides(state)
    assert [side.rank for side in game] == [1, 1, 1]
    after = rate(game, [Skill(), Skill(), Skill()])
    assert after[0].mu == pytest.approx(after[2].mu)


def test_r_team_4_a_team_is_one_side_and_the_losing_team_is_last() -> None:
    rules = HouseRules(teams=Teams.PAIRS)
    for seed in range(10):
        state = played_out(4, seed, rules)
        game = sides(state)
        assert sorted(side.seats for side in game) == sorted(state.teams)
        if state.durak is not None:
            assert game[-1].seats == state.losing_team
            assert [side.rank for side in game] == [1, 2]


def test_a_player_who_resigns_is_ranked_as_the_durak() -> None:
    state = new_game(3, seed=5)
    state, _events = resign(state, 1)
    assert sides(state)[-1] == Side((1,), 3)


def test_an_unfinished_game_is_not_rated() -> None:
    assert sides(new_game(2, seed=1)) == ()


def test_a_computers_skill_does_not_move() -> None:
    computer = Skill(30.0, 1.0)
    person, after = rate([Side((0,), 1), Side((1,), 2)], [Skill(), computer], frozenset({1}))
    assert after == computer
    assert person.mu > START_MU


@settings(max_examples=60, deadline=None)
@given(
    skills=st.lists(
        st.tuples(st.floats(0, 50), st.floats(0.5, START_SIGMA)), min_size=2, max_size=6
    ),
    order=st.randoms(use_true_random=False),
)
def test_a_spread_never_grows_from_a_game(
    skills: list[tuple[float, float]], order: random.Random
) -> None:
    before = [Skill(mu, sigma) for mu, sigma in skills]
    ranks = [order.randint(1, len(before)) for _ in before]
    after = rate([Side((seat,), rank) for seat, rank in enumerate(ranks)], before)
    for old, new in zip(before, after, strict=True):
        assert new.sigma <= old.sigma + 1e-9
