"""The variants of RULES.md section 13 and R-TR-4, one test (or more) per rule id.

Positions are built with ``helpers.position`` (every card of the deck placed exactly once);
the worked examples of the same section run from the page itself
(``test_rules_examples_variants.py``).
"""

from __future__ import annotations

import pytest
from helpers import card, cards, house, of_type, play, position, refused

from engine import (
    BeatenOff,
    Epaulettes,
    Exchange,
    Exchanged,
    GameOver,
    HouseRules,
    RulesError,
    SetupError,
    Suit,
    Take,
    TrumpChanged,
    legal_actions,
    new_game,
    next_dealer,
    next_game,
    to_act,
    view_for,
)

PAIRS = house(teams="pairs")


# --- 13.1 teams ----------------------------------------------------------------------------


def test_r_team_1_seats_alternate_between_teams() -> None:
    assert new_game(4, rules=PAIRS, seed=1).teams == ((0, 2), (1, 3))
    assert new_game(6, rules=PAIRS, seed=1).teams == ((0, 3), (1, 4), (2, 5))
    assert new_game(6, rules=house(teams="triples"), seed=1).teams == ((0, 2, 4), (1, 3, 5))
    assert new_game(4, seed=1).teams == ()
    assert new_game(4, rules=PAIRS, seed=1).partners(1) == (3,)


@pytest.mark.parametrize(("teams", "players"), [("pairs", 2), ("pairs", 3), ("pairs", 5),
                                                ("triples", 4), ("triples", 5)])  # fmt: skip
def test_r_team_1_other_player_counts_cannot_start(teams: str, players: int) -> None:
    rules = house(teams=teams)
    assert rules.player_problem(players) is not None
    with pytest.raises(SetupError) as raised:
        new_game(players, rules=rules, seed=1)
    assert raised.value.problem == "teams_player_count"


def test_r_team_2_the_defender_is_the_first_opponent_and_partners_never_throw_in() -> None:
    # Seat 1 is out: after seat 0 comes its partner 2, so seat 3 defends.
    state = position("7H 8S", "", "9D 10D", "JC QC", trump="S", rules=PAIRS)
    assert state.bout is not None and (state.bout.attacker, state.bout.defender) == (0, 3)
    # Six players in pairs {0, 3} {1, 4} {2, 5}: 0 attacks 1; under `all` the defender's
    # partner 4 is no thrower, under `neighbors` the throwers are 0 and 2.
    hands = ("7H", "8S", "9D", "10D", "JC", "QC")
    every = position(*hands, trump="S", rules=house(teams="pairs", throw_in="all"))
    assert every.bout is not None and every.bout.defender == 1
    assert every.bout.throwers == 0b101101
    neighbors = position(*hands, trump="S", rules=PAIRS)
    assert neighbors.bout is not None and neighbors.bout.throwers == 0b000101


def test_r_team_3_a_partner_attacks_for_a_player_who_is_out() -> None:
    state = position(
        "9H AC", "10H", "KD 9C", "QC QD", trump="S", rules=house(deck=24, teams="pairs")
    )
    state, _ = play(state, "0: attack 9H", "1: cover 9H with 10H")
    assert 1 in state.out
    assert state.bout is not None and (state.bout.attacker, state.bout.defender) == (3, 0)


def test_r_team_4_the_team_loses_together_and_names_one_durak() -> None:
    # Team {0, 2}: 2 is out and 0 leads its last card; team {1, 3} still holds cards.
    rules = house(deck=24, teams="pairs")
    state = position("9H", "10H JD", "", "QC", trump="S", rules=rules)
    state, events = play(state, "0: attack 9H", "1: cover 9H with 10H")
    assert state.finished and state.losing_team == (1, 3)
    assert state.durak == 1, "the first of the losing team clockwise after the last attacker"
    assert of_type(events, GameOver) == [GameOver(1)]
    assert view_for(state, 2).losing_team == (1, 3)


def test_r_team_4_r_var_3_the_durak_is_counted_from_after_the_last_attacker() -> None:
    # Seat 1 attacks seat 0 (its first active opponent: 2 is out, 3 a partner) and keeps
    # the JD; 0 covers with its last card, and team {0, 2} is out. Of the losers 1 and 3
    # both hold cards: counting starts after the last attacker, so 1 comes last.
    rules = house(deck=24, teams="pairs")
    state = position("10H", "9H JD", "", "QC", trump="S", rules=rules, attacker=1)
    assert state.bout is not None and state.bout.defender == 0
    state, _ = play(state, "1: attack 9H", "0: cover 9H with 10H")
    assert state.finished and state.losing_team == (1, 3)
    assert state.durak == 3 and card("JD") in state.hand(1)


