"""Why an action is refused: the stable ``Code`` of the first rule it breaks.

This module only explains. Whether an action is legal is decided by the core alone
(``Position.legal``: ``apply`` accepts exactly the actions it lists); the checks below run
only for an action the core did not list, to name the reason the bot shows and the replay
prints. The lockstep property test (``tests/engine/test_lockstep.py``) checks both ways
that they agree: every listed action passes these checks, and every other one is refused
here with a reason.
"""

from __future__ import annotations

from .actions import (
    Attack,
    AttackSlot,
    Believe,
    Defend,
    DefendSlot,
    Doubt,
    Exchange,
    Pass,
    Take,
    Throw,
    ThrowSlot,
    Transfer,
)
from .cards import CARDS, RANK_MASKS, Card
from .core import EP_BOUT
from .errors import Code, IllegalAction
from .rules import Blind
from .state import Bout, GameState

BLIND_ACTION_TYPES = (AttackSlot, ThrowSlot, DefendSlot, Believe, Doubt)
ACTION_TYPES = (Attack, Throw, Defend, Take, Pass, Transfer, Exchange, *BLIND_ACTION_TYPES)
SLOT_ACTION_TYPES = (AttackSlot, ThrowSlot, DefendSlot)


def refusal(state: GameState, action: object) -> IllegalAction:
    """The error ``apply`` raises for ``action``, which the core does not list as legal."""
    try:
        explain(state, action)
    except IllegalAction as error:
        return error
    # Unreachable while the lockstep test passes: these checks found nothing wrong with an
    # action the core does not allow.
    return IllegalAction(Code.NOT_YOUR_TURN, f"{action} is not allowed now")


def explain(state: GameState, action: object) -> None:
    """Raise ``IllegalAction`` for the first rule ``action`` breaks; return if it breaks
    none (then the core lists it)."""
    bout = state.bout
    if bout is None:
        raise IllegalAction(Code.GAME_OVER, "the game is over")
    if state.slots or isinstance(action, BLIND_ACTION_TYPES):
        _explain_blind(state, bout, action)
        return
    if getattr(action, "player", None) not in state.acting:
        _refuse_out_of_turn(state, bout, action)
    if type(action) is Defend:
        _check_cover(state, bout, action)
    elif type(action) is Attack or type(action) is Throw:
        _check_added_cards(state, bout, action)
    elif type(action) is Take:
        _check_defender_turn(bout, action.player)
        if None not in bout.covers:
            raise IllegalAction(Code.NOTHING_TO_TAKE, "every card on the table is covered")
    elif type(action) is Pass:
        if action.player == bout.defender and bout.attacks:
            raise IllegalAction(
                Code.DEFENDER_CANNOT_PASS, "the defender covers, transfers or takes"
            )
        _check_thrower_turn(state, bout, action.player)
    elif type(action) is Transfer:
        _check_transfer(state, bout, action)
    elif type(action) is Exchange:
        _check_exchange(state, action)
    else:
        raise IllegalAction(Code.UNKNOWN_ACTION, f"not an action: {action!r}")


def _check_player(state: GameState, action: object) -> int:
    """An action of the game, by a player still in it: that player."""
    if not isinstance(action, ACTION_TYPES):
        raise IllegalAction(Code.UNKNOWN_ACTION, f"not an action: {action!r}")
    player = action.player
    if not isinstance(player, int) or not 0 <= player < state.players:
        raise IllegalAction(Code.UNKNOWN_PLAYER, f"there is no player {player!r} at this table")
    if player in state.out:
        raise IllegalAction(Code.PLAYER_OUT, "this player has left the game")
    return player


def _refuse_out_of_turn(state: GameState, bout: Bout, action: object) -> None:
    """The most helpful reason why a player who may not act now tried to."""
    player = _check_player(state, action)
    if isinstance(action, Exchange):
        _check_exchange(state, action)
        raise IllegalAction(
            Code.NOT_YOUR_TURN, "the exchange is made when it is this player's turn to act"
        )
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
    _check_bout_closed_to_throws(state, bout)
    if isinstance(action, Throw) and len(bout.attacks) >= bout.limit:
        raise IllegalAction(Code.OVER_LIMIT, f"at most {bout.limit} attack cards in this bout")
    if isinstance(action, Throw):
        _check_added_cards(state, bout, action)
    raise IllegalAction(Code.ALREADY_PASSED, "this player has nothing to add and is passed")


