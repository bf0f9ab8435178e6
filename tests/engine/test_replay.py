"""Game records and ``python -m engine.replay`` (GAME-RECORD.md): the output object, exit
statuses 0/1/2, standard input, malformed records, and export -> replay round trips."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Action,
    Attack,
    Defend,
    GameState,
    HouseRules,
    Pass,
    Take,
    Throw,
    Transfer,
    apply,
    from_position,
    legal_actions,
    new_game,
    to_act,
)
from engine.cards import Card
from engine.replay import (
    RecordError,
    export_record,
    load_record,
    main,
    replay,
    run,
    state_to_record_dict,
)

ROOT = Path(__file__).resolve().parents[2]
RECORDS = Path(__file__).resolve().parent / "records"
STATE_FIELDS = {
    "trump",
    "stock",
    "discard",
    "hands",
    "table",
    "attacker",
    "defender",
    "taking",
    "to_act",
    "out",
    "status",
    "durak",
    "draw",
}


def cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "engine.replay", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def cli_json(data: object) -> subprocess.CompletedProcess[bytes]:
    return cli("-", stdin=json.dumps(data).encode("utf-8"))


def illegal_at(data: dict[str, Any], index: int, code: str) -> dict[str, Any]:
    """The command's output for ``data`` whose action ``index`` is illegal: exit 1, nothing
    on stderr, that action and ``code`` named, and the state just before it."""
    done = cli_json(data)
    assert done.returncode == 1
    assert done.stderr == b""
    result: dict[str, Any] = json.loads(done.stdout)
    assert result["ok"] is False
    assert (result["error"]["index"], result["error"]["code"]) == (index, code)
    prefix = dict(data, actions=data["actions"][:index])
    assert result["state"] == replay(load_record(prefix))["state"]
    return result


def replayed_from_file(data: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    """The command's output for ``data`` read from a file: exit 0, nothing on stderr, and
    exactly what ``replay`` returns."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), "utf-8")
    done = cli(str(path))
    assert done.returncode == 0
    assert done.stderr == b""
    result: dict[str, Any] = json.loads(done.stdout)
    assert result == replay(load_record(data))
    return result


def base() -> dict[str, Any]:
    """A plain record: example 1's position (RULES.md 12.1), no notes, no actions.
    ann attacks bob; ann 8H 10C, bob 9H JD 6C, cat 9S JH 8C; stock empty, trump D."""
    data = json.loads((RECORDS / "ex1_limit.json").read_text("utf-8"))
    for note in ("comment", "expected", "branches"):
        del data[note]
    data["actions"] = []
    return copy.deepcopy(data)


def act(p: str, a: str, **fields: Any) -> dict[str, Any]:
    return {"p": p, "a": a, **fields}


def with_stock(data: dict[str, Any], stock: list[str]) -> dict[str, Any]:
    """Move ``stock`` (top first, the last card face up) out of the discard."""
    data["discard"] = [c for c in data["discard"] if c not in stock]
    data["stock"] = stock
    return data


# --- the output object -------------------------------------------------------------------


def test_cli_prints_the_state_and_exits_0_when_every_action_is_legal(tmp_path: Path) -> None:
    """GAME-RECORD.md output: ``ok`` and ``state`` with every field, exit status 0."""
    data = base()
    data["actions"] = [act("ann", "attack", cards=["8H"]), act("bob", "defend", card="9H", on="8H")]
    result = replayed_from_file(data, tmp_path)
    assert result == {
        "ok": True,
        "state": {
            "trump": "D",
            "stock": 0,
            "discard": 28,
            "hands": {"ann": ["10C"], "bob": ["JD", "6C"], "cat": ["9S", "JH", "8C"]},
            "table": [["8H", "9H"]],
            "attacker": "ann",
            "defender": "bob",
            "taking": False,
            "to_act": ["cat"],
            "out": [],
            "status": "playing",
            "durak": None,
            "draw": False,
        },
    }


def test_cli_reads_standard_input_with_dash() -> None:
    data = base()
    done = cli_json(data)
    assert done.returncode == 0
    result = json.loads(done.stdout)
    assert set(result) == {"ok", "state"}
    assert set(result["state"]) == STATE_FIELDS
    assert result["state"]["to_act"] == ["ann"]


