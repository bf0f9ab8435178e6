"""RULES.md section 14: the blind family (house rule `blind`), one test (or more) per rule
id: R-BLIND-1..8, R-REV-1..4, R-CHI-1..4, R-DOUBT-1..5.

Positions are built with ``helpers.position``, which hands each seat's cards to
``from_position`` in the order written: in a blind game that order is the row of slots,
slot 1 first (R-BLIND-2). Every expectation below is worked out by hand from the rules.
"""

from __future__ import annotations

import random
from dataclasses import fields, is_dataclass

import pytest
from helpers import card, cards, deck, house, lowest_trump, of_type, play, position, refused

from engine import (
    Answered,
    Attack,
    Attacked,
    AttackSlot,
    BeatenOff,
    Believe,
    Believed,
    Blind,
    BoutStarted,
    Card,
    Covered,
    DeclaredTake,
    Defend,
    DefendSlot,
    Doubt,
    Doubted,
    Drew,
    GameOver,
    GameState,
    HouseRules,
    LaidFaceDown,
    Misplayed,
    Pass,
    PlayerOut,
    Pogony,
    Problem,
    RulesError,
    Take,
    Teams,
    ThrewIn,
    ThrowSlot,
    Took,
    apply,
    from_position,
    legal_actions,
    new_game,
    next_game,
    public_view,
    timeout_actions,
    to_act,
    view_for,
)
from engine.ai import choose_action
from engine.record import RecordError, load_record

REVERSED = house(blind="reversed")
CHINESE = house(blind="chinese")
DOUBT = house(blind="doubt")


def rows(state: GameState) -> list[str]:
    """Each seat's row of slots as text, slot 1 first."""
    return [" ".join(map(str, row)) for row in state.rows]


def mask(text: str) -> int:
    """The cards of ``text`` as a mask, as ``GameState`` holds hands and piles."""
    return sum(1 << c for c in cards(text))


def next_bout(state: GameState) -> tuple[int, int]:
    """(primary attacker, defender) of the bout now waiting."""
    assert state.bout is not None
    return state.bout.attacker, state.bout.defender


