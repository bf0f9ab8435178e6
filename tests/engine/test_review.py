"""The review of a game (engine.ai.review): honest (what the seat did not see never changes
a judgment), repeatable, about real choices only, and its command.

Judgments here search few worlds (``ITERATIONS``): what is tested is what a judgment
depends on, not how well it plays.
"""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import card, cards, deck, random_steps
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from bench.review import normal_game
from engine import (
    Action,
    Attack,
    Blind,
    Exchange,
    GameState,
    HouseRules,
    Suit,
    Take,
    apply,
    from_position,
    legal_actions,
    new_game,
    view_for,
)
from engine.ai import watched_discard
from engine.ai.review import (
    Decision,
    Judgment,
    choices,
    costliest,
    decisions,
    judge,
    main,
    review,
)
from engine.codes import encode
from engine.rollout import play_greedy, result_for
from tests.permute import permute_hidden

ROOT = Path(__file__).resolve().parents[2]
RECORDS = Path(__file__).resolve().parent / "records"
ITERATIONS = 30  # hard's worlds a judgment here: enough to search, quick


def state_before(start: GameState, actions: list[Action], index: int) -> GameState:
    state = start
    for action in actions[:index]:
        state, _ = apply(state, action)
    return state


def decision_at(state: GameState, index: int, seat: int, played: Action) -> Decision:
    """The decision ``review.decisions`` would yield for ``played`` in ``state``."""
    legal = legal_actions(state, seat)
    return Decision(index, view_for(state, seat), watched_discard(state), legal, played)


# --- honesty ---------------------------------------------------------------------------


@settings(
    max_examples=8,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.filter_too_much],
)
@given(
    players=st.sampled_from([2, 3]),
    seed=st.integers(min_value=0, max_value=10**6),
    pick=st.integers(min_value=0, max_value=10**6),
    shuffle=st.integers(min_value=0, max_value=10**6),
)
def test_cards_the_seat_did_not_see_never_change_a_judgment(
    players: int, seed: int, pick: int, shuffle: int
) -> None:
    """Dealt another way, the cards seat 0 did not see (the others' unseen cards, the
    stock's order) give the same view, the same decision and the same judgment."""
    start, actions = normal_game(players, seed)
    found = list(decisions(start, actions, 0))
    assume(found)
    decision = found[pick % len(found)]
    state = state_before(start, actions, decision.index)
    assert decision_at(state, decision.index, 0, decision.played) == decision
    other = permute_hidden(state, 0, random.Random(shuffle))
    assume(other != state)  # something was hidden from seat 0
    assume(view_for(other, 0) == view_for(state, 0))  # an automatic pass may tell them apart
    moved = decision_at(other, decision.index, 0, decision.played)
    assert moved == decision
    assert judge(moved, iterations=ITERATIONS) == judge(decision, iterations=ITERATIONS)


def true_value(state: GameState, action: Action, playouts: int = 20) -> float:
    """What ``action`` is worth to its seat with every hand as it really is: the real
    position played to its end by the playout policy, ``playouts`` times."""
    total = 0.0
    for index in range(playouts):
        world = state.position()
        world.apply(encode(action))
        play_greedy(world, random.Random(index))
        total += result_for(world, action.player)
    return total / playouts


def test_the_true_hands_decide_the_best_move_but_not_the_judgment() -> None:
    """Stock empty, trumps spades. Seat 0 attacks seat 1 and holds 10H 10D; seats 1 and 2
    hold one card each, 8H and 6D, and seat 0 cannot tell who holds which. Neither ten can
    be covered (no trump is left), so seat 1 takes the ten led, and seat 2 attacks seat 0
    with its last card. If seat 0 kept the ten of that card's suit it covers it, and seats
    0 and 2 are out together: seat 1 is the durak. Otherwise seat 0 takes it and is left
    alone with seat 1, who leads its low card and, when seat 0 covers it with the other
    ten, throws in the ten it took: seat 0 takes again and is the durak.

    So the right lead is the ten of the defender's suit: 10H when seat 1 holds 8H, 10D when
    it holds 6D. Valued with the true hands the best move flips between the two deals; the
    seat's view is the same in both, and so is the review's judgment of a lead of 10H:
    right in one deal, a loss in the other, and the review cannot say which."""
    seat0 = cards("10H 10D")

    def dealt(seat1: str, seat2: str) -> GameState:
        hands = [seat0, cards(seat1), cards(seat2)]
        held = {c for hand in hands for c in hand}
        discard = [c for c in deck(36) if c not in held]
        return from_position(hands, trump=Suit.SPADES, discard=discard, attacker=0)

    hearts, diamonds = dealt("8H", "6D"), dealt("6D", "8H")
    lead_hearts, lead_diamonds = Attack(0, (card("10H"),)), Attack(0, (card("10D"),))
    assert sorted(map(str, legal_actions(hearts, 0))) == [str(lead_diamonds), str(lead_hearts)]
    assert true_value(hearts, lead_hearts) == 1.0
    assert true_value(hearts, lead_diamonds) == 0.0
    assert true_value(diamonds, lead_hearts) == 0.0
    assert true_value(diamonds, lead_diamonds) == 1.0

    assert view_for(hearts, 0) == view_for(diamonds, 0)
    first = judge(decision_at(hearts, 0, 0, lead_hearts), iterations=ITERATIONS)
    second = judge(decision_at(diamonds, 0, 0, lead_hearts), iterations=ITERATIONS)
    assert first == second
    # Each lead wins in the worlds where seat 1 holds its suit: about half of them.
    assert 0.35 < first.after < 0.65


