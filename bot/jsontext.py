"""The JSON text of the bot's hot paths: a game's record in Redis (read two or three times a
move, written once) and a Mini App page's messages (one a page a move).

orjson builds and parses it in C, several times faster than the standard ``json``, and on
the path of every move. Its text is the same as
``json.dumps(data, ensure_ascii=False, separators=(",", ":"))`` for the data written here
(text, integers within 64 bits, finite floats, lists and dicts with text keys), so records
read and written by an earlier build are the same to the letter (``tests/bot/test_records.py``).
What it cannot read raises ``ValueError`` (``orjson.JSONDecodeError`` is one), as ``json``.
"""

from __future__ import annotations

from typing import Any

import orjson


def dumps(data: Any) -> str:
    """``data`` as compact JSON text, non-ASCII letters as themselves."""
    return orjson.dumps(data).decode()


def encode(data: Any) -> bytes:
    """``dumps``'s text in UTF-8, as a socket sends it (no text made only to be encoded)."""
    return orjson.dumps(data)


def loads(text: str | bytes) -> Any:
    """The value of a JSON text; ``ValueError`` if it is not one."""
    return orjson.loads(text)
