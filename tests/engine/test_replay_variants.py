"""Game records of the section 13 variants (GAME-RECORD.md): the ``exchange`` action, the
``game_number`` field, the trump choices' stocks, the output fields ``teams``,
``losing_team`` and ``pogony``; a combination R-VAR-1 refuses is a malformed record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import play, position
from test_replay import cli_json, refused_in_one_line

from engine import Exchange, HouseRules, TrumpChoice
from engine.cards import deck_cards
from engine.record import RecordError, export_record, load_record
from engine.replay import replay

NAMES = ["ann", "bob", "cat", "dan"]


def record(rules: dict[str, Any], hands: list[str], **fields: Any) -> dict[str, Any]:
    """A record whose every card not in ``hands`` or ``stock`` is in the discard."""
    deck = rules.get("deck", 36)
    named = {c for h in hands for c in h.split()} | set(fields.get("stock", []))
    data: dict[str, Any] = {
        "rules": rules,
        "players": NAMES[: len(hands)],
        "hands": {NAMES[i]: h.split() for i, h in enumerate(hands)},
        "discard": [str(c) for c in deck_cards(deck) if str(c) not in named],
        "attacker": "ann",
        "actions": [],
    }
    data.update(fields)
    return data


def act(p: str, a: str, **fields: Any) -> dict[str, Any]:
    return {"p": p, "a": a, **fields}


def test_r_team_4_a_team_record_prints_the_teams_and_the_losing_team() -> None:
    data = record({"deck": 24, "teams": "pairs"}, ["9H", "10H JD", "", "QC"], trump="S")
    data["actions"] = [
        act("ann", "attack", cards=["9H"]),
        act("bob", "defend", card="10H", on="9H"),
    ]
    done = cli_json(data)
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)["state"]
    assert state["teams"] == [["ann", "cat"], ["bob", "dan"]]
    assert state["losing_team"] == ["bob", "dan"] and state["durak"] == "bob"
    assert "pogony" not in state


def test_r_six_1_the_exchange_action_in_a_record() -> None:
    data = record(
        {"trump_six_exchange": True},
        ["6H 7S 8S 9C 10D JC", "7H 8H 9S 10C QS AS"],
        stock=["8D", "9D", "KH"],
    )
    data["actions"] = [act("ann", "exchange"), act("ann", "attack", cards=["7S"])]
    result = replay(load_record(data))
    assert result["ok"] and "KH" in result["state"]["hands"]["ann"]
    data["actions"] = [act("bob", "exchange")]
    result = replay(load_record(data))
    assert not result["ok"] and result["error"]["code"] == "no_trump_six"
    with pytest.raises(RecordError, match="exchange action has no key"):
        load_record({**data, "actions": [act("ann", "exchange", card="6H")]})


def test_r_trump_3_northern_record_prints_the_trump_after_the_change() -> None:
    data = record(
        {"trump": "northern"},
        ["6S 7D 8D 9D 10D JD", "7S JH KH AH 6C 8C"],
        stock=["QH", "7C"],
        trump="H",
    )
    data["actions"] = [
        act("ann", "attack", cards=["6S"]),
        act("bob", "defend", card="7S", on="6S"),
        act("ann", "pass"),
    ]
    done = cli_json(data)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["state"]["trump"] == "C"
    data["trump"] = "C"  # must be the face-up card's suit, the one above the bottom card
    refused_in_one_line(cli_json(data), "face-up trump card")


def test_r_pog_2_game_number_and_the_pogony_output() -> None:
    data = record({"pogony": "strict"}, ["7S 7H 7C", "8S 8H"], trump="D", game_number=2)
    data["actions"] = [act("ann", "attack", cards=["7S", "7H", "7C"]), act("bob", "take")]
    done = cli_json(data)
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)["state"]
    assert state["durak"] == "bob" and state["pogony"] is True
    del data["game_number"]  # game 1: the sixes, so three sevens are over the limit
    assert json.loads(cli_json(data).stdout)["error"]["code"] == "over_limit"


@pytest.mark.parametrize(
    ("rules", "trump", "players", "fragment"),
    [
        ({"teams": "pairs"}, "S", 3, "4 or 6 players"),
        ({"trump_six_exchange": True, "trump": "dealer"}, "S", 2, "trump_six_exchange"),
        ({"trump": "japanese"}, "H", 2, "japanese is always diamonds"),
        ({"trump": "dealer"}, None, 2, "needs the suit the dealer named"),
        ({"teams": "trios"}, "S", 2, "teams must be one of"),
        ({}, "S", 2, "game_number must be"),
    ],
)
def test_r_var_1_impossible_combinations_make_a_malformed_record(
    rules: dict[str, Any], trump: str | None, players: int, fragment: str
) -> None:
    hands = ["9H", "10H", "JH", "QH"][:players]
    data = record(rules, hands)
    if trump is not None:
        data["trump"] = trump
    if fragment.startswith("game_number"):
        data["game_number"] = 0
    refused_in_one_line(cli_json(data), fragment)


def test_export_record_keeps_the_exchange_and_the_game_number() -> None:
    rules = HouseRules(trump_six_exchange=True, pogony="strict")  # type: ignore[arg-type]
    start = position("6H 7S", "7H 8H", stock="8D 9D KH", rules=rules, game_number=4)
    actions = [Exchange(0)]
    after, _ = play(start, *actions)
    data = export_record(start, actions, ["ann", "bob"])
    assert data["game_number"] == 4 and data["actions"] == [{"p": "ann", "a": "exchange"}]
    assert replay(load_record(data))["state"]["hands"]["ann"] == ["7S", "KH"]
    assert after.trump_card is not None and str(after.trump_card) == "6H"


def test_a_dealer_trump_record_needs_no_face_up_card() -> None:
    data = record({"trump": TrumpChoice.DEALER.value}, ["9H 10S", "JH QS"], stock=["AS", "KS"])
    data["trump"] = "H"
    result = replay(load_record(data))
    assert result["ok"] and result["state"]["trump"] == "H" and result["state"]["stock"] == 2


def test_the_team_example_of_game_record_md_prints_what_the_page_says() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "GAME-RECORD.md").read_text("utf-8")
    section = text[text.index("### Variants") :]
    start = section.index("```json\n") + len("```json\n")
    data = json.loads(section[start : section.index("\n```", start)])
    state = replay(load_record(data))["state"]
    assert state["teams"] == [["ann", "cat"], ["bob", "dan"]]
    assert state["losing_team"] == ["bob", "dan"] and state["durak"] == "bob"
