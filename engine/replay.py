"""Replaying game records (GAME-RECORD.md) and the ``python -m engine.replay`` command.

    outcome = run(load_record(data))    # every state-changing rule applied by the engine
    result = replay(load_record(data))  # the output object of GAME-RECORD.md

``python -m engine.replay FILE`` (``-`` for standard input) prints that object as JSON and
exits 0 when every action was legal, 1 when one was not (the JSON is still printed), and 2
when the record is malformed or cannot be read (one line on standard error, nothing on
standard output).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, NoReturn

from .cards import cards_of
from .errors import IllegalAction
from .events import Event
from .moves import to_act
from .play import apply
from .record import Record, RecordError, export_record, load_record
from .state import GameState

EXIT_OK: Final = 0
EXIT_ILLEGAL: Final = 1
EXIT_MALFORMED: Final = 2
USAGE: Final = "usage: python -m engine.replay FILE (a game record; - reads standard input)"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What replaying a record did. ``state`` is the position after the last legal action;
    when an action was illegal, ``error`` says why and ``applied`` is its index."""

    record: Record
    state: GameState
    events: tuple[Event, ...]
    applied: int
    error: IllegalAction | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def run(record: Record) -> Outcome:
    """Apply the record's actions in order, stopping at the first illegal one."""
    state = record.start
    events: list[Event] = []
    for index, action in enumerate(record.actions):
        try:
            state, happened = apply(state, action)
        except IllegalAction as error:
            return Outcome(record, state, tuple(events), index, error)
        events.extend(happened)
    return Outcome(record, state, tuple(events), len(record.actions))


def replay(record: Record) -> dict[str, Any]:
    """The output object of GAME-RECORD.md: ``ok``, ``error`` when not ok, and ``state``."""
    return outcome_to_dict(run(record))


def outcome_to_dict(outcome: Outcome) -> dict[str, Any]:
    result: dict[str, Any] = {"ok": outcome.ok}
    if outcome.error is not None:
        result["error"] = {
            "index": outcome.applied,
            "code": outcome.error.code.value,
            "message": outcome.error.message,
        }
    result["state"] = state_to_record_dict(outcome.state, outcome.record.names)
    return result


def state_to_record_dict(state: GameState, names: Sequence[str]) -> dict[str, Any]:
    """A position as the ``state`` object of GAME-RECORD.md, players by name."""
    bout = state.bout
    finished = bout is None
    result: dict[str, Any] = {
        "trump": state.trump.letter,
        "stock": len(state.stock),
        "discard": state.discard.bit_count(),
        # cards_of lists a hand by suit (S H D C), then rank low to high; the blind family's
        # in slot order (R-BLIND-2).
        "hands": {
            name: [str(c) for c in (state.rows[s] if state.slots else cards_of(state.hands[s]))]
            for s, name in enumerate(names)
        },
        "table": []
        if bout is None
        else [[str(attack), None if cover is None else str(cover)] for attack, cover in bout.pairs],
        "attacker": None if bout is None else names[bout.attacker],
        "defender": None if bout is None else names[bout.defender],
        "taking": False if bout is None else bout.taking,
        "to_act": [names[s] for s in to_act(state)],
        "out": [names[s] for s in state.out],
        "status": "finished" if finished else "playing",
        "durak": None if state.durak is None else names[state.durak],
        "draw": finished and state.durak is None,
    }
    # The variants' fields only when their rule is on, so that other records print what
    # they always printed (GAME-RECORD.md).
    if state.teams:
        result["teams"] = [[names[s] for s in team] for team in state.teams]
        losing = state.losing_team
        result["losing_team"] = None if losing is None else [names[s] for s in losing]
    if state.rules.pogony != "off":
        result["pogony"] = state.epaulettes
    if state.slots:  # the whole truth: face-down cards shown too (GAME-RECORD.md)
        result["slots"] = True
        result["misplays"] = state.misplays
    return result


# --- the command -------------------------------------------------------------------------


class _Malformed(Exception):
    """The input cannot be read as a record: exit 2 with this message."""


def _reject_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Malformed(f"the key {key!r} appears twice in one object")
        result[key] = value
    return result


def _reject_constant(name: str) -> NoReturn:
    raise _Malformed(f"{name} is not a JSON number")


def parse_json(text: str) -> object:
    """JSON as the standard says: no repeated keys in one object, no NaN or Infinity."""
    try:
        return json.loads(
            text, object_pairs_hook=_reject_duplicate_keys, parse_constant=_reject_constant
        )
    except json.JSONDecodeError as error:
        raise _Malformed(
            f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None


def _read(path: str) -> str:
    try:
        if path == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as file:
                raw = file.read()
    except OSError as error:
        raise _Malformed(f"cannot read {path}: {error.strerror or error}") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _Malformed(f"{'standard input' if path == '-' else path} is not UTF-8 text") from None


def read_json(path: str) -> object:
    """The JSON document in file ``path`` (``-``: standard input), as ``parse_json`` reads
    it; ``RecordError`` with a one-line reason when it cannot be read. What the commands
    that take a record file (``engine.replay``, ``engine.verify``, ``engine.ai.review``)
    read it with, so they refuse the same files."""
    try:
        return parse_json(_read(path))
    except _Malformed as error:
        raise RecordError(" ".join(str(error).split())) from None


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m engine.replay FILE``: print the replay's JSON; return the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):
        print(USAGE)
        return EXIT_OK
    try:
        if len(args) != 1:
            raise RecordError(USAGE)
        record = load_record(read_json(args[0]))
    except RecordError as error:
        message = " ".join(str(error).split())  # one line, whatever the input held
        sys.stderr.write(f"engine.replay: {message}\n")
        return EXIT_MALFORMED
    result = replay(record)
    text = json.dumps(result, ensure_ascii=False, indent=2) + "\n"
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.buffer.flush()
    return EXIT_OK if result["ok"] else EXIT_ILLEGAL


__all__ = [
    "Outcome",
    "Record",
    "RecordError",
    "export_record",
    "load_record",
    "main",
    "outcome_to_dict",
    "read_json",
    "replay",
    "run",
    "state_to_record_dict",
]

if __name__ == "__main__":
    sys.exit(main())