def test_state_hands_sorted_by_suit_then_rank() -> None:
    """GAME-RECORD.md: hands sorted by suit (S H D C), then rank low to high, whatever
    order the record names them in."""
    data = base()
    data["hands"]["cat"] = ["8C", "JH", "9S"]
    data["hands"]["bob"] = ["6C", "JD", "9H"]
    hands = replay(load_record(data))["state"]["hands"]
    assert hands == {"ann": ["8H", "10C"], "bob": ["9H", "JD", "6C"], "cat": ["9S", "JH", "8C"]}


def test_table_lists_pairs_in_attack_order_with_null_for_uncovered() -> None:
    """GAME-RECORD.md: ``table`` in the order the attack cards were played, ``null`` for an
    uncovered one; ``taking`` after take; the throwers still to act (R-BOUT-9)."""
    data = base()
    data["actions"] = [
        act("ann", "attack", cards=["8H"]),
        act("bob", "defend", card="9H", on="8H"),
        act("cat", "throw", cards=["9S"]),
        act("bob", "take"),
    ]
    state = replay(load_record(data))["state"]
    assert state["table"] == [["8H", "9H"], ["9S", None]]
    assert state["taking"] is True
    assert state["to_act"] == ["cat"]  # may still add 8C within the limit (R-LIMIT-2)


# --- illegal actions: exit 1 --------------------------------------------------------------


def test_illegal_action_exit_1_with_error_and_state_before_it() -> None:
    """GAME-RECORD.md: the first illegal action gives ``error`` (index, code, message) and
    the state before it; the actions after it are not applied (R-BOUT-4 refuses 9H here)."""
    data = base()
    data["actions"] = [
        act("ann", "attack", cards=["8H"]),
        act("bob", "defend", card="9H", on="8H"),
        act("ann", "throw", cards=["10C"]),  # no ten on the table
        act("cat", "throw", cards=["9S"]),  # legal on its own, never applied
    ]
    result = illegal_at(data, 2, "rank_not_on_table")
    assert isinstance(result["error"]["message"], str)
    assert result["error"]["message"]
    assert result["state"]["hands"]["cat"] == ["9S", "JH", "8C"]


def test_illegal_action_code_rank_not_on_table() -> None:
    """R-BOUT-4: with 8H/9H on the table cat may not throw in JH: no jack is there."""
    data = base()
    data["actions"] = [
        act("ann", "attack", cards=["8H"]),
        act("bob", "defend", card="9H", on="8H"),
        act("cat", "throw", cards=["JH"]),
    ]
    result = replay(load_record(data))
    assert result["error"]["index"] == 2
    assert result["error"]["code"] == "rank_not_on_table"


def test_action_after_the_game_is_over_is_illegal() -> None:
    """R-OUT-4: once the game is over nobody acts; the finished state names the durak."""
    data = two_player_game(ann=["6H"], bob=["7H", "8C"])
    data["actions"] = [
        act("ann", "attack", cards=["6H"]),
        act("bob", "defend", card="7H", on="6H"),
        act("bob", "attack", cards=["8C"]),
    ]
    result = illegal_at(data, 2, "game_over")
    assert result["state"]["status"] == "finished"


# --- finished games -----------------------------------------------------------------------


def two_player_game(ann: list[str], bob: list[str]) -> dict[str, Any]:
    data = base()
    data["players"] = ["ann", "bob"]
    data["dealer"] = "bob"
    rest = data["discard"] + [c for h in data["hands"].values() for c in h]
    data["hands"] = {"ann": ann, "bob": bob}
    data["discard"] = [c for c in rest if c not in ann + bob]
    return data


def test_finished_game_names_the_durak() -> None:
    """R-OUT-2, R-OUT-4: ann plays her last card, the bout is beaten off with the stock
    empty, she leaves; bob alone holds cards and is the durak. ``attacker``/``defender``
    are null and nobody is to act."""
    data = two_player_game(ann=["6H"], bob=["7H", "8C"])
    data["actions"] = [act("ann", "attack", cards=["6H"]), act("bob", "defend", card="7H", on="6H")]
    result = replay(load_record(data))
    assert result["ok"] is True
    state = result["state"]
    assert state["status"] == "finished"
    assert (state["durak"], state["draw"]) == ("bob", False)
    assert (state["attacker"], state["defender"], state["taking"]) == (None, None, False)
    assert state["to_act"] == []
    assert state["out"] == ["ann"]
    assert state["table"] == []
    assert state["hands"] == {"ann": [], "bob": ["8C"]}


