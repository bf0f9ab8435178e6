"""The Mini App's HTTP side (aiohttp): the page and its static files, a small JSON API and
a WebSocket, on ``WEBAPP_LISTEN``.

    GET  /                         the page (``static/index.html``)
    GET  /static/...               its script, style and card drawing (no other host's)
    GET  /api/state?chat=ID        the caller's view of the chat's game (JSON)
    POST /api/move                 {chat, game, moves, act, id}: play, or why not
    GET  /ws?chat=ID&version=N     the view now (unless it is version N) and after every change;
                                   moves as {"type": "move", ...} on the socket, the dealer's
                                   suit as {"type": "trump", game, op, id} (R-TRUMP-1), and
                                   the page's {"type": "here"} / {"type": "away"} (``presence``);
                                   a move or a suit refused is answered {"type": "answer", id,
                                   text} (the chat's pop-up), one played by its new position

Every request carries Telegram's ``initData``: the API in ``Authorization: tma <initData>``,
the socket in its ``Sec-WebSocket-Protocol`` header, the one header a browser lets a page
set on a socket (``auth.socket_init_data``), never in its URL, which proxies log. Without a
valid one the answer is 401 before any upgrade, and nothing else (``bot.webapp.auth``). A
seated player gets their seat's view; a member of the group who does not play, the public
view; anybody else 403.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from aiohttp import WSCloseCode, WSMsgType, web
from redis.exceptions import RedisError

from bot import jsontext
from bot.i18n import Translator, private_language, translator
from bot.services import GameService, StorageBusy
from bot.storage import GameRecord

from .auth import SOCKET_PROTOCOL, Viewer, identify, socket_init_data
from .live import Live
from .moves import MoveRequest, TrumpRequest, make_move, name_trump
from .presence import Presence, nobody_told
from .texts import page_texts
from .views import page_state

log = logging.getLogger(__name__)

STATIC: Final = Path(__file__).parent / "static"
SECURITY_HEADERS: Final = {
    # Nothing from another host but Telegram's own script; the socket is this host's.
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self' https://telegram.org; "
        "style-src 'self'; img-src 'self' data:; connect-src 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


MAX_MESSAGE: Final = 4096  # bytes of one socket message from a page
# A page's socket holding more bytes than this not sent yet is shown in a task of its own
# (``SocketPage.may_wait``): well under the transport's high-water mark (64 KiB), so below it
# a view of about 1.2 KB never makes the socket wait to drain.
BACKED_UP: Final = 16 * 1024

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
        return int(str(raw))
    except ValueError:
        raise web.HTTPBadRequest(text="chat?") from None


async def _record_for(served: Served, viewer: Viewer, chat_id: int) -> GameRecord:
    """The chat's game, if ``viewer`` may look at it (a player, or a member of the group)."""
    record = await served.service.games.get(chat_id)
    if record is None:
        raise web.HTTPNotFound()
    if record.game.seat_of(viewer.user_id) is not None:
        return record
    if record.game.private or not await served.may_watch(chat_id, viewer.user_id):
        raise web.HTTPForbidden()
    return record


def _tr(viewer: Viewer) -> Translator:
    return translator(private_language(viewer.language))


def _init_header(request: web.Request) -> str | None:
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return value if scheme.lower() == "tma" else None