def _card(value: object) -> int:
    if not isinstance(value, int) or not 0 <= value < len(CARDS):
        raise IllegalAction(Code.UNKNOWN_CARD, f"not a card: {value!r}")
    return int(value)


def _cards_mask(state: GameState, player: int, cards: tuple[Card, ...]) -> int:
    """The named cards as a mask, checking they are distinct and in the player's hand."""
    if not isinstance(cards, tuple) or not cards:
        raise IllegalAction(Code.NO_CARDS, "name at least one card")
    mask = 0
    for value in cards:
        card = _card(value)
        if (mask >> card) & 1:
            raise IllegalAction(Code.DUPLICATE_CARD, f"{CARDS[card]} is named twice")
        mask |= 1 << card
    missing = mask & ~state.hands[player]
    if missing:
        card_name = CARDS[missing.bit_length() - 1]
        raise IllegalAction(Code.CARD_NOT_IN_HAND, f"{card_name} is not in this player's hand")
    return mask


def _ranks_on(mask: int) -> int:
    ranks = (mask | mask >> 13 | mask >> 26 | mask >> 39) & 0x1FFF
    return ranks | ranks << 13 | ranks << 26 | ranks << 39


def _check_cover(state: GameState, bout: Bout, action: Defend) -> None:
    """One defending card on one uncovered attack card (R-BOUT-2, R-BOUT-3)."""
    player = action.player
    _check_defender_turn(bout, player)
    card = _card(action.card)
    on = _card(action.on)
    if not (state.hands[player] >> card) & 1:
        raise IllegalAction(Code.CARD_NOT_IN_HAND, f"{CARDS[card]} is not in this player's hand")
    index = bout.attacks.index(CARDS[on]) if on in bout.attacks else -1
    if index < 0 or bout.covers[index] is not None:
        raise IllegalAction(
            Code.NOT_UNCOVERED, f"{CARDS[on]} is not an uncovered card on the table"
        )
    if state._position.epaulettes & EP_BOUT:
        raise IllegalAction(Code.EPAULETTE_ATTACK, "an epaulette attack can only be taken")
    if not (state._position.beaters[on] >> card) & 1:
        raise IllegalAction(Code.DOES_NOT_BEAT, f"{CARDS[card]} does not beat {CARDS[on]}")


def _check_added_cards(state: GameState, bout: Bout, action: Attack | Throw) -> None:
    """An opening (R-BOUT-1) or a throw-in (R-BOUT-4..6) within the limit (R-LIMIT)."""
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
        _check_bout_closed_to_throws(state, bout)
        mask = _cards_mask(state, player, cards)
        if mask & ~_ranks_on(bout.table):
            raise IllegalAction(
                Code.RANK_NOT_ON_TABLE, "only ranks already on the table may be added"
            )
        if not (bout.any_rank >> player) & 1 and mask & ~RANK_MASKS[bout.attacks[0] % 13]:
            raise IllegalAction(
                Code.ONLY_FIRST_RANK, "this player may add only the first card's rank"
            )
    if len(bout.attacks) + len(cards) > bout.limit and not _epaulette_opening(state, action):
        raise IllegalAction(Code.OVER_LIMIT, f"at most {bout.limit} attack cards in this bout")


def _epaulette_opening(state: GameState, action: Attack | Throw) -> bool:
    """R-POG-2: the whole hand, all of the epaulette rank, stock empty, opens over the limit."""
    variant = state._position.variant
    if type(action) is not Attack or state.rules.pogony != "strict" or state.stock:
        return False
    hand = state.hands[action.player]
    cards = 0
    for card in action.cards:
        cards |= 1 << card
    return cards == hand and not hand & ~RANK_MASKS[variant.ep_rank]


def _check_bout_closed_to_throws(state: GameState, bout: Bout) -> None:
    """R-POG-2 and R-TOP-2 close a bout to throw-ins."""
    if state._position.epaulettes & EP_BOUT:
        raise IllegalAction(Code.EPAULETTE_ATTACK, "nobody throws in to an epaulette attack")
    queen = state._position.variant.queen_of_hearts
    if queen >= 0 and queen in bout.covers:
        raise IllegalAction(
            Code.QUEEN_OF_HEARTS_COVERED,
            "the defender covered with the queen of hearts: nothing more is thrown in",
        )