def test_finished_game_draw() -> None:
    """R-OUT-5: the last bout closes with the stock empty and nobody holding cards: a draw,
    no durak; both players are out (the attacker first, R-DRAW-2 order)."""
    data = two_player_game(ann=["6H"], bob=["7H"])
    data["actions"] = [act("ann", "attack", cards=["6H"]), act("bob", "defend", card="7H", on="6H")]
    state = replay(load_record(data))["state"]
    assert state["status"] == "finished"
    assert (state["durak"], state["draw"]) == (None, True)
    assert sorted(state["out"]) == ["ann", "bob"]


def test_transfer_action_moves_the_attack_on() -> None:
    """R-TR-1, R-TR-2: with ``transfer`` on, bob puts 8D on ann's 8H: bob becomes the
    primary attacker and cat, holding three cards, the defender."""
    data = base()
    data["rules"] = {"transfer": True}
    data["hands"] = {"ann": ["8H", "10C"], "bob": ["9H", "8D", "6C"], "cat": ["9S", "JH", "8C"]}
    data["discard"] = [c for c in data["discard"] if c != "8D"] + ["JD"]
    data["actions"] = [act("ann", "attack", cards=["8H"]), act("bob", "transfer", card="8D")]
    state = replay(load_record(data))["state"]
    assert state["table"] == [["8H", None], ["8D", None]]
    assert (state["attacker"], state["defender"]) == ("bob", "cat")
    assert "cat" in state["to_act"]


def test_actions_map_to_engine_actions_by_seat() -> None:
    """GAME-RECORD.md actions become the engine's actions of the named player's seat."""
    data = base()
    data["rules"] = {"transfer": True}
    data["actions"] = [
        act("ann", "attack", cards=["8H"]),
        act("bob", "defend", card="9H", on="8H"),
        act("cat", "throw", cards=["9S", "8C"]),
        act("bob", "take"),
        act("cat", "pass"),
        act("bob", "transfer", card="JD"),
    ]
    record = load_record(data)
    h = Card.parse
    assert record.names == ("ann", "bob", "cat")
    assert record.actions == (
        Attack(0, (h("8H"),)),
        Defend(1, h("9H"), h("8H")),
        Throw(2, (h("9S"), h("8C"))),
        Take(1),
        Pass(2),
        Transfer(1, h("JD")),
    )


# --- malformed records: exit 2 ------------------------------------------------------------


def seven_players(data: dict[str, Any]) -> None:
    """R-DEAL, section 2: a 36-card deck seats at most six."""
    hands = list(data["hands"].values()) + [[]] * 4
    data["players"] = list("abcdefg")
    data["hands"] = dict(zip(data["players"], hands, strict=True))
    data["dealer"], data["attacker"] = "g", "a"
    data["actions"] = []


def mutate(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    data = base()
    data["actions"] = [act("ann", "attack", cards=["8H"])]
    change(data)
    return data


MALFORMED: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    "empty_object": (lambda d: d.clear(), "'players' is missing"),
    "unknown_card_1X": (lambda d: d["hands"]["ann"].append("1X"), "unknown card '1X'"),
    "card_missing": (lambda d: d["discard"].remove("AC"), "AC is missing"),
    "card_twice": (lambda d: d["discard"].append("8H"), "8H"),
    "card_twice_in_one_hand": (lambda d: d["hands"]["cat"].append("9S"), "9S"),
    "card_not_in_deck": (lambda d: d["discard"].append("2S"), "2S"),
    "card_not_text": (lambda d: d["stock"].append(7), "card"),
    "unknown_player_in_action": (
        lambda d: d["actions"].append(act("dan", "take")),
        "unknown player 'dan'",
    ),
    "unknown_card_in_action": (
        lambda d: d["actions"].append(act("bob", "defend", card="9X", on="8H")),
        "unknown card '9X'",
    ),
    "unknown_action_kind": (lambda d: d["actions"].append(act("bob", "jump")), "jump"),
    "action_field_missing": (
        lambda d: d["actions"].append(act("bob", "defend", card="9H")),
        "'on'",
    ),
    "action_field_extra": (
        lambda d: d["actions"].append(act("bob", "take", card="9H")),
        "'card'",
    ),
    "action_no_cards": (lambda d: d["actions"].append(act("cat", "throw", cards=[])), "cards"),
    "action_not_object": (lambda d: d["actions"].append("ann attacks"), "actions[1]"),
    "actions_not_list": (lambda d: d.update(actions={}), "actions"),
    "unknown_rule_key": (lambda d: d["rules"].update(jokers=True), "jokers"),
    "bad_rule_value": (lambda d: d["rules"].update(throw_in="everybody"), "throw_in"),
    "rules_not_object": (lambda d: d.update(rules=["all"]), "rules"),
    "trump_not_the_stock_last_card": (
        lambda d: with_stock(d, ["7S", "KH"]),
        "trump D does not match",
    ),
    "empty_stock_without_trump": (lambda d: d.pop("trump"), "trump"),
    "bad_trump_letter": (lambda d: d.update(trump="X"), "trump"),
    "duplicate_player_names": (lambda d: d["players"].append("ann"), "'ann' is named twice"),
    "too_many_players": (seven_players, "2..6 players, not 7"),
    "hand_of_unknown_player": (lambda d: d["hands"].update(dan=[]), "unknown player 'dan'"),
    "hand_missing": (lambda d: d["hands"].pop("cat"), "'cat'"),
    "unknown_dealer": (lambda d: d.update(dealer="dan"), "dealer"),
    "unknown_attacker": (lambda d: d.update(attacker="dan"), "attacker"),
    "negative_bouts_played": (lambda d: d.update(bouts_played=-1), "bouts_played"),
    "bouts_played_as_text": (lambda d: d.update(bouts_played="3"), "bouts_played"),
    "missing_key": (lambda d: d.pop("actions"), "'actions'"),
}


