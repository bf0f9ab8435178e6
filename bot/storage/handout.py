"""A pool that hands out a free connection at once, and waits the blocking pool's way only
when none is free.

redis-py's ``BlockingConnectionPool`` takes its condition's lock, starts a timeout (a timer
on the event loop), waits for the condition's predicate and records how long that took for
its telemetry on every command, even when a connection is free, which under load it nearly
always is; giving the connection back takes the lock again and notifies. Every Redis
command the bot sends goes through both: a script call alone took 95 to 98 µs of CPU, 73
so (docs/DESIGN.md, "A table's edit without aiogram's models, a connection handed out at
once, and 8 % less a move").

On one event loop nothing runs between taking a free connection and marking it in use, so
that needs no lock. What still goes redis-py's way: a pool with no free connection (the
blocking wait, its timeout and its error), a pool in maintenance (its own lock), and the
giving back of a connection while some command waits for one (the notify). The connection
handed out is checked as redis-py checks it (``ensure_connection``: connected, nothing
unread), and given back on a failure of that check.
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import BlockingConnectionPool
from redis.asyncio.connection import AbstractConnection, ConnectionPool


class QuickHandout(BlockingConnectionPool):
    """``BlockingConnectionPool`` with a free connection handed out at once (see the
    module's docstring). A mixin: it goes before the pool classes it speeds up."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._waiting = 0  # commands in redis-py's blocking wait for a connection

    async def get_connection(self, *args: Any, **options: Any) -> AbstractConnection:
        if args or options or not self._free_now():
            return await self._wait_for_connection(*args, **options)
        connection: AbstractConnection = self.get_available_connection()  # type: ignore[no-untyped-call]
        try:
            await self.ensure_connection(connection)
        except BaseException:
            await self.release(connection)
            raise
        return connection

    async def _wait_for_connection(self, *args: Any, **options: Any) -> AbstractConnection:
        self._waiting += 1
        try:
            connection: AbstractConnection = await super().get_connection(  # type: ignore[no-untyped-call]
                *args, **options
            )
            return connection
        finally:
            self._waiting -= 1

    async def release(self, connection: AbstractConnection) -> None:
        if self._blocking():
            await super().release(connection)  # notifies the command that waits
            return
        await ConnectionPool.release(self, connection)

    def _free_now(self) -> bool:
        """Whether a connection may be handed out at once: one is free (or may be opened),
        and the pool's blocking way is not in use (``_blocking``)."""
        return not self._blocking() and bool(self.can_get_connection())

    def _blocking(self) -> bool:
        """Whether taking and giving back must go redis-py's blocking way: a command waits
        for a connection, the pool is in maintenance, or its condition's lock is held."""
        return bool(self._waiting or self._in_maintenance or self._condition.locked())
