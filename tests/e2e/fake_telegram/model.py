"""Data model of the fake Telegram world: users, chats, members, messages, call log.

Every object knows how to render itself in the exact JSON shape of the Bot API
(``to_api``), so the server never builds those dicts ad hoc.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .faults import Fault

JsonDict = dict[str, Any]

ANONYMOUS_ADMIN_ID = 1087968824
"""The user Telegram puts into ``from`` of messages sent on behalf of a group."""

MemberStatus = Literal["creator", "administrator", "member", "left", "kicked"]
ChatType = Literal["private", "group", "supergroup"]

ACTIVE_STATUSES: frozenset[str] = frozenset({"creator", "administrator", "member"})
"""Statuses of users who are in the chat (can read and write)."""

ADMIN_RIGHTS: tuple[str, ...] = (
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_send_welcome_messages",
    "can_pin_messages",
    "can_manage_topics",
)
"""Administrator rights reported by ``getChatMember``; all granted unless overridden."""


def now_ts() -> int:
    """Unix time as Telegram reports it in ``date`` fields."""
    return int(time.time())


class ApiError(Exception):
    """An error answer of the Bot API: ``{"ok": false, "error_code": ..., ...}``.

    ``retry_after`` and ``migrate_to_chat_id`` go into ``parameters`` (Telegram's
    ResponseParameters), which is how aiogram tells TelegramRetryAfter and
    TelegramMigrateToChat from other errors."""

    def __init__(
        self,
        code: int,
        description: str,
        *,
        retry_after: int | None = None,
        migrate_to_chat_id: int | None = None,
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to_chat_id = migrate_to_chat_id

    def to_api(self) -> JsonDict:
        body: JsonDict = {"ok": False, "error_code": self.code, "description": self.description}
        parameters: JsonDict = {}
        if self.migrate_to_chat_id is not None:
            parameters["migrate_to_chat_id"] = self.migrate_to_chat_id
        if self.retry_after is not None:
            parameters["retry_after"] = self.retry_after
        if parameters:
            body["parameters"] = parameters
        return body

    def __repr__(self) -> str:
        return f"ApiError({self.code}, {self.description!r})"


def bad_request(message: str) -> ApiError:
    return ApiError(400, f"Bad Request: {message}")


def forbidden(message: str) -> ApiError:
    return ApiError(403, f"Forbidden: {message}")


SERVER_ERROR_DESCRIPTIONS: dict[int, str] = {
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


def server_error(code: int = 500, description: str | None = None) -> ApiError:
    """A 5xx answer; aiogram raises TelegramServerError (RestartingTelegram if the
    description mentions "restart")."""
    if not 500 <= code <= 599:
        raise ValueError(f"{code} is not a 5xx status")
    return ApiError(
        code, description or SERVER_ERROR_DESCRIPTIONS.get(code, "Internal Server Error")
    )


def too_many_requests(retry_after: int) -> ApiError:
    """Flood control: 429 with ``parameters.retry_after`` (aiogram: TelegramRetryAfter)."""
    return ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after=retry_after)


QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
"""The Bad Request wording for answering an expired, unknown or already answered query."""


@dataclass(eq=False)
class FakeUser:
    """A Telegram account (a human, the bot itself or GroupAnonymousBot)."""

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = "ru"
    is_bot: bool = False
    started: bool = False
    """True once the user has pressed Start in the private chat with the bot."""
    blocked: bool = False
    """True while the user has blocked the bot."""

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name

    def to_api(self) -> JsonDict:
        data: JsonDict = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code and not self.is_bot:
            data["language_code"] = self.language_code
        return data

    def __repr__(self) -> str:
        return f"FakeUser(id={self.id}, first_name={self.first_name!r})"


@dataclass(frozen=True)
class FakeDocument:
    """A file the bot sent (sendDocument): its name and its bytes."""

    file_name: str
    content: bytes

    @property
    def file_id(self) -> str:
        return f"doc-{hashlib.sha1(self.content).hexdigest()[:16]}"

    def to_api(self) -> JsonDict:
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_id,
            "file_name": self.file_name,
            "file_size": len(self.content),
        }


@dataclass(eq=False)
class FakeMember:
    """Membership of a user in a group chat."""

    user: FakeUser
    status: MemberStatus
    is_anonymous: bool = False
    custom_title: str | None = None
    rights: dict[str, bool] = field(default_factory=dict)
    """Overrides of :data:`ADMIN_RIGHTS` for administrators (default: all True)."""

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_STATUSES

    @property
    def is_admin(self) -> bool:
        return self.status in ("creator", "administrator")

    def has_right(self, right: str) -> bool:
        if self.status == "creator":
            return True
        if self.status == "administrator":
            return self.rights.get(right, True)
        return False

    def to_api(self) -> JsonDict:
        data: JsonDict = {"status": self.status, "user": self.user.to_api()}
        if self.status == "creator":
            data["is_anonymous"] = self.is_anonymous
            if self.custom_title:
                data["custom_title"] = self.custom_title
        elif self.status == "administrator":
            data["can_be_edited"] = False
            data["is_anonymous"] = self.is_anonymous
            for right in ADMIN_RIGHTS:
                data[right] = self.rights.get(right, True)
            if self.custom_title:
                data["custom_title"] = self.custom_title
        elif self.status == "kicked":
            data["until_date"] = 0
        return data

    def copy(self) -> FakeMember:
        return FakeMember(
            user=self.user,
            status=self.status,
            is_anonymous=self.is_anonymous,
            custom_title=self.custom_title,
            rights=dict(self.rights),
        )


@dataclass(frozen=True)
class Button:
    """One inline keyboard button as the user sees it."""

    text: str
    callback_data: str | None = None
    url: str | None = None
    web_app: str | None = None  # the page a Mini App button opens

    @property
    def target(self) -> str | None:
        """callback_data, or url for link buttons."""
        return self.callback_data if self.callback_data is not None else self.url


@dataclass(frozen=True)
class MessageVersion:
    """A former state of an edited message."""

    text: str | None
    entities: list[JsonDict]
    reply_markup: JsonDict | None
    edit_date: int | None


@dataclass(eq=False)
class FakeMessage:
    """A message in a chat, sent by the bot or by a user (including service messages)."""

    chat: FakeChat
    message_id: int
    from_user: FakeUser | None
    text: str | None = None
    entities: list[JsonDict] = field(default_factory=list)
    parse_mode: str | None = None
    raw_text: str | None = None
    """The text exactly as the bot sent it (before parse_mode processing)."""
    reply_markup: JsonDict | None = None
    sender_chat: FakeChat | None = None
    author_signature: str | None = None
    reply_to: FakeMessage | None = None
    date: int = field(default_factory=now_ts)
    edit_date: int | None = None
    history: list[MessageVersion] = field(default_factory=list)
    """Earlier versions, oldest first (one entry per successful edit)."""
    deleted: bool = False
    new_chat_members: list[FakeUser] | None = None
    left_chat_member: FakeUser | None = None
    migrate_to_chat_id: int | None = None
    migrate_from_chat_id: int | None = None
    document: FakeDocument | None = None
    """A file sent with sendDocument; ``text`` is then its caption."""

    @property
    def from_bot(self) -> bool:
        return self.from_user is not None and self.from_user.id == self.chat.bot_id

    @property
    def edit_count(self) -> int:
        return len(self.history)

    @property
    def buttons(self) -> list[list[Button]]:
        """Inline keyboard rows as the user currently sees them ([] if none)."""
        if not self.reply_markup:
            return []
        rows = self.reply_markup.get("inline_keyboard") or []
        return [
            [
                Button(
                    text=str(button.get("text", "")),
                    callback_data=button.get("callback_data"),
                    url=button.get("url"),
                    web_app=(button.get("web_app") or {}).get("url"),
                )
                for button in row
            ]
            for row in rows
        ]

    def button_rows(self) -> list[list[tuple[str, str | None]]]:
        """Rows of ``(text, callback_data or url)``."""
        return [[(b.text, b.target) for b in row] for row in self.buttons]

    def all_buttons(self) -> list[Button]:
        return [button for row in self.buttons for button in row]

    def find_button(self, text_or_data: str) -> Button | None:
        """A visible button whose callback_data, or else whose text, equals the argument."""
        buttons = self.all_buttons()
        for button in buttons:
            if button.callback_data == text_or_data:
                return button
        by_text = [button for button in buttons if button.text == text_or_data]
        if len(by_text) > 1:
            raise ValueError(f"several buttons are labelled {text_or_data!r}: {by_text}")
        return by_text[0] if by_text else None

    def to_api(self, *, with_reply: bool = True) -> JsonDict:
        data: JsonDict = {
            "message_id": self.message_id,
            "date": self.date,
            "chat": self.chat.to_api(),
        }
        if self.from_user is not None:
            data["from"] = self.from_user.to_api()
        if self.sender_chat is not None:
            data["sender_chat"] = self.sender_chat.to_api()
        if self.author_signature:
            data["author_signature"] = self.author_signature
        if self.reply_to is not None and with_reply:
            data["reply_to_message"] = self.reply_to.to_api(with_reply=False)
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if self.document is not None:
            data["document"] = self.document.to_api()
        if self.text is not None:
            caption = self.document is not None
            data["caption" if caption else "text"] = self.text
            if self.entities:
                key = "caption_entities" if caption else "entities"
                data[key] = [dict(entity) for entity in self.entities]
        if self.new_chat_members is not None:
            data["new_chat_members"] = [user.to_api() for user in self.new_chat_members]
        if self.left_chat_member is not None:
            data["left_chat_member"] = self.left_chat_member.to_api()
        if self.migrate_to_chat_id is not None:
            data["migrate_to_chat_id"] = self.migrate_to_chat_id
        if self.migrate_from_chat_id is not None:
            data["migrate_from_chat_id"] = self.migrate_from_chat_id
        if self.reply_markup and "inline_keyboard" in self.reply_markup:
            data["reply_markup"] = self.reply_markup
        return data

    def inaccessible_api(self) -> JsonDict:
        """The shape Telegram uses for a message the bot can no longer access."""
        return {"chat": self.chat.to_api(), "message_id": self.message_id, "date": 0}

    def __repr__(self) -> str:
        return (
            f"FakeMessage(chat={self.chat.id}, id={self.message_id}, "
            f"from_bot={self.from_bot}, text={self.text!r})"
        )


@dataclass(eq=False)
class FakeChat:
    """A private chat with a user, or a (super)group."""

    id: int
    type: ChatType
    bot_id: int
    title: str | None = None
    username: str | None = None
    user: FakeUser | None = None
    """The peer of a private chat."""
    members: dict[int, FakeMember] = field(default_factory=dict)
    messages: dict[int, FakeMessage] = field(default_factory=dict)
    next_message_id: int = 1
    pinned_message_ids: list[int] = field(default_factory=list)
    migrated_to: FakeChat | None = None
    """For a basic group upgraded to a supergroup: the supergroup (the group is dead)."""
    migrated_from: FakeChat | None = None
    """For a supergroup made from a basic group: that group."""

    @property
    def is_private(self) -> bool:
        return self.type == "private"

    def member(self, user_id: int) -> FakeMember | None:
        return self.members.get(user_id)

    def status_of(self, user: FakeUser | int) -> MemberStatus | None:
        member = self.members.get(user if isinstance(user, int) else user.id)
        return member.status if member else None

    def to_api(self) -> JsonDict:
        data: JsonDict = {"id": self.id, "type": self.type}
        if self.is_private and self.user is not None:
            data["first_name"] = self.user.first_name
            if self.user.last_name:
                data["last_name"] = self.user.last_name
            if self.user.username:
                data["username"] = self.user.username
        else:
            data["title"] = self.title or ""
            if self.username:
                data["username"] = self.username
        return data

    def __repr__(self) -> str:
        label = self.title if self.title is not None else getattr(self.user, "first_name", "")
        return f"FakeChat(id={self.id}, type={self.type!r}, {label!r})"


@dataclass(frozen=True)
class CallRecord:
    """One Bot API request made by the bot, as logged by the fake."""

    method: str
    """Method name as Telegram spells it, e.g. ``sendMessage`` (unknown ones as sent)."""
    chat_id: int | None
    params: JsonDict
    at: float
    """``time.monotonic()`` when the request arrived."""
    ok: bool
    error_code: int | None = None
    description: str | None = None
    fault: Fault | None = None
    """The injected fault that hit this call (None for calls the fake answered itself)."""
    dropped: bool = False
    """True if the connection was closed without an answer (no error_code/description)."""

    @property
    def error(self) -> str | None:
        return None if self.ok else self.description


@dataclass
class CallbackAnswer:
    """What the bot passed to ``answerCallbackQuery``."""

    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int


@dataclass(eq=False)
class CallbackQueryRecord:
    id: str
    user: FakeUser
    message: FakeMessage
    data: str
    created_at: float
    answer: CallbackAnswer | None = None

    @property
    def answered(self) -> bool:
        return self.answer is not None


@dataclass
class FloodLimits:
    """Per-chat limit of sends+edits; exceeding it answers 429 with retry_after."""

    group_limit: int | None = 20
    private_limit: int | None = None
    window: float = 60.0
