"""Injected faults: make chosen Bot API calls fail, stall or lose their connection.

A fault is checked when a call arrives, before the method runs. A call hit by an error or
a dropped connection has no effect on the world; a call that is only delayed runs after
the delay (even if the client gave up waiting meanwhile, as on the real server).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .model import ApiError


@dataclass(eq=False)
class Fault:
    """One injected fault; see :meth:`FakeTelegram.inject`."""

    method: str
    """Canonical Bot API method name, e.g. ``sendMessage``."""
    error: ApiError | None = None
    delay: float = 0.0
    drop_connection: bool = False
    times: int | None = 1
    """How many calls it hits; None: until removed."""
    chat_id: int | None = None
    message_id: int | None = None
    callback_query_id: str | None = None
    fired: int = 0
    """How many calls it has hit so far."""
    active: bool = field(default=True)

    def matches(
        self, method: str, chat_id: int | None, message_ids: set[int], query_id: str | None
    ) -> bool:
        if not self.active or method != self.method:
            return False
        if self.chat_id is not None and chat_id != self.chat_id:
            return False
        if self.message_id is not None and self.message_id not in message_ids:
            return False
        return self.callback_query_id is None or query_id == self.callback_query_id

    def fire(self) -> None:
        self.fired += 1
        if self.times is not None and self.fired >= self.times:
            self.active = False

    def remove(self) -> None:
        """Stop hitting calls (calls already stalled by it still finish as planned)."""
        self.active = False

    @property
    def remaining(self) -> int | None:
        """Calls it will still hit (None: unlimited); 0 once used up or removed."""
        if not self.active:
            return 0
        return None if self.times is None else self.times - self.fired

    def __repr__(self) -> str:
        what = []
        if self.error is not None:
            what.append(repr(self.error))
        if self.drop_connection:
            what.append("drop_connection")
        if self.delay:
            what.append(f"delay={self.delay}")
        where = [
            f"{name}={value!r}"
            for name, value in (
                ("chat_id", self.chat_id),
                ("message_id", self.message_id),
                ("callback_query_id", self.callback_query_id),
            )
            if value is not None
        ]
        return (
            f"Fault({self.method}, {', '.join(what + where)}, "
            f"fired={self.fired}/{'∞' if self.times is None else self.times})"
        )
