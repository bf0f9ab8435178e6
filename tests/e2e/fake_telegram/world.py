"""The state of the fake Telegram: entities, update queue, call log and change signal."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import time
from collections import defaultdict, deque
from collections.abc import Callable
from typing import Any, TypeVar

from .faults import Fault
from .model import (
    ANONYMOUS_ADMIN_ID,
    ApiError,
    CallbackQueryRecord,
    CallRecord,
    FakeChat,
    FakeMember,
    FakeMessage,
    FakeUser,
    FloodLimits,
    JsonDict,
    bad_request,
    forbidden,
    now_ts,
)

T = TypeVar("T")

DEFAULT_EXCLUDED_UPDATES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
"""Update types Telegram only sends when explicitly listed in allowed_updates."""

FLOOD_COUNTED_METHODS = frozenset(
    {"sendMessage", "sendDocument", "editMessageText", "editMessageReplyMarkup"}
)


class StateSignal:
    """A condition variable usable from sync code: every state change wakes all waiters."""

    def __init__(self) -> None:
        self._event = asyncio.Event()
        self.version = 0

    def notify(self) -> None:
        self.version += 1
        self._event.set()
        self._event = asyncio.Event()

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float) -> T:
        """Return the first truthy value of ``predicate()``, re-checked on every change.

        Raises :class:`TimeoutError` if it stays falsy for ``timeout`` seconds.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout} s")
            event = self._event
            # asyncio.timeout, not wait_for: Python 3.11's wait_for can swallow a
            # cancellation that comes as its timeout fires (a test's task would not stop).
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(remaining):
                    await event.wait()

    async def wait_changed(self, timeout: float) -> bool:
        """Wait for the next change; False on timeout."""
        event = self._event
        try:
            async with asyncio.timeout(timeout):
                await event.wait()
        except TimeoutError:
            return False
        return True


