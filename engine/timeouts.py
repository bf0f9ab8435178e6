"""What is played for a player whose time ran out (RULES.md section 11, R-BLIND-4): the
least harmful legal action, the same at every table that keeps a turn clock."""

from __future__ import annotations

from .actions import Action, Attack, AttackSlot, Believe, Defend, DefendSlot, Pass, Take
from .cards import Card
from .rules import Blind
from .state import GameState


def lowest_opening_card(state: GameState, seat: int) -> Card:
    """The lowest card of ``seat``'s hand, the lowest non-trump if it holds one."""
    hand = state.hand(seat)
    plain = [card for card in hand if card.suit != state.trump]
    return min(plain or hand, key=lambda card: (card.rank, card.suit))


def timeout_actions(state: GameState) -> list[Action]:
    """What is played, in this order, for everyone who may act now: a thrower passes, a
    defender takes, a primary attacker opens with their lowest card. The defender takes
    before the throwers pass: a take cancels passes (R-BOUT-7), so the other order would
    ask the throwers again. The blind family (R-BLIND-4): whoever cannot see their hand
    opens with slot 1, a ``chinese`` defender answers with slot 1, a judging attacker
    believes."""
    bout = state.bout
    if bout is None:
        return []
    blind = state.rules.blind
    if not bout.attacks:
        if blind is Blind.REVERSED or blind is Blind.CHINESE:
            return [AttackSlot(bout.attacker, 1)]
        return [Attack(bout.attacker, (lowest_opening_card(state, bout.attacker),))]
    if blind is Blind.CHINESE:
        return [DefendSlot(bout.defender, 1, None)]
    if blind is Blind.DOUBT:
        return _doubt_timeout(state)
    actions: list[Action] = []
    if bout.defender in state.acting:
        actions.append(Take(bout.defender))
    actions.extend(Pass(seat) for seat in state.acting if seat != bout.defender)
    return actions


def _doubt_timeout(state: GameState) -> list[Action]:
    """``doubt``: the attacker who must judge believes (R-DOUBT-3); a defender takes at
    once, or, having begun to cover (then a take is no longer his to make, R-DOUBT-2),
    covers what is left with his lowest cards."""
    bout = state.bout
    assert bout is not None
    if bout.defender not in state.acting:
        return [Believe(bout.attacker)]
    if all(cover is None for cover in bout.covers):
        return [Take(bout.defender)]
    hand = sorted(state.hand(bout.defender), key=lambda card: (card.suit == state.trump, card.rank))
    uncovered = [attack for attack, cover in bout.pairs if cover is None]
    return [Defend(bout.defender, card, on) for card, on in zip(hand, uncovered, strict=False)]
