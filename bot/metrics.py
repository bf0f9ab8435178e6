"""What an operator watches, as Prometheus metrics (``prometheus_client``), and the health
check. Counters are bumped where things happen; figures that live in Redis (the outbox's
work list, the games being played) are read when ``/metrics`` is scraped (``refresh``).

Names: ``durak_updates_total{kind,outcome}``, ``durak_press_answer_seconds``,
``durak_cas_retries_total{what}``, ``durak_bot_api_errors_total{method,kind}``,
``durak_outbox_chats``, ``durak_outbox_oldest_seconds``, ``durak_notes_pending``,
``durak_notes_oldest_seconds``, ``durak_games_running``, ``durak_workers``,
``durak_turn_timeouts_total``, ``durak_computer_moves_total{level}``,
``durak_computer_degraded_total{level,reason}``, ``durak_computer_decision_seconds{level}``,
``durak_games_broken_total``, ``durak_games_newer_total``.
"""

from __future__ import annotations

import time
from typing import Final

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY: Final = CollectorRegistry()

UPDATES: Final = Counter(
    "durak_updates",
    "Updates handled, by kind (message, callback_query, ...) and outcome",
    ["kind", "outcome"],
    registry=REGISTRY,
)
PRESS_ANSWER: Final = Histogram(
    "durak_press_answer_seconds",
    "From a button press reaching the bot to its answer being sent",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)
GAMES_BROKEN: Final = Counter(
    "durak_games_broken",
    "Stored games this version could not read (corrupt): moved aside for an operator",
    registry=REGISTRY,
)
GAMES_NEWER: Final = Counter(
    "durak_games_newer",
    "Reads of games saved by a newer version of the bot: left to a newer worker, unchanged",
    registry=REGISTRY,
)
CAS_RETRIES: Final = Counter(
    "durak_cas_retries",
    "Redis compare-and-set attempts that found the value changed and ran again",
    ["what"],
    registry=REGISTRY,
)
API_ERRORS: Final = Counter(
    "durak_bot_api_errors",
    "Bot API calls that failed, by method and kind (429, 5xx, 4xx, network)",
    ["method", "kind"],
    registry=REGISTRY,
)
OUTBOX_CHATS: Final = Gauge(
    "durak_outbox_chats", "Chats whose messages are waiting to show a change", registry=REGISTRY
)
OUTBOX_OLDEST: Final = Gauge(
    "durak_outbox_oldest_seconds",
    "How long the longest-waiting chat of the outbox has waited",
    registry=REGISTRY,
)
NOTES_PENDING: Final = Gauge(
    "durak_notes_pending",
    "Chats with one-off replies or notices waiting to be sent",
    registry=REGISTRY,
)
NOTES_OLDEST: Final = Gauge(
    "durak_notes_oldest_seconds",
    "How long the chat whose one-off messages wait longest has waited",
    registry=REGISTRY,
)
GAMES_RUNNING: Final = Gauge(
    "durak_games_running", "Games being played (lobbies not counted)", registry=REGISTRY
)
WORKERS: Final = Gauge(
    "durak_workers",
    "Worker processes of the bot alive (on one Redis), as this one last counted them",
    registry=REGISTRY,
)
TURN_TIMEOUTS: Final = Counter(
    "durak_turn_timeouts", "Decisions the turn timer made for people", registry=REGISTRY
)
COMPUTER_MOVES: Final = Counter(
    "durak_computer_moves", "Moves of computer players, by level", ["level"], registry=REGISTRY
)
COMPUTER_DEGRADED: Final = Counter(
    "durak_computer_degraded",
    "Computer decisions made with less than their level: a search shortened because many "
    "waited (short_budget), or the heuristic player after a search overran far (overrun)",
    ["level", "reason"],
    registry=REGISTRY,
)
COMPUTER_DECISION: Final = Histogram(
    "durak_computer_decision_seconds",
    "From a computer player's move being due (the change that made it so, plus the pause) "
    "to the move being saved",
    ["level"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 7.5, 10.0, 15.0, 20.0, 30.0, 60.0),
    registry=REGISTRY,
)


class BotApiWatch:
    """When the Bot API last answered this process (for ``/healthz``)."""

    def __init__(self) -> None:
        self.last_ok = 0.0

    def reached(self) -> None:
        self.last_ok = time.monotonic()

    def seconds_since(self) -> float:
        return time.monotonic() - self.last_ok if self.last_ok else float("inf")


BOT_API: Final = BotApiWatch()


def error_kind(status: int | None) -> str:
    """A failed call's kind for ``API_ERRORS``: ``429``, ``5xx``, ``4xx`` or ``network``."""
    if status is None:
        return "network"
    if status == 429:
        return "429"
    return "5xx" if status >= 500 else "4xx"
