"""Every update once: Telegram sends an update again when it had no answer in time (a
worker killed or stalled, a restart in the middle of a batch, a slow webhook), and the same
update may then be handled twice, even at once by two workers. Each update id gets a key:

* ``claim`` takes it as ``run:<token>`` for ``CLAIM_SECONDS`` before the update is handled.
  A second delivery finds it taken and waits: when the first one finishes (``done:<token>``)
  the second is a duplicate and does nothing; when the first one's worker died (the claim
  lapses, nothing was saved), the second handles it. So a killed worker's update is still
  applied once, through its redelivery.
* Every change a handler saves goes through ``GameStore.update``, which the handler hands
  the claim (``once=``): its compare-and-set also compares the update's key and writes
  ``done:<token>`` with the change, so a delivery whose claim lapsed while it was slow finds
  another delivery's token there and gives up (``AlreadyApplied``) instead of saving the
  change a second time.
* ``finish`` marks the update done, also when it saved nothing (a reply to /rules is not
  sent twice); ``abandon`` lets go of a claim when handling failed before anything was
  saved, so the redelivery is handled.

A move sent by a Mini App page has no update: the page names each tap, and the move
is saved under a claim of its own (``page_press``) that nothing takes beforehand; the
compare-and-set alone keeps a tap the page sent twice (a socket that reconnected) from being
applied twice. Background work (the outbox, computer players) saves with no claim.

An update that saved its first change and then lost its worker is done: a second change
the same update would have made is not made by its redelivery (no handler makes two
dependent changes; say so here if one ever does). Keys live ``DONE_SECONDS``: Telegram
sends an update again within seconds or minutes (after an hour it is no longer redelivered
by a webhook retry or left unconfirmed by a polling worker that lived); about 100 bytes an
update, so 50 updates a second keep some 18 MB.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass
from typing import Final

from redis.asyncio import Redis

from .keys import Keys
from .leases import Leases
from .tx import Writes

CLAIM_SECONDS: Final = 30.0
DONE_SECONDS: Final = 3600
WAIT_STEP: Final = 0.05  # how often a second delivery looks whether the first one finished


@dataclass(frozen=True, slots=True)
class Claim:
    """The right to apply one update, held by one delivery of it."""

    key: str
    token: str

    @property
    def running(self) -> str:
        return f"run:{self.token}"

    @property
    def done(self) -> str:
        return f"done:{self.token}"

    def queue_applied(self, pipe: Writes) -> None:
        """With the transaction's writes: the update's change is saved with it."""
        pipe.set(self.key, self.done, ex=DONE_SECONDS)

    def holds(self, value: bytes | str | None) -> bool:
        """Whether the update's key (``value``) lets this delivery save a change: nobody
        else's token is there (an empty key: our claim lapsed and nobody took it since)."""
        text = _text(value)
        return text is None or text.partition(":")[2] == self.token


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


class AlreadyApplied(Exception):
    """Another delivery of the update being handled saved its change first."""


class UpdateLog:
    def __init__(self, redis: Redis, keys: Keys, leases: Leases) -> None:
        self.redis = redis
        self.keys = keys
        self.leases = leases

    def key(self, update_id: int) -> str:
        return self.keys.update(update_id)

    def page_press(self, user_id: int, press_id: str) -> Claim:
        """The claim a Mini App page's tap ``press_id`` of ``user_id`` is saved under."""
        return Claim(self.keys.page_press(user_id, press_id), secrets.token_hex(8))

    async def claim(self, update_id: int) -> Claim | None:
        """The claim on ``update_id`` for this delivery; None when another delivery handled
        it (waiting while another one is handling it)."""
        claim = Claim(self.key(update_id), secrets.token_hex(8))
        give_up = time.monotonic() + CLAIM_SECONDS + 5.0
        while True:
            if await self.leases.take(claim.key, claim.running, CLAIM_SECONDS):
                return claim
            value = _text(await self.redis.get(claim.key))
            if value is not None and not value.startswith("run:"):
                return None  # handled
            if time.monotonic() > give_up:  # a claim renewed by nobody cannot last this long
                return None
            await asyncio.sleep(WAIT_STEP)

    async def finish(self, claim: Claim) -> None:
        """The update was handled: a later delivery of it does nothing."""
        await self.redis.set(claim.key, claim.done, ex=DONE_SECONDS)

    async def abandon(self, claim: Claim) -> None:
        """Handling failed before anything was saved: a redelivery may handle it."""
        await self.leases.release(claim.key, claim.running)
