"""Commands packed for the wire by hiredis's C packer.

redis-py parses replies with hiredis when it is installed, but its asyncio connections
pack every command in Python: an argument at a time, each through its encoder. A move's
compare-and-set script call has about twenty arguments; packing it takes about 12 µs of
CPU in Python and under 2 µs in hiredis (``hiredis.pack_command``), and the bot sends some
thirty commands a move (docs/DESIGN.md, "Where a move's CPU goes, per task").

The bytes are the same (redis-py's float and int formatting included). What hiredis does
not take the way redis-py does goes through redis-py's own packer, so its errors stay
the same: a ``bool`` or another type Redis has no form for (``DataError``), a command name
with blanks in it (``"CONFIG GET"``: redis-py splits it), or an encoding other than
strict UTF-8.
"""

from __future__ import annotations

from typing import Any

from hiredis import pack_command as _c_pack  # a dependency (redis[hiredis])
from redis.asyncio.connection import AbstractConnection

_PACKED: dict[type[AbstractConnection], type[AbstractConnection]] = {}


class HiredisPacking(AbstractConnection):
    """A connection whose commands hiredis packs (see the module's docstring)."""

    def pack_command(self, *args: Any) -> list[bytes]:
        encoder = self.encoder
        if (
            encoder.encoding == "utf-8"
            and encoder.encoding_errors == "strict"
            and _one_word(args[0])
        ):
            try:
                return [_c_pack(args)]
            except TypeError:
                pass  # a type hiredis does not take: redis-py says what is wrong with it
        return super().pack_command(*args)


def _one_word(name: object) -> bool:
    """Whether a command's name goes as it is (redis-py splits one with blanks in it)."""
    return isinstance(name, str | bytes) and len(name.split()) == 1


def packed_by_hiredis(connection_class: type[AbstractConnection]) -> type[AbstractConnection]:
    """``connection_class`` (plain, TLS, Unix socket, the sentinel's primary) with its
    commands packed by hiredis: one class for each, made once."""
    packed = _PACKED.get(connection_class)
    if packed is None:
        name = f"Packed{connection_class.__name__}"
        packed = _PACKED[connection_class] = type(name, (HiredisPacking, connection_class), {})
    return packed
