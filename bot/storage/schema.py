"""The stored game record's format version, and how older formats are brought up to date.

Every record written carries ``"schema": SCHEMA``. Reading one, ``upgrade`` applies
``UPGRADES[n]`` for each older version ``n`` in turn, so a bot that is upgraded while games
are running reads them all. A format change adds one function here (``n -> n + 1``, pure,
on the JSON dict) and raises ``SCHEMA``; the test of each step keeps an old record of that
version. A record this code cannot read (a newer version after a rollback, corruption) is
``UnreadableRecord``: ``GameStore`` moves it aside for an operator rather than stop on it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

SCHEMA: Final = 4


class UnreadableRecord(ValueError):
    """A stored game this version of the bot cannot read."""


def _from_1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 had no ``schema`` field and no ``x.gone`` (the bot was removed from the
    group; see ``GameRecord.gone``): nobody was ever gone then."""
    extra = dict(data.get("x") or {})
    extra.setdefault("gone", False)
    return {**data, "x": extra}


def _from_2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 had no computer players: no ``x.computers_at`` (nobody of them due) and no
    ``settings.ai_level`` (the level a computer is seated with: ``normal``)."""
    extra = {**(data.get("x") or {}), "computers_at": None}
    settings = {"ai_level": "normal", **(data.get("settings") or {})}
    return {**data, "x": extra, "settings": settings}


def _from_3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 3 kept the ids of the messages showing the game (``table_msg``, ``hand_msgs``),
    written back by the outbox; they are the outbox's own now (``bot.storage.sent``, which
    held them already), and the game is written only by the move that changes it."""
    return {key: value for key, value in data.items() if key not in ("table_msg", "hand_msgs")}


UPGRADES: Final[dict[int, Callable[[dict[str, Any]], dict[str, Any]]]] = {
    1: _from_1,
    2: _from_2,
    3: _from_3,
}


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` in the current format (a record without a version is version 1)."""
    version = data.get("schema", 1)
    if not isinstance(version, int) or not 1 <= version <= SCHEMA:
        raise UnreadableRecord(f"record schema {version!r}; this bot reads 1..{SCHEMA}")
    while version < SCHEMA:
        data = UPGRADES[version](data)
        version += 1
    return {**data, "schema": SCHEMA}
