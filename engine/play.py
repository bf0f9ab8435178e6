"""Playing a game: who may act, what they may do, and what an action does.

``apply`` checks an action against every rule, then returns a new state and the events that
happened; the input state is never changed. Everything that follows from an action without
anybody choosing (automatic passes, closing a bout, drawing, exits, the next bout) happens
inside the same ``apply``, so every state it returns waits for a player's decision.

This is the hot path of every benchmark and simulation: cards are bits of an int, actions
are built once and reused, and states and bouts are made with ``tuple.__new__``, every field
by its position (a test in ``tests/engine/test_api.py`` pins the order of the fields).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any, cast

from .actions import Action, Attack, Defend, IllegalAction, Pass, Take, Throw, Transfer
from .cards import BEATERS, CARDS, RANK_MASKS, Card, ranks_on
from .events import (
    Attacked,
    BeatenOff,
    BoutStarted,
    Covered,
    DeclaredTake,
    Drew,
    Event,
    GameOver,
    Passed,
    PlayerOut,
    ThrewIn,
    Took,
    Transferred,
)
from .state import (
    CLOCKWISE,
    HAND_SIZE,
    MAX_SEATS,
    Bout,
    GameState,
    ceiling,
    make_bout,
    next_active,
    throwers_to_act,
)

_tuple_new = tuple.__new__

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
        if state.rules.transfer and _transfer_target(state, bout) is not None:
            actions += _transfers(player, hand & RANK_MASKS[bout.attacks[0] % 13])
        return actions
    if (bout.any_rank >> player) & 1:
        throwable = hand & ranks_on(bout.table)
    else:
        throwable = hand & RANK_MASKS[bout.attacks[0] % 13]
    actions += _card_sets(Throw, player, throwable, bout.limit - len(bout.attacks))
    actions.append(_PASS[player])
    return actions


def _transfer_target(state: GameState, bout: Bout) -> int | None:
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


def check(state: GameState, action: Action) -> None:
    """Raise ``IllegalAction`` with a stable code unless ``action`` is allowed now."""
    apply(state, action)


def is_legal(state: GameState, action: Action) -> bool:
    try:
        apply(state, action)
    except IllegalAction:
        return False
    return True


# --- doing it ----------------------------------------------------------------------------


_Step = tuple[tuple[int, ...], Bout, Event]


def _cover(state: GameState, bout: Bout, action: Defend) -> _Step:
    """One defending card on one uncovered attack card (R-BOUT-2, R-BOUT-3)."""
    player, card, on = action.player, action.card, action.on
    _check_defender_turn(bout, player)
    hands = state.hands
    if not (hands[player] >> card) & 1:
        raise IllegalAction("card_not_in_hand", f"{CARDS[card]} is not in this player's hand")
    covers = bout.covers
    index = bout.attacks.index(on) if on in bout.attacks else -1
    if index < 0 or covers[index] is not None:
        raise IllegalAction("not_uncovered", f"{CARDS[on]} is not an uncovered card on the table")
    if not (BEATERS[state.trump][on] >> card) & 1:
        raise IllegalAction("does_not_beat", f"{CARDS[card]} does not beat {CARDS[on]}")
    hands = (*hands[:player], hands[player] & ~(1 << card), *hands[player + 1 :])
    covers = (*covers[:index], card, *covers[index + 1 :])
    # A new card cancels every pass (R-BOUT-7).
    bout = _tuple_new(
        Bout,
        (bout.attacker, bout.defender, bout.limit, bout.attacks, covers, False, 0,
         bout.table | 1 << card, bout.throwers, bout.any_rank),
    )  # fmt: skip
    return hands, bout, Covered(player, card, on)


def _add_cards(state: GameState, bout: Bout, action: Attack | Throw) -> _Step:
    """Cards onto the table: an opening or a throw-in."""
    mask = _check_added_cards(state, bout, action)
    player, cards = action.player, action.cards
    if len(cards) > 1:
        cards = tuple(sorted(cards))  # one action whatever order the cards are named in
    hands = state.hands
    hands = (*hands[:player], hands[player] & ~mask, *hands[player + 1 :])
    attacks = bout.attacks + cards
    covers = bout.covers + (None,) * len(cards)
    # A new card cancels every pass (R-BOUT-7).
    bout = _tuple_new(
        Bout,
        (bout.attacker, bout.defender, bout.limit, attacks, covers, bout.taking, 0,
         bout.table | mask, bout.throwers, bout.any_rank),
    )  # fmt: skip
    event = Attacked(player, cards) if type(action) is Attack else ThrewIn(player, cards)
    return hands, bout, event


def _take(state: GameState, bout: Bout, action: Take) -> _Step:
    """The defender gives up; throwers may still add (R-BOUT-9)."""
    _check_defender_turn(bout, action.player)
    if None not in bout.covers:
        raise IllegalAction("nothing_to_take", "every card on the table is covered")
    # A take cancels every pass (R-BOUT-7).
    bout = _tuple_new(
        Bout,
        (bout.attacker, bout.defender, bout.limit, bout.attacks, bout.covers, True, 0,
         bout.table, bout.throwers, bout.any_rank),
    )  # fmt: skip
    return state.hands, bout, DeclaredTake(action.player)


def _pass(state: GameState, bout: Bout, action: Pass) -> _Step:
    player = action.player
    if player == bout.defender and bout.attacks:
        raise IllegalAction("defender_cannot_pass", "the defender covers, transfers or takes")
    _check_thrower_turn(state, bout, player)
    bout = _tuple_new(
        Bout,
        (bout.attacker, bout.defender, bout.limit, bout.attacks, bout.covers, bout.taking,
         bout.passed | 1 << player, bout.table, bout.throwers, bout.any_rank),
    )  # fmt: skip
    return state.hands, bout, Passed(player)


def apply(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """The state after ``action`` and what happened. Raises ``IllegalAction`` (and changes
    nothing) unless the action is allowed now."""
    bout = state.bout
    if bout is None:
        raise IllegalAction("game_over", "the game is over")
    if getattr(action, "player", None) not in state.acting:
        _refuse_out_of_turn(state, bout, action)
    step = _STEPS.get(type(action))
    if step is None:
        raise IllegalAction("unknown_action", f"not an action: {action!r}")
    hands, bout, event = step(state, bout, action)
    throwers = throwers_to_act(hands, bout)
    if bout.taking or None not in bout.covers:
        if not throwers:
            events: list[Event] = [event]
            return _close_bout(state, hands, bout, events), tuple(events)
        acting = tuple(throwers)
    elif not throwers:
        acting = (bout.defender,)
    else:
        seats = {*throwers, bout.defender}
        acting = tuple(s for s in CLOCKWISE[len(hands)][bout.attacker] if s in seats)
    after = _tuple_new(
        GameState,
        (state.rules, state.dealer, state.trump, state.trump_card, hands, state.known,
         state.stock, state.discard, state.out, state.bouts_played, bout, None,
         state.moves + 1, acting),
    )  # fmt: skip
    return after, (event,)


def _refuse_out_of_turn(state: GameState, bout: Bout, action: Action) -> None:
    """The most helpful reason why a player who may not act now tried to."""
    if not isinstance(action, Attack | Throw | Defend | Take | Pass | Transfer):
        raise IllegalAction("unknown_action", f"not an action: {action!r}")
    player = action.player
    if not isinstance(player, int) or not 0 <= player < len(state.hands):
        raise IllegalAction("unknown_player", f"there is no player {player!r} at this table")
    if player in state.out:
        raise IllegalAction("player_out", "this player has left the game")
    if isinstance(action, Attack):
        if bout.attacks:
            raise IllegalAction("bout_already_opened", "the bout is open: throw in instead")
        raise IllegalAction("not_your_turn", "only the attacker opens the bout")
    if isinstance(action, Defend | Take | Transfer):
        if isinstance(action, Transfer) and not state.rules.transfer:
            raise IllegalAction("transfer_disabled", "this table plays without transfers")
        _check_defender_turn(bout, player)
        if isinstance(action, Defend):
            raise IllegalAction("not_uncovered", "every card on the table is covered")
        if isinstance(action, Transfer):
            raise IllegalAction("transfer_after_cover", "no transfer once a card is covered")
        raise IllegalAction("nothing_to_take", "every card on the table is covered")
    if player == bout.defender and bout.attacks:
        if isinstance(action, Pass):
            raise IllegalAction("defender_cannot_pass", "the defender covers, transfers or takes")
        raise IllegalAction("defender_cannot_throw", "the defender does not add attack cards")
    _check_thrower_turn(state, bout, player)
    if isinstance(action, Throw) and len(bout.attacks) >= bout.limit:
        raise IllegalAction("over_limit", f"at most {bout.limit} attack cards in this bout")
    if isinstance(action, Throw):
        _check_added_cards(state, bout, action)
    raise IllegalAction("already_passed", "this player has nothing to add and is passed")


def _cards_mask(state: GameState, player: int, cards: tuple[Card, ...]) -> int:
    """The named cards as a mask, checking they are distinct and in the player's hand."""
    if not cards:
        raise IllegalAction("no_cards", "name at least one card")
    mask = 0
    for card in cards:
        if not isinstance(card, int) or not 0 <= card < len(CARDS):
            raise IllegalAction("unknown_card", f"not a card: {card!r}")
        if (mask >> card) & 1:
            raise IllegalAction("duplicate_card", f"{CARDS[card]} is named twice")
        mask |= 1 << card
    missing = mask & ~state.hands[player]
    if missing:
        card_name = CARDS[missing.bit_length() - 1]
        raise IllegalAction("card_not_in_hand", f"{card_name} is not in this player's hand")
    return mask


