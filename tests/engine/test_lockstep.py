"""The public API and the search API in lockstep: one rules core, two ways in.

Random games under every house-rule combination (those of ``test_properties``) and every
player count 2..max_players are played twice at once: through ``apply(state, action)`` on
immutable ``GameState`` values and through ``Position.apply(code)`` in place. Before every
action both must show the same ``to_act``, the same legal actions for every seat (decoded
codes equal to ``legal_actions``, in the same order) and the same state. Random candidate
actions check that ``engine.refusals`` finds a reason for exactly the actions the core does
not list. ``playout`` ends every game with a durak or a draw and keeps every card exactly
once, and picks its actions as ``to_act`` and ``legal`` would.

The blind family (RULES.md section 14) plays the same way: ``30 * GAMES`` games under house
rules hypothesis draws from those it allows (``tests.blind_rules``), its candidates adding
plays by slot (past the end of a row too), covers by slot and judgments to the open game's.

Games per combination: ``DURAK_PROPERTY_GAMES / 100`` (at least 2): 2 locally, 20 in CI.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import COMBOS, random_candidate, start_game

from engine import (
    Action,
    AttackSlot,
    Believe,
    Card,
    DefendSlot,
    Doubt,
    GameState,
    HouseRules,
    IllegalAction,
    ThrowSlot,
    apply,
    legal_actions,
    new_game,
    to_act,
)
from engine.cards import CARDS, deck_mask
from engine.codes import decode, encode
from engine.core import Position
from engine.dealing import shuffle
from engine.refusals import explain
from engine.rules import player_counts
from engine.search import new_position, position_of, state_of
from tests.blind_rules import BLIND_RULES

GAMES = max(2, int(os.environ.get("DURAK_PROPERTY_GAMES", "200")) // 100)
CANDIDATES = 3  # random candidate actions tried per position
# Random play misplays again and again in ``reversed``: its games run to thousands of actions.
BLIND_MAX_MOVES = 50_000

Propose = Callable[[GameState, random.Random, Sequence[Card]], Action]


def check_same(
    state: GameState, position: Position, rng: random.Random, propose: Propose = random_candidate
) -> None:
    """Both APIs show the same game; refusals explain exactly what the core refuses."""
    assert to_act(state) == tuple(position.to_act()), "to_act differs"
    for seat in range(state.players):
        codes = position.legal(seat)
        actions = legal_actions(state, seat)
        assert [decode(c) for c in codes] == actions, f"legal actions of seat {seat} differ"
        assert [encode(a) for a in actions] == codes
    assert position.legal() == [c for s in position.to_act() for c in position.legal(s)]
    assert state_of(position) == state, "the states differ"
    deck = [c for c in CARDS if deck_mask(state.rules.deck) >> c & 1]
    for _ in range(CANDIDATES):
        candidate = propose(state, rng, deck)
        code = encode(candidate)
        listed = code >= 0 and code in position.legal((code >> 3) & 7)
        try:
            explain(state, candidate)
        except IllegalAction as error:
            assert not listed, f"refusals.py refuses the legal {candidate}: {error.code}"
        else:
            assert listed, f"refusals.py finds nothing wrong with {candidate}, not legal"


def lockstep_game(
    rules: HouseRules,
    players: int,
    seed: int,
    propose: Propose = random_candidate,
    max_moves: int = 5_000,
) -> None:
    rng = random.Random(seed)
    state = start_game(rules, players, seed)
    position = new_position(players, random.Random(seed), rules, trump=seed % 4)
    moves = 0
    while not state.finished:
        check_same(state, position, rng, propose)
        seats = to_act(state)
        seat = seats[rng.randrange(len(seats))]
        codes = position.legal(seat)
        code = codes[rng.randrange(len(codes))]
        state, _ = apply(state, decode(code))
        position.apply(code)
        moves += 1
        assert moves < max_moves
    check_same(state, position, rng, propose)
    assert position.finished and position.legal() == []


def tasks() -> list[tuple[int, int, int]]:
    """(combination, players, seed): GAMES per combination, player counts in turn."""
    found = []
    for combo, rules in enumerate(COMBOS):
        counts = player_counts(rules)
        for game in range(GAMES):
            found.append((combo, counts[game % len(counts)], combo * 1_000 + game))
    return found


@pytest.mark.parametrize("throw_in", ["neighbors", "all", "neighbors_first_rank"])
def test_public_and_search_api_play_in_lockstep(throw_in: str) -> None:
    """Every combination (a third of them per test), every player count."""
    for combo, players, seed in tasks():
        rules = COMBOS[combo]
        if rules.throw_in == throw_in:
            lockstep_game(rules, players, seed)


def blind_candidate(state: GameState, rng: random.Random, deck: Sequence[Card]) -> Action:
    """Half the time ``random_candidate`` (cards named: refused to a player who plays by
    slot, R-BLIND-2); else a play by slot, from 1 to one past the end of the row (R-BLIND-3:
    every slot is offered, and ``no_such_slot`` beyond), a cover by slot on an attack card,
    on any card or on none (R-CHI-2), or a judgment (R-DOUBT-3), by any seat."""
    if rng.random() < 0.5:
        return random_candidate(state, rng, deck)
    player = rng.randrange(state.players)
    slot = rng.randint(1, len(state.hand(player)) + 1)
    kind = rng.randrange(5)
    if kind == 0:
        return AttackSlot(player, slot)
    if kind == 1:
        return ThrowSlot(player, slot)
    if kind == 2:
        attacks = list(state.bout.attacks) if state.bout is not None else []
        roll = rng.random()
        on = rng.choice(attacks) if attacks and roll < 0.6 else None
        if roll > 0.9:
            on = rng.choice(deck)
        return DefendSlot(player, slot, on)
    return Believe(player) if kind == 3 else Doubt(player)


@settings(max_examples=30 * GAMES, deadline=None)
@given(rules=BLIND_RULES, count=st.integers(0, 4), seed=st.integers(0, 2**32 - 1))
def test_blind_games_play_in_lockstep(rules: HouseRules, count: int, seed: int) -> None:
    """RULES.md section 14 under the house rules it allows, every player count in turn:
    the same ``to_act``, legal actions and state through both APIs, and refusals explaining
    exactly the plays by slot and the judgments the core does not list."""
    counts = player_counts(rules)
    players = counts[count % len(counts)]
    lockstep_game(rules, players, seed, blind_candidate, BLIND_MAX_MOVES)


def cards_once(position: Position) -> None:
    """Every card of the deck exactly once across hands, stock, table and discard."""
    places = [*position.hands, position.discard, position.table]
    places += [1 << c for c in position.stock]
    seen = 0
    for mask in places:
        assert not seen & mask, "a card is in two places"
        seen |= mask
    assert seen == deck_mask(position.rules.deck), "a card is missing"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_playout_ends_every_game_and_keeps_every_card(players: int) -> None:
    """From fresh deals and from positions in the middle of games."""
    rng = random.Random(players)
    for rules in COMBOS:
        if players not in player_counts(rules):
            continue
        start = new_position(players, rng, rules)
        middle = start.copy()
        for _ in range(rng.randrange(60)):
            if middle.finished:
                break
            codes = middle.legal()
            middle.apply(codes[rng.randrange(len(codes))])
        for position in (start, middle):
            cards_once(position)
            result = position.playout(rng)
            assert position.finished and position.durak == result
            cards_once(position)
            assert not position.stock and not position.table
            holding = [s for s in range(players) if position.hands[s]]
            if result >= 0 and position.variant.teams:  # R-TEAM-4: the team holds cards
                assert result in holding
                assert all(position.variant.team[result] >> s & 1 for s in holding)
            else:
                assert holding == ([] if result < 0 else [result]), "not one durak or a draw"
            assert sorted([*position.out, *holding]) == list(range(players))


def test_playout_picks_as_to_act_and_legal_do() -> None:
    """``playout``: a random seat of ``to_act`` (drawn only when several may act), then a
    random code of ``legal(seat)``."""
    for seed in range(50):
        rules = COMBOS[seed % len(COMBOS)]
        counts = player_counts(rules)
        position = new_position(counts[seed % len(counts)], random.Random(seed), rules)
        by_hand = position.copy()
        position.playout(random.Random(seed))
        rng = random.Random(seed)
        while not by_hand.finished:
            seats = by_hand.to_act()
            seat = seats[int(rng.random() * len(seats))] if len(seats) > 1 else seats[0]
            codes = by_hand.legal(seat)
            by_hand.apply(codes[int(rng.random() * len(codes))])
        assert state_of(by_hand) == state_of(position)


def test_the_core_shuffles_as_random_shuffle_does() -> None:
    """``new_game(seed=s)`` deals what it dealt before the core shuffled for it."""
    for seed in range(300):
        for size in (24, 36, 52):
            cards = list(range(size))
            expected = cards[:]
            random.Random(seed).shuffle(expected)
            shuffle(cards, random.Random(seed))
            assert cards == expected


def test_a_state_and_its_position_convert_both_ways() -> None:
    state = new_game(4, seed=3)
    position = position_of(state)
    position.apply(position.legal()[0])
    assert state == new_game(4, seed=3), "position_of copies"
    again = state_of(position)
    data: dict[str, Any] = again.to_dict()
    assert GameState.from_dict(data) == again
