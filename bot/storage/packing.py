"""Commands packed for the wire by hiredis's C packer, and written without a task each.

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

Writing: with a ``socket_timeout`` set (the bot's is 10 s), redis-py writes every command
through ``asyncio.wait_for``, which starts a task and a timer for each, about a seventh of
the Redis plumbing's CPU under load. The timeout is only for a write that has to wait:
one that goes into an empty send buffer does not, and the transport takes it at once. So
such a write goes straight to the transport; one that finds bytes still waiting there, or a
connection that is not open, or a health check due, goes redis-py's way, timeout included.
A write that fills the buffer past its high-water mark then waits, bounded, as redis-py
does (``_pressed``). A connection that breaks meanwhile is seen when the reply is read,
where redis-py's retries and errors are the same.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
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

    async def send_packed_command(
        self, command: bytes | str | Iterable[bytes], check_health: bool = True
    ) -> None:
        writer = self._writer
        if (
            writer is None
            or self._reader is None
            or not self.socket_timeout
            or isinstance(command, str | bytes)
            or (check_health and self._health_check_due())
        ):
            await super().send_packed_command(command, check_health)
            return
        transport = writer.transport
        if transport.is_closing() or transport.get_write_buffer_size():
            await super().send_packed_command(command, check_health)
            return
        writer.writelines(command)
        if _pressed(transport):
            await super().send_packed_command([], check_health=False)  # waits, bounded

    def _health_check_due(self) -> bool:
        """redis-py's test for a PING before the command (``check_health``)."""
        interval = self.health_check_interval
        return bool(interval) and asyncio.get_running_loop().time() > self.next_health_check


def _pressed(transport: asyncio.WriteTransport) -> bool:
    """Whether the transport's send buffer is past its high-water mark (the stream waits)."""
    return transport.get_write_buffer_size() > transport.get_write_buffer_limits()[1]


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
