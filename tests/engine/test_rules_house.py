"""RULES.md section 2: the house rules, every value (throw_in, first_bout_limit,
no_trump_start, next_game_start, transfer, deck and max_players)."""

from __future__ import annotations

import pytest
from helpers import cards, house, lowest_trump, play, position, refused

from engine import (
    FirstBoutLimit,
    GameOver,
    GameState,
    HouseRules,
    NextGameStart,
    NoTrumpStart,
    RulesError,
    SetupError,
    ThrewIn,
    ThrowIn,
    legal_actions,
    new_game,
    next_game,
    to_act,
)


def lowest_trump_holder(state: GameState) -> int | None:
    found = lowest_trump(state)
    return None if found is None else found[0]


def test_house_rule_defaults() -> None:
    """Section 2 defaults: 36 cards, 6 players, neighbors, no first-bout limit, dealer_left,
    from_under_fool, no transfer."""
    rules = HouseRules()
    assert (rules.deck, rules.max_players, rules.transfer) == (36, 6, False)
    assert rules.throw_in is ThrowIn.NEIGHBORS
    assert rules.first_bout_limit is FirstBoutLimit.NONE
    assert rules.no_trump_start is NoTrumpStart.DEALER_LEFT
    assert rules.next_game_start is NextGameStart.FROM_UNDER_FOOL


# --- throw_in ----------------------------------------------------------------------------


def opened(throw_in: str) -> GameState:
    """Seat 0 attacked seat 1 with 7H, covered by 9H; seat 2 is the defender's left
    neighbour holding 9D, seat 3 is neither and holds 7C 9C."""
    state = position(
        "7H 10C",
        "9H JD QD",
        "9D 6C",
        "7C 9C",
        trump="S",
        rest="stock",
        rules=house(throw_in=throw_in),
    )
    state, _ = play(state, "0: attack 7H", "1: cover 7H with 9H")
    return state


def test_house_throw_in_neighbors() -> None:
    """throw_in=neighbors: only the attacker and the defender's left neighbour throw in."""
    state = opened("neighbors")
    assert to_act(state) == (2,)
    assert refused(state, "3: throw 7C") == "not_a_thrower"
    _, events = play(state, "2: throw 9D")
    assert events == [ThrewIn(2, cards("9D"))]


def test_house_throw_in_all() -> None:
    """throw_in=all: every active player but the defender throws any rank on the table."""
    state = opened("all")
    assert to_act(state) == (2, 3)
    assert {str(a) for a in legal_actions(state, 3)} == {
        "3: throw 7C",
        "3: throw 9C",
        "3: throw 7C 9C",
        "3: pass",
    }
    _, events = play(state, "3: throw 9C")
    assert events == [ThrewIn(3, cards("9C"))]


def test_house_throw_in_neighbors_first_rank() -> None:
    """throw_in=neighbors_first_rank: the two neighbours throw any rank on the table, every
    other player only the rank of the bout's first attack card."""
    state = opened("neighbors_first_rank")
    assert to_act(state) == (2, 3)
    assert {str(a) for a in legal_actions(state, 3)} == {"3: throw 7C", "3: pass"}
    assert refused(state, "3: throw 9C") == "only_first_rank"
    assert refused(state, "3: throw 7C 9C") == "only_first_rank"
    _, events = play(state, "2: throw 9D")
    assert events == [ThrewIn(2, cards("9D"))]
    _, events = play(state, "3: throw 7C")
    assert events == [ThrewIn(3, cards("7C"))]


def test_house_throw_in_neighbors_first_rank_other_ranks_only_is_passed() -> None:
    """neighbors_first_rank: a non-neighbour holding only other ranks on the table is not
    asked (R-BOUT-8)."""
    state = position(
        "7H 10C",
        "9H JD QD",
        "6D 6C",
        "9C 10S",
        trump="S",
        rules=house(throw_in="neighbors_first_rank"),
    )
    state, _ = play(state, "0: attack 7H", "1: cover 7H with 9H")
    assert state.bout is not None and state.bout.attacks == ()  # beaten off at once


