"""The bot as its next version would run, for the rolling-upgrade test: it writes game
records of the schema after this one's (``bot.storage.games.SCHEMA`` + 1) and reads this
one's through an upgrade step, which here changes nothing. Run in place of ``python -m bot``:

    python -m tests.e2e.next_version

``as_next_version`` does the same within a test, for reading what that version wrote."""

from __future__ import annotations

import contextlib
import runpy
from collections.abc import Iterator
from typing import Any

from bot.storage import games


def _unchanged(data: dict[str, Any]) -> dict[str, Any]:
    return data


@contextlib.contextmanager
def as_next_version() -> Iterator[int]:
    """This process reads and writes records as the next version would; its schema."""
    current = games.SCHEMA
    games.UPGRADES[current] = _unchanged
    setattr(games, "SCHEMA", current + 1)  # noqa: B010 (a Final of the module, on purpose)
    try:
        yield current + 1
    finally:
        setattr(games, "SCHEMA", current)  # noqa: B010
        del games.UPGRADES[current]


if __name__ == "__main__":
    with as_next_version():
        runpy.run_module("bot", run_name="__main__", alter_sys=True)
