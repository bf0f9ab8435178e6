"""Doing it: ``apply`` an action, and what follows from it without anybody choosing.

``apply`` checks an action against every rule, then returns a new state and the events that
happened; the input state is never changed. Everything that follows from an action without
anybody choosing (automatic passes, closing a bout, drawing, exits, the next bout) happens
inside the same ``apply``, so every state it returns waits for a player's decision. Who may
act and what they may do is ``moves.py``.

This is the hot path of every benchmark and simulation: cards are bits of an int, and
states and bouts are made with ``tuple.__new__``, every field by its position (a test in
``tests/engine/test_api.py`` pins the order of the fields).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from .actions import Action, Attack, Defend, Pass, Take, Throw, Transfer
from .cards import BEATERS, CARDS, RANK_MASKS, Card, ranks_on
from .errors import Code, IllegalAction
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
from .moves import transfer_target
from .state import (
    CLOCKWISE,
    HAND_SIZE,
    Bout,
    GameState,
    ceiling,
    make_bout,
    next_active,
    throwers_to_act,
)

_tuple_new = tuple.__new__


def check(state: GameState, action: Action) -> None:
    """Raise ``IllegalAction`` with a stable code unless ``action`` is allowed now."""
    apply(state, action)


def is_legal(state: GameState, action: Action) -> bool:
    try:
        apply(state, action)
    except IllegalAction:
        return False
    return True


_Step = tuple[tuple[int, ...], Bout, Event]


def _cover(state: GameState, bout: Bout, action: Defend) -> _Step:
    """One defending card on one uncovered attack card (R-BOUT-2, R-BOUT-3)."""
    player, card, on = action.player, action.card, action.on
    _check_defender_turn(bout, player)
    hands = state.hands
    if not (hands[player] >> card) & 1:
        raise IllegalAction(Code.CARD_NOT_IN_HAND, f"{CARDS[card]} is not in this player's hand")
    covers = bout.covers
    index = bout.attacks.index(on) if on in bout.attacks else -1
    if index < 0 or covers[index] is not None:
        raise IllegalAction(
            Code.NOT_UNCOVERED, f"{CARDS[on]} is not an uncovered card on the table"
        )
    if not (BEATERS[state.trump][on] >> card) & 1:
        raise IllegalAction(Code.DOES_NOT_BEAT, f"{CARDS[card]} does not beat {CARDS[on]}")
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
        raise IllegalAction(Code.NOTHING_TO_TAKE, "every card on the table is covered")
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
        raise IllegalAction(Code.DEFENDER_CANNOT_PASS, "the defender covers, transfers or takes")
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
        raise IllegalAction(Code.GAME_OVER, "the game is over")
    if getattr(action, "player", None) not in state.acting:
        _refuse_out_of_turn(state, bout, action)
    step = _STEPS.get(type(action))
    if step is None:
        raise IllegalAction(Code.UNKNOWN_ACTION, f"not an action: {action!r}")
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
        raise IllegalAction(Code.UNKNOWN_ACTION, f"not an action: {action!r}")
    player = action.player
    if not isinstance(player, int) or not 0 <= player < len(state.hands):
        raise IllegalAction(Code.UNKNOWN_PLAYER, f"there is no player {player!r} at this table")
    if player in state.out:
        raise IllegalAction(Code.PLAYER_OUT, "this player has left the game")
    if isinstance(action, Attack):
        if bout.attacks:
            raise IllegalAction(Code.BOUT_ALREADY_OPENED, "the bout is open: throw in instead")
        raise IllegalAction(Code.NOT_YOUR_TURN, "only the attacker opens the bout")
    if isinstance(action, Defend | Take | Transfer):
        if isinstance(action, Transfer) and not state.rules.transfer:
            raise IllegalAction(Code.TRANSFER_DISABLED, "this table plays without transfers")
        _check_defender_turn(bout, player)
        if isinstance(action, Defend):
            raise IllegalAction(Code.NOT_UNCOVERED, "every card on the table is covered")
        if isinstance(action, Transfer):
            raise IllegalAction(Code.TRANSFER_AFTER_COVER, "no transfer once a card is covered")
        raise IllegalAction(Code.NOTHING_TO_TAKE, "every card on the table is covered")
    if player == bout.defender and bout.attacks:
        if isinstance(action, Pass):
            raise IllegalAction(
                Code.DEFENDER_CANNOT_PASS, "the defender covers, transfers or takes"
            )
        raise IllegalAction(Code.DEFENDER_CANNOT_THROW, "the defender does not add attack cards")
    _check_thrower_turn(state, bout, player)
    if isinstance(action, Throw) and len(bout.attacks) >= bout.limit:
        raise IllegalAction(Code.OVER_LIMIT, f"at most {bout.limit} attack cards in this bout")
    if isinstance(action, Throw):
        _check_added_cards(state, bout, action)
    raise IllegalAction(Code.ALREADY_PASSED, "this player has nothing to add and is passed")


def _cards_mask(state: GameState, player: int, cards: tuple[Card, ...]) -> int:
    """The named cards as a mask, checking they are distinct and in the player's hand."""
    if not cards:
        raise IllegalAction(Code.NO_CARDS, "name at least one card")
    mask = 0
    for card in cards:
        if not isinstance(card, int) or not 0 <= card < len(CARDS):
            raise IllegalAction(Code.UNKNOWN_CARD, f"not a card: {card!r}")
        if (mask >> card) & 1:
            raise IllegalAction(Code.DUPLICATE_CARD, f"{CARDS[card]} is named twice")
        mask |= 1 << card
    missing = mask & ~state.hands[player]
    if missing:
        card_name = CARDS[missing.bit_length() - 1]
        raise IllegalAction(Code.CARD_NOT_IN_HAND, f"{card_name} is not in this player's hand")
    return mask


