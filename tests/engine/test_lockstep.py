"""The public API and the search API in lockstep: one rules core, two ways in.

Random games under every house-rule combination (those of ``test_properties``) and every
player count 2..max_players are played twice at once: through ``apply(state, action)`` on
immutable ``GameState`` values and through ``Position.apply(code)`` in place. Before every
action both must show the same ``to_act``, the same legal actions for every seat (decoded
codes equal to ``legal_actions``, in the same order) and the same state. Random candidate
actions check that ``engine.refusals`` finds a reason for exactly the actions the core does
not list. ``playout`` ends every game with a durak or a draw and keeps every card exactly
once, and picks its actions as ``to_act`` and ``legal`` would.

Games per combination: ``DURAK_PROPERTY_GAMES / 100`` (at least 2): 2 locally, 20 in CI.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from test_properties import COMBOS, random_candidate, start_game

from engine import (
    GameState,
    HouseRules,
    IllegalAction,
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

GAMES = max(2, int(os.environ.get("DURAK_PROPERTY_GAMES", "200")) // 100)
CANDIDATES = 3  # random candidate actions tried per position


def check_same(state: GameState, position: Position, rng: random.Random) -> None:
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
        candidate = random_candidate(state, rng, deck)
        code = encode(candidate)
        listed = code >= 0 and code in position.legal((code >> 3) & 7)
        try:
            explain(state, candidate)
        except IllegalAction as error:
            assert not listed, f"refusals.py refuses the legal {candidate}: {error.code}"
        else:
            assert listed, f"refusals.py finds nothing wrong with {candidate}, not legal"


def lockstep_game(rules: HouseRules, players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = start_game(rules, players, seed)
    position = new_position(players, random.Random(seed), rules, trump=seed % 4)
    moves = 0
    while not state.finished:
        check_same(state, position, rng)
        seats = to_act(state)
        seat = seats[rng.randrange(len(seats))]
        codes = position.legal(seat)
        code = codes[rng.randrange(len(codes))]
        state, _ = apply(state, decode(code))
        position.apply(code)
        moves += 1
        assert moves < 5_000
    check_same(state, position, rng)
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
