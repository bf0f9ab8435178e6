"""How long an open Mini App page holds its player's hand message, and who may watch (the
loose ends of "fewer messages"). The bot runs as a process against the fake Telegram and
a real Redis with a short idle time (``WEBAPP_IDLE_SECONDS``):

* a page that goes silent (its socket open, no «here») counts as idle once the idle time
  passes: its player's hand catches up then, not before, and the server tells the page how
  often to say «here» (a third of the idle time);
* a page held by another worker that dies (SIGKILL, no goodbye) holds the hand only until
  its entry in Redis runs out: the bot's outbox looks at the chat again then;
* a group member who does not play is asked about (getChatMember) once a minute, not at
  every socket they open, and so is a stranger who is refused."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import ClientSession, ClientWebSocketResponse, WSServerHandshakeError

from bot.model import ChatSettings, GameRecord
from bot.storage import Storage
from bot.storage.chats import MEMBER_TTL
from bot.ui.callbacks import encode_action
from engine import Action, legal_actions
from tests.e2e.fake_telegram import FakeUser
from tests.e2e.fake_telegram.model import CallRecord
from tests.e2e.harness import Table

from .bot_site import Site, open_bot_site
from .page_worker import started
from .signing import sign_init_data, socket_protocols

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

ROOT = Path(__file__).resolve().parents[2]
IDLE = 2  # the bot's WEBAPP_IDLE_SECONDS here: silence shows within seconds
# The killed worker's idle time: long enough to see its pages hold the hands before the kill.
WORKER_IDLE = 5.0
WAIT = 10.0  # seconds: a deadline for what should take milliseconds


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def site(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Site]:
    async for opened in open_bot_site(
        redis_url, lambda: tmp_path_factory.mktemp("bot"), WEBAPP_IDLE_SECONDS=str(IDLE)
    ):
        yield opened


async def connect(session: ClientSession, site: Site, table: Table, user: FakeUser) -> Any:
    """``user``'s page opening its socket, as static/app.js does."""
    init = sign_init_data(site.world.fake.token, user.id, language_code=user.language_code or "ru")
    return await session.ws_connect(
        "/ws", params={"chat": str(table.group.id)}, protocols=socket_protocols(init)
    )


async def open_page(
    session: ClientSession, site: Site, table: Table, user: FakeUser
) -> tuple[ClientWebSocketResponse, dict[str, Any], dict[str, Any]]:
    """``user``'s page, open: its socket, the server's hello and the first state."""
    ws = await connect(session, site, table, user)
    hello = await ws.receive_json(timeout=WAIT)
    assert hello["type"] == "hello"
    return ws, hello, await state_after(ws, -1)


async def state_after(ws: ClientWebSocketResponse, version: int) -> dict[str, Any]:
    while True:
        message = await ws.receive_json(timeout=WAIT)
        if message["type"] == "answer":
            assert message["text"] is None, message
        if message["type"] == "state" and message["version"] > version:
            return dict(message)


def first_private(site: Site, user: FakeUser, since: int) -> CallRecord | None:
    """The first send or edit in ``user``'s private chat since ``since``, if any."""
    fake = site.world.fake
    calls = fake.sends_and_edits(fake.private_chat(user), since=since)
    return calls[0] if calls else None


def mover(record: GameRecord) -> tuple[int, Action]:
    """Who may move now (a user id), and a move of theirs."""
    state = record.game.state
    assert state is not None
    seat = next(s for s in state.acting if legal_actions(state, s))
    return record.game.players[seat].user_id, legal_actions(state, seat)[0]


async def open_pages_in_redis(site: Site, table: Table) -> dict[int, float]:
    world = site.world
    storage = Storage.create(world.redis, world.namespace, default_settings=ChatSettings())
    return (await storage.delivery.load(table.group.id)).pages


