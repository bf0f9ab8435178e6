"""The Mini App's server as anybody on the internet meets it: a page that never reads holds
up no other page; silent connections and one person's many sockets are bounded; a watcher
who left the group stops watching; what a client sends that is not a move is a 400 with one
warning line, never a traceback or a page's ``initData`` in the log; a stranger cannot tell
a chat with a game from one without."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import struct
import time

import pytest
from aiohttp import ClientError, ClientSession, ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import get_port_socket
from redis.asyncio import Redis

from bot.model import Phase
from bot.webapp.server import Closed, PageLimits

from . import games
from .conftest import ANNA, BORIS, CHAT, IDLE, MEMBER, STRANGER, TOKEN, Site, open_site
from .page_worker import started
from .raw import answer_of, connect, open_socket_page, text_frame
from .signing import sign_init_data, socket_protocols

WAIT = 10.0  # seconds: a deadline for what should take milliseconds
EVERY_MOVE_WITHIN = 1.0  # seconds: how soon a page that reads must show each move
WATCHER = 7  # another member of the group who does not play


def init_for(user_id: int) -> str:
    return sign_init_data(TOKEN, user_id)


def small_send_buffer(host: str, port: int, family: socket.AddressFamily) -> socket.socket:
    """The listening socket, whose connections get a kernel send buffer of a few KB (Linux
    hands a listener's buffer sizes to the connections it accepts): what a page does not
    read backs up into the server's own buffers at once, not after megabytes."""
    sock = get_port_socket(host, port, family)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    return sock


def address(site: Site) -> tuple[str, int]:
    """Where the site's server listens."""
    server = site.client.server
    assert server.port is not None
    return server.host, server.port


async def open_page(site: Site, user_id: int) -> ClientWebSocketResponse:
    ws = await site.client.ws_connect(
        "/ws", params={"chat": str(CHAT)}, protocols=socket_protocols(init_for(user_id))
    )
    assert (await ws.receive_json(timeout=WAIT))["type"] == "hello"
    return ws


async def shows(ws: ClientWebSocketResponse, version: int, within: float = WAIT) -> None:
    """The page is sent ``version`` (or a newer one) within ``within`` seconds."""
    async with asyncio.timeout(within):
        while True:
            message = await ws.receive_json()
            if message["type"] == "state" and message["version"] >= version:
                return


async def closed_with(ws: ClientWebSocketResponse) -> int | None:
    """The code the server closed the page's socket with (states before it are skipped)."""
    async with asyncio.timeout(WAIT):
        while True:
            message = await ws.receive()
            if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING):
                return ws.close_code
            assert message.type is WSMsgType.TEXT


async def play_a_move(site: Site) -> int:
    """A move of the chat's game (a game over is dealt again): the version saved."""
    record = await site.record()
    if record.game.phase is not Phase.PLAYING:
        record = await site.deal()
    return (await games.play_a_move(site.service, record)).game.version


async def test_a_page_that_never_reads_holds_up_no_other_and_is_cut(
    redis: Redis, redis_prefix: str
) -> None:
    """The slow reader: a socket with a receive buffer of a kilobyte that never reads. The
    moves' views back up in the server's buffers to it; the two players' pages go on
    showing every move within a second, moves coming as fast as they are saved, and the
    slow page is cut once a message waited ``send_deadline``."""
    limits = PageLimits(send_deadline=3 * EVERY_MOVE_WITHIN)
    async with open_site(
        redis, redis_prefix, limits=limits, socket_factory=small_send_buffer
    ) as site:
        record = await site.deal()
        pages = [await open_page(site, user.user_id) for user in (ANNA, BORIS)]
        for ws in pages:
            await shows(ws, record.game.version)
        host, port = address(site)
        slow = await open_socket_page(
            host, port, f"/ws?chat={CHAT}&version=-1", init_for(MEMBER), receive_buffer=1024
        )

        def cut() -> bool:  # the server let the slow page go: it holds the two others
            return len(site.live.pages.get(CHAT, ())) == len(pages)

        try:
            moves_after_the_cut = 0
            async with asyncio.timeout(60):
                while moves_after_the_cut < 5:
                    moves_after_the_cut += cut()
                    version = await play_a_move(site)
                    for ws in pages:
                        await shows(ws, version, within=EVERY_MOVE_WITHIN)
        finally:
            slow.close()
            for ws in pages:
                await ws.close()


