"""The group itself: it became a supergroup, or the bot was removed from it.

A group that becomes a supergroup gets a new chat id; Telegram says so twice, with a
``migrate_to_chat_id`` service message in the old chat and a ``migrate_from_chat_id`` one in
the new chat, in either order. Both move the game there (``GameService.migrate_chat`` is
idempotent) and post its table anew: the old group's messages cannot be edited any more.

A bot removed from a group (a ``my_chat_member`` update: a member no longer) cannot show
its game there: the game ends at once without statistics, the hands say so, and each player
is told privately why (``GameService.bot_removed``).
"""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import IS_MEMBER, IS_NOT_MEMBER, ChatMemberUpdatedFilter
from aiogram.types import ChatMemberUpdated, Message

from bot.delivery import Outbox
from bot.delivery.notices import closed_notes
from bot.services import GameService, Outcome, Result

from .lobby import GROUPS, publish


def publish_migration(outbox: Outbox, outcome: Outcome) -> None:
    """Show what ``GameService.migrate_chat`` did: the moved game in its new chat, or, if
    the new chat had a game of its own, the old one closed and its players told."""
    previous = outcome.previous
    if outcome.result is Result.EXISTS and previous is not None:
        outbox.publish(previous)
        for user_id, text in closed_notes(previous, clash=True):
            outbox.say(user_id, text)
    elif outcome.changed:
        publish(outbox, outcome)


def publish_removal(outbox: Outbox, outcome: Outcome, group: str | None = None) -> None:
    """Show what ``GameService.bot_removed`` did: the hands say the game is over (the table
    is not drawn: ``GameRecord.gone``), and each player is told why."""
    record = outcome.record
    if outcome.result is not Result.CLOSED or record is None:
        return
    outbox.publish(record)
    for user_id, text in closed_notes(record, group=group):
        outbox.say(user_id, text)


def router() -> Router:
    router = Router(name="group")

    @router.message(GROUPS, F.migrate_to_chat_id)
    async def migrated_to(message: Message, service: GameService, outbox: Outbox) -> None:
        assert message.migrate_to_chat_id is not None
        outcome = await service.migrate_chat(message.chat.id, message.migrate_to_chat_id)
        publish_migration(outbox, outcome)

    @router.message(GROUPS, F.migrate_from_chat_id)
    async def migrated_from(message: Message, service: GameService, outbox: Outbox) -> None:
        assert message.migrate_from_chat_id is not None
        outcome = await service.migrate_chat(message.migrate_from_chat_id, message.chat.id)
        publish_migration(outbox, outcome)

    @router.my_chat_member(GROUPS, ChatMemberUpdatedFilter(IS_MEMBER >> IS_NOT_MEMBER))
    async def removed(update: ChatMemberUpdated, service: GameService, outbox: Outbox) -> None:
        outcome = await service.bot_removed(update.chat.id)
        publish_removal(outbox, outcome, update.chat.title)

    return router
