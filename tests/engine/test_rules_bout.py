"""RULES.md section 5: the bout (R-BOUT-1..10)."""

from __future__ import annotations

from helpers import card, cards, house, of_type, play, position, refused

from engine import (
    Action,
    Attack,
    Attacked,
    BeatenOff,
    Covered,
    DeclaredTake,
    GameState,
    Pass,
    Passed,
    Take,
    ThrewIn,
    Throw,
    Took,
    legal_actions,
    to_act,
    view_for,
)


def names(actions: list[Action]) -> set[str]:
    return {str(a) for a in actions}


# --- R-BOUT-1 ----------------------------------------------------------------------------


def test_r_bout_1_open_with_one_card_or_several_of_one_rank() -> None:
    """R-BOUT-1: the primary attacker opens with one card or several cards of one rank."""
    state = position("7H 7D 7C 9S", "6H 8H 10D JC QC KD", trump="S")
    assert names(legal_actions(state, 0)) == {
        "0: attack 7H",
        "0: attack 7D",
        "0: attack 7C",
        "0: attack 9S",
        "0: attack 7H 7D",
        "0: attack 7H 7C",
        "0: attack 7D 7C",
        "0: attack 7H 7D 7C",
    }
    assert legal_actions(state, 1) == []
    assert refused(state, "0: attack 7H 9S") == "mixed_ranks"
    assert refused(state, "1: attack 6H") == "not_your_turn"
    after, events = play(state, "0: attack 7H 7D 7C")
    assert events == [Attacked(0, cards("7H 7D 7C"))]
    assert after.hand(0) == [card("9S")]
    assert refused(after, "0: attack 9S") == "bout_already_opened"


def test_r_bout_1_opening_within_the_limit() -> None:
    """R-BOUT-1 with R-LIMIT: the defender holds two cards, so at most two attack cards."""
    state = position("7H 7D 7C", "6H 8H", trump="S")
    assert refused(state, "0: attack 7H 7D 7C") == "over_limit"
    assert max(len(a.cards) for a in legal_actions(state, 0) if isinstance(a, Attack)) == 2
    _, events = play(state, "0: attack 7H 7C")
    assert events == [Attacked(0, cards("7H 7C"))]


# --- R-BOUT-2 ----------------------------------------------------------------------------


def test_r_bout_2_higher_card_of_the_suit_or_any_trump() -> None:
    """R-BOUT-2: a non-trump card is beaten by a higher card of its suit or by any trump;
    lower cards, other suits and equal ranks do not beat it."""
    state = position("9H", "10H 6S 6H 9D QD AC", trump="S")
    state, _ = play(state, "0: attack 9H")
    assert names(legal_actions(state, 1)) == {
        "1: cover 9H with 10H",
        "1: cover 9H with 6S",
        "1: take",
    }
    for weak in ("6H", "9D", "QD", "AC"):
        assert refused(state, f"1: cover 9H with {weak}") == "does_not_beat"


def test_r_bout_2_no_duty_to_follow_suit() -> None:
    """R-BOUT-2: a trump may beat a card although the defender holds a higher card of its suit."""
    state = position("9H", "10H 6S", trump="S")
    _, events = play(state, "0: attack 9H", "1: cover 9H with 6S")
    assert Covered(1, card("6S"), card("9H")) in events
    assert of_type(events, BeatenOff) != []


def test_r_bout_2_trump_only_by_a_higher_trump() -> None:
    """R-BOUT-2: a trump is beaten only by a higher trump."""
    state = position("9S", "10S 8S AH KD", trump="S")
    state, _ = play(state, "0: attack 9S")
    assert names(legal_actions(state, 1)) == {"1: cover 9S with 10S", "1: take"}
    for weak in ("8S", "AH", "KD"):
        assert refused(state, f"1: cover 9S with {weak}") == "does_not_beat"


def test_r_bout_2_trump_ace_cannot_be_beaten() -> None:
    """R-BOUT-2: the trump ace cannot be beaten."""
    state = position("AS", "KS AH AD QS", trump="S")
    state, _ = play(state, "0: attack AS")
    assert legal_actions(state, 1) == [Take(1)]
    for other in ("KS", "AH", "AD", "QS"):
        assert refused(state, f"1: cover AS with {other}") == "does_not_beat"