async def test_a_page_that_sends_past_its_allowance_is_closed(
    redis: Redis, redis_prefix: str
) -> None:
    """Every message costs the bot (a refused move: a parse and an answer), so a page may
    send a burst and then a few a second; one that floods is closed, one that keeps to the
    allowance is served."""
    limits = PageLimits(messages_per_second=20, message_burst=5)
    async with open_site(redis, redis_prefix, limits=limits) as site:
        await site.deal()
        flooding, steady = await open_page(site, MEMBER), await open_page(site, ANNA.user_id)
        refused = {"type": "move", "game": "g", "moves": 0, "act": "zz", "id": "t"}
        for _ in range(limits.message_burst + 1):
            await flooding.send_json(refused)
        assert await closed_with(flooding) == Closed.TOO_FAST
        for _ in range(2 * limits.message_burst):
            await steady.send_json(refused)
            while (await steady.receive_json(timeout=WAIT))["type"] != "answer":
                pass
            await asyncio.sleep(1.5 / limits.messages_per_second)
        assert not steady.closed
        await steady.close()


async def test_a_persons_pages_past_the_limit_close_their_oldest(
    redis: Redis, redis_prefix: str
) -> None:
    async with open_site(redis, redis_prefix, limits=PageLimits(per_person=2)) as site:
        await site.deal()
        first, second = await open_page(site, MEMBER), await open_page(site, MEMBER)
        third = await open_page(site, MEMBER)
        assert await closed_with(first) == Closed.REPLACED
        version = await play_a_move(site)
        for ws in (second, third):
            await shows(ws, version)
            await ws.close()


async def test_a_table_full_of_watchers_refuses_one_more_but_never_a_player(
    redis: Redis, redis_prefix: str
) -> None:
    async def members(chat_id: int, user_id: int) -> bool:
        return chat_id == CHAT and user_id in (ANNA.user_id, BORIS.user_id, MEMBER, WATCHER)

    limits = PageLimits(watchers_per_chat=1)
    async with open_site(redis, redis_prefix, limits=limits, watch=members) as site:
        await site.deal()
        watching = await open_page(site, MEMBER)
        one_more = await open_page(site, WATCHER)
        assert await closed_with(one_more) == Closed.FULL
        player = await open_page(site, ANNA.user_id)
        version = await play_a_move(site)
        for ws in (watching, player):
            await shows(ws, version)
        await watching.close()
        # A place freed is taken again.
        again = await open_page(site, WATCHER)
        await shows(again, version)
        for ws in (again, player):
            await ws.close()


async def test_a_watcher_who_left_the_group_is_closed_out_and_players_go_on(
    redis: Redis, redis_prefix: str
) -> None:
    group = {ANNA.user_id, BORIS.user_id, MEMBER}

    async def members(chat_id: int, user_id: int) -> bool:
        return chat_id == CHAT and user_id in group

    limits = PageLimits(membership_every=0.1)
    async with open_site(redis, redis_prefix, limits=limits, watch=members) as site:
        record = await site.deal()
        watcher, player = await open_page(site, MEMBER), await open_page(site, ANNA.user_id)
        await shows(watcher, record.game.version)
        group.discard(MEMBER)
        assert await closed_with(watcher) == Closed.NOT_ALLOWED
        # The player left the group too, but plays: a player's page stays.
        group.discard(ANNA.user_id)
        await asyncio.sleep(0.3)
        version = await play_a_move(site)
        await shows(player, version)
        await player.close()
        # Out of the group, the page does not open again.
        refused = await site.client.get(
            "/api/state",
            params={"chat": str(CHAT)},
            headers={"Authorization": f"tma {init_for(MEMBER)}"},
        )
        assert refused.status == 404


async def test_a_page_that_says_nothing_is_closed_and_one_that_says_here_stays(
    redis: Redis, redis_prefix: str
) -> None:
    """Closed after ``silent`` seconds, or twice the idle time when that is longer (a
    visible page says «here» three times in each)."""
    limits = PageLimits(silent=0.2)
    async with open_site(redis, redis_prefix, limits=limits, idle=0.3) as site:
        await site.deal()
        opened = time.monotonic()
        quiet, talking = await open_page(site, MEMBER), await open_page(site, ANNA.user_id)

        async def say_here() -> None:
            while True:
                await talking.send_json({"type": "here"})
                await asyncio.sleep(0.1)

        here = asyncio.ensure_future(say_here())
        try:
            assert await closed_with(quiet) == Closed.SILENT
            assert time.monotonic() - opened >= 2 * 0.3
            version = await play_a_move(site)
            await shows(talking, version)
            assert not talking.closed
        finally:
            here.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await here
        await talking.close()


