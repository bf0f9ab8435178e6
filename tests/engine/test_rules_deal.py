"""RULES.md sections 3 and 4: the deck, the deal, the trump, who attacks first."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from helpers import (
    RANKS,
    all_cards,
    card,
    cards,
    deck,
    house,
    lowest_trump,
    of_type,
    play,
    position,
    random_steps,
)

from engine import (
    Attacked,
    BeatenOff,
    Drew,
    GameOver,
    GameState,
    PlayerOut,
    legal_actions,
    new_game,
    next_game,
    view_for,
)

# --- R-DECK-1 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "lowest"), [(24, "9"), (36, "6"), (52, "2")])
def test_r_deck_1_deck_holds_its_ranks_in_four_suits(size: int, lowest: str) -> None:
    """R-DECK-1: 36 cards are 6..A, 24 are 9..A, 52 are 2..A, in four suits, no jokers."""
    state = new_game(2, rules=house(deck=size), seed=size)
    ranks = RANKS[RANKS.index(lowest) :]
    expected = sorted(f"{r}{s}" for r in ranks for s in "SHDC")
    assert len(expected) == size
    assert sorted(map(str, all_cards(state))) == expected
    assert sorted(map(str, deck(size))) == expected


@pytest.mark.parametrize(("low", "high"), list(pairwise(RANKS)))
def test_r_deck_1_ranks_run_low_to_high(low: str, high: str) -> None:
    """R-DECK-1: ranks low to high are 2 3 4 5 6 7 8 9 10 J Q K A: the next rank up beats
    a card of its suit, the next rank down does not."""
    rules = house(deck=52)
    up = position(f"{low}H", f"{high}H", trump="C", rules=rules)
    _, events = play(up, f"0: attack {low}H", f"1: cover {low}H with {high}H")
    assert of_type(events, BeatenOff) == [BeatenOff(1, cards(f"{low}H {high}H"))]
    down = position(f"{high}H", f"{low}H", trump="C", rules=rules)
    down, _ = play(down, f"0: attack {high}H")
    assert [str(a) for a in legal_actions(down, 1)] == ["1: take"]


# --- R-DEAL-1 ----------------------------------------------------------------------------


def finished_with_durak() -> GameState:
    """Three players, stock empty: 0 and 1 go out in one bout, seat 2 is the durak."""
    state = position("7H", "8H", "9C 10C", trump="S", dealer=0)
    state, events = play(state, "0: attack 7H", "1: cover 7H with 8H")
    assert events[-1] == GameOver(2)
    return state


def finished_in_a_draw(dealer: int) -> GameState:
    state = position("7H", "8H", trump="S", dealer=dealer)
    state, events = play(state, "0: attack 7H", "1: cover 7H with 8H")
    assert events[-1] == GameOver(None)
    return state


def test_r_deal_1_first_dealer_by_lot() -> None:
    """R-DEAL-1: the first dealer of a table is chosen by lot (reproducibly per seed)."""
    dealers = {new_game(4, seed=seed).dealer for seed in range(80)}
    assert dealers == {0, 1, 2, 3}
    assert new_game(4, seed=11).dealer == new_game(4, seed=11).dealer
    assert new_game(4, seed=11, dealer=2).dealer == 2


def test_r_deal_1_loser_deals_the_next_game() -> None:
    """R-DEAL-1: later games are dealt by the loser."""
    previous = finished_with_durak()
    for seed in range(5):
        assert next_game(previous, seed=seed).dealer == 2


@pytest.mark.parametrize("dealer", [0, 1])
def test_r_deal_1_after_a_draw_the_same_dealer_deals_again(dealer: int) -> None:
    """R-DEAL-1: after a draw the same dealer deals again."""
    previous = finished_in_a_draw(dealer)
    assert previous.durak is None
    assert next_game(previous, seed=3).dealer == dealer


# --- R-DEAL-2 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "players"), [(24, 2), (24, 4), (36, 3), (36, 6), (52, 8)])
def test_r_deal_2_six_cards_to_every_player(size: int, players: int) -> None:
    """R-DEAL-2: six cards to every player; the rest of the deck is the stock."""
    for seed in range(10):
        state = new_game(players, rules=house(deck=size), seed=seed)
        assert [len(state.hand(s)) for s in range(players)] == [6] * players
        assert len(state.stock) == size - 6 * players
        assert len(set(all_cards(state))) == size


@pytest.mark.parametrize(("size", "players"), [(24, 4), (36, 6)])
def test_r_deal_2_dealing_starts_left_of_the_dealer(size: int, players: int) -> None:
    """R-DEAL-2: one card at a time clockwise from the dealer's left neighbour, so in a deal
    of the whole deck the last card dealt (the shown trump card, R-DEAL-4) is the
    dealer's."""
    for dealer in range(players):
        state = new_game(players, rules=house(deck=size), seed=dealer, dealer=dealer)
        assert state.trump_card in state.hand(dealer)