@pytest.mark.parametrize("case", MALFORMED)
def test_malformed_record_raises_record_error(case: str) -> None:
    """GAME-RECORD.md: a malformed record (unknown card, a card missing or twice, unknown
    player or rule, bad shape, trump mismatch...) is refused with a one-line message."""
    change, fragment = MALFORMED[case]
    with pytest.raises(RecordError) as caught:
        load_record(mutate(change))
    message = str(caught.value)
    assert fragment in message
    assert "\n" not in message


def refused_in_one_line(done: subprocess.CompletedProcess[bytes], fragment: str) -> None:
    """Exit status 2, one line on standard error prefixed ``engine.replay: `` that says
    ``fragment``, nothing on standard output."""
    assert done.returncode == 2
    assert done.stdout == b""
    lines = done.stderr.decode("utf-8").splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("engine.replay: ")
    assert fragment in lines[0]


@pytest.mark.parametrize(
    "case",
    ["unknown_card_1X", "card_missing", "card_twice", "unknown_player_in_action",
     "unknown_rule_key", "trump_not_the_stock_last_card", "empty_stock_without_trump"],
)  # fmt: skip
def test_cli_malformed_record_exit_2(case: str) -> None:
    change, fragment = MALFORMED[case]
    done = cli_json(mutate(change))
    refused_in_one_line(done, fragment)


@pytest.mark.parametrize(
    ("stdin", "fragment"),
    [
        (b"{not json", "not valid JSON"),
        (b"", "not valid JSON"),
        (b"[1, 2]", "a record is a JSON object"),
        (b'{"players": [], "players": []}', "'players' appears twice"),
        (b'{"bouts_played": NaN}', "NaN"),
        (b"\xff\xfe{}", "not UTF-8"),
    ],
)
def test_cli_bad_json_exit_2(stdin: bytes, fragment: str) -> None:
    done = cli("-", stdin=stdin)
    refused_in_one_line(done, fragment)


def test_cli_missing_file_exit_2(tmp_path: Path) -> None:
    done = cli(str(tmp_path / "nowhere.json"))
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.decode("utf-8").startswith("engine.replay: cannot read ")


@pytest.mark.parametrize("args", [[], ["a.json", "b.json"]])
def test_cli_needs_exactly_one_file_exit_2(args: list[str]) -> None:
    done = cli(*args)
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.decode("utf-8").startswith("engine.replay: usage: ")


def test_cli_help_exit_0() -> None:
    done = cli("--help")
    assert done.returncode == 0
    assert b"python -m engine.replay FILE" in done.stdout


def test_cli_keeps_names_in_any_script() -> None:
    """Names from real chats (Cyrillic here) come back unchanged, as UTF-8."""
    data = base()
    data["players"] = ["Аня", "Богдан", "ти"]
    data["hands"] = dict(zip(data["players"], data["hands"].values(), strict=True))
    data["dealer"] = "ти"
    data["attacker"] = "Аня"
    data["actions"] = [act("Аня", "attack", cards=["8H"])]
    done = cli_json(data)
    assert done.returncode == 0
    state = json.loads(done.stdout.decode("utf-8"))["state"]
    assert state["to_act"] == ["Богдан", "ти"]  # ти may throw 8C (R-BOUT-4)


