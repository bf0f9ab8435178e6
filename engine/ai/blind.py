"""Computer players of the blind family (RULES.md section 14), as honest as R-BLIND-6 asks.

A player of ``reversed`` or ``chinese`` cannot see its own hand: it knows the cards it saw go
into it (``SeatView.remembered``) and, for every other slot, only which cards it might be:
``BlindKnowledge.pool``, every card whose place the seat does not know, each as likely as
the next to lie in a slot it has not seen. So the chance that an unseen slot beats the 7♠ is
the share of the pool that beats it. A ``doubt`` player sees its own hand but not the
covers laid face down on its attack cards, nor the covers others believed (R-DOUBT-5): it
judges from how likely the defender was to hold a card that beats each attack card, and
from how his covers turned up so far showed him (R-DOUBT-3).

* ``easy`` tries its luck: it covers with any slot rather than take, throws in blind now
  and then, and says «верю» or «не верю» at random.
* ``normal`` plays the odds: a card it remembers first; else an unseen slot on the attack
  card the pool makes likeliest to be beaten (a defender's misplay leaves him the cards a
  take would, and shows him one of his own: trying never costs more than taking); never a
  blind throw-in (a thrower's misplay costs him the whole table);
  true covers where it holds them and a bluff with its cheapest card where it does not;
  «не верю» when the covers are more likely false than true.
* ``hard`` deals worlds from what the seat knows (``blind_world``: the pool shared out over
  the unseen slots, the face-down cards, the stock and the covers discarded unseen), plays
  each candidate in each world to the end with a quick policy that plays every world's
  cards as their holders would if they saw them, and keeps the candidate that ends best.
  Slots the seat has not seen are all alike to it, so one of them stands for all.
* ``normal`` weighs the defender's record too: how often his covers, turned up after «не
  верю», were found true or caught false (``judged_chance``); ``hard`` searches «верю»
  and «не верю» like any other choice (``_judge`` says why).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Final

from ..actions import (
    Action,
    Attack,
    AttackSlot,
    Believe,
    Defend,
    DefendSlot,
    Doubt,
    Take,
    ThrowSlot,
)
from ..cards import Card, cards_of, deck_mask, format_cards, mask_of
from ..codes import encode
from ..core import (
    ATTACK,
    BELIEVE,
    BLIND,
    DEFEND,
    NO_CARD,
    PASS,
    SLOT_ATTACK,
    SLOT_DEFEND,
    TAKE,
    Position,
    rules_beaters,
    top_queen,
)
from ..rules import Blind
from ..state import GameState
from ..view import SeatView
from . import easy as easy_level
from . import normal as normal_level
from .budget import Budget
from .heuristics import cost, cover_plan, is_trump
from .knowledge import knowledge_from_view
from .sampling import state_dict

EASY_THROW: Final = 0.15  # ``easy`` throws in a slot it has not seen this often
EARLY_STOCK: Final = 10  # a stock this large: keep trumps and high cards
DOUBT_BELOW: Final = 0.5  # «не верю» when the covers are less likely true than this
HONEST_PRIOR: Final = 4.0  # a defender's record starts as this many covers found true
HARD_WORLDS: Final = 400  # at most this many worlds a decision
PLAYOUT_MOST: Final = 2_000  # actions; a random game of 52 cards rarely takes 500


@dataclass(frozen=True, slots=True)
class BlindKnowledge:
    """What one seat of a blind game knows (R-BLIND-6)."""

    view: SeatView
    watched: int  # the discard it saw go by (not the covers believed unseen)
    pool: int  # the cards whose place it does not know
    beaters: tuple[int, ...]
    top: int

    @property
    def blind(self) -> Blind:
        return self.view.rules.blind

    @property
    def trump(self) -> int:
        return int(self.view.trump)

    def chance(self, cards: int) -> float:
        """The chance that a card the seat has not seen is one of ``cards``."""
        pool = self.pool.bit_count()
        return (self.pool & cards).bit_count() / pool if pool else 0.0

    def own(self) -> tuple[Card | None, ...]:
        """The seat's own hand, slot by slot, as far as it knows it."""
        view = self.view
        if self.blind is Blind.DOUBT:
            return tuple(view.hand)
        return view.remembered


