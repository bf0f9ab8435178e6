"""Who is a group admin (its creator or an administrator), who is a member: Telegram's
answer, remembered for a minute (``bot.storage.admins``). The question to Telegram comes
from the handlers; it is asked only when a decision needs the answer and the cache has
none."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.storage import AnswerCache

from .checks import Check

Question = Callable[[], Awaitable[bool | None]]
"""Ask Telegram: True or False, or None when it refused to say (not remembered); an admin
question raises ``AdminUnknown`` when its answer could not be read."""


class AdminUnknown(Exception):
    """Telegram's answer to "is this user an admin?" could not be read (a server error, a
    lost connection, a timeout): nothing is decided, and the user is asked to try again."""

    def __init__(self, chat_id: int, user_id: int, reason: str) -> None:
        super().__init__(f"cannot tell whether {user_id} is an admin of {chat_id}: {reason}")
        self.chat_id = chat_id
        self.user_id = user_id


class AdminService:
    def __init__(self, cache: AnswerCache) -> None:
        self.cache = cache

    def check(self, chat_id: int, user_id: int, ask: Question) -> Check:
        """Is the user an admin of the group? See ``remembered``; one whose answer could
        not be read raises ``AdminUnknown`` (nothing remembered)."""

        async def is_admin() -> bool:
            return await remembered(self.cache, chat_id, user_id, ask)

        return is_admin


async def remembered(cache: AnswerCache, chat_id: int, user_id: int, ask: Question) -> bool:
    """The cached answer about the user in the group, else ``ask``'s, remembered; a question
    Telegram refused is a "no", asked again next time."""
    cached = await cache.get(chat_id, user_id)
    if cached is not None:
        return cached
    answer = await ask()
    if answer is None:
        return False
    await cache.put(chat_id, user_id, answer)
    return answer
