"""The questions services ask Telegram through the handlers, as callables asked only when
the answer is needed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

Check = Callable[[], Awaitable[bool]]
"""A yes-or-no question about the user at hand (an admin? can the bot write to them?)."""
MemberCheck = Callable[[int], Awaitable[bool]]
"""Is the user a member of this group (chat id)?"""
