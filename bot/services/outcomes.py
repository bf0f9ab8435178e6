"""What a service call did, for the handlers to answer with and the outbox to show."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from bot.storage import GameRecord
from engine import Card, Code, Event


class Result(StrEnum):
    """A stable code per outcome; the handlers map each one to a localized message."""

    CREATED = "created"  # a new lobby
    EXISTS = "exists"  # a lobby or game is already running in this chat
    JOINED = "joined"
    ALREADY_JOINED = "already_joined"
    LOBBY_FULL = "lobby_full"
    NEED_START = "need_start"  # the user must start the bot in private first
    NO_LOBBY = "no_lobby"
    GAME_RUNNING = "game_running"  # joining or leaving while cards are being played
    LEFT = "left"
    RESIGNED = "resigned"  # left a running game: the durak
    NOT_JOINED = "not_joined"
    STARTED = "started"
    NOT_ALLOWED = "not_allowed"  # only the creator or an admin may do that
    TOO_FEW = "too_few"
    STOPPED = "stopped"
    NO_GAME = "no_game"
    APPLIED = "applied"
    PICKED = "picked"  # a card to cover with was picked: show its targets
    BACK = "back"
    STALE = "stale"  # a keyboard of an older state or game
    NOT_PLAYER = "not_player"
    ILLEGAL = "illegal"  # the engine refused; ``code`` says why
    DUPLICATE = "duplicate"  # the same callback query again (a redelivered update)
    GAME_OVER = "game_over"
    NOT_DUE = "not_due"  # a turn deadline that moved on
    TIMED_OUT = "timed_out"  # the bot acted for players whose time ran out
    HAND = "hand"  # the player's hand, for a pop-up
    BAD_LINK = "bad_link"
    NOT_MEMBER = "not_member"  # a join link followed by someone who is not in the group
    MIGRATED = "migrated"  # the group became a supergroup: its game moved to the new id
    CLOSED = "closed"  # the bot was removed from the group: its lobby or game ended
    COMPUTER_ADDED = "computer_added"  # a computer player sat down in the lobby
    COMPUTER_REMOVED = "computer_removed"
    NO_COMPUTER = "no_computer"  # no computer player to remove
    NO_PERSON = "no_person"  # a game needs at least one person


@dataclass(frozen=True, slots=True)
class Outcome:
    """``record``: the game as it is now (to show), or None when there is none. ``changed``:
    whether this call saved a new version. ``previous``: a game this call replaced (its
    table loses its buttons). ``code``: the engine's reason for ``ILLEGAL``. ``timed_out``: with
    ``TIMED_OUT``, the seats the bot acted for."""

    result: Result
    record: GameRecord | None = None
    changed: bool = False
    events: tuple[Event, ...] = ()
    code: Code | None = None
    seat: int | None = None
    card: Card | None = None
    previous: GameRecord | None = None
    timed_out: tuple[int, ...] = ()

    @property
    def chat_id(self) -> int | None:
        return None if self.record is None else self.record.game.chat_id


PressResult = Literal[
    Result.APPLIED,
    Result.PICKED,
    Result.BACK,
    Result.DUPLICATE,
    Result.STALE,
    Result.NOT_PLAYER,
    Result.GAME_OVER,
    Result.ILLEGAL,
]
"""What a press on a hand keyboard can come to (``GameService.play``)."""


@dataclass(frozen=True, slots=True)
class PressOutcome:
    """What ``GameService.play`` did with a press on a hand keyboard. ``record``: the game
    as it is now (None for a press on a game that is gone); ``changed``: a move was saved
    (``APPLIED``, with its ``events``). ``card``: the card ``PICKED`` to cover with;
    ``code``: why the engine refused (``ILLEGAL``). ``seat``: the presser's seat, if any."""

    result: PressResult
    record: GameRecord | None = None
    changed: bool = False
    events: tuple[Event, ...] = ()
    code: Code | None = None
    seat: int | None = None
    card: Card | None = None

    @property
    def chat_id(self) -> int | None:
        return None if self.record is None else self.record.game.chat_id