def blind_knowledge(view: SeatView, watched: int) -> BlindKnowledge:
    """``view``'s knowledge; ``watched``: the discard the seat saw (cards beaten off face up,
    not the covers believed unseen)."""
    known = watched | mask_of(card for card in view.hand)
    for row in (*view.rows, view.remembered):
        known |= mask_of(card for card in row if card is not None)
    for cards in view.seen_in_hands:
        known |= mask_of(cards)
    for attack, cover in view.table:
        known |= 1 << attack
        if cover is not None:
            known |= 1 << cover
    if view.trump_card is not None and view.trump_card_in_stock:
        known |= 1 << view.trump_card  # elsewhere, where it is is known only if seen there
    beaters = rules_beaters(view.rules, int(view.trump))
    pool = deck_mask(view.rules.deck) & ~known
    return BlindKnowledge(view, watched, pool, beaters, top_queen(view.rules))


def decide(
    knowledge: BlindKnowledge,
    legal: list[Action],
    level: str,
    rng: random.Random,
    budget: Budget,
) -> Action:
    """The action ``level`` plays at a blind table (``engine.ai.decide`` sends it here)."""
    if len(legal) == 1:
        return legal[0]
    if level == "hard":
        return _search(knowledge, legal, rng, budget)
    return _policy(knowledge, legal, level == "easy", rng)


def _policy(
    knowledge: BlindKnowledge, legal: list[Action], easy: bool, rng: random.Random
) -> Action:
    view = knowledge.view
    if any(isinstance(a, Believe) for a in legal):
        return _judge(knowledge, legal, easy, rng)
    if any(isinstance(a, Attack) for a in legal):  # ``doubt``: an open game's opening
        seen = knowledge_from_view(view, knowledge.watched)
        opening: Action = (easy_level if easy else normal_level).decide(seen, legal, rng)
        return opening
    if any(isinstance(a, AttackSlot) for a in legal):
        return _open_slot(knowledge, legal, easy, rng)
    if view.seat == view.defender:
        if any(isinstance(a, Defend) for a in legal):
            return _cover_face_down(knowledge, legal, easy, rng)
        return _cover_slot(knowledge, legal, easy, rng)
    return _throw_slot(knowledge, legal, easy, rng)


def _unseen_slots(knowledge: BlindKnowledge) -> list[int]:
    return [slot for slot, card in enumerate(knowledge.own(), start=1) if card is None]


def _known_slots(knowledge: BlindKnowledge) -> list[tuple[int, Card]]:
    return [(slot, card) for slot, card in enumerate(knowledge.own(), start=1) if card is not None]


def _open_slot(
    knowledge: BlindKnowledge, legal: list[Action], easy: bool, rng: random.Random
) -> Action:
    """An opening is never a misplay (R-REV-3): a cheap card it remembers, else any slot."""
    trump, top = knowledge.trump, knowledge.top
    cheap = [
        (slot, card)
        for slot, card in _known_slots(knowledge)
        if not is_trump(card, trump) and card != top
    ]
    unseen = _unseen_slots(knowledge)
    if cheap and not easy:
        slot = min(cheap, key=lambda pair: cost(pair[1], trump, top))[0]
    elif unseen:
        slot = unseen[int(rng.random() * len(unseen))]
    else:
        slot = min(_known_slots(knowledge), key=lambda pair: cost(pair[1], trump, top))[0]
    return AttackSlot(knowledge.view.seat, slot)


def _cover_slot(
    knowledge: BlindKnowledge, legal: list[Action], easy: bool, rng: random.Random
) -> Action:
    """``reversed``: a card it remembers that beats, else an unseen slot (never worse than a
    take), else take. ``chinese``: the answer to a card nobody has seen."""
    view, trump, top = knowledge.view, knowledge.trump, knowledge.top
    seat = view.seat
    unseen = _unseen_slots(knowledge)
    if knowledge.blind is Blind.CHINESE:
        if unseen:
            return DefendSlot(seat, unseen[int(rng.random() * len(unseen))], None)
        best = max(
            _known_slots(knowledge), key=lambda p: knowledge.chance(~knowledge.beaters[p[1]])
        )
        return DefendSlot(seat, best[0], None)
    uncovered = [attack for attack, cover in view.table if cover is None]
    for attack in sorted(uncovered, key=lambda a: -cost(a, trump, top)):
        beats = [
            (slot, card)
            for slot, card in _known_slots(knowledge)
            if (knowledge.beaters[attack] >> card) & 1
        ]
        if beats:
            slot = min(beats, key=lambda pair: cost(pair[1], trump, top))[0]
            return DefendSlot(seat, slot, attack)
    if unseen:
        if easy:
            attack = uncovered[int(rng.random() * len(uncovered))]
        else:
            attack = max(uncovered, key=lambda a: knowledge.chance(knowledge.beaters[a]))
        return DefendSlot(seat, unseen[int(rng.random() * len(unseen))], attack)
    return Take(seat)