class FakeWorld:
    """Everything the fake Telegram knows. Mutations call :meth:`changed`."""

    def __init__(self, *, token: str, bot_username: str, bot_first_name: str) -> None:
        self.token = token
        bot_id = int(token.split(":", 1)[0])
        self.bot = FakeUser(
            id=bot_id,
            first_name=bot_first_name,
            username=bot_username,
            is_bot=True,
            language_code=None,
        )
        self.anonymous_admin = FakeUser(
            id=ANONYMOUS_ADMIN_ID,
            first_name="Group",
            username="GroupAnonymousBot",
            is_bot=True,
            language_code=None,
        )
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.privacy_mode = True
        self.signal = StateSignal()
        self.closing = False

        self.updates: list[JsonDict] = []
        """Pending (unconfirmed) updates, oldest first."""
        self.delivered_update_ids: set[int] = set()
        self.next_update_id = 1
        self.duplicate_updates = False
        """Deliver every update twice, as Telegram does when an answer came too late: the
        two copies go in one getUpdates batch, or as two webhook requests at once."""
        self.allowed_updates: list[str] | None = None
        self.webhook_url = ""
        self.webhook_secret = ""
        self.webhook_max_connections = 40
        self.webhooks_set = 0  # setWebhook calls
        self.poll_generation = 0

        self.calls: list[CallRecord] = []
        self.callback_queries: dict[str, CallbackQueryRecord] = {}
        self.next_callback_id = 1
        self.commands: dict[tuple[tuple[Any, ...], str], list[JsonDict]] = {}
        self.descriptions: dict[tuple[str, str], str] = {}

        self.flood: FloodLimits | None = None
        self._flood_log: defaultdict[int, deque[float]] = defaultdict(deque)
        self.last_bot_activity = time.monotonic()

        self.faults: list[Fault] = []
        """Injected faults, oldest first; the first one matching a call hits it."""

    # -- change notification ------------------------------------------------------------

    def changed(self) -> None:
        self.signal.notify()

    # -- identities -----------------------------------------------------------------------

    def new_callback_id(self) -> str:
        query_id = f"{self.bot.id}{self.next_callback_id:010d}"
        self.next_callback_id += 1
        return query_id

    def private_chat(self, user: FakeUser) -> FakeChat:
        chat = self.chats.get(user.id)
        if chat is None:
            chat = FakeChat(id=user.id, type="private", bot_id=self.bot.id, user=user)
            self.chats[user.id] = chat
        return chat

    def chat_instance(self, chat: FakeChat) -> str:
        return str((abs(chat.id) * 2654435761 + self.bot.id) % 10**19)

    # -- messages -----------------------------------------------------------------------------

    def add_message(self, chat: FakeChat, from_user: FakeUser | None, **fields: Any) -> FakeMessage:
        message = FakeMessage(
            chat=chat, message_id=chat.next_message_id, from_user=from_user, **fields
        )
        chat.next_message_id += 1
        chat.messages[message.message_id] = message
        return message

    def delete_message(self, message: FakeMessage) -> None:
        """Delete for everyone: gone from the chat (and its pins); Telegram tells no bot."""
        message.deleted = True
        pins = message.chat.pinned_message_ids
        if message.message_id in pins:
            pins.remove(message.message_id)
        self.changed()

    # -- updates ------------------------------------------------------------------------------

    def enqueue(self, kind: str, payload: JsonDict) -> int:
        update_id = self.next_update_id
        self.next_update_id += 1
        for _copy in range(2 if self.duplicate_updates else 1):
            self.updates.append({"update_id": update_id, kind: payload})
        self.changed()
        return update_id

    def effective_allowed(self, kind: str) -> bool:
        if self.allowed_updates is None:
            return kind not in DEFAULT_EXCLUDED_UPDATES
        return kind in self.allowed_updates

    def confirm_until(self, offset: int) -> None:
        """Forget updates confirmed by ``offset`` (Telegram's getUpdates semantics)."""
        if offset > 0:
            self.updates = [u for u in self.updates if u["update_id"] >= offset]
        elif offset < 0:
            self.updates = self.updates[offset:]

    def deliverable(self, limit: int) -> list[JsonDict]:
        """Pending updates of allowed types; updates of other types are dropped."""
        kept: list[JsonDict] = []
        for update in self.updates:
            kind = next(key for key in update if key != "update_id")
            if self.effective_allowed(kind):
                kept.append(update)
        self.updates = kept
        return kept[:limit]

    @property
    def undelivered(self) -> list[JsonDict]:
        return [u for u in self.updates if u["update_id"] not in self.delivered_update_ids]

    # -- access checks used by API methods ------------------------------------------------

    def resolve_chat(self, raw: Any) -> FakeChat:
        if raw is None or raw == "":
            raise bad_request("chat_id is empty")
        if isinstance(raw, str) and raw.startswith("@"):
            name = raw[1:].lower()
            for candidate in self.chats.values():
                username = candidate.username
                if not candidate.is_private and username and username.lower() == name:
                    return candidate
            raise bad_request("chat not found")
        try:
            chat_id = int(raw)
        except (TypeError, ValueError):
            raise bad_request("chat not found") from None
        chat = self.chats.get(chat_id)
        if chat is None:
            raise bad_request("chat not found")
        if chat.migrated_to is not None:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                migrate_to_chat_id=chat.migrated_to.id,
            )
        return chat

    def require_bot_access(self, chat: FakeChat, *, write: bool) -> None:
        """Raise the error Telegram gives when the bot may not use this chat."""
        if chat.is_private:
            user = chat.user
            assert user is not None
            if write and user.blocked:
                raise forbidden("bot was blocked by the user")
            if write and not user.started:
                raise forbidden("bot can't initiate conversation with a user")
            return
        member = chat.member(self.bot.id)
        kind = "supergroup" if chat.type == "supergroup" else "group"
        if member is None:
            raise bad_request("chat not found")
        if member.status == "kicked":
            raise forbidden(f"bot was kicked from the {kind} chat")
        if member.status == "left":
            raise forbidden(f"bot is not a member of the {kind} chat")

    def bot_member(self, chat: FakeChat) -> FakeMember | None:
        return chat.member(self.bot.id)

    # -- flood control -------------------------------------------------------------------------

    def check_flood(self, chat: FakeChat) -> None:
        if self.flood is None:
            return
        limit = self.flood.private_limit if chat.is_private else self.flood.group_limit
        if limit is None:
            return
        now = time.monotonic()
        window = self._flood_log[chat.id]
        while window and window[0] <= now - self.flood.window:
            window.popleft()
        if len(window) >= limit:
            retry_after = max(1, math.ceil(window[0] + self.flood.window - now))
            raise ApiError(
                429, f"Too Many Requests: retry after {retry_after}", retry_after=retry_after
            )
        window.append(now)

    def reset_flood(self) -> None:
        self._flood_log.clear()

    # -- injected faults ---------------------------------------------------------------------

    def take_fault(self, method: str, params: JsonDict) -> Fault | None:
        """The first active fault matching this call, counted as fired; None if none."""
        self.faults = [fault for fault in self.faults if fault.active]
        if not self.faults:
            return None
        chat_id = self.params_chat_id(params)
        message_ids: set[int] = set()
        raw_ids: list[Any] = [params.get("message_id")]
        raw_list = params.get("message_ids")
        if isinstance(raw_list, str):
            with contextlib.suppress(ValueError):
                raw_list = json.loads(raw_list)
        if isinstance(raw_list, list):
            raw_ids.extend(raw_list)
        for raw_id in raw_ids:
            with contextlib.suppress(TypeError, ValueError):
                message_ids.add(int(raw_id))
        raw_query = params.get("callback_query_id")
        query_id = None if raw_query is None else str(raw_query)
        query = self.callback_queries.get(query_id or "")
        if query is not None:  # answerCallbackQuery is about the pressed message
            chat_id = query.message.chat.id
            message_ids.add(query.message.message_id)
        for fault in self.faults:
            if fault.matches(method, chat_id, message_ids, query_id):
                fault.fire()
                self.changed()
                return fault
        return None

    # -- call log --------------------------------------------------------------------------

    def params_chat_id(self, params: JsonDict) -> int | None:
        """The chat a call is addressed to (``chat_id`` as a number or ``@username``)."""
        raw = params.get("chat_id")
        if raw is None:
            return None
        try:
            return int(raw)
        except (TypeError, ValueError):
            pass
        if isinstance(raw, str) and raw.startswith("@"):
            name = raw[1:].lower()
            for chat in self.chats.values():
                if not chat.is_private and chat.username and chat.username.lower() == name:
                    return chat.id
        return None

    def log_call(
        self,
        method: str,
        params: JsonDict,
        at: float,
        error: ApiError | None,
        *,
        fault: Fault | None = None,
        dropped: bool = False,
    ) -> CallRecord:
        record = CallRecord(
            method=method,
            chat_id=self.params_chat_id(params),
            params=params,
            at=at,
            ok=error is None and not dropped,
            error_code=None if error is None else error.code,
            description=None if error is None else error.description,
            fault=fault,
            dropped=dropped,
        )
        self.calls.append(record)
        if method != "getUpdates":
            self.last_bot_activity = time.monotonic()
        self.changed()
        return record

    # -- misc --------------------------------------------------------------------------------

    def now(self) -> int:
        return now_ts()
