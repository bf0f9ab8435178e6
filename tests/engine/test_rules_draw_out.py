"""RULES.md sections 8 and 9: drawing (R-DRAW-1..4), leaving, the durak, the draw
(R-OUT-1..6)."""

from __future__ import annotations

from helpers import card, cards, house, of_type, play, position, random_game, refused

from engine import (
    BeatenOff,
    BoutStarted,
    Covered,
    Drew,
    GameOver,
    PlayerOut,
    Took,
    legal_actions,
    to_act,
    view_for,
)

# --- R-DRAW-1 ----------------------------------------------------------------------------


def test_r_draw_1_draw_up_to_six_all_at_once() -> None:
    """R-DRAW-1: after the bout, players with fewer than six cards draw up to six, each
    taking all their cards at once (one Drew per player)."""
    state = position(
        "7H 7D 9C 10C JC QC", "8H 8D KH KD AH AD", "9H 10H JH QH KC AC", trump="S", rest="stock"
    )
    stock_before = len(state.stock)
    state, events = play(state, "0: attack 7H 7D", "1: cover 7H with 8H", "1: cover 7D with 8D")
    assert of_type(events, Drew) == [Drew(0, 2), Drew(1, 2)]
    assert [len(state.hand(s)) for s in range(3)] == [6, 6, 6]
    assert len(state.stock) == stock_before - 4
    assert set(state.hand(0)) >= set(cards("9C 10C JC QC"))


# --- R-DRAW-2 ----------------------------------------------------------------------------


def test_r_draw_2_attacker_first_then_clockwise_defender_last_after_a_take() -> None:
    """R-DRAW-2: the primary attacker draws first, then the others clockwise, the defender
    last, also when the defender took."""
    state = position(
        "7H 9C 10C JC QC KC",
        "8C 9D",
        "9H 10H JH QH KH",
        "7C JS QS KS AC AH",
        trump="S",
        rest="stock",
        rules=house(throw_in="all"),
    )
    state, events = play(state, "0: attack 7H", "3: throw 7C", "1: take")
    assert of_type(events, Took) != []
    assert of_type(events, Drew) == [Drew(0, 1), Drew(2, 1), Drew(3, 1), Drew(1, 2)]


def test_r_draw_2_order_follows_the_attacker_around_the_table() -> None:
    """R-DRAW-2: seat 2 attacks seat 3: draw order 2, 0, 1, then 3 (beaten off)."""
    state = position(
        "9H 10H JH QH KH",
        "9C 10C JC QC KC",
        "7H 7D JS QS KS AH",
        "8H 8D 9D 10D JD QD",
        trump="S",
        rest="stock",
        attacker=2,
    )
    _, events = play(state, "2: attack 7H 7D", "3: cover 7H with 8H", "3: cover 7D with 8D")
    assert of_type(events, BeatenOff) != []
    assert of_type(events, Drew) == [Drew(2, 2), Drew(0, 1), Drew(1, 1), Drew(3, 2)]


# --- R-DRAW-3 ----------------------------------------------------------------------------


def test_r_draw_3_more_than_six_keeps_them_and_draws_nothing() -> None:
    """R-DRAW-3: nobody discards down to six; a hand of more than six draws nothing."""
    state = position("7H 8C 9C 10C JC QC KC AC", "8H 9D 10D JD QD KD", trump="S", rest="stock")
    state, events = play(state, "0: attack 7H", "1: cover 7H with 8H", "0: pass")
    assert of_type(events, Drew) == [Drew(1, 1)]
    assert len(state.hand(0)) == 7


# --- R-DRAW-4 ----------------------------------------------------------------------------


def test_r_draw_4_trump_card_last_to_whoever_draws_it() -> None:
    """R-DRAW-4: the face-up trump card is the last card of the stock and goes to whoever
    draws it in turn; then nobody draws any more."""
    state = position(
        "7H 9D 10D JD QD KD", "8H 10S JS QS KS AS", "6D 9H 10H JH QH", trump="S", stock="9C 6S"
    )
    assert state.trump_card == card("6S")
    state, events = play(state, "0: attack 7H", "1: cover 7H with 8H")
    assert of_type(events, Drew) == [Drew(0, 1), Drew(2, 1)]
    assert card("9C") in state.hand(0)
    assert card("6S") in state.hand(2)
    assert state.stock == ()
    assert len(state.hand(1)) == 5
    view = view_for(state, 0)
    assert view.trump_card_holder == 2
    assert view.seen_in_hands[2] == cards("6S")
    assert view.seen_in_hands[1] == ()
    state, events = play(state, "1: attack 10S", "2: take", "0: pass")
    assert of_type(events, Took) == [Took(2, cards("10S"))]
    assert of_type(events, Drew) == []


# --- R-OUT-1 -----------------------------------------------------------------------------


def test_r_out_1_empty_hand_with_stock_left_draws() -> None:
    """R-OUT-1: while the stock has cards an empty hand does not end a player's game."""
    state = position("7H 7D", "8H 8D 9C 10C JC QC", trump="S", rest="stock")
    state, events = play(state, "0: attack 7H 7D", "1: cover 7H with 8H")
    assert state.hand(0) == []
    assert state.out == ()
    state, events = play(state, "1: cover 7D with 8D")
    assert of_type(events, PlayerOut) == []
    assert of_type(events, Drew) == [Drew(0, 6), Drew(1, 2)]
    assert state.out == ()
    assert of_type(events, BoutStarted) == [BoutStarted(1, 0, 6)]


