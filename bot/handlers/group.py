"""The group itself: it became a supergroup, or the bot was removed from it.

A group that becomes a supergroup gets a new chat id; Telegram says so twice, with a
``migrate_to_chat_id`` service message in the old chat and a ``migrate_from_chat_id`` one in
the new chat, in either order. Both move the game there (``GameService.migrate_chat`` is
idempotent) and post its table anew: the old group's messages cannot be edited any more.
What is shown is ``bot.services.games``' business (the outbox shows the same).

A bot removed from a group (a ``my_chat_member`` update: a member no longer) cannot show
its game there: the game ends at once without statistics, the hands say so, and each player
is told privately why (``GameService.bot_removed``).
"""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import IS_MEMBER, IS_NOT_MEMBER, ChatMemberUpdatedFilter
from aiogram.types import ChatMemberUpdated, Message

from bot.delivery import Outbox
from bot.services import Claim, GameService
from bot.services.games import show_migration, show_removal

from .filters import IN_GROUP


def router() -> Router:
    router = Router(name="group")

    @router.message(IN_GROUP, F.migrate_to_chat_id)
    async def migrated_to(message: Message, service: GameService, outbox: Outbox) -> None:
        assert message.migrate_to_chat_id is not None
        outcome = await service.migrate_chat(message.chat.id, message.migrate_to_chat_id)
        await show_migration(outbox, outcome)

    @router.message(IN_GROUP, F.migrate_from_chat_id)
    async def migrated_from(message: Message, service: GameService, outbox: Outbox) -> None:
        assert message.migrate_from_chat_id is not None
        outcome = await service.migrate_chat(message.migrate_from_chat_id, message.chat.id)
        await show_migration(outbox, outcome)

    @router.my_chat_member(IN_GROUP, ChatMemberUpdatedFilter(IS_MEMBER >> IS_NOT_MEMBER))
    async def removed(
        update: ChatMemberUpdated, service: GameService, outbox: Outbox, once: Claim | None = None
    ) -> None:
        outcome = await service.bot_removed(update.chat.id, once=once)
        await show_removal(outbox, outcome, update.chat.title)

    return router
