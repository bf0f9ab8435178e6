"""Who may act now, and every action they may take: the legal moves of a position.

``apply`` (``play.py``) does not look them up: it checks an action against the rules itself,
so that a refusal comes with its reason; the property tests keep the two in step. Actions
are values: each is built once and reused, so listing them costs little more than looking
them up.
"""

from __future__ import annotations

from itertools import combinations

from .actions import Action, Attack, Defend, Pass, Take, Throw, Transfer
from .cards import BEATERS, CARDS, RANK_MASKS, ranks_on
from .state import MAX_SEATS, Bout, GameState, ceiling, next_active

# --- actions are values: build each once -------------------------------------------------

_TAKE = tuple(Take(p) for p in range(MAX_SEATS))
_PASS = tuple(Pass(p) for p in range(MAX_SEATS))
# Bounded caches of built actions, keyed by masks that recur from game to game.
_CACHE_SIZE = 100_000
_covers_cache: dict[int, tuple[Defend, ...]] = {}
_transfers_cache: dict[int, tuple[Transfer, ...]] = {}
_card_sets_cache: dict[tuple[bool, int, int, int], tuple[Attack | Throw, ...]] = {}


def _covers(player: int, attack: int, able: int) -> tuple[Defend, ...]:
    """Defend actions covering ``attack`` with each card of ``able``."""
    key = able | attack << 52 | player << 58
    actions = _covers_cache.get(key)
    if actions is None:
        if len(_covers_cache) >= _CACHE_SIZE:
            _covers_cache.clear()
        actions = tuple(Defend(player, CARDS[c], CARDS[attack]) for c in _mask_cards(able))
        _covers_cache[key] = actions
    return actions


def _transfers(player: int, cards: int) -> tuple[Transfer, ...]:
    key = cards | player << 52
    actions = _transfers_cache.get(key)
    if actions is None:
        if len(_transfers_cache) >= _CACHE_SIZE:
            _transfers_cache.clear()
        actions = tuple(Transfer(player, CARDS[c]) for c in _mask_cards(cards))
        _transfers_cache[key] = actions
    return actions


def _mask_cards(mask: int) -> list[int]:
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def _card_sets(
    kind: type[Attack] | type[Throw], player: int, mask: int, most: int
) -> tuple[Attack | Throw, ...]:
    """Every non-empty set of at most ``most`` cards of ``mask``, as actions of ``kind``.

    Openings are sets of one rank and throw-ins sets of the few ranks on the table, so the
    same few masks come up again and again: each list is built once."""
    key = (kind is Throw, player, mask, most)
    actions = _card_sets_cache.get(key)
    if actions is None:
        cards = [CARDS[c] for c in _mask_cards(mask)]
        actions = tuple(
            kind(player, combo)
            for size in range(1, min(most, len(cards)) + 1)
            for combo in combinations(cards, size)
        )
        if len(_card_sets_cache) >= _CACHE_SIZE:
            _card_sets_cache.clear()
        _card_sets_cache[key] = actions
    return actions


# --- who may act, and what they may do ---------------------------------------------------


def to_act(state: GameState) -> tuple[int, ...]:
    """The players who may act now, clockwise from the primary attacker."""
    return state.acting


def legal_actions(state: GameState, player: int) -> list[Action]:
    """Every action ``player`` may take now, the cards of each ``Attack`` and ``Throw`` in
    ascending order. ``apply`` accepts exactly these, and also each ``Attack`` and ``Throw``
    with its cards named in another order: it sorts them, so the state and events are those
    of the listed action. It refuses everything else."""
    if player not in state.acting:
        return []
    bout = state.bout
    assert bout is not None  # nobody acts in a finished game
    hand = state.hands[player]
    actions: list[Action] = []
    if not bout.attacks:
        limit = bout.limit
        ranks = (hand | hand >> 13 | hand >> 26 | hand >> 39) & 0x1FFF
        while ranks:
            low = ranks & -ranks
            actions += _card_sets(Attack, player, hand & RANK_MASKS[low.bit_length() - 1], limit)
            ranks ^= low
        return actions
    if player == bout.defender:
        beaters = BEATERS[state.trump]
        for attack, cover in zip(bout.attacks, bout.covers, strict=True):
            if cover is None:
                able = hand & beaters[attack]
                if able:
                    actions += _covers(player, attack, able)
        actions.append(_TAKE[player])
        if state.rules.transfer and transfer_target(state, bout) is not None:
            actions += _transfers(player, hand & RANK_MASKS[bout.attacks[0] % 13])
        return actions
    if (bout.any_rank >> player) & 1:
        throwable = hand & ranks_on(bout.table)
    else:
        throwable = hand & RANK_MASKS[bout.attacks[0] % 13]
    actions += _card_sets(Throw, player, throwable, bout.limit - len(bout.attacks))
    actions.append(_PASS[player])
    return actions


def transfer_target(state: GameState, bout: Bout) -> int | None:
    """The new defender if the table and hands allow a transfer now (R-TR-1, R-TR-2)."""
    if bout.taking or bout.covers.count(None) != len(bout.covers):
        return None
    target = next_active(len(state.hands), state.out, bout.defender)
    attack_count = len(bout.attacks) + 1
    if attack_count > ceiling(state.rules, state.bouts_played, state.discard):
        return None
    if state.hands[target].bit_count() < attack_count:
        return None
    return target
