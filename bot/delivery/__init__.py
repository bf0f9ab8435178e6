"""Sending: the outbox (``Outbox.publish`` a game, ``Outbox.say`` a one-off message)."""

from .budget import TokenBucket, per_minute
from .drafts import Draft, drafts_for
from .outbox import Outbox

__all__ = ["Draft", "Outbox", "TokenBucket", "drafts_for", "per_minute"]
