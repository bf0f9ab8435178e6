"""A move made in the table page as a player makes it: by taps (a card of the hand, then
where it goes when it may go to more than one place) or by dragging the card there. A
fanned hand's card shows only a strip from under the next one, so a finger touches it
where it shows, as a person does (``TablePage.point``)."""

from __future__ import annotations

from bot.ui.callbacks import encode_action
from engine import (
    Action,
    Attack,
    AttackSlot,
    Card,
    Defend,
    DefendSlot,
    GameState,
    Throw,
    ThrowSlot,
    Transfer,
    legal_actions,
)

from .pages import TablePage

BY_HAND = (Attack, Throw, Defend, Transfer, AttackSlot, ThrowSlot, DefendSlot)


def by_hand(action: Action) -> bool:
    """Whether ``action`` is played with a card (or a back) of the hand; else it is a button."""
    return isinstance(action, BY_HAND) and not (
        isinstance(action, Attack | Throw) and len(action.cards) > 1
    )


def _card(action: Action) -> Card | None:
    if isinstance(action, Attack | Throw):
        return action.cards[0]
    if isinstance(action, Defend | Transfer):
        return action.card
    return None


def _slot(action: Action) -> int | None:
    return action.slot if isinstance(action, AttackSlot | ThrowSlot | DefendSlot) else None


def moves_of(state: GameState, action: Action) -> list[Action]:
    """Every move the card (or slot) of ``action`` has now: where the page lets it go."""
    key = _card(action) or _slot(action)
    return [
        a
        for a in legal_actions(state, action.player)
        if by_hand(a) and (_card(a) or _slot(a)) == key
    ]


def source(action: Action) -> str:
    """The hand's element the move starts from."""
    slot = _slot(action)
    if slot is not None:
        return f'#hand button[data-slot="{slot}"]'
    return f'#hand button[data-card="{_card(action)}"]'


def place(action: Action, transfer_to: int | None = None) -> str:
    """Where the card goes: the attack card it covers, the seat a transfer passes to (when
    given), else the felt."""
    if isinstance(action, Defend):
        return f'#table button[data-card="{action.on}"]'
    if isinstance(action, DefendSlot) and action.on is not None:
        return f'#table button[data-card="{action.on}"]'
    if isinstance(action, Transfer) and transfer_to is not None:
        return f'#seats .seat[data-seat="{transfer_to}"]'
    return "#felt"


async def play_by_taps(page: TablePage, state: GameState, action: Action) -> None:
    """Tap what a player taps for ``action``: its card, then its place if it has several."""
    if not by_hand(action):
        await page.tap(f'#controls button[data-act="{encode_action(action)}"]')
        return
    await page.tap(source(action))
    if len(moves_of(state, action)) > 1:
        await page.tap(place(action))


async def play_by_drag(page: TablePage, action: Action, transfer_to: int | None = None) -> None:
    """Drag the card of ``action`` to its place (a button's action is tapped)."""
    if not by_hand(action):
        await page.tap(f'#controls button[data-act="{encode_action(action)}"]')
        return
    await page.drag(source(action), place(action, transfer_to))
