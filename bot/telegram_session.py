"""The HTTP session the bot talks to the Bot API with: aiogram's ``AiohttpSession`` as it is,
counting for the operator (``bot.metrics``) every failed call by kind and when the Bot API
last answered. It overrides aiogram's two public hooks of a session, ``make_request`` and
``check_response``, and calls each through: requests and answers are aiogram's own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import TelegramAPIError, TelegramNetworkError
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType

from bot.metrics import API_ERRORS, BOT_API, error_kind

if TYPE_CHECKING:
    from aiogram import Bot


class TelegramSession(AiohttpSession):
    async def make_request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None = None
    ) -> TelegramType:
        try:
            return await super().make_request(bot, method, timeout)
        except TelegramNetworkError:
            API_ERRORS.labels(method=method.__api_method__, kind="network").inc()
            raise

    def check_response(
        self,
        bot: Bot,
        method: TelegramMethod[TelegramType],
        status_code: int,
        content: str,
    ) -> Response[TelegramType]:
        BOT_API.reached()  # it answered, whatever it said
        try:
            return super().check_response(
                bot=bot, method=method, status_code=status_code, content=content
            )
        except TelegramAPIError:
            API_ERRORS.labels(method=method.__api_method__, kind=error_kind(status_code)).inc()
            raise
