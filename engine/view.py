"""What one seat may know: its own hand and everything public at a real table (RULES.md §11).

A view holds no other hand and no stock order: only card counts, the face-up trump, the
table, the discard size, and the cards a player was seen to take (still in their hand).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Suit, cards_of
from .moves import to_act
from .rules import HouseRules
from .state import GameState


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    rules: HouseRules
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    seen_in_hands: tuple[tuple[Card, ...], ...]  # per seat: cards known to be there
    trump: Suit
    trump_card: Card | None  # face up under the stock, or shown in the dealer's hand
    trump_card_holder: int | None  # who holds the shown trump card, once it left the stock
    stock_size: int
    discard_size: int
    table: tuple[tuple[Card, Card | None], ...]
    attacker: int | None
    defender: int | None
    limit: int | None
    taking: bool
    passed: tuple[int, ...]
    to_act: tuple[int, ...]
    out: tuple[int, ...]
    dealer: int
    bouts_played: int
    finished: bool
    durak: int | None
    moves: int


def view_for(state: GameState, seat: int) -> SeatView:
    bout = state.bout
    holder = None
    if state.trump_card is not None and not state.stock:
        holder = next(
            (s for s, h in enumerate(state.known) if (h & state.hands[s]) >> state.trump_card & 1),
            None,
        )
    return SeatView(
        seat=seat,
        rules=state.rules,
        hand=tuple(cards_of(state.hands[seat])),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        seen_in_hands=tuple(
            () if s == seat else tuple(cards_of(k & h))
            for s, (k, h) in enumerate(zip(state.known, state.hands, strict=True))
        ),
        trump=state.trump,
        trump_card=state.trump_card,
        trump_card_holder=holder,
        stock_size=len(state.stock),
        discard_size=state.discard.bit_count(),
        table=() if bout is None else bout.pairs,
        attacker=None if bout is None else bout.attacker,
        defender=None if bout is None else bout.defender,
        limit=None if bout is None else bout.limit,
        taking=False if bout is None else bout.taking,
        passed=()
        if bout is None
        else tuple(s for s in range(state.players) if bout.passed >> s & 1),
        to_act=to_act(state),
        out=state.out,
        dealer=state.dealer,
        bouts_played=state.bouts_played,
        finished=state.finished,
        durak=state.durak,
        moves=state.moves,
    )
