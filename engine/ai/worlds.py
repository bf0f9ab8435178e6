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
kept back for good reasons and say nothing. So is a plain card cheaper than the ones a
seat opened a bout with (a sensible player leads its cheapest cards; the engine notes them,
``core.Position``). Such a card goes to the seat with a weight of ``DECLINED_HELD``, a card
it did not decline with 1.

What a seat declined before it last drew (``Knowledge.lacked``) may have come in the k cards
it drew since (``Knowledge.drawn``): a card unseen that it lacked then is in one of those k
draws or still in the stock, where a uniform deal puts it among all h hidden cards of the
hand or the stock; such a card goes to the seat with the weight k / h, the ratio of the two
odds (at most 1, at least ``DECLINED_HELD``).

The hidden cards of each other seat are drawn with these weights (weighted sampling without
replacement, ``_biased``), the stock's in a uniform order; ``every`` weighs each world by
the product of the weights of the cards the seats hold.
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

    __slots__ = ("_acting", "_counts", "_face_up", "_lacked", "_lacked_odds", "_northern",
                 "_odds", "_others", "_rng", "_seen", "_template", "_unlikely",
                 "_unseen")  # fmt: skip

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
        # Per other seat, the plain cards it declined before it last drew, and how much
        # less likely it is to hold each of them than a uniform deal says.
        self._lacked = [
            knowledge.lacked[s] & plain & knowledge.unseen & ~knowledge.declined[s]
            for s in self._others
        ]
        self._lacked_odds = [
            _lacked_odds(knowledge.drawn[s], count)
            for s, count in zip(self._others, self._counts, strict=True)
        ]
        # Per other seat, the inverse weight (see ``_biased``) of every card dealt to it
        # less willingly than a uniform deal would: none when it declined nothing.
        self._odds: list[dict[int, float]] = []
        for index in range(len(self._others)):
            odds = {}
            for card in cards_of(self._lacked[index]):
                odds[int(card)] = 1.0 / self._lacked_odds[index]
            for card in cards_of(self._unlikely[index]):
                odds[int(card)] = 1.0 / DECLINED_HELD
            self._odds.append(odds)

    def sample(self) -> Position | None:
        """A new world, or None if none of ``WORLD_TRIES`` deals lets the same seats act."""
        biased = any(self._odds)
        for _ in range(WORLD_TRIES):
            cards = self._unseen[:]
            self._rng.shuffle(cards)
            if biased:
                cards = self._biased(cards)
            world = self._deal(cards)
            if world.acting_mask() == self._acting:
                return world
        return None

    def _biased(self, cards: list[int]) -> list[int]:
        """``cards`` (shuffled) in the order ``_deal`` takes them, each other seat's hidden
        cards drawn with the weights of the inference (weighted sampling without
        replacement, Efraimidis and Spirakis 2006: the largest keys ``u ** (1 / w)``), the
        stock's still in a uniform order."""
        rng = self._rng
        pool = cards
        dealt: list[int] = []
        for index, odds in enumerate(self._odds):
            count = self._counts[index]
            if not odds:
                dealt += pool[:count]
                pool = pool[count:]
                continue
            keyed = []
            for card in pool:
                key = rng.random()
                inverse = odds.get(card)
                if inverse is not None:
                    key **= inverse
                keyed.append((key, card))
            keyed.sort(reverse=True)
            dealt += [card for _, card in keyed[:count]]
            pool = [card for _, card in keyed[count:]]
            rng.shuffle(pool)
        return dealt + pool

    def every(self, most: int) -> list[tuple[Position, float]] | None:
        """Every world, each with its weight by the inference (``_weight``), when one other
        hand is hidden and there are
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
        """How well ``world`` explains what the other seats declined (see above): 1 when
        no seat holds a card it declined."""
        hands = world.hands
        weight = 1.0
        for index, seat in enumerate(self._others):
            hand = hands[seat]
            declined = (hand & self._unlikely[index]).bit_count()
            if declined:
                weight *= DECLINED_HELD**declined
            held = (hand & self._lacked[index]).bit_count()
            if held:
                weight *= self._lacked_odds[index] ** held
        return weight

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


def _lacked_odds(drawn: int, hidden: int) -> float:
    """The weight of a card a seat lacked before it drew ``drawn`` cards, for a seat that
    hides ``hidden`` (see above), between ``DECLINED_HELD`` and 1."""
    if hidden <= drawn:
        return 1.0
    return max(DECLINED_HELD, drawn / hidden)


__all__ = ["DECLINED_HELD", "WORLD_TRIES", "Worlds"]
