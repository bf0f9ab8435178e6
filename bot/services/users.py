"""What the bot knows about a user outside any game."""

from __future__ import annotations

from bot.storage import UserStore


class UserService:
    def __init__(self, users: UserStore) -> None:
        self.users = users

    async def started(self, user_id: int) -> None:
        """The user pressed Start in private: from now on the bot may write to them."""
        await self.users.mark_started(user_id)
