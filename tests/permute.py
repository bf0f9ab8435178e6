"""Dealing the cards a seat has not seen another way: the honesty tests of the computer
players and of the review (what a seat decides from its view must not change)."""

from __future__ import annotations

import random

from engine import GameState


def permute_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """``state`` with the cards hidden from ``seat`` swapped about: the unseen cards of other
    hands and of the stock (all but the face-up trump card, wherever it lies: under a
    Northern bottom card, or nowhere when the dealer named the trump) trade places, the
    counts kept."""
    hidden = [s for s in range(state.players) if s != seat]
    pool = [c for s in hidden for c in state.hand(s) if not (state.known[s] >> c) & 1]
    face_up = state.trump_card if state.trump_card_in_stock else None
    pool += [c for c in state.stock if c != face_up]
    rng.shuffle(pool)
    hands = list(state.hands)
    at = 0
    for s in hidden:
        keep = state.hands[s] & state.known[s]
        count = (state.hands[s] & ~state.known[s]).bit_count()
        hands[s] = keep
        for card in pool[at : at + count]:
            hands[s] |= 1 << card
        at += count
    rest = iter(pool[at:])
    stock = tuple(c if c == face_up else next(rest) for c in state.stock)
    changed = state._replace(hands=tuple(hands), stock=stock)
    return GameState.from_dict(changed.to_dict())  # who may act follows from the new hands