async def test_a_stranger_gets_the_same_answer_for_a_chat_with_a_game_and_without(
    site: Site,
) -> None:
    headers = {"Authorization": f"tma {init_for(STRANGER)}"}
    without = await site.client.get("/api/state", params={"chat": str(CHAT)}, headers=headers)
    await site.deal()
    with_game = await site.client.get("/api/state", params={"chat": str(CHAT)}, headers=headers)
    assert (without.status, await without.text()) == (with_game.status, await with_game.text())
    assert with_game.status == 404


MALFORMED_BODIES = {
    "a number too large for a double": b'{"game": "g", "moves": 1e400, "act": "a0", "id": "t"}',
    "Infinity": b'{"game": "g", "moves": Infinity, "act": "a0", "id": "t"}',
    "NaN": b'{"game": "g", "moves": NaN, "act": "a0", "id": "t"}',
    "nested deep": b'{"game": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    "over the size": b'{"game": "' + b"g" * 5000 + b'"}',
    "not JSON": b"move please",
    "not UTF-8": b'{"game": "\xff"}',
    "a list": b"[1, 2]",
    "moves as text": b'{"game": "g", "moves": "7", "act": "a0", "id": "t"}',
    "moves as a truth": b'{"game": "g", "moves": true, "act": "a0", "id": "t"}',
    "moves below zero": b'{"game": "g", "moves": -1, "act": "a0", "id": "t"}',
    "an act that is a list": b'{"game": "g", "moves": 1, "act": ["a0"], "id": "t"}',
    "an id too long": b'{"game": "g", "moves": 1, "act": "a0", "id": "' + b"t" * 41 + b'"}',
    "a chat that is no chat": b'{"chat": 1.5, "game": "g", "moves": 1, "act": "a0", "id": "t"}',
    "a chat of many digits": b'{"chat": "' + b"9" * 400 + b'", "game": "g", "moves": 1}',
}


