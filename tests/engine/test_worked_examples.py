"""RULES.md section 12: the six worked examples of the sources, as game records.

Each ``records/exN_*.json`` is a full legal position (every card of the deck exactly once)
reproducing one example, with its actions, the ``expected`` output of GAME-RECORD.md and
``branches`` (the same position with other actions). Every record and branch is replayed
through the Python API and through the real ``python -m engine.replay`` command; the tests
below then check what each example is about, rule by rule.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import (
    Card,
    Defend,
    Drew,
    GameState,
    PlayerOut,
    Throw,
    Took,
    legal_actions,
    view_for,
)
from engine.events import BeatenOff, Event
from engine.replay import Outcome, Record, load_record, replay, run

ROOT = Path(__file__).resolve().parents[2]
RECORDS = Path(__file__).resolve().parent / "records"
EXAMPLES = {
    1: "ex1_limit.json",
    2: "ex2_four_players.json",
    3: "ex3_what_defence_opens.json",
    4: "ex4_limit_defender_hand.json",
    5: "ex5_one_uncovered_takes_all.json",
    6: "ex6_who_starts.json",
}
DECK_36 = {f"{r}{s}" for s in "SHDC" for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")}


def example(number: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / EXAMPLES[number]).read_text("utf-8"))
    return data


def variant(number: int, branch: str | None = None) -> dict[str, Any]:
    """The record of an example with the actions of its main line or of one branch."""
    data = copy.deepcopy(example(number))
    if branch is not None:
        chosen = next(b for b in data["branches"] if b["name"] == branch)
        data["actions"] = chosen["actions"]
        data["expected"] = chosen["expected"]
    return data


def outcome(number: int, branch: str | None = None) -> tuple[Record, Outcome]:
    record = load_record(variant(number, branch))
    return record, run(record)


def after(number: int, count: int) -> GameState:
    """The state after the first ``count`` actions of an example's main line."""
    data = variant(number)
    result = run(load_record({**data, "actions": data["actions"][:count]}))
    assert result.ok
    return result.state


def names_of(
    record: Record, events: tuple[Event, ...], kind: type[Drew] | type[PlayerOut]
) -> list[str]:
    return [record.names[e.player] for e in events if isinstance(e, kind)]


def all_runs() -> list[tuple[int, str | None]]:
    runs: list[tuple[int, str | None]] = []
    for number in EXAMPLES:
        runs.append((number, None))
        runs += [(number, b["name"]) for b in example(number).get("branches", [])]
    return runs


def assert_matches(result: dict[str, Any], expected: dict[str, Any]) -> None:
    """``result`` is the replay output; ``expected`` gives ok, the error's index and code (the
    message is free text), and every field of the state."""
    assert set(result) == ({"ok", "state"} if expected["ok"] else {"ok", "error", "state"})
    assert result["ok"] is expected["ok"]
    if not expected["ok"]:
        error = result["error"]
        assert set(error) == {"index", "code", "message"}
        assert (error["index"], error["code"]) == (
            expected["error"]["index"],
            expected["error"]["code"],
        )
        assert isinstance(error["message"], str)
        assert error["message"]
    assert result["state"] == expected["state"]


# --- every record, both ways ---------------------------------------------------------------


@pytest.mark.parametrize("number", EXAMPLES)
def test_every_example_record_holds_the_whole_deck_once(number: int) -> None:
    """GAME-RECORD.md: every card of the deck appears exactly once across hands, stock and
    discard (R-DECK-1), so each example is a real position, not a sketch."""
    data = example(number)
    named = [c for hand in data["hands"].values() for c in hand] + data["stock"] + data["discard"]
    assert len(named) == len(DECK_36)
    assert set(named) == DECK_36
    load_record(data)


@pytest.mark.parametrize(("number", "branch"), all_runs())
def test_example_records_replay_to_expected_through_the_api(
    number: int, branch: str | None
) -> None:
    """Each example and branch replays to its ``expected`` output (GAME-RECORD.md)."""
    data = variant(number, branch)
    assert_matches(replay(load_record(data)), data["expected"])


