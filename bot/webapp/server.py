"""The Mini App's HTTP side (aiohttp): the page and its static files, a small JSON API and
a WebSocket, on ``WEBAPP_LISTEN``.

    GET  /                         the page (``static/index.html``)
    GET  /static/...               its script, style and card drawing (no other host's)
    GET  /api/state?chat=ID        the caller's view of the chat's game (JSON)
    GET  /replay?chat=ID&game=G    a finished game's replay page (``static/replay.html``)
    GET  /api/replay?chat=ID&game=G  that game step by step, for one who played it (JSON:
                                   ``bot.webapp.replay``)
    POST /api/move                 {chat, game, moves, act, id}: play, or why not
    GET  /ws?chat=ID&version=N     the view now (unless it is version N) and after every change;
                                   moves as {"type": "move", ...} on the socket, the dealer's
                                   suit as {"type": "trump", game, op, id} (R-TRUMP-1), «Play
                                   again» under finished game G as {"type": "again", game, id},
                                   and the page's {"type": "here"} / {"type": "away"}
                                   (``presence``); a tap refused is answered {"type": "answer",
                                   id, text} (the chat's pop-up), one played by its new position

Every request carries Telegram's ``initData``: the API in ``Authorization: tma <initData>``,
the socket in its ``Sec-WebSocket-Protocol`` header, the one header a browser lets a page
set on a socket (``auth.socket_init_data``), never in its URL, which proxies log. Without a
valid one the answer is 401 before any upgrade, and nothing else (``bot.webapp.auth``). A
seated player gets their seat's view; a member of the group who does not play, the public
view; anybody else 404, the answer for a chat with no game, so that a stranger learns not
even whether a chat has one. «Play again» under a finished table is for the same people, as
the chat's button is for whoever sees the table: anybody else is answered as under a chat
with no game. A finished game's replay is for those who played it: anybody else gets the
404 of a game no longer kept, word for word.

Anybody who uses Telegram can open the page, so nothing a page does may hold up another:

- A page's sends never wait in anybody else's task. A view the socket takes at once (little
  unsent) is sent in the move's own task; else it waits, newest only, for the page's own
  sender (``SocketPage``), and a socket that takes no message within ``send_deadline`` is
  cut: the page reconnects and catches up by its version, as after any lost connection.
- A socket that sends nothing for ``silent`` seconds, or twice ``WEBAPP_IDLE_SECONDS`` if
  longer, is closed (a visible page says «here» every third of that); a connection that
  never finishes a request, by ``bot.web.CONNECTION_IDLE_SECONDS``. A page that sends more
  than ``messages_per_second`` (past a burst) is closed too: each message costs the bot.
- At most ``per_person`` pages of one person on a worker (a new one closes their oldest) and
  ``watchers_per_chat`` pages of people who do not play a chat (a player's page always
  opens). The figures, and why these, are in ``PageLimits``.
- A watcher's membership of the group is asked again every ``membership_every`` seconds
  (Telegram's answer is remembered for a minute); when it fails the page is closed.
- What a page sends is read as JSON by one parser with limits (size, depth, finite numbers)
  and checked field by field; anything else is answered 400 (the socket: its pop-up) before
  anything is done with it. Close codes a page is told are ``Closed``'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path
from typing import Any, Final

from aiohttp import WSCloseCode, WSMsgType, web
from redis.exceptions import RedisError

from bot import jsontext
from bot.i18n import Translator, private_language, translator
from bot.model import GameRecord
from bot.playing import (
    AgainRequest,
    MoveRequest,
    TrumpRequest,
    make_move,
    name_trump,
    play_again,
    refusal,
)
from bot.schema.refusals import Reason
from bot.services import (
    Claim,
    GameService,
    NewerRecord,
    Outcome,
    Player,
    PressOutcome,
    Refused,
    StorageBusy,
)
from bot.storage import AlreadyApplied

from .auth import SOCKET_PROTOCOL, Viewer, identify, socket_init_data
from .live import Live
from .presence import Presence, nobody_told
from .replay import replay_view
from .texts import page_texts
from .views import page_state

log = logging.getLogger(__name__)

STATIC: Final = Path(__file__).parent / "static"
# Characters of the page's own id for a tap (a retry sends it again): longer is malformed,
# so that an answer, which names it, is never much longer than the page's own message.
MAX_PRESS_ID: Final = 40
SECURITY_HEADERS: Final = {
    # Nothing from another host but Telegram's own script; the socket is this host's.
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self' https://telegram.org; "
        "style-src 'self'; img-src 'self' data:; connect-src 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


# A replay holds a person's hand (and, where the chat shows them, everybody's): no cache
# between the page and the bot keeps it.
PRIVATE: Final = {"Cache-Control": "no-store"}
MAX_MESSAGE: Final = 4096  # bytes of one socket message or request body from a page
MAX_FIELD: Final = 64  # characters of a game's id, an action's or a suit button's code
# A page's socket holding more bytes than this not sent yet is sent to by its own sender
# (``SocketPage.may_wait``): well under the transport's high-water mark (64 KiB), so below it
# a view of about 1.2 KB never makes the socket wait to drain.
BACKED_UP: Final = 16 * 1024


# Seconds one message may take to leave for a page's socket. A phone on a poor network takes
# a 1.2 KB view in well under a second, once the socket's buffers (tens of KB) are full; a
# socket nobody reads never does.
SEND_DEADLINE: Final = 10.0


class Closed(IntEnum):
    """Why the server closed a page's socket: WebSocket close codes of the application's
    range, which the page tells apart (static/app.js)."""

    NOT_ALLOWED = 4403  # its viewer is no longer a member of the group: no reconnect
    SILENT = 4408  # nothing from it for ``PageLimits.silent``: reconnect once visible
    REPLACED = 4409  # the same person opened one page too many: this, their oldest, went
    TOO_FAST = 4420  # more messages than ``PageLimits`` allows: reconnect, as when lost
    FULL = 4429  # ``PageLimits.watchers_per_chat`` watch the table here: try again later


@dataclass(frozen=True, slots=True)
class PageLimits:
    """What one page may hold of a worker. A page is one socket, so one file descriptor: a
    worker under ``LimitNOFILE=65536`` (deploy/) carries about 64,000 pages."""

    send_deadline: float = SEND_DEADLINE
    # Seconds without a word from a page before its socket is closed, or twice the idle time
    # if that is longer: a visible page says «here» three times in each idle time
    # (``presence.here_every``), so only a hidden page, or one that froze, is this quiet.
    silent: float = 600.0
    # Seconds between two checks that a watcher (not seated at the table) is still in the
    # group: as often as ``storage.members`` remembers Telegram's answer.
    membership_every: float = 60.0
    # One person's pages on one worker: a phone, a desktop and a browser, each with a socket
    # or two left over from a network that changed (they close at the next heartbeat).
    per_person: int = 8
    # Pages of people who do not play one chat, on one worker: a crowd watching a table is
    # welcome, but one group must not hold a worker's descriptors.
    watchers_per_chat: int = 1000
    # Messages a page may send: ``message_burst`` at once, then ``messages_per_second`` on
    # average. A page sends a move a tap and says «here» three times a minute (and at every
    # change of its visibility): a person taps a few times a second at most, a test playing
    # at a machine's pace some ten. Each message costs the bot a parse, often a read of the
    # game and an answer, so a page that sends more is closed rather than served.
    messages_per_second: float = 20.0
    message_burst: int = 40


MayWatch = Callable[[int, int], Awaitable[bool]]
"""Is user (second) a member of group chat (first), so that they may watch its table?"""


@dataclass(slots=True)
class Served:
    """What the Mini App serves, handed in by whoever builds the bot."""

    service: GameService
    live: Live
    publish: Callable[[GameRecord], None]  # a move played on a page, for the chat to show
    token: str
    max_age: float
    may_watch: MayWatch
    idle: float  # seconds of silence after which a page counts as idle (``presence``)
    clock: Callable[[], float] = field(default=time.time)
    # This process's outbox, told when a page of a chat closes (``Presence.closed``).
    page_closed: Callable[[int, int], None] = nobody_told
    limits: PageLimits = field(default_factory=PageLimits)

    def viewer(self, init_data: str | None) -> Viewer:
        viewer = identify(init_data, self.token, max_age=self.max_age, now=self.clock())
        if viewer is None:
            raise web.HTTPUnauthorized()
        return viewer


def _chat(request: web.Request, viewer: Viewer, given: object = None) -> int:
    """The chat the page is about: ``chat`` in the query (the private hand's button) or the
    body, else the direct link's ``startapp``."""
    raw = given if given is not None else request.query.get("chat") or viewer.start_param
    try:
        return _chat_id(raw)
    except ValueError:
        raise web.HTTPBadRequest(text="chat?") from None


def _chat_id(raw: object) -> int:
    """A chat's id, as a whole number or its digits; ValueError (quoting nothing) else."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and len(raw) <= 20:
        with contextlib.suppress(ValueError):
            return int(raw)
    raise ValueError("chat is not a chat's id")


async def _record_for(served: Served, viewer: Viewer, chat_id: int) -> GameRecord:
    """The chat's game, if ``viewer`` may look at it (a player, or a member of the group);
    404 if there is none or they may not, alike; 503 while a newer version of the bot has
    it (a rolling upgrade under way)."""
    try:
        record = await served.service.games.get(chat_id)
    except NewerRecord as error:
        log.warning("a page of chat %s: %s; left to a newer worker", chat_id, error)
        raise web.HTTPServiceUnavailable() from None
    if record is not None and await _may_see(served, record, viewer.user_id):
        return record
    raise web.HTTPNotFound()


async def _may_see(served: Served, record: GameRecord, user_id: int) -> bool:
    if record.game.seat_of(user_id) is not None:
        return True
    return not record.game.private and await served.may_watch(record.game.chat_id, user_id)


def _tr(viewer: Viewer) -> Translator:
    return translator(private_language(viewer.language))


def _init_header(request: web.Request) -> str | None:
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return value if scheme.lower() == "tma" else None


def webapp_app(served: Served) -> web.Application:
    app = web.Application(middlewares=[_headers], client_max_size=MAX_MESSAGE)
    presence = Presence(served.service.storage, served.idle, served.clock, served.page_closed)
    limits = served.limits
    held = HeldPages(limits)

    async def close_sockets(_app: web.Application) -> None:
        """At a stop: pages reconnect (to another worker, or to this one once it is back)."""
        await asyncio.gather(*(page.close(WSCloseCode.GOING_AWAY) for page in held.all()))

    async def index(_request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def state(request: web.Request) -> web.Response:
        viewer = served.viewer(_init_header(request))
        record = await _record_for(served, viewer, _chat(request, viewer))
        return web.json_response(page_state(record, viewer.user_id, _tr(viewer)))

    async def move(request: web.Request) -> web.Response:
        viewer = served.viewer(_init_header(request))
        try:
            body = jsontext.loads(await request.read())
            given = body.get("chat") if isinstance(body, dict) else None
            chat_id = _chat(request, viewer) if given is None else _chat_id(given)
            move_request, press_id = _move_request(body, chat_id), _press_id(body)
        except (ValueError, web.HTTPRequestEntityTooLarge) as error:
            log.warning("a page's move was refused as malformed: %s", _why_malformed(error))
            raise web.HTTPBadRequest(text="move?") from None
        outcome = await _play(served, move_request, press_id, viewer)
        if isinstance(outcome, str):  # Redis could not save it
            return web.json_response({"ok": False, "text": outcome})
        if isinstance(outcome, Refused):
            # Only a player's move can be played; a refusal tells about the game only to
            # those who may see it (a stranger learns nothing, not even that it exists).
            await _record_for(served, viewer, chat_id)
        text = refusal(outcome, _tr(viewer))
        return web.json_response({"ok": text is None, "text": text})

    async def socket(request: web.Request) -> web.WebSocketResponse:
        viewer = served.viewer(socket_init_data(request.headers.get("Sec-WebSocket-Protocol")))
        chat_id = _chat(request, viewer)
        record = await _record_for(served, viewer, chat_id)
        # No permessage-deflate, though browsers offer it: a page's message is about 1.2 KB,
        # and compressing it would cost the bot CPU on every move and every open page a
        # zlib window in memory (hundreds of KB each, at thousands of pages).
        ws = web.WebSocketResponse(
            protocols=(SOCKET_PROTOCOL,), heartbeat=30.0, max_msg_size=MAX_MESSAGE, compress=False
        )
        await ws.prepare(request)
        tr = _tr(viewer)
        version = _version(request.query.get("version"))
        seated = record.game.seat_of(viewer.user_id) is not None
        page = SocketPage(
            ws,
            viewer.user_id,
            tr,
            version,
            presence if seated else None,
            request.transport,
            limits.send_deadline,
        )
        # The words first: a page refused here says why in its viewer's language.
        hello = {"lang": tr.lang, "texts": page_texts(tr), "here_every": presence.here_every}
        await page.send({"type": "hello", **hello})
        refused = held.admit(chat_id, page, seated=seated)
        if refused is not None:
            await page.close(refused)
            return ws
        served.live.watch(chat_id, page)
        membership = asyncio.get_running_loop().create_task(_keep_watching(served, page, chat_id))
        try:
            await page.here(chat_id)
            # A change between the read above and ``watch`` is read here.
            await page.show(await served.service.games.get(chat_id) or record)
            await _listen(served, page, chat_id, viewer)
        finally:
            membership.cancel()
            served.live.forget(chat_id, page)
            held.release(chat_id, page)
            page.stop()
            with contextlib.suppress(RedisError):
                await page.away(chat_id)
        return ws

    async def replay_page(_request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "replay.html", headers={"Cache-Control": "no-cache"})

    async def replay(request: web.Request) -> web.Response:
        viewer = served.viewer(_init_header(request))
        game_id = request.query.get("game", "")
        try:
            chat_id = _chat_id(request.query.get("chat"))
        except ValueError:
            raise web.HTTPBadRequest(text="replay?") from None
        if not 0 < len(game_id) <= MAX_FIELD:
            raise web.HTTPBadRequest(text="replay?")
        storage = served.service.storage
        finished = await storage.finished.get(chat_id, game_id)
        seat = None if finished is None else finished.seat_of(viewer.user_id)
        tr = _tr(viewer)
        if finished is None or seat is None:
            # One answer for a game not kept and one not played: nothing is told.
            not_found = {"text": tr.t("replay-page-not-found")}
            return web.json_response(not_found, status=404, headers=PRIVATE)
        review = await storage.reviews.get(chat_id, game_id, viewer.user_id)
        response = web.json_response(replay_view(finished, seat, review, tr), headers=PRIVATE)
        # A long game is tens of KB of JSON, mostly the same words again: worth compressing.
        response.enable_compression()
        return response

    async def stop_presence(_app: web.Application) -> None:
        await presence.stop()

    app.on_shutdown.append(close_sockets)
    app.on_shutdown.append(stop_presence)
    app.router.add_get("/", index)
    app.router.add_static("/static", STATIC)
    app.router.add_get("/api/state", state)
    app.router.add_get("/replay", replay_page)
    app.router.add_get("/api/replay", replay)
    app.router.add_post("/api/move", move)
    app.router.add_get("/ws", socket)
    return app


async def _listen(served: Served, page: SocketPage, chat_id: int, viewer: Viewer) -> None:
    """What the page says, until its socket closes or it falls silent (``PageLimits.silent``)."""
    ws, tr = page.ws, page.tr
    loop = asyncio.get_running_loop()
    limits = served.limits
    silent = max(limits.silent, 2 * served.idle)
    last_word = loop.time()
    burst = limits.message_burst
    allowance = Allowance(limits.messages_per_second, burst, left=burst, at=last_word)
    while not ws.closed:
        try:
            message = await ws.receive(timeout=min(served.idle, silent))
        except TimeoutError:
            await page.away(chat_id)  # open, but silent: idle (``presence``)
            if loop.time() - last_word >= silent:
                await page.close(Closed.SILENT)
                return
            continue
        if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
            return
        last_word = loop.time()
        if not allowance.take(last_word):
            await page.close(Closed.TOO_FAST)
            return
        if message.type is not WSMsgType.TEXT:
            continue
        body = _body(message.data)
        kind = body.get("type") if isinstance(body, dict) else None
        if kind == "away":
            await page.away(chat_id)
            continue
        await page.here(chat_id)
        if kind != "here":
            answer = await _answer(served, viewer, chat_id, body, tr)
            # A move played is answered by its position, which every page is sent (this
            # one too): only a refusal is answered, with the chat's pop-up.
            if answer["text"] is not None:
                await page.send(answer)


async def _keep_watching(served: Served, page: SocketPage, chat_id: int) -> None:
    """Close the page of a viewer who does not play once they may no longer watch: asked
    every ``membership_every`` seconds (Telegram's answer is remembered that long)."""
    while True:
        await asyncio.sleep(served.limits.membership_every)
        if page.seated:
            continue
        try:
            allowed = await served.may_watch(chat_id, page.user_id)
        except RedisError as error:  # ours to fix, not theirs: asked again next time
            log.warning("a watcher's membership could not be checked: %s", error)
            continue
        if not allowed:
            await page.close(Closed.NOT_ALLOWED)
            return


@web.middleware
async def _headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    response = await handler(request)
    if not response.prepared:
        response.headers.update(SECURITY_HEADERS)
    return response


class SocketPage:
    """One open page (``live.Page``): sends its view whenever the version moves on. A seated
    player's page in use (``presence``) holds their hand message and starts their turn clock
    when it shows them a position where they must act.

    What its socket cannot take at once waits here, newest only, for the page's own sender
    task: one slow page never holds up the move's task nor any other page. A message that
    does not leave within ``send_deadline`` cuts the connection (``drop``)."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        user_id: int,
        tr: Translator,
        version: int,
        presence: Presence | None,
        transport: asyncio.Transport | None = None,
        send_deadline: float = SEND_DEADLINE,
    ):
        self.ws = ws
        self.transport = transport
        self.user_id = user_id
        self.tr = tr
        self.version = version
        self.presence = presence
        self.send_deadline = send_deadline
        self.seated = presence is not None  # in the game it was shown last
        self.here_until = 0.0  # while the page counts as open in Redis; 0 while it does not
        self._newest: GameRecord | None = None  # waiting for the sender
        self._sender: asyncio.Task[None] | None = None

    async def show(self, record: GameRecord) -> None:
        """``live.Page.show``: at once if the socket takes it without waiting, else handed
        to the page's sender (replacing an older position still waiting there)."""
        if record.game.version == self.version or self.ws.closed:
            return
        if self._sender is None and not self.may_wait(record):
            await self._show(record)  # ``may_wait`` false: the frame is written, not awaited
            return
        self._newest = record
        if self._sender is None:
            self._sender = asyncio.get_running_loop().create_task(self._send_newest())

    def may_wait(self, record: GameRecord) -> bool:
        """Whether showing ``record`` may wait: the socket holds more than ``BACKED_UP``
        bytes not sent yet (below it a frame never waits for the socket to drain), or the
        page starts the player's turn clock (a write to Redis)."""
        transport = self.transport
        backed_up = transport is None or transport.get_write_buffer_size() > BACKED_UP
        return backed_up or self._starts_clock(record)

    async def _send_newest(self) -> None:
        try:
            while (record := self._newest) is not None:
                self._newest = None
                if record.game.version != self.version and not self.ws.closed:
                    await self._show(record)
        finally:
            self._sender = None

    async def _show(self, record: GameRecord) -> None:
        self.version = record.game.version
        self.seated = record.game.seat_of(self.user_id) is not None
        view = page_state(record, self.user_id, self.tr)
        if not await self.send(view):
            return
        if self._starts_clock(record):
            assert self.presence is not None
            await self.presence.delivered(record, self.user_id)

    async def send(self, message: dict[str, Any]) -> bool:
        """Send ``message`` as JSON: False if the socket is gone, or took too long and was
        cut."""
        try:
            async with asyncio.timeout(self.send_deadline):
                await self.ws.send_frame(jsontext.encode(message), WSMsgType.TEXT)
        except TimeoutError:
            log.info("a page took no message for %.0f s: cut", self.send_deadline)
            self.drop()
            return False
        except ConnectionError:
            return False
        return True

    async def close(self, code: int) -> None:
        """Close the socket, telling the page ``code``; cut it if it cannot be told in time."""
        try:
            async with asyncio.timeout(self.send_deadline):
                await self.ws.close(code=code)
        except TimeoutError:
            self.drop()
        except ConnectionError:
            pass

    def drop(self) -> None:
        """Cut the connection, without waiting for what it holds unsent: a socket nobody
        reads would keep its descriptor for as long as the buffer waits to drain."""
        if self.transport is not None:
            self.transport.abort()

    def stop(self) -> None:
        """The page is gone: nothing more is sent to it."""
        self._newest = None
        if self._sender is not None:
            self._sender.cancel()

    def _starts_clock(self, record: GameRecord) -> bool:
        return (
            self.presence is not None
            and bool(self.here_until)
            and self.presence.starts_clock(record, self.user_id)
        )

    async def here(self, chat_id: int) -> None:
        """The page is in use: mark it open, again once a third of its time has gone."""
        if self.presence is None:
            return
        presence = self.presence
        if self.here_until - presence.clock() > presence.idle - presence.here_every:
            return
        self.here_until = await presence.here(chat_id, self.user_id, renewal=self.here_until > 0)

    async def away(self, chat_id: int) -> None:
        if self.presence is None or not self.here_until:
            return
        self.here_until = 0.0
        await self.presence.away(chat_id, self.user_id)


@dataclass(slots=True)
class Allowance:
    """What a page may still send: ``burst`` messages at once, refilled at ``per_second``."""

    per_second: float
    burst: float
    left: float
    at: float  # when ``left`` was counted

    def take(self, now: float) -> bool:
        """Whether a message sent at ``now`` is within the allowance (it is counted)."""
        self.left = min(self.burst, self.left + (now - self.at) * self.per_second)
        self.at = now
        if self.left < 1:
            return False
        self.left -= 1
        return True


class HeldPages:
    """The pages this worker holds, by person and, for watchers, by chat (``PageLimits``)."""

    def __init__(self, limits: PageLimits) -> None:
        self.limits = limits
        self.by_person: dict[int, list[SocketPage]] = {}  # oldest first
        self.watchers: dict[int, int] = {}  # chat -> pages of people not seated at connect
        self._watching: set[SocketPage] = set()
        self._closing: set[asyncio.Task[None]] = set()

    def admit(self, chat_id: int, page: SocketPage, *, seated: bool) -> Closed | None:
        """Hold ``page``, unless the chat has all the watchers a worker takes (``FULL``). A
        person's page past ``per_person`` closes their oldest (``REPLACED``)."""
        if not seated:
            if self.watchers.get(chat_id, 0) >= self.limits.watchers_per_chat:
                return Closed.FULL
            self.watchers[chat_id] = self.watchers.get(chat_id, 0) + 1
            self._watching.add(page)
        pages = self.by_person.setdefault(page.user_id, [])
        pages.append(page)
        if len(pages) > self.limits.per_person:
            task = asyncio.get_running_loop().create_task(pages.pop(0).close(Closed.REPLACED))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)
        return None

    def release(self, chat_id: int, page: SocketPage) -> None:
        pages = self.by_person.get(page.user_id, [])
        if page in pages:
            pages.remove(page)
        if not pages:
            self.by_person.pop(page.user_id, None)
        if page in self._watching:
            self._watching.discard(page)
            left = self.watchers[chat_id] - 1
            if left:
                self.watchers[chat_id] = left
            else:
                del self.watchers[chat_id]

    def all(self) -> list[SocketPage]:
        return [page for pages in self.by_person.values() for page in pages]


def _body(data: str) -> object:
    """A page's message as JSON, None if it is not JSON."""
    try:
        return jsontext.loads(data)
    except ValueError:
        return None


def _version(raw: str | None) -> int:
    try:
        return int(raw or "-1")
    except ValueError:
        return -1


def _move_request(body: object, chat_id: int) -> MoveRequest:
    """The move a page's message asks for; ValueError unless it has each field, of its type
    and within its bounds."""
    return MoveRequest(
        chat=chat_id, game=_text(body, "game"), moves=_count(body, "moves"), act=_text(body, "act")
    )


def _press_id(body: object) -> str:
    """The page's own id for a tap (a retry sends it again)."""
    return _text(body, "id", MAX_PRESS_ID)


def _text(body: object, name: str, longest: int = MAX_FIELD) -> str:
    value = body.get(name) if isinstance(body, dict) else None
    if not isinstance(value, str) or len(value) > longest:
        raise ValueError(f"{name} is not a text of at most {longest} characters")
    return value


def _count(body: object, name: str) -> int:
    value = body.get(name) if isinstance(body, dict) else None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**31:
        raise ValueError(f"{name} is not a count")
    return value


def _why_malformed(error: Exception) -> str:
    """One line on what was wrong, quoting nothing the page sent."""
    if isinstance(error, web.HTTPRequestEntityTooLarge):
        return f"over {MAX_MESSAGE} bytes"
    return str(error) if type(error) is ValueError else "not JSON"


async def _answer(
    served: Served, viewer: Viewer, chat_id: int, body: Any, tr: Translator
) -> dict[str, Any]:
    """The answer to one message of a page's socket (``body``, its JSON): a move played (or
    the trump named, or a new lobby made), or why not."""
    request: PageRequest
    try:
        match body.get("type") if isinstance(body, dict) else None:
            case "move":
                request = _move_request(body, chat_id)
            case "trump":
                request = TrumpRequest(chat_id, _text(body, "game"), _text(body, "op"))
            case "again":
                request = AgainRequest(chat_id, _text(body, "game"))
            case _:
                raise ValueError("not a move, a trump or «Play again»")
        press_id = _press_id(body)
    except ValueError:
        return {"type": "answer", "id": None, "text": tr.t("answer-malformed")}
    outcome = await _play(served, request, press_id, viewer)
    text = outcome if isinstance(outcome, str) else refusal(outcome, tr)
    return {"type": "answer", "id": press_id, "text": text}


PageRequest = MoveRequest | TrumpRequest | AgainRequest
"""What a tap on a page asks for."""


async def _play(
    served: Served, request: PageRequest, press_id: str, viewer: Viewer
) -> PressOutcome | str:
    """Play a page's tap (a move, the trump named, «Play again») once, however often the
    page sends it; or, when Redis could not save it, what the page is told."""
    once = served.service.storage.updates.page_press(viewer.user_id, press_id)
    try:
        if isinstance(request, AgainRequest):
            return await _again(served, request, viewer, once)
        if isinstance(request, TrumpRequest):
            return await name_trump(
                served.service, served.publish, request, viewer.user_id, once=once
            )
        return await make_move(
            served.service, served.publish, request, viewer.user_id, once=once, picks=False
        )
    except AlreadyApplied:  # the same tap again: its first sending was played
        return Refused(Reason.DUPLICATE)
    except StorageBusy:
        return _tr(viewer).t("answer-busy")
    except NewerRecord as error:
        log.warning("a page's move was not played: %s; left to a newer worker", error)
        return _tr(viewer).t("answer-updating")
    except RedisError as error:
        log.warning("a page's move was not saved: %s", error)
        return _tr(viewer).t("answer-unavailable")


async def _again(served: Served, request: AgainRequest, viewer: Viewer, once: Claim) -> Outcome:
    """«Play again» for ``viewer``, if they may see the chat's game now. The service asks
    nobody's seat: in the chat, only those who see the table have the button, but a page's
    socket outlives a watcher's membership of the group (``_keep_watching`` asks again only
    now and then). Anybody else is refused as under a chat with no game (``stale-lobby``,
    the service's word for that), so that they learn nothing about the chat."""
    record = await served.service.games.get(request.chat)
    if record is None or not await _may_see(served, record, viewer.user_id):
        return Refused(Reason.STALE_LOBBY)
    player = Player(viewer.user_id, viewer.name, private_language(viewer.language))
    return await play_again(served.service, served.publish, request, player, once=once)
