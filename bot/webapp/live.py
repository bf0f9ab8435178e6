"""Moves reach every open page: one Redis pub/sub subscription per worker process.

Every save that changes what a game shows publishes the chat id on ``{p}:live``, in the
same transaction as the save (``DeliveryStore.queue_mark``), whichever process made it:
a chat button, a page, the turn clock, a computer player. Each worker listens once and
refreshes the pages it holds for that chat: it reads the game once and sends each page
its own view if the game's version moved on.

The notice names the game and the version saved, and the process that saved it: that
process hands its own pages the record at once (``Live.saved``, told by
``GameStore.on_saved`` as the save returns), and passes over its notice when it comes back
(often before the save's own answer does), so a change costs a read of the game only in
the other workers that hold pages of that chat, once each. Each process also listens to a
channel of its own (``Keys.live_listener``) on the same connection, and a save it makes is
not announced at all while it is the only listener (``Writes.notify``: the script counts
the listeners of both channels), as with one bot process: no notice to send, read and pass
over on every move.

Why pub/sub and not a stream: a page needs the newest position, never the history, and
the game's own key already holds it. A notice lost while a worker reconnects costs
nothing lasting: the page's next notice, or its own reconnect (it sends the version it
has; the server sends the state whenever the stored version differs), catches it up.
A stream would keep and trim a log nobody reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Final, Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError

from bot.model import GameRecord
from bot.services import NewerRecord

log = logging.getLogger(__name__)

RECONNECT_SECONDS: Final = 1.0


class Page(Protocol):
    """An open page watching one chat."""

    async def show(self, record: GameRecord) -> None:
        """Send the page its view of ``record`` if it does not show that version yet,
        without waiting for its socket: what the socket cannot take at once is the page's
        own to send later (``server.SocketPage``), so that one slow page holds up no other."""


class Live:
    """The pages this process holds, by chat, and the subscription that refreshes them."""

    def __init__(
        self,
        redis: Redis,
        channel: str,
        load: Callable[[int], Awaitable[GameRecord | None]],
        origin: str | None = None,
        listener: str | None = None,
    ) -> None:
        self.redis = redis
        self.channel = channel
        self.load = load
        self.origin = origin  # how notices name this process (``GameStore.origin``)
        # Listened to beside ``channel``, so that a save of this process is announced only
        # when some other process listens (``Writes.notify``).
        self.listener = listener
        self.pages: dict[int, set[Page]] = {}
        self.sent: dict[int, tuple[str, int]] = {}  # chat -> the game and version its pages got
        # Chats changed while their refresh ran: the version a notice named (None: unknown).
        self._dirty: dict[int, tuple[str, int] | None] = {}
        self._handed: dict[int, GameRecord] = {}  # chat -> a record this process saved
        self._refreshing: dict[int, asyncio.Task[None]] = {}
        self._task: asyncio.Task[None] | None = None
        self.subscribed = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._listen())

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._refreshing.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def watch(self, chat_id: int, page: Page) -> None:
        self.pages.setdefault(chat_id, set()).add(page)

    def forget(self, chat_id: int, page: Page) -> None:
        pages = self.pages.get(chat_id)
        if pages is not None:
            pages.discard(page)
            if not pages:
                del self.pages[chat_id]
                self.sent.pop(chat_id, None)
                self._handed.pop(chat_id, None)

    def saved(self, record: GameRecord) -> None:
        """This process saved ``record``: its pages here are sent it now, without waiting
        for the notice through Redis and reading the game back."""
        game = record.game
        self.changed(game.chat_id, (game.game_id, game.version), record)

    def changed(
        self,
        chat_id: int,
        version: tuple[str, int] | None = None,
        record: GameRecord | None = None,
    ) -> None:
        """The chat's game changed (to ``version``, game id and version, if the notice says;
        ``record``, if this process saved it): refresh its pages here (once more if a
        refresh runs, unless they are sent that version by then)."""
        if chat_id not in self.pages or (version is not None and self._sent(chat_id, *version)):
            return
        if record is not None:
            self._handed[chat_id] = record
        if chat_id in self._refreshing:
            self._dirty[chat_id] = _newer(self._dirty.get(chat_id, version), version)
            return
        task = asyncio.get_running_loop().create_task(self._refresh(chat_id))
        self._refreshing[chat_id] = task

    def _sent(self, chat_id: int, game_id: str, version: int) -> bool:
        """Whether the chat's pages here were sent that version of that game, or a newer one."""
        sent = self.sent.get(chat_id)
        return sent is not None and sent[0] == game_id and sent[1] >= version

    async def _refresh(self, chat_id: int) -> None:
        """Send the chat's pages its game, the record handed over or else read now; again
        while changes came meanwhile (one refresh per chat at a time: pages never go back)."""
        try:
            while True:
                self._dirty.pop(chat_id, None)
                pages = self.pages.get(chat_id)
                if not pages:
                    return
                record = await self._newest(chat_id)
                if record is not None:
                    game = record.game
                    if not self._sent(chat_id, game.game_id, game.version):
                        self.sent[chat_id] = (game.game_id, game.version)
                        for page in list(pages):
                            await page.show(record)
                if chat_id not in self._dirty:
                    return
                wanted = self._dirty[chat_id]
                if (
                    wanted is not None
                    and chat_id not in self._handed
                    and self._sent(chat_id, *wanted)
                ):
                    del self._dirty[chat_id]
                    return
        except (RedisError, NewerRecord) as error:  # a newer worker's pages show that one
            log.warning("a page could not be refreshed: %s", error)
        finally:
            self._refreshing.pop(chat_id, None)

    async def _newest(self, chat_id: int) -> GameRecord | None:
        """The record this process handed over, else the game read now."""
        record = self._handed.pop(chat_id, None)
        return record if record is not None else await self.load(chat_id)

    async def _listen(self) -> None:
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                channels = [self.channel] + ([] if self.listener is None else [self.listener])
                await pubsub.subscribe(*channels)
                self.subscribed.set()
                # Whatever changed while we were not listening: every page looks again.
                for chat_id in list(self.pages):
                    self.changed(chat_id)
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        data = message["data"]
                        text = data.decode() if isinstance(data, bytes) else str(data)
                        with contextlib.suppress(ValueError):
                            chat_id, version, origin = _notice(text)
                            if origin is None or origin != self.origin:  # else handed over
                                self.changed(chat_id, version)
            except (RedisError, OSError) as error:
                self.subscribed.clear()
                log.warning("the live subscription broke (%s); again in a second", error)
                await asyncio.sleep(RECONNECT_SECONDS)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]


def _notice(text: str) -> tuple[int, tuple[str, int] | None, str | None]:
    """The chat of a notice, the game and version saved and the process that saved them, if
    it names them (``DeliveryStore.queue_mark``); ValueError if it is not a notice."""
    match text.split():
        case [chat]:
            return int(chat), None, None
        case [chat, game_id, version]:
            return int(chat), (game_id, int(version)), None
        case [chat, game_id, version, origin]:
            return int(chat), (game_id, int(version)), origin
    raise ValueError(text)


def _newer(
    known: tuple[str, int] | None, version: tuple[str, int] | None
) -> tuple[str, int] | None:
    """The newer of two versions named by notices; None (read the game) if either is
    unknown or they are of different games."""
    if known is None or version is None or known[0] != version[0]:
        return None
    return known[0], max(known[1], version[1])