def shown_cards(value: object) -> set[Card]:
    """Every card a view (or any value of tuples and dataclasses) holds, anywhere."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, tuple):
        found: set[Card] = set()
        for item in value:
            found |= shown_cards(item)
        return found
    if is_dataclass(value) and not isinstance(value, type):
        return shown_cards(tuple(getattr(value, f.name) for f in fields(value)))
    return set()


# --- 14.1 What all three share ---------------------------------------------------------


@pytest.mark.parametrize("blind", ["reversed", "chinese", "doubt"])
@pytest.mark.parametrize(
    "clash",
    [
        {"transfer": True},
        {"teams": "pairs"},
        {"trump_six_exchange": True},
        {"pogony": "title"},
        {"pogony": "strict"},
    ],
)
def test_r_blind_1_teams_transfer_exchange_and_pogony_are_refused(
    blind: str, clash: dict[str, object]
) -> None:
    """R-BLIND-1: with `blind` on, teams, transfer, the exchange and pogony must be off; a
    combination that breaks this is refused when chosen."""
    with pytest.raises(RulesError) as raised:
        house(blind=blind, **clash)
    assert raised.value.problem is Problem.BLIND_EXCLUDES
    house(blind="off", **clash)  # the same key is fine without the blind family


def test_r_blind_1_refused_when_built_directly() -> None:
    """R-BLIND-1, through the constructor a program uses."""
    with pytest.raises(RulesError) as raised:
        HouseRules(blind=Blind.REVERSED, transfer=True)
    assert raised.value.problem == "blind_excludes"
    with pytest.raises(RulesError) as raised:
        HouseRules(blind=Blind.CHINESE, teams=Teams.PAIRS)
    assert raised.value.problem == "blind_excludes"
    with pytest.raises(RulesError) as raised:
        HouseRules(blind=Blind.DOUBT, trump_six_exchange=True)
    assert raised.value.problem == "blind_excludes"
    with pytest.raises(RulesError) as raised:
        HouseRules(blind=Blind.DOUBT, pogony=Pogony.TITLE)
    assert raised.value.problem == "blind_excludes"
    # Every other key combines: here throw_in and a top card.
    assert (
        HouseRules.from_dict(
            {"blind": "reversed", "throw_in": "all", "top_card": "queen_of_spades"}
        ).blind
        is Blind.REVERSED
    )


def test_r_blind_1_in_a_game_record_it_is_a_malformed_record() -> None:
    """R-BLIND-1: a game record with such a combination is malformed (RecordError)."""
    named = {"7H", "8H"}
    data = {
        "rules": {"blind": "reversed", "transfer": True},
        "players": ["ann", "bob"],
        "hands": {"ann": ["7H"], "bob": ["8H"]},
        "discard": [str(c) for c in deck(36) if str(c) not in named],
        "trump": "S",
        "attacker": "ann",
        "actions": [],
    }
    with pytest.raises(RecordError, match="blind"):
        load_record(data)
    data["rules"] = {"blind": "reversed"}
    assert load_record(data).start.slots


def test_r_blind_2_dealt_cards_fill_the_row_in_the_order_dealt() -> None:
    """R-BLIND-2: the row is the order of the deal (R-DEAL-2: one card at a time,
    clockwise, the dealer's left first), not the order of the cards."""
    state = new_game(3, rules=REVERSED, seed=11, dealer=0)
    shuffled = sorted(deck(36))
    random.Random(11).shuffle(shuffled)  # the deal of seed 11 (the dealer is given)
    dealt: list[list[Card]] = [[], [], []]
    for index in range(18):
        dealt[(1 + index) % 3].append(shuffled[index])
    assert state.rows == tuple(tuple(row) for row in dealt)
    assert state.trump_card == shuffled[18]
    assert any(list(row) != sorted(row) for row in state.rows)  # the check means something
    assert GameState.from_dict(state.to_dict()).rows == state.rows  # stored in slot order


def test_r_blind_2_a_card_leaves_its_row_and_cards_drawn_go_to_the_right_end() -> None:
    """R-BLIND-2: the slots right of a played card move one place left; cards drawn are
    added at the right end in the order drawn (the attacker first, R-DRAW-2)."""
    state = position("9C 7H JD", "8H KD 6C", stock="10C QH 6D 8D AS", rules=REVERSED, attacker=0)
    state, events = apply(state, AttackSlot(0, 2))  # slot 2 holds 7H
    assert events == (Attacked(0, cards("7H")),)
    assert rows(state) == ["9C JD", "8H KD 6C"]  # JD moved from slot 3 to slot 2
    state, _ = apply(state, DefendSlot(1, 1, card("7H")))  # 8H
    assert rows(state)[1] == "KD 6C"
    state, events = apply(state, Pass(0))
    assert of_type(events, BeatenOff) == [BeatenOff(1, cards("7H 8H"))]
    # The stock, top first: 0 needs four (10C QH 6D 8D), then 1 gets the last card.
    assert of_type(events, Drew) == [Drew(0, 4), Drew(1, 1)]
    assert rows(state) == ["9C JD 10C QH 6D 8D", "KD 6C AS"]
    assert next_bout(state) == (1, 0)


def test_r_blind_2_cards_taken_go_to_the_right_end_each_attack_card_then_its_cover() -> None:
    """R-BLIND-2: a taken table is added at the right end in the table's order: each attack
    card followed by the card that covered it."""
    state = position("7H 9C 7C QD", "9H 10C 6D 8S", trump="S", rules=REVERSED)
    state, _ = play(
        state,
        AttackSlot(0, 1),  # 7H
        DefendSlot(1, 1, card("7H")),  # 9H
        ThrowSlot(0, 1),  # 9C
        DefendSlot(1, 1, card("9C")),  # 10C
        ThrowSlot(0, 1),  # 7C
        Take(1),
    )
    state, events = apply(state, Pass(0))
    assert of_type(events, Took) == [Took(1, cards("7H 9C 7C 9H 10C"))]
    assert rows(state) == ["QD", "6D 8S 7H 9H 9C 10C 7C"]


def test_r_blind_2_every_viewer_sees_the_same_order() -> None:
    """R-BLIND-2: every viewer sees a row in the same order ("your third card is a trump"
    means the same to everyone)."""
    state = position("7H KS 6D", "9H 8C 10D", "AD QC", trump="S", rules=REVERSED)
    for viewer in range(3):
        view = view_for(state, viewer)
        for seat in range(3):
            if seat != viewer:
                assert view.rows[seat] == state.rows[seat]
    assert public_view(state).rows == ((None,) * 3, (None,) * 3, (None,) * 2)


def is_opened(state: GameState) -> bool:
    return state.bout is not None and len(state.bout.attacks) == 1


def test_r_blind_2_a_player_who_cannot_see_the_hand_names_a_slot_never_a_card() -> None:
    """R-BLIND-2: a player with an unseen hand acts by slot; a slot past the end of the
    hand is illegal; where hands are seen (doubt) cards are named, not slots."""
    for rules in (REVERSED, CHINESE):
        state = position("7H KS 6D", "9H 8C 10D", trump="S", rules=rules)
        assert refused(state, Attack(0, cards("7H"))) == "hand_unseen"
        assert refused(state, AttackSlot(0, 0)) == "no_such_slot"
        assert refused(state, AttackSlot(0, 4)) == "no_such_slot"
        assert is_opened(apply(state, AttackSlot(0, 3))[0])
    state = position("7H KS 6D", "9H 8C 10D", trump="S", rules=DOUBT)
    assert refused(state, AttackSlot(0, 1)) == "slots_not_played"
    state, _ = play(state, "0: attack 7H")
    assert refused(state, DefendSlot(1, 1, card("7H"))) == "slots_not_played"


def test_r_blind_3_no_automatic_pass_and_every_slot_offered() -> None:
    """R-BLIND-3: a thrower who cannot see the hand is never passed automatically (in the
    open game 9C JD, no 7 or 8, would be passed and the bout beaten off) and is offered
    every slot; the defender is offered every slot, beating or not."""
    hands = ("7H 9C JD", "8H QS 10D")
    open_game = position(*hands, trump="S")
    open_game, _ = play(open_game, "0: attack 7H", "1: cover 7H with 8H")
    assert open_game.bout is not None and open_game.bout.attacks == ()  # beaten off

    state = position(*hands, trump="S", rules=REVERSED)
    state, _ = apply(state, AttackSlot(0, 1))
    seven = card("7H")
    assert legal_actions(state, 1) == [
        DefendSlot(1, 1, seven),  # 8H beats
        DefendSlot(1, 2, seven),  # QS beats (a trump)
        DefendSlot(1, 3, seven),  # 10D does not: offered all the same
        Take(1),
    ]
    state, _ = apply(state, DefendSlot(1, 1, seven))
    assert to_act(state) == (0,)
    assert legal_actions(state, 0) == [ThrowSlot(0, 1), ThrowSlot(0, 2), Pass(0)]


def test_r_blind_3_chinese_defender_is_offered_every_slot() -> None:
    """R-BLIND-3 in `chinese`: the answer may be any slot, whatever it holds."""
    state = position("9H", "8C JH 6S", trump="S", rules=CHINESE)
    state, _ = apply(state, AttackSlot(0, 1))
    assert legal_actions(state, 1) == [DefendSlot(1, slot, None) for slot in (1, 2, 3)]


def test_r_blind_4_reversed_time_out() -> None:
    """R-BLIND-4 in `reversed`: the primary attacker opens with slot 1; then the defender
    takes and a thrower passes."""
    state = position("7H 9C", "8D 10D QD", "JC 7S", trump="S", rules=REVERSED)
    assert timeout_actions(state) == [AttackSlot(0, 1)]
    state, events = apply(state, AttackSlot(0, 1))
    assert events == (Attacked(0, cards("7H")),)
    assert timeout_actions(state) == [Take(1), Pass(0)]
    state, _ = play(state, *timeout_actions(state))
    assert timeout_actions(state) == [Pass(2)]  # seat 2 may throw once 0 passed
    state, events = apply(state, Pass(2))
    assert of_type(events, Took) == [Took(1, cards("7H"))]


def test_r_blind_4_chinese_time_out() -> None:
    """R-BLIND-4 in `chinese`: the attacker opens with slot 1, the defender names slot 1."""
    state = position("9H 6C", "JH 8C", trump="S", rules=CHINESE)
    assert timeout_actions(state) == [AttackSlot(0, 1)]
    state, _ = apply(state, AttackSlot(0, 1))
    assert timeout_actions(state) == [DefendSlot(1, 1, None)]
    _, events = apply(state, DefendSlot(1, 1, None))
    assert of_type(events, Answered) == [Answered(1, card("JH"), card("9H"))]


def test_r_blind_4_doubt_time_out() -> None:
    """R-BLIND-4 in `doubt`: the attacker sees his hand and opens with his lowest card, the
    lowest non-trump (section 11); the defender takes; an attacker who must judge
    says «верю»."""
    state = position("6S 9H 7C", "8H 10D QS", "JC KC", trump="S", rules=DOUBT)
    assert timeout_actions(state) == [Attack(0, cards("7C"))]
    state, _ = play(state, "0: attack 7C")
    assert timeout_actions(state) == [Take(1)]
    state, _ = apply(state, Defend(1, card("8H"), card("7C")))
    assert timeout_actions(state) == [Believe(0)]
    _, events = apply(state, Believe(0))
    assert events[0] == Believed(0)


def test_r_blind_5_reversed_shows_the_lowest_trump_which_goes_back_to_its_slot() -> None:
    """R-BLIND-5 in `reversed`: the lowest trump and its holder are shown to everybody
    (R-START-1); the card stays in its slot, and its holder now knows it."""
    state = from_position(
        [cards("KH 9S 7H"), cards("8D 6S 10C"), cards("QC JS AD")],
        rules=REVERSED,
        stock=cards("6H 7S"),  # 7S face up: spades are trump
        discard=[c for c in deck(36) if c not in cards("KH 9S 7H 8D 6S 10C QC JS AD 6H 7S")],
    )
    assert next_bout(state) == (1, 2)
    assert state.known == (0, mask("6S"), 0)
    assert rows(state)[1] == "8D 6S 10C"
    assert view_for(state, 1).remembered == (None, card("6S"), None)
    assert view_for(state, 0).seen_in_hands[1] == cards("6S")
    for seed in range(5):  # a dealt first game: the same
        dealt = new_game(3, rules=REVERSED, seed=seed)
        found = lowest_trump(dealt)
        assert found is not None
        holder, low = found
        assert next_bout(dealt)[0] == holder
        assert dealt.known[holder] == 1 << low


def test_r_blind_5_chinese_first_attacker_is_drawn_by_lot_and_no_card_is_shown() -> None:
    """R-BLIND-5 in `chinese`: nobody has seen a card, so the first attacker is drawn by
    lot: no card is shown (`known` stays empty) and it need not be the lowest trump's
    holder."""
    attackers = set()
    not_the_holder = False
    for seed in range(30):
        state = new_game(3, rules=CHINESE, seed=seed)
        assert state.known == (0, 0, 0)
        assert all(slot is None for slot in view_for(state, 0).remembered)
        attacker = next_bout(state)[0]
        attackers.add(attacker)
        found = lowest_trump(state)
        not_the_holder |= found is not None and found[0] != attacker
    assert attackers == {0, 1, 2}
    assert not_the_holder


def test_r_blind_5_chinese_reads_next_game_start_lowest_trump_the_same_way() -> None:
    """R-BLIND-5: under `next_game_start: lowest_trump` a later `chinese` game starts by
    lot too, with no card shown; a later `reversed` game shows the lowest trump again."""
    for blind, on in (("chinese", None), ("reversed", card("9H"))):
        rules = house(blind=blind, next_game_start="lowest_trump")
        done, _ = play(
            position("9H", "JH 8C", trump="S", rules=rules), AttackSlot(0, 1), DefendSlot(1, 1, on)
        )
        assert done.durak == 1  # JH beat 9H, seat 0 went out holding nothing
        attackers = set()
        for seed in range(30):
            state = next_game(done, seed=seed)
            attacker = next_bout(state)[0]
            attackers.add(attacker)
            found = lowest_trump(state)
            if blind == "chinese":
                assert state.known == (0, 0)
            else:
                assert found is not None and attacker == found[0]
                assert state.known[attacker] == 1 << found[1]
        if blind == "chinese":
            assert attackers == {0, 1}


def test_r_blind_6_a_seat_view_depends_only_on_what_that_seat_sees() -> None:
    """R-BLIND-6: a computer player knows what its seat's view holds, so a view must not
    change when cards hidden from that seat change: in `reversed` its own hand, in
    `chinese` every hand, in `doubt` the others' hands and the covers it did not lay."""
    one = position("7H KS 6D", "9H 8C 10D", trump="S", rules=REVERSED)
    other = position("JC 6H 9S", "9H 8C 10D", trump="S", rules=REVERSED)
    assert view_for(one, 0) == view_for(other, 0)
    assert view_for(one, 1) != view_for(other, 1)  # seat 1 sees seat 0's hand

    one = position("7H KS 6D", "9H 8C 10D", trump="S", rules=CHINESE)
    other = position("JC 6H 9S", "AD QC 7S", trump="S", rules=CHINESE)
    for seat in (0, 1):
        assert view_for(one, seat) == view_for(other, seat)

    one = position("7H KS", "9H 8C 10D", trump="S", rules=DOUBT)
    other = position("7H KS", "JC 6H 9S", trump="S", rules=DOUBT)
    assert view_for(one, 0) == view_for(other, 0)
    one, _ = play(one, "0: attack 7H", Defend(1, card("8C"), card("7H")))
    other, _ = play(other, "0: attack 7H", Defend(1, card("JC"), card("7H")))
    assert view_for(one, 0) == view_for(other, 0)  # what was laid face down is unseen
    assert view_for(one, 1) != view_for(other, 1)  # but its owner saw it


@pytest.mark.parametrize("blind", ["reversed", "chinese", "doubt"])
@pytest.mark.parametrize("level", ["random", "easy", "normal", "hard"])
def test_r_blind_6_computer_players_play_blind_games(blind: str, level: str) -> None:
    """R-BLIND-6: computer players play a blind game to its end, each time one of its
    seat's legal actions."""
    state = new_game(3, rules=house(blind=blind), seed=5)
    while state.bout is not None:
        seat = to_act(state)[0]
        action = choose_action(state, seat, level, seed=state.moves, iterations=5)
        assert action in legal_actions(state, seat)
        state, _ = apply(state, action)


def test_r_blind_7_reversed_keeps_the_throwers_of_neighbors() -> None:
    """R-BLIND-7: `reversed` with `throw_in: neighbors` keeps R-BOUT-5's throwers: the
    primary attacker and the defender's left neighbour, nobody else."""
    state = position("7H JD", "8H QS 10D KC", "AD 6C", "9S 8C", trump="S", rules=REVERSED)
    state, _ = play(state, AttackSlot(0, 1), DefendSlot(1, 1, card("7H")), Pass(0))
    assert to_act(state) == (2,)
    assert refused(state, ThrowSlot(3, 1)) == "not_a_thrower"


def first_rank_table() -> GameState:
    """Four players, `reversed`, `neighbors_first_rank`: 0 attacked 1 with 7H, covered by
    8H, and passed. Seats 0 and 2 throw any rank on the table; seat 3 only sevens."""
    state = position(
        "7H JD",
        "8H QS 10D KC",
        "AD 8D",
        "9S 8C 7C",
        trump="S",
        rules=house(blind="reversed", throw_in="neighbors_first_rank"),
    )
    state, _ = play(state, AttackSlot(0, 1), DefendSlot(1, 1, card("7H")), Pass(0))
    assert to_act(state) == (2, 3)  # both offered every slot (R-BLIND-3)
    return state


def test_r_blind_7_neighbors_first_rank_a_non_neighbour_throws_the_first_rank() -> None:
    """R-BLIND-7: seat 3 throwing the first card's rank (7C) is a throw-in; a rank not on
    the table at all (9S) is a misplay like any other. The neighbour, seat 2, throws any
    rank on the table (8D, the cover's rank)."""
    state = first_rank_table()
    _, events = apply(state, ThrowSlot(2, 2))
    assert events == (ThrewIn(2, cards("8D")),)
    _, events = apply(state, ThrowSlot(3, 3))
    assert events == (ThrewIn(3, cards("7C")),)
    after, events = apply(state, ThrowSlot(3, 1))
    assert events[0] == Misplayed(3, card("9S"), None)
    assert after.misplays == 1 and next_bout(after) == (1, 2)


def test_r_blind_7_neighbors_first_rank_another_rank_from_a_non_neighbour_is_a_misplay() -> None:
    """R-BLIND-7: under `neighbors_first_rank`, a rank other than the first card's (8C, on
    the table only as the cover) from a player who may throw only that rank is a misplay:
    seat 3 takes the table and the defender attacks next (R-REV-4)."""
    state = first_rank_table()
    after, events = apply(state, ThrowSlot(3, 2))
    assert events[0] == Misplayed(3, card("8C"), None)
    assert after.misplays == 1
    assert rows(after)[3] == "9S 7C 7H 8H 8C"
    assert next_bout(after) == (1, 2)


def test_r_blind_8_multi_card_openings_only_in_doubt() -> None:
    """R-BLIND-8: in `reversed` and `chinese` every opening is one slot; only `doubt` has
    the opening with several cards of one rank (R-BOUT-1, within the limit)."""
    for rules in (REVERSED, CHINESE):
        state = position("7H 7C 7S", "8H 9H 10H", trump="D", rules=rules)
        assert legal_actions(state, 0) == [AttackSlot(0, slot) for slot in (1, 2, 3)]
        assert refused(state, Attack(0, cards("7H 7C"))) == "hand_unseen"
    state = position("7H 7C 7S", "8H 9H 10H", trump="D", rules=DOUBT)
    openings = {frozenset(a.cards) for a in legal_actions(state, 0) if isinstance(a, Attack)}
    assert frozenset(cards("7H 7C")) in openings
    assert frozenset(cards("7H 7C 7S")) in openings
    _, events = play(state, Attack(0, cards("7H 7C")))
    assert [set(e.cards) for e in of_type(events, Attacked)] == [set(cards("7H 7C"))]


# --- 14.2 Оборотный дурак (reversed) ----------------------------------------------------


def test_r_rev_1_a_seat_sees_the_others_hands_and_only_the_slots_of_its_own() -> None:
    """R-REV-1: every player sees the faces of the others' hands in slot order and only the
    backs of their own; the public view shows backs only."""
    state = position("7H KS 6D", "9H 8C 10D", "AD QC", trump="S", rules=REVERSED)
    view = view_for(state, 0)
    assert view.hand == ()
    assert view.rows == ((None, None, None), cards("9H 8C 10D"), cards("AD QC"))
    assert view.remembered == (None, None, None)
    assert view_for(state, 2).rows == (cards("7H KS 6D"), cards("9H 8C 10D"), (None, None))
    assert public_view(state).rows == ((None,) * 3, (None,) * 3, (None,) * 2)
    assert public_view(state).hand_sizes == (3, 3, 2)


def test_r_rev_2_every_play_is_one_card_turned_up_as_played() -> None:
    """R-REV-2: an opening is one slot, a throw-in one slot, a cover one slot on one
    uncovered attack card; each card is turned up as it is played."""
    state = position("7H 9C JD", "8H QS 10D", trump="S", rules=REVERSED)
    assert legal_actions(state, 0) == [AttackSlot(0, slot) for slot in (1, 2, 3)]
    state, events = apply(state, AttackSlot(0, 1))
    assert events == (Attacked(0, cards("7H")),)
    assert refused(state, DefendSlot(1, 1, card("9C"))) == "not_uncovered"
    state, events = apply(state, DefendSlot(1, 2, card("7H")))
    assert events == (Covered(1, card("QS"), card("7H")),)
    assert public_view(state).table == ((card("7H"), card("QS")),)


def test_r_rev_2_take_throwers_and_limit_as_in_podkidnoy() -> None:
    """R-REV-2: after «беру» the throwers may still add within the limit (the primary
    attacker first), then the defender picks up the table and the next player attacks;
    the limit is the defender's three cards."""
    state = position("7H 7C 9S", "8D 10D QD", "JC 7S", trump="S", rules=REVERSED)
    state, events = play(state, AttackSlot(0, 1), Take(1))
    assert events[-1] == DeclaredTake(1)
    assert to_act(state) == (0,)  # priority: the primary attacker first (R-BOUT-6)
    state, events = play(state, ThrowSlot(0, 1), Pass(0))
    assert events[0] == ThrewIn(0, cards("7C"))
    assert to_act(state) == (2,)
    state, closing = apply(state, ThrowSlot(2, 2))  # 7S: the third card, the limit
    assert closing == (
        ThrewIn(2, cards("7S")),
        Took(1, cards("7H 7C 7S")),
        BoutStarted(2, 0, 1),
    )
    assert rows(state) == ["9S", "8D 10D QD 7H 7C 7S", "JC"]


def test_r_rev_2_priority_and_passes_as_in_podkidnoy() -> None:
    """R-REV-2 with R-BOUT-6/7: the primary attacker throws first; once both throwers
    passed, a new card on the table (the cover) cancels the passes and the primary
    attacker is asked first again."""
    state = position("7H 9C", "8H 10D QD", "JC 7S", trump="S", rules=REVERSED)
    state, _ = apply(state, AttackSlot(0, 1))
    assert to_act(state) == (0, 1)  # seat 2 waits for the primary attacker
    assert refused(state, ThrowSlot(2, 1)) == "attacker_has_priority"
    state, _ = play(state, Pass(0), Pass(2))
    assert to_act(state) == (1,)
    state, _ = apply(state, DefendSlot(1, 1, card("7H")))  # 8H
    assert to_act(state) == (0,)


def test_r_rev_2_a_throw_in_beyond_the_limit_is_not_offered() -> None:
    """R-REV-2: the counts are public, so no throw-in past the limit is offered: against a
    one-card defender the attacker may not add."""
    state = position("7H 7C", "8D", trump="S", rules=REVERSED)
    state, _ = apply(state, AttackSlot(0, 1))
    assert to_act(state) == (1,)
    assert refused(state, ThrowSlot(0, 1)) == "over_limit"


def test_r_rev_3_an_opening_is_never_a_misplay() -> None:
    """R-REV-3: whatever slot the attacker opens with, it is an attack."""
    for slot, shown in ((1, "7H"), (2, "9C"), (3, "AS")):
        state = position("7H 9C AS", "8H QS 10D", trump="S", rules=REVERSED)
        state, events = apply(state, AttackSlot(0, slot))
        assert events == (Attacked(0, cards(shown)),)
        assert state.misplays == 0


def test_r_rev_3_a_throw_in_of_a_rank_not_on_the_table_is_a_misplay() -> None:
    """R-REV-3: 9C thrown on 7H/8H is a misplay (R-BOUT-4), turned up as played."""
    state = position("7H 9C JD", "8H QS 10D", trump="S", rules=REVERSED)
    state, _ = play(state, AttackSlot(0, 1), DefendSlot(1, 1, card("7H")))
    state, events = apply(state, ThrowSlot(0, 1))
    assert events[0] == Misplayed(0, card("9C"), None)
    assert state.misplays == 1


def test_r_rev_3_a_cover_that_does_not_beat_is_a_misplay_a_trump_cover_is_not() -> None:
    """R-REV-3 with R-BOUT-2: a trump (6D) beats 7H; a throw-in of a rank on the table
    only as a cover (6C) is no misplay (R-BOUT-4); KS does not beat 6C: a misplay."""
    state = position("7H 6C 9C", "6D KS 8H", trump="D", rules=REVERSED)
    state, events = play(state, AttackSlot(0, 1), DefendSlot(1, 1, card("7H")), ThrowSlot(0, 1))
    assert events == [
        Attacked(0, cards("7H")),
        Covered(1, card("6D"), card("7H")),
        ThrewIn(0, cards("6C")),
    ]
    assert state.misplays == 0
    state, misplayed = apply(state, DefendSlot(1, 1, card("6C")))  # KS
    assert misplayed[0] == Misplayed(1, card("KS"), card("6C"))
    assert state.misplays == 1


@pytest.mark.parametrize(("top_card", "misplay"), [("queen_of_spades", False), ("off", True)])
def test_r_rev_3_the_variants_beats_decide(top_card: str, misplay: bool) -> None:
    """R-REV-3: "does not beat" is R-BOUT-2 with the variant's beats: under
    `queen_of_spades` Q♠ covers even the trump ace (R-TOP-1); without it, it does not."""
    rules = house(blind="reversed", top_card=top_card)
    state = position("AD 7C", "QS 9C", trump="D", rules=rules)
    state, _ = apply(state, AttackSlot(0, 1))
    state, events = apply(state, DefendSlot(1, 1, card("AD")))
    if misplay:
        assert events[0] == Misplayed(1, card("QS"), card("AD"))
    else:
        assert events == (Covered(1, card("QS"), card("AD")),)
    assert state.misplays == int(misplay)


def test_r_rev_4_defender_misplays_takes_the_table_and_the_next_player_attacks() -> None:
    """R-REV-4: the defender's misplay closes the bout at once; he takes the table, the
    misplayed card included; the bout ends as taken, so the next player after him attacks;
    drawing follows in the usual order (the attacker, the others, the defender last)."""
    state = position(
        "7H 9C",
        "6H KD 8S",
        "10C JC",
        stock="6C 6D 7C 7D 9D 10S",
        rules=REVERSED,
    )
    state, _ = apply(state, AttackSlot(0, 1))
    state, events = apply(state, DefendSlot(1, 1, card("7H")))  # 6H does not beat 7H
    assert events == (
        Misplayed(1, card("6H"), card("7H")),
        Took(1, cards("7H 6H")),
        Drew(0, 5),
        Drew(2, 1),
        BoutStarted(2, 0, 6),
    )
    assert rows(state) == ["9C 6C 6D 7C 7D 9D", "KD 8S 7H 6H", "10C JC 10S"]
    assert state.hands[1] == mask("KD 8S 7H 6H")
    assert view_for(state, 1).remembered == (None, None, card("7H"), card("6H"))
    assert not state.discard & mask("7H 6H")
    assert state.misplays == 1


def test_r_rev_4_thrower_misplays_takes_the_table_and_the_defender_attacks() -> None:
    """R-REV-4: a thrower's misplay closes the bout; the thrower takes the table, the
    misplayed card included; the defender has held and attacks next. Seat 2 threw its
    last card with the stock empty, yet holds cards again and stays in (R-OUT)."""
    state = position("7H 9C", "8H QS 10D", "AC", trump="S", rules=REVERSED)
    state, _ = play(state, AttackSlot(0, 1), DefendSlot(1, 1, card("7H")), Pass(0))
    assert to_act(state) == (2,)
    state, events = apply(state, ThrowSlot(2, 1))  # AC: no ace on the table
    assert events == (
        Misplayed(2, card("AC"), None),
        Took(2, cards("7H AC 8H")),
        BoutStarted(1, 2, 3),
    )
    assert rows(state) == ["9C", "QS 10D", "7H 8H AC"]
    assert state.out == () and state.misplays == 1


def test_r_rev_4_primary_attacker_misplays_and_the_defender_attacks() -> None:
    """R-REV-4: the primary attacker throwing in is a thrower too: he takes, the defender
    attacks next."""
    state = position("7H 9C JD", "8H QS 10D", trump="S", rules=REVERSED)
    state, _ = play(state, AttackSlot(0, 1), DefendSlot(1, 1, card("7H")))
    state, events = apply(state, ThrowSlot(0, 1))  # 9C
    assert events == (
        Misplayed(0, card("9C"), None),
        Took(0, cards("7H 9C 8H")),
        BoutStarted(1, 0, 4),
    )
    assert rows(state) == ["JD 7H 8H 9C", "QS 10D"]


def test_r_rev_4_a_throwers_misplay_after_a_take_is_still_a_throwers_misplay() -> None:
    """R-REV-4: the defender said «беру», then the primary attacker threw a rank not on the
    table (9C): the thrower takes the table and the defender, who has held, attacks next."""
    state = position("7H 9C", "8H QS 10D", trump="S", rules=REVERSED)
    state, _ = play(state, AttackSlot(0, 1), Take(1))
    state, events = apply(state, ThrowSlot(0, 1))
    assert events == (
        Misplayed(0, card("9C"), None),
        Took(0, cards("7H 9C")),
        BoutStarted(1, 0, 2),
    )
    assert rows(state) == ["7H 9C", "8H QS 10D"]


# --- 14.3 Китайский дурак (chinese) ------------------------------------------------------


def test_r_chi_1_nobody_sees_any_hand_and_the_cards_taken_are_remembered() -> None:
    """R-CHI-1: no seat sees any hand, its own included; the trump card and the counts are
    public; cards turned up and taken were seen by all, and their slots are known."""
    state = position("9H 6C", "8C JH KD", "QS 10C", stock="7D AS", rules=CHINESE)
    for seat in range(3):
        view = view_for(state, seat)
        assert view.hand == ()
        assert view.rows == ((None,) * 2, (None,) * 3, (None,) * 2)
        assert all(slot is None for slot in view.remembered)
        assert (view.trump_card, view.stock_size) == (card("AS"), 2)
    state, _ = play(state, AttackSlot(0, 1), DefendSlot(1, 1, None))  # 8C on 9H: taken
    assert rows(state)[1] == "JH KD 9H 8C"
    assert view_for(state, 1).remembered == (None, None, card("9H"), card("8C"))
    assert set(view_for(state, 2).seen_in_hands[1]) == set(cards("9H 8C"))
    # Seat 0 drew the stock, the face-up AS last, which everybody saw.
    assert rows(state)[0] == "6C 7D AS"
    assert view_for(state, 0).remembered == (None, None, card("AS"))


def test_r_chi_2_one_face_down_attack_and_one_answer() -> None:
    """R-CHI-2: the attacker plays one slot face down; nobody throws in; there is no take;
    the defender names one of his slots and both cards are turned up."""
    state = position("9H 6C", "8C JH 6S", "QS 10C", trump="S", rules=CHINESE)
    state, events = apply(state, AttackSlot(0, 1))
    assert events == (LaidFaceDown(0, None),)
    assert state.face_down == mask("9H")
    assert state.bout is not None and (state.bout.limit, state.bout.throwers) == (1, 0)
    for view in (public_view(state), view_for(state, 0), view_for(state, 1)):
        assert view.table == () and view.face_down_attack
    assert to_act(state) == (1,)
    assert refused(state, Take(1)) == "no_take"
    assert refused(state, ThrowSlot(0, 1)) == "no_throw_in"
    assert refused(state, ThrowSlot(2, 1)) == "no_throw_in"
    assert refused(state, Pass(2)) == "no_throw_in"
    assert refused(state, DefendSlot(1, 1, card("9H"))) == "attack_face_down"
    _, events = apply(state, DefendSlot(1, 2, None))
    assert events[0] == Answered(1, card("JH"), card("9H"))


@pytest.mark.parametrize(("slot", "answer"), [(2, "JH"), (3, "6S")])
def test_r_chi_3_a_beating_answer_discards_both_and_the_defender_attacks(
    slot: int, answer: str
) -> None:
    """R-CHI-3: the answer beats (a higher heart, or a trump): both cards go to the discard
    pile and the defender attacks next."""
    state = position("9H 6C", "8C JH 6S", "QS 10C", trump="S", rules=CHINESE)
    state, _ = apply(state, AttackSlot(0, 1))
    state, events = apply(state, DefendSlot(1, slot, None))
    assert events[:2] == (
        Answered(1, card(answer), card("9H")),
        BeatenOff(1, cards(f"9H {answer}")),
    )
    assert state.discard & mask(f"9H {answer}") == mask(f"9H {answer}")
    assert next_bout(state) == (1, 2)


def test_r_chi_3_a_failed_answer_is_taken_attack_card_first() -> None:
    """R-CHI-3: the answer does not beat: the defender adds both to the right end of his
    row, the attack card first, and the next player after him attacks."""
    state = position("9H 6C", "8C JH 6S", "QS 10C", trump="S", rules=CHINESE)
    state, _ = apply(state, AttackSlot(0, 1))
    state, events = apply(state, DefendSlot(1, 1, None))  # 8C
    assert events == (
        Answered(1, card("8C"), card("9H")),
        Took(1, cards("9H 8C")),
        BoutStarted(2, 0, 1),
    )
    assert rows(state) == ["6C", "JH 6S 9H 8C", "QS 10C"]
    assert state.face_down == 0


def test_r_chi_4_drawing_follows_the_usual_order() -> None:
    """R-CHI-4: after the bout the attacker draws first, the others clockwise, the defender
    last, up to six each (R-DRAW)."""
    state = position(
        "9H 6C 7C 8C 10C",
        "JH 8S 9S 6D 7D",
        "QS 10S 6H 7H 8H",
        stock="KC KD AS",
        rules=CHINESE,
    )
    state, _ = apply(state, AttackSlot(0, 1))
    state, events = apply(state, DefendSlot(1, 1, None))  # JH beats 9H
    assert of_type(events, Drew) == [Drew(0, 2), Drew(2, 1)]
    assert rows(state) == ["6C 7C 8C 10C KC KD", "8S 9S 6D 7D", "QS 10S 6H 7H 8H AS"]
    assert next_bout(state) == (1, 2)


def test_r_chi_4_the_last_player_holding_cards_is_the_durak() -> None:
    """R-CHI-4: seat 0 attacked with its last card, the stock is empty: it leaves, and
    seat 1, who took, is the durak."""
    state = position("9H", "8C 10S", trump="S", rules=CHINESE)
    state, _ = apply(state, AttackSlot(0, 1))
    state, events = apply(state, DefendSlot(1, 1, None))  # 8C does not beat 9H
    assert events[-2:] == (PlayerOut(0, 1), GameOver(1))
    assert state.durak == 1 and state.bout is None
    assert rows(state) == ["", "10S 9H 8C"]


def test_r_chi_4_nobody_holding_cards_is_a_draw() -> None:
    """R-CHI-4: a bout that leaves nobody holding cards with the stock empty is a draw."""
    state = position("9H", "JH", trump="S", rules=CHINESE)
    state, events = play(state, AttackSlot(0, 1), DefendSlot(1, 1, None))
    assert events[-1] == GameOver(None)
    assert state.is_draw and state.durak is None


# --- 14.4 Неверный дурень (doubt) --------------------------------------------------------


def doubt_table() -> GameState:
    """Three players, `doubt`, spades trump: seat 0 attacks seat 1."""
    return position("7H 7C 10D", "8H 6D QS 9C", "JC KC", trump="S", rules=DOUBT)


def test_r_doubt_1_own_hand_seen_opening_face_up_and_nobody_throws_in() -> None:
    """R-DOUBT-1: each player sees his own hand; the opening is face up, one card or
    several of one rank; nobody throws in."""
    state = doubt_table()
    view = view_for(state, 0)
    assert set(view.hand) == set(cards("7H 7C 10D")) and view.remembered == ()
    assert view_for(state, 1).hand != ()
    state, events = play(state, Attack(0, cards("7H 7C")))
    assert [set(e.cards) for e in of_type(events, Attacked)] == [set(cards("7H 7C"))]
    assert len(events) == 1
    assert {pair[0] for pair in public_view(state).table} == set(cards("7H 7C"))
    assert state.bout is not None and state.bout.throwers == 0
    assert to_act(state) == (1,)
    assert refused(state, "2: throw 7C") == "no_throw_in"
    assert refused(state, Pass(0)) == "no_throw_in"


def test_r_doubt_1_the_opening_stays_within_the_limit() -> None:
    """R-DOUBT-1 with R-LIMIT: against a one-card defender only single cards open."""
    state = position("7H 7C", "QS", trump="S", rules=DOUBT)
    assert all(len(a.cards) == 1 for a in legal_actions(state, 0) if isinstance(a, Attack))
    assert refused(state, Attack(0, cards("7H 7C"))) == "over_limit"


def test_r_doubt_2_the_defender_takes_at_once() -> None:
    """R-DOUBT-2: taking at once sends the table to the defender and the next player after
    him attacks (R-END-2)."""
    state, _ = play(doubt_table(), Attack(0, cards("7H 7C")))
    state, events = apply(state, Take(1))
    assert events[:2] == (DeclaredTake(1), Took(1, cards("7H 7C")))
    assert next_bout(state) == (2, 0)
    assert rows(state)[1] == "8H 6D QS 9C 7H 7C"


def test_r_doubt_2_any_card_covers_face_down_one_at_a_time_and_stays() -> None:
    """R-DOUBT-2: each attack card is covered by any one card of the hand, beating or not,
    laid face down one at a time; once a cover is laid there is no take and no change."""
    state, _ = play(doubt_table(), Attack(0, cards("7H 7C")))
    hand = cards("8H 6D QS 9C")
    offered = set(legal_actions(state, 1))
    assert offered == {Defend(1, c, on) for on in cards("7H 7C") for c in hand} | {Take(1)}
    state, events = apply(state, Defend(1, card("6D"), card("7H")))  # 6D does not beat 7H
    assert events == (LaidFaceDown(1, card("7H")),)
    assert refused(state, Take(1)) == "take_after_cover"
    assert refused(state, Defend(1, card("8H"), card("7H"))) == "not_uncovered"
    assert set(legal_actions(state, 1)) == {Defend(1, c, card("7C")) for c in cards("8H QS 9C")}
    state, events = apply(state, Defend(1, card("9C"), card("7C")))
    assert events == (LaidFaceDown(1, card("7C")),)
    assert to_act(state) == (0,) and legal_actions(state, 1) == []


def covered(first: str, second: str) -> GameState:
    """``doubt_table`` after 7H 7C were attacked and covered face down by ``first`` on 7H
    and ``second`` on 7C."""
    state, _ = play(
        doubt_table(),
        Attack(0, cards("7H 7C")),
        Defend(1, card(first), card("7H")),
        Defend(1, card(second), card("7C")),
    )
    assert to_act(state) == (0,)
    assert legal_actions(state, 0) == [Believe(0), Doubt(0)]
    return state


def test_r_doubt_3_believe_discards_the_table_unseen_and_the_defender_attacks() -> None:
    """R-DOUBT-3 «верю»: the table goes to the discard pile unseen, whatever the covers
    were (6D does not beat 7C), and the defender attacks next."""
    state = covered("8H", "6D")
    state, events = apply(state, Believe(0))
    assert events[0] == Believed(0)
    assert not of_type(events, Took)
    assert not set(cards("8H 6D")) & shown_cards(events)  # no event shows a cover
    assert state.unseen == mask("8H 6D")
    assert state.discard & mask("7H 7C 8H 6D") == mask("7H 7C 8H 6D")
    assert rows(state) == ["10D", "QS 9C", "JC KC"]
    assert next_bout(state) == (1, 2)
    assert all(c not in shown_cards(public_view(state)) for c in cards("8H 6D"))


def test_r_doubt_3_doubt_with_every_cover_beating_the_attacker_takes() -> None:
    """R-DOUBT-3 «не верю», every cover beats its card: the covers are turned up, the
    attacker takes the whole table (each attack card, then its cover) and the defender
    attacks next."""
    state = covered("8H", "9C")
    state, events = apply(state, Doubt(0))
    assert events[:2] == (Doubted(0, cards("8H 9C"), True), Took(0, cards("7H 7C 8H 9C")))
    assert rows(state) == ["10D 7H 8H 7C 9C", "6D QS", "JC KC"]
    assert next_bout(state) == (1, 2)
    assert state.unseen == 0 and state.face_down == 0


def test_r_doubt_3_doubt_with_a_bad_cover_the_defender_takes() -> None:
    """R-DOUBT-3 «не верю», a cover does not beat (6D on 7C): the defender takes the whole
    table and the next player after him attacks."""
    state = covered("8H", "6D")
    state, events = apply(state, Doubt(0))
    assert events[:2] == (Doubted(0, cards("8H 6D"), False), Took(1, cards("7H 7C 8H 6D")))
    assert rows(state) == ["10D", "QS 9C 7H 8H 7C 6D", "JC KC"]
    assert next_bout(state) == (2, 0)


def test_r_doubt_4_drawing_follows_as_after_any_bout() -> None:
    """R-DOUBT-4: after «верю» the attacker draws first, the others clockwise, the defender
    last (R-DRAW-2)."""
    state = position(
        "7H 7C 10D",
        "8H 6D QS 9C",
        "JC KC",
        stock="6H 6C 8D 9D 10H AS",
        rules=DOUBT,
    )
    state, _ = play(
        state,
        Attack(0, cards("7H 7C")),
        Defend(1, card("8H"), card("7H")),
        Defend(1, card("6D"), card("7C")),
    )
    state, events = apply(state, Believe(0))
    assert of_type(events, Drew) == [Drew(0, 5), Drew(2, 1)]
    assert rows(state) == ["10D 6H 6C 8D 9D 10H", "QS 9C", "JC KC AS"]
    assert next_bout(state) == (1, 2)


def test_r_doubt_4_leaving_and_the_loser() -> None:
    """R-DOUBT-4: R-OUT as after any bout: seat 0's last card was believed covered (by a
    bluff), the stock is empty: seat 0 leaves and seat 1 is the durak."""
    state = position("7H", "8H 9C", trump="S", rules=DOUBT)
    state, _ = play(state, "0: attack 7H", Defend(1, card("9C"), card("7H")))
    state, events = apply(state, Believe(0))
    assert events[0] == Believed(0)
    assert events[-2:] == (PlayerOut(0, 1), GameOver(1))
    assert state.durak == 1


def test_r_doubt_5_face_down_covers_show_only_to_the_defender() -> None:
    """R-DOUBT-5 (and R-DOUBT-2): while covers lie face down the defender's own view shows
    them; every other view shows the pair as covered face down."""
    state, _ = play(doubt_table(), Attack(0, cards("7H 7C")), Defend(1, card("8H"), card("7H")))
    seven_h, seven_c, eight_h = card("7H"), card("7C"), card("8H")
    assert view_for(state, 1).table == ((seven_h, eight_h), (seven_c, None))
    for view in (view_for(state, 0), view_for(state, 2), public_view(state)):
        assert view.table == ((seven_h, None), (seven_c, None))
        assert view.face_down_covers == (0,)
        assert eight_h not in shown_cards(view)
    state, _ = apply(state, Defend(1, card("6D"), card("7C")))
    assert public_view(state).all_covered
    assert view_for(state, 1).table == ((seven_h, eight_h), (seven_c, card("6D")))


def test_r_doubt_5_believed_covers_stay_hidden_for_the_rest_of_the_game() -> None:
    """R-DOUBT-5: after «верю» no seat's view holds the covers, in this bout or later;
    the state (what the game record replays to) keeps them."""

    def assert_hidden(state: GameState, hidden: set[Card]) -> None:
        for seat in range(state.players):
            assert not hidden & shown_cards(view_for(state, seat))
        assert not hidden & shown_cards(public_view(state))

    state, _ = apply(covered("8H", "6D"), Believe(0))
    assert_hidden(state, set(cards("8H 6D")))
    # One more bout: seat 1 attacks seat 2, whose face-down JC is believed too.
    state, _ = play(state, "1: attack 9C", Defend(2, card("JC"), card("9C")), Believe(1))
    assert_hidden(state, set(cards("8H 6D JC")))
    assert state.unseen == mask("8H 6D JC")
    assert GameState.from_dict(state.to_dict()).unseen == state.unseen


def test_r_doubt_3_the_record_counts_covers_turned_up_and_caught_not_those_believed() -> None:
    """R-DOUBT-3 (and R-DOUBT-5): per seat, how often its covers were turned up after «не
    верю» and how often one of them then did not beat is public: every seat's view shows
    it. Covers believed were never seen and count in neither. The counts are part of the
    state: its JSON form keeps them, and a state stored without them reads as no record."""
    start = covered("8H", "6D")
    assert start.doubted == start.caught == (0, 0, 0)
    believed, _ = apply(start, Believe(0))
    assert believed.doubted == believed.caught == (0, 0, 0)
    assert "doubted" not in believed.to_dict() and "caught" not in believed.to_dict()
    honest, _ = apply(covered("8H", "9C"), Doubt(0))  # both covers beat
    assert honest.doubted == (0, 1, 0) and honest.caught == (0, 0, 0)
    state, _ = apply(start, Doubt(0))  # 6D does not beat 7C: caught
    assert state.doubted == (0, 1, 0) and state.caught == (0, 1, 0)
    assert start.doubted == start.caught == (0, 0, 0)  # the state judged stays as it was
    # Seat 2 attacks seat 0, who has only 10D to lay on JC: doubted and caught in turn.
    assert next_bout(state) == (2, 0)
    state, _ = play(state, "2: attack JC", Defend(0, card("10D"), card("JC")), Doubt(2))
    assert state.doubted == (1, 1, 0) and state.caught == (1, 1, 0)
    for view in (*(view_for(state, s) for s in range(3)), public_view(state)):
        assert view.doubted == (1, 1, 0) and view.caught == (1, 1, 0)
    data = state.to_dict()
    assert data["doubted"] == [1, 1, 0] and data["caught"] == [1, 1, 0]
    assert GameState.from_dict(data) == state
    older = {key: value for key, value in data.items() if key not in ("doubted", "caught")}
    assert GameState.from_dict(older).doubted == GameState.from_dict(older).caught == (0, 0, 0)
    assert GameState.from_dict(older) != state  # the record is part of the state


def with_record(state: GameState, seat: int, doubted: int, caught: int) -> GameState:
    """``state`` with ``seat``'s covers turned up ``doubted`` times, ``caught`` of them false."""
    data = state.to_dict()
    data["doubted"] = [doubted if s == seat else 0 for s in range(state.players)]
    data["caught"] = [caught if s == seat else 0 for s in range(state.players)]
    return GameState.from_dict(data)


def test_r_doubt_2_a_card_laid_face_down_is_not_told_by_what_others_knew_of_the_hand() -> None:
    """R-DOUBT-2: seat 1 took the 6♥ turned up with a caught bluff, so everybody saw it go
    into his hand; once he lays a cover face down, nobody may tell whether it was the 6♥
    (knowing the rest of his hand would say it), and a computer judging him cannot either."""
    state = position("6H AS 9C", "7S QD", trump="H", rules=DOUBT)
    state, _ = play(state, Attack(0, cards("6H")), Defend(1, card("7S"), card("6H")), Doubt(0))
    assert state.caught == (0, 1)
    assert set(view_for(state, 0).seen_in_hands[1]) == set(cards("6H 7S"))
    for laid in ("6H", "QD"):
        covered, _ = play(state, Attack(0, cards("AS")), Defend(1, card(laid), card("AS")))
        assert view_for(covered, 0).seen_in_hands[1] == ()
        assert covered.known[1] == 0


def test_r_doubt_3_covers_that_must_beat_are_believed_though_their_layer_was_caught() -> None:
    """R-DOUBT-3: seat 1 was caught once and took the 6♥ (a trump) and the 7♠; every other
    card is in the discard or seat 0's hand, so whatever he laid on the A♠, he held the 6♥
    among his three cards: ``normal`` believes him. (Two computers once doubted such
    covers of each other's and played the same two bouts for ever.)"""
    state = position("6H AS 9C", "7S QD", trump="H", rules=DOUBT)
    state, _ = play(state, Attack(0, cards("6H")), Defend(1, card("7S"), card("6H")), Doubt(0))
    covered, _ = play(state, Attack(0, cards("AS")), Defend(1, card("6H"), card("AS")))
    assert covered.caught == (0, 1)
    assert choose_action(covered, 0, "normal", seed=1) == Believe(0)


def test_r_doubt_3_a_defender_caught_bluffing_is_doubted_where_an_honest_one_is_believed() -> None:
    """R-DOUBT-3: ``normal`` weighs the defender's record. KH KC covered face down: from
    the cards alone seat 1 likely held two covers that beat, and ``normal`` believes him;
    the same cards seen, a defender caught bluffing the three times his covers were
    turned up is doubted, and one found honest those three times believed."""
    state = position("KH KC 10D 6S", "8H 6D QS 9C JD AH", trump="S", rest="stock", rules=DOUBT)
    state, _ = play(
        state,
        Attack(0, cards("KH KC")),
        Defend(1, card("AH"), card("KH")),
        Defend(1, card("QS"), card("KC")),
    )
    assert legal_actions(state, 0) == [Believe(0), Doubt(0)]

    def judged(state: GameState) -> object:
        return choose_action(state, 0, "normal", seed=1)

    assert judged(state) == Believe(0)
    assert judged(with_record(state, 1, doubted=3, caught=0)) == Believe(0)
    assert judged(with_record(state, 1, doubted=3, caught=3)) == Doubt(0)
    # The attacker's own record says nothing of the defender's covers.
    assert judged(with_record(state, 0, doubted=3, caught=3)) == Believe(0)
