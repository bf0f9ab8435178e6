"""The turn timeout (RULES.md §11): what the bot does for players whose time ran out.

A thrower passes, a defender takes, a primary attacker opens with their lowest card (the
lowest non-trump if they hold one). Pure functions of the engine state."""

from __future__ import annotations

from collections.abc import Sequence

from engine import (
    Action,
    Attack,
    BoutStarted,
    Card,
    Event,
    GameState,
    IllegalAction,
    Pass,
    Take,
    apply,
)


def lowest_opening_card(state: GameState, seat: int) -> Card:
    hand = state.hand(seat)
    plain = [card for card in hand if card.suit != state.trump]
    return min(plain or hand, key=lambda card: (card.rank, card.suit))


def timeout_actions(state: GameState) -> list[Action]:
    """What the bot plays, in this order, for everyone who may act now. The defender takes
    before the throwers pass: a take cancels passes (R-BOUT-7), so the other order would
    ask the throwers again."""
    bout = state.bout
    if bout is None:
        return []
    if not bout.attacks:
        return [Attack(bout.attacker, (lowest_opening_card(state, bout.attacker),))]
    actions: list[Action] = []
    if bout.defender in state.acting:
        actions.append(Take(bout.defender))
    actions.extend(Pass(seat) for seat in state.acting if seat != bout.defender)
    return actions


def act_for_timed_out(state: GameState, seats: Sequence[int]) -> tuple[GameState, list[Event]]:
    """``state`` after the timeout actions for ``seats`` (the people whose time ran out;
    computer players are never timed out) that are still legal when their turn comes."""
    events: list[Event] = []
    for action in timeout_actions(state):
        if action.player not in seats or action.player not in state.acting:
            continue
        try:
            state, happened = apply(state, action)
        except IllegalAction:
            continue
        events.extend(happened)
    return state, events


def bout_started(events: Sequence[Event]) -> bool:
    return any(isinstance(event, BoutStarted) for event in events)