def test_r_team_4_a_last_bout_that_empties_every_hand_is_a_draw() -> None:
    state = position("9H", "10H", "", "", trump="S", rules=house(deck=24, teams="pairs"))
    state, events = play(state, "0: attack 9H", "1: cover 9H with 10H")
    assert state.finished and state.durak is None and state.losing_team is None
    assert of_type(events, GameOver) == [GameOver(None)]


def test_r_team_4_the_next_game_is_dealt_by_the_durak_and_numbered() -> None:
    state = position("9H", "10H JD", "", "QC", trump="S", rules=house(deck=24, teams="pairs"))
    state, _ = play(state, "0: attack 9H", "1: cover 9H with 10H")
    assert next_dealer(state) == 1
    following = next_game(state, seed=3)
    assert following.dealer == 1 and following.game_number == 2
    assert following.teams == ((0, 2), (1, 3))


def test_r_team_5_a_partner_sees_nothing_of_a_partners_hand() -> None:
    state = new_game(4, rules=PAIRS, seed=5)
    for seat in range(4):
        for partner in state.partners(seat):
            opponent = (partner + 1) % 4
            seen_by_partner = view_for(state, seat).seen_in_hands[partner]
            assert seen_by_partner == view_for(state, opponent).seen_in_hands[partner]
            assert len(seen_by_partner) <= 1  # at most the lowest trump, shown to all


# --- 13.2 the trump six --------------------------------------------------------------------

SIX = house(trump_six_exchange=True)


def test_r_six_1_the_lowest_trump_goes_under_the_stock_for_the_face_up_card() -> None:
    state = position("6H 7S 8S 9C 10D JC", "7H 8H 9S 10C QS AS", stock="8D 9D KH", rules=SIX)
    assert Exchange(0) in legal_actions(state, 0)
    state, events = play(state, "0: exchange")
    assert events == [Exchanged(0, card("6H"), card("KH"))]
    assert card("KH") in state.hand(0) and card("6H") not in state.hand(0)
    assert state.stock == cards("8D 9D 6H") and state.trump_card == card("6H")
    assert state.trump == Suit.HEARTS
    assert card("KH") in view_for(state, 1).seen_in_hands[0], "everybody saw it"
    assert refused(state, "0: exchange") == "no_trump_six", "only once"


@pytest.mark.parametrize(("deck", "low"), [(24, "9H"), (36, "6H"), (52, "2H")])
def test_r_six_1_the_lowest_rank_of_the_deck(deck: int, low: str) -> None:
    rules = house(deck=deck, trump_six_exchange=True)
    state = position(f"{low} QS", "JS KS", stock="10S AH", rules=rules)
    assert legal_actions(state, 0)[0] == Exchange(0)


def test_r_six_1_not_with_fewer_than_two_cards_in_the_stock_nor_with_the_rule_off() -> None:
    late = position("6H 7S", "7H 8H", stock="KH", rules=SIX)
    assert Exchange(0) not in legal_actions(late, 0)
    assert refused(late, "0: exchange") == "exchange_too_late"
    off = position("6H 7S", "7H 8H", stock="8D KH")
    assert refused(off, "0: exchange") == "exchange_disabled"
    assert refused(position("7H 8H", "6H 7S", stock="8D KH", rules=SIX), "1: exchange") in (
        "not_your_turn",
        "no_trump_six",
    )


def test_r_six_2_the_exchange_does_not_use_the_turn_and_the_start_is_decided_first() -> None:
    # Seat 1 holds the lowest trump (6H), so seat 1 starts (R-START-1), then exchanges.
    state = position("7H 8S", "6H 7S", stock="8D KH", rules=SIX, attacker=None)
    assert state.bout is not None and state.bout.attacker == 1
    state, _ = play(state, "1: exchange")
    assert to_act(state) == (1,) and state.bout is not None and state.bout.attacks == ()
    state, events = play(state, "1: attack 7S", "0: cover 7S with 8S")
    assert of_type(events, BeatenOff), "seat 1 holds only the K♥ now: nothing to throw"


def test_r_var_4_an_exchange_that_leaves_a_thrower_nothing_passes_him() -> None:
    state = position("6S 6H JC", "7S 9C 10C", stock="8D 9D KH", rules=SIX)
    state, _ = play(state, "0: attack 6S", "1: cover 6S with 7S")
    assert 0 in to_act(state)  # the 6H could be thrown in
    state, events = play(state, "0: exchange")
    assert of_type(events, BeatenOff), "nothing left to throw: the bout closes"