def webapp_app(served: Served) -> web.Application:
    app = web.Application(middlewares=[_headers])
    sockets: set[web.WebSocketResponse] = set()
    presence = Presence(served.service.storage, served.idle, served.clock, served.page_closed)

    async def close_sockets(_app: web.Application) -> None:
        """At a stop: pages reconnect (to another worker, or to this one once it is back)."""
        for ws in list(sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY)

    async def index(_request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def state(request: web.Request) -> web.Response:
        viewer = served.viewer(_init_header(request))
        record = await _record_for(served, viewer, _chat(request, viewer))
        return web.json_response(page_state(record, viewer.user_id, _tr(viewer)))

    async def move(request: web.Request) -> web.Response:
        viewer = served.viewer(_init_header(request))
        try:
            body = await request.json()
            move_request = _move_request(body, _chat(request, viewer, body.get("chat")))
        except (ValueError, TypeError, KeyError, AttributeError):
            raise web.HTTPBadRequest(text="move?") from None
        await _record_for(served, viewer, move_request.chat)
        text = await _play(served, move_request, viewer)
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
            ws, viewer.user_id, tr, version, presence if seated else None, request.transport
        )
        served.live.watch(chat_id, page)
        sockets.add(ws)
        try:
            hello = {"lang": tr.lang, "texts": page_texts(tr), "here_every": presence.here_every}
            await ws.send_json({"type": "hello", **hello}, dumps=jsontext.dumps)
            await page.here(chat_id)
            # A change between the read above and ``watch`` is read here.
            await page.show(await served.service.games.get(chat_id) or record)
            while not ws.closed:
                try:
                    message = await ws.receive(timeout=served.idle)
                except TimeoutError:
                    await page.away(chat_id)  # open, but silent: idle (``presence``)
                    continue
                if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                    break
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
                    # A move played is answered by its position, which every page is sent
                    # (this one too): only a refusal is answered, with the chat's pop-up.
                    if answer["text"] is not None:
                        await ws.send_json(answer, dumps=jsontext.dumps)
        finally:
            served.live.forget(chat_id, page)
            sockets.discard(ws)
            with contextlib.suppress(RedisError):
                await page.away(chat_id)
        return ws

    async def stop_presence(_app: web.Application) -> None:
        await presence.stop()

    app.on_shutdown.append(close_sockets)
    app.on_shutdown.append(stop_presence)
    app.router.add_get("/", index)
    app.router.add_static("/static", STATIC)
    app.router.add_get("/api/state", state)
    app.router.add_post("/api/move", move)
    app.router.add_get("/ws", socket)
    return app


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
    when it shows them a position where they must act."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        user_id: int,
        tr: Translator,
        version: int,
        presence: Presence | None,
        transport: asyncio.BaseTransport | None = None,
    ):
        self.ws = ws
        # How many bytes the socket holds unsent. Asked of the transport, not checked by its
        # class: uvloop's transports have asyncio's methods without its base classes.
        unsent = getattr(transport, "get_write_buffer_size", None)
        self.unsent: Callable[[], int] | None = unsent if callable(unsent) else None
        self.user_id = user_id
        self.tr = tr
        self.version = version
        self.presence = presence
        self.here_until = 0.0  # while the page counts as open in Redis; 0 while it does not

    async def show(self, record: GameRecord) -> None:
        if record.game.version == self.version or self.ws.closed:
            return
        self.version = record.game.version
        try:
            view = jsontext.encode(page_state(record, self.user_id, self.tr))
            await self.ws.send_frame(view, WSMsgType.TEXT)
        except ConnectionError:
            return
        if self._starts_clock(record):
            assert self.presence is not None
            await self.presence.delivered(record, self.user_id)

    def may_wait(self, record: GameRecord) -> bool:
        """``live.Page.may_wait``: the socket holds more than ``BACKED_UP`` bytes not sent
        yet (below it a frame never waits for the socket to drain), or the page starts the
        player's turn clock."""
        unsent = self.unsent
        backed_up = unsent is None or unsent() > BACKED_UP
        return backed_up or self._starts_clock(record)

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


def _move_request(body: Any, chat_id: int) -> MoveRequest:
    return MoveRequest(
        chat=chat_id,
        game=str(body["game"]),
        moves=int(body["moves"]),
        act=str(body["act"]),
        press_id=str(body["id"]),
    )


async def _answer(
    served: Served, viewer: Viewer, chat_id: int, body: Any, tr: Translator
) -> dict[str, Any]:
    """The answer to one message of a page's socket (``body``, its JSON): a move played (or
    the trump named), or why not."""
    request: MoveRequest | TrumpRequest
    try:
        match body.get("type"):
            case "move":
                request = _move_request(body, chat_id)
            case "trump":
                request = TrumpRequest(chat_id, str(body["game"]), str(body["op"]), str(body["id"]))
            case _:
                raise ValueError("neither a move nor a trump")
    except (ValueError, TypeError, KeyError, AttributeError):
        return {"type": "answer", "id": None, "text": tr.t("answer-malformed")}
    return {"type": "answer", "id": request.press_id, "text": await _play(served, request, viewer)}


async def _play(served: Served, request: MoveRequest | TrumpRequest, viewer: Viewer) -> str | None:
    tr = _tr(viewer)
    try:
        if isinstance(request, TrumpRequest):
            return await name_trump(served.service, served.publish, request, viewer.user_id, tr)
        return await make_move(served.service, served.publish, request, viewer.user_id, tr)
    except StorageBusy:
        return tr.t("answer-busy")
    except RedisError as error:
        log.warning("a page's move was not saved: %s", error)
        return tr.t("answer-unavailable")
