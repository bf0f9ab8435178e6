"""What a failed Bot API call means for the outbox, decided in one place for every kind of
message it sends, and how soon a message that failed for a passing reason is tried again.

A message that failed for a passing reason (5xx, network, timeout, Redis) is tried again
after 0.5, 1, 2 s, then every ``MAX_BACKOFF`` (4) s, jittered, for as long as it takes. The
cap is low so that every waiting message finds out within about 5 s that Telegram answers
again; it is cheap because every try still takes a token of the budget over all chats, so
however many messages wait, a failing Telegram gets no more calls a second than a working
one would. And once Telegram answers again after an outage (``Outage``: a success after
several failures in a row), the success wakes every message of this worker still waiting
for its next try, so they catch up at once, at the pace of the budget, rather than each at
its own time. A single message failing on its own (among others that pass) never wakes the
rest: its failures and their successes alternate, never making a run.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum, auto

from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from redis.exceptions import RedisError

MAX_BACKOFF = 4.0
OUTAGE_RUN = 3  # failures in a row (no success between) that make an outage


class Failure(Enum):
    RETRY_AFTER = auto()  # Telegram's flood control: wait ``seconds`` before writing to the chat
    TRANSIENT = auto()  # 5xx, network, timeout, Redis: try again later, never give up
    NOT_MODIFIED = auto()  # the message shows exactly that already
    GONE = auto()  # the message was deleted (or is too old to edit): post it anew
    FORBIDDEN = auto()  # blocked by the user, or the bot is no longer in the group
    MIGRATED = auto()  # the group became a supergroup with id ``chat_id``
    REFUSED = auto()  # anything else Telegram refuses: a bug of ours; log it, do not loop


@dataclass(frozen=True, slots=True)
class Classified:
    kind: Failure
    seconds: float = 0.0
    chat_id: int | None = None
    description: str = ""


def classify(error: Exception) -> Classified | None:
    """What ``error`` means, or None if it is not a failure of sending."""
    match error:
        case TelegramRetryAfter():
            return Classified(Failure.RETRY_AFTER, seconds=float(error.retry_after))
        case TelegramMigrateToChat():
            return Classified(Failure.MIGRATED, chat_id=error.migrate_to_chat_id)
        case TelegramForbiddenError():
            return Classified(Failure.FORBIDDEN, description=error.message)
        case TelegramBadRequest():
            description = error.message.lower()
            if "message is not modified" in description:
                return Classified(Failure.NOT_MODIFIED)
            if "message to edit not found" in description or "can't be edited" in description:
                return Classified(Failure.GONE)
            if "upgraded to a supergroup" in description:
                return Classified(Failure.TRANSIENT, description=error.message)
            return Classified(Failure.REFUSED, description=error.message)
        case TelegramServerError() | TelegramNetworkError() | TimeoutError() | RedisError():
            return Classified(Failure.TRANSIENT, description=str(error))
        case _:
            return None


def backoff(attempt: int) -> float:
    """Seconds before try ``attempt + 1``: 0.5, 1, 2, 4, 4 ... (``MAX_BACKOFF``), with
    jitter so that many messages failing together do not retry together."""
    base = min(MAX_BACKOFF, 0.5 * 2 ** max(0, attempt - 1))
    return float(base * random.uniform(0.8, 1.2))


class Outage:
    """Whether this worker's calls fail in a run (Telegram or Redis down), and the success
    that ends the run."""

    def __init__(self) -> None:
        self.run = 0  # calls failed for a passing reason since the last success

    def failed(self) -> None:
        self.run += 1

    def answered(self) -> bool:
        """A call succeeded; True if it ended an outage (time to wake the waiting tries)."""
        ended = self.run >= OUTAGE_RUN
        self.run = 0
        return ended