# --- 13.3 the trump choices -----------------------------------------------------------------

DEALER = house(trump="dealer")


def test_r_trump_1_the_dealer_names_the_suit_and_no_card_is_turned() -> None:
    for suit in Suit:
        state = new_game(3, rules=DEALER, seed=9, trump=suit)
        assert state.trump == suit and state.trump_card is None
        assert len(state.stock) == 36 - 18
        lowest = min((c for s in range(3) for c in state.hand(s) if c.suit == suit), default=None)
        if lowest is not None:
            holder = next(s for s in range(3) if lowest in state.hand(s))
            assert state.bout is not None and state.bout.attacker == holder  # R-START-1
    with pytest.raises(SetupError) as raised:
        new_game(3, rules=DEALER, seed=9)
    assert raised.value.problem == "trump_not_named"
    with pytest.raises(SetupError) as raised:
        new_game(3, seed=9, trump=Suit.CLUBS)
    assert raised.value.problem == "trump_named_not_dealer"


def test_r_trump_1_a_deal_without_stock_shows_no_card() -> None:
    state = new_game(6, rules=DEALER, seed=2, trump=Suit.SPADES, attacker=0)
    assert state.stock == () and state.trump_card is None and not any(state.known)


def test_r_trump_2_japanese_diamonds_and_spades_only_by_higher_spades() -> None:
    rules = house(trump="japanese")
    state = new_game(2, rules=rules, seed=4)
    assert state.trump == Suit.DIAMONDS and state.trump_card is None
    game = position("10S 6C", "6D JS 9S AD", rules=rules, trump="D")
    game, _ = play(game, "0: attack 10S")
    assert [str(a) for a in legal_actions(game, 1)] == ["1: cover 10S with JS", "1: take"]
    game = position("10C 6C", "6D JS 9S AD", rules=rules, trump="D")
    game, _ = play(game, "0: attack 10C")
    assert "1: cover 10C with 6D" in [str(a) for a in legal_actions(game, 1)]
    with pytest.raises(SetupError) as raised:
        position("10C", "6D", rules=rules, trump="H")
    assert raised.value.problem == "japanese_trump_is_diamonds"


def test_r_trump_3_northern_deal_bottom_card_hidden_then_the_trump_changes() -> None:
    rules = house(trump="northern")
    state = new_game(2, rules=rules, seed=11)
    assert state.trump_card is not None and state.stock[-2] == state.trump_card
    assert state.trump == state.trump_card.suit and state.bottom_card_hidden
    bottom = state.stock[-1]
    for seat in range(2):
        view = view_for(state, seat)
        shown = {c for hand in view.seen_in_hands for c in hand} | {view.trump_card}
        assert bottom not in shown or bottom in state.hand(seat)
    game = position("6S 7D 8D 9D 10D JD", "7S JH KH AH 6C 8C", stock="QH 7C", rules=rules)
    assert game.trump == Suit.HEARTS
    game, events = play(game, "0: attack 6S", "1: cover 6S with 7S", "0: pass")
    assert of_type(events, TrumpChanged) == [TrumpChanged(1, card("7C"))]
    assert game.trump == Suit.CLUBS and not game.bottom_card_hidden
    assert card("7C") in view_for(game, 0).seen_in_hands[1]
    assert card("QH") in view_for(game, 1).seen_in_hands[0]
    # Clubs beat now, hearts no more (the 6C beats the JH led by seat 1? seat 1 attacks).
    assert game.bout is not None and game.bout.attacker == 1


def test_r_trump_3_no_stock_no_change() -> None:
    state = new_game(6, rules=house(trump="northern"), seed=3)
    assert state.stock == () and not state.bottom_card_hidden
    assert state.trump_card is not None and state.trump_card in state.hand(state.dealer)


def test_r_var_5_the_change_is_told_also_when_the_suit_stays() -> None:
    game = position("6S 7D 8D 9D 10D JD", "7S JH KH AH 6C 8C", stock="QH 7H",
                    rules=house(trump="northern"))  # fmt: skip
    game, events = play(game, "0: attack 6S", "1: cover 6S with 7S", "0: pass")
    assert of_type(events, TrumpChanged) == [TrumpChanged(1, card("7H"))]
    assert game.trump == Suit.HEARTS


# --- 13.4 the top queens ----------------------------------------------------------------------