def _check_added_cards(state: GameState, bout: Bout, action: Attack | Throw) -> int:
    """An opening (R-BOUT-1) or a throw-in (R-BOUT-4..6) within the limit (R-LIMIT); the
    cards as a mask."""
    player = action.player
    cards = action.cards
    if type(action) is Attack:
        if bout.attacks:
            raise IllegalAction("bout_already_opened", "the bout is open: throw in instead")
        mask = _cards_mask(state, player, cards)
        if mask & ~RANK_MASKS[cards[0] % 13]:
            raise IllegalAction("mixed_ranks", "an opening is one card or several of one rank")
    else:
        _check_thrower_turn(state, bout, player)
        mask = _cards_mask(state, player, cards)
        if mask & ~ranks_on(bout.table):
            raise IllegalAction("rank_not_on_table", "only ranks already on the table may be added")
        if not (bout.any_rank >> player) & 1 and mask & ~RANK_MASKS[bout.attacks[0] % 13]:
            raise IllegalAction("only_first_rank", "this player may add only the first card's rank")
    if len(bout.attacks) + len(cards) > bout.limit:
        raise IllegalAction("over_limit", f"at most {bout.limit} attack cards in this bout")
    return mask


def _check_thrower_turn(state: GameState, bout: Bout, player: int) -> None:
    if not bout.attacks:
        if player == bout.attacker:
            raise IllegalAction("bout_not_opened", "open the bout with an attack first")
        raise IllegalAction("not_your_turn", "the attacker has not opened the bout yet")
    if player == bout.defender:
        raise IllegalAction("defender_cannot_throw", "the defender does not add attack cards")
    if not (bout.throwers >> player) & 1:
        raise IllegalAction("not_a_thrower", "this player may not throw in to this bout")
    if (bout.passed >> player) & 1:
        raise IllegalAction("already_passed", "this player has passed until the table changes")
    attacker_still_adding = (
        not (bout.passed >> bout.attacker) & 1
        and state.hands[bout.attacker] & ranks_on(bout.table)
        and len(bout.attacks) < bout.limit
    )
    if player != bout.attacker and attacker_still_adding:
        raise IllegalAction("attacker_has_priority", "the attacker throws in first or passes")


