"""Sending: the outbox (``Outbox.publish`` a game, ``Outbox.say`` a one-off message)."""

from .budget import Claim, PriorityGate, TokenBucket, per_minute
from .drafts import render
from .outbox import Outbox
from .plan import Slot, slots_of

__all__ = [
    "Claim",
    "Outbox",
    "PriorityGate",
    "Slot",
    "TokenBucket",
    "per_minute",
    "render",
    "slots_of",
]