def test_a_judgment_is_repeatable_and_survives_pickling() -> None:
    """The bot judges in a pool of processes: the decision crosses over pickled."""
    start, actions = normal_game(2, seed=3)
    decision = next(decisions(start, actions, 0))
    judged = judge(decision, iterations=ITERATIONS, seed=5)
    copied = pickle.loads(pickle.dumps(decision))
    assert copied == decision
    assert judge(copied, iterations=ITERATIONS, seed=5) == judged


def test_a_judgment_prefers_a_move_only_when_it_values_better() -> None:
    start, actions = normal_game(2, seed=4)
    judged = review(start, actions, 0, iterations=ITERATIONS)
    assert judged
    for decision, judgment in zip(decisions(start, actions, 0), judged, strict=True):
        assert judgment.index == decision.index
        assert judgment.played == decision.played
        assert judgment.preferred in decision.legal
        assert 0.0 <= judgment.after <= judgment.before <= 1.0
        if judgment.preferred == judgment.played:
            assert judgment.cost == 0.0
        else:
            assert judgment.cost > 0.0


# --- what is judged --------------------------------------------------------------------


def test_decisions_are_the_seats_real_choices_only() -> None:
    """Every action of the seat with two or more choices, none of the forced ones."""
    start, actions = normal_game(3, seed=7)
    expected = []
    state = start
    for index, action in enumerate(actions):
        if action.player == 0 and len(legal_actions(state, 0)) > 1:
            expected.append(index)
        state, _ = apply(state, action)
    forced = [
        i for i, a in enumerate(actions) if a.player == 0 and i not in expected
    ]  # a take with nothing that covers, a pass with nothing to throw
    assert forced, "a game of normal computers has forced actions"
    found = list(decisions(start, actions, 0))
    assert [d.index for d in found] == expected
    for decision in found:
        assert decision.played in decision.legal
        assert decision.played.player == decision.seat == 0


def test_r_six_an_exchange_is_no_decision() -> None:
    """R-SIX: every level exchanges at once; neither the exchange nor the choice it adds
    is judged."""
    rules = HouseRules(trump_six_exchange=True)
    exchanged = 0
    for seed in range(20):
        start, actions = normal_game(2, seed, rules)
        exchanged += sum(type(action) is Exchange for action in actions)
        for decision in decisions(start, actions, 0):
            assert type(decision.played) is not Exchange
            assert len(choices(decision.legal)) > 1
    assert exchanged


@pytest.mark.parametrize("blind", [Blind.REVERSED, Blind.CHINESE, Blind.DOUBT])
def test_a_blind_game_has_no_decisions(blind: Blind) -> None:
    """The review covers the open games (RULES.md section 14 is played unseen)."""
    start = new_game(2, rules=HouseRules(blind=blind), seed=1)
    steps = list(random_steps(start, random.Random(1)))
    actions = [action for _, action, _, _ in steps]
    assert any(action.player == 0 for action in actions)
    assert list(decisions(start, actions, 0)) == []


def moment(index: int, cost: float) -> Judgment:
    return Judgment(index, Take(0), Take(0), 0.5 + cost, 0.5)


def test_costliest_orders_by_cost_then_by_index() -> None:
    judged = [moment(0, 0.04), moment(3, 0.2), moment(5, 0.1), moment(7, 0.2), moment(9, 0.3)]
    assert [j.index for j in costliest(judged)] == [9, 3, 7]
    assert [j.index for j in costliest(judged, most=5)] == [9, 3, 7, 5]
    assert [j.index for j in costliest(judged, most=5, least_cost=0.0)] == [9, 3, 7, 5, 0]
    assert costliest([moment(1, 0.0)]) == []


# --- the command -----------------------------------------------------------------------


def test_the_command_names_the_costliest_moments(capsys: pytest.CaptureFixture[str]) -> None:
    record = str(RECORDS / "ex2_four_players.json")
    assert main([record, "--seat", "p1", "--iterations", str(ITERATIONS)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines
    assert all(line.startswith(("move ", "no move cost")) for line in lines)

    assert main([record, "--seat", "p1", "--iterations", str(ITERATIONS), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["seat"] == "p1"
    assert report["decisions"] == 3
    for entry in report["moments"]:
        assert entry["played"]["p"] == "p1"
        assert entry["cost"] >= 0.05


def test_the_command_refuses_an_unknown_seat_a_malformed_record_and_an_illegal_action(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = str(RECORDS / "ex1_limit.json")
    assert main([record, "--seat", "zed"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "zed" in captured.err

    broken = tmp_path / "broken.json"
    broken.write_text('{"players": ["a"]', "utf-8")
    assert main([str(broken), "--seat", "a"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1

    illegal = str(RECORDS / "ex4_limit_defender_hand.json")  # its main line ends refused
    assert main([illegal, "--seat", "ann"]) == 1
    assert capsys.readouterr().err.count("\n") == 1


def test_the_command_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine.ai.review", str(RECORDS / "ex1_limit.json"),
         "--seat", "bob", "--iterations", str(ITERATIONS), "--json"],
        capture_output=True, cwd=ROOT, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["decisions"] == 2