# --- R-OUT-2 -----------------------------------------------------------------------------


def test_r_out_2_exit_only_when_the_bout_closes() -> None:
    """R-OUT-2: playing the last card with the stock empty does not end a player's game;
    the exit is checked when the bout closes."""
    state = position("7H", "8H 9C", trump="S")
    state, events = play(state, "0: attack 7H")
    assert state.hand(0) == []
    assert state.out == ()
    assert not state.finished
    assert view_for(state, 1).out == ()
    state, events = play(state, "1: take")
    assert of_type(events, PlayerOut) == [PlayerOut(0, 1)]
    assert events[-1] == GameOver(1)


def test_r_out_2_a_player_who_left_is_skipped() -> None:
    """R-OUT-2: a player who left is skipped from then on: not a thrower, not a defender."""
    state = position("7H 8D", "8H", "9D 7C", trump="S")
    state, events = play(state, "0: attack 7H", "1: cover 7H with 8H")
    assert state.out == (1,)
    assert of_type(events, BoutStarted) == [BoutStarted(2, 0, 1)]
    state, _ = play(state, "2: attack 9D")
    assert to_act(state) == (0,)
    assert legal_actions(state, 1) == []
    assert refused(state, "1: pass") == "player_out"


# --- R-OUT-3 -----------------------------------------------------------------------------


def test_r_out_3_last_card_covers_the_last_attack_and_the_bout_ends() -> None:
    """R-OUT-3: the defender covers the last uncovered card with the last card and no more
    cards may be added: the bout ends at once, though others hold eights."""
    state = position("7H 8D 9C", "8H", "8C 9H", trump="S")
    state, events = play(state, "0: attack 7H")
    state, events = play(state, "1: cover 7H with 8H")
    assert events[:3] == [
        Covered(1, card("8H"), card("7H")),
        BeatenOff(1, cards("7H 8H")),
        PlayerOut(1, 1),
    ]
    assert events[3:] == [BoutStarted(2, 0, 2)]


# --- R-OUT-4 -----------------------------------------------------------------------------


def test_r_out_4_last_player_holding_cards_is_the_durak() -> None:
    """R-OUT-4: when exactly one active player still holds cards, that player is the durak."""
    state = position("7H", "8H", "9C 10C", trump="S")
    state, events = play(state, "0: attack 7H", "1: cover 7H with 8H")
    assert events[-3:] == [PlayerOut(0, 1), PlayerOut(1, 2), GameOver(2)]
    assert state.finished
    assert state.durak == 2
    assert not state.is_draw
    assert to_act(state) == ()
    assert legal_actions(state, 2) == []
    assert refused(state, "2: attack 9C") == "game_over"


# --- R-OUT-5 -----------------------------------------------------------------------------


def test_r_out_5_nobody_left_holding_cards_is_a_draw() -> None:
    """R-OUT-5: a bout closes with the stock empty and no active player holding cards: a
    draw, no durak."""
    state = position("7H", "8H", trump="S")
    state, events = play(state, "0: attack 7H", "1: cover 7H with 8H")
    assert events[-3:] == [PlayerOut(0, 1), PlayerOut(1, 2), GameOver(None)]
    assert state.finished
    assert state.is_draw
    assert state.durak is None


def test_r_out_5_draw_with_a_player_already_out() -> None:
    """R-OUT-5: seat 2 left earlier; 0 and 1 leave together: a draw."""
    state = position("7H", "8H", "", trump="S")
    assert state.out == (2,)
    state, events = play(state, "0: attack 7H", "1: cover 7H with 8H")
    assert events[-1] == GameOver(None)
    assert of_type(events, PlayerOut) == [PlayerOut(0, 2), PlayerOut(1, 3)]
    assert state.is_draw


# --- R-OUT-6 -----------------------------------------------------------------------------


def test_r_out_6_order_of_leaving_is_the_finishing_place() -> None:
    """R-OUT-6: the order in which players leave is their finishing place."""
    state = position("7H", "8H 10C", "JC QC", trump="S")
    state, events = play(state, "0: attack 7H", "1: cover 7H with 8H")
    assert of_type(events, PlayerOut) == [PlayerOut(0, 1)]
    state, events = play(state, "1: attack 10C", "2: cover 10C with JC")
    assert events[-2:] == [PlayerOut(1, 2), GameOver(2)]
    assert state.out == (0, 1)


def test_r_out_6_places_in_random_games() -> None:
    """R-OUT-6: in whole games the places run 1, 2, 3... and cover everybody but the durak."""
    for seed in range(60):
        players = 2 + seed % 5
        state, events = random_game(players, seed=seed)
        outs = of_type(events, PlayerOut)
        assert [o.place for o in outs] == list(range(1, len(outs) + 1))
        assert tuple(o.player for o in outs) == state.out
        over = of_type(events, GameOver)
        assert over == [GameOver(state.durak)]
        if state.durak is None:
            assert sorted(state.out) == list(range(players))
        else:
            assert sorted([*state.out, state.durak]) == list(range(players))
