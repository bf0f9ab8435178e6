"""The game service (load, apply the engine, compare-and-set save) and the turn clock.
Any service call may raise ``StorageBusy`` (Redis stayed too busy to save), and one on a
game a newer version of the bot saved ``NewerRecord`` (nothing changed: it waits for a newer
worker)."""

from bot.storage import Claim, NewerRecord, StorageBusy
from bot.storage.workers import DUPLICATE, UpdateOnce
from engine import timeout_actions

from .decisions import Player
from .due import TurnSweeper
from .games import GameService, join_payload, parse_join_payload, start_link
from .outcomes import Changed, Check, MemberCheck, Outcome, PressOutcome, Refused, Viewed

__all__ = [
    "DUPLICATE",
    "Changed",
    "Check",
    "Claim",
    "GameService",
    "MemberCheck",
    "NewerRecord",
    "Outcome",
    "Player",
    "PressOutcome",
    "Refused",
    "StorageBusy",
    "TurnSweeper",
    "UpdateOnce",
    "Viewed",
    "join_payload",
    "parse_join_payload",
    "start_link",
    "timeout_actions",
]