# --- first_bout_limit --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "ceiling"), [("none", 6), ("first_bout", 5), ("until_first_beaten", 5)]
)
def test_house_first_bout_limit_in_a_new_game(rule: str, ceiling: int) -> None:
    """first_bout_limit: none -> 6 from the first bout; first_bout and until_first_beaten ->
    5 in the first bout of a new game (the defender holds six)."""
    for seed in range(10):
        state = new_game(3, rules=house(first_bout_limit=rule), seed=seed)
        assert state.bout is not None and state.bout.limit == ceiling


# --- no_trump_start ----------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["dealer_left", "random"])
def test_house_no_trump_start(rule: str) -> None:
    """no_trump_start: nobody holds a trump after the deal: dealer_left -> the dealer's left
    neighbour attacks first; random -> anybody, by lot."""
    rules = house(no_trump_start=rule, deck=24)
    starts = []
    for seed in range(6000):
        state = new_game(2, rules=rules, seed=seed)
        if lowest_trump_holder(state) is None:
            assert state.bout is not None
            starts.append(state.bout.attacker == (state.dealer + 1) % 2)
    assert len(starts) >= 20
    if rule == "dealer_left":
        assert all(starts)
    else:
        assert 0 < sum(starts) < len(starts)


# --- next_game_start ---------------------------------------------------------------------


def four_player_durak_2(rule: str) -> GameState:
    """Four players, stock empty; seats 0, 1, 3 go out, seat 2 is the durak. Dealer 0."""
    state = position(
        "7H", "8H", "9C 10C", "JC", trump="S", rules=house(next_game_start=rule), dealer=0
    )
    state, events = play(
        state, "0: attack 7H", "1: cover 7H with 8H", "2: attack 9C", "3: cover 9C with JC"
    )
    assert events[-1] == GameOver(2)
    return state


def three_player_draw(rule: str, dealer: int) -> GameState:
    """Three players: seat 2 left earlier, 0 and 1 leave together: a draw."""
    state = position("7H", "8H", "", trump="S", rules=house(next_game_start=rule), dealer=dealer)
    state, events = play(state, "0: attack 7H", "1: cover 7H with 8H")
    assert events[-1] == GameOver(None)
    return state


def seats(state: GameState) -> tuple[int, int, int]:
    assert state.bout is not None
    return state.dealer, state.bout.attacker, state.bout.defender


def test_house_next_game_start_from_under_fool() -> None:
    """next_game_start=from_under_fool: the loser deals; the loser's left neighbour attacks."""
    previous = four_player_durak_2("from_under_fool")
    for seed in range(5):
        assert seats(next_game(previous, seed=seed)) == (2, 3, 0)


def test_house_next_game_start_under_fool() -> None:
    """next_game_start=under_fool: the loser's right neighbour attacks, the loser defends."""
    previous = four_player_durak_2("under_fool")
    for seed in range(5):
        assert seats(next_game(previous, seed=seed)) == (2, 1, 2)


def test_house_next_game_start_lowest_trump() -> None:
    """next_game_start=lowest_trump: every game starts like the first (R-START-1)."""
    previous = four_player_durak_2("lowest_trump")
    for seed in range(20):
        state = next_game(previous, seed=seed)
        holder = lowest_trump_holder(state)
        expected = (state.dealer + 1) % 4 if holder is None else holder
        assert state.dealer == 2
        assert state.bout is not None and state.bout.attacker == expected


@pytest.mark.parametrize(
    ("rule", "attacker", "defender"),
    [("from_under_fool", 2, 0), ("under_fool", 0, 1), ("lowest_trump", None, None)],
)
def test_house_next_game_start_after_a_draw(
    rule: str, attacker: int | None, defender: int | None
) -> None:
    """After a draw the same dealer deals and next_game_start is taken relative to the
    dealer (R-START-3): dealer 1 -> from_under_fool 2 attacks; under_fool 0 attacks 1."""
    previous = three_player_draw(rule, dealer=1)
    for seed in range(10):
        state = next_game(previous, seed=seed)
        assert state.players == 3
        if attacker is None:
            holder = lowest_trump_holder(state)
            attacker_now = (1 + 1) % 3 if holder is None else holder
            assert seats(state)[:2] == (1, attacker_now)
        else:
            assert seats(state) == (1, attacker, defender)