def _throw_slot(
    knowledge: BlindKnowledge, legal: list[Action], easy: bool, rng: random.Random
) -> Action:
    """A card it remembers whose rank is on the table; ``easy`` sometimes throws blind."""
    view, trump = knowledge.view, knowledge.trump
    seat = view.seat
    pass_ = next(a for a in legal if not isinstance(a, ThrowSlot))
    ranks = {attack % 13 for attack, _ in view.table} | {c % 13 for _, c in view.table if c}
    if view.rules.throw_in == "neighbors_first_rank":
        ranks = {view.table[0][0] % 13}  # what every thrower may add
    early = view.stock_size >= EARLY_STOCK
    for slot, card in _known_slots(knowledge):
        if card % 13 in ranks and not (early and is_trump(card, trump)):
            return ThrowSlot(seat, slot)
    unseen = _unseen_slots(knowledge)
    if easy and unseen and rng.random() < EASY_THROW:
        return ThrowSlot(seat, unseen[int(rng.random() * len(unseen))])
    return pass_


def _cover_face_down(
    knowledge: BlindKnowledge, legal: list[Action], easy: bool, rng: random.Random
) -> Action:
    """``doubt``: a card that beats where it holds one, else a bluff with its cheapest card;
    ``normal`` takes at once rather than bluff twice. Its own record (R-DOUBT-3), which
    the attackers weigh, it leaves aside: a bluff caught costs about what a take at once
    would (the table, and its covers back in hand), and daring a second bluff only while
    never caught played no better than this rule."""
    view, trump, top = knowledge.view, knowledge.trump, knowledge.top
    seat = view.seat
    hand = list(view.hand)
    uncovered = [attack for attack, cover in view.table if cover is None]
    take = next((a for a in legal if isinstance(a, Take)), None)
    if easy:
        covers = [a for a in legal if isinstance(a, Defend)]
        return covers[int(rng.random() * len(covers))]
    plan = cover_plan(mask_of(hand), uncovered, trump, knowledge.beaters, top)
    if plan is not None:
        attack, cover = plan[0]
        return Defend(seat, cover, attack)
    beatable = [
        (attack, min(beats, key=lambda c: cost(c, trump, top)))
        for attack in uncovered
        if (beats := [c for c in hand if (knowledge.beaters[attack] >> c) & 1])
    ]
    if take is not None and len(uncovered) - len(beatable) > 1:
        return take
    if beatable:
        attack, cover = min(beatable, key=lambda pair: cost(pair[1], trump, top))
        return Defend(seat, cover, attack)
    bluff = min(hand, key=lambda c: cost(c, trump, top))
    return Defend(seat, bluff, max(uncovered, key=lambda a: cost(a, trump, top)))


def covers_true_chance(knowledge: BlindKnowledge) -> float:
    """How likely every face-down cover beats its card: for each, that the defender held a
    card beating it among the cards dealt him from the pool, as if independent. Nothing
    seen going into his hand counts: once he lays a card face down, nobody knows which of
    those cards he still holds (the engine forgets them, R-DOUBT-2)."""
    view = knowledge.view
    defender = view.defender
    assert defender is not None
    pool = knowledge.pool.bit_count()
    down = view.face_down_covers
    held = view.hand_sizes[defender] + len(down)  # his hand before covering
    chance = 1.0
    for index in down:
        attack = view.table[index][0]
        beating = (knowledge.pool & knowledge.beaters[attack]).bit_count()
        if held <= 0 or pool <= 0:
            return 0.0
        miss = math.comb(pool - beating, min(held, pool)) / math.comb(pool, min(held, pool))
        chance *= 1.0 - miss
    return chance


