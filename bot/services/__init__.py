"""The game service (load, apply the engine, compare-and-set save) and the turn clock.
Any service call may raise ``StorageBusy`` (Redis stayed too busy to save)."""

from bot.storage import Claim, StorageBusy

from .checks import Check, MemberCheck
from .decisions import Player
from .games import GameService
from .links import join_payload, parse_join_payload, start_link
from .outcomes import Changed, Outcome, PressOutcome, Refused, Viewed
from .sweeper import TurnSweeper
from .turns import timeout_actions

__all__ = [
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
    "Viewed",
    "join_payload",
    "parse_join_payload",
    "start_link",
    "timeout_actions",
]
