"""RULES.md sections 6 and 7: limits (R-LIMIT-1..3) and the end of a bout (R-END-1..4)."""

from __future__ import annotations

import pytest
from helpers import card, cards, house, of_type, play, position, refused

from engine import (
    BeatenOff,
    BoutStarted,
    DeclaredTake,
    GameState,
    Passed,
    PlayerOut,
    ThrewIn,
    Throw,
    Took,
    legal_actions,
    to_act,
    view_for,
)

# --- R-LIMIT-1 ---------------------------------------------------------------------------


def test_r_limit_1_at_most_the_defenders_hand() -> None:
    """R-LIMIT-1: no more attack cards than the defender held when the bout began."""
    state = position("7H 7D 7C 7S", "8H 8D 8C", trump="S")
    assert view_for(state, 0).limit == 3
    assert refused(state, "0: attack 7H 7D 7C 7S") == "over_limit"
    state, _ = play(state, "0: attack 7H 7D 7C")
    assert refused(state, "0: throw 7S") == "over_limit"
    assert legal_actions(state, 0) == []
    assert to_act(state) == (1,)


def test_r_limit_1_at_most_six_however_big_the_hand() -> None:
    """R-LIMIT-1: the ceiling is 6 even when the defender holds more cards."""
    state = position("6H 6D 6C 7D 7C 7S 9H", "7H 9D 9C 10S JS QS KS AS", trump="S")
    assert view_for(state, 0).limit == 6
    state, _ = play(
        state, "0: attack 6H 6D 6C", "1: cover 6H with 7H", "1: cover 6D with 9D", "0: throw 7D 7C"
    )
    assert {str(a) for a in legal_actions(state, 0)} == {"0: throw 7S", "0: throw 9H", "0: pass"}
    assert refused(state, "0: throw 7S 9H") == "over_limit"
    state, _ = play(state, "0: throw 7S")
    assert state.bout is not None and len(state.bout.attacks) == 6
    assert refused(state, "0: throw 9H") == "over_limit"
    assert to_act(state) == (1,)


def test_r_limit_1_defending_cards_do_not_count() -> None:
    """R-LIMIT-1: only attack cards count: three attack and two defending cards fit a
    limit of three."""
    state = position("8H 9S JH", "9H JD 6C", trump="D")
    state, _ = play(
        state, "0: attack 8H", "1: cover 8H with 9H", "0: throw 9S", "1: cover 9S with JD"
    )
    state, events = play(state, "0: throw JH")
    assert events == [ThrewIn(0, cards("JH"))]
    assert state.bout is not None and len(state.bout.pairs) == 3
    assert sum(c is not None for _, c in state.bout.pairs) == 2


# --- R-LIMIT-2 ---------------------------------------------------------------------------


def test_r_limit_2_count_frozen_at_bout_start_even_after_take() -> None:
    """R-LIMIT-2: with three cards at the start, no fourth attack card is allowed, not even
    after the defender declares take."""
    state = position("7H 7D 7C 7S KC", "8H 9D 10C", trump="S")
    state, _ = play(state, "0: attack 7H 7D", "1: take")
    assert {str(a) for a in legal_actions(state, 0)} == {"0: throw 7C", "0: throw 7S", "0: pass"}
    assert refused(state, "0: throw 7C 7S") == "over_limit"
    state, events = play(state, "0: throw 7C")
    took = of_type(events, Took)
    assert len(took) == 1
    assert sorted(took[0].cards) == sorted(cards("7H 7D 7C"))
    assert len(state.hand(1)) == 6


def test_r_limit_2_count_frozen_while_the_defender_covers() -> None:
    """R-LIMIT-2: covering does not lower the limit: the defender started with three cards,
    holds two after one cover, and still faces up to three attack cards in all."""
    state = position("7H 7D 7C 9S", "8H 9D 10C", trump="S")
    state, _ = play(state, "0: attack 7H", "1: cover 7H with 8H")
    state, events = play(state, "0: throw 7D 7C")
    assert events == [ThrewIn(0, cards("7D 7C"))]
    assert view_for(state, 0).limit == 3
    state, _ = play(state, "1: cover 7D with 9D")  # a nine on the table, but three attacks
    assert refused(state, "0: throw 9S") == "over_limit"
    assert to_act(state) == (1,)