def judged_chance(knowledge: BlindKnowledge) -> float:
    """How likely every face-down cover beats its card, from the cards and from the
    defender's record (R-DOUBT-3).

    His covers are true if he held cards that beat and chose to lay them:
    ``covers_true_chance`` is the chance of the first; the second, his honesty, shows each
    time his covers were turned up after «не верю», which everybody saw: found true, or
    caught bluffing (``TableView.doubted``, ``caught``). Covers believed were never seen
    (R-DOUBT-5) and say nothing. Honesty is the mean of a Beta posterior: a prior worth
    ``HONEST_PRIOR`` covers found true (a player is taken at his word until caught), then
    his honest and caught judgments. With no record, or none caught, this is the cards'
    chance; each time he is caught it shrinks, so a defender caught bluffing is doubted
    where the cards alone would believe him. (A caught bluff may have been forced, as
    ``normal`` bluffs only when it holds nothing that beats: counted all the same, it is
    a little hard on such a player, yet the covers of ``normal`` players were still
    called right a little more often than by the cards alone.) ``normal`` judges with it
    (``_judge``)."""
    view = knowledge.view
    defender = view.defender
    assert defender is not None
    doubted, caught = view.doubted[defender], view.caught[defender]
    honesty = (HONEST_PRIOR + doubted - caught) / (HONEST_PRIOR + doubted)
    return covers_true_chance(knowledge) * honesty


def _judge(
    knowledge: BlindKnowledge, legal: list[Action], easy: bool, rng: random.Random
) -> Action:
    """R-DOUBT-3: «не верю» when the covers are more likely false (``judged_chance``):
    ``normal``. ``hard`` searches the choice instead, worlds dealing the face-down covers
    at random: that doubts true covers of an honest defender often, yet it keeps a
    defender who bluffs freely (``hard`` itself) from bluffing for nothing; judging by
    this rule, which rarely doubts and so rarely learns a record, ``hard`` lost heavily
    to ``hard`` and did no better against ``normal``."""
    seat = knowledge.view.seat
    doubted = rng.random() < 0.5 if easy else judged_chance(knowledge) < DOUBT_BELOW
    return Doubt(seat) if doubted else Believe(seat)


# --- hard: worlds and playouts -------------------------------------------------------------


def blind_world(knowledge: BlindKnowledge, rng: random.Random) -> Position:
    """A full position the seat could not tell from the real one: the pool's cards dealt at
    random to every slot it has not seen, to the face-down cards, to the stock above the
    face-up trump and to the covers discarded unseen."""
    view = knowledge.view
    pool = cards_of(knowledge.pool)
    rng.shuffle(pool)

    def draw(count: int) -> list[Card]:
        taken = pool[:count]
        del pool[:count]
        return taken

    rows: list[list[Card]] = []
    known: list[int] = []
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            row = _own_row(knowledge, draw)
        elif knowledge.blind is Blind.REVERSED:
            row = [card for card in view.rows[seat] if card is not None]
        else:
            seen = list(view.seen_in_hands[seat])
            row = seen + draw(size - len(seen))
            rng.shuffle(row)
        rows.append(row)
        known.append(mask_of(view.seen_in_hands[seat]))
    known[view.seat] |= mask_of(card for card in view.remembered if card is not None)
    attacks = [attack for attack, _ in view.table]
    covers: list[Card | None] = [cover for _, cover in view.table]
    down = 0
    if view.face_down_attack:  # ``chinese``: the one attack card, face down
        attacks, covers = draw(1), [None]
        down |= 1 << attacks[0]
    for index in view.face_down_covers:  # ``doubt``: the covers, face down
        cover = covers[index]
        if cover is None:
            cover = covers[index] = draw(1)[0]
        down |= 1 << cover
    face_up = view.trump_card if view.trump_card_in_stock else None
    hidden_in_stock = view.stock_size - (1 if face_up is not None else 0)
    stock = draw(hidden_in_stock)
    if face_up is not None:
        at = len(stock) - 1 if view.bottom_card_hidden else len(stock)
        stock.insert(max(at, 0), face_up)
    unseen = mask_of(pool)  # what is left: the covers believed unseen (R-DOUBT-5)
    data = state_dict(
        view,
        hands=[format_cards(row) for row in rows],
        known=[format_cards(cards_of(mask)) for mask in known],
        stock=format_cards(stock),
        discard=format_cards(cards_of(knowledge.watched | unseen)),
        table=list(zip(attacks, covers, strict=True)),
    )
    if down:
        data["down"] = format_cards(cards_of(down))
    if unseen:
        data["unseen"] = format_cards(cards_of(unseen))
    return GameState.from_dict(data).position()


def _own_row(knowledge: BlindKnowledge, draw: Any) -> list[Card]:
    own = knowledge.own()
    return [card if card is not None else draw(1)[0] for card in own]