@pytest.mark.parametrize(("number", "branch"), all_runs())
def test_example_records_replay_to_expected_through_the_cli(
    number: int, branch: str | None
) -> None:
    """The same through ``python -m engine.replay -``: exit 0 when ok, 1 for an illegal
    action, the JSON on standard output either way."""
    data = variant(number, branch)
    done = subprocess.run(
        [sys.executable, "-m", "engine.replay", "-"],
        input=json.dumps(data).encode("utf-8"),
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == (0 if data["expected"]["ok"] else 1), done.stderr
    assert done.stderr == b""
    assert_matches(json.loads(done.stdout), data["expected"])


@pytest.mark.parametrize("number", EXAMPLES)
def test_example_record_files_run_as_they_are(number: int) -> None:
    """``python -m engine.replay FILE`` reads the example files themselves (their
    ``comment``, ``expected`` and ``branches`` are notes the replay skips)."""
    done = subprocess.run(
        [sys.executable, "-m", "engine.replay", str(RECORDS / EXAMPLES[number])],
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    expected = example(number)["expected"]
    assert done.returncode == (0 if expected["ok"] else 1), done.stderr
    assert_matches(json.loads(done.stdout), expected)


# --- 1. S0 §07, the limit --------------------------------------------------------------------


def test_example_1_s0_limit_take() -> None:
    """R-LIMIT-1, R-LIMIT-2, R-END-2: bob holds three cards when the bout begins, so the
    bout's limit is three; after JH he takes all five table cards and, with 6C, holds six;
    the next player clockwise, cat, attacks next."""
    record, result = outcome(1)
    assert record.start.bout is not None
    assert record.start.bout.limit == 3
    bob = record.seat("bob")
    took = [e for e in result.events if isinstance(e, Took)]
    assert len(took) == 1
    assert took[0].player == bob
    assert sorted(map(str, took[0].cards)) == sorted(["8H", "9H", "9S", "JD", "JH"])
    assert result.state.hands[bob].bit_count() == 6
    assert result.state.bout is not None
    assert record.names[result.state.bout.attacker] == "cat"


def test_example_1_s0_limit_no_fourth_attack_card() -> None:
    """R-LIMIT-1: with three attack cards on the table nobody is asked to add more (cat
    still holds 8C, an eight is on the table), and adding it is refused with over_limit."""
    record, result = outcome(1, "fourth_attack_card_refused")
    assert result.error is not None
    assert result.error.code == "over_limit"
    cat = record.seat("cat")
    assert legal_actions(result.state, cat) == []


def test_example_1_s0_limit_attackers_stop_after_two_covered() -> None:
    """R-END-1: had the attackers stopped after two covered cards, four cards go to the
    discard, bob keeps 6C and attacks next."""
    record, result = outcome(1, "attackers_stop_after_two_covered")
    beaten = [e for e in result.events if isinstance(e, BeatenOff)]
    assert len(beaten) == 1
    assert len(beaten[0].cards) == 4
    bob = record.seat("bob")
    assert [str(c) for c in result.state.hand(bob)] == ["6C"]
    assert result.state.bout is not None
    assert result.state.bout.attacker == bob


# --- 2. S1 §5, four players, throw_in all ------------------------------------------------------


def test_example_2_s1_four_players_throw_in_all() -> None:
    """R-BOUT-4, R-BOUT-5 (``all``), R-END-1, R-DRAW-2: players 2 and 3 throw in, player 1
    covers everything, nobody can add: six cards go to the discard; players 4, 2, 3 draw,
    player 1 last; player 1 attacks player 2 next."""
    record, result = outcome(2)
    assert result.ok
    beaten = [e for e in result.events if isinstance(e, BeatenOff)]
    assert [len(e.cards) for e in beaten] == [6]
    assert names_of(record, result.events, Drew) == ["p4", "p2", "p3", "p1"]
    assert [e[1] for e in result.events if isinstance(e, Drew)] == [1, 1, 1, 3]  # cards drawn
    bout = result.state.bout
    assert bout is not None
    assert (record.names[bout.attacker], record.names[bout.defender]) == ("p1", "p2")


# --- 3. S4 ex. 1, what defence opens ------------------------------------------------------------


def test_example_3_s4_what_defence_opens() -> None:
    """R-BOUT-4: after 8S is covered by 10S the thrower holding 8D 10C 9H QS may throw 8D,
    10C or both, and nothing else: 9H is a trump but no nine is on the table."""
    record = load_record(variant(3))
    state = after(3, 2)
    you = record.seat("you")
    throws = {
        frozenset(str(c) for c in a.cards)
        for a in legal_actions(state, you)
        if isinstance(a, Throw)
    }
    assert throws == {frozenset({"8D"}), frozenset({"10C"}), frozenset({"8D", "10C"})}
    for branch in ("nine_of_trumps_refused", "queen_refused"):
        result = run(load_record(variant(3, branch)))
        assert result.error is not None
        assert (result.applied, result.error.code) == (2, "rank_not_on_table")


# --- 4. S4 ex. 2, the limit is the defender's hand -----------------------------------------------


def test_example_4_s4_limit_is_the_defenders_hand() -> None:
    """R-LIMIT-1: the defender holds two cards, so after K♣ the thrower may add exactly one
    king (each alone, never two); the second king is refused with over_limit."""
    record, result = outcome(4)
    assert record.start.bout is not None
    assert record.start.bout.limit == 2
    you = record.seat("you")
    throws = [a for a in legal_actions(after(4, 1), you) if isinstance(a, Throw)]
    assert sorted(str(a.cards[0]) for a in throws) == ["KD", "KH", "KS"]
    assert all(len(a.cards) == 1 for a in throws)
    assert result.error is not None
    assert (result.applied, result.error.code) == (2, "over_limit")


def test_example_4_s4_defender_beats_off_and_leaves() -> None:
    """R-END-1, R-OUT-2, R-END-4: dasha covers K♣ with A♣ and the king with 6♦; the table
    is beaten off, her hand and the stock are empty, so she leaves; the thrower keeps two
    kings, and the next active player clockwise (the thrower) attacks."""
    record, result = outcome(4, "defender_beats_off_and_leaves")
    assert result.ok
    assert names_of(record, result.events, PlayerOut) == ["dasha"]
    you = record.seat("you")
    kings = [str(c) for c in result.state.hand(you) if c.rank_name == "K"]
    assert kings == ["KS", "KD"]
    assert result.state.bout is not None
    assert result.state.bout.attacker == you


# --- 5. S4 ex. 3, one uncovered card takes the whole table ---------------------------------------


def test_example_5_s4_one_uncovered_card_takes_the_whole_table() -> None:
    """R-BOUT-9, R-END-2: bohdan cannot beat J♥ and takes; every card on the table, attack
    and defending cards alike, goes to his hand: from two cards to ten. The next player
    clockwise after him attacks next."""
    record, result = outcome(5)
    bohdan = record.seat("bohdan")
    before_take = after(5, 7)
    assert before_take.hands[bohdan].bit_count() == 2
    assert [a for a in legal_actions(before_take, bohdan) if isinstance(a, Defend)] == []
    took = [e for e in result.events if isinstance(e, Took)]
    assert [(e.player, len(e.cards)) for e in took] == [(bohdan, 8)]
    assert result.state.hands[bohdan].bit_count() == 10
    assert result.state.bout is not None
    assert record.names[result.state.bout.attacker] == "you"


# --- 6. S1 §3, who starts -------------------------------------------------------------------------


def test_example_6_s1_who_starts() -> None:
    """R-START-1, R-START-4: with 9♠ face up, player 4 holds 6♠, the lowest trump, and
    attacks player 1, the next player clockwise. The dealer is player 1, so the no-trump
    fallback (the dealer's left neighbour, player 2) is not what decides."""
    record, result = outcome(6)
    start = record.start
    assert start.trump_card == Card.parse("9S")
    bout = start.bout
    assert bout is not None
    assert (record.names[bout.attacker], record.names[bout.defender]) == ("p4", "p1")
    assert result.ok


def test_example_6_s1_lowest_trump_is_shown() -> None:
    """R-START-1: the first attacker announces (shows) the lowest trump: every other player
    knows it is in player 4's hand."""
    record, _ = outcome(6)
    p1 = view_for(record.start, record.seat("p1"))
    assert p1.seen_in_hands[record.seat("p4")] == (Card.parse("6S"),)
