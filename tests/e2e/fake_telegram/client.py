"""`FakeTelegram`: the fake Bot API server plus the test-side API to act as human users."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Mapping
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

from .api import BotApi
from .faults import Fault
from .model import (
    QUERY_TOO_OLD,
    ApiError,
    CallbackAnswer,
    CallbackQueryRecord,
    CallRecord,
    ChatType,
    FakeChat,
    FakeMember,
    FakeMessage,
    FakeUser,
    FloodLimits,
    JsonDict,
    MemberStatus,
    bad_request,
    server_error,
    too_many_requests,
)
from .server import BotApiServer
from .text import MAX_TEXT_LENGTH, auto_entities
from .webhook import WebhookPusher
from .world import FLOOD_COUNTED_METHODS, FakeWorld

T = TypeVar("T")

_DEEP_LINK_PAYLOAD_RE = re.compile(r"\A[A-Za-z0-9_-]{1,64}\Z")


class ImpossibleUserAction(AssertionError):
    """The test asked a user to do something a human could not do in a Telegram client."""


class FakeTelegram:
    """A local fake of the Telegram Bot API with a Python API to play the humans.

    Use as ``async with FakeTelegram() as fake:`` and point the bot at ``fake.base_url``.
    """

    def __init__(
        self,
        *,
        token: str = "123456789:AAFakeTokenForDurakBotEndToEndTests",
        bot_username: str = "durak_test_bot",
        bot_first_name: str = "Durak Test Bot",
        privacy_mode: bool = True,
    ) -> None:
        self.world = FakeWorld(
            token=token, bot_username=bot_username, bot_first_name=bot_first_name
        )
        self.world.privacy_mode = privacy_mode
        self.api = BotApi(self.world)
        self.server = BotApiServer(self.world, self.api)
        self.webhook = WebhookPusher(self.world)
        self._next_user_id = 700_000_001
        self._next_group_id = -1_001_900_000_001
        self._next_basic_group_id = -4_900_000_001

    # -- lifecycle --------------------------------------------------------------------------

    async def start(self, port: int = 0) -> str:
        self.world.closing = False
        url = await self.server.start(port=port)
        self.webhook.start()
        return url

    async def stop(self) -> None:
        self.world.closing = True
        self.world.changed()  # long polls return [] at once
        await self.webhook.stop()
        await self.server.stop()

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        """E.g. ``http://127.0.0.1:40123``; give it to ``TelegramAPIServer.from_base``."""
        return self.server.base_url

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def bot(self) -> FakeUser:
        return self.world.bot

    @property
    def bot_username(self) -> str:
        assert self.world.bot.username is not None
        return self.world.bot.username

    # -- knobs ----------------------------------------------------------------------------------

    @property
    def privacy_mode(self) -> bool:
        """Bot privacy mode (Telegram's default: on). When on, in groups where the bot is not
        an admin it only gets commands, replies to its messages and service messages."""
        return self.world.privacy_mode

    @privacy_mode.setter
    def privacy_mode(self, value: bool) -> None:
        self.world.privacy_mode = value

    @property
    def callback_query_ttl(self) -> float | None:
        """Seconds after which a press can no longer be answered (None: never expires)."""
        return self.api.callback_query_ttl

    @callback_query_ttl.setter
    def callback_query_ttl(self, value: float | None) -> None:
        self.api.callback_query_ttl = value

    def enable_flood_control(
        self,
        *,
        group_limit: int | None = 20,
        private_limit: int | None = None,
        window: float = 60.0,
    ) -> None:
        """More than ``limit`` sendMessage/edit* calls per chat within ``window`` seconds
        -> 429 ``Too Many Requests: retry after N``."""
        self.world.flood = FloodLimits(
            group_limit=group_limit, private_limit=private_limit, window=window
        )
        self.world.reset_flood()

    def disable_flood_control(self) -> None:
        self.world.flood = None
        self.world.reset_flood()

    # -- injected faults ---------------------------------------------------------------------

    def inject(
        self,
        method: str,
        *,
        error: ApiError | None = None,
        delay: float = 0.0,
        drop_connection: bool = False,
        times: int | None = 1,
        chat: FakeChat | int | None = None,
        message: FakeMessage | int | None = None,
        callback_query_id: str | None = None,
    ) -> Fault:
        """Make the next ``times`` calls of ``method`` (None: all, until removed) fail with
        ``error``, lose their connection (``drop_connection``: aiogram raises
        TelegramNetworkError) and/or wait ``delay`` seconds first.

        Only calls addressed to ``chat`` (answerCallbackQuery: the chat of the pressed
        message), about ``message`` (its ``message_id``, in ``message_ids``, or the pressed
        one) or answering ``callback_query_id`` count, if given. A call hit by an error or
        a drop has no effect; a call only delayed runs after the delay. The first matching
        fault (oldest first) hits a call; it shows in :meth:`calls` with ``fault`` set.
        """
        canonical = self.api.canonical_name(method)
        if not self.api.knows(canonical):
            raise ValueError(f"the fake does not implement {method!r}")
        if error is not None and drop_connection:
            raise ValueError("a call either gets an error or loses its connection, not both")
        if error is None and not drop_connection and delay <= 0:
            raise ValueError("a fault needs an error, drop_connection or a delay")
        if delay < 0:
            raise ValueError("delay must not be negative")
        if times is not None and times < 1:
            raise ValueError("times must be at least 1 (or None: until removed)")
        chat_id = chat.id if isinstance(chat, FakeChat) else chat
        if isinstance(message, FakeMessage):
            if chat_id is not None and chat_id != message.chat.id:
                raise ValueError(f"{message!r} is not in chat {chat_id}")
            chat_id = message.chat.id
            message_id: int | None = message.message_id
        else:
            message_id = message
        fault = Fault(
            method=canonical,
            error=error,
            delay=delay,
            drop_connection=drop_connection,
            times=times,
            chat_id=chat_id,
            message_id=message_id,
            callback_query_id=callback_query_id,
        )
        self.world.faults.append(fault)
        return fault

    def server_error(
        self,
        method: str,
        *,
        times: int | None = 1,
        chat: FakeChat | int | None = None,
        code: int = 500,
        description: str | None = None,
    ) -> Fault:
        """5xx answers (500 ``Internal Server Error``, 502 ``Bad Gateway``, ...): aiogram
        raises TelegramServerError."""
        return self.inject(method, error=server_error(code, description), times=times, chat=chat)

    def too_many_requests(
        self,
        method: str,
        retry_after: int,
        *,
        times: int | None = 1,
        chat: FakeChat | int | None = None,
    ) -> Fault:
        """429 ``Too Many Requests: retry after N`` with ``parameters.retry_after``
        (aiogram: TelegramRetryAfter), independent of :meth:`enable_flood_control`."""
        return self.inject(method, error=too_many_requests(retry_after), times=times, chat=chat)

    def slow(
        self,
        method: str,
        seconds: float,
        *,
        times: int | None = 1,
        chat: FakeChat | int | None = None,
    ) -> Fault:
        """The call is carried out and answered correctly, but only after ``seconds``
        (also if the client stopped waiting: a timed-out send may still arrive)."""
        return self.inject(method, delay=seconds, times=times, chat=chat)

    def network_failure(
        self,
        method: str,
        *,
        times: int | None = 1,
        chat: FakeChat | int | None = None,
        after: float = 0.0,
    ) -> Fault:
        """The connection is closed (after ``after`` seconds) without an answer and without
        carrying the call out: aiohttp raises ServerDisconnectedError, aiogram
        TelegramNetworkError."""
        return self.inject(method, drop_connection=True, delay=after, times=times, chat=chat)

    def expire_callback_query(self, query_id: str) -> Fault:
        """Answering this press fails with 400 ``query is too old ...`` (as after ~15 s)."""
        return self.inject(
            "answerCallbackQuery",
            error=bad_request(QUERY_TOO_OLD),
            times=None,
            callback_query_id=query_id,
        )

    def faults(self) -> list[Fault]:
        """Injected faults that are still active, oldest first."""
        return [fault for fault in self.world.faults if fault.active]

    def clear_faults(self) -> None:
        """Remove every injected fault (calls already stalled finish as planned)."""
        for fault in self.world.faults:
            fault.remove()
        self.world.faults.clear()

    # -- users & chats ------------------------------------------------------------------------

    def add_user(
        self,
        first_name: str,
        *,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "ru",
        started: bool = False,
        user_id: int | None = None,
    ) -> FakeUser:
        """A human account; ``started`` means they have already pressed Start in private."""
        if user_id is None:
            user_id = self._next_user_id
            self._next_user_id += 1
        if user_id in self.world.users:
            raise ValueError(f"user {user_id} already exists")
        user = FakeUser(
            id=user_id,
            first_name=first_name,
            last_name=last_name,
            username=username,
            language_code=language_code,
            started=started,
        )
        self.world.users[user_id] = user
        self.world.private_chat(user)
        self.world.changed()
        return user

    def add_group(
        self,
        title: str,
        *,
        members: Iterable[FakeUser] = (),
        creator: FakeUser | None = None,
        admins: Iterable[FakeUser] = (),
        bot_status: MemberStatus | None = "member",
        username: str | None = None,
        chat_id: int | None = None,
        chat_type: ChatType = "supergroup",
    ) -> FakeChat:
        """A group with the given members. ``bot_status=None``: the bot was never added;
        ``"administrator"`` gives it all admin rights (needed to pin, or to see all messages
        in privacy mode)."""
        if chat_type == "private":
            raise ValueError("use private_chat(user) for private chats")
        if chat_id is None:
            chat_id = self._new_group_id(chat_type)
        chat = FakeChat(
            id=chat_id, type=chat_type, bot_id=self.bot.id, title=title, username=username
        )
        self.world.chats[chat_id] = chat
        if creator is not None:
            chat.members[creator.id] = FakeMember(user=creator, status="creator")
        for admin in admins:
            chat.members[admin.id] = FakeMember(user=admin, status="administrator")
        for member in members:
            chat.members.setdefault(member.id, FakeMember(user=member, status="member"))
        if bot_status is not None:
            chat.members[self.bot.id] = FakeMember(user=self.bot, status=bot_status)
        self.world.changed()
        return chat

    def private_chat(self, user: FakeUser) -> FakeChat:
        return self.world.private_chat(user)

    def set_member_status(
        self,
        chat: FakeChat,
        user: FakeUser,
        status: MemberStatus,
        *,
        is_anonymous: bool = False,
        custom_title: str | None = None,
        rights: Mapping[str, bool] | None = None,
    ) -> FakeMember:
        """Silently change a membership (no updates are sent; see user_joins etc. for that)."""
        member = FakeMember(
            user=user,
            status=status,
            is_anonymous=is_anonymous,
            custom_title=custom_title,
            rights=dict(rights or {}),
        )
        chat.members[user.id] = member
        self.world.changed()
        return member

    def set_bot_status(
        self, chat: FakeChat, status: MemberStatus, *, rights: Mapping[str, bool] | None = None
    ) -> FakeMember:
        """Silently change the bot's own membership in a group."""
        return self.set_member_status(chat, self.bot, status, rights=rights)

    # -- what humans do -------------------------------------------------------------------

    def user_sends(
        self, user: FakeUser, chat: FakeChat, text: str, *, reply_to: FakeMessage | None = None
    ) -> FakeMessage:
        """The user types ``text`` into ``chat``; the bot gets a ``message`` update
        (``/command`` and ``/command@bot`` carry ``bot_command`` entities)."""
        self._require_can_write(user, chat)
        if not text.strip() or len(text) > MAX_TEXT_LENGTH:
            raise ImpossibleUserAction(f"a Telegram client would not send {text!r}")
        if chat.is_private:
            self._open_private_chat(user)
        message = self.world.add_message(
            chat, user, text=text, entities=auto_entities(text), reply_to=reply_to
        )
        self._deliver_message(message)
        return message

    def user_sends_private(self, user: FakeUser, text: str) -> FakeMessage:
        return self.user_sends(user, self.private_chat(user), text)

    def anonymous_admin_sends(
        self, chat: FakeChat, text: str, *, author_signature: str | None = None
    ) -> FakeMessage:
        """A message "on behalf of the group": ``from`` = GroupAnonymousBot,
        ``sender_chat`` = the group."""
        if chat.is_private:
            raise ImpossibleUserAction("anonymous admins exist only in groups")
        message = self.world.add_message(
            chat,
            self.world.anonymous_admin,
            text=text,
            entities=auto_entities(text),
            sender_chat=chat,
            author_signature=author_signature,
        )
        self._deliver_message(message)
        return message

    def user_starts_bot(self, user: FakeUser, payload: str | None = None) -> FakeMessage:
        """The user presses Start (or opens ``t.me/<bot>?start=<payload>``): marks them as
        started and sends ``/start`` or ``/start <payload>`` in the private chat."""
        if payload is not None and not _DEEP_LINK_PAYLOAD_RE.match(payload):
            raise ImpossibleUserAction(
                f"deep link payload {payload!r} is invalid: Telegram allows 1-64 characters "
                "of A-Z, a-z, 0-9, _ and -"
            )
        text = "/start" if payload is None else f"/start {payload}"
        return self.user_sends(user, self.private_chat(user), text)

    def user_follows_link(self, user: FakeUser, url: str) -> FakeMessage:
        """Open a ``https://t.me/<bot>?start=<payload>`` link (e.g. from a URL button)."""
        parts = urlsplit(url if "://" in url else f"https://{url}")
        query = parse_qs(parts.query)
        if parts.scheme == "tg":
            name = (query.get("domain") or [""])[0]
        elif parts.netloc.lower() in ("t.me", "telegram.me"):
            name = parts.path.strip("/")
        else:
            raise ImpossibleUserAction(f"{url!r} is not a Telegram link")
        if name.lower() != self.bot_username.lower():
            raise ImpossibleUserAction(f"{url!r} does not lead to @{self.bot_username}")
        if "startgroup" in query:
            raise NotImplementedError("startgroup links are not modelled")
        if "start" not in query:
            raise ImpossibleUserAction(f"{url!r} has no start parameter (or an empty one)")
        return self.user_starts_bot(user, query["start"][0])

    def user_blocks_bot(self, user: FakeUser) -> None:
        """The user blocks the bot (the bot gets a ``my_chat_member`` update)."""
        chat = self.private_chat(user)
        if user.blocked:
            return
        user.blocked = True
        self._enqueue_member_change(
            "my_chat_member",
            chat,
            user,
            FakeMember(self.bot, "member"),
            FakeMember(self.bot, "kicked"),
        )

    def user_presses(self, user: FakeUser, message: FakeMessage, button: str) -> str:
        """Press a visible inline button, chosen by callback_data or else by its text.

        Raises :class:`ImpossibleUserAction` if the message does not currently show it.
        Returns the callback query id (see :meth:`callback_answer`).
        """
        self._require_can_see(user, message.chat)
        if message.deleted:
            raise ImpossibleUserAction(f"{message!r} was deleted; nothing to press")
        found = message.find_button(button)
        if found is None:
            raise ImpossibleUserAction(
                f"{message!r} shows no button {button!r}; visible: {message.button_rows()}"
            )
        if found.callback_data is None:
            raise ImpossibleUserAction(
                f"{found!r} is not a callback button; use user_follows_link(user, url)"
            )
        return self._press(user, message, found.callback_data)

    def user_presses_data(self, user: FakeUser, message: FakeMessage, data: str) -> str:
        """Send a callback query with arbitrary ``data`` for ``message`` without checking that
        the button is visible (stale/forged presses). A deleted message arrives as
        ``InaccessibleMessage``."""
        return self._press(user, message, data)

    def user_joins(self, user: FakeUser, chat: FakeChat) -> FakeMessage:
        """The user joins the group: ``new_chat_members`` message (+ ``chat_member`` update)."""
        if chat.migrated_to is not None:
            raise ImpossibleUserAction(f"{chat!r} was upgraded to {chat.migrated_to!r}")
        old = self._member_or_left(chat, user)
        new = FakeMember(user=user, status="member")
        chat.members[user.id] = new
        self._enqueue_member_change("chat_member", chat, user, old, new)
        message = self.world.add_message(chat, user, new_chat_members=[user])
        self._deliver_message(message)
        return message

    def user_leaves(self, user: FakeUser, chat: FakeChat) -> FakeMessage:
        """The user leaves the group: ``left_chat_member`` message (+ ``chat_member``)."""
        return self._remove_member(user, chat, actor=user, status="left")

    def user_removed(
        self, user: FakeUser, chat: FakeChat, *, by: FakeUser | None = None
    ) -> FakeMessage:
        """An admin (default: the creator) bans the user from the group."""
        if by is None:
            by = next(
                (m.user for m in chat.members.values() if m.status == "creator"),
                self.world.anonymous_admin,
            )
        return self._remove_member(user, chat, actor=by, status="kicked")

    def bot_added_to_group(
        self, chat: FakeChat, *, by: FakeUser, status: MemberStatus = "member"
    ) -> FakeMessage:
        """``by`` adds the bot: ``my_chat_member`` update, then a ``new_chat_members``
        message."""
        old = self._member_or_left(chat, self.bot)
        new = FakeMember(user=self.bot, status=status)
        chat.members[self.bot.id] = new
        self._enqueue_member_change("my_chat_member", chat, by, old, new)
        message = self.world.add_message(chat, by, new_chat_members=[self.bot])
        self._deliver_message(message)
        return message

    def bot_removed_from_group(self, chat: FakeChat, *, by: FakeUser, ban: bool = True) -> None:
        """``by`` bans (``ban=False``: just removes) the bot: a ``my_chat_member`` update.

        Afterwards every call about the group fails with 403 ``Forbidden: bot was kicked
        from the (super)group chat`` (not banned: ``bot is not a member of the ...``). As in
        Telegram, users still see the old messages and may press their buttons: the bot then
        gets callback queries from a chat it is no longer in (it can still answer them).
        """
        old = self._member_or_left(chat, self.bot)
        new = FakeMember(user=self.bot, status="kicked" if ban else "left")
        chat.members[self.bot.id] = new
        self._enqueue_member_change("my_chat_member", chat, by, old, new)

    def user_deletes_message(self, user: FakeUser, message: FakeMessage) -> None:
        """The user deletes ``message`` for everyone. In a private chat with the bot they may
        delete any message; in a group only their own, or any as an admin with the
        can_delete_messages right. The bot is not told; editing the message then fails with
        ``message to edit not found`` and its buttons are gone."""
        chat = message.chat
        self._require_can_see(user, chat)
        if message.deleted:
            raise ImpossibleUserAction(f"{message!r} is already deleted")
        if not chat.is_private:
            member = chat.member(user.id)
            own = message.from_user is not None and message.from_user.id == user.id
            if not own and (member is None or not member.has_right("can_delete_messages")):
                raise ImpossibleUserAction(
                    f"{user!r} may not delete others' messages in {chat!r} (not an admin)"
                )
        self.world.delete_message(message)

    def migrate_to_supergroup(self, chat: FakeChat, *, by: FakeUser | None = None) -> FakeChat:
        """Upgrade a basic group (``chat_type="group"``) to a supergroup, as Telegram does.

        The supergroup gets a new ``-100...`` id, the same title and a copy of the members
        (statuses and rights); its message ids start again at 1 and it has none of the old
        messages. The bot, if it was in the group, gets (in this order) a service message in
        the old group with ``migrate_to_chat_id``, a ``my_chat_member`` update for the
        supergroup (left -> its status) and a service message in the supergroup with
        ``migrate_from_chat_id`` (``from``: GroupAnonymousBot). From then on every call
        about the old id fails with 400 ``group chat was upgraded to a supergroup chat`` and
        ``parameters.migrate_to_chat_id``. Users can no longer write in the old group, but may
        still press buttons of its old messages (Telegram shows them as the supergroup's
        history); such callback queries carry the old chat.
        """
        if chat.type != "group":
            raise ValueError(f"{chat!r} is not a basic group")
        if chat.migrated_to is not None:
            raise ValueError(f"{chat!r} was already upgraded to {chat.migrated_to!r}")
        if by is None:
            by = next((m.user for m in chat.members.values() if m.status == "creator"), None)
            if by is None:
                raise ValueError(f"{chat!r} has no creator; pass by=<an admin>")
        actor = chat.member(by.id)
        if actor is None or not actor.is_admin:
            raise ImpossibleUserAction(f"{by!r} is not an admin of {chat!r}")
        supergroup = FakeChat(
            id=self._new_group_id("supergroup"),
            type="supergroup",
            bot_id=self.bot.id,
            title=chat.title,
            members={user_id: member.copy() for user_id, member in chat.members.items()},
            migrated_from=chat,
        )
        self.world.chats[supergroup.id] = supergroup
        notice = self.world.add_message(chat, by, migrate_to_chat_id=supergroup.id)
        self._deliver_message(notice)
        chat.migrated_to = supergroup
        bot_member = supergroup.member(self.bot.id)
        if bot_member is not None and bot_member.is_active:
            self._enqueue_member_change(
                "my_chat_member",
                supergroup,
                by,
                FakeMember(user=self.bot, status="left"),
                bot_member.copy(),
            )
        welcome = self.world.add_message(
            supergroup,
            self.world.anonymous_admin,
            sender_chat=supergroup,
            migrate_from_chat_id=chat.id,
        )
        self._deliver_message(welcome)
        return supergroup

    # -- inspection ---------------------------------------------------------------------------

    def messages(self, chat: FakeChat, *, include_deleted: bool = False) -> list[FakeMessage]:
        """All messages in the chat (bot's and users'), oldest first."""
        return [m for m in chat.messages.values() if include_deleted or not m.deleted]

    def bot_messages(self, chat: FakeChat, *, include_deleted: bool = False) -> list[FakeMessage]:
        """Messages the bot sent to the chat, oldest first."""
        return [m for m in self.messages(chat, include_deleted=include_deleted) if m.from_bot]

    def last_bot_message(self, chat: FakeChat) -> FakeMessage | None:
        sent = self.bot_messages(chat)
        return sent[-1] if sent else None

    def message(self, chat: FakeChat, message_id: int) -> FakeMessage:
        return chat.messages[message_id]

    def last_message_id(self, chat: FakeChat) -> int:
        """A mark for :meth:`wait_for_bot_message` ``since=``."""
        return chat.next_message_id - 1

    def pinned_message(self, chat: FakeChat) -> FakeMessage | None:
        if not chat.pinned_message_ids:
            return None
        return chat.messages[chat.pinned_message_ids[-1]]

    def mark(self) -> int:
        """A position in the call log, for ``calls(since=...)``."""
        return len(self.world.calls)

    def calls(
        self,
        method: str | None = None,
        *,
        chat: FakeChat | None = None,
        since: int = 0,
        include_polling: bool = False,
    ) -> list[CallRecord]:
        """The bot's API calls (oldest first); getUpdates only with ``include_polling``."""
        return [
            call
            for call in self.world.calls[since:]
            if (method is None or call.method == method)
            and (chat is None or call.chat_id == chat.id)
            and (include_polling or method == "getUpdates" or call.method != "getUpdates")
        ]

    def errors(self, *, since: int = 0) -> list[CallRecord]:
        """Calls the fake answered with an error (including getUpdates conflicts)."""
        return [call for call in self.world.calls[since:] if not call.ok]

    def sends_and_edits(self, chat: FakeChat, *, since: int = 0) -> list[CallRecord]:
        """sendMessage/editMessageText/editMessageReplyMarkup calls to ``chat``, failed too."""
        return [
            call
            for call in self.calls(chat=chat, since=since)
            if call.method in FLOOD_COUNTED_METHODS
        ]

    def max_sends_and_edits_in_window(self, chat: FakeChat, window: float = 60.0) -> int:
        """The largest number of sends+edits to ``chat`` within any ``window`` seconds."""
        times = [call.at for call in self.sends_and_edits(chat)]
        best = 0
        start = 0
        for end, at in enumerate(times):
            while at - times[start] >= window:
                start += 1
            best = max(best, end - start + 1)
        return best

    def commands(
        self, *, scope: Mapping[str, Any] | None = None, language_code: str = ""
    ) -> list[tuple[str, str]]:
        """``(command, description)`` pairs set for exactly this scope and language."""
        key = (self.api.world_scope_key(dict(scope) if scope else None), language_code)
        return [(c["command"], c["description"]) for c in self.world.commands.get(key, [])]

    def callback_query(self, query_id: str) -> CallbackQueryRecord:
        return self.world.callback_queries[query_id]

    @property
    def polls_started(self) -> int:
        """How many getUpdates requests have arrived so far (answered or still waiting)."""
        return self.world.poll_generation

    @property
    def pending_updates(self) -> list[JsonDict]:
        """Updates not yet confirmed by the bot (via getUpdates offset)."""
        return list(self.world.updates)

    # -- waiting ---------------------------------------------------------------------------

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 5.0) -> T:
        """Return the first truthy ``predicate()``; re-checked on every state change."""
        return await self.world.signal.wait_for(predicate, timeout)

    async def wait_for_bot_message(
        self,
        chat: FakeChat,
        match: str | Callable[[FakeMessage], bool] | None = None,
        *,
        since: int = 0,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """The newest live bot message with ``message_id > since`` whose text contains
        ``match`` (or for which ``match(message)`` is true)."""

        def accepts(message: FakeMessage) -> bool:
            if message.message_id <= since:
                return False
            if match is None:
                return True
            if isinstance(match, str):
                return match in (message.text or "")
            return match(message)

        def newest() -> FakeMessage | None:
            for message in reversed(self.bot_messages(chat)):
                if accepts(message):
                    return message
            return None

        return await self.wait_for(newest, timeout)

    async def callback_answer(self, query_id: str, timeout: float = 5.0) -> CallbackAnswer:
        """Wait until the bot answers the callback query; returns what it answered."""
        record = self.world.callback_queries[query_id]
        return await self.wait_for(lambda: record.answer, timeout)

    async def wait_delivered(self, timeout: float = 5.0) -> None:
        """Wait until every enqueued update has been handed to the bot at least once."""
        await self.wait_for(lambda: not self.world.undelivered, timeout)

    async def wait_idle(self, quiet: float = 0.2, timeout: float = 5.0) -> None:
        """Wait until all updates were delivered and the bot made no API call (besides
        getUpdates) for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            idle_for = now - self.world.last_bot_activity
            busy = bool(self.world.undelivered)
            if not busy and idle_for >= quiet:
                return
            if now >= deadline:
                raise TimeoutError(f"the bot did not become idle within {timeout} s")
            wait = quiet if busy else quiet - idle_for
            await self.world.signal.wait_changed(min(wait, deadline - now))

    # -- internals ------------------------------------------------------------------------------

    def _require_can_write(self, user: FakeUser, chat: FakeChat) -> None:
        if chat.is_private:
            if chat.id != user.id:
                raise ImpossibleUserAction(f"{user!r} cannot write in another user's chat")
            return
        if chat.migrated_to is not None:
            raise ImpossibleUserAction(
                f"{chat!r} was upgraded to {chat.migrated_to!r}; write there instead"
            )
        self._require_can_see(user, chat)

    def _new_group_id(self, chat_type: ChatType) -> int:
        """Supergroup ids look like -100xxxxxxxxxx, basic group ids like -4xxxxxxxxx."""
        if chat_type == "group":
            chat_id = self._next_basic_group_id
            self._next_basic_group_id -= 1
        else:
            chat_id = self._next_group_id
            self._next_group_id -= 1
        return chat_id

    def _require_can_see(self, user: FakeUser, chat: FakeChat) -> None:
        if chat.is_private:
            if chat.id != user.id:
                raise ImpossibleUserAction(f"{user!r} cannot see another user's private chat")
            return
        member = chat.member(user.id)
        if member is None or not member.is_active:
            status = member.status if member else "not a member"
            raise ImpossibleUserAction(f"{user!r} is {status} in {chat!r}")

    def _open_private_chat(self, user: FakeUser) -> None:
        """Writing to the bot implies pressing Start (or Restart after blocking)."""
        chat = self.private_chat(user)
        if user.blocked:
            user.blocked = False
            self._enqueue_member_change(
                "my_chat_member",
                chat,
                user,
                FakeMember(self.bot, "kicked"),
                FakeMember(self.bot, "member"),
            )
        user.started = True

    def _member_or_left(self, chat: FakeChat, user: FakeUser) -> FakeMember:
        member = chat.member(user.id)
        return member.copy() if member else FakeMember(user=user, status="left")

    def _remove_member(
        self, user: FakeUser, chat: FakeChat, *, actor: FakeUser, status: MemberStatus
    ) -> FakeMessage:
        member = chat.member(user.id)
        if member is None or not member.is_active:
            raise ImpossibleUserAction(f"{user!r} is not in {chat!r}")
        old = member.copy()
        new = FakeMember(user=user, status=status)
        chat.members[user.id] = new
        self._enqueue_member_change("chat_member", chat, actor, old, new)
        message = self.world.add_message(chat, actor, left_chat_member=user)
        self._deliver_message(message)
        return message

    def _enqueue_member_change(
        self, kind: str, chat: FakeChat, actor: FakeUser, old: FakeMember, new: FakeMember
    ) -> None:
        if kind == "chat_member":
            bot_member = chat.member(self.bot.id)
            if bot_member is None or not bot_member.is_admin:
                return  # Telegram sends chat_member updates to admin bots only
        self.world.enqueue(
            kind,
            {
                "chat": chat.to_api(),
                "from": actor.to_api(),
                "date": self.world.now(),
                "old_chat_member": old.to_api(),
                "new_chat_member": new.to_api(),
            },
        )

    def _bot_receives(self, message: FakeMessage) -> bool:
        chat = message.chat
        if chat.is_private:
            return True
        bot_member = chat.member(self.bot.id)
        if bot_member is None or not bot_member.is_active:
            return False
        if not self.world.privacy_mode or bot_member.is_admin:
            return True
        if message.text is None:
            return True  # service messages
        if message.reply_to is not None and message.reply_to.from_bot:
            return True
        first_word = message.text.split(maxsplit=1)[0] if message.text.strip() else ""
        if first_word.startswith("/"):
            _, _, addressee = first_word.partition("@")
            return not addressee or addressee.lower() == self.bot_username.lower()
        return False

    def _deliver_message(self, message: FakeMessage) -> None:
        if self._bot_receives(message):
            self.world.enqueue("message", message.to_api())
        else:
            self.world.changed()

    def _press(self, user: FakeUser, message: FakeMessage, data: str) -> str:
        query_id = self.world.new_callback_id()
        self.world.callback_queries[query_id] = CallbackQueryRecord(
            id=query_id,
            user=user,
            message=message,
            data=data,
            created_at=time.monotonic(),
        )
        self.world.enqueue(
            "callback_query",
            {
                "id": query_id,
                "from": user.to_api(),
                "message": message.inaccessible_api() if message.deleted else message.to_api(),
                "chat_instance": self.world.chat_instance(message.chat),
                "data": data,
            },
        )
        return query_id
