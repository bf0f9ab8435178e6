"""How often the load benchmark's games were written per applied move (the service
that applies a move saves the game once; delivery never writes it).

Redis's ``MONITOR`` stream, written to a file by ``redis-cli monitor`` while the load runs
and read only afterwards: the bot's commands are seen exactly as Redis executed them (those
inside a transaction or a Lua script too), and parsing them costs the driver nothing during
the load (a ``MONITOR`` read through redis-py in the driver would share its core with the
players and the fake Bot API, and slow the very figures it measures). ``INFO
commandstats`` was the other choice: it counts every ``SET`` of every key alike, so it
cannot tell a game's second write of one position from another key's write.

A write of a game key is a ``SET`` of ``{prefix}:game:{chat}``; its value says the game and
the position (the engine's move count) it holds. A position whose first write came during
the load is one applied move (a press, a computer's move, a timeout, or a deal); every write
of that position, until the display settled, is counted to it.
"""

from __future__ import annotations

import codecs
import json
import re
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import IO

_ARGUMENT = re.compile(r'"((?:[^"\\]|\\.)*)"')


@dataclass(frozen=True)
class Writes:
    """Game-key writes of the positions first written during the load."""

    moves: int  # positions first written during the load
    writes: int  # every write of those positions
    histogram: dict[int, int]  # writes of one position -> how many positions

    @property
    def per_move(self) -> float | None:
        return round(self.writes / self.moves, 3) if self.moves else None

    @property
    def most(self) -> int:
        return max(self.histogram, default=0)


class GameWrites:
    """``redis-cli monitor`` of the Redis at ``url`` into ``path``, from ``start`` to
    ``stop``; ``count`` reads it."""

    def __init__(self, url: str, path: Path) -> None:
        self.url = url
        self.path = path
        self.process: subprocess.Popen[bytes] | None = None
        self._out: IO[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-cli") or "/usr/bin/redis-cli"
        self._out = self.path.open("wb")
        self.process = subprocess.Popen(
            [binary, "-u", self.url, "monitor"], stdout=self._out, stderr=subprocess.DEVNULL
        )

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None
        if self._out is not None:
            self._out.close()
            self._out = None

    def count(self, prefix: str, since: float, until: float) -> Writes:
        """The writes of game keys under ``prefix`` of the positions first written between
        ``since`` and ``until`` (epoch seconds, Redis's clock)."""
        game_key = f"{prefix}:game:"
        first: dict[tuple[str, str, int], float] = {}
        writes: Counter[tuple[str, str, int]] = Counter()
        with self.path.open("rb") as lines:
            for raw in lines:
                line = raw.decode("ascii", "replace")
                if f'"{game_key}' not in line:
                    continue
                position = _position(line, game_key)
                if position is None:
                    continue
                at, key = position
                first.setdefault(key, at)
                writes[key] += 1
        moved = [key for key, at in first.items() if since <= at <= until]
        histogram = Counter(writes[key] for key in moved)
        return Writes(
            len(moved), sum(writes[key] for key in moved), dict(sorted(histogram.items()))
        )


def _position(line: str, game_key: str) -> tuple[float, tuple[str, str, int]] | None:
    """(when, (key, game id, moves)) of a ``MONITOR`` line that sets a game key to a game in
    play; None for any other line."""
    stamp, _, rest = line.partition(" ")
    arguments = _ARGUMENT.findall(rest)
    if len(arguments) < 3 or arguments[0].upper() != "SET" or not arguments[1].startswith(game_key):
        return None
    value = codecs.escape_decode(arguments[2].encode("ascii"))[0]
    record = json.loads(value)
    state = record.get("state")
    if not isinstance(state, dict):
        return None  # a lobby: no move to count it to
    return float(stamp), (arguments[1], str(record["id"]), int(state["moves"]))
