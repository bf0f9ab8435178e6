"""Computer players (engine.ai): honest, repeatable, in time, and legal in every kind of game.

The variants of RULES.md section 13 are played too: the 40 combinations that
``engine.rules.variant_combinations`` samples join the 108 plain ones, with the player
counts their teams allow and, under ``trump: dealer``, a suit named by ``choose_trump``.

Sizes: ``DURAK_AI_GAMES`` games per house-rule combination (148 of them) for random, easy
and normal (default 1; CI plays 10, so over 3,000 games); ``DURAK_AI_HARD_GAMES`` for hard,
which searches one world a decision there (default 0: one game in every ``HARD_EVERY``-th
combination, about 1.5 s a game). ``DURAK_AI_POSITIONS`` positions for the honesty and
determinism tests (default 40). Every game seats the level under test in the even seats and
``normal`` in the odd ones, with 2 to ``max_players`` players in turn.
"""

from __future__ import annotations

import gc
import os
import random
import sys
from types import FrameType
from typing import Any

import pytest

from engine import (
    GameState,
    HouseRules,
    Throw,
    TrumpChoice,
    apply,
    from_position,
    legal_actions,
    new_game,
    view_for,
)
from engine.ai import (
    LEVELS,
    NotToAct,
    choose_action,
    choose_for_view,
    choose_trump,
    decide,
    hard,
    who_acts,
)
from engine.ai.budget import Budget
from engine.ai.endgame import best, is_endgame, solver_for
from engine.ai.knowledge import seat_knowledge
from engine.ai.lab import ARENA_LEVELS
from engine.ai.lab import choose_action as choose_in_arena
from engine.ai.playout import score
from engine.ai.sampling import determinize
from engine.ai.worlds import Worlds
from engine.cards import Card, deck_mask
from engine.codes import encode
from engine.rules import all_combinations, player_counts, variant_combinations
from tests.permute import permute_hidden

GAMES = int(os.environ.get("DURAK_AI_GAMES", "1"))
HARD_GAMES = int(os.environ.get("DURAK_AI_HARD_GAMES", "0"))
POSITIONS = int(os.environ.get("DURAK_AI_POSITIONS", "40"))
HARD_EVERY = 12
HONEST_ITERATIONS = 3  # hard's worlds a decision in the honesty test: enough to search

PLAIN_COMBOS: tuple[HouseRules, ...] = all_combinations()
COMBOS: tuple[HouseRules, ...] = PLAIN_COMBOS + variant_combinations()


def start(rules: HouseRules, players: int, seed: int) -> GameState:
    """A new game; under ``trump: dealer`` the dealer is a computer and names the suit."""
    named = choose_trump(seed) if rules.trump is TrumpChoice.DEALER else None
    return new_game(players, rules=rules, seed=seed, trump=named)


def random_positions(
    count: int, seed: int, combos: tuple[HouseRules, ...] = COMBOS
) -> list[tuple[GameState, int]]:
    """Positions of random games under random rules and player counts, with a seat that may
    act, taken at random moments (early, middle and endgame alike)."""
    rng = random.Random(seed)
    found: list[tuple[GameState, int]] = []
    while len(found) < count:
        rules = rng.choice(combos)
        players = rng.choice(player_counts(rules))
        state = start(rules, players, rng.randrange(10**9))
        while state.bout is not None and len(found) < count:
            seat = rng.choice(state.acting)
            if rng.random() < 0.15:
                found.append((state, seat))
            state, _ = apply(state, rng.choice(legal_actions(state, seat)))
    return found


def options(level: str) -> dict[str, Any]:
    return {"iterations": HONEST_ITERATIONS} if level.startswith("hard") else {}


@pytest.mark.parametrize("level", ARENA_LEVELS)
def test_hidden_cards_never_change_a_decision(level: str) -> None:
    """Honesty: swapping the cards a seat cannot see (other hands' unseen cards, the stock
    order) changes nothing it decides with the same seed; the lab's honest ``hard-v1`` is
    held to it too."""
    rng = random.Random(11)
    compared = 0
    for index, (state, seat) in enumerate(random_positions(POSITIONS, seed=5)):
        before = choose_in_arena(state, seat, level, seed=index, **options(level))
        for _ in range(3):
            other = permute_hidden(state, seat, rng)
            if view_for(other, seat) != view_for(state, seat):
                continue  # an automatic pass moved: the seat may tell these apart
            assert choose_in_arena(other, seat, level, seed=index, **options(level)) == before
            compared += 1
    assert compared >= POSITIONS  # most swaps keep the view