def test_r_top_1_the_queen_of_spades_beats_everything_and_nothing_beats_it() -> None:
    rules = house(top_card="queen_of_spades")
    state = position("AD QC", "KS AS 6D", trump="D", rules=rules)
    state, _ = play(state, "0: attack AD")
    assert [str(a) for a in legal_actions(state, 1)] == ["1: take"]  # no Q♠ in seat 1
    state = position("AD 7C", "QS 8C", trump="D", rules=rules)
    state, _ = play(state, "0: attack AD")
    assert "1: cover AD with QS" in [str(a) for a in legal_actions(state, 1)]
    state = position("QS 7C", "AD AS KS", trump="S", rules=rules)
    state, _ = play(state, "0: attack QS")
    assert [str(a) for a in legal_actions(state, 1)] == ["1: take"]
    assert refused(state, "1: cover QS with AS") == "does_not_beat"


def test_r_top_1_a_queen_of_spades_is_transferred_with_a_queen() -> None:
    rules = house(top_card="queen_of_spades", transfer=True)
    state = position("QS 7C", "QD 8C", "9C 10C JC", trump="D", rules=rules)
    state, _ = play(state, "0: attack QS")
    assert [str(a) for a in legal_actions(state, 1)] == ["1: take", "1: transfer with QD"]


def test_r_top_2_r_var_6_the_queen_of_hearts_blocks_throw_ins_until_the_bout_closes() -> None:
    rules = house(top_card="queen_of_hearts")
    state = position("AD AC 7C 7D", "QH 6S 8S 9S", trump="D", rules=rules)
    state, _ = play(state, "0: attack AD", "0: throw AC")
    state, _ = play(state, "1: cover AD with QH")
    assert refused(state, "0: throw 7C") in ("queen_of_hearts_covered", "rank_not_on_table")
    state, events = play(state, "1: take")
    assert of_type(events, BeatenOff) == [] and state.bout is not None
    assert card("AD") in state.hand(1) and card("AC") in state.hand(1)


def test_r_var_6_the_queen_of_hearts_is_a_trump_above_all_but_never_on_a_japanese_spade() -> None:
    rules = house(top_card="queen_of_hearts", trump="japanese")
    state = position("AD 10S", "QH 6C", trump="D", rules=rules)
    state, _ = play(state, "0: attack AD")
    assert "1: cover AD with QH" in [str(a) for a in legal_actions(state, 1)]
    state = position("10S AD", "QH 6C", trump="D", rules=rules)
    state, _ = play(state, "0: attack 10S")
    assert [str(a) for a in legal_actions(state, 1)] == ["1: take"]


# --- 13.5 epaulettes -----------------------------------------------------------------------

TITLE = house(pogony="title")


def test_r_pog_1_two_lowest_cards_as_the_last_attack_give_epaulettes() -> None:
    state = position("6S 6H", "7S 7H 9C", trump="D", rules=TITLE)
    state, events = play(state, "0: attack 6S 6H", "1: cover 6S with 7S", "1: cover 6H with 7H")
    assert state.durak == 1 and state.epaulettes
    assert of_type(events, Epaulettes) == [Epaulettes(1)]
    assert view_for(state, 0).epaulettes


def test_r_pog_1_a_taken_epaulette_attack_counts_too_and_one_card_does_not() -> None:
    state = position("6S 6H", "7C 8C 9C", trump="D", rules=TITLE)
    state, _ = play(state, "0: attack 6S 6H", "1: take")
    assert state.durak == 1 and state.epaulettes
    single = position("6S", "7S 9C", trump="D", rules=TITLE)
    single, _ = play(single, "0: attack 6S", "1: cover 6S with 7S")
    assert single.durak == 1 and not single.epaulettes


def test_r_var_7_no_epaulettes_for_the_openers_partner() -> None:
    # Pairs: 0 leads its last two nines to 1, who covers with its last cards; 3 is out, so
    # team {1, 3} is out and team {0, 2} lost: the durak is 2, the opener's partner.
    rules = house(pogony="title", teams="pairs", deck=24)
    state = position("9S 9H", "10S 10H", "AC", "", trump="D", rules=rules)
    state, _ = play(state, "0: attack 9S 9H", "1: cover 9S with 10S", "1: cover 9H with 10H")
    assert state.finished and state.durak == 2 and state.losing_team == (0, 2)
    assert not state.epaulettes


RANKS_BY_GAME = [
    (36, 1, "6"),
    (36, 2, "7"),
    (36, 9, "A"),
    (36, 10, "6"),
    (24, 7, "9"),
    (52, 2, "3"),
]


