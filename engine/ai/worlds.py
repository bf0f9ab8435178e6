"""Worlds as search positions: the cards a seat has not seen dealt anew, on the fast core.

``sampling.determinize`` builds one full ``GameState`` through its JSON form: right, but
far too slow to do a thousand times a decision. ``Worlds`` builds that state once, takes its
``Position`` as a template, and for every world copies the template and deals the unseen
cards again into the other hands (beyond the cards seen in them) and the stock (above the
face-up trump, or under it and above the Northern bottom card), the counts kept. Nothing
public changes between worlds, so everything else the template holds stays right.

A world is kept only if the same seats may act in it as at the real table: an automatic
pass tells that a thrower holds no rank on the table (R-BOUT-8), and a world where that
thrower could act is not the real one.

Inference from the game so far (``Knowledge.declined``, public evidence the engine keeps
per seat since it last drew): a defender who declared a take while a plain (not trump) card
of theirs would have covered most likely holds no such card, as players spend a cheap cover
rather than take; a thrower who let a bout close with room on the table most likely holds
no plain card of its ranks (with none at all it passed by the rules, R-BOUT-8). Trumps are
kept back for good reasons and say nothing. A world in which a seat holds such a plain card
is kept only with the chance ``DECLINED_HELD`` for each seat that does (rejection sampling:
the worlds come weighted by how well they explain what was seen).
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Final

from ..cards import cards_of
from ..core import Position
from .knowledge import Knowledge
from .sampling import determinize

WORLD_TRIES: Final = 30  # deals tried for one world consistent with who may act
DECLINED_HELD: Final = 0.25  # how likely a seat is to hold a plain card it did not play


class Worlds:
    """Worlds consistent with ``knowledge``, drawn from ``rng``."""

    __slots__ = ("_acting", "_counts", "_face_up", "_northern", "_others", "_rng", "_seen",
                 "_template", "_unlikely", "_unseen")  # fmt: skip

    def __init__(self, knowledge: Knowledge, rng: random.Random) -> None:
        view = knowledge.view
        self._rng = rng
        self._template = determinize(knowledge, rng).position()
        self._unseen = [int(card) for card in cards_of(knowledge.unseen)]
        self._others = [s for s in range(len(view.hand_sizes)) if s != view.seat]
        self._counts = [knowledge.hidden_count(s) for s in self._others]
        self._seen = [knowledge.seen[s] for s in self._others]
        face_up = knowledge.trump_in_stock and view.trump_card is not None
        self._face_up = -1 if not face_up or view.trump_card is None else int(view.trump_card)
        self._northern = self._template.north >= 0
        acting = 0
        for seat in view.to_act:
            acting |= 1 << seat
        self._acting = acting
        # Per other seat, the plain cards it declined to play and may hold unseen.
        plain = ~(0x1FFF << (13 * knowledge.trump))
        if knowledge.top >= 0:
            plain &= ~(1 << knowledge.top)
        self._unlikely = [knowledge.declined[s] & plain & knowledge.unseen for s in self._others]

    def sample(self) -> Position | None:
        """A new world, or None if none of ``WORLD_TRIES`` deals lets the same seats act.
        (If every one of them is unlikely by the inference, the least unlikely is still
        taken: the cards left may leave a seat no other hand.)"""
        fallback = None
        fewest = len(self._others) + 1
        for _ in range(WORLD_TRIES):
            cards = self._unseen[:]
            self._rng.shuffle(cards)
            world = self._deal(cards)
            if world.acting_mask() != self._acting:
                continue
            holding = self._holding(world)
            draws = [self._rng.random() for _ in range(holding)]  # one a seat holding one
            if all(draw < DECLINED_HELD for draw in draws):
                return world
            if holding < fewest:
                fallback, fewest = world, holding
        return fallback

    def every(self, most: int) -> list[tuple[Position, float]] | None:
        """Every world, each with its weight by the inference (``DECLINED_HELD`` for each
        seat holding a plain card it declined), when one other hand is hidden and there are
        at most ``most`` of them (the stock's hidden cards in every order, the rest in that
        hand); else None. Worlds in which other seats may act than at the table are left
        out, as ``sample`` leaves them."""
        if sum(1 for count in self._counts if count) > 1:
            return None
        in_stock = len(self._unseen) - sum(self._counts)
        if math.perm(len(self._unseen), in_stock) > most:
            return None
        worlds = []
        for stock in itertools.permutations(self._unseen, in_stock):
            held = [card for card in self._unseen if card not in stock]
            world = self._deal([*held, *stock])
            if world.acting_mask() == self._acting:
                worlds.append((world, self._weight(world)))
        return worlds

    def _weight(self, world: Position) -> float:
        return float(DECLINED_HELD ** self._holding(world))

    def _holding(self, world: Position) -> int:
        """How many other seats hold in ``world`` a plain card they declined to play."""
        hands = world.hands
        return sum(1 for index, seat in enumerate(self._others)
                   if hands[seat] & self._unlikely[index])  # fmt: skip

    def _deal(self, cards: list[int]) -> Position:
        """The world with ``cards`` (the unseen ones in some order) dealt: the first to the
        other hands in seat order, as many as each hides, the rest to the stock."""
        world = self._template.copy()
        hands = world.hands
        at = 0
        for index, seat in enumerate(self._others):
            mask = self._seen[index]
            count = self._counts[index]
            for card in cards[at : at + count]:
                mask |= 1 << card
            at += count
            hands[seat] = mask
        rest = cards[at:]  # the stock's hidden cards, in a random order
        face_up = self._face_up
        if face_up < 0:
            stock = rest
        elif self._northern:  # bottom first: the face-down card, the face-up trump above it
            stock = [rest[0], face_up, *rest[1:]]
        else:
            stock = [face_up, *rest]
        world.stock = stock
        if self._northern:
            world.north = stock[0]
        return world


__all__ = ["DECLINED_HELD", "WORLD_TRIES", "Worlds"]
