"""A Redis client that counts its round trips to the server, for the tests that say how
many a step costs."""

from __future__ import annotations

from typing import Any, cast

from redis.asyncio import Redis


class Counted(Redis):
    """A client that counts its round trips to the server (a command, or a pipeline)."""

    round_trips = 0

    async def execute_command(self, *args: Any, **options: Any) -> Any:
        self.round_trips += 1
        return await super().execute_command(*args, **options)  # type: ignore[no-untyped-call]

    def pipeline(self, transaction: bool = True, shard_hint: Any = None) -> Any:
        pipe = super().pipeline(transaction, shard_hint)
        execute = pipe.execute

        async def counted(raise_on_error: bool = True) -> Any:
            if pipe.command_stack:  # a pipeline used as a list of writes is never sent
                self.round_trips += 1
            return await execute(raise_on_error)

        pipe.execute = counted  # type: ignore[method-assign]
        return pipe


def counted_client(url: str) -> Counted:
    return cast(Counted, Counted.from_url(url))
