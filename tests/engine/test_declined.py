"""Public evidence about hidden hands (``GameState.declined``): the cards everybody saw a
seat not play when it might have, since it last drew. Computer players weigh it
(``engine.ai.worlds``); the rules never read it, so it must only ever hold what the whole
table saw."""

from __future__ import annotations

from helpers import play, position

from engine import GameState, view_for
from engine.cards import mask_of


def declined(state: GameState, seat: int) -> set[str]:
    return {str(c) for c in view_for(state, 0).declined[seat]}


def test_a_take_declines_every_card_that_would_have_covered() -> None:
    """What beats the uncovered 7H, held or not (the table saw only the take); the
    attacker's evidence (no other 7) went with its draw."""
    state = position("7H 8C", "9H 6D 6C", trump="D", stock="10S JS QS 7D")
    state, _ = play(state, "0: attack 7H", "1: take")
    assert {"8H", "9H", "AH", "6D", "AD"} <= declined(state, 1)
    assert not declined(state, 1) & {"7H", "6H", "8C", "6S"}
    assert declined(state, 0) == set()


def test_r_bout_8_a_bout_closed_with_room_declines_the_ranks_on_the_table() -> None:
    """Seat 0 passed with room left and 9C in hand: it played no other 8 and no other 9
    (whether it held one or not). It draws
    nothing (a full hand) and so keeps the evidence into the next bout; the defender's
    draw clears its own."""
    state = position("8S 9C 7C 10C JC QC KC", "9S 6H 7H", trump="D", stock="10S JS QS 6D")
    state, _ = play(state, "0: attack 8S", "1: cover 8S with 9S", "0: pass")
    assert state.bout is not None and state.bout.attacker == 1  # the next bout began
    assert declined(state, 0) == {"8C", "8H", "8D", "9C", "9H", "9D"}
    assert declined(state, 1) == set()


def test_what_a_seat_draws_clears_what_it_declined() -> None:
    """Seat 1 took and then drew two cards, which may be the very covers it declined."""
    state = position("7H 8C", "9H 6D 6C", trump="D", rest="stock")
    state, _ = play(state, "0: attack 7H", "1: take")  # seat 0 has no 7: the bout closes
    assert len(state.hand(1)) == 6
    assert declined(state, 1) == set()


def test_declined_cards_survive_the_stored_form_and_are_the_same_for_every_viewer() -> None:
    state = position("7H 8C", "9H 6D 6C 6S 7S 8S", trump="D", stock="10S JS QS 7D")
    state, _ = play(state, "0: attack 7H", "1: take")
    assert state.declined[1]  # a full hand: no draw cleared it
    again = GameState.from_dict(state.to_dict())
    assert again == state and again.declined == state.declined
    assert view_for(state, 0).declined == view_for(state, 1).declined
    assert mask_of(view_for(state, 1).declined[1]) == state.declined[1]
