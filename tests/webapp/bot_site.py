"""The bot as a process against the fake Telegram and a real Redis, serving its Mini App on
a free local port (for the tests that talk to the page's server as Telegram's users)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.conftest import World, open_world
from tests.e2e.harness import free_port


@dataclass
class Site:
    world: World
    url: str


async def open_bot_site(
    redis_url: str, workdir_factory: Callable[[], Path], **env: str
) -> AsyncIterator[Site]:
    """The bot's site; ``env`` adds settings or replaces these budgets (fast, by default)."""
    port = free_port()
    budgets = {"MESSAGES_PER_SECOND": "500", "GROUP_MESSAGES_PER_MINUTE": "60"}
    async for world in open_world(
        redis_url,
        workdir_factory,
        WEBAPP_URL=f"http://127.0.0.1:{port}/",
        WEBAPP_LISTEN=f"127.0.0.1:{port}",
        **(budgets | env),
    ):
        yield Site(world, f"http://127.0.0.1:{port}/")
