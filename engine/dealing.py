"""The deal (R-DEAL-1..4) and who attacks first (R-START-1/2), as the core's ``Position``.

``new_game``, ``next_game`` and ``from_position`` (``engine.game``) check their arguments
and come here; so does ``engine.search.new_position``. Compiled with the core.
"""

from __future__ import annotations

from random import Random
from typing import Final

from .core import DIAMONDS, HAND_SIZE, Position
from .rules import Blind, HouseRules, NoTrumpStart, TrumpChoice

_DECKS: Final[dict[int, list[int]]] = {}


def deck_list(deck: int) -> list[int]:
    """The cards of a 24-, 36- or 52-card deck in card order (a new list)."""
    cards = _DECKS.get(deck)
    if cards is None:
        low = {52: 0, 36: 4, 24: 7}[deck]
        cards = _DECKS[deck] = [s * 13 + r for s in range(4) for r in range(low, 13)]
    return cards[:]


def shuffle(cards: list[int], rng: Random) -> None:
    """``rng.shuffle(cards)``, card for card, without its Python-level loop: the same
    ``getrandbits`` calls ``random.Random.shuffle`` makes (CPython 3.11+), so a seed deals
    the same game either way (a test checks it). Other generators shuffle themselves."""
    if type(rng) is not Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        below = i + 1
        bits = below.bit_length()
        j = getrandbits(bits)
        while j >= below:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def first_attacker(
    rules: HouseRules, hands: list[int], trump: int, dealer: int, rng: Random
) -> tuple[int, int]:
    """The holder of the lowest trump and that card (R-START-1); if nobody holds a trump,
    a seat chosen by ``no_trump_start`` and -1 (R-START-2). In ``chinese`` nobody has seen
    a card: a seat drawn by lot, and -1 (R-BLIND-5)."""
    if rules.blind is Blind.CHINESE:
        return rng.randrange(len(hands)), -1
    for rank in range(13):
        card = trump * 13 + rank
        for seat in range(len(hands)):
            if (hands[seat] >> card) & 1:
                return seat, card
    if rules.no_trump_start is NoTrumpStart.RANDOM:
        return rng.randrange(len(hands)), -1
    return (dealer + 1) % len(hands), -1


def deal(
    rules: HouseRules,
    players: int,
    rng: Random,
    dealer: int,
    attacker: int,
    named: int = -1,
    game_number: int = 1,
    order: list[int] | None = None,
) -> Position:
    """Shuffle, deal and turn the trump (R-DEAL-1..4), and start the first bout.

    ``dealer`` -1: chosen by lot (R-DEAL-1). ``attacker`` -1: the lowest trump, shown to
    everyone, or ``no_trump_start`` when nobody holds one (R-START-1, R-START-2). ``named``:
    the suit the dealer named (``trump: dealer``, R-TRUMP-1; the caller checks it is given).
    ``trump: japanese`` is always ♦ (R-TRUMP-2); Northern lays the bottom card face down
    under the face-up one (R-TRUMP-3). ``order``: the shuffled deck, top first (a seed's,
    ``engine.deck_seed``; the caller checks it is the rules' deck); None: ``rng`` shuffles."""
    if dealer < 0:
        dealer = rng.randrange(players)
    choice = rules.trump
    if order is None:
        cards = deck_list(rules.deck)
        shuffle(cards, rng)
    else:
        cards = order[:]
    hands = [0] * players
    rows: list[list[int]] = [[] for _ in range(players)]  # R-BLIND-2: in the order dealt
    dealt = HAND_SIZE * players
    seat = dealer
    for index in range(dealt):  # R-DEAL-2: one card at a time, the dealer's left first
        seat += 1
        if seat == players:
            seat = 0
        hands[seat] |= 1 << cards[index]
        rows[seat].append(cards[index])
    known = [0] * players
    if choice is TrumpChoice.DEALER or choice is TrumpChoice.JAPANESE:
        # R-TRUMP-1/2: no card is turned up, and none is shown under R-DEAL-4 either.
        trump = named if choice is TrumpChoice.DEALER else DIAMONDS
        trump_card = -1
        stock = cards[dealt:]
    elif choice is TrumpChoice.NORTHERN and len(cards) > dealt + 1:
        bottom = cards[dealt]  # R-TRUMP-3: face down, the very bottom of the stock
        trump_card = cards[dealt + 1]  # face up on it: the first trump
        stock = cards[dealt + 2 :]
        stock.append(trump_card)
        stock.append(bottom)
        trump = trump_card // 13
    elif len(cards) > dealt:
        trump_card = cards[dealt]  # R-DEAL-3: turned face up, drawn last
        stock = cards[dealt + 1 :]
        stock.append(trump_card)
        trump = trump_card // 13
    else:
        trump_card = cards[dealt - 1]  # R-DEAL-4: the dealer's last card, shown to everyone
        stock = []
        known[dealer] |= 1 << trump_card
        trump = trump_card // 13
    if attacker < 0:
        attacker, shown = first_attacker(rules, hands, trump, dealer, rng)
        if shown >= 0:
            known[attacker] |= 1 << shown  # R-START-1: the lowest trump is shown
    position = Position.new(
        rules, dealer, trump, trump_card, hands, known, stock, 0, [], 0, game_number, rows=rows
    )
    position.begin(attacker)
    return position