# --- R-LIMIT-3 ---------------------------------------------------------------------------


def limit_position(rule: str, bouts_played: int = 0) -> GameState:
    return position(
        "7H 7D 7C 7S 8S 8D",
        "8H 9D 10D JD QD KD",
        trump="C",
        rest="stock",
        rules=house(first_bout_limit=rule),
        bouts_played=bouts_played,
    )


def fifth_and_sixth(state: GameState) -> GameState:
    state, _ = play(state, "0: attack 7H 7D 7C 7S", "1: cover 7H with 8H", "0: throw 8S")
    assert state.bout is not None and len(state.bout.attacks) == 5
    return state


@pytest.mark.parametrize("rule", ["first_bout", "until_first_beaten"])
def test_r_limit_3_ceiling_five_in_the_first_bout(rule: str) -> None:
    """R-LIMIT-3: first_bout and until_first_beaten both cap the very first bout at five."""
    state = limit_position(rule)
    assert view_for(state, 0).limit == 5
    state = fifth_and_sixth(state)
    assert refused(state, "0: throw 8D") == "over_limit"
    assert to_act(state) == (1,)


def test_r_limit_3_no_first_bout_limit_ceiling_six() -> None:
    """first_bout_limit=none: the ceiling is six from the first bout."""
    state = limit_position("none")
    assert view_for(state, 0).limit == 6
    state, events = play(fifth_and_sixth(state), "0: throw 8D")
    assert events == [ThrewIn(0, cards("8D"))]


def test_r_limit_3_first_bout_only_the_first_bout() -> None:
    """R-LIMIT-3 first_bout: ceiling 5 in the first bout of the game, 6 afterwards (even
    when the first bout was taken and the discard is empty)."""
    state = limit_position("first_bout", bouts_played=1)
    assert view_for(state, 0).limit == 6
    state = limit_position("first_bout")
    _, events = play(state, "0: attack 7H 7D 7C 7S", "1: take")
    assert of_type(events, BoutStarted) == [BoutStarted(0, 1, 6)]


def test_r_limit_3_until_first_beaten_a_taken_bout_keeps_five() -> None:
    """R-LIMIT-3 until_first_beaten: ceiling 5 while the discard is empty; a taken bout puts
    nothing there, so the next bout still has ceiling 5; after a beaten-off bout, 6."""
    state = position(
        "7H 8C 9C 10C JC QC",
        "6H 6D 8D 9D 10D AS",
        trump="S",
        rest="stock",
        rules=house(first_bout_limit="until_first_beaten"),
    )
    assert view_for(state, 0).limit == 5
    state, events = play(state, "0: attack 7H", "1: take")
    assert of_type(events, BoutStarted) == [BoutStarted(0, 1, 5)]
    assert state.discard == 0
    state, events = play(state, "0: attack 8C", "1: cover 8C with AS")
    assert of_type(events, BeatenOff) == [BeatenOff(1, cards("8C AS"))]
    assert of_type(events, BoutStarted) == [BoutStarted(1, 0, 6)]


def test_r_limit_3_until_first_beaten_with_a_discard_already() -> None:
    """R-LIMIT-3 until_first_beaten: a position with cards in the discard has ceiling 6."""
    state = position(
        "7H 8C 9C 10C JC QC",
        "6H 6D 8D 9D 10D AS",
        trump="S",
        rules=house(first_bout_limit="until_first_beaten"),
    )
    assert view_for(state, 0).limit == 6


# --- R-END-1 -----------------------------------------------------------------------------


