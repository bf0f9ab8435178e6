"""Waiting for an event with a time limit, the one way the bot does it.

``asyncio.timeout`` rather than ``asyncio.wait_for``: Python 3.11's ``wait_for`` can swallow
a cancellation that comes as its timeout fires, and a task that should stop (a closing
outbox, a test's loop at teardown) would then run on for ever.
"""

from __future__ import annotations

import asyncio
import contextlib


async def wait_event(event: asyncio.Event, seconds: float) -> bool:
    """Whether ``event`` was set within ``seconds``."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await event.wait()
            return True
    return False
