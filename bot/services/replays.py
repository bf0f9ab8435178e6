"""After the game: a finished game's record (GAME-RECORD.md, with its deal: FAIR-DEAL.md), the
check of its deck, and the positions of its replay.

A kept game (``bot.model.FinishedGame``) holds the dealt position and every action as engine
codes; a resignation ends the actions (``Deal.resigned``). Its record names the seats by
their names (made distinct: a record needs them so) and notes who resigned, which the record
format has no action for (``engine.replay`` ignores the note; the game then ends there).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bot.model import FinishedGame, Seat
from bot.storage import FinishedStore
from engine import Action, GameState, apply, resign
from engine.codes import decode
from engine.record import export_record
from engine.verify import Verdict, verify


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a replay: the action (None: the deal, or ``resigned`` seat's
    resignation), the state after it, and its index among the record's actions."""

    index: int
    action: Action | None
    state: GameState
    resigned: int | None = None


def played(finished: FinishedGame) -> tuple[list[Action], list[int]]:
    """The game's actions in order, and the seats that resigned (at the end of them)."""
    actions: list[Action] = []
    resigned: list[int] = []
    for code in finished.deal.actions:
        if code < 0:
            resigned.append(-1 - code)
        elif not resigned:
            actions.append(decode(code))
    return actions, resigned


def steps(finished: FinishedGame) -> Iterator[Step]:
    """The deal, then the state after every action, then after each resignation."""
    state = finished.deal.start
    yield Step(-1, None, state)
    actions, resigned = played(finished)
    for index, action in enumerate(actions):
        state, _ = apply(state, action)
        yield Step(index, action, state)
    for seat in resigned:
        if state.finished:
            break
        state, _ = resign(state, seat)
        yield Step(len(actions), None, state, resigned=seat)


def record_names(players: list[Seat]) -> list[str]:
    """The seats' names, made distinct (a record names every seat once)."""
    names: list[str] = []
    for seat in players:
        name, number = seat.name.strip() or str(seat.user_id), 2
        candidate = name
        while candidate in names:
            candidate, number = f"{name} ({number})", number + 1
        names.append(candidate)
    return names


def record_of(finished: FinishedGame) -> dict[str, Any]:
    """The game's record: GAME-RECORD.md's fields, its ``deal`` with the seed revealed, and
    who resigned, if anyone did."""
    names = record_names(finished.players)
    actions, resigned = played(finished)
    record = export_record(finished.deal.start, actions, names)
    record["deal"] = {
        "game": finished.game_id,
        "seed": finished.deal.seed,
        "commitment": finished.commitment,
    }
    if resigned:
        record["resigned"] = [names[seat] for seat in resigned]
    return record


def record_text(finished: FinishedGame) -> str:
    """The record as the file ``/replay`` sends: indented JSON, letters as themselves."""
    return json.dumps(record_of(finished), ensure_ascii=False, indent=1) + "\n"


def checked(finished: FinishedGame) -> Verdict:
    """``python -m engine.verify`` on the game's record, here."""
    return verify(record_of(finished))


class Replays:
    """The kept games, for the handlers (which never see storage)."""

    def __init__(self, storage: FinishedStore) -> None:
        self.storage = storage

    async def finished(self, chat_id: int, game_id: str | None = None) -> FinishedGame | None:
        """Game ``game_id`` of ``chat_id`` if it is kept, or (None) the chat's latest."""
        if game_id is None:
            return await self.storage.latest(chat_id)
        return await self.storage.get(chat_id, game_id)


def file_name(finished: FinishedGame) -> str:
    """What the record's file is called: ``durak-<game id>.json``."""
    return f"durak-{finished.game_id}.json"


_REVIEW_RE = re.compile(r"\Ar(-?[0-9]{1,20})_([A-Za-z0-9_-]{1,16})\Z")  # not \d: any Unicode digit


def review_payload(chat_id: int, game_id: str) -> str:
    """``t.me/<bot>?start=<payload>`` that asks for the review of a game (``r<chat>_<game>``)."""
    return f"r{chat_id}_{game_id}"


def parse_review_payload(payload: str) -> tuple[int, str] | None:
    match = _REVIEW_RE.match(payload)
    return None if match is None else (int(match.group(1)), match.group(2))