@pytest.mark.parametrize("body", MALFORMED_BODIES.values(), ids=MALFORMED_BODIES.keys())
async def test_a_malformed_move_is_a_400_with_one_warning_line(
    site: Site, body: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    record = await site.deal()
    init = init_for(STRANGER)  # anybody signed in: the body is read before who may play
    with caplog.at_level(logging.INFO):
        answer = await site.client.post(
            "/api/move",
            params={"chat": str(CHAT)},
            data=body,
            headers={"Authorization": f"tma {init}", "Content-Type": "application/json"},
        )
    assert answer.status == 400
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and warnings[0].exc_info is None, caplog.text
    assert (await site.record()).game.version == record.game.version


SOCKET_MALFORMED = {
    "a number too large for a double": '{"type": "move", "game": "g", "moves": 1e400}',
    "Infinity": '{"type": "move", "game": "g", "moves": Infinity, "act": "a0", "id": "t"}',
    "nested deep": '{"type": "move", "game": ' + "[" * 1500 + "]" * 1500 + "}",
    "not JSON": "move please",
    "a list": "[1, 2]",
    "moves as text": '{"type": "move", "game": "g", "moves": "7", "act": "a0", "id": "t"}',
    "an act that is a list": '{"type": "move", "game": "g", "moves": 1, "act": [], "id": "t"}',
    "an id too long": '{"type": "move", "game": "g", "moves": 1, "act": "a0", "id": "'
    + "t" * 41
    + '"}',
    "a suit that is a number": '{"type": "trump", "game": "g", "op": 3, "id": "t"}',
    "no type": '{"game": "g", "moves": 1, "act": "a0", "id": "t"}',
}


async def test_malformed_socket_messages_are_answered_and_log_nothing(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    record = await site.deal()
    ws = await open_page(site, ANNA.user_id)
    with caplog.at_level(logging.INFO):
        for text in SOCKET_MALFORMED.values():
            await ws.send_str(text)
            while (message := await ws.receive_json(timeout=WAIT))["type"] != "answer":
                pass
            assert message["id"] is None and message["text"], text
        await ws.close()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert (await site.record()).game.version == record.game.version


async def test_what_is_not_http_is_one_warning_line_without_the_pages_init_data(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    """A malformed request line, a header past aiohttp's limit: 400, and the log names the
    kind of error without the traceback that quoted the request's first bytes."""
    init = init_for(ANNA.user_id)
    host, port = address(site)
    requests = {
        "a malformed request line": (
            f"GET /ws?chat={CHAT} HTTP/1.1 extra\r\nAuthorization: tma {init}\r\n\r\n"
        ).encode(),
        "a header over the limit": (
            f"GET /api/state HTTP/1.1\r\nAuthorization: tma {init}{'x' * 9000}\r\n\r\n"
        ).encode(),
        "a control character": f"GET /\x01{init} HTTP/1.1\r\n\r\n".encode(),
    }
    signature = init.rsplit("hash=", 1)[1]
    with caplog.at_level(logging.DEBUG, logger="bot.http"):
        for request in requests.values():
            answer = await answer_of(host, port, request)
            assert answer.split(b"\r\n", 1)[0].endswith(b" 400 Bad Request"), answer[:100]
    lines = [r for r in caplog.records if r.name == "bot.http"]
    assert len(lines) == len(requests), caplog.text
    for line in lines:
        assert line.exc_info is None and line.levelno == logging.WARNING
        assert signature not in line.getMessage() and "user" not in line.getMessage()


async def test_a_socket_gone_while_its_answer_is_made_logs_nothing(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    await site.deal()
    host, port = address(site)
    refused = {"type": "move", "game": "g", "moves": 0, "act": "zz", "id": "gone"}
    with caplog.at_level(logging.INFO):
        for _ in range(20):
            sock = await open_socket_page(host, port, f"/ws?chat={CHAT}", init_for(ANNA.user_id))
            await asyncio.get_running_loop().sock_sendall(
                sock, text_frame(json.dumps(refused)) * PageLimits().message_burst
            )
            # Gone at once, with a reset: the answers find no socket to go to.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
        # The last one's page is forgotten once its handler has ended.
        async with asyncio.timeout(WAIT):
            while site.live.pages.get(CHAT):
                await asyncio.sleep(0.01)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


async def test_silent_connections_and_one_members_sockets_leave_room_for_a_player(
    site: Site, redis_url: str, redis_prefix: str
) -> None:
    """Under a limit of 128 open files: 150 connections that never send a byte, then 200
    signed-in sockets of one person (a player: this worker lets no watcher in). The silent
    ones are closed after the connection idle time, the person keeps ``per_person`` pages,
    and the other player's pages open and play."""
    record = await site.deal()
    options = ("--files", "128", "--connection-idle", "1")
    async with started(redis_url, redis_prefix, TOKEN, IDLE, *options) as worker:
        listen = worker.listen
        host, port = listen.rsplit(":", 1)
        silent = [await connect(host, int(port)) for _ in range(150)]
        readers: list[asyncio.Future[None]] = []
        try:
            async with ClientSession(base_url=f"http://{listen}/") as session:
                async with asyncio.timeout(WAIT):
                    while (player := await _page_or_none(session, ANNA.user_id)) is None:
                        await asyncio.sleep(0.2)
                await shows(player, record.game.version)
                member: list[ClientWebSocketResponse] = []
                for _ in range(200):
                    page = await _page_or_none(session, BORIS.user_id)
                    assert page is not None, f"page {len(member) + 1} did not open"
                    member.append(page)
                    # It answers the server's close as a browser does.
                    readers.append(asyncio.ensure_future(_read(page)))
                version = await play_a_move(site)
                await shows(player, version)
                async with asyncio.timeout(WAIT):
                    while sum(not reader.done() for reader in readers) > PageLimits().per_person:
                        await asyncio.sleep(0.05)
                again = await _page_or_none(session, ANNA.user_id)
                assert again is not None
                for ws in (player, again, *member):
                    await ws.close()
        finally:
            for reader in readers:
                reader.cancel()
            for sock in silent:
                sock.close()


async def _page_or_none(session: ClientSession, user_id: int) -> ClientWebSocketResponse | None:
    """A page of ``user_id`` on the worker, its hello read; None if it could not open."""
    try:
        async with asyncio.timeout(3.0):
            ws = await session.ws_connect(
                "/ws", params={"chat": str(CHAT)}, protocols=socket_protocols(init_for(user_id))
            )
            message = await ws.receive()
    except (ClientError, OSError, TimeoutError):
        return None
    if message.type is not WSMsgType.TEXT:
        await ws.close()
        return None
    return ws


async def _read(ws: ClientWebSocketResponse) -> None:
    """Read the page's socket until it closes (aiohttp's client answers a close then)."""
    async for _message in ws:
        pass
