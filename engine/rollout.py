"""Quick playouts on the search API: a ``Position`` played to its end by a greedy policy
written for action codes, for the ``hard`` computer player's search.

The search judges a move by how the game ends when everybody then plays sensibly, not at
random: random play ends games in ways no real opponent would. The policy is ``normal``'s in
short (cheapest card that does the job, plain cards of one rank laid together, keep the
trumps early, take rather than spend a high trump on one cheap card early, junk thrown in to
a taker), with a little noise so that the playouts of one world do not all run alike. It is
the object API's ``engine.ai.playout.greedy`` on codes, and a hot module compiled with the
rules core: no ``Action`` object is built in a playout.

>>> import random
>>> from engine.search import new_position
>>> position = new_position(2, random.Random(3))
>>> play_greedy(position, random.Random(1)) in (-1, 0, 1) and position.finished
True
"""

from __future__ import annotations

from random import Random
from typing import Final

from .core import (
    ATTACK,
    DEFEND,
    EXCHANGE,
    PASS,
    QUEEN_OF_HEARTS,
    QUEEN_OF_SPADES,
    TAKE,
    THROW,
    TOP_QUEEN_OF_HEARTS,
    TOP_QUEEN_OF_SPADES,
    TRANSFER,
    Position,
)

NOISE: Final = 0.1  # chance of a random single-card opening instead of the cheapest
EARLY_STOCK: Final = 10  # a stock this big or more: early in the game, keep the trumps
TRUMP_BONUS: Final = 13
TOP_COST: Final = 26
RANK_TEN: Final = 8
RANK_JACK: Final = 9
RANK_QUEEN: Final = 10
MAX_MOVES: Final = 5_000  # no legal game is this long; a guard against a bug looping
_RANK_MASK: Final = 0x0008004002001  # one card of rank 0 in each suit (bits 0, 13, 26, 39)
_SUIT_MASK: Final = 0x1FFF


def card_cost(card: int, trump: int, top: int) -> int:
    """0..25: the rank, plus 13 for a trump; 26 for ``top``, the queen of R-TOP
    (``engine.ai.heuristics.cost``, for codes)."""
    if card == top:
        return TOP_COST
    rank = card % 13
    return rank + TRUMP_BONUS if card // 13 == trump else rank


def top_card(position: Position) -> int:
    """The queen above every card (R-TOP), or -1."""
    top = position.variant.top
    if top == TOP_QUEEN_OF_SPADES:
        return QUEEN_OF_SPADES
    return QUEEN_OF_HEARTS if top == TOP_QUEEN_OF_HEARTS else -1


def mover(position: Position) -> int:
    """The seat that moves next when several may: the defender first (a thrower loses
    nothing by waiting to see the cover), else the first clockwise from the attacker
    (R-BOUT-6); ``engine.ai.playout.who_acts`` for a position."""
    acting = position.acting
    if not acting & (acting - 1):
        return acting.bit_length() - 1
    if (acting >> position.defender) & 1:
        return position.defender
    seat = position.attacker
    players = position.players
    while not (acting >> seat) & 1:
        seat += 1
        if seat == players:
            seat = 0
    return seat


def greedy_code(position: Position, seat: int, codes: list[int], rng: Random) -> int:
    """The policy's choice among ``codes``, ``seat``'s legal actions (``legal(seat)``)."""
    if len(codes) == 1:
        return codes[0]
    first = codes[0]
    kind = first & 7
    if kind == EXCHANGE:  # listed first: always worth it (R-SIX)
        return first
    trump = position.trump
    top = top_card(position)
    if kind == ATTACK:
        return _opening(position, seat, codes, rng, trump, top)
    if seat == position.defender and position.attacks:
        return _defence(position, codes, trump, top)
    return _throw_or_pass(position, codes, trump, top)


def _opening(
    position: Position, seat: int, codes: list[int], rng: Random, trump: int, top: int
) -> int:
    singles: list[int] = []
    for code in codes:
        payload = code >> 6
        if not payload & (payload - 1):
            singles.append(code)
    if rng.random() < NOISE:
        return singles[int(rng.random() * len(singles))]
    lead = singles[0]
    lead_cost = 99
    for code in singles:
        c = card_cost((code >> 6).bit_length() - 1, trump, top)
        if c < lead_cost:
            lead, lead_cost = code, c
    card = (lead >> 6).bit_length() - 1
    if card // 13 == trump or card == top:
        return lead
    # Plain cards of the lead's rank go out together (a pair is half the work).
    same = position.hands[seat] & (_RANK_MASK << (card % 13)) & ~(_SUIT_MASK << (13 * trump))
    if top >= 0:
        same &= ~(1 << top)
    if same & (same - 1):
        while same.bit_count() > position.limit:
            same ^= 1 << (same.bit_length() - 1)
        wanted = ATTACK | seat << 3 | same << 6
        if wanted in codes:
            return wanted
    return lead


def _defence(position: Position, codes: list[int], trump: int, top: int) -> int:
    best = -1
    best_cost = 99
    take = -1
    for code in codes:
        kind = code & 7
        if kind == DEFEND:
            c = card_cost((code >> 6) & 63, trump, top)
            if c < best_cost:
                best, best_cost = code, c
        elif kind == TRANSFER:
            c = card_cost(code >> 6, trump, top) - 1  # a transfer also gets rid of the card
            if c < best_cost and c < TRUMP_BONUS:
                best, best_cost = code, c
        elif kind == TAKE:
            take = code
    if best < 0:
        return take
    early = len(position.stock) >= EARLY_STOCK
    if early and len(position.attacks) == 1 and best_cost >= TRUMP_BONUS + RANK_JACK:
        return take
    return best


def _throw_or_pass(position: Position, codes: list[int], trump: int, top: int) -> int:
    best = -1
    best_cost = 99
    passing = codes[len(codes) - 1]  # R-BOUT-7: the pass comes last
    stock_empty = not position.stock
    ceiling = RANK_QUEEN if position.taking else RANK_TEN  # junk goes to a taker
    for code in codes:
        if code & 7 != THROW:
            continue
        payload = code >> 6
        if payload & (payload - 1):
            continue
        c = card_cost(payload.bit_length() - 1, trump, top)
        if c < best_cost and (stock_empty or c <= ceiling):
            best, best_cost = code, c
    if best >= 0:
        return best
    assert passing & 7 == PASS
    return passing


def play_greedy(position: Position, rng: Random) -> int:
    """Play ``position`` to its end in place with ``greedy_code`` for every seat; returns
    the durak (-1: a draw)."""
    codes: list[int] = []
    moves = 0
    while not position.finished and moves < MAX_MOVES:
        seat = mover(position)
        codes.clear()
        position.add_legal(seat, codes)
        position.apply(greedy_code(position, seat, codes, rng))
        moves += 1
    return position.durak


def result_for(position: Position, seat: int) -> float:
    """1 for a game ``seat`` did not lose, 0 for the durak, a half for a draw; with teams
    the team's result (R-TEAM-4): 0 when the seat's team lost."""
    durak = position.durak
    if durak < 0:
        return 0.5
    return 0.0 if (position.variant.team[durak] >> seat) & 1 else 1.0


__all__ = ["card_cost", "greedy_code", "mover", "play_greedy", "result_for", "top_card"]