# --- R-DEAL-3 ----------------------------------------------------------------------------


def test_r_deal_3_trump_card_lies_under_the_stock_and_is_drawn_last() -> None:
    """R-DEAL-3: the next card after the deal is turned face up, its suit is trump for the
    whole game, and it is the last card drawn."""
    for seed in range(20):
        state = new_game(3, seed=seed)
        assert state.trump_card is not None
        assert state.stock[-1] == state.trump_card
        assert state.trump == state.trump_card.suit
        assert all(state.trump_card not in state.hand(s) for s in range(3))
        for seat in range(3):
            view = view_for(state, seat)
            assert view.trump_card == state.trump_card
            assert view.stock_size == 36 - 18
        rng = random.Random(seed)
        for before, _, after, events in random_steps(state, rng):
            assert after.trump == state.trump
            if before.stock and not after.stock:
                last_drawer = of_type(events, Drew)[-1].player
                assert state.trump_card in after.hand(last_drawer)
                other = (last_drawer + 1) % 3
                assert view_for(after, other).trump_card_holder == last_drawer
                assert state.trump_card in view_for(after, other).seen_in_hands[last_drawer]
                break
        else:
            pytest.fail("the stock never ran out")


# --- R-DEAL-4 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "players"), [(24, 4), (36, 6)])
def test_r_deal_4_whole_deck_dealt_trump_card_stays_with_dealer(size: int, players: int) -> None:
    """R-DEAL-4: when the deal uses the whole deck there is no stock; the dealer's last card
    is shown, its suit is trump, and it stays in the dealer's hand for all to know."""
    for dealer in range(players):
        state = new_game(players, rules=house(deck=size), seed=100 + dealer, dealer=dealer)
        assert state.stock == ()
        assert state.trump_card is not None
        assert state.trump == state.trump_card.suit
        assert state.trump_card in state.hand(dealer)
        other = (dealer + 1) % players
        view = view_for(state, other)
        assert view.trump_card == state.trump_card
        assert view.trump_card_holder == dealer
        assert state.trump_card in view.seen_in_hands[dealer]


# --- R-START-1 ---------------------------------------------------------------------------


def test_r_start_1_lowest_trump_attacks_first() -> None:
    """R-START-1: in the first game the holder of the lowest trump attacks first."""
    checked = 0
    for players in (2, 3, 4, 5, 6):
        for seed in range(40):
            state = new_game(players, seed=seed)
            holder = lowest_trump(state)
            if holder is None:
                continue
            assert state.bout is not None
            assert state.bout.attacker == holder[0], (players, seed)
            checked += 1
    assert checked > 150


def test_r_start_1_lowest_trump_is_shown_but_need_not_be_played() -> None:
    """R-START-1: the lowest trump is announced (everyone sees it) but need not be played."""
    state = position("7S 9H", "6S 10D", "8S JC", trump="S", rest="stock", attacker=None)
    assert state.bout is not None
    assert (state.bout.attacker, state.bout.defender) == (1, 2)
    for seat in (0, 2):
        assert view_for(state, seat).seen_in_hands[1] == cards("6S")
    assert view_for(state, 0).seen_in_hands[2] == ()
    state, events = play(state, "1: attack 10D")
    assert events == [Attacked(1, cards("10D"))]
    assert card("6S") in state.hand(1)


