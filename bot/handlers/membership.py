"""Players leaving the group: in a lobby they stand up; in a running game they lose it (they
are its durak, as in the most popular Durak app) and the table and the hands say why, once;
between the games of a series they leave the series.

Telegram tells in two ways, either or both: a ``left_chat_member`` service message (always
delivered, even in privacy mode) and a ``chat_member`` update (only to a bot that is an
admin; registering the handler puts ``chat_member`` into ``allowed_updates``). The service
call is idempotent: whichever comes second changes nothing and says nothing.
"""

from __future__ import annotations

import logging

from aiogram import F, Router
from aiogram.filters import IS_MEMBER, IS_NOT_MEMBER, ChatMemberUpdatedFilter
from aiogram.types import ChatMemberUpdated, Message, User

from bot.delivery import Outbox
from bot.i18n import Translator
from bot.services import Changed, Claim, GameService
from bot.services.decisions import LEFT_CHAT, REMOVED

from .filters import IN_GROUP
from .lobby import publish

log = logging.getLogger(__name__)


async def _member_left(
    service: GameService,
    outbox: Outbox,
    tr: Translator,
    chat_id: int,
    user: User,
    why: str,
    once: Claim | None = None,
) -> None:
    if user.is_bot:
        return
    outcome = await service.member_left(chat_id, user.id, why, once=once)
    if not isinstance(outcome, Changed):
        return
    publish(outbox, outcome)
    # The table tells it (the finishing order says why the durak left): nothing more to say.
    log.info(
        "member left", extra={"chat": chat_id, "user": user.id, "resigned": bool(outcome.events)}
    )


def router() -> Router:
    router = Router(name="membership")

    @router.message(IN_GROUP, F.left_chat_member)
    async def left_message(
        message: Message,
        service: GameService,
        outbox: Outbox,
        tr: Translator,
        once: Claim | None = None,
    ) -> None:
        user = message.left_chat_member
        if user is None:
            return
        actor = message.from_user
        why = LEFT_CHAT if actor is None or actor.id == user.id else REMOVED
        await _member_left(service, outbox, tr, message.chat.id, user, why, once=once)

    @router.chat_member(IN_GROUP, ChatMemberUpdatedFilter(IS_MEMBER >> IS_NOT_MEMBER))
    async def member_update(
        update: ChatMemberUpdated,
        service: GameService,
        outbox: Outbox,
        tr: Translator,
        once: Claim | None = None,
    ) -> None:
        """A member is not one any more: left, banned, or restricted without membership."""
        user = update.new_chat_member.user
        why = LEFT_CHAT if update.from_user.id == user.id else REMOVED
        await _member_left(service, outbox, tr, update.chat.id, user, why, once=once)

    return router