@pytest.mark.parametrize("level", ARENA_LEVELS)
def test_same_seed_same_decision(level: str) -> None:
    for index, (state, seat) in enumerate(random_positions(POSITIONS // 2, seed=6)):
        first = choose_in_arena(state, seat, level, seed=index, **options(level))
        assert choose_in_arena(state, seat, level, seed=index, **options(level)) == first
        assert first in legal_actions(state, seat)


class SteppingClock:
    """A clock that moves on ``step`` seconds each time it is read: the search's own pace,
    whatever the machine's."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.time = 0.0

    def __call__(self) -> float:
        self.time += self.step
        return self.time


@pytest.mark.parametrize("budget_ms", [30, 120])
def test_hard_stops_within_its_time_budget(budget_ms: int) -> None:
    """The search starts another world only if the slowest so far still fits, and cuts a
    world short when the time is up: on a clock that moves 1 ms a reading, it ends within
    the budget and a few readings, and (but for an exact endgame) does not give up early.
    How long decisions take on a real machine is a benchmark's figure, not a test's:
    ``python -m engine.arena`` prints ms a decision."""
    step = 0.001
    # The plain game's positions: the 0.8 below is measured on them (a world of a position
    # with many candidates can take more than a fifth of a small budget).
    for state, seat in random_positions(16, seed=8, combos=PLAIN_COMBOS):
        clock = SteppingClock(step)
        budget = Budget(budget_ms, None, clock=clock)
        knowledge = seat_knowledge(state, seat)
        legal = legal_actions(state, seat)
        action = decide(knowledge, legal, "hard", random.Random(1), budget)
        assert action in legal
        if len(legal) == 1:
            continue  # nothing to think about
        spent_ms = clock.time * 1000
        assert spent_ms <= budget_ms + 10, (spent_ms, len(legal))
        if not is_endgame(state):  # the exact endgame may be solved well within it
            assert spent_ms >= budget_ms * 0.8, (spent_ms, len(legal))


def test_no_collection_of_cycles_runs_inside_a_decision() -> None:
    """The cycle collector is off from a decision's first statement on: a collection that
    starts inside one runs on the caller's time, past the budget (a full one takes tens of
    milliseconds in a long-lived process: the arena's slowest decisions). With the
    collector's threshold at one object, anything it counts made before it is off would
    start one."""
    state = new_game(2, seed=3)
    seat = state.acting[0]
    inside: list[str] = []

    def note(phase: str, info: dict[str, int]) -> None:
        frame: FrameType | None = sys._getframe(1)
        while frame is not None:
            if frame.f_globals.get("__name__") == "engine.ai" and frame.f_code.co_name in (
                "choose_action",
                "choose_for_view",
            ):
                inside.append(f"{phase} in {frame.f_code.co_name}")
                return
            frame = frame.f_back

    threshold = gc.get_threshold()
    gc.callbacks.append(note)
    gc.set_threshold(1)
    try:
        for level in ("normal", "hard"):
            choose_action(state, seat, level, seed=1, iterations=3)
            view = view_for(state, seat)
            legal = legal_actions(state, seat)
            choose_for_view(view, state.discard, legal, level, seed=1, iterations=3)
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.remove(note)
    assert gc.isenabled()
    assert not inside, inside


def test_a_seat_with_nothing_to_do_is_refused() -> None:
    state = new_game(2, seed=1)
    idle = 1 - state.acting[0]
    with pytest.raises(NotToAct):
        choose_action(state, idle, "normal")
    with pytest.raises(ValueError, match="unknown level"):
        choose_action(state, state.acting[0], "grandmaster")


def play(state: GameState, levels: tuple[str, ...], seed: int) -> GameState:
    """One game, every action checked to be one of the seat's legal actions."""
    while state.bout is not None:
        assert state.moves < 5_000, "a game that does not end"
        seat = who_acts(state)
        action = choose_action(state, seat, levels[seat], seed=seed + state.moves, iterations=1)
        assert action in legal_actions(state, seat)
        state, _ = apply(state, action)
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_finishes_games_under_every_rule(level: str) -> None:
    games = (HARD_GAMES or 1) if level == "hard" else GAMES
    combos = COMBOS[::HARD_EVERY] if level == "hard" and not HARD_GAMES else COMBOS
    for index, rules in enumerate(combos):
        for game in range(games):
            counts = player_counts(rules)
            players = counts[(index + game) % len(counts)]
            seed = index * 1000 + game
            mixed = tuple(level if s % 2 == 0 else "normal" for s in range(players))
            final = play(start(rules, players, seed), mixed, seed)
            assert final.finished


def test_normal_beats_random_heads_up() -> None:
    """A smoke test of strength (the arena measures it properly): normal is the durak in
    few of 40 heads-up games against random play, seats swapped."""
    lost = 0
    for seed in range(20):
        for levels in (("normal", "random"), ("random", "normal")):
            final = play(new_game(2, seed=seed), levels, seed)
            lost += final.durak == levels.index("normal")
    assert lost <= 8


# --- knowledge and sampling -------------------------------------------------------------


def test_a_world_keeps_every_card_once_and_what_the_seat_knows() -> None:
    rng = random.Random(3)
    for state, seat in random_positions(POSITIONS, seed=9):
        knowledge = seat_knowledge(state, seat)
        world = determinize(knowledge, rng)
        assert view_for(world, seat).hand == view_for(state, seat).hand
        assert world.discard == state.discard
        assert world.bout == state.bout
        assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in state.hands]
        assert len(world.stock) == len(state.stock)
        if state.trump_card is not None and state.trump_card_in_stock:
            at = state.stock.index(state.trump_card)
            assert world.stock[at] == state.trump_card, "the face-up trump stays in its place"
        assert world.bottom_card_hidden == state.bottom_card_hidden
        for other in range(state.players):
            seen = state.known[other] & state.hands[other]
            if other != seat:
                assert world.hands[other] & seen == seen, "a card seen taken moved"
        everything = world.discard | world.bout.table if world.bout else world.discard
        for hand in world.hands:
            everything |= hand
        for card in world.stock:
            everything |= 1 << card
        assert everything == deck_mask(state.rules.deck)


def test_cards_seen_taken_are_not_unseen() -> None:
    state = from_position(
        [[Card.parse(c) for c in ["6S", "7S"]], [Card.parse(c) for c in ["6H", "7H"]]],
        stock=[Card.parse(c) for c in ["8H", "9H", "10H", "8S"]],
        discard=[Card.parse(c) for c in deck_text_without("6S 7S 6H 7H 8H 9H 10H 8S")],
    )
    knowledge = seat_knowledge(state, 0)
    assert knowledge.unseen == sum(1 << Card.parse(c) for c in ["6H", "7H", "8H", "9H", "10H"])
    assert knowledge.trump_in_stock


def deck_text_without(text: str) -> list[str]:
    taken = set(text.split())
    return [str(c) for c in map(Card, range(52)) if deck_mask(36) >> c & 1 and str(c) not in taken]


# --- the exact endgame -----------------------------------------------------------------


def minimax(state: GameState, seat: int) -> int:
    """The plain game value, no pruning and no table: the solver's reference."""
    if state.bout is None:
        return 0 if state.durak is None else (-1 if state.durak == seat else 1)
    mover = who_acts(state)
    values = [minimax(apply(state, a)[0], seat) for a in legal_actions(state, mover)]
    return max(values) if mover == seat else min(values)


def small_endgames(count: int, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    found: list[GameState] = []
    while len(found) < count:
        cards = list(map(Card, range(52)))
        full = deck_mask(24)
        cards = [c for c in cards if full >> c & 1]
        rng.shuffle(cards)
        a, b = rng.randint(1, 3), rng.randint(1, 3)
        rules = HouseRules(deck=24, transfer=rng.random() < 0.5)
        state = from_position(
            [cards[:a], cards[a : a + b]],
            rules=rules,
            discard=cards[a + b :],
            trump=cards[0].suit,
        )
        if is_endgame(state):
            found.append(state)
    return found


def test_endgame_solver_agrees_with_plain_minimax() -> None:
    for state in small_endgames(60, seed=4):
        seat = who_acts(state)
        solver = solver_for(seat, Budget(None, 1_000))
        _, value = best(solver, state, legal_actions(state, seat))
        assert value == minimax(state, seat), state.to_dict()


def short_stocks(count: int, seed: int) -> list[GameState]:
    """Heads-up positions between bouts of a 24-card deck with one or two cards left in
    the stock (the last of them the face-up trump); one or two cards a hand, so that the
    plain minimax's recursion through the object API stays within Python's limit."""
    rng = random.Random(seed)
    found: list[GameState] = []
    full = deck_mask(24)
    while len(found) < count:
        cards = [c for c in map(Card, range(52)) if full >> c & 1]
        rng.shuffle(cards)
        a, b, left = rng.randint(1, 2), rng.randint(1, 2), rng.randint(1, 2)
        found.append(
            from_position(
                [cards[:a], cards[a : a + b]],
                rules=HouseRules(deck=24, transfer=rng.random() < 0.5),
                stock=cards[a + b : a + b + left],
                discard=cards[a + b + left :],
            )
        )
    return found


def test_endgame_solver_agrees_with_plain_minimax_with_cards_in_the_stock() -> None:
    """The solver plays the draws of a stock as they lie (its table tells stocks apart)."""
    for state in short_stocks(40, seed=12):
        seat = who_acts(state)
        solver = solver_for(seat, Budget(None, 1_000))
        _, value = best(solver, state, legal_actions(state, seat))
        assert value == minimax(state, seat), state.to_dict()
        codes = [encode(a) for a in legal_actions(state, seat)]
        values = solver_for(seat, Budget(None, 1_000)).values(state.position(), codes)
        assert max(values) == value


def test_every_world_of_a_short_stock_is_dealt_once() -> None:
    """``Worlds.every``: with the stock's hidden card in every place it may be, and the
    rest of the unseen cards in the opponent's hand, the real world is one of them."""
    for state in short_stocks(20, seed=13):
        seat = who_acts(state)
        knowledge = seat_knowledge(state, seat)
        every = Worlds(knowledge, random.Random(1)).every(12)
        assert every is not None
        real = state.position()
        dealt = [(tuple(world.hands), tuple(world.stock)) for world, _ in every]
        assert (
            len(set(dealt)) == len(dealt) == knowledge.unseen.bit_count() ** (len(state.stock) - 1)
        )
        assert (tuple(real.hands), tuple(real.stock)) in dealt
        for world, weight in every:
            assert world.hands[seat] == real.hands[seat]
            assert world.stock[0] == real.stock[0], "the face-up trump stays at the bottom"
            assert weight == 1.0  # nothing declined between bouts of a fresh position


def test_hidden_cards_never_change_a_decision_with_a_short_stock() -> None:
    """Honesty where ``hard`` solves every world of a stock of one or two cards."""
    rng = random.Random(14)
    for index, state in enumerate(short_stocks(20, seed=15)):
        seat = who_acts(state)
        before = choose_action(state, seat, "hard", seed=index, iterations=HONEST_ITERATIONS)
        for _ in range(3):
            other = permute_hidden(state, seat, rng)
            if view_for(other, seat) == view_for(state, seat):
                after = choose_action(other, seat, "hard", seed=index, iterations=HONEST_ITERATIONS)
                assert after == before


def test_endgame_wins_with_the_last_trump_ace() -> None:
    """Stock empty, trumps spades: seat 0 holds AS 6H, seat 1 holds 7H. Leading 6H lets 7H
    cover and seat 1 leaves first; leading AS wins, then 6H goes out too."""
    state = from_position(
        [[Card.parse("AS"), Card.parse("6H")], [Card.parse("7H")]],
        discard=[Card.parse(c) for c in deck_text_without("AS 6H 7H")],
        trump=Card.parse("AS").suit,
        attacker=0,
    )
    action = choose_action(state, 0, "hard", seed=1, iterations=4)
    assert (
        action
        == legal_actions(state, 0)[[str(a) for a in legal_actions(state, 0)].index("0: attack AS")]
    )


def test_moves_the_exact_value_cannot_tell_apart_go_to_the_tree() -> None:
    """Stock empty, trumps spades: seat 0 holds 6H 7C, seat 1 AS KS. Either lead is covered
    by a trump and the other trump follows: both lose against perfect play, so both are
    left to the tree (which plays for the opponent's mistakes); a win is one move."""
    lost = from_position(
        [[Card.parse("6H"), Card.parse("7C")], [Card.parse("AS"), Card.parse("KS")]],
        discard=[Card.parse(c) for c in deck_text_without("6H 7C AS KS")],
        trump=Card.parse("AS").suit,
        attacker=0,
    )
    won = from_position(
        [[Card.parse("AS"), Card.parse("KS")], [Card.parse("6H"), Card.parse("7C")]],
        discard=[Card.parse(c) for c in deck_text_without("6H 7C AS KS")],
        trump=Card.parse("AS").suit,
        attacker=0,
    )
    best_moves = []
    for state in (lost, won):
        codes = [encode(a) for a in legal_actions(state, 0)]
        assert len(codes) == 2
        worlds = Worlds(seat_knowledge(state, 0), random.Random(1))
        best_moves.append(hard._solved(worlds, codes, 0, Budget(None, 100)))
    assert best_moves[0] == [0, 1]
    assert best_moves[1] is not None and len(best_moves[1]) == 1


# --- the variants ----------------------------------------------------------------------


def test_r_team_2_computers_never_throw_in_to_a_partner_and_finish_team_games() -> None:
    """Teams: every level plays legal games to the end, and no throw-in ever goes to the
    thrower's partner (the rules allow none; the players never try one)."""
    for rules in (HouseRules(teams="pairs"), HouseRules(teams="triples", throw_in="all")):  # type: ignore[arg-type]
        for players in player_counts(rules):
            for level in ("easy", "normal", "hard"):
                state = start(rules, players, players)
                while state.bout is not None:
                    seat = who_acts(state)
                    action = choose_action(state, seat, level, seed=state.moves, iterations=1)
                    if isinstance(action, Throw):
                        assert seat not in state.partners(state.bout.defender)
                    state, _ = apply(state, action)
                assert state.finished


def test_r_team_4_hard_scores_the_teams_result() -> None:
    """The playouts' score: a seat whose partner is named the durak lost too."""
    state = from_position(
        [[Card.parse("9H")], [Card.parse("10H"), Card.parse("JD")], [], [Card.parse("QC")]],
        rules=HouseRules(deck=24, teams="pairs"),  # type: ignore[arg-type]
        discard=[Card(c) for c in range(52) if deck_mask(24) >> c & 1 and Card(c) not in {
            Card.parse(t) for t in ["9H", "10H", "JD", "QC"]}],
        trump=Card.parse("AS").suit,
        attacker=0,
    )  # fmt: skip
    state, _ = apply(state, legal_actions(state, 0)[0])
    state, _ = apply(state, next(a for a in legal_actions(state, 1) if "cover" in str(a)))
    assert state.durak == 1 and state.losing_team == (1, 3)
    assert score(state, 3) == 0.0 and score(state, 0) == 1.0 and score(state, 2) == 1.0


def test_r_six_every_level_exchanges_when_it_may() -> None:
    hands = [[Card.parse(c) for c in ["6H", "7S", "8S", "9C", "10D", "JC"]],
             [Card.parse(c) for c in ["7H", "8H", "9S", "10C", "QS", "AS"]]]  # fmt: skip
    stock = [Card.parse(c) for c in ("8D", "9D", "KH")]
    held = {c for h in hands for c in h} | set(stock)
    state = from_position(
        hands,
        rules=HouseRules(trump_six_exchange=True),
        stock=stock,
        discard=[Card(c) for c in range(52) if deck_mask(36) >> c & 1 and Card(c) not in held],
        attacker=0,
    )
    for level in ("easy", "normal", "hard"):
        assert str(choose_action(state, 0, level, seed=1, iterations=2)) == "0: exchange"


def test_r_trump_1_a_computer_dealer_names_a_suit_repeatably() -> None:
    assert choose_trump(7) == choose_trump(7)
    assert {choose_trump(seed) for seed in range(40)} == set(range(4))