# --- R-BOUT-3 ----------------------------------------------------------------------------


def test_r_bout_3_each_card_covers_one_attack_card_in_any_order() -> None:
    """R-BOUT-3: every defending card covers one specific attack card, in any order."""
    state = position("7H 7D", "8D 9H JC", trump="S")
    state, _ = play(state, "0: attack 7H 7D", "1: cover 7D with 8D")
    assert state.bout is not None
    assert state.bout.pairs == ((card("7H"), None), (card("7D"), card("8D")))
    assert refused(state, "1: cover 7D with 9H") == "not_uncovered"
    assert refused(state, "1: cover 8H with 9H") == "not_uncovered"
    state, events = play(state, "1: cover 7H with 9H")
    assert events[0] == Covered(1, card("9H"), card("7H"))
    assert sorted(of_type(events, BeatenOff)[0].cards) == sorted(cards("7H 7D 8D 9H"))


# --- R-BOUT-4 ----------------------------------------------------------------------------


def test_r_bout_4_throw_ranks_on_the_table_attack_or_defence() -> None:
    """R-BOUT-4: a thrower may add a card whose rank is on the table, attack or defending
    cards alike; suit does not matter; ranks only in the discard do not count."""
    state = position("8S 8D 10C 9C QS", "10S JD 7C 6C AC KC", trump="H")
    assert state.discard >> card("9S") & 1  # a nine in the discard does not count
    state, _ = play(state, "0: attack 8S", "1: cover 8S with 10S")
    assert names(legal_actions(state, 0)) == {
        "0: throw 8D",
        "0: throw 10C",
        "0: throw 8D 10C",
        "0: pass",
    }
    assert refused(state, "0: throw 9C") == "rank_not_on_table"
    assert refused(state, "0: throw QS") == "rank_not_on_table"
    _, events = play(state, "0: throw 10C")
    assert events == [ThrewIn(0, cards("10C"))]


def test_r_bout_4_a_trump_does_not_help() -> None:
    """R-BOUT-4: being a trump does not let a card be thrown in."""
    state = position("8S 9H 10C", "10S JD 7C", trump="H")
    state, _ = play(state, "0: attack 8S", "1: cover 8S with 10S")
    assert refused(state, "0: throw 9H") == "rank_not_on_table"


# --- R-BOUT-5 ----------------------------------------------------------------------------


def four_players(**rules: str) -> GameState:
    """Seat 0 attacks 1; seat 2 is the defender's left neighbour; seat 3 is neither."""
    return position(
        "7H 9S",
        "8C 9D 10D JD QD KD",
        "7D 6S",
        "7C 6D",
        trump="S",
        rest="stock",
        rules=house(**rules),
    )


def test_r_bout_5_neighbors_only_attacker_and_defenders_left() -> None:
    """R-BOUT-5 with throw_in=neighbors: only the primary attacker and the defender's left
    neighbour throw in; the player opposite may not."""
    state = four_players(throw_in="neighbors")
    state, _ = play(state, "0: attack 7H")
    assert to_act(state) == (1, 2)
    assert refused(state, "3: throw 7C") == "not_a_thrower"
    assert legal_actions(state, 3) == []
    state, _ = play(state, "2: throw 7D")
    assert refused(state, "3: throw 7C") == "not_a_thrower"


def test_r_bout_5_all_every_active_player_but_the_defender() -> None:
    """R-BOUT-5 with throw_in=all: every active player except the defender throws in."""
    state = four_players(throw_in="all")
    state, _ = play(state, "0: attack 7H")
    assert to_act(state) == (1, 2, 3)
    _, events = play(state, "3: throw 7C")
    assert events == [ThrewIn(3, cards("7C"))]


def test_r_bout_5_the_defender_never_throws_in() -> None:
    """R-BOUT-5: the defender never throws in, not even a rank on the table."""
    state = position("7H", "7D 8D 9D", trump="S")
    state, _ = play(state, "0: attack 7H")
    assert refused(state, "1: throw 7D") == "defender_cannot_throw"


