"""Playing a game: who may act, what they may do, and what an action does.

``apply`` checks an action against every rule, then returns a new state and the events that
happened; the input state is never changed. Everything that follows from an action without
anybody choosing (automatic passes, closing a bout, drawing, exits, the next bout) happens
inside the same ``apply``, so every state it returns waits for a player's decision.

This is the hot path of every benchmark and simulation, hence masks and cached actions.
"""

from __future__ import annotations

from itertools import combinations

from .actions import Action, Attack, Defend, IllegalAction, Pass, Take, Throw, Transfer
from .cards import BEATERS, CARDS, RANK_MASKS, Card, cards_of, ranks_on
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
from .state import HAND_SIZE, Bout, GameState, ceiling, make_bout, next_active

MAX_SEATS = 8

# Seats clockwise from each seat, per table size: CLOCKWISE[players][start].
CLOCKWISE: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple((start + step) % n for step in range(n)) for start in range(n)) if n else ()
    for n in range(MAX_SEATS + 1)
)

# --- actions are values: build each once -------------------------------------------------

_TAKE = tuple(Take(p) for p in range(MAX_SEATS))
_PASS = tuple(Pass(p) for p in range(MAX_SEATS))
_defend_cache: dict[int, Defend] = {}
_single_cache: dict[int, Attack | Throw] = {}


def _defend(player: int, card: int, on: int) -> Defend:
    key = (player << 12) | (card << 6) | on
    action = _defend_cache.get(key)
    if action is None:
        action = _defend_cache[key] = Defend(player, CARDS[card], CARDS[on])
    return action


def _single(kind: type[Attack] | type[Throw], player: int, card: int) -> Attack | Throw:
    key = (kind is Throw) << 12 | (player << 6) | card
    action = _single_cache.get(key)
    if action is None:
        action = _single_cache[key] = kind(player, (CARDS[card],))
    return action


def _mask_cards(mask: int) -> list[int]:
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


_card_sets_cache: dict[tuple[bool, int, int, int], tuple[Attack | Throw, ...]] = {}
_CARD_SETS_CACHE_SIZE = 200_000


def _card_sets(
    kind: type[Attack] | type[Throw], player: int, mask: int, most: int
) -> tuple[Attack | Throw, ...]:
    """Every non-empty set of at most ``most`` cards of ``mask``, as actions of ``kind``.

    Openings are sets of one rank and throw-ins sets of the few ranks on the table, so the
    same few masks come up again and again: they are built once."""
    key = (kind is Throw, player, mask, most)
    actions = _card_sets_cache.get(key)
    if actions is None:
        cards = _mask_cards(mask)
        built: list[Attack | Throw] = [_single(kind, player, c) for c in cards]
        for size in range(2, min(most, len(cards)) + 1):
            built.extend(
                kind(player, tuple(CARDS[c] for c in combo)) for combo in combinations(cards, size)
            )
        if len(_card_sets_cache) >= _CARD_SETS_CACHE_SIZE:
            _card_sets_cache.clear()
        actions = _card_sets_cache[key] = tuple(built)
    return actions


# --- who may act -------------------------------------------------------------------------


def _throwers_to_act(hands: tuple[int, ...], bout: Bout) -> list[int]:
    """Throwers who may add a card now: the primary attacker first, the others only once the
    attacker has passed (R-BOUT-6); a thrower with nothing to add is passed (R-BOUT-8)."""
    attacks = bout.attacks
    if not attacks or len(attacks) >= bout.limit:
        return []
    allowed = ranks_on(bout.table)
    attacker = bout.attacker
    passed = bout.passed
    if not (passed >> attacker) & 1 and hands[attacker] & allowed:
        return [attacker]
    others = bout.throwers & ~passed & ~(1 << attacker)
    if not others:
        return []
    first_rank = RANK_MASKS[attacks[0] % 13]
    any_rank = bout.any_rank
    return [
        seat
        for seat in CLOCKWISE[len(hands)][attacker]
        if (others >> seat) & 1 and hands[seat] & (allowed if (any_rank >> seat) & 1 else first_rank)
    ]