def test_main_returns_the_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(base()), "utf-8")
    assert main([str(path)]) == 0
    path.write_text("{", "utf-8")
    assert main([str(path)]) == 2
    assert capsys.readouterr().err.startswith("engine.replay: not valid JSON")


# --- the blind family (RULES.md section 14) ---------------------------------------------


def blind_example() -> tuple[dict[str, Any], dict[str, Any]]:
    """The record of GAME-RECORD.md's section on the blind family, and the output it says
    the record prints (the fields it shows; ``"..."`` stands for the rest)."""
    text = (ROOT / "docs" / "GAME-RECORD.md").read_text("utf-8")
    section = text[text.index("### The blind family") :]
    blocks = []
    for _ in range(2):
        start = section.index("```json\n") + len("```json\n")
        end = section.index("\n```", start)
        blocks.append(json.loads(section[start:end]))
        section = section[end + len("\n```") :]
    return blocks[0], blocks[1]


def blind_base(blind: str) -> dict[str, Any]:
    """The blind example's position without its actions: ann 9H KS 6C (slots 1 to 3)
    attacks bob 10H 7D QC; trumps are spades, the stock is empty."""
    data, _ = blind_example()
    data["rules"] = {"blind": blind}
    data["actions"] = []
    return data


def test_r_rev_4_the_blind_example_of_game_record_md_prints_what_the_page_says(
    tmp_path: Path,
) -> None:
    """GAME-RECORD.md's blind example through the command: ann's throw-in of a six on 9H/10H
    is a misplay, applied (exit 0, not an illegal action): she takes the table into the
    right end of her row (R-BLIND-2), bob attacks next (R-REV-4); the hands print in slot
    order with ``slots`` and ``misplays``."""
    data, printed = blind_example()
    assert data["rules"] == {"blind": "reversed"}
    assert any("slot" in action for action in data["actions"])
    result = replayed_from_file(data, tmp_path)
    assert result["ok"] is printed["ok"] is True
    shown = {key: value for key, value in printed["state"].items() if key != "..."}
    assert shown.keys() >= {"hands", "slots", "misplays"}
    assert {key: result["state"][key] for key in shown} == shown
    assert set(result["state"]) == STATE_FIELDS | {"slots", "misplays"}
    assert (result["state"]["slots"], result["state"]["misplays"]) == (True, 1)
    assert result["state"]["to_act"] == ["bob"]


def test_r_blind_2_hands_print_in_slot_order_not_sorted() -> None:
    """GAME-RECORD.md: with ``blind`` on, ``state.hands`` is the rows as the record gives
    them (slot 1 first); the same cards in another order are another game."""
    data = blind_base("reversed")
    data["hands"]["bob"] = ["QC", "7D", "10H"]
    done = cli_json(data)
    assert done.returncode == 0
    state = json.loads(done.stdout)["state"]
    assert state["hands"] == {"ann": ["9H", "KS", "6C"], "bob": ["QC", "7D", "10H"]}
    assert (state["slots"], state["misplays"]) == (True, 0)
    open_game = replay(load_record(dict(data, rules={})))["state"]
    assert open_game["hands"]["bob"] == ["10H", "7D", "QC"]  # sorted: no slots
    assert "slots" not in open_game and "misplays" not in open_game


@pytest.mark.parametrize("slot", ["2", "one", 0, -1, 1.5, True, None, [1]])
def test_cli_blind_slot_not_a_whole_number_from_1_exit_2(slot: object) -> None:
    """GAME-RECORD.md: a ``slot`` that is not a whole number from 1 makes the record
    malformed: exit 2, one line saying which action and what a slot is."""
    data, _ = blind_example()
    data["actions"][1]["slot"] = slot
    done = cli_json(data)
    refused_in_one_line(done, f"actions[1].slot: a slot is a whole number from 1, not {slot!r}")


def test_cli_blind_slot_action_with_a_key_of_another_kind_exit_2() -> None:
    data, _ = blind_example()
    data["actions"][0]["card"] = "9H"
    refused_in_one_line(cli_json(data), "by slot has no key 'card'")


