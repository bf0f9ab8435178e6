"""Message text processing as Telegram does it: HTML parse_mode, entities, limits, keyboards."""

from __future__ import annotations

import json
import re
from typing import Any

from .model import JsonDict, bad_request

MAX_TEXT_LENGTH = 4096
MAX_CALLBACK_DATA_BYTES = 64
MAX_CALLBACK_ANSWER_LENGTH = 200

TAG_ENTITY: dict[str, str] = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "code": "code",
    "pre": "pre",
    "a": "text_link",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
    "tg-time": "date_time",
}

_TAG_NAME_RE = re.compile(r"\s*([A-Za-z][A-Za-z0-9-]*)(.*)\Z", re.DOTALL)
_ATTR_RE = re.compile(r"""([A-Za-z_][\w-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")
_HTML_ENTITY_RE = re.compile(r"&(#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|lt|gt|amp|quot);")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}

_AUTO_ENTITY_RE = re.compile(
    r"(?P<bot_command>(?<![\w/])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?)"
    r"|(?P<mention>(?<![\w@])@[A-Za-z0-9_]{5,32})"
    r"|(?P<url>\bhttps?://[^\s<>\"]+)"
)

_BUTTON_ACTIONS = frozenset(
    {
        "url",
        "callback_data",
        "web_app",
        "login_url",
        "switch_inline_query",
        "switch_inline_query_current_chat",
        "switch_inline_query_chosen_chat",
        "copy_text",
        "callback_game",
        "pay",
    }
)
_URL_RE = re.compile(r"\A(?:https?|tg)://\S+\Z")
# A Mini App's page: HTTPS, as Telegram requires; http:// on this machine, for the tests.
_WEB_APP_RE = re.compile(r"\A(?:https://\S+|http://(?:127\.0\.0\.1|localhost)[:/]\S*)\Z")


class EntityParseError(ValueError):
    """The text cannot be parsed with the requested parse_mode."""


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units: the unit of entity offsets in the Bot API."""
    return len(text.encode("utf-16-le")) // 2


def _unescape(value: str) -> str:
    return _HTML_ENTITY_RE.sub(lambda m: _decode_entity(m.group(1)), value)


def _decode_entity(name: str) -> str:
    if name.startswith("#x"):
        return chr(int(name[2:], 16))
    if name.startswith("#"):
        return chr(int(name[1:]))
    return _NAMED[name]


def parse_html(source: str) -> tuple[str, list[JsonDict]]:
    """Parse Telegram's HTML subset into plain text and entities (UTF-16 offsets).

    Raises :class:`EntityParseError` with Telegram's wording on unsupported or unbalanced tags.
    """
    out: list[str] = []
    pos = 0  # current UTF-16 offset in the output text
    stack: list[tuple[str, int, dict[str, str]]] = []
    entities: list[JsonDict] = []
    i = 0
    while i < len(source):
        char = source[i]
        if char == "<":
            end = source.find(">", i)
            offset = len(source[:i].encode())
            if end == -1:
                raise EntityParseError(f"Unclosed start tag at byte offset {offset}")
            inner = source[i + 1 : end]
            if inner.startswith("/"):
                name = inner[1:].strip().lower()
                if not stack:
                    raise EntityParseError(f"Unexpected end tag at byte offset {offset}")
                open_name, start, attrs = stack.pop()
                if name != open_name:
                    raise EntityParseError(
                        f'Unmatched end tag at byte offset {offset}, expected "</{open_name}>", '
                        f'found "</{name}>"'
                    )
                _close_entity(entities, stack, open_name, attrs, start, pos - start)
            else:
                match = _TAG_NAME_RE.match(inner.rstrip("/"))
                name = match.group(1).lower() if match else inner.strip().lower()
                if match is None or name not in TAG_ENTITY:
                    raise EntityParseError(
                        f'Unsupported start tag "{name}" at byte offset {offset}'
                    )
                attrs = {
                    m.group(1).lower(): _unescape(m.group(2) or m.group(3) or m.group(4) or "")
                    for m in _ATTR_RE.finditer(match.group(2))
                }
                if name == "span" and attrs.get("class") != "tg-spoiler":
                    raise EntityParseError(
                        f'Tag "span" must have class "tg-spoiler" at byte offset {offset}'
                    )
                stack.append((name, pos, attrs))
            i = end + 1
            continue
        if char == "&" and (entity := _HTML_ENTITY_RE.match(source, i)):
            decoded = _decode_entity(entity.group(1))
            i = entity.end()
        else:
            decoded = char
            i += 1
        out.append(decoded)
        pos += utf16_len(decoded)
    if stack:
        raise EntityParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


def _close_entity(
    entities: list[JsonDict],
    stack: list[tuple[str, int, dict[str, str]]],
    name: str,
    attrs: dict[str, str],
    offset: int,
    length: int,
) -> None:
    if length <= 0:
        return
    entity_type = TAG_ENTITY[name]
    entity: JsonDict = {"type": entity_type, "offset": offset, "length": length}
    if name == "code" and stack and stack[-1][0] == "pre":
        language = attrs.get("class", "")
        if language.startswith("language-"):
            stack[-1][2]["language"] = language.removeprefix("language-")
            return
    if name == "pre" and attrs.get("language"):
        entity["language"] = attrs["language"]
    elif name == "a":
        href = attrs.get("href")
        if not href:
            return
        entity["url"] = href
    elif name == "blockquote" and "expandable" in attrs:
        entity["type"] = "expandable_blockquote"
    elif name == "tg-emoji":
        entity["custom_emoji_id"] = attrs.get("emoji-id", "")
    elif name == "tg-time":
        unix = attrs.get("unix", "")
        if not unix.isdigit():
            raise EntityParseError('Tag "tg-time" must have a valid attribute "unix"')
        entity["unix_time"] = int(unix)
        if attrs.get("format"):
            entity["date_time_format"] = attrs["format"]
    entities.append(entity)


def strip_text(text: str, entities: list[JsonDict]) -> tuple[str, list[JsonDict]]:
    """Trim surrounding whitespace like Telegram, keeping entity offsets consistent."""
    stripped = text.strip()
    if stripped == text:
        return text, entities
    lead = utf16_len(text[: len(text) - len(text.lstrip())])
    total = utf16_len(stripped)
    result: list[JsonDict] = []
    for entity in entities:
        start = max(0, int(entity["offset"]) - lead)
        end = min(total, int(entity["offset"]) + int(entity["length"]) - lead)
        if end > start:
            result.append({**entity, "offset": start, "length": end - start})
    return stripped, result


def format_text(
    text: str | None, parse_mode: str | None, entities: Any
) -> tuple[str, list[JsonDict]]:
    """Apply parse_mode/entities and Telegram's text limits; raises ApiError like Telegram."""
    if text is None or not text.strip():
        raise bad_request("message text is empty")
    mode = (parse_mode or "").lower()
    parsed_entities: list[JsonDict]
    if mode == "html":
        try:
            plain, parsed_entities = parse_html(text)
        except EntityParseError as error:
            raise bad_request(f"can't parse entities: {error}") from None
    elif mode in ("", "markdown", "markdownv2"):
        # Markdown flavours are not parsed by the fake: the text is kept as sent.
        plain = text
        parsed_entities = _entities_param(entities) if not mode else []
    else:
        raise bad_request("unsupported parse_mode")
    plain, parsed_entities = strip_text(plain, parsed_entities)
    if not plain:
        raise bad_request("message text is empty")
    if len(plain) > MAX_TEXT_LENGTH:
        raise bad_request("message is too long")
    return plain, parsed_entities


def _entities_param(raw: Any) -> list[JsonDict]:
    if raw is None:
        return []
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            raise bad_request("can't parse entities JSON object") from None
    if not isinstance(raw, list) or not all(isinstance(item, dict) for item in raw):
        raise bad_request("can't parse entities JSON object")
    return [dict(item) for item in raw]


def auto_entities(text: str) -> list[JsonDict]:
    """Entities Telegram detects in user-typed text: bot commands, mentions, URLs."""
    result: list[JsonDict] = []
    for match in _AUTO_ENTITY_RE.finditer(text):
        kind = match.lastgroup or "url"
        result.append(
            {
                "type": kind,
                "offset": utf16_len(text[: match.start()]),
                "length": utf16_len(match.group()),
            }
        )
    return result


def validate_reply_markup(markup: Any, *, inline_only: bool = False) -> JsonDict | None:
    """Check a reply_markup value (already JSON-decoded) as Telegram would.

    Returns the normalised markup (``None`` fields dropped) or raises ApiError.
    """
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in markup:
        if inline_only or not ({"keyboard", "remove_keyboard", "force_reply"} & markup.keys()):
            raise bad_request("can't parse reply keyboard markup JSON object")
        return dict(markup)
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array')
    normalised: list[list[JsonDict]] = []
    for row in rows:
        normal_row: list[JsonDict] = []
        for raw_button in row:
            if not isinstance(raw_button, dict):
                raise bad_request("can't parse inline keyboard button: object expected")
            button = {key: value for key, value in raw_button.items() if value is not None}
            _validate_button(button)
            normal_row.append(button)
        normalised.append(normal_row)
    return {"inline_keyboard": normalised}


def _validate_button(button: JsonDict) -> None:
    text = button.get("text")
    if not isinstance(text, str) or not text.strip():
        raise bad_request("BUTTON_TEXT_INVALID")
    actions = _BUTTON_ACTIONS & button.keys()
    if not actions:
        raise bad_request(
            "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
        )
    if len(actions) > 1:
        raise bad_request(
            "can't parse inline keyboard button: "
            f"only one of the optional fields must be used, got {sorted(actions)}"
        )
    if "callback_data" in button:
        data = button["callback_data"]
        if not isinstance(data, str) or not 1 <= len(data.encode()) <= MAX_CALLBACK_DATA_BYTES:
            raise bad_request("BUTTON_DATA_INVALID")
    if "url" in button:
        url = button["url"]
        if not isinstance(url, str) or not _URL_RE.match(url):
            raise bad_request("BUTTON_URL_INVALID")
    if "web_app" in button:
        app = button["web_app"]
        url = app.get("url") if isinstance(app, dict) else None
        if not isinstance(url, str) or not _WEB_APP_RE.match(url):
            raise bad_request("BUTTON_URL_INVALID")


def check_web_app_buttons(markup: JsonDict | None, *, private: bool) -> None:
    """Telegram allows ``web_app`` inline buttons in private chats only."""
    rows = (markup or {}).get("inline_keyboard") or []
    if not private and any("web_app" in button for row in rows for button in row):
        raise bad_request("BUTTON_TYPE_INVALID")