def _defender_to_act(bout: Bout) -> bool:
    return bool(bout.attacks) and not bout.taking and None in bout.covers


def to_act(state: GameState) -> tuple[int, ...]:
    """The players who may act now, clockwise from the primary attacker."""
    bout = state.bout
    if bout is None:
        return ()
    if not bout.attacks:
        return (bout.attacker,)
    throwers = _throwers_to_act(state.hands, bout)
    if bout.taking or None not in bout.covers:
        return tuple(throwers)
    if not throwers:
        return (bout.defender,)
    seats = {*throwers, bout.defender}
    return tuple(s for s in CLOCKWISE[len(state.hands)][bout.attacker] if s in seats)


# --- what they may do --------------------------------------------------------------------


def legal_actions(state: GameState, player: int) -> list[Action]:
    """Every action ``player`` may take now; ``apply`` accepts these and nothing else."""
    bout = state.bout
    if bout is None or not 0 <= player < len(state.hands):
        return []
    hand = state.hands[player]
    if not bout.attacks:
        if player != bout.attacker:
            return []
        openings: list[Action] = []
        limit = bout.limit
        ranks = (hand | hand >> 13 | hand >> 26 | hand >> 39) & 0x1FFF
        while ranks:
            low = ranks & -ranks
            openings += _card_sets(Attack, player, hand & RANK_MASKS[low.bit_length() - 1], limit)
            ranks ^= low
        return openings
    if player == bout.defender:
        return _defender_actions(state, bout, player, hand) if _defender_to_act(bout) else []
    if player not in _throwers_to_act(state.hands, bout):
        return []
    if (bout.any_rank >> player) & 1:
        throwable = hand & ranks_on(bout.table)
    else:
        throwable = hand & RANK_MASKS[bout.attacks[0] % 13]
    throws: list[Action] = []
    throws += _card_sets(Throw, player, throwable, bout.limit - len(bout.attacks))
    throws.append(_PASS[player])
    return throws


def _defender_actions(state: GameState, bout: Bout, player: int, hand: int) -> list[Action]:
    beaters = BEATERS[state.trump]
    actions: list[Action] = []
    for attack, cover in zip(bout.attacks, bout.covers, strict=True):
        if cover is None:
            able = hand & beaters[attack]
            while able:
                low = able & -able
                actions.append(_defend(player, low.bit_length() - 1, attack))
                able ^= low
    actions.append(_TAKE[player])
    if state.rules.transfer and _transfer_target(state, bout) is not None:
        same_rank = hand & RANK_MASKS[bout.attacks[0] % 13]
        actions.extend(Transfer(player, CARDS[c]) for c in _mask_cards(same_rank))
    return actions


def _transfer_target(state: GameState, bout: Bout) -> int | None:
    """The new defender if the table and hands allow a transfer now (R-TR-1, R-TR-2)."""
    if not state.rules.transfer or bout.taking or any(c is not None for c in bout.covers):
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

_tuple_new = tuple.__new__


def _bout_with(
    bout: Bout,
    attacks: tuple[Card, ...],
    covers: tuple[Card | None, ...],
    taking: bool,
    passed: int,
    table: int,
) -> Bout:
    """``bout`` with a new table; the same as ``bout._replace``, several times faster."""
    return _tuple_new(
        Bout, (bout[0], bout[1], bout[2], attacks, covers, taking, passed, table, bout[8], bout[9])
    )


def _new_state(*fields: object) -> GameState:
    return _tuple_new(GameState, fields)