def test_cli_blind_slot_past_the_end_of_the_row_is_illegal_no_such_slot() -> None:
    """GAME-RECORD.md: a slot past the end of the hand is an illegal action, not a malformed
    record: exit 1, ``no_such_slot``, and the state before it. Bob holds three cards."""
    data, _ = blind_example()
    data["actions"][1]["slot"] = 4
    result = illegal_at(data, 1, "no_such_slot")
    assert "1..3" in result["error"]["message"]
    assert result["state"]["table"] == [["9H", None]]
    assert result["state"]["misplays"] == 0


def test_r_blind_2_naming_a_card_of_a_hand_one_cannot_see_is_illegal_hand_unseen() -> None:
    """R-BLIND-2: in ``reversed`` ann cannot see her hand, so she names a slot, never a
    card: ``attack`` with ``cards`` is illegal (exit 1, ``hand_unseen``)."""
    data, _ = blind_example()
    data["actions"][0] = act("ann", "attack", cards=["9H"])
    result = illegal_at(data, 0, "hand_unseen")
    assert result["state"]["hands"]["ann"] == ["9H", "KS", "6C"]


def test_cli_a_slot_at_a_table_where_hands_are_seen_is_illegal_slots_not_played() -> None:
    data, _ = blind_example()
    data["rules"] = {}
    result = illegal_at(data, 0, "slots_not_played")
    assert "slots" not in result["state"]


def test_r_blind_1_a_blind_record_with_transfer_on_exit_2() -> None:
    """R-BLIND-1: ``blind`` with ``transfer`` is a malformed record (exit 2)."""
    data, _ = blind_example()
    data["rules"] = {"blind": "reversed", "transfer": True}
    refused_in_one_line(cli_json(data), "transfer")


def test_r_chi_3_a_chinese_record_answers_by_slot_without_on() -> None:
    """R-CHI-2, R-CHI-3: ann opens slot 1 face down, bob answers with slot 1 (10H beats 9H):
    both go to the discard pile and bob attacks next. A losing answer is no misplay: bob
    adds both to his row, the attack card first, and ann attacks again; ``misplays`` stays 0
    (GAME-RECORD.md)."""
    data = blind_base("chinese")
    data["actions"] = [act("ann", "attack", slot=1), act("bob", "defend", slot=1)]
    done = cli_json(data)
    assert done.returncode == 0
    state = json.loads(done.stdout)["state"]
    assert state["hands"] == {"ann": ["KS", "6C"], "bob": ["7D", "QC"]}
    assert (state["discard"], state["attacker"], state["defender"]) == (32, "bob", "ann")
    assert (state["slots"], state["misplays"]) == (True, 0)
    data["actions"][1]["slot"] = 2  # 7D does not beat 9H
    state = json.loads(cli_json(data).stdout)["state"]
    assert state["hands"] == {"ann": ["KS", "6C"], "bob": ["10H", "QC", "9H", "7D"]}
    assert (state["attacker"], state["defender"], state["misplays"]) == ("ann", "bob", 0)


def test_r_chi_2_naming_the_face_down_attack_card_is_illegal_attack_face_down() -> None:
    data = blind_base("chinese")
    data["actions"] = [act("ann", "attack", slot=1), act("bob", "defend", slot=1, on="9H")]
    result = illegal_at(data, 1, "attack_face_down")
    assert result["state"]["table"] == [["9H", None]]  # the whole truth: shown face down


@pytest.mark.parametrize(
    ("judgment", "hands", "attacker"),
    [
        ("believe", {"ann": ["KS", "6C"], "bob": ["10H", "QC"]}, "bob"),
        ("doubt", {"ann": ["KS", "6C"], "bob": ["10H", "QC", "9H", "7D"]}, "ann"),
    ],
)
def test_r_doubt_3_a_doubt_record_names_cards_and_the_judgment(
    judgment: str, hands: dict[str, list[str]], attacker: str
) -> None:
    """R-DOUBT-2, R-DOUBT-3: bob covers 9H with 7D, which does not beat it (a bluff, not an
    illegal action); «верю» discards the table unseen and bob attacks, «не верю» turns the
    cover up and bob takes the table, so ann attacks again. No misplay either way."""
    data = blind_base("doubt")
    data["actions"] = [
        act("ann", "attack", cards=["9H"]),
        act("bob", "defend", card="7D", on="9H"),
        act("ann", judgment),
    ]
    done = cli_json(data)
    assert done.returncode == 0
    state = json.loads(done.stdout)["state"]
    assert state["hands"] == hands
    assert (state["attacker"], state["table"]) == (attacker, [])
    assert (state["slots"], state["misplays"]) == (True, 0)


