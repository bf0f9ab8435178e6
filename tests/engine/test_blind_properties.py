"""Property tests of the blind family (RULES.md section 14) under every house rule it may be
played with (R-BLIND-1: no teams, transfer, exchange or epaulettes; every deck, throw-in,
first-bout limit, no-trump start, trump choice and top card), random games of 2 to 6
players, random legal actions:

* every card of the deck exactly once across hands, stock, table and discard, and each
  hand's row of slots holding exactly its cards (R-BLIND-2);
* no seat's view holds a card that seat may not see: in ``reversed`` its own hand, in
  ``chinese`` any hand, in ``doubt`` the others' hands, a card lying face down but the
  covers a defender laid, and never a cover discarded unseen (R-REV-1, R-CHI-1, R-DOUBT-5);
  cards seen going into a hand (taken from the table, the lowest trump shown) may be seen;
* a player who cannot see their hand is offered every slot, whatever it holds (R-BLIND-3);
* the state survives its JSON form, the record of the game replays to the same end, and
  every game ends within ``MAX_MOVES``.

The first ``CHECKED`` positions of a game are checked in full, then one in ``SPOT``.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Action,
    AttackSlot,
    Blind,
    DefendSlot,
    GameState,
    HouseRules,
    SeatView,
    Suit,
    ThrowSlot,
    TrumpChoice,
    apply,
    legal_actions,
    new_game,
    to_act,
    view_for,
)
from engine.cards import Card, deck_mask
from engine.record import export_record, load_record
from engine.replay import run
from tests.blind_rules import BLIND_RULES

# Random play misplays again and again in ``reversed``, and a misplay gives cards back: its
# random games run to a few thousand actions (the longest of 120 games of 52 cards, 3,534).
MAX_MOVES = 50_000
CHECKED = 200  # positions of a game checked in full; after them, one in SPOT
SPOT = 25


def start(rules: HouseRules, players: int, seed: int) -> GameState:
    players = min(players, rules.max_players)
    named = Suit(seed % 4) if rules.trump is TrumpChoice.DEALER else None
    return new_game(players, rules=rules, seed=seed, trump=named)


def check_cards(state: GameState) -> None:
    seen = state.discard
    count = state.discard.bit_count() + len(state.stock)
    for card in state.stock:
        seen |= 1 << card
    for hand, row in zip(state.hands, state.rows, strict=True):
        assert sum(1 << card for card in row) == hand and len(row) == hand.bit_count()
        seen |= hand
        count += hand.bit_count()
    bout = state.bout
    for attack, cover in () if bout is None else bout.pairs:
        seen |= 1 << attack
        count += 1
        if cover is not None:
            seen |= 1 << cover
            count += 1
    assert seen == deck_mask(state.rules.deck) and count == state.rules.deck


def cards_in(view: SeatView) -> set[Card]:
    """Every card a view names, wherever in it."""
    named: set[Card] = set(view.hand)
    for row in (*view.rows, view.remembered):
        named.update(card for card in row if card is not None)
    for cards in (*view.seen_in_hands, *view.declined):
        named.update(cards)
    for attack, cover in view.table:
        named.add(attack)
        if cover is not None:
            named.add(cover)
    if view.trump_card is not None:
        named.add(view.trump_card)
    return named


def may_see(state: GameState, seat: int, card: Card) -> bool:
    """Whether ``seat`` may see where ``card`` is (RULES.md sections 11 and 14)."""
    blind = state.rules.blind
    if card == state.trump_card:
        return True  # face up under the stock, or seen going into a hand
    for holder, hand in enumerate(state.hands):
        if hand >> card & 1:
            if state.known[holder] >> card & 1:
                return True  # everybody saw it go there
            if holder == seat:
                return blind is Blind.DOUBT
            return blind is Blind.REVERSED
    bout = state.bout
    if bout is not None and (card in bout.attacks or card in bout.covers):
        if not state.face_down >> card & 1:
            return True
        return blind is Blind.DOUBT and seat == bout.defender and card in bout.covers
    return False  # in the stock or the discard: no view lists those


def check_views(state: GameState) -> None:
    for seat in range(state.players):
        view = view_for(state, seat)
        leaked = [card for card in cards_in(view) if not may_see(state, seat, card)]
        assert not leaked, f"seat {seat} sees {leaked}"


def check_every_slot_offered(state: GameState) -> None:
    """R-BLIND-3: whoever cannot see their hand may name each of its slots."""
    if state.rules.blind is Blind.DOUBT:
        return
    for seat in to_act(state):
        size = state.hands[seat].bit_count()
        by_target: dict[object, set[int]] = {}
        for action in legal_actions(state, seat):
            if isinstance(action, AttackSlot | ThrowSlot | DefendSlot):
                target = (type(action), getattr(action, "on", None))
                by_target.setdefault(target, set()).add(action.slot)
        assert all(slots == set(range(1, size + 1)) for slots in by_target.values())


@settings(max_examples=100, deadline=None)
@given(rules=BLIND_RULES, players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_blind_games_keep_every_card_hide_what_they_must_and_end(
    rules: HouseRules, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    first = state = start(rules, players, seed)
    played: list[Action] = []
    while not state.finished:
        if len(played) < CHECKED or len(played) % SPOT == 0:
            check_cards(state)
            check_views(state)
            check_every_slot_offered(state)
            assert GameState.from_dict(state.to_dict()) == state
        seats = to_act(state)
        action = rng.choice(legal_actions(state, rng.choice(seats)))
        state, _ = apply(state, action)
        played.append(action)
        assert len(played) < MAX_MOVES
    check_cards(state)
    names = [f"p{seat}" for seat in range(first.players)]
    replayed = run(load_record(export_record(first, played, names)))
    assert replayed.ok and replayed.state.hands == state.hands
    assert replayed.state.durak == state.durak and replayed.state.rows == state.rows