async def test_a_silent_page_holds_its_hand_until_the_idle_time_and_no_longer(site: Site) -> None:
    world = site.world
    table = world.table(2)
    await table.start_game()
    record = await table.settled()
    async with ClientSession(base_url=site.url) as session:
        opened_at = time.monotonic()
        pages = [await open_page(session, site, table, user) for user in table.players]
        # The server tells each page how often to say «here»: a third of its idle time.
        assert [hello["here_every"] for _ws, hello, _state in pages] == [IDLE / 3] * 2
        since = world.fake.mark()
        # A move pressed in the chat; from here on neither page says a word.
        user_id, action = mover(record)
        user = table.by_id[user_id]
        data = table.button_for(record, user, action)
        message = table.hand_message(record, user)
        assert message is not None
        answer = await table.answer(world.fake.user_presses(user, message, data))
        assert answer.text is None
        for ws, _hello, _state in pages:
            await state_after(ws, record.game.version)
        # Each hand catches up once its page has been silent for the idle time, not before.
        for player in table.players:
            call = await world.fake.wait_for(
                partial(first_private, site, player, since), IDLE + WAIT
            )
            assert call.at >= opened_at + IDLE
        # The server marked the pages idle (a lapsed entry would still be there), and
        # their sockets stay open: a «here» would hold the hands again.
        deadline = time.monotonic() + WAIT
        while await open_pages_in_redis(site, table):
            assert time.monotonic() < deadline, "the silent pages were never marked idle"
            await table.waiter.pause(0.05)
        assert not any(ws.closed for ws, _hello, _state in pages)
        for ws, _hello, _state in pages:
            await ws.close()


async def test_a_hand_held_by_a_dead_workers_page_catches_up_when_its_entry_runs_out(
    site: Site, redis_url: str
) -> None:
    world = site.world
    table = world.table(2)
    await table.start_game()
    record = await table.settled()
    async with (
        started(redis_url, world.namespace, world.fake.token, WORKER_IDLE) as worker,
        ClientSession(base_url=f"http://{worker.listen}/") as session,
    ):
        pages = {user.id: await open_page(session, site, table, user) for user in table.players}
        since = world.fake.mark()
        user_id, action = mover(record)
        state = record.game.state
        assert state is not None
        await pages[user_id][0].send_json(
            {"type": "move", "game": record.game.game_id, "moves": state.moves,
             "act": encode_action(action), "id": "dead-worker"}
        )  # fmt: skip
        for ws, _hello, _state in pages.values():
            await state_after(ws, record.game.version)
        # The bot's outbox showed the move in the group and held both hands for the pages.
        await table.drained()
        assert world.fake.sends_and_edits(table.group, since=since)
        assert [first_private(site, user, since) for user in table.players] == [None, None]
        # The worker dies with its pages: nobody says goodbye for them.
        worker.process.kill()
        await worker.process.wait()
        for player in table.players:
            caught_up = partial(first_private, site, player, since)
            await world.fake.wait_for(caught_up, WORKER_IDLE + WAIT)


async def test_a_watchers_membership_is_asked_once_a_minute_not_at_every_socket(
    site: Site,
) -> None:
    world = site.world
    fake = world.fake
    table = world.table(2)
    await table.start_game()
    await table.settled()
    watcher = fake.add_user("Вера", language_code="ru")
    fake.set_member_status(table.group, watcher, "member")
    stranger = fake.add_user("Гость", language_code="ru")
    since = fake.mark()
    async with ClientSession(base_url=site.url) as session:
        for _ in range(3):
            ws, _hello, state = await open_page(session, site, table, watcher)
            assert state["seat"] is None and state["hand"] == []  # the public view
            await ws.close()
        for _ in range(3):
            with pytest.raises(WSServerHandshakeError) as refused:
                await connect(session, site, table, stranger)
            assert refused.value.status == 404
    asked = [int(call.params["user_id"]) for call in fake.calls("getChatMember", since=since)]
    assert asked.count(watcher.id) == asked.count(stranger.id) == 1, asked
    # Remembered in Redis (every worker reads it) for a minute, «no» as well as «yes».
    storage = Storage.create(world.redis, world.namespace, default_settings=ChatSettings())
    assert await storage.members.get(table.group.id, watcher.id) is True
    assert await storage.members.get(table.group.id, stranger.id) is False
    assert 0 < await world.redis.ttl(storage.keys.member(table.group.id, watcher.id)) <= MEMBER_TTL