# --- defaults -----------------------------------------------------------------------------


def test_left_out_keys_take_their_defaults() -> None:
    """GAME-RECORD.md: ``rules`` keys default, ``discard`` may be left out when empty,
    ``dealer`` is the last name, ``bouts_played`` 0, and without ``attacker`` the lowest
    trump opens (R-START-1); the trump may be left out when the stock is not empty."""
    data = base()
    data = with_stock(data, data["discard"])  # everything in the stock, 7C face up
    for key in ("rules", "discard", "dealer", "bouts_played", "attacker", "trump"):
        data.pop(key, None)
    record = load_record(data)
    start = record.start
    assert start.rules == HouseRules()
    assert start.dealer == 2
    assert start.bouts_played == 0
    assert start.trump.letter == "C"
    assert start.bout is not None
    assert record.names[start.bout.attacker] == "bob"  # 6C, the lowest club


def test_empty_stock_with_players_without_cards_starts_without_them() -> None:
    """R-OUT-2: with the stock empty, a player holding no cards has already left."""
    data = base()
    data["discard"] += data["hands"]["cat"]
    data["hands"]["cat"] = []
    state = replay(load_record(data))["state"]
    assert state["out"] == ["cat"]
    assert (state["attacker"], state["defender"]) == ("ann", "bob")


# --- export_record ------------------------------------------------------------------------


def random_game(
    players: int, rules: HouseRules, seed: int
) -> tuple[GameState, list[Action], GameState]:
    """A whole game of random legal play: a random seat of ``to_act``, a random action."""
    rng = random.Random(seed)
    start = new_game(players, rules=rules, seed=seed)
    state = start
    actions: list[Action] = []
    while state.bout is not None:
        assert len(actions) < 20_000, "the game does not end"
        seat = rng.choice(to_act(state))
        action = rng.choice(legal_actions(state, seat))
        state, _ = apply(state, action)
        actions.append(action)
    return start, actions, state


GAMES = [
    (2, {}),
    (3, {"throw_in": "all"}),
    (4, {"throw_in": "neighbors_first_rank", "first_bout_limit": "first_bout"}),
    (5, {"transfer": True, "first_bout_limit": "until_first_beaten"}),
    (6, {}),  # 36 cards to six players: no stock (R-DEAL-4)
    (4, {"deck": 24}),
    (8, {"deck": 52, "transfer": True, "throw_in": "all"}),
    (3, {"blind": "reversed", "throw_in": "all"}),  # section 14: actions by slot
    (2, {"blind": "chinese"}),
    (4, {"blind": "doubt", "deck": 52}),  # covers that need not beat, and judgments
]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("players", "rules"), GAMES)
def test_exported_random_game_replays_to_the_same_result(
    players: int, rules: dict[str, Any], seed: int
) -> None:
    """export_record -> JSON -> load_record -> replay gives the finished game's own result
    (the durak or the draw, every hand, who left in which order)."""
    start, actions, final = random_game(players, HouseRules.from_dict(rules), seed)
    names = [f"player{seat + 1}" for seat in range(players)]
    record = json.loads(json.dumps(export_record(start, actions, names)))
    result = replay(load_record(record))
    assert result == {"ok": True, "state": state_to_record_dict(final, names)}
    assert result["state"]["status"] == "finished"


