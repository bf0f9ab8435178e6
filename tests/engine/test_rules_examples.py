"""RULES.md section 12: the worked examples from the sources, each as a test.

Players in the examples are numbered from 1; seats here count from 0 (player 1 = seat 0).
"""

from __future__ import annotations

from helpers import card, cards, house, of_type, play, position, refused

from engine import (
    BeatenOff,
    BoutStarted,
    Drew,
    GameState,
    PlayerOut,
    Take,
    Took,
    legal_actions,
    to_act,
    view_for,
)


def s0_limit_position() -> GameState:
    """Stock empty, trump D; the defender (seat 1) holds 9H JD 6C: limit 3."""
    return position("8H 9S JH 8S", "9H JD 6C", trump="D")


def test_example_1_s0_limit_is_the_defenders_hand() -> None:
    """Example 1 (S0 §07): 8H attacked, 9H covers; 9S thrown, JD covers; JH thrown; 6C does
    not beat JH: the defender takes five cards and holds six; no fourth attack card."""
    state = s0_limit_position()
    assert view_for(state, 0).limit == 3
    state, _ = play(
        state,
        "0: attack 8H",
        "1: cover 8H with 9H",
        "0: throw 9S",
        "1: cover 9S with JD",
        "0: throw JH",
    )
    assert refused(state, "1: cover JH with 6C") == "does_not_beat"
    assert refused(state, "0: throw 8S") == "over_limit"
    assert legal_actions(state, 1) == [Take(1)]
    state, events = play(state, "1: take")
    took = of_type(events, Took)
    assert len(took) == 1 and sorted(took[0].cards) == sorted(cards("8H 9H 9S JD JH"))
    assert sorted(state.hand(1)) == sorted(cards("8H 9H 9S JD JH 6C"))
    assert of_type(events, BoutStarted) == [BoutStarted(0, 1, 6)]


def test_example_1_s0_stopping_after_two_covered_cards() -> None:
    """Example 1, the other ending: the attacker stops after two covered cards: four cards
    go to the discard, the defender keeps 6C and attacks next."""
    state = s0_limit_position()
    discard_before = state.discard.bit_count()
    state, events = play(
        state,
        "0: attack 8H",
        "1: cover 8H with 9H",
        "0: throw 9S",
        "1: cover 9S with JD",
        "0: pass",
    )
    assert sorted(of_type(events, BeatenOff)[0].cards) == sorted(cards("8H 9H 9S JD"))
    assert state.discard.bit_count() == discard_before + 4
    assert state.hand(1) == [card("6C")]
    assert of_type(events, BoutStarted) == [BoutStarted(1, 0, 2)]


def test_example_2_s1_four_players_throw_in_all() -> None:
    """Example 2 (S1 §5): trump S, throw_in all. Player 4 attacks player 1 with 7H, covered
    by 10H; player 2 throws 10D, covered by 8S; player 3 throws 8C, covered by QC; nobody can
    add: six cards to the discard; drawing order 4, 2, 3, then 1; player 1 attacks 2 next."""
    state = position(
        "10H 8S QC 6C 7C 9H",
        "10D 6H JH KH AH 9D",
        "8C 6D JD KD AD 9C",
        "7H 6S JS KS AS JC",
        trump="S",
        rest="stock",
        rules=house(throw_in="all"),
        attacker=3,
    )
    assert state.bout is not None and state.bout.defender == 0
    state, _ = play(state, "3: attack 7H", "0: cover 7H with 10H")
    assert to_act(state) == (1,)
    state, _ = play(state, "1: throw 10D")
    assert refused(state, "0: cover 10D with 9H") == "does_not_beat"
    state, _ = play(state, "0: cover 10D with 8S", "2: throw 8C")
    state, events = play(state, "0: cover 8C with QC")
    assert sorted(of_type(events, BeatenOff)[0].cards) == sorted(cards("7H 10H 10D 8S 8C QC"))
    assert of_type(events, Drew) == [Drew(3, 1), Drew(1, 1), Drew(2, 1), Drew(0, 3)]
    assert of_type(events, BoutStarted) == [BoutStarted(0, 1, 6)]


