"""Bot API methods of the fake Telegram, independent of HTTP.

Each handler takes the decoded request parameters and returns the ``result`` value,
or raises :class:`ApiError` with Telegram's error code and wording.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import re
import time
from collections.abc import Callable
from typing import Any

from .model import (
    QUERY_TOO_OLD,
    ApiError,
    CallbackAnswer,
    FakeChat,
    FakeDocument,
    FakeMember,
    FakeMessage,
    JsonDict,
    MessageVersion,
    bad_request,
)
from .text import (
    MAX_CALLBACK_ANSWER_LENGTH,
    check_web_app_buttons,
    format_text,
    validate_reply_markup,
)
from .world import FakeWorld

_COMMAND_RE = re.compile(r"\A[a-z0-9_]{1,32}\Z")
_LANGUAGE_RE = re.compile(r"\A[a-z]{2}\Z")
_CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
_NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)

Handler = Callable[["Params"], Any]


class Params:
    """Typed access to request parameters that may arrive as strings (form data) or JSON."""

    def __init__(self, raw: JsonDict) -> None:
        self.raw = raw

    def has(self, key: str) -> bool:
        return self.raw.get(key) not in (None, "")

    def opt_str(self, key: str) -> str | None:
        value = self.raw.get(key)
        if value is None:
            return None
        return value if isinstance(value, str) else str(value)

    def opt_int(self, key: str) -> int | None:
        value = self.raw.get(key)
        if value in (None, ""):
            return None
        if isinstance(value, bool):
            return int(value)
        try:
            return int(value)
        except (TypeError, ValueError):
            raise bad_request(f"invalid {key} specified") from None

    def req_int(self, key: str, missing: str) -> int:
        value = self.opt_int(key)
        if value is None:
            raise bad_request(missing)
        return value

    def flag(self, key: str) -> bool:
        value = self.raw.get(key)
        if isinstance(value, str):
            return value.strip().lower() in ("true", "1")
        return bool(value)

    def json_value(self, key: str) -> Any:
        value = self.raw.get(key)
        if isinstance(value, str):
            if value == "":
                return None
            try:
                return json.loads(value)
            except ValueError:
                raise bad_request(f"can't parse {key} JSON object") from None
        return value


def _inline_markup(markup: JsonDict | None) -> JsonDict | None:
    if markup and "inline_keyboard" in markup:
        return markup
    return None


class BotApi:
    """Dispatches Bot API method calls to handlers operating on a :class:`FakeWorld`."""

    def __init__(self, world: FakeWorld) -> None:
        self.world = world
        self.callback_query_ttl: float | None = None
        """If set, callback queries older than this many seconds can't be answered."""
        handlers: dict[str, Handler] = {
            "getMe": self.get_me,
            "getUpdates": self.get_updates,
            "setWebhook": self.set_webhook,
            "deleteWebhook": self.delete_webhook,
            "getWebhookInfo": self.get_webhook_info,
            "close": self.harmless,
            "logOut": self.harmless,
            "setMyCommands": self.set_my_commands,
            "getMyCommands": self.get_my_commands,
            "deleteMyCommands": self.delete_my_commands,
            "setMyDescription": self.set_my_description,
            "getMyDescription": self.get_my_description,
            "setMyShortDescription": self.set_my_short_description,
            "getMyShortDescription": self.get_my_short_description,
            "sendMessage": self.send_message,
            "sendDocument": self.send_document,
            "editMessageText": self.edit_message_text,
            "editMessageReplyMarkup": self.edit_message_reply_markup,
            "deleteMessage": self.delete_message,
            "deleteMessages": self.delete_messages,
            "answerCallbackQuery": self.answer_callback_query,
            "getChat": self.get_chat,
            "getChatMember": self.get_chat_member,
            "getChatAdministrators": self.get_chat_administrators,
            "getChatMemberCount": self.get_chat_member_count,
            "pinChatMessage": self.pin_chat_message,
            "unpinChatMessage": self.unpin_chat_message,
            "unpinAllChatMessages": self.unpin_all_chat_messages,
            "sendChatAction": self.send_chat_action,
            "leaveChat": self.leave_chat,
        }
        self._handlers = {name.lower(): (name, handler) for name, handler in handlers.items()}

    def knows(self, method: str) -> bool:
        return method.lower() in self._handlers

    def canonical_name(self, method: str) -> str:
        entry = self._handlers.get(method.lower())
        return entry[0] if entry else method

    async def call(self, method: str, raw_params: JsonDict) -> Any:
        entry = self._handlers.get(method.lower())
        if entry is None:
            raise ApiError(404, "Not Found: method not found")
        result = entry[1](Params(raw_params))
        if inspect.isawaitable(result):
            result = await result
        return result

    # -- bot & updates ------------------------------------------------------------------------

    def get_me(self, p: Params) -> JsonDict:
        return {
            **self.world.bot.to_api(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.world.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def get_updates(self, p: Params) -> list[JsonDict]:
        world = self.world
        if world.webhook_url:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        offset = p.opt_int("offset") or 0
        limit = min(100, max(1, p.opt_int("limit") or 100))
        timeout = max(0, p.opt_int("timeout") or 0)
        if p.has("allowed_updates"):
            allowed = p.json_value("allowed_updates")
            if not isinstance(allowed, list):
                raise bad_request("can't parse allowed_updates JSON object")
            world.allowed_updates = [str(kind) for kind in allowed] or None
        world.confirm_until(offset)
        world.poll_generation += 1
        generation = world.poll_generation
        world.changed()  # wakes an older long poll, which then answers 409

        def ready() -> bool:
            if world.poll_generation != generation or world.closing:
                return True
            return bool(world.deliverable(limit))

        with contextlib.suppress(TimeoutError):
            await world.signal.wait_for(ready, timeout)
        if world.poll_generation != generation:
            raise ApiError(
                409,
                "Conflict: terminated by other getUpdates request; "
                "make sure that only one bot instance is running",
            )
        batch = [] if world.closing else world.deliverable(limit)
        if batch:
            world.delivered_update_ids.update(update["update_id"] for update in batch)
            world.last_bot_activity = time.monotonic()
            world.changed()
        return batch

    def set_webhook(self, p: Params) -> bool:
        world = self.world
        world.webhook_url = p.opt_str("url") or ""
        world.webhook_secret = p.opt_str("secret_token") or ""
        world.webhook_max_connections = p.opt_int("max_connections") or 40
        if p.has("allowed_updates"):
            allowed = p.json_value("allowed_updates")
            if not isinstance(allowed, list):
                raise bad_request("can't parse allowed_updates JSON object")
            world.allowed_updates = [str(kind) for kind in allowed] or None
        world.webhooks_set += 1
        world.changed()
        return True

    def delete_webhook(self, p: Params) -> bool:
        self.world.webhook_url = ""
        if p.flag("drop_pending_updates"):
            self.world.updates.clear()
            self.world.changed()
        return True

    def get_webhook_info(self, p: Params) -> JsonDict:
        return {
            "url": self.world.webhook_url,
            "has_custom_certificate": False,
            "pending_update_count": len(self.world.updates),
        }

    def harmless(self, p: Params) -> bool:
        return True

    # -- commands & descriptions ------------------------------------------------------------

    def _language(self, p: Params) -> str:
        language = p.opt_str("language_code") or ""
        if language and not _LANGUAGE_RE.match(language):
            raise bad_request("invalid language code specified")
        return language

    def _scope_key(self, p: Params) -> tuple[Any, ...]:
        scope = p.json_value("scope")
        return self.world_scope_key(scope)

    def world_scope_key(self, scope: Any) -> tuple[Any, ...]:
        if scope is None:
            return ("default",)
        if not isinstance(scope, dict):
            raise bad_request("can't parse BotCommandScope JSON object")
        kind = scope.get("type", "default")
        if kind in ("default", "all_private_chats", "all_group_chats", "all_chat_administrators"):
            return (kind,)
        if kind in ("chat", "chat_administrators", "chat_member"):
            chat = self.world.resolve_chat(scope.get("chat_id"))
            if kind != "chat_member":
                return (kind, chat.id)
            try:
                user_id = int(scope["user_id"])
            except (KeyError, TypeError, ValueError):
                raise bad_request("user not found") from None
            return (kind, chat.id, user_id)
        raise bad_request("wrong bot command scope type specified")

    def set_my_commands(self, p: Params) -> bool:
        commands = p.json_value("commands")
        if not isinstance(commands, list):
            raise bad_request("can't parse commands JSON object")
        if len(commands) > 100:
            raise bad_request("too many commands specified")
        normalised: list[JsonDict] = []
        for command in commands:
            if not isinstance(command, dict):
                raise bad_request("can't parse BotCommand JSON object")
            name = command.get("command")
            description = command.get("description")
            if not isinstance(name, str) or not _COMMAND_RE.match(name):
                raise bad_request("BOT_COMMAND_INVALID")
            if not isinstance(description, str) or not 1 <= len(description.strip()) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
            normalised.append({"command": name, "description": description})
        key = (self._scope_key(p), self._language(p))
        if normalised:
            self.world.commands[key] = normalised
        else:
            self.world.commands.pop(key, None)
        self.world.changed()
        return True

    def get_my_commands(self, p: Params) -> list[JsonDict]:
        key = (self._scope_key(p), self._language(p))
        return [dict(command) for command in self.world.commands.get(key, [])]

    def delete_my_commands(self, p: Params) -> bool:
        key = (self._scope_key(p), self._language(p))
        self.world.commands.pop(key, None)
        self.world.changed()
        return True

    def _set_description(self, p: Params, field: str, max_length: int) -> bool:
        text = p.opt_str(field) or ""
        if len(text) > max_length:
            raise bad_request(f"{field} is too long")
        self.world.descriptions[(field, self._language(p))] = text
        return True

    def set_my_description(self, p: Params) -> bool:
        return self._set_description(p, "description", 512)

    def get_my_description(self, p: Params) -> JsonDict:
        return {"description": self.world.descriptions.get(("description", self._language(p)), "")}

    def set_my_short_description(self, p: Params) -> bool:
        return self._set_description(p, "short_description", 120)

    def get_my_short_description(self, p: Params) -> JsonDict:
        key = ("short_description", self._language(p))
        return {"short_description": self.world.descriptions.get(key, "")}

    # -- messages --------------------------------------------------------------------------------

    def _find_message(self, chat: FakeChat, message_id: int, not_found: str) -> FakeMessage:
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise bad_request(not_found)
        return message

    def send_message(self, p: Params) -> JsonDict:
        world = self.world
        chat = world.resolve_chat(p.raw.get("chat_id"))
        world.require_bot_access(chat, write=True)
        return self._post(chat, p, p.opt_str("text"), p.raw.get("entities"))

    def _post(
        self,
        chat: FakeChat,
        p: Params,
        raw_text: str | None,
        raw_entities: Any,
        document: FakeDocument | None = None,
    ) -> JsonDict:
        """A new bot message in ``chat``: its text (a document's caption), markup, reply."""
        world = self.world
        text, entities = format_text(raw_text, p.opt_str("parse_mode"), raw_entities)
        markup = validate_reply_markup(p.json_value("reply_markup"))
        check_web_app_buttons(markup, private=chat.is_private)
        reply_to = self._reply_target(chat, p)
        world.check_flood(chat)
        message = world.add_message(
            chat,
            world.bot,
            text=text,
            entities=entities,
            parse_mode=p.opt_str("parse_mode"),
            raw_text=raw_text,
            reply_markup=markup,
            reply_to=reply_to,
            document=document,
        )
        world.changed()
        return message.to_api()

    def send_document(self, p: Params) -> JsonDict:
        """A file uploaded with the call (a file id or URL is not supported here)."""
        world = self.world
        chat = world.resolve_chat(p.raw.get("chat_id"))
        world.require_bot_access(chat, write=True)
        document = p.raw.get("document")
        if isinstance(document, str) and document.startswith("attach://"):
            document = p.raw.get(document.removeprefix("attach://"))  # a part of its own
        if not isinstance(document, FakeDocument):
            raise bad_request("there is no document in the request")
        caption = p.opt_str("caption") or ""
        return self._post(chat, p, caption, p.raw.get("caption_entities"), document)

    def _reply_target(self, chat: FakeChat, p: Params) -> FakeMessage | None:
        params = p.json_value("reply_parameters")
        allow_missing = p.flag("allow_sending_without_reply")
        reply_id = p.opt_int("reply_to_message_id")
        if isinstance(params, dict):
            try:
                reply_id = int(params["message_id"])
            except (KeyError, TypeError, ValueError):
                raise bad_request("can't parse reply parameters") from None
            allow_missing = bool(params.get("allow_sending_without_reply", allow_missing))
            if params.get("chat_id") not in (None, chat.id):
                chat = self.world.resolve_chat(params.get("chat_id"))
        if reply_id is None:
            return None
        target = chat.messages.get(reply_id)
        if target is None or target.deleted:
            if allow_missing:
                return None
            raise bad_request("message to be replied not found")
        return target

    def _editable_message(self, p: Params) -> FakeMessage:
        if p.has("inline_message_id"):
            raise bad_request("MESSAGE_ID_INVALID")  # inline mode is not modelled
        chat = self.world.resolve_chat(p.raw.get("chat_id"))
        self.world.require_bot_access(chat, write=True)
        message_id = p.req_int("message_id", "message identifier is not specified")
        message = self._find_message(chat, message_id, "message to edit not found")
        if not message.from_bot:
            raise bad_request("message can't be edited")
        return message

    def _apply_edit(
        self,
        message: FakeMessage,
        text: str | None,
        entities: list[JsonDict],
        markup: JsonDict | None,
        parse_mode: str | None,
        raw_text: str | None,
    ) -> JsonDict:
        check_web_app_buttons(markup, private=message.chat.is_private)
        same_text = text == message.text and entities == message.entities
        if same_text and markup == _inline_markup(message.reply_markup):
            raise bad_request(_NOT_MODIFIED)
        self.world.check_flood(message.chat)
        message.history.append(
            MessageVersion(
                text=message.text,
                entities=message.entities,
                reply_markup=message.reply_markup,
                edit_date=message.edit_date,
            )
        )
        message.text = text
        message.entities = entities
        message.reply_markup = markup
        message.parse_mode = parse_mode
        message.raw_text = raw_text
        message.edit_date = self.world.now()
        self.world.changed()
        return message.to_api()

    def edit_message_text(self, p: Params) -> JsonDict:
        message = self._editable_message(p)
        parse_mode = p.opt_str("parse_mode")
        text, entities = format_text(p.opt_str("text"), parse_mode, p.raw.get("entities"))
        markup = validate_reply_markup(p.json_value("reply_markup"), inline_only=True)
        return self._apply_edit(message, text, entities, markup, parse_mode, p.opt_str("text"))

    def edit_message_reply_markup(self, p: Params) -> JsonDict:
        message = self._editable_message(p)
        markup = validate_reply_markup(p.json_value("reply_markup"), inline_only=True)
        return self._apply_edit(
            message,
            message.text,
            message.entities,
            markup,
            message.parse_mode,
            message.raw_text,
        )

    def _delete(self, chat: FakeChat, message_id: int) -> None:
        message = self._find_message(chat, message_id, "message to delete not found")
        if not message.from_bot and not chat.is_private:
            bot_member = self.world.bot_member(chat)
            if bot_member is None or not bot_member.has_right("can_delete_messages"):
                raise bad_request("message can't be deleted")
        self.world.delete_message(message)

    def delete_message(self, p: Params) -> bool:
        chat = self.world.resolve_chat(p.raw.get("chat_id"))
        self.world.require_bot_access(chat, write=False)
        self._delete(chat, p.req_int("message_id", "message identifier is not specified"))
        self.world.changed()
        return True

    def delete_messages(self, p: Params) -> bool:
        chat = self.world.resolve_chat(p.raw.get("chat_id"))
        self.world.require_bot_access(chat, write=False)
        ids = p.json_value("message_ids")
        if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
            raise bad_request("message identifiers are not specified")
        deleted = 0
        for raw_id in ids:
            try:
                self._delete(chat, int(raw_id))
                deleted += 1
            except ApiError:
                continue
        if not deleted:
            raise bad_request("message to delete not found")
        self.world.changed()
        return True

    # -- callback queries ------------------------------------------------------------------------

    def answer_callback_query(self, p: Params) -> bool:
        record = self.world.callback_queries.get(p.opt_str("callback_query_id") or "")
        if record is None or record.answered:
            raise bad_request(QUERY_TOO_OLD)
        ttl = self.callback_query_ttl
        if ttl is not None and time.monotonic() - record.created_at > ttl:
            raise bad_request(QUERY_TOO_OLD)
        text = p.opt_str("text")
        if text is not None and len(text) > MAX_CALLBACK_ANSWER_LENGTH:
            raise bad_request("MESSAGE_TOO_LONG")
        record.answer = CallbackAnswer(
            text=text or None,
            show_alert=p.flag("show_alert"),
            url=p.opt_str("url"),
            cache_time=p.opt_int("cache_time") or 0,
        )
        self.world.changed()
        return True

    # -- chats & members ----------------------------------------------------------------------

    def get_chat(self, p: Params) -> JsonDict:
        chat = self.world.resolve_chat(p.raw.get("chat_id"))
        self.world.require_bot_access(chat, write=False)
        data: JsonDict = {
            **chat.to_api(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }
        if chat.pinned_message_ids:
            data["pinned_message"] = chat.messages[chat.pinned_message_ids[-1]].to_api()
        return data

    def _member_of(self, chat: FakeChat, user_id: int) -> FakeMember:
        world = self.world
        if chat.is_private:
            if user_id == chat.id and chat.user is not None:
                return FakeMember(user=chat.user, status="member")
            if user_id == world.bot.id:
                return FakeMember(user=world.bot, status="member")
            raise bad_request("user not found")
        member = chat.member(user_id)
        if member is not None:
            return member
        user = world.users.get(user_id)
        if user_id == world.bot.id:
            user = world.bot
        if user is None:
            raise bad_request("user not found")
        return FakeMember(user=user, status="left")

    def get_chat_member(self, p: Params) -> JsonDict:
        chat = self.world.resolve_chat(p.raw.get("chat_id"))
        self.world.require_bot_access(chat, write=False)
        user_id = p.req_int("user_id", "user not found")
        return self._member_of(chat, user_id).to_api()

    def get_chat_administrators(self, p: Params) -> list[JsonDict]:
        chat = self.world.resolve_chat(p.raw.get("chat_id"))
        self.world.require_bot_access(chat, write=False)
        if chat.is_private:
            raise bad_request("there are no administrators in the private chat")
        return [member.to_api() for member in chat.members.values() if member.is_admin]

    def get_chat_member_count(self, p: Params) -> int:
        chat = self.world.resolve_chat(p.raw.get("chat_id"))
        self.world.require_bot_access(chat, write=False)
        if chat.is_private:
            return 2
        return sum(1 for member in chat.members.values() if member.is_active)

    def _require_pin_rights(self, chat: FakeChat) -> None:
        if chat.is_private:
            return
        member = self.world.bot_member(chat)
        if member is None or not member.has_right("can_pin_messages"):
            raise bad_request("not enough rights to manage pinned messages in the chat")

    def pin_chat_message(self, p: Params) -> bool:
        chat = self.world.resolve_chat(p.raw.get("chat_id"))
        self.world.require_bot_access(chat, write=True)
        self._require_pin_rights(chat)
        message_id = p.req_int("message_id", "message identifier is not specified")
        self._find_message(chat, message_id, "message to pin not found")
        if message_id in chat.pinned_message_ids:
            chat.pinned_message_ids.remove(message_id)
        chat.pinned_message_ids.append(message_id)
        self.world.changed()
        return True

    def unpin_chat_message(self, p: Params) -> bool:
        chat = self.world.resolve_chat(p.raw.get("chat_id"))
        self.world.require_bot_access(chat, write=True)
        self._require_pin_rights(chat)
        message_id = p.opt_int("message_id")
        if message_id is None:
            if chat.pinned_message_ids:
                chat.pinned_message_ids.pop()
        else:
            self._find_message(chat, message_id, "message to unpin not found")
            if message_id in chat.pinned_message_ids:
                chat.pinned_message_ids.remove(message_id)
        self.world.changed()
        return True

    def unpin_all_chat_messages(self, p: Params) -> bool:
        chat = self.world.resolve_chat(p.raw.get("chat_id"))
        self.world.require_bot_access(chat, write=True)
        self._require_pin_rights(chat)
        chat.pinned_message_ids.clear()
        self.world.changed()
        return True

    def send_chat_action(self, p: Params) -> bool:
        chat = self.world.resolve_chat(p.raw.get("chat_id"))
        self.world.require_bot_access(chat, write=True)
        if p.opt_str("action") not in _CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        return True

    def leave_chat(self, p: Params) -> bool:
        chat = self.world.resolve_chat(p.raw.get("chat_id"))
        self.world.require_bot_access(chat, write=False)
        if chat.is_private:
            raise bad_request("chat member status can't be changed in private chats")
        member = self.world.bot_member(chat)
        if member is not None:
            member.status = "left"
        self.world.changed()
        return True