def _check_exchange(state: GameState, action: Exchange) -> None:
    """R-SIX-1: the lowest trump for the face-up trump card while two cards are left."""
    rules = state.rules
    if not rules.trump_six_exchange:
        raise IllegalAction(Code.EXCHANGE_DISABLED, "this table plays without the exchange")
    if len(state.stock) < 2:
        raise IllegalAction(
            Code.EXCHANGE_TOO_LATE, "the exchange needs two or more cards in the stock"
        )
    six = state._position.six
    if six < 0 or not (state.hands[action.player] >> six) & 1:
        raise IllegalAction(Code.NO_TRUMP_SIX, "this player holds no lowest trump to exchange")


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
        and state.hands[bout.attacker] & _ranks_on(bout.table)
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


def _check_transfer(state: GameState, bout: Bout, action: Transfer) -> None:
    """Passing the attack on (R-TR-1..3); the new defender and the limit are the core's."""
    player = action.player
    if not state.rules.transfer:
        raise IllegalAction(Code.TRANSFER_DISABLED, "this table plays without transfers")
    _check_defender_turn(bout, player)
    _cards_mask(state, player, (action.card,))
    if any(c is not None for c in bout.covers):
        raise IllegalAction(Code.TRANSFER_AFTER_COVER, "no transfer once a card is covered")
    if action.card % 13 != bout.attacks[0] % 13:
        raise IllegalAction(Code.TRANSFER_RANK_MISMATCH, "a transfer needs the attack cards' rank")
    position = state._position
    if position.epaulettes & EP_BOUT:
        raise IllegalAction(Code.EPAULETTE_ATTACK, "an epaulette attack can only be taken")
    if position.bouts_played == 0 and not position.variant.transfer_first_bout:
        raise IllegalAction(Code.TRANSFER_FIRST_BOUT, "no transfer in the game's first bout")
    if len(bout.attacks) + 1 > position.ceiling():
        raise IllegalAction(Code.OVER_LIMIT, "a transfer may not put more cards than the ceiling")
    if position.transfer_target() < 0:
        raise IllegalAction(
            Code.TRANSFER_TOO_MANY, "the next player holds fewer cards than there would be attacks"
        )


# --- the blind family (RULES.md section 14) ---------------------------------------------


def _explain_blind(state: GameState, bout: Bout, action: object) -> None:
    """``explain`` at a blind table, or for a blind action at an open one. A reason never
    tells a player about a card they may not see: a card named by a player who cannot see
    their hand is refused for that alone, before anything looks at the hand."""
    player = _check_player(state, action)
    blind = state.rules.blind
    unseen_hand = blind is Blind.REVERSED or blind is Blind.CHINESE
    if isinstance(action, Believe | Doubt):
        judging = bout.attacks and None not in bout.covers and not bout.taking
        if blind is not Blind.DOUBT or player != bout.attacker or not judging:
            raise IllegalAction(Code.NOTHING_TO_JUDGE, "nothing is waiting for «верю» or «не верю»")
        return
    if isinstance(action, Transfer):
        raise IllegalAction(Code.TRANSFER_DISABLED, "this table plays without transfers")
    if isinstance(action, Exchange):
        raise IllegalAction(Code.EXCHANGE_DISABLED, "this table plays without the exchange")
    if isinstance(action, SLOT_ACTION_TYPES) and not unseen_hand:
        raise IllegalAction(Code.SLOTS_NOT_PLAYED, "cards are played by name at this table")
    if isinstance(action, Attack | Throw | Defend) and unseen_hand:
        raise IllegalAction(Code.HAND_UNSEEN, "a hand its player cannot see is played by slot")
    if blind is not Blind.REVERSED and isinstance(action, Throw | ThrowSlot | Pass):
        raise IllegalAction(Code.NO_THROW_IN, "nobody throws in at this table")
    if blind is Blind.CHINESE and isinstance(action, Take):
        raise IllegalAction(Code.NO_TAKE, "the defender answers with a card")
    if isinstance(action, AttackSlot | Attack):
        if bout.attacks:
            raise IllegalAction(Code.BOUT_ALREADY_OPENED, "the bout is open")
        if player != bout.attacker:
            raise IllegalAction(Code.NOT_YOUR_TURN, "only the attacker opens the bout")
        if isinstance(action, Attack):
            _check_added_cards(state, bout, action)
    elif isinstance(action, DefendSlot | Defend | Take):
        _check_defender_turn(bout, player)
        _check_blind_defence(state, bout, action)
    else:
        _check_blind_thrower(state, bout, action)
    if isinstance(action, SLOT_ACTION_TYPES):
        _check_slot(state, player, action.slot)