def test_r_bout_5_neighbours_counted_among_active_players() -> None:
    """R-BOUT-5: neighbours are counted among active players: seat 2 is out, so seat 3 is
    the defender's left neighbour and may throw in."""
    state = position("7H 10C", "8H 9H JH", "", "7C QC", trump="S")
    assert state.out == (2,)
    state, _ = play(state, "0: attack 7H")
    assert to_act(state) == (1, 3)
    _, events = play(state, "3: throw 7C")
    assert events == [ThrewIn(3, cards("7C"))]


def test_r_bout_5_with_three_players_neighbours_are_everybody() -> None:
    """R-BOUT-5: with three players `neighbors` and `all` coincide."""
    for throw_in in ("neighbors", "all"):
        state = position("7H 7S", "8C 9D 10D", "7D 6D", trump="C", rules=house(throw_in=throw_in))
        state, _ = play(state, "0: attack 7H", "0: pass")
        assert to_act(state) == (1, 2)
        _, events = play(state, "2: throw 7D")
        assert events == [ThrewIn(2, cards("7D"))]


def test_r_bout_5_a_player_without_cards_cannot_throw_in() -> None:
    """R-BOUT-5: a player with no cards cannot throw in (seat 2 threw its last card)."""
    state = position("7H 7S 9C", "8H 9H JH QH 10H", "7D", trump="D")
    state, _ = play(state, "0: attack 7H", "0: pass", "2: throw 7D")
    assert state.hand(2) == []
    state, _ = play(state, "1: cover 7H with 9H")
    assert to_act(state) == (0, 1)
    state, _ = play(state, "0: pass")
    assert to_act(state) == (1,)
    assert legal_actions(state, 2) == []
    assert refused(state, "2: pass") == "already_passed"


# --- R-BOUT-6 ----------------------------------------------------------------------------


def test_r_bout_6_primary_attacker_has_priority() -> None:
    """R-BOUT-6: others may throw in only after the primary attacker has passed."""
    state = position("7H 7S", "8C 9D 10D JD", "7D 6D", trump="S")
    state, _ = play(state, "0: attack 7H")
    assert to_act(state) == (0, 1)
    assert legal_actions(state, 2) == []
    assert refused(state, "2: throw 7D") == "attacker_has_priority"
    assert refused(state, "2: pass") == "attacker_has_priority"
    state, events = play(state, "0: pass")
    assert events == [Passed(0)]
    assert to_act(state) == (1, 2)
    _, events = play(state, "2: throw 7D")
    assert events == [ThrewIn(2, cards("7D"))]


def test_r_bout_6_no_fixed_order_among_the_others() -> None:
    """R-BOUT-6: after the attacker passed, the other throwers are first come, first served."""
    rules = house(throw_in="all")
    state = position("7H 7S", "8C 9D 10D JD", "7D 6D", "7C 6H", trump="S", rules=rules)
    state, _ = play(state, "0: attack 7H", "0: pass")
    assert to_act(state) == (1, 2, 3)
    for first, second in ((2, 3), (3, 2)):
        card_of = {2: "7D", 3: "7C"}
        after, events = play(state, f"{first}: throw {card_of[first]}")
        assert events == [ThrewIn(first, cards(card_of[first]))]
        # the new card cancels the attacker's pass: the attacker (holding 7S) goes first again
        assert refused(after, f"{second}: throw {card_of[second]}") == "attacker_has_priority"


# --- R-BOUT-7 ----------------------------------------------------------------------------


def test_r_bout_7_a_defending_card_cancels_passes() -> None:
    """R-BOUT-7: a new defending card cancels every pass; priority returns to the attacker."""
    state = position("7H 7S 9C", "8C 9H 10D JD", "6D KC", trump="S")
    state, _ = play(state, "0: attack 7H", "0: pass")
    assert view_for(state, 1).passed == (0,)
    assert to_act(state) == (1,)
    state, _ = play(state, "1: cover 7H with 9H")
    assert view_for(state, 1).passed == ()
    assert to_act(state) == (0,)
    _, events = play(state, "0: throw 9C")
    assert events == [ThrewIn(0, cards("9C"))]


