"""The game service (load, apply the engine, compare-and-set save) and the turn clock.
Any service call may raise ``StorageBusy`` (Redis stayed too busy to save)."""

from bot.storage import Claim, StorageBusy
from bot.storage.workers import DUPLICATE, UpdateOnce

from .decisions import Player, timeout_actions
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