def three_players() -> GameState:
    return position("7H 8D 9S", "8H 10C JD QS", "QC KC", trump="D", rest="stock")


def test_r_end_1_beaten_off_goes_to_the_discard_and_defender_attacks() -> None:
    """R-END-1: every attack card covered and every thrower passed: the table goes to the
    discard and the defender attacks next."""
    state = three_players()
    discard_before = state.discard
    state, _ = play(state, "0: attack 7H", "1: cover 7H with 8H")
    assert to_act(state) == (0,)  # 8D is an eight: the attacker may still add it
    state, events = play(state, "0: pass")
    assert events[:2] == [Passed(0), BeatenOff(1, cards("7H 8H"))]
    assert state.discard == discard_before | 1 << card("7H") | 1 << card("8H")
    assert of_type(events, BoutStarted) == [BoutStarted(1, 2, 6)]


def test_r_end_1_limit_reached_closes_without_passes() -> None:
    """R-END-1: once the limit is reached and every card is covered, the bout closes."""
    state = position("7H 7D 8C", "8H 9D", "8S QC", trump="D", rest="stock")
    state, events = play(state, "0: attack 7H 7D", "1: cover 7H with 8H", "1: cover 7D with 9D")
    assert of_type(events, Passed) == []
    assert sorted(of_type(events, BeatenOff)[0].cards) == sorted(cards("7H 7D 8H 9D"))


# --- R-END-2 -----------------------------------------------------------------------------


def test_r_end_2_taken_next_after_the_defender_attacks() -> None:
    """R-END-2: after a take and all passes, the defender picks up the whole table, attack
    and defending cards alike, and the next player after the defender attacks."""
    state = three_players()
    state, _ = play(state, "0: attack 7H", "1: cover 7H with 8H", "0: throw 8D")
    state, events = play(state, "1: take")
    assert events[0] == DeclaredTake(1)
    took = of_type(events, Took)
    assert [t.player for t in took] == [1]
    assert sorted(took[0].cards) == sorted(cards("7H 8H 8D"))
    assert set(cards("7H 8H 8D")) <= set(state.hand(1))
    assert of_type(events, BoutStarted) == [BoutStarted(2, 0, 6)]


# --- R-END-3 -----------------------------------------------------------------------------


def test_r_end_3_a_closed_bout_cannot_be_changed() -> None:
    """R-END-3: once the bout is closed nobody may add cards or change a decision."""
    state = three_players()
    state, _ = play(state, "0: attack 7H", "1: cover 7H with 8H", "0: pass")
    assert state.bout is not None and state.bout.attacks == ()
    assert refused(state, Throw(0, cards("8D"))) == "not_your_turn"
    assert refused(state, "1: take") == "not_defender"
    assert refused(state, "2: take") == "bout_not_opened"
    assert refused(state, "0: pass") == "not_your_turn"


# --- R-END-4 -----------------------------------------------------------------------------


def test_r_end_4_defender_out_next_active_attacks() -> None:
    """R-END-4: the defender beat off with the last card and is out: the next active player
    clockwise attacks instead."""
    state = position("7H 10C", "8H", "9D JD", "QC KD", trump="S")
    state, events = play(state, "0: attack 7H", "1: cover 7H with 8H")
    assert of_type(events, PlayerOut) == [PlayerOut(1, 1)]
    assert of_type(events, BoutStarted) == [BoutStarted(2, 3, 2)]


def test_r_end_4_after_a_take_skips_a_player_who_is_out() -> None:
    """R-END-4: after a take the next player after the defender would attack, but threw in
    their last card and is out: the next active player attacks."""
    state = position("7H 9S", "8C 9D 10D", "7D", "QC KC", trump="S")
    state, events = play(state, "0: attack 7H", "2: throw 7D", "1: take")
    assert of_type(events, PlayerOut) == [PlayerOut(2, 1)]
    assert of_type(events, BoutStarted) == [BoutStarted(3, 0, 1)]
