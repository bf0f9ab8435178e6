"""Telegram's side of a webhook: once the bot called ``setWebhook``, pending updates are
POSTed to its URL (with the secret token in ``X-Telegram-Bot-Api-Secret-Token``), a few at a
time as Telegram does (``max_connections``), in order of their ids; an update is forgotten
when the bot answered 2xx, and sent again a moment later otherwise.

With ``targets`` set (the addresses of several worker processes), the pusher is also the
reverse proxy in front of them: each request goes to one of them at random, and an update a
worker did not answer (it was killed, say) goes again to a random one."""

from __future__ import annotations

import asyncio
import random
import time

import aiohttp

from .model import JsonDict
from .world import FakeWorld

RETRY_AFTER = 0.2  # seconds before an update the bot did not take is sent again


class WebhookPusher:
    def __init__(self, world: FakeWorld) -> None:
        self.world = world
        self.task: asyncio.Task[None] | None = None
        self.pushes: set[asyncio.Task[None]] = set()
        self.stopping = False
        self.in_flight: dict[int, str] = {}  # update id -> the address it was sent to
        self.refused = 0  # requests the bot did not answer with 2xx
        self.targets: list[str] = []  # worker addresses behind the "proxy"; [] = the url
        self.rng = random.Random(0)
        self.deliveries: list[tuple[int, str]] = []  # (update id, address), as answered 2xx

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        # A flag as well as cancel(): Python 3.11's wait_for can swallow a cancellation that
        # arrives as its timeout fires, and this loop waits with a short timeout.
        self.stopping = True
        tasks = [*self.pushes, *([self.task] if self.task is not None else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def run(self) -> None:
        world = self.world
        async with aiohttp.ClientSession() as session:
            while not self.stopping:
                url = world.webhook_url
                room = world.webhook_max_connections - len(self.in_flight)
                if url and room > 0:
                    for update in world.deliverable(100):
                        if room <= 0:
                            break
                        if update["update_id"] in self.in_flight:
                            continue  # (a second copy goes with the first: see below)
                        target = self._target(url)
                        self.in_flight[update["update_id"]] = target
                        room -= 1
                        copies = 2 if world.duplicate_updates else 1
                        for copy in range(copies):  # both copies at once
                            address = target if copy == 0 else self._target(url)
                            push = asyncio.get_running_loop().create_task(
                                self._push(session, address, update)
                            )
                            self.pushes.add(push)
                            push.add_done_callback(self.pushes.discard)
                await world.signal.wait_changed(0.05)

    def _target(self, url: str) -> str:
        return self.rng.choice(self.targets) if self.targets else url

    async def _push(self, session: aiohttp.ClientSession, url: str, update: JsonDict) -> None:
        world = self.world
        update_id = update["update_id"]
        headers: dict[str, str] = {}
        if world.webhook_secret:
            headers["X-Telegram-Bot-Api-Secret-Token"] = world.webhook_secret
        try:
            async with session.post(url, json=update, headers=headers) as response:
                taken = 200 <= response.status < 300
        except (aiohttp.ClientError, OSError):
            taken = False
        if taken:
            world.updates = [u for u in world.updates if u["update_id"] != update_id]
            world.delivered_update_ids.add(update_id)
            self.deliveries.append((update_id, url))
            world.last_bot_activity = time.monotonic()
        else:
            self.refused += 1
            await asyncio.sleep(RETRY_AFTER)
        self.in_flight.pop(update_id, None)
        world.changed()