def apply(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """The state after ``action`` and what happened. Raises ``IllegalAction`` (and changes
    nothing) unless the action is allowed now."""
    bout = state.bout
    if bout is None:
        raise IllegalAction("game_over", "the game is over")
    player = action.player
    if not isinstance(player, int) or not 0 <= player < len(state.hands):
        raise IllegalAction("unknown_player", f"there is no player {player!r} at this table")
    if player in state.out:
        raise IllegalAction("player_out", "this player has left the game")
    hands = list(state.hands)
    kind = type(action)
    event: Event
    if kind is Defend:
        assert isinstance(action, Defend)
        bout, event = _cover(state, bout, action, hands)
    elif kind is Attack or kind is Throw:
        assert isinstance(action, Attack | Throw)
        bout, event = _add_cards(state, bout, action, hands)
    elif kind is Take:
        _check_defender_turn(bout, player)
        if None not in bout.covers:
            raise IllegalAction("nothing_to_take", "every card on the table is covered")
        # A take cancels every pass (R-BOUT-7).
        bout = _bout_with(bout, bout.attacks, bout.covers, True, 0, bout.table)
        event = DeclaredTake(player)
    elif kind is Pass:
        _check_pass(state, bout, player)
        bout = _bout_with(
            bout, bout.attacks, bout.covers, bout.taking, bout.passed | 1 << player, bout.table
        )
        event = Passed(player)
    elif kind is Transfer:
        assert isinstance(action, Transfer)
        bout, event = _transfer(state, bout, action, hands)
    else:
        raise IllegalAction("unknown_action", f"not an action: {action!r}")
    new_hands = tuple(hands)
    after = _new_state(
        state.rules,
        state.dealer,
        state.trump,
        state.trump_card,
        new_hands,
        state.known,
        state.stock,
        state.discard,
        state.out,
        state.bouts_played,
        bout,
        None,
        state.moves + 1,
    )
    if (bout.taking or None not in bout.covers) and not _throwers_to_act(new_hands, bout):
        events: list[Event] = [event]
        return _close_bout(after, bout, events), tuple(events)
    return after, (event,)


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


def _add_cards(
    state: GameState, bout: Bout, action: Attack | Throw, hands: list[int]
) -> tuple[Bout, Event]:
    """An opening (R-BOUT-1) or a throw-in (R-BOUT-4..6), within the limit (R-LIMIT)."""
    player = action.player
    cards = action.cards
    if type(action) is Attack:
        if bout.attacks:
            raise IllegalAction("bout_already_opened", "the bout is open: throw in instead")
        if player != bout.attacker:
            raise IllegalAction("not_your_turn", "only the attacker opens the bout")
        mask = _cards_mask(state, player, cards)
        if mask & ~RANK_MASKS[cards[0] % 13]:
            raise IllegalAction("mixed_ranks", "an opening is one card or several of one rank")
        event: Event = Attacked(player, cards)
    else:
        _check_thrower_turn(state, bout, player)
        mask = _cards_mask(state, player, cards)
        if mask & ~ranks_on(bout.table):
            raise IllegalAction("rank_not_on_table", "only ranks already on the table may be added")
        if not (bout.any_rank >> player) & 1 and mask & ~RANK_MASKS[bout.attacks[0] % 13]:
            raise IllegalAction("only_first_rank", "this player may add only the first card's rank")
        event = ThrewIn(player, cards)
    if len(bout.attacks) + len(cards) > bout.limit:
        raise IllegalAction("over_limit", f"at most {bout.limit} attack cards in this bout")
    hands[player] &= ~mask
    # A new card cancels every pass (R-BOUT-7).
    attacks = bout.attacks + cards
    covers = bout.covers + (None,) * len(cards)
    return _bout_with(bout, attacks, covers, bout.taking, 0, bout.table | mask), event


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
    if player != bout.attacker and not (bout.passed >> bout.attacker) & 1:
        if state.hands[bout.attacker] & ranks_on(bout.table) and len(bout.attacks) < bout.limit:
            raise IllegalAction("attacker_has_priority", "the attacker throws in first or passes")


def _check_pass(state: GameState, bout: Bout, player: int) -> None:
    if player == bout.defender and bout.attacks:
        raise IllegalAction("defender_cannot_pass", "the defender covers, transfers or takes")
    _check_thrower_turn(state, bout, player)
    if player not in _throwers_to_act(state.hands, bout):
        raise IllegalAction("already_passed", "this player has nothing to add and is passed")


def _check_defender_turn(bout: Bout, player: int) -> None:
    if player != bout.defender:
        raise IllegalAction("not_defender", "only the defender does that")
    if not bout.attacks:
        raise IllegalAction("bout_not_opened", "nothing has been played yet")
    if bout.taking:
        raise IllegalAction("already_taking", "the defender has already decided to take")


def _cover(state: GameState, bout: Bout, action: Defend, hands: list[int]) -> tuple[Bout, Event]:
    """One defending card on one uncovered attack card (R-BOUT-2, R-BOUT-3)."""
    player, card, on = action.player, action.card, action.on
    _check_defender_turn(bout, player)
    _cards_mask(state, player, (card,))
    covers = bout.covers
    try:
        index = bout.attacks.index(on)
    except ValueError:
        index = -1
    if index < 0 or covers[index] is not None:
        raise IllegalAction("not_uncovered", f"{CARDS[on]} is not an uncovered card on the table")
    if not (BEATERS[state.trump][on] >> card) & 1:
        raise IllegalAction("does_not_beat", f"{CARDS[card]} does not beat {CARDS[on]}")
    hands[player] &= ~(1 << card)
    # A new card cancels every pass (R-BOUT-7).
    covers = (*covers[:index], card, *covers[index + 1 :])
    bout = _bout_with(bout, bout.attacks, covers, False, 0, bout.table | 1 << card)
    return bout, Covered(player, card, on)


def _transfer(
    state: GameState, bout: Bout, action: Transfer, hands: list[int]
) -> tuple[Bout, Event]:
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
    hands[player] &= ~(1 << card)
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
    return bout, Transferred(player, card, target)


def _close_bout(state: GameState, bout: Bout, events: list[Event]) -> GameState:
    """Discard or take the table (R-END-1/2), draw (R-DRAW), drop players out (R-OUT-2),
    then start the next bout (R-END-4) or end the game (R-OUT-4/5)."""
    players = len(state.hands)
    hands = list(state.hands)
    known = state.known
    discard = state.discard
    defender = bout.defender
    out = state.out
    table_cards = tuple(cards_of(bout.table))
    if bout.taking:
        hands[defender] |= bout.table
        known = (*known[:defender], known[defender] | bout.table, *known[defender + 1 :])
        events.append(Took(defender, table_cards))
        next_attacker = next_active(players, out, defender)
    else:
        discard |= bout.table
        events.append(BeatenOff(defender, table_cards))
        next_attacker = defender
    stock = state.stock
    # R-DRAW-2: the primary attacker first, then clockwise, the defender last.
    draw_order = [s for s in CLOCKWISE[players][bout.attacker] if s != defender]
    draw_order.append(defender)
    for seat in draw_order:
        if not stock:
            break
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
        for seat in draw_order:
            if not hands[seat] and seat not in out:
                out = (*out, seat)
                events.append(PlayerOut(seat, len(out)))
    bouts_played = state.bouts_played + 1
    durak: int | None = None
    next_bout: Bout | None = None
    if len(out) >= players - 1:
        durak = next((s for s in range(players) if s not in out), None)
        events.append(GameOver(durak))
    else:
        attacker = next_attacker if next_attacker not in out else next_active(players, out, next_attacker)
        defender = next_active(players, out, attacker)
        limit = min(ceiling(state.rules, bouts_played, discard), hands[defender].bit_count())
        next_bout = make_bout(state.rules, players, out, attacker, defender, limit)
        events.append(BoutStarted(attacker, defender, limit))
    return _new_state(
        state.rules,
        state.dealer,
        state.trump,
        state.trump_card,
        tuple(hands),
        known,
        stock,
        discard,
        out,
        bouts_played,
        next_bout,
        durak,
        state.moves,
    )
