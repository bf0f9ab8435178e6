"""The search API: the rules core itself, for computer players and simulations.

A ``Position`` is one game, changed in place: ``legal(seat)`` lists the legal actions as
int codes (``engine.codes``), ``apply(code)`` plays one (it trusts its input: only codes
``legal`` listed), ``copy()`` branches off, ``playout(rng)`` plays uniformly random legal
actions to the end and returns the durak (-1 for a draw). The rules are the ones the public
API runs on (``engine.core``), so a search and the real game can never disagree.

>>> import random
>>> from engine import apply, legal_actions, new_game
>>> state = new_game(2, seed=7)
>>> position = position_of(state)           # a copy: the state does not change
>>> seat = position.to_act()[0]
>>> codes = position.legal(seat)
>>> decode(codes[0]) == legal_actions(state, seat)[0]
True
>>> trial = position.copy()
>>> trial.playout(random.Random(1)) in (-1, 0, 1)
True
>>> position.apply(codes[0])
>>> state_of(position) == apply(state, decode(codes[0]))[0]
True
"""

from __future__ import annotations

from random import Random

from .codes import decode, decode_all, encode
from .core import ATTACK, DEFEND, PASS, TAKE, THROW, TRANSFER, Position
from .dealing import deal
from .rules import HouseRules
from .state import GameState


def position_of(state: GameState) -> Position:
    """A new ``Position`` of ``state``, to change at will."""
    return state.position()


def state_of(position: Position) -> GameState:
    """The public ``GameState`` of a position (a copy: the position may go on changing)."""
    return GameState(position.copy())


def new_position(
    players: int,
    rng: Random,
    rules: HouseRules | None = None,
    *,
    dealer: int = -1,
    attacker: int = -1,
) -> Position:
    """A freshly dealt game, as ``new_game`` deals it, drawing on ``rng`` (dealer by lot
    when -1, the first attacker by the rules when -1). ``new_game(players, seed=s)`` is
    ``new_position(players, random.Random(s))``, card for card."""
    rules = rules or HouseRules()
    if not 2 <= players <= rules.max_players:
        raise ValueError(f"this table seats 2..{rules.max_players} players, not {players}")
    return deal(rules, players, rng, dealer, attacker)


__all__ = [
    "ATTACK",
    "DEFEND",
    "PASS",
    "TAKE",
    "THROW",
    "TRANSFER",
    "Position",
    "decode",
    "decode_all",
    "encode",
    "new_position",
    "position_of",
    "state_of",
]