def test_example_3_s4_what_defence_opens() -> None:
    """Example 3 (S4 ex. 1): trump H, three players; 8S attacked, covered by 10S. A thrower
    holding 8D 10C 9H QS may throw 8D and 10C, not 9H (a trump, no nine on the table),
    not QS."""
    state = position("8S 6C", "10S 7C 7D JC", "8D 10C 9H QS", trump="H")
    state, _ = play(state, "0: attack 8S", "1: cover 8S with 10S")
    assert to_act(state) == (2,)
    assert {str(a) for a in legal_actions(state, 2)} == {
        "2: throw 8D",
        "2: throw 10C",
        "2: throw 8D 10C",
        "2: pass",
    }
    assert refused(state, "2: throw 9H") == "rank_not_on_table"
    assert refused(state, "2: throw QS") == "rank_not_on_table"


def test_example_4_s4_limit_is_the_defenders_hand() -> None:
    """Example 4 (S4 ex. 2): trump D, four players, stock empty, the defender holds two
    cards. KC attacked; a thrower holding KS KH KD may add exactly one king; AC covers KC,
    6D the added king: beaten off, the defender leaves; the thrower keeps two kings."""
    state = position("KC 7C", "AC 6D", "KS KH KD", "9S", trump="D")
    state, _ = play(state, "0: attack KC")
    assert {str(a) for a in legal_actions(state, 2)} == {
        "2: throw KS",
        "2: throw KH",
        "2: throw KD",
        "2: pass",
    }
    assert refused(state, "2: throw KS KH") == "over_limit"
    state, _ = play(state, "2: throw KS", "1: cover KC with AC")
    state, events = play(state, "1: cover KS with 6D")
    assert sorted(of_type(events, BeatenOff)[0].cards) == sorted(cards("KC AC KS 6D"))
    assert of_type(events, PlayerOut) == [PlayerOut(1, 1)]
    assert state.hand(1) == [] and state.stock == ()
    assert sorted(state.hand(2)) == sorted(cards("KH KD"))


def test_example_5_s4_one_uncovered_card_takes_the_whole_table() -> None:
    """Example 5 (S4 ex. 3): trump S, three players, discard not empty. Table 7D/9D, 7C/JC,
    9S/QS; JH is thrown in; the defender cannot beat it and takes all eight cards, from two
    to ten; the next player after the defender attacks."""
    state = position(
        "7D 7C 9S JH 10H KH",
        "9D JC QS 8H 6C",
        "6D 8D 10D 8C 10C KC",
        trump="S",
        discard="6H 6S",
        rest="stock",
    )
    assert state.discard != 0
    state, _ = play(
        state,
        "0: attack 7D",
        "1: cover 7D with 9D",
        "0: throw 7C",
        "1: cover 7C with JC",
        "0: throw 9S",
        "1: cover 9S with QS",
        "0: throw JH",
    )
    assert len(state.hand(1)) == 2
    assert legal_actions(state, 1) == [Take(1)]
    state, events = play(state, "1: take")
    took = of_type(events, Took)
    assert len(took) == 1
    assert sorted(took[0].cards) == sorted(cards("7D 9D 7C JC 9S QS JH"))
    assert len(state.hand(1)) == 9
    assert of_type(events, BoutStarted) == [BoutStarted(2, 0, 6)]


def test_example_6_s1_who_starts() -> None:
    """Example 6 (S1 §3): trump card 9S face up; player 4 holds 6S, the lowest trump in any
    hand, and attacks player 1, the next player clockwise."""
    state = position(
        "7H 8H 10D JC QC KD",
        "7S 9H 10H JD QD KC",
        "8S 9D 10C JH QH AC",
        "6S 6H 6D 7D 8D 9C",
        stock="9S",
        rest="stock",
        attacker=None,
    )
    assert state.trump_card == card("9S")
    assert state.bout is not None
    assert (state.bout.attacker, state.bout.defender) == (3, 0)
    assert view_for(state, 0).seen_in_hands[3] == cards("6S")
