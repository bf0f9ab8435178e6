"""The one watch-and-retry loop every Redis compare-and-set goes through.

``transact(redis, keys, attempt)`` WATCHes ``keys`` and runs ``attempt(pipe)``: it reads
through the pipeline (immediate mode while watching), then either returns without writing,
or switches the pipeline to MULTI (``pipe.multi()``), queues its writes and executes them.
If a watched key changed in between, Redis refuses the whole transaction and ``attempt``
runs again on the new values, a bounded number of times with a short random pause (so
two writers racing do not keep colliding), then ``StorageBusy``.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Final, TypeVar

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.exceptions import WatchError

from bot.metrics import CAS_RETRIES

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_ATTEMPTS: Final = 64


class StorageBusy(RuntimeError):
    """The keys kept changing under us for ``MAX_ATTEMPTS`` tries."""


async def transact(
    redis: Redis, keys: Sequence[str], attempt: Callable[[Pipeline], Awaitable[T]], *, what: str
) -> T:
    """Run ``attempt`` with ``keys`` watched until its transaction goes through (see the
    module docstring). ``what`` names the value in logs and in ``StorageBusy``."""
    for number in range(1, MAX_ATTEMPTS + 1):
        async with redis.pipeline(transaction=True) as pipe:
            try:
                await pipe.watch(*keys)
                return await attempt(pipe)
            except WatchError:
                log.debug("%s changed under us (attempt %d)", what, number)
                CAS_RETRIES.labels(what=what.split(maxsplit=1)[0]).inc()  # "game", "chat": no ids
        await asyncio.sleep(random.uniform(0, 0.001 * min(number, 20)))
    raise StorageBusy(f"{what} kept changing; gave up after {MAX_ATTEMPTS} tries")
