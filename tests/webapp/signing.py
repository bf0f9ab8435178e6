"""Telegram's side of a Mini App's sign-in, for tests: ``initData`` signed the way Telegram
signs it (https://core.telegram.org/bots/webapps, "Validating data received via the Mini
App"), written here from that description rather than with aiogram's checker, so that a
test of the checker can fail."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from urllib.parse import urlencode


def sign_init_data(
    token: str,
    user_id: int,
    *,
    first_name: str = "Аня",
    last_name: str | None = None,
    language_code: str = "ru",
    auth_date: float | None = None,
    **fields: str,
) -> str:
    """The ``initData`` query string Telegram would hand a page opened by ``user_id``
    (``last_name``: Telegram leaves the field out for a person who has none)."""
    user: dict[str, object] = {"id": user_id, "first_name": first_name}
    if last_name is not None:
        user["last_name"] = last_name
    user["language_code"] = language_code
    data = {
        "auth_date": str(int(time.time() if auth_date is None else auth_date)),
        "query_id": f"AAH{user_id}",
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
        **fields,
    }
    return sign(token, data)


def sign(token: str, fields: dict[str, str]) -> str:
    """``fields`` with Telegram's ``hash`` of them, as a query string."""
    check = "\n".join(f"{key}={value}" for key, value in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    return urlencode(
        {**fields, "hash": hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()}
    )


def socket_protocols(init_data: str) -> tuple[str, ...]:
    """The protocols a page's socket asks for (static/app.js): ``tma`` and ``init_data`` in
    base64url without padding; ``tma`` alone without one."""
    encoded = base64.urlsafe_b64encode(init_data.encode()).decode().rstrip("=")
    return ("tma", encoded) if encoded else ("tma",)