def _check_defender_turn(bout: Bout, player: int) -> None:
    if player != bout.defender:
        raise IllegalAction("not_defender", "only the defender does that")
    if not bout.attacks:
        raise IllegalAction("bout_not_opened", "nothing has been played yet")
    if bout.taking:
        raise IllegalAction("already_taking", "the defender has already decided to take")


def _transfer(state: GameState, bout: Bout, action: Transfer) -> _Step:
    """Pass the attack on to the next player, the limit taken from their hand (R-TR-1..3)."""
    player, card = action.player, action.card
    if not state.rules.transfer:
        raise IllegalAction("transfer_disabled", "this table plays without transfers")
    _check_defender_turn(bout, player)
    _cards_mask(state, player, (card,))
    if any(c is not None for c in bout.covers):
        raise IllegalAction("transfer_after_cover", "no transfer once a card is covered")
    if card % 13 != bout.attacks[0] % 13:
        raise IllegalAction("transfer_rank_mismatch", "a transfer needs the attack cards' rank")
    top = ceiling(state.rules, state.bouts_played, state.discard)
    if len(bout.attacks) + 1 > top:
        raise IllegalAction("over_limit", "a transfer may not put more cards than the ceiling")
    target = _transfer_target(state, bout)
    if target is None:
        raise IllegalAction(
            "transfer_too_many", "the next player holds fewer cards than there would be attacks"
        )
    hands = state.hands
    hands = (*hands[:player], hands[player] & ~(1 << card), *hands[player + 1 :])
    bout = make_bout(
        state.rules,
        len(hands),
        state.out,
        attacker=player,
        defender=target,
        limit=min(top, hands[target].bit_count()),
        attacks=(*bout.attacks, card),
        covers=(*bout.covers, None),
    )
    return hands, bout, Transferred(player, card, target)