def _search(
    knowledge: BlindKnowledge, legal: list[Action], rng: random.Random, budget: Budget
) -> Action:
    """Flat Monte Carlo over worlds (see the module's docstring)."""
    groups = _candidate_groups(knowledge, legal)
    if len(groups) == 1:
        members = groups[0]
        return members[int(rng.random() * len(members))]
    codes = [encode(members[0]) for members in groups]
    totals = [0.0] * len(groups)
    seat = knowledge.view.seat
    worlds = 0
    timed = not budget.counted
    while worlds < HARD_WORLDS:
        if timed and budget.out_of_time():
            break
        if not timed and not budget.another(worlds):
            break
        world = blind_world(knowledge, rng)
        worlds += 1
        for index, code in enumerate(codes):
            trial = world.copy()
            trial.apply(code)
            playout(trial, rng)
            totals[index] += 0.5 if trial.durak < 0 else float(trial.durak != seat)
    best = max(range(len(groups)), key=lambda i: totals[i])
    members = groups[best]
    return members[int(rng.random() * len(members))]


def _candidate_groups(knowledge: BlindKnowledge, legal: list[Action]) -> list[list[Action]]:
    """The legal actions worth searching, those alike to the seat in one group: the same
    play with any slot it has not seen. No throw-in but the one ``normal`` would make (a
    card it remembers, of a rank it may add): a blind one that comes off gains little, and
    one that misses hands the thrower the table and the turn, which a search of a few
    worlds may take for a bargain (missed at once after the opening, it gives back only
    the thrower's own two cards) and so never end a game."""
    own = knowledge.own()
    throw = next((a for a in legal if isinstance(a, ThrowSlot)), None)
    if throw is not None:
        legal = [a for a in legal if not isinstance(a, ThrowSlot)]
        chosen = _throw_slot(knowledge, [*legal, throw], False, random.Random(0))
        if isinstance(chosen, ThrowSlot):
            legal.append(chosen)
    groups: dict[object, list[Action]] = {}
    for action in legal:
        if isinstance(action, AttackSlot | ThrowSlot | DefendSlot):
            card = own[action.slot - 1] if action.slot <= len(own) else None
            key: object = (type(action), getattr(action, "on", None), card or "unseen")
            if card is not None:
                key = action
        else:
            key = action
        groups.setdefault(key, []).append(action)
    return list(groups.values())


def playout(position: Position, rng: random.Random) -> None:
    """Play ``position`` to its end, in place, every seat playing its cards as if it saw
    them: the cheapest card that opens, beats or may be thrown in; a take or a pass when
    none does (where neither is allowed, its last choice: a ``chinese`` answer that fails,
    a ``doubt`` bluff); a coin for «верю» or «не верю». A playout still going after
    ``PLAYOUT_MOST`` actions is left unfinished: its result counts as a draw."""
    random_ = rng.random
    for _ in range(PLAYOUT_MOST):
        if position.finished:
            return
        seats = position.to_act()
        seat = seats[int(random_() * len(seats))]
        codes = position.legal(seat)
        position.apply(_quick(position, seat, codes, random_))


def _quick(position: Position, seat: int, codes: list[int], random_: Any) -> int:
    """``playout``'s choice among ``codes``, the legal actions of ``seat``."""
    trump = position.trump
    row = position.rows[seat]
    best, best_cost = -1, 1 << 30
    fallback = codes[-1]
    for code in codes:
        kind = code & 7
        payload = code >> 6
        if kind == BLIND:
            what = payload & 7
            if what >= BELIEVE:  # «верю» or «не верю», the only two choices: a coin
                return codes[int(random_() * len(codes))]
            card = row[(payload >> 3) & 63]
            if what == SLOT_DEFEND:
                on = payload >> 9
                if on == NO_CARD:  # ``chinese``: the world's face-down attack card
                    on = position.attacks[0]
                if not (position.beaters[on] >> card) & 1:
                    continue
            elif what != SLOT_ATTACK and not (position.throwable(seat) >> card) & 1:
                continue  # a throw-in that would be a misplay
        elif kind == DEFEND:
            card = payload & 63
            if not (position.beaters[payload >> 6] >> card) & 1:
                continue
        elif kind == ATTACK:
            card = (payload & -payload).bit_length() - 1
        elif kind in (TAKE, PASS):
            fallback = code
            continue
        else:
            continue
        price = card % 13 + (13 if card // 13 == trump else 0)
        if price < best_cost:
            best, best_cost = code, price
    return best if best >= 0 else fallback


__all__ = [
    "BlindKnowledge",
    "blind_knowledge",
    "blind_world",
    "covers_true_chance",
    "decide",
    "judged_chance",
    "playout",
]
