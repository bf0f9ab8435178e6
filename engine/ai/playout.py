"""Fast playouts: a sampled world played to its end by a quick greedy policy.

The search judges a move by how the game ends when everybody then plays sensibly, not at
random: random play ends games in ways no real opponent would, and a search that trusts it
learns the wrong lessons. The policy is ``normal``'s in short (cheapest card that does the
job, keep the trumps early, take rather than waste a high trump on one cheap card), with a
little noise so that the playouts of one world do not all run the same way.

It works on a full (sampled) ``GameState`` through the public API. Once the search API of
the fast core exists, this module is what moves onto it.
"""

from __future__ import annotations

import random
from typing import Final

from ..actions import Action, Attack, Defend, Exchange, Pass, Take, Throw, Transfer
from ..cards import RANK_MASKS, RANKS_PER_SUIT, SUIT_MASKS, cards_of
from ..moves import legal_actions
from ..play import apply
from ..state import GameState
from .heuristics import RANK_JACK, RANK_QUEEN, RANK_TEN, TRUMP_BONUS, cost

NOISE: Final = 0.1  # chance of a random sensible-looking choice instead of the greedy one
EARLY_STOCK: Final = 10
MAX_MOVES: Final = 5_000  # no legal game is this long; a guard against a bug looping


def who_acts(state: GameState) -> int:
    """The seat that moves next when several may: the defender first (a thrower loses
    nothing by waiting to see the cover), otherwise the first clockwise from the attacker
    (R-BOUT-6). The arena and the terminal game use the same order."""
    seats = state.acting
    bout = state.bout
    if bout is not None and len(seats) > 1 and bout.defender in seats:
        return bout.defender
    return seats[0]


def greedy(state: GameState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    if len(legal) == 1:
        return legal[0]
    bout = state.bout
    assert bout is not None
    trump = int(state.trump)
    early = len(state.stock) >= EARLY_STOCK
    first = legal[0]
    if isinstance(first, Exchange):  # listed first: always worth it (R-SIX)
        return first
    if isinstance(first, Attack):
        singles = [a for a in legal if isinstance(a, Attack) and len(a.cards) == 1]
        if rng.random() < NOISE:
            return singles[int(rng.random() * len(singles))]
        lead = min(singles, key=lambda a: cost(a.cards[0], trump))
        card = lead.cards[0]
        # Plain cards of the lead's rank go out together (a pair is half the work).
        same = state.hands[seat] & RANK_MASKS[card % RANKS_PER_SUIT] & ~SUIT_MASKS[trump]
        if same.bit_count() > 1 and card // RANKS_PER_SUIT != trump:
            wanted = tuple(cards_of(same))[: bout.limit]
            for action in legal:
                if isinstance(action, Attack) and action.cards == wanted:
                    return action
        return lead
    if seat == bout.defender:
        best: Action | None = None
        best_cost = 99
        take: Action | None = None
        for action in legal:
            if isinstance(action, Defend):
                c = cost(action.card, trump)
                if c < best_cost:
                    best, best_cost = action, c
            elif isinstance(action, Transfer):
                c = cost(action.card, trump) - 1  # a transfer also gets rid of the card
                if c < best_cost and c < TRUMP_BONUS:
                    best, best_cost = action, c
            elif isinstance(action, Take):
                take = action
        assert take is not None
        if best is None:
            return take
        if early and len(bout.attacks) == 1 and best_cost >= TRUMP_BONUS + RANK_JACK:
            return take
        return best
    best_throw: Action | None = None
    best_cost = 99
    stock_empty = not state.stock
    ceiling = RANK_QUEEN if bout.taking else RANK_TEN  # junk goes to a taker
    for action in legal:
        if isinstance(action, Throw) and len(action.cards) == 1:
            c = cost(action.cards[0], trump)
            if c < best_cost and (stock_empty or c <= ceiling):
                best_throw, best_cost = action, c
    if best_throw is not None:
        return best_throw
    return next(a for a in legal if isinstance(a, Pass))


def play_out(state: GameState, rng: random.Random) -> GameState:
    """``state`` played to the end by ``greedy`` for every seat."""
    moves = 0
    while state.bout is not None and moves < MAX_MOVES:
        seat = who_acts(state)
        state, _ = apply(state, greedy(state, seat, legal_actions(state, seat), rng))
        moves += 1
    return state


def score(final: GameState, seat: int) -> float:
    """1 for a game ``seat`` did not lose, 0 for the durak, a half for a draw. With teams
    the team's result counts (R-TEAM-4): 0 when the seat's team lost, whoever of it is
    named the durak."""
    if final.durak is None:
        return 0.5
    losing = final.losing_team
    if losing is not None:
        return 0.0 if seat in losing else 1.0
    return 0.0 if final.durak == seat else 1.0


__all__ = ["EARLY_STOCK", "NOISE", "greedy", "play_out", "score", "who_acts"]
