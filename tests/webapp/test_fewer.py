"""Fewer messages (item 6): while a player's Mini App page is open, their hand
message in private is not edited on every move; it catches up, with one edit, when the page
closes. Their turn clock starts when their page was sent the position. A solo game's one
message (the table and the hand, in the person's private chat) waits the same way. The bot runs as a
process against the fake Telegram and a real Redis; the pages are sockets of its own Mini
App server, or of a second worker's (in this process, on the same Redis), whose pages the
first worker's outbox must see."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Protocol

import pytest
import pytest_asyncio
from aiohttp import ClientSession, ClientWebSocketResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.model import ChatSettings, GameRecord, Phase
from bot.services import GameService
from bot.storage import Storage
from bot.turn_clock import CLOCK_GRACE
from bot.ui.callbacks import encode_action
from bot.webapp.live import Live
from bot.webapp.server import Served, webapp_app
from engine import legal_actions
from tests.e2e.fake_telegram import FakeUser
from tests.e2e.harness import Table

from .bot_site import Site, open_bot_site
from .signing import sign_init_data, socket_protocols

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

WAIT = 10.0  # seconds: a deadline for what should take milliseconds
IDLE = 60.0  # WEBAPP_IDLE_SECONDS's default, as the bot's
MOVES = 6


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def site(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Site]:
    async for opened in open_bot_site(
        redis_url, lambda: tmp_path_factory.mktemp("bot"), DEFAULT_TURN_TIMEOUT="60"
    ):
        yield opened


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def slow_site(
    redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Site]:
    """A bot that writes to a group four times at once, then once a minute: past the start
    of a game its table waits long for its budget."""
    async for opened in open_bot_site(
        redis_url,
        lambda: tmp_path_factory.mktemp("slow"),
        DEFAULT_TURN_TIMEOUT="60",
        GROUP_MESSAGES_PER_MINUTE="5",
    ):
        yield opened


class Connects(Protocol):
    async def ws_connect(
        self, url: str, *, params: dict[str, str], protocols: tuple[str, ...]
    ) -> ClientWebSocketResponse:
        """Open a socket to ``url`` on this server."""


@contextlib.asynccontextmanager
async def mini_app(site: Site, where: str) -> AsyncIterator[Connects]:
    """The Mini App server the pages talk to: the bot's own, or another worker's (the same
    code in this process, on the bot's Redis and key prefix, with no outbox of its own)."""
    if where == "this worker":
        async with ClientSession(base_url=site.url) as session:
            yield session
        return
    world = site.world
    storage = Storage.create(world.redis, world.namespace, default_settings=ChatSettings())
    live = Live(world.redis, storage.keys.live(), storage.games.get)
    served = Served(
        GameService(storage), live, lambda _record: None, world.fake.token, 86_400.0, _nobody, IDLE
    )
    live.start()
    try:
        await live.subscribed.wait()
        async with TestClient(TestServer(webapp_app(served))) as client:
            yield client  # type: ignore[misc]
    finally:
        await live.stop()


async def _nobody(_chat_id: int, _user_id: int) -> bool:
    return False


async def open_table(server: Connects, site: Site, table: Table, user: FakeUser) -> Page:
    init = sign_init_data(site.world.fake.token, user.id, language_code=user.language_code or "ru")
    ws = await server.ws_connect(
        "/ws", params={"chat": str(table.group.id)}, protocols=socket_protocols(init)
    )
    page = Page(ws)
    await page.state_after(-1)
    return page


@dataclass
class Page:
    ws: ClientWebSocketResponse
    version: int = -1
    received_at: float = 0.0  # wall clock, when the newest state came

    async def state_after(self, version: int) -> dict[str, Any]:
        """The first state the page is sent newer than ``version`` (answers skipped)."""
        while True:
            message = await self.ws.receive_json(timeout=WAIT)
            if message["type"] == "answer":
                assert message["text"] is None, message
            if message["type"] == "state" and message["version"] > version:
                self.version, self.received_at = message["version"], time.time()
                return dict(message)


def private_calls(site: Site, user: FakeUser, since: int) -> int:
    fake = site.world.fake
    return len(fake.sends_and_edits(fake.private_chat(user), since=since))


@pytest.mark.parametrize("where", ["this worker", "another worker"])
async def test_an_open_page_holds_its_hand_message_and_starts_its_turn_clock(
    site: Site, where: str
) -> None:
    world = site.world
    table = world.table(2)
    await table.start_game()
    record = await table.settled()
    anna, boris = table.players
    async with mini_app(site, where) as server:
        pages = {user.id: await open_table(server, site, table, user) for user in (anna, boris)}
        since = len(world.fake.world.calls)
        for n in range(MOVES):
            record = await _play_one(table, pages, record, press_id=f"{where}-{n}")
            if record.game.phase is not Phase.PLAYING:
                break
        # Every move reached the pages; the bot had its chance to edit the hands (nothing of
        # the chats is left on its work list) and edited none, the group's table only.
        await table.drained()
        assert private_calls(site, anna, since) == private_calls(site, boris, since) == 0
        assert world.fake.sends_and_edits(table.group, since=since)
        # Anna closes her page: her hand catches up with one edit; Boris's still waits.
        closed_at = len(world.fake.world.calls)
        await pages[anna.id].ws.close()
        await world.fake.wait_for(lambda: private_calls(site, anna, closed_at) > 0, WAIT)
        await table.drained()
        assert private_calls(site, anna, closed_at) == 1
        assert private_calls(site, boris, closed_at) == 0
        await pages[boris.id].ws.close()
        assert (await table.settled()).game.version == record.game.version


async def test_a_page_closed_while_the_table_waits_for_its_budget_catches_up_at_once(
    slow_site: Site,
) -> None:
    """Moves on the pages while the group's table waits for its budget (a minute here): the
    worker loads none of them until the table may go. A page that closes meanwhile on this
    worker has its hand message brought up to date at once, not with the table."""
    world = slow_site.world
    table = world.table(2)
    await table.start_game()
    record = await table.settled()
    anna, boris = table.players
    async with mini_app(slow_site, "this worker") as server:
        pages = {
            user.id: await open_table(server, slow_site, table, user) for user in (anna, boris)
        }
        for n in range(3):
            record = await _play_one(table, pages, record, press_id=f"slow-{n}")
        closed_at = len(world.fake.world.calls)
        await pages[anna.id].ws.close()
        await world.fake.wait_for(lambda: private_calls(slow_site, anna, closed_at) > 0, WAIT)
        # The table still waits (so it did not bring the hand), Boris's page still holds his.
        assert not world.fake.sends_and_edits(table.group, since=closed_at)
        assert private_calls(slow_site, boris, closed_at) == 0
        await pages[boris.id].ws.close()


async def test_a_solo_games_message_waits_while_its_page_is_open(site: Site) -> None:
    """Alone against a computer in private: moves tapped on the page, the computer answering
    each at once, and the chat's one message not edited until the page closes."""
    world = site.world
    person, table, lobby = await world.solo()
    await table.press_lobby(person, lobby, "start")
    record = await table.wait_record(lambda r: r.game.phase is Phase.PLAYING)
    seat = record.game.seat_of(person.id)
    assert record.game.private and seat is not None
    record = await _persons_turn(table, seat, record.game.version - 1)
    await table.drained()
    async with mini_app(site, "this worker") as server:
        page = await open_table(server, site, table, person)
        since = len(world.fake.world.calls)
        moved = 0
        while moved < MOVES and record.game.phase is Phase.PLAYING:
            state = record.game.state
            assert state is not None
            action = legal_actions(state, seat)[0]
            await page.ws.send_json(
                {"type": "move", "game": record.game.game_id, "moves": state.moves,
                 "act": encode_action(action), "id": f"solo-{moved}"}
            )  # fmt: skip
            record = await _persons_turn(table, seat, record.game.version)
            while page.version < record.game.version:  # the computer's moves too
                await page.state_after(page.version)
            moved += 1
        assert moved >= 2
        # The bot had its chance (nothing of the chat is left on its work list): no edit.
        await table.drained()
        assert private_calls(site, person, since) == 0
        assert record.deadline is None  # alone, there is no turn clock to start
        closed_at = len(world.fake.world.calls)
        await page.ws.close()
        await world.fake.wait_for(lambda: private_calls(site, person, closed_at) > 0, WAIT)
        await table.drained()
        assert private_calls(site, person, closed_at) == 1
        assert (await table.settled()).game.version == record.game.version


async def _persons_turn(table: Table, seat: int, version: int) -> GameRecord:
    """The game after ``version`` once the person at ``seat`` may act and no computer is
    due (they answer at once here), or once it is over."""

    def ready(record: GameRecord) -> bool:
        state = record.game.state
        if record.game.version <= version or state is None:
            return False
        if record.game.phase is not Phase.PLAYING:
            return True
        return record.computers_at is None and bool(legal_actions(state, seat))

    return await table.wait_record(ready, timeout=WAIT)


async def _play_one(
    table: Table, pages: dict[int, Page], record: GameRecord, press_id: str
) -> GameRecord:
    """One move tapped on the acting player's page; every page sees it, and the player who
    must act next has their turn clock started by their page's delivery (``bot.turn_clock``;
    the move itself set only the latest deadline)."""
    state = record.game.state
    assert state is not None
    seat = next(s for s in state.acting if legal_actions(state, s))
    action = legal_actions(state, seat)[0]
    mover = pages[record.game.players[seat].user_id]
    moved_at = time.time()
    await mover.ws.send_json(
        {"type": "move", "game": record.game.game_id, "moves": state.moves,
         "act": encode_action(action), "id": press_id}
    )  # fmt: skip
    for page in pages.values():
        await page.state_after(record.game.version)
    after = await table.wait_record(lambda r: r.game.version > record.game.version)
    state = after.game.state
    if after.game.phase is not Phase.PLAYING or state is None:
        return after
    timeout = after.game.settings.turn_timeout
    assert timeout > 0
    # The page is the only delivery its player gets: the clock starts from it, once.
    started = await table.wait_record(
        lambda r: r.deadline is not None and r.deadline < moved_at + CLOCK_GRACE
    )
    assert started.game.version == after.game.version and started.deadline is not None
    received = max(pages[after.game.players[s].user_id].received_at for s in state.acting)
    assert moved_at + timeout <= started.deadline <= received + timeout + 1.0
    return started
