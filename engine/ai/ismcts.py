"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012) on the fast core, the opponents modelled by the playout policy.

One tree for the seat's information set, its nodes reached by action codes, whoever made
them. Every iteration deals a new world (``worlds.Worlds``) and walks down the tree in it.
At a node where the seat or a partner moves, only the children whose action is legal in
this world can be chosen, each scored by UCB1 counted over the iterations in which it was
available; the first action not yet in the tree is added, and the world is played to its
end by the greedy policy (``engine.rollout``). The result is added along the path from the
point of view of the seat that made each action (its team's result, R-TEAM-4). The move
played is the root's most visited child.

An opponent in the tree plays, 85 times in 100 (``POLICY_SHARE``), the policy's move in
that world: the cheapest sufficient card, a take rather than a high trump early, and so on,
as ``normal`` plays; the other times it chooses by UCB1 as the seat does. Opponents choosing
by UCB1 always search against the seat in every world as if they saw its cards, and spread
the iterations over replies nobody sensible makes: that tree loses clearly more often
against ``normal``. Opponents always playing the policy's move beat ``normal`` most, but
mispredict a player who searches, and lose more often against ``hard-v1``. Mostly the
policy, sometimes the tree, keeps most of both; at the bot's budget the exact share matters
less than the noise against ``normal``. The strength figures and their commands are in
docs/PERFORMANCE.md.

Unlike averaging over worlds one ply deep, the tree learns the replies: a lead is judged by
the cover the defender actually has in each world, and a throw-in by what follows it. What
the seat does not know is never in the tree's keys: two worlds that differ only in hidden
cards share the nodes of every action both allow.
"""

from __future__ import annotations

import math
import random
from typing import Final

from ..core import ATTACK, THROW, Position
from ..rollout import greedy_code, mover, play_greedy, result_for
from .budget import Budget
from .worlds import Worlds

EXPLORATION: Final = 0.7  # UCB1's constant, for results between 0 and 1
# How often an opponent (a seat not on the deciding seat's team) below the root plays the
# playout policy's move rather than choosing by UCB1: the policy's move spends the
# iterations on the seat's own choices against sensible replies; UCB1's keeps the seat from
# counting on them against a player who searches. 1.0: always the policy; 0.0: always UCB1.
POLICY_SHARE = 0.85


class Node:
    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.total = 0.0  # results of the seat that made the action into this node
        self.available = 0  # iterations in which that action was legal here


def search(worlds: Worlds, codes: list[int], seat: int, rng: random.Random, budget: Budget) -> int:
    """The index in ``codes`` (the root's candidates) of the move to play. ``budget``'s
    iterations count worlds, ``len(codes)`` descents each (the work of one-ply averaging);
    its time is checked before every descent."""
    root = Node()
    candidates = set(codes)
    timed = not budget.counted
    planned = 0 if timed else (budget.iterations or 0) * len(codes)
    done = 0
    started: float | None = None
    while True:
        if timed:
            if not budget.another(done, started):
                break
            started = budget.now()
        elif done >= planned:
            break
        done += 1
        world = worlds.sample()
        if world is not None:
            _descend(root, world, seat, candidates, rng)
    best = max(codes, key=lambda c: _visits(root, c))
    return codes.index(best)


def _visits(node: Node, code: int) -> int:
    child = node.children.get(code)
    return -1 if child is None else child.visits


def _descend(
    root: Node, world: Position, deciding: int, candidates: set[int], rng: random.Random
) -> None:
    """One iteration in ``world``: down the tree from the root, where ``deciding`` moves
    (when several may act, the one who asked), a playout, and the results back up."""
    node = root
    path: list[tuple[Node, int]] = []
    team = world.variant.team[deciding]
    while not world.finished:
        seat = deciding if node is root else mover(world)
        legal = world.legal(seat)
        if node is not root and not (team >> seat) & 1 and rng.random() < POLICY_SHARE:
            code = greedy_code(world, seat, legal, rng)
            child = node.children.get(code)
            if child is None:
                child = node.children[code] = Node()
            world.apply(code)
            node = child  # (no statistics here: they are kept where UCB1 chooses)
            continue
        if node is root:
            legal = [c for c in legal if c in candidates]
        else:
            legal = worth_searching(legal, world)
        if len(legal) == 1 and node is not root:
            world.apply(legal[0])  # a forced move: no choice to learn
            continue
        children = node.children
        for code in legal:
            child = children.get(code)
            if child is not None:
                child.available += 1
        # A child the policy's move made (an opponent not choosing by UCB1 there) has no
        # statistics yet: it is expanded as a new one, its subtree kept.
        new = [c for c in legal if c not in children or not children[c].visits]
        if new:
            code = new[int(rng.random() * len(new))]
            child = children.get(code)
            if child is None:
                child = children[code] = Node()
                child.available = 1
            world.apply(code)
            path.append((child, seat))
            break
        code = _ucb(children, legal)
        node = children[code]
        world.apply(code)
        path.append((node, seat))
    play_greedy(world, rng)
    for child, seat in path:
        child.visits += 1
        child.total += result_for(world, seat)


def _ucb(children: dict[int, Node], legal: list[int]) -> int:
    best = legal[0]
    best_value = -1.0
    for code in legal:
        child = children[code]
        value = child.total / child.visits + EXPLORATION * math.sqrt(
            math.log(child.available) / child.visits
        )
        if value > best_value:
            best, best_value = code, value
    return best


def worth_searching(codes: list[int], position: Position) -> list[int]:
    """The actions a node of the tree tries: every one but the sets of several cards with a
    trump in them or of several ranks (a pair of plain cards is worth a node; the many
    mixtures are not)."""
    kept: list[int] = []
    trump_bits = 0x1FFF << (13 * position.trump)
    for code in codes:
        kind = code & 7
        if kind in (ATTACK, THROW):
            cards = code >> 6
            if cards & (cards - 1):
                if cards & trump_bits:
                    continue
                low = (cards & -cards).bit_length() - 1
                rank = low % 13
                if any((card % 13) != rank for card in _cards(cards)):
                    continue
        kept.append(code)
    return kept


def _cards(mask: int) -> list[int]:
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


__all__ = ["EXPLORATION", "POLICY_SHARE", "Node", "search", "worth_searching"]
