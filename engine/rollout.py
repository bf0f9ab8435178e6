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
RANK_KING: Final = 11
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
        return _defence(position, seat, codes, trump, top)
    return _throw_or_pass(position, codes, trump, top)


def _opening(
    position: Position, seat: int, codes: list[int], rng: Random, trump: int, top: int
) -> int:
    """``normal``'s opening (``heuristics.leads``): per rank held, its plain cards together
    or else its cheapest trump, the cheapest and largest first; with the stock empty the
    cards nobody else can beat are kept for last."""
    if rng.random() < NOISE:
        singles: list[int] = []
        for code in codes:
            payload = code >> 6
            if not payload & (payload - 1):
                singles.append(code)
        return singles[int(rng.random() * len(singles))]
    hand = position.hands[seat]
    plain_bits = ~(_SUIT_MASK << (13 * trump))
    if top >= 0:
        plain_bits &= ~(1 << top)
    limit = position.limit
    counting = not position.stock
    elsewhere = 0
    if counting:
        hands = position.hands
        for other in range(position.players):
            if other != seat:
                elsewhere |= hands[other]
    best_mask = 0
    best_score = 999.0
    for rank in range(13):
        same = hand & (_RANK_MASK << rank)
        if not same:
            continue
        plain = same & plain_bits
        if plain:
            while plain.bit_count() > limit:
                plain ^= 1 << (plain.bit_length() - 1)
            lead = plain
            score = rank - 1.5 * (plain.bit_count() - 1)
        else:
            lead = 0
            score = 99.0
            rest = same
            while rest:
                low = rest & -rest
                card = low.bit_length() - 1
                c = card_cost(card, trump, top)
                if c < score:
                    lead, score = low, float(c)
                rest ^= low
        if counting and not position.beaters[(lead & -lead).bit_length() - 1] & elsewhere:
            score += 100.0  # a sure winner: the last card to lead
        if score < best_score:
            best_mask, best_score = lead, score
    wanted = ATTACK | seat << 3 | best_mask << 6
    if best_mask & (best_mask - 1) and wanted not in codes:
        return ATTACK | seat << 3 | (best_mask & -best_mask) << 6
    return wanted


def _defence(position: Position, seat: int, codes: list[int], trump: int, top: int) -> int:
    """``normal``'s defence: a cheap plain transfer, else the cheapest covers of the whole
    table (the dearest attack card covered first), unless that spends a high trump or two
    trumps on a few cheap cards early: then a take."""
    attacks = position.attacks
    covers = position.covers
    beaters = position.beaters
    left = position.hands[seat]
    # The uncovered attack cards, dearest first (few: a simple insertion sort).
    pending: list[int] = []
    for index in range(len(attacks)):
        if covers[index] < 0:
            attack = attacks[index]
            c = card_cost(attack, trump, top)
            at = len(pending)
            while at > 0 and card_cost(pending[at - 1], trump, top) < c:
                at -= 1
            pending.insert(at, attack)
    covered = True
    dearest = -1  # the dearest cover of the plan
    trumps = 0
    high_trump = False
    play = -1  # the plan's cheapest cover, as a code
    play_cost = 99
    for attack in pending:
        able = left & beaters[attack]
        if not able:
            covered = False
            break
        cover = -1
        cover_cost = 99
        while able:
            low = able & -able
            card = low.bit_length() - 1
            c = card_cost(card, trump, top)
            if c < cover_cost:
                cover, cover_cost = card, c
            able ^= low
        left &= ~(1 << cover)
        dearest = max(dearest, cover_cost)
        if cover_cost >= TRUMP_BONUS:
            trumps += 1
            if cover_cost >= TRUMP_BONUS + RANK_JACK:
                high_trump = True
        if cover_cost < play_cost:
            play, play_cost = DEFEND | seat << 3 | (cover | attack << 6) << 6, cover_cost
    early = len(position.stock) >= EARLY_STOCK
    transfer = -1
    transfer_cost = 99
    for code in codes:
        if code & 7 == TRANSFER:
            c = card_cost(code >> 6, trump, top)
            if c < transfer_cost:
                transfer, transfer_cost = code, c
    if transfer >= 0:
        if transfer_cost < TRUMP_BONUS and (not covered or transfer_cost <= dearest):
            return transfer
        if not covered and (not early or (transfer >> 6) % 13 < RANK_TEN):
            return transfer
    if not covered:
        return TAKE | seat << 3
    if early and (trumps >= 2 or high_trump) and _cheap_table(position, trump, top):
        return TAKE | seat << 3
    return play


def _cheap_table(position: Position, trump: int, top: int) -> bool:
    """At most two cards on the table, none a trump or above a ten: worth taking early
    rather than spending trumps on them."""
    table = position.table
    if table.bit_count() > 2:
        return False
    while table:
        low = table & -table
        card = low.bit_length() - 1
        if card_cost(card, trump, top) > RANK_TEN:
            return False
        table ^= low
    return True


def _throw_or_pass(position: Position, codes: list[int], trump: int, top: int) -> int:
    """``normal``'s throw-in: the cheapest cards worth giving, as many as fit at once
    (cheap plain cards while the stock is large, junk up to a queen to a taker, up to a
    king once the stock is small, anything once it is empty); else a pass."""
    passing = codes[len(codes) - 1]  # R-BOUT-7: the pass comes last
    assert passing & 7 == PASS
    throwable = 0
    for code in codes:
        if code & 7 == THROW:
            throwable |= code >> 6
    stock = len(position.stock)
    if stock == 0:
        ceiling = TOP_COST
    elif stock >= EARLY_STOCK:
        ceiling = RANK_QUEEN if position.taking else RANK_TEN
    else:
        ceiling = RANK_KING
    # The cards worth throwing, cheapest first (at most six: an insertion sort).
    chosen: list[int] = []
    costs: list[int] = []
    while throwable:
        low = throwable & -throwable
        card = low.bit_length() - 1
        throwable ^= low
        c = card_cost(card, trump, top)
        if c > ceiling:
            continue
        at = len(costs)
        while at > 0 and costs[at - 1] > c:
            at -= 1
        costs.insert(at, c)
        chosen.insert(at, card)
    if not chosen:
        return passing
    room = position.limit - len(position.attacks)
    size = min(room, len(chosen))
    head = THROW | (passing & 0x38)
    while size > 0:
        mask = 0
        for index in range(size):
            mask |= 1 << chosen[index]
        wanted = head | mask << 6
        if size == 1 or wanted in codes:
            return wanted
        size -= 1
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