def _check_blind_thrower(state: GameState, bout: Bout, action: object) -> None:
    """A throw-in by slot or a pass in ``reversed``: every thrower with a card may throw
    whatever its rank (R-BLIND-3), the primary attacker first (R-BOUT-6)."""
    player = getattr(action, "player", -1)
    if player == bout.defender and bout.attacks:
        if isinstance(action, Pass):
            raise IllegalAction(Code.DEFENDER_CANNOT_PASS, "the defender covers or takes")
        raise IllegalAction(Code.DEFENDER_CANNOT_THROW, "the defender does not add attack cards")
    if not bout.attacks:
        raise IllegalAction(Code.BOUT_NOT_OPENED, "the bout is not open yet")
    if not (bout.throwers >> player) & 1 and player != bout.attacker:
        raise IllegalAction(Code.NOT_A_THROWER, "this player may not throw in to this bout")
    if (bout.passed >> player) & 1:
        raise IllegalAction(Code.ALREADY_PASSED, "this player has passed until the table changes")
    if len(bout.attacks) >= bout.limit:
        raise IllegalAction(Code.OVER_LIMIT, f"at most {bout.limit} attack cards in this bout")
    attacker = bout.attacker
    if player != attacker and not (bout.passed >> attacker) & 1 and state.hands[attacker]:
        raise IllegalAction(Code.ATTACKER_HAS_PRIORITY, "the attacker throws in first or passes")
    if player not in state.acting:
        raise IllegalAction(Code.NOT_YOUR_TURN, "this player has nothing to add now")


def _check_blind_defence(state: GameState, bout: Bout, action: DefendSlot | Defend | Take) -> None:
    """A cover by slot (R-REV-2), an answer (R-CHI-2), a face-down cover (R-DOUBT-2), or
    a take (R-BOUT-9; in ``doubt`` only at once)."""
    view_covers = [c is not None for c in bout.covers]
    if isinstance(action, Take):
        if state.rules.blind is Blind.DOUBT and any(view_covers):
            raise IllegalAction(Code.TAKE_AFTER_COVER, "the defender takes at once or not at all")
        if all(view_covers):
            raise IllegalAction(Code.NOTHING_TO_TAKE, "every card on the table is covered")
        return
    on = action.on
    if state.rules.blind is Blind.CHINESE:
        if on is not None:
            raise IllegalAction(Code.ATTACK_FACE_DOWN, "the attack card lies face down")
        return
    attack = _card_or_none(on)
    if attack is None or attack not in bout.attacks:
        raise IllegalAction(Code.NOT_UNCOVERED, "that is not an uncovered card on the table")
    if bout.covers[bout.attacks.index(attack)] is not None:
        raise IllegalAction(Code.NOT_UNCOVERED, "that card is covered already")
    if isinstance(action, Defend):
        _card(action.card)
        if not (state.hands[action.player] >> action.card) & 1:
            raise IllegalAction(Code.CARD_NOT_IN_HAND, "that card is not in this player's hand")


def _card_or_none(value: object) -> Card | None:
    if not isinstance(value, int) or not 0 <= value < len(CARDS):
        return None
    return CARDS[int(value)]


def _check_slot(state: GameState, player: int, slot: object) -> None:
    """A slot of ``player``'s row, from 1 (R-BLIND-2)."""
    size = state.hands[player].bit_count()
    if not isinstance(slot, int) or isinstance(slot, bool) or not 1 <= slot <= size:
        raise IllegalAction(Code.NO_SUCH_SLOT, f"slots of this hand are 1..{size}")
