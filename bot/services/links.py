"""Deep-link payloads: ``t.me/<bot>?start=<payload>`` seats a user who has not started the
bot yet in the lobby they tried to join. Telegram allows 1-64 characters of A-Z a-z 0-9 _ -.
"""

from __future__ import annotations

import re

_JOIN_RE = re.compile(r"\Aj(-?[0-9]{1,20})_([A-Za-z0-9_-]{1,16})\Z")  # not \d: any Unicode digit


def join_payload(chat_id: int, game_id: str) -> str:
    return f"j{chat_id}_{game_id}"


def parse_join_payload(payload: str) -> tuple[int, str] | None:
    """(chat id, game id), or None if ``payload`` is not a join link."""
    match = _JOIN_RE.match(payload)
    if match is None:
        return None
    return int(match.group(1)), match.group(2)


def start_link(bot_username: str, payload: str) -> str:
    return f"https://t.me/{bot_username}?start={payload}"