# --- R-START-2 ---------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_r_start_2_no_trump_dealt_dealer_left_attacks(dealer: int) -> None:
    """R-START-2 with no_trump_start=dealer_left: nobody holds a trump, so the dealer's left
    neighbour attacks first."""
    for seed in range(5):
        state = position(
            "7H 9H", "6D 10D", "8C JC", trump="S", dealer=dealer, attacker=None, seed=seed
        )
        assert state.bout is not None
        assert state.bout.attacker == (dealer + 1) % 3


def test_r_start_2_no_trump_dealt_in_new_games() -> None:
    """R-START-2: in new games where no hand holds a trump, the dealer's left attacks."""
    found = 0
    for seed in range(3000):
        state = new_game(2, seed=seed)
        if lowest_trump(state) is None:
            assert state.bout is not None
            assert state.bout.attacker == (state.dealer + 1) % 2
            found += 1
    assert found >= 5


def test_r_start_2_no_trump_dealt_random_start() -> None:
    """R-START-2 with no_trump_start=random: the first attacker is drawn by lot."""
    rules = house(no_trump_start="random")
    attackers = set()
    for seed in range(60):
        state = position(
            "7H 9H", "6D 10D", "8C JC", trump="S", rules=rules, dealer=2, attacker=None, seed=seed
        )
        assert state.bout is not None
        attackers.add(state.bout.attacker)
    assert attackers == {0, 1, 2}


# --- R-START-3 ---------------------------------------------------------------------------


def test_r_start_3_next_game_starts_relative_to_the_loser() -> None:
    """R-START-3 (default from_under_fool): the loser's left neighbour attacks next game."""
    previous = finished_with_durak()  # seat 2 is the durak
    state = next_game(previous, seed=1)
    assert state.bout is not None
    assert (state.bout.attacker, state.bout.defender) == (0, 1)


def test_r_start_3_after_a_draw_relative_to_the_dealer() -> None:
    """R-START-3: after a draw the next game starts relative to the (unchanged) dealer."""
    previous = finished_in_a_draw(dealer=1)
    state = next_game(previous, seed=1)
    assert state.bout is not None
    assert (state.dealer, state.bout.attacker) == (1, 0)


def test_r_start_3_loser_gone_first_game_rule() -> None:
    """R-START-3: if that player is no longer at the table, R-START-1 decides."""
    previous = finished_with_durak()
    for seed in range(20):
        state = next_game(previous, seed=seed, remaining=[0, 1])
        assert state.bout is not None
        holder = lowest_trump(state)
        expected = (state.dealer + 1) % 2 if holder is None else holder[0]
        assert state.bout.attacker == expected


# --- R-START-4 ---------------------------------------------------------------------------


def test_r_start_4_defender_is_next_clockwise() -> None:
    """R-START-4: the defender is the next active player clockwise from the attacker."""
    for players in range(2, 7):
        for seed in range(10):
            state = new_game(players, seed=seed)
            assert state.bout is not None
            assert state.bout.defender == (state.bout.attacker + 1) % players


def test_r_start_4_defender_skips_players_who_are_out() -> None:
    """R-START-4: players who left are skipped: seat 1 is out, so 0 attacks seat 2."""
    state = position("7H 10C", "", "8H 9C", "JS QS", trump="D")
    assert state.out == (1,)
    assert state.bout is not None
    assert (state.bout.attacker, state.bout.defender) == (0, 2)
    state = position("7H 10C", "", "8H 9C", "JS QS", trump="D", attacker=3)
    assert state.bout is not None
    assert (state.bout.attacker, state.bout.defender) == (3, 0)


def test_r_start_4_after_exits_in_play() -> None:
    """R-START-4 in play: after seat 1 goes out, seat 2 attacks seat 3, then 3 attacks 0."""
    state = position("7H 10C", "8H", "9D JD", "QC KD", trump="S")
    state, events = play(state, "0: attack 7H", "1: cover 7H with 8H")
    assert of_type(events, PlayerOut) == [PlayerOut(1, 1)]
    assert state.bout is not None
    assert (state.bout.attacker, state.bout.defender) == (2, 3)
    state, _ = play(state, "2: attack 9D", "3: take")
    assert state.bout is not None
    assert (state.bout.attacker, state.bout.defender) == (0, 2)