def test_exported_random_game_replays_through_the_cli(tmp_path: Path) -> None:
    start, actions, final = random_game(4, HouseRules(), seed=11)
    names = ["ann", "bob", "cat", "dan"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(export_record(start, actions, names)), "utf-8")
    done = cli(str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["state"] == state_to_record_dict(final, names)


def test_export_record_writes_every_key_of_the_format() -> None:
    start = new_game(3, seed=5)
    record = export_record(start, [], ["ann", "bob", "cat"])
    assert list(record) == [
        "rules",
        "players",
        "dealer",
        "hands",
        "stock",
        "trump",
        "discard",
        "attacker",
        "bouts_played",
        "actions",
    ]
    assert record["stock"][-1] == str(start.trump_card)
    assert record["actions"] == []
    loaded = load_record(record).start
    assert loaded.hands == start.hands
    assert loaded.stock == start.stock
    assert loaded.bout == start.bout


@pytest.mark.parametrize("number", range(1, 7))
def test_export_of_a_loaded_record_replays_the_same(number: int) -> None:
    """load_record then export_record keeps the record's meaning: the same replay output."""
    name = sorted(RECORDS.glob(f"ex{number}_*.json"))[0]
    data = json.loads(name.read_text("utf-8"))
    record = load_record(data)
    again = export_record(record.start, record.actions, record.names)
    assert replay(load_record(again)) == replay(record)


def test_export_record_refuses_a_start_in_the_middle_of_a_bout() -> None:
    start = new_game(2, seed=1)
    seat = to_act(start)[0]
    middle, _ = apply(start, legal_actions(start, seat)[0])
    with pytest.raises(RecordError, match="between bouts"):
        export_record(middle, [], ["ann", "bob"])
    with pytest.raises(RecordError, match="names"):
        export_record(start, [], ["ann"])
    with pytest.raises(RecordError, match="distinct"):
        export_record(start, [], ["ann", "ann"])


def test_run_reports_events_and_stops_at_the_illegal_action() -> None:
    data = base()
    data["actions"] = [act("ann", "attack", cards=["8H"]), act("ann", "attack", cards=["10C"])]
    outcome = run(load_record(data))
    assert not outcome.ok
    assert outcome.applied == 1
    assert outcome.error is not None
    assert outcome.error.code == "bout_already_opened"
    assert len(outcome.events) == 1


# --- positions that cannot be played ------------------------------------------------------


def test_r_out_1_from_position_never_leaves_a_player_to_act_without_a_legal_action() -> None:
    """R-OUT-1, R-DRAW-1, R-LIMIT-1: an empty hand with cards in the stock only happens
    between bouts if the position was never played to (everybody draws up to six after a
    bout). ``from_position`` should refuse it (SetupError) or give a position where every
    player named by ``to_act`` has a legal action; it gives a stuck game instead."""
    data = base()
    data = with_stock(data, [c for c in data["discard"] if c != "AC"] + ["AC"])
    data["trump"] = "C"
    data["discard"] = data["hands"]["bob"]
    data["hands"]["bob"] = []  # bob defends against ann
    try:
        record = load_record(data)
    except RecordError as error:
        assert str(error).startswith("not a playable position")  # SetupError: fine
        return
    start = record.start
    assert to_act(start) == (0,)
    assert all(legal_actions(start, seat) for seat in to_act(start))


def test_from_position_is_what_load_record_builds() -> None:
    data = base()
    record = load_record(data)
    h = Card.parse
    direct = from_position(
        [[h(c) for c in data["hands"][n]] for n in data["players"]],
        stock=[],
        trump=record.start.trump,
        discard=[h(c) for c in data["discard"]],
        dealer=2,
        attacker=0,
        bouts_played=12,
    )
    assert record.start == direct


def test_other_keys_are_notes_and_a_missing_stock_is_empty() -> None:
    """GAME-RECORD.md: ``stock`` may be empty; keys the format does not define (a comment,
    an expected result) are notes for people and do not change the replay."""
    data = base()
    assert data["stock"] == []
    plain = replay(load_record(data))
    data.pop("stock")
    data["comment"] = "a note"
    assert replay(load_record(data)) == plain


_RULE_CHOICES = {
    "throw_in": ("neighbors", "all", "neighbors_first_rank"),
    "first_bout_limit": ("none", "first_bout", "until_first_beaten"),
    "no_trump_start": ("dealer_left", "random"),
    "next_game_start": ("from_under_fool", "under_fool", "lowest_trump"),
    "transfer": (False, True),
    "deck": (24, 36, 52),
}


@settings(max_examples=120, deadline=None)
@given(
    choice=st.fixed_dictionaries({k: st.sampled_from(v) for k, v in _RULE_CHOICES.items()}),
    players=st.integers(2, 8),
    seed=st.integers(0, 2**32),
)
def test_property_any_random_game_exported_replays_identically(
    choice: dict[str, Any], players: int, seed: int
) -> None:
    """Over random house rules, table sizes and seeds: a finished game's record replays to
    exactly its final position (GAME-RECORD.md)."""
    rules = HouseRules.from_dict(choice)
    players = min(players, rules.max_players)
    start, actions, final = random_game(players, rules, seed)
    names = [f"p{seat}" for seat in range(players)]
    record = json.loads(json.dumps(export_record(start, actions, names)))
    assert replay(load_record(record)) == {"ok": True, "state": state_to_record_dict(final, names)}
