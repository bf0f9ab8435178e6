"""The engine's public interface: bad input is refused with a typed error, never a crash."""

from __future__ import annotations

import json

import pytest

from engine import (
    Bout,
    Code,
    GameState,
    IllegalAction,
    Pass,
    Take,
    apply,
    new_game,
    resign,
    to_act,
)
from engine.state import StateFormatError


@pytest.mark.parametrize("junk", ["attack 6S", None, 42, {"p": 0, "a": "take"}])
def test_something_that_is_not_an_action_is_refused(junk: object) -> None:
    state = new_game(2, seed=1)
    with pytest.raises(IllegalAction) as caught:
        apply(state, junk)  # type: ignore[arg-type]
    assert caught.value.code == "unknown_action"


@pytest.mark.parametrize("seat", [-1, 2, 7])
def test_a_seat_that_is_not_at_the_table_is_refused(seat: int) -> None:
    state = new_game(2, seed=1)
    for action in (Take(seat), Pass(seat)):
        with pytest.raises(IllegalAction) as caught:
            apply(state, action)
        assert caught.value.code == "unknown_player"


def test_a_finished_game_takes_no_more_actions() -> None:
    state = new_game(3, seed=4)
    finished, _ = resign(state, to_act(state)[0])
    with pytest.raises(IllegalAction) as caught:
        apply(finished, Take(0))
    assert caught.value.code == "game_over"


# The codes are an interface (the bot's messages, the replay's JSON): their values never change.
STABLE_CODES = {
    "game_over",
    "unknown_player",
    "player_out",
    "unknown_action",
    "bout_already_opened",
    "not_your_turn",
    "no_cards",
    "unknown_card",
    "duplicate_card",
    "card_not_in_hand",
    "mixed_ranks",
    "rank_not_on_table",
    "only_first_rank",
    "over_limit",
    "bout_not_opened",
    "defender_cannot_throw",
    "not_a_thrower",
    "already_passed",
    "attacker_has_priority",
    "defender_cannot_pass",
    "not_defender",
    "already_taking",
    "nothing_to_take",
    "not_uncovered",
    "does_not_beat",
    "transfer_disabled",
    "transfer_after_cover",
    "transfer_rank_mismatch",
    "transfer_too_many",
}


def test_error_codes_keep_their_values() -> None:
    assert {code.value for code in Code} >= STABLE_CODES
    for code in Code:
        assert code.value == code.name.lower()


def test_an_illegal_action_carries_its_code_as_the_enum() -> None:
    state = new_game(2, seed=1)
    with pytest.raises(IllegalAction) as caught:
        apply(state, Take(5))
    assert caught.value.code is Code.UNKNOWN_PLAYER
    assert repr(caught.value).startswith("IllegalAction('unknown_player', ")


def test_resign_makes_the_leaver_the_durak_and_keeps_everybody_placed() -> None:
    state = new_game(4, seed=2)
    finished, events = resign(state, 1)
    assert finished.finished and finished.durak == 1
    assert finished.out == (2, 3, 0)  # clockwise from the leaver's left
    assert [type(e).__name__ for e in events] == ["Resigned", "GameOver"]


@pytest.mark.parametrize(
    "data",
    [{}, {"v": 99}, {"v": 1, "rules": {}, "hands": ["6S ZZ"]}, {"v": 1, "rules": {"deck": 7}}],
)
def test_a_broken_stored_state_is_a_state_format_error(data: dict[str, object]) -> None:
    with pytest.raises(StateFormatError):
        GameState.from_dict(data)


# A three-player game mid-bout as the engine wrote it before its card names were looked up
# in tables (a cover and an open attack, an unsorted stock, cards seen taken, declined).
STORED_MID_BOUT = json.loads(
    """{"v": 1, "rules": {"deck": 36, "max_players": 6, "throw_in": "neighbors",
    "first_bout_limit": "none", "no_trump_start": "dealer_left",
    "next_game_start": "from_under_fool", "transfer": false}, "dealer": 1, "trump": "H",
    "trump_card": "AH", "hands": ["KS 8H JH 10C KC", "6S 7S 8S 10S 6H 7H 10H 6D 6C",
    "AS 10D JD AD QC"], "known": ["", "6S 6H 7H 6D 6C", "6S 6D 6C"],
    "stock": "9S 9C 7D 8D QH KH KD JS 9H JC 7C 8C AC AH", "discard": "", "out": [],
    "bouts": 2, "durak": null, "moves": 13, "declined": ["", "7H 8H 9H 10H JH QH KH AH",
    "7S 8S 9S 10S JS QS KS AS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 7C 8C 9C 10C JC QC KC AC"],
    "bout": {"a": 2, "d": 0, "limit": 6, "attacks": "9D QS", "covers": "QD -",
    "taking": false, "passed": 4}}"""
)


def test_a_stored_state_is_written_back_exactly_as_it_was_read() -> None:
    """The stored form does not change with the engine's version: a worker of the version
    before reads what this one writes (a rolling restart), and the other way round."""
    assert GameState.from_dict(STORED_MID_BOUT).to_dict() == STORED_MID_BOUT


def test_state_json_of_six_players_is_well_under_two_kilobytes() -> None:
    state = new_game(6, seed=9)
    assert len(json.dumps(state.to_dict())) < 1200


def test_a_game_state_cannot_be_changed() -> None:
    """``apply`` returns a new state and never changes its input; nobody else may either."""
    state = new_game(2, seed=1)
    with pytest.raises(AttributeError):
        state.moves = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        state.hands = (0, 0)  # type: ignore[misc]
    assert isinstance(state.bout, Bout)
    assert state.bout._fields[:3] == ("attacker", "defender", "limit")


def test_replace_changes_fields_as_the_named_tuple_did() -> None:
    """``GameState`` was a named tuple; tools that move cards around use ``_replace``."""
    state = new_game(2, seed=5)
    hands = (state.hands[1], state.hands[0])
    changed = state._replace(hands=hands, stock=state.stock[::-1][1:] + state.stock[-1:])
    assert changed.hands == hands and changed.stock[-1] == state.stock[-1]
    assert changed.dealer == state.dealer and changed.bout == state.bout
    with pytest.raises(TypeError):
        state._replace(bout=None)