@pytest.mark.parametrize(("deck", "game", "rank"), RANKS_BY_GAME)
def test_r_pog_2_the_epaulette_rank_rises_game_by_game(deck: int, game: int, rank: str) -> None:
    rules = house(deck=deck, pogony="strict")
    hand = f"{rank}S {rank}H {rank}C"
    state = position(hand, "QS KS", trump="D", rules=rules, game_number=game)
    assert state.bout is not None and state.bout.limit == 2
    state, _ = play(state, f"0: attack {hand}")  # over the limit of two
    assert legal_actions(state, 1) == [Take(1)]
    assert refused(state, f"1: cover {rank}S with KS") in (
        "epaulette_attack",
        "does_not_beat",
    )
    state, events = play(state, "1: take")
    assert state.durak == 1 and state.epaulettes
    assert of_type(events, Epaulettes) == [Epaulettes(1)]


def test_r_pog_2_not_with_a_stock_not_a_single_trump_and_others_play_as_usual() -> None:
    rules = house(pogony="strict")
    with_stock = position("6S 6H 6C", "QS KS", stock="7D 8D", trump="D", rules=rules)
    assert refused(with_stock, "0: attack 6S 6H 6C") == "over_limit"
    trump = position("6D", "QS KS", trump="D", rules=rules)
    trump, _ = play(trump, "0: attack 6D")
    assert "1: cover 6D with KS" not in [str(a) for a in legal_actions(trump, 1)]
    assert len(legal_actions(trump, 1)) == 1  # only take: nothing beats 6D here
    part = position("6S 6H 6C", "7S 8S 9S", trump="D", rules=rules)
    part, _ = play(part, "0: attack 6S 6H")
    assert "1: cover 6S with 7S" in [str(a) for a in legal_actions(part, 1)]


def test_r_pog_2_the_epaulette_attack_cannot_be_transferred_or_thrown_to() -> None:
    rules = house(pogony="strict", transfer=True, throw_in="all")
    state = position("6S 6H", "6C 7S", "6D 8S", trump="D", rules=rules)
    state, _ = play(state, "0: attack 6S 6H")
    assert refused(state, "1: transfer with 6C") == "epaulette_attack"
    assert refused(state, "2: throw 6D") == "epaulette_attack"
    assert state.epaulette_attack and view_for(state, 2).epaulette_attack


# --- R-TR-4, R-VAR-8 ---------------------------------------------------------------------------


def test_r_tr_4_r_var_8_no_transfer_in_the_first_bout_with_the_rule_off() -> None:
    rules = house(transfer=True, transfer_first_bout=False)
    first = position("7S 9C", "7H 10C", "8S 8H", trump="D", rules=rules)
    first, _ = play(first, "0: attack 7S")
    assert "1: transfer with 7H" not in [str(a) for a in legal_actions(first, 1)]
    assert refused(first, "1: transfer with 7H") == "transfer_first_bout"
    later = position("7S 9C", "7H 10C", "8S 8H", trump="D", rules=rules, bouts_played=1)
    later, _ = play(later, "0: attack 7S")
    assert "1: transfer with 7H" in [str(a) for a in legal_actions(later, 1)]
    on = position("7S 9C", "7H 10C", "8S 8H", trump="D", rules=house(transfer=True))
    on, _ = play(on, "0: attack 7S")
    assert "1: transfer with 7H" in [str(a) for a in legal_actions(on, 1)]


def test_r_var_2_a_transfer_goes_to_the_first_opponent() -> None:
    rules = house(teams="pairs", transfer=True)
    state = position("7S 9C", "7H 10C", "8S 8H", "JD QD", trump="D", rules=rules, bouts_played=1)
    state, _ = play(state, "0: attack 7S", "1: transfer with 7H")
    assert state.bout is not None and (state.bout.attacker, state.bout.defender) == (1, 2)


# --- R-VAR-1 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("values", "problem"), [
    ({"trump_six_exchange": True, "trump": "dealer"}, "exchange_needs_turned_trump"),
    ({"trump_six_exchange": True, "trump": "northern"}, "exchange_needs_turned_trump"),
    ({"teams": "triples", "deck": 24}, "teams_need_seats"),
    ({"teams": "pairs", "max_players": 3}, "teams_need_seats"),
    ({"teams": "both"}, "bad_value"),
    ({"tea": "pairs"}, "unknown_key"),
])  # fmt: skip
def test_r_var_1_impossible_combinations_are_refused_when_the_rules_are_made(
    values: dict[str, object], problem: str
) -> None:
    with pytest.raises(RulesError) as raised:
        HouseRules.from_dict(values)
    assert raised.value.problem == problem


def test_r_var_1_transfer_first_bout_without_transfer_changes_nothing() -> None:
    rules = house(transfer_first_bout=False)
    a = new_game(3, rules=rules, seed=8)
    b = new_game(3, seed=8)
    assert a.hands == b.hands and a.bout == b.bout