def test_r_bout_7_a_thrown_card_and_a_take_cancel_passes() -> None:
    """R-BOUT-7: a thrown card and the defender's take cancel every pass made so far."""
    rules = house(throw_in="all")
    state = position("7H 7S", "8C 9D 10D JD", "7D KC", "7C KD", trump="H", rules=rules)
    state, _ = play(state, "0: attack 7H", "0: pass", "3: pass")
    assert view_for(state, 1).passed == (0, 3)
    assert to_act(state) == (1, 2)
    state, _ = play(state, "2: throw 7D")
    assert view_for(state, 1).passed == ()
    assert to_act(state) == (0, 1)
    state, _ = play(state, "0: pass", "3: pass")
    assert view_for(state, 1).passed == (0, 3)
    assert to_act(state) == (1,)  # seat 2 has no seven left: passed without being asked
    state, events = play(state, "1: take")
    assert events == [DeclaredTake(1)]
    assert view_for(state, 1).passed == ()
    assert to_act(state) == (0,)


# --- R-BOUT-8 ----------------------------------------------------------------------------


def test_r_bout_8_a_thrower_with_nothing_to_add_is_passed() -> None:
    """R-BOUT-8: a thrower with no legal card is passed automatically and never asked; so
    an attacker without a matching card does not hold up the others."""
    state = position("7H KC", "8C 9D 10D", "7D 6D", trump="S")
    state, _ = play(state, "0: attack 7H")
    assert to_act(state) == (1, 2)
    assert legal_actions(state, 0) == []
    assert refused(state, Pass(0)) == "already_passed"
    _, events = play(state, "2: throw 7D")
    assert events == [ThrewIn(2, cards("7D"))]


def test_r_bout_8_nobody_able_to_add_closes_the_bout() -> None:
    """R-BOUT-8: when every card is covered and nobody can add, the bout closes at once."""
    state = position("7H KC", "8H 9D 10D", "6D QS", trump="S", rest="stock")
    _, events = play(state, "0: attack 7H", "1: cover 7H with 8H")
    assert events[1:3] == [Covered(1, card("8H"), card("7H")), BeatenOff(1, cards("7H 8H"))]


# --- R-BOUT-9 ----------------------------------------------------------------------------


def test_r_bout_9_take_even_when_able_to_beat() -> None:
    """R-BOUT-9: the defender may take while a card is uncovered, even able to beat it;
    then plays no more cards; throwers may still add, then the defender picks up all."""
    state = position("7H 7D 9D 9C KC", "9H 10D 6C JS", trump="S")
    state, _ = play(state, "0: attack 7H", "1: cover 7H with 9H", "0: throw 7D")
    assert "1: cover 7D with 10D" in names(legal_actions(state, 1))
    state, events = play(state, "1: take")
    assert events == [DeclaredTake(1)]
    assert refused(state, "1: cover 7D with 10D") == "already_taking"
    assert refused(state, "1: take") == "already_taking"
    assert legal_actions(state, 1) == []
    assert to_act(state) == (0,)
    state, events = play(state, "0: throw 9D 9C")  # the fourth and last card of the limit
    assert events[0] == ThrewIn(0, cards("9D 9C"))
    took = of_type(events, Took)
    assert len(took) == 1 and took[0].player == 1
    assert sorted(took[0].cards) == sorted(cards("7H 9H 7D 9D 9C"))
    assert sorted(state.hand(1)) == sorted(cards("7H 9H 7D 9D 9C 10D 6C JS"))


def test_r_bout_9_no_take_when_everything_is_covered() -> None:
    """R-BOUT-9: take needs an uncovered card."""
    state = position("7H 8D", "8H 9S 10D", trump="S")
    state, _ = play(state, "0: attack 7H", "1: cover 7H with 8H")
    assert to_act(state) == (0,)
    assert refused(state, Take(1)) == "nothing_to_take"


# --- R-BOUT-10 ---------------------------------------------------------------------------


def test_r_bout_10_defender_adds_nothing_nobody_helps_defend() -> None:
    """R-BOUT-10: the defender cannot add attack cards and nobody else helps to defend."""
    state = position("7H 7S", "7D 8D 9D", "8H 9H", trump="C")
    state, _ = play(state, "0: attack 7H")
    assert refused(state, Throw(1, cards("7D"))) == "defender_cannot_throw"
    assert refused(state, "2: cover 7H with 8H") == "not_defender"
    assert refused(state, "0: take") == "not_defender"
    assert refused(state, "2: take") == "not_defender"
    _, events = play(state, "1: take")
    assert of_type(events, DeclaredTake) == [DeclaredTake(1)]
