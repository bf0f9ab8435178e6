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

from .cards import Suit
from .codes import decode, decode_all, encode
from .core import ATTACK, DEFEND, EXCHANGE, PASS, TAKE, THROW, TRANSFER, Position
from .dealing import deal
from .game import SetupError, check_table
from .rules import HouseRules, TrumpChoice
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
    trump: int = -1,
    game_number: int = 1,
) -> Position:
    """A freshly dealt game, as ``new_game`` deals it, drawing on ``rng`` (dealer by lot
    when -1, the first attacker by the rules when -1). ``new_game(players, seed=s)`` is
    ``new_position(players, random.Random(s))``, card for card. ``trump``: the suit the
    dealer names under ``trump: dealer`` (ignored otherwise); -1 there names one at random
    from ``rng`` first, as a simulation's dealer would."""
    rules = rules or HouseRules()
    dealer_names = rules.trump is TrumpChoice.DEALER
    if dealer_names and trump < 0:
        trump = rng.randrange(4)
    try:
        check_table(rules, players, Suit(trump) if dealer_names else None)
    except SetupError as error:
        raise ValueError(str(error)) from None
    return deal(rules, players, rng, dealer, attacker, trump, game_number)


__all__ = [
    "ATTACK",
    "DEFEND",
    "EXCHANGE",
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