def _check_added_cards(state: GameState, bout: Bout, action: Attack | Throw) -> int:
    """An opening (R-BOUT-1) or a throw-in (R-BOUT-4..6) within the limit (R-LIMIT); the
    cards as a mask."""
    player = action.player
    cards = action.cards
    if type(action) is Attack:
        if bout.attacks:
            raise IllegalAction(Code.BOUT_ALREADY_OPENED, "the bout is open: throw in instead")
        mask = _cards_mask(state, player, cards)
        if mask & ~RANK_MASKS[cards[0] % 13]:
            raise IllegalAction(Code.MIXED_RANKS, "an opening is one card or several of one rank")
    else:
        _check_thrower_turn(state, bout, player)
        mask = _cards_mask(state, player, cards)
        if mask & ~ranks_on(bout.table):
            raise IllegalAction(
                Code.RANK_NOT_ON_TABLE, "only ranks already on the table may be added"
            )
        if not (bout.any_rank >> player) & 1 and mask & ~RANK_MASKS[bout.attacks[0] % 13]:
            raise IllegalAction(
                Code.ONLY_FIRST_RANK, "this player may add only the first card's rank"
            )
    if len(bout.attacks) + len(cards) > bout.limit:
        raise IllegalAction(Code.OVER_LIMIT, f"at most {bout.limit} attack cards in this bout")
    return mask


def _check_thrower_turn(state: GameState, bout: Bout, player: int) -> None:
    if not bout.attacks:
        if player == bout.attacker:
            raise IllegalAction(Code.BOUT_NOT_OPENED, "open the bout with an attack first")
        raise IllegalAction(Code.NOT_YOUR_TURN, "the attacker has not opened the bout yet")
    if player == bout.defender:
        raise IllegalAction(Code.DEFENDER_CANNOT_THROW, "the defender does not add attack cards")
    if not (bout.throwers >> player) & 1:
        raise IllegalAction(Code.NOT_A_THROWER, "this player may not throw in to this bout")
    if (bout.passed >> player) & 1:
        raise IllegalAction(Code.ALREADY_PASSED, "this player has passed until the table changes")
    attacker_still_adding = (
        not (bout.passed >> bout.attacker) & 1
        and state.hands[bout.attacker] & ranks_on(bout.table)
        and len(bout.attacks) < bout.limit
    )
    if player != bout.attacker and attacker_still_adding:
        raise IllegalAction(Code.ATTACKER_HAS_PRIORITY, "the attacker throws in first or passes")


def _check_defender_turn(bout: Bout, player: int) -> None:
    if player != bout.defender:
        raise IllegalAction(Code.NOT_DEFENDER, "only the defender does that")
    if not bout.attacks:
        raise IllegalAction(Code.BOUT_NOT_OPENED, "nothing has been played yet")
    if bout.taking:
        raise IllegalAction(Code.ALREADY_TAKING, "the defender has already decided to take")


def _transfer(state: GameState, bout: Bout, action: Transfer) -> _Step:
    """Pass the attack on to the next player, the limit taken from their hand (R-TR-1..3)."""
    player, card = action.player, action.card
    if not state.rules.transfer:
        raise IllegalAction(Code.TRANSFER_DISABLED, "this table plays without transfers")
    _check_defender_turn(bout, player)
    _cards_mask(state, player, (card,))
    if any(c is not None for c in bout.covers):
        raise IllegalAction(Code.TRANSFER_AFTER_COVER, "no transfer once a card is covered")
    if card % 13 != bout.attacks[0] % 13:
        raise IllegalAction(Code.TRANSFER_RANK_MISMATCH, "a transfer needs the attack cards' rank")
    top = ceiling(state.rules, state.bouts_played, state.discard)
    if len(bout.attacks) + 1 > top:
        raise IllegalAction(Code.OVER_LIMIT, "a transfer may not put more cards than the ceiling")
    target = transfer_target(state, bout)
    if target is None:
        raise IllegalAction(
            Code.TRANSFER_TOO_MANY, "the next player holds fewer cards than there would be attacks"
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
