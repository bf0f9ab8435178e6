"""Who opened the Mini App: Telegram's ``initData``, checked with aiogram's own helpers.

Telegram signs the ``initData`` it hands the page with a key derived from the bot token
(HMAC-SHA256, ``aiogram.utils.web_app.check_webapp_signature``). Every request and socket
of the page carries it; ``identify`` accepts it only if the signature is this bot's, it
names a user, and its ``auth_date`` is at most ``max_age`` seconds old (a leaked
``initData`` stops working). Anything else is ``None``: the server answers 401 and nothing
else, so a stranger learns not even whether a game exists.

A socket carries it in its ``Sec-WebSocket-Protocol`` header: a browser sets no other header
of a socket, and the URL's query string is what proxies and servers log. The page asks for
two protocols, ``tma`` and the ``initData`` in base64url without padding (a protocol name
is an HTTP token: no ``=``, ``%`` or ``&``); the server checks it before the upgrade (401
otherwise) and answers with ``tma``, the one a browser then sees chosen. Why not the first
message on the socket: by then the upgrade happened, and a refusal is no longer a 401.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Final

from aiogram.utils.web_app import safe_parse_webapp_init_data

# A signature made a little in the future (clocks differ) is still accepted.
CLOCK_SKEW = 60.0
SOCKET_PROTOCOL: Final = "tma"  # the protocol the server chooses for a page's socket


@dataclass(frozen=True, slots=True)
class Viewer:
    """The Telegram user behind a checked ``initData``."""

    user_id: int
    name: str  # built as aiogram's ``User.full_name``: a page names a person as the chat does
    language: str | None
    start_param: str | None  # the ``startapp`` of a direct link (the group's chat id)


def identify(init_data: str | None, token: str, *, max_age: float, now: float) -> Viewer | None:
    """The user ``init_data`` was signed for, or None if it is missing, not signed with
    ``token``, tampered with, names no user, or older than ``max_age`` seconds at ``now``."""
    if not init_data:
        return None
    try:
        data = safe_parse_webapp_init_data(token, init_data)
    except ValueError:  # a bad signature, or fields that are not Telegram's (pydantic)
        return None
    age = now - data.auth_date.timestamp()
    if data.user is None or not -CLOCK_SKEW <= age <= max_age:
        return None
    user = data.user
    name = f"{user.first_name} {user.last_name}" if user.last_name else user.first_name
    return Viewer(user.id, name, user.language_code, data.start_param)


def socket_init_data(protocols: str | None) -> str | None:
    """The ``initData`` a page's socket carries in its ``Sec-WebSocket-Protocol`` header
    (``tma, <base64url of initData>``), or None if the header is not of that form."""
    names = [name.strip() for name in (protocols or "").split(",")]
    if len(names) != 2 or names[0] != SOCKET_PROTOCOL or not names[1]:
        return None
    encoded = names[1] + "=" * (-len(names[1]) % 4)
    try:
        return base64.b64decode(encoded, altchars=b"-_", validate=True).decode()
    except ValueError:  # not base64url (binascii.Error), not UTF-8, not ASCII
        return None