@pytest.mark.parametrize("rule", ["from_under_fool", "under_fool", "lowest_trump"])
def test_house_next_game_start_loser_gone(rule: str) -> None:
    """The loser left the table (`remaining`): R-START-1 decides, whatever the rule."""
    previous = four_player_durak_2(rule)
    for seed in range(20):
        state = next_game(previous, seed=seed, remaining=[0, 1, 3])
        assert state.players == 3
        holder = lowest_trump_holder(state)
        expected = (state.dealer + 1) % 3 if holder is None else holder
        assert state.bout is not None and state.bout.attacker == expected


@pytest.mark.parametrize(
    ("rule", "expected"), [("from_under_fool", (1, 2, 0)), ("under_fool", (1, 0, 1))]
)
def test_house_next_game_start_with_seats_renumbered(
    rule: str, expected: tuple[int, int, int]
) -> None:
    """Seat 0 left (`remaining` = old seats 1, 2, 3 -> new 0, 1, 2); the loser (old 2, new 1)
    deals and the rule applies around the smaller table."""
    previous = four_player_durak_2(rule)
    state = next_game(previous, seed=4, remaining=[1, 2, 3])
    assert seats(state) == expected


# --- deck and max_players ----------------------------------------------------------------


@pytest.mark.parametrize(("size", "most"), [(24, 4), (36, 6), (52, 8)])
def test_house_deck_and_max_players(size: int, most: int) -> None:
    """deck 24/36/52 seats 2..deck/6 players (4, 6, 8)."""
    rules = house(deck=size)
    assert rules.max_players == most
    for players in range(2, most + 1):
        state = new_game(players, rules=rules, seed=players)
        assert len(state.stock) == size - 6 * players
    for players in (1, most + 1):
        with pytest.raises(SetupError):
            new_game(players, rules=rules, seed=1)
    with pytest.raises(RulesError):
        HouseRules(deck=size, max_players=most + 1)
    with pytest.raises(RulesError):
        HouseRules(deck=size, max_players=1)


def test_house_max_players_below_the_deck_maximum() -> None:
    """max_players may be set lower than the deck allows: a 3-seat table refuses 4."""
    rules = house(max_players=3)
    assert new_game(3, rules=rules, seed=1).players == 3
    with pytest.raises(SetupError):
        new_game(4, rules=rules, seed=1)


def test_house_unknown_deck_or_value_refused() -> None:
    """Only the listed values exist."""
    with pytest.raises(RulesError):
        house(deck=32)
    with pytest.raises(RulesError):
        house(throw_in="anyone")


def test_house_next_game_takes_the_rules_chosen_since() -> None:
    """Rules changed between games take effect from the next game: the 52-card deck and the
    new next_game_start apply, the loser still deals (R-DEAL-1, R-START-3)."""
    previous = four_player_durak_2("from_under_fool")
    changed = HouseRules.from_dict({"deck": 52, "next_game_start": "under_fool"})
    state = next_game(previous, seed=3, rules=changed)
    assert state.rules == changed
    assert sum(h.bit_count() for h in state.hands) + len(state.stock) == 52
    assert seats(state) == (2, 1, 2)


def test_stored_rules_read_again_are_told_apart_by_type() -> None:
    """``HouseRules.from_dict`` keeps the rules it read for the next read of the same values
    (every move reads them): a value equal in Python but of another type (1 and True, 36
    and 36.0) is not taken for the one read before, and is refused as ever (R-DECK-1)."""
    assert HouseRules.from_dict({"transfer": True, "deck": 36}).transfer is True
    with pytest.raises(RulesError, match="true or false"):
        HouseRules.from_dict({"transfer": 1, "deck": 36})
    with pytest.raises(RulesError, match="whole number"):
        HouseRules.from_dict({"transfer": True, "deck": 36.0})
