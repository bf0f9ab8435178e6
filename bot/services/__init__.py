"""The game service (load, apply the engine, compare-and-set save) and the turn clock.
Any service call may raise ``StorageBusy`` (Redis stayed too busy to save)."""

from bot.storage import StorageBusy

from .decisions import Player
from .games import Check, GameService, MemberCheck
from .links import join_payload, parse_join_payload, start_link
from .outcomes import Outcome, PressOutcome, PressResult, Result
from .sweeper import TurnSweeper
from .turns import timeout_actions

__all__ = [
    "Check",
    "GameService",
    "MemberCheck",
    "Outcome",
    "Player",
    "PressOutcome",
    "PressResult",
    "Result",
    "StorageBusy",
    "TurnSweeper",
    "join_payload",
    "parse_join_payload",
    "start_link",
    "timeout_actions",
]
