"""What the people of the load benchmark (``bench.load``) were shown, and when: the
first delivery of each person's buttons for each position of their game (read from the
fake's call log), the presses that made a move, and the turn timeouts the players read in
their game's record. From them: how long a press waited for the buttons of the people to
act next, and how often a person's turn clock ran out before their buttons came."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bot.model import GameRecord
from bot.ui.callbacks import HandPress
from tests.e2e.fake_telegram import CallRecord
from tests.e2e.fake_telegram.world import FLOOD_COUNTED_METHODS


@dataclass(frozen=True)
class Move:
    """A hand press that made a move: in ``game`` at position ``moves``, in ``chat`` (the
    game's chat: a group, or the person's private chat), pressed ``at``."""

    game: str
    moves: int
    chat: int
    at: float


@dataclass(frozen=True)
class Timeout:
    """The turn timer acted for ``user`` in ``game`` at position ``moves``; the players read
    it in the record at ``seen`` (within a second or so of it happening)."""

    game: str
    moves: int
    user: int
    seen: float


@dataclass
class TurnLog:
    """Times are the fake's ``time.monotonic()``, as in its call log."""

    # (game, person) -> position -> the first successful send or edit showing its buttons
    shown: dict[tuple[str, int], dict[int, float]] = field(default_factory=dict)
    people: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    moves: list[Move] = field(default_factory=list)
    # (game, the move count the timer's moves led to, person) -> the timeout
    timeouts: dict[tuple[str, int, int], Timeout] = field(default_factory=dict)

    def call(self, call: CallRecord) -> None:
        """Note the buttons a send or edit to a private chat (a person's) showed."""
        if not call.ok or call.method not in FLOOD_COUNTED_METHODS:
            return
        if call.chat_id is None or call.chat_id < 0:
            return
        press = _first_hand_press(call.params.get("reply_markup"))
        if press is None:
            return
        self.shown.setdefault((press.game, call.chat_id), {}).setdefault(press.moves, call.at)
        self.people[press.game].add(call.chat_id)

    def moved(self, data: str, at: float) -> None:
        """A hand press (its callback data) made a move."""
        press = HandPress.unpack(data)
        self.moves.append(Move(press.game, press.moves, press.chat, at))

    def read(self, record: GameRecord, now: float) -> None:
        """Note the turn timeouts told in ``record``'s log (``bot.model.append_log``: each
        action the timer made is one entry with ``"timeout"`` and the move count after)."""
        game = record.game
        made: dict[int, list[int]] = defaultdict(list)  # move count after -> seats
        for entry in game.log:
            if entry.get("timeout") and isinstance(entry.get("moves"), int):
                made[entry["moves"]].append(int(entry["player"]))
        for after, seats in made.items():
            # One move per action; counted when first seen, before newer events push the
            # first of them out of the log.
            before = after - len(seats)
            for seat in seats:
                user = game.players[seat].user_id
                self.timeouts.setdefault(
                    (game.game_id, after, user), Timeout(game.game_id, before, user, now)
                )

    def next_buttons(self, chats: set[int]) -> list[float]:
        """For each move made in ``chats``: the first later position at which a person of
        the game was shown buttons (in a group the position the move led to; alone against
        computers, the person's next turn), and from the press to each such person's
        buttons, in seconds."""
        waits = []
        for move in self.moves:
            if move.chat not in chats:
                continue
            firsts = {}
            for person in self.people.get(move.game, ()):
                later = [m for m in self.shown[(move.game, person)] if m > move.moves]
                if later:
                    firsts[person] = min(later)
            if not firsts:
                continue  # the game ended, or nobody was shown buttons again
            position = min(firsts.values())
            waits += [
                self.shown[(move.game, person)][position] - move.at
                for person, first in firsts.items()
                if first == position
            ]
        return waits

    def early_timeouts(self, turn_time: float) -> int:
        """Turn timeouts of a person who had not been shown the position's buttons, or had
        been shown them less than ``turn_time`` seconds before."""
        early = 0
        for timeout in self.timeouts.values():
            shown = self.shown.get((timeout.game, timeout.user), {}).get(timeout.moves)
            if shown is None or timeout.seen - shown < turn_time:
                early += 1
        return early


def _first_hand_press(markup: Any) -> HandPress | None:
    if isinstance(markup, str):
        markup = json.loads(markup) if markup else None
    if not isinstance(markup, dict):
        return None
    for row in markup.get("inline_keyboard") or []:
        for button in row:
            data = button.get("callback_data")
            if isinstance(data, str) and data.startswith("h:"):
                return HandPress.unpack(data)
    return None


def quantiles(values: list[float]) -> dict[str, float] | None:
    """p50, p90, p99 and max, in milliseconds (nearest rank); None without values."""
    if not values:
        return None
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000, 1)

    return {"p50": at(0.5), "p90": at(0.9), "p99": at(0.99), "max": at(1.0), "n": len(values)}