def _close_bout(
    state: GameState, hands_now: tuple[int, ...], bout: Bout, events: list[Event]
) -> GameState:
    """Discard or take the table (R-END-1/2), draw (R-DRAW), drop players out (R-OUT-2),
    then start the next bout (R-END-4) or end the game (R-OUT-4/5)."""
    players = len(hands_now)
    hands = list(hands_now)
    known = state.known
    discard = state.discard
    defender = bout.defender
    out = state.out
    table = bout.table
    if bout.taking:
        hands[defender] |= table
        known = (*known[:defender], known[defender] | table, *known[defender + 1 :])
        events.append(Took(defender, bout.attacks + tuple(c for c in bout.covers if c is not None)))
        next_attacker = next_active(players, out, defender)
    else:
        discard |= table
        events.append(BeatenOff(defender, bout.attacks + cast(tuple[Card, ...], bout.covers)))
        next_attacker = defender
    stock = state.stock
    order = _draw_order(players, bout.attacker, defender)
    if stock:
        for seat in order:
            need = HAND_SIZE - hands[seat].bit_count()
            if need <= 0 or seat in out:
                continue  # R-DRAW-3: nobody discards down to six
            drawn, stock = stock[:need], stock[need:]
            for card in drawn:
                hands[seat] |= 1 << card
            if state.trump_card in drawn:
                # Everyone saw the face-up trump card go to this player (R-DRAW-4).
                known = (*known[:seat], known[seat] | 1 << drawn[-1], *known[seat + 1 :])
            events.append(Drew(seat, len(drawn)))
            if not stock:
                break
    if not stock:
        for seat in order:
            if not hands[seat] and seat not in out:
                out = (*out, seat)
                events.append(PlayerOut(seat, len(out)))
    bouts_played = state.bouts_played + 1
    if len(out) >= players - 1:
        durak = next((s for s in range(players) if s not in out), None)
        events.append(GameOver(durak))
        return _tuple_new(
            GameState,
            (state.rules, state.dealer, state.trump, state.trump_card, tuple(hands), known,
             stock, discard, out, bouts_played, None, durak, state.moves + 1, ()),
        )  # fmt: skip
    attacker = (
        next_attacker if next_attacker not in out else next_active(players, out, next_attacker)
    )
    defender = next_active(players, out, attacker)
    limit = min(ceiling(state.rules, bouts_played, discard), hands[defender].bit_count())
    next_bout = make_bout(state.rules, players, out, attacker, defender, limit)
    events.append(BoutStarted(attacker, defender, limit))
    return _tuple_new(
        GameState,
        (state.rules, state.dealer, state.trump, state.trump_card, tuple(hands), known, stock,
         discard, out, bouts_played, next_bout, None, state.moves + 1, (attacker,)),
    )  # fmt: skip


_draw_orders: dict[tuple[int, int, int], tuple[int, ...]] = {}


def _draw_order(players: int, attacker: int, defender: int) -> tuple[int, ...]:
    """R-DRAW-2: the primary attacker first, then the others clockwise, the defender last."""
    key = (players, attacker, defender)
    order = _draw_orders.get(key)
    if order is None:
        clockwise = CLOCKWISE[players][attacker]
        order = _draw_orders[key] = (*(s for s in clockwise if s != defender), defender)
    return order


# What each kind of action does, checks included (looked up by ``apply``).
_STEPS: dict[type, Callable[[GameState, Bout, Any], _Step]] = {
    Defend: _cover,
    Attack: _add_cards,
    Throw: _add_cards,
    Take: _take,
    Pass: _pass,
    Transfer: _transfer,
}
