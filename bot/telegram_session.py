"""The HTTP session the bot talks to the Bot API with: aiogram's ``AiohttpSession``, with a
cheaper check of successful responses.

aiogram checks every response with ``Response[method.__returning__]``. pydantic keeps the
parametrized classes only weakly, so each time the garbage collector has freed one, the next
response builds it again, schema and validator included: under load that was 60 % of the
check and an eighth of the bot's CPU. Here the class is kept, once per return type: the
very class aiogram would build, so a successful response comes back exactly as aiogram
returns it. Anything else (an HTTP error status, ``"ok": false``, a body that does not
decode or validate) goes to aiogram's own ``check_response``, so every error is raised by
aiogram's code: the same exception types with the same fields.
"""

from __future__ import annotations

import functools
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType

from bot.metrics import API_ERRORS, BOT_API, error_kind

if TYPE_CHECKING:
    from aiogram import Bot


@functools.cache
def response_type(returning: Any) -> type[Response[Any]]:
    """``Response[returning]``, built once per return type."""
    return Response[returning]


class TelegramSession(AiohttpSession):
    """Also counts, for the operator (``bot.metrics``), every failed call and when the Bot
    API last answered."""

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
        if HTTPStatus.OK <= status_code <= HTTPStatus.IM_USED:
            try:
                returning = response_type(method.__returning__)
                response = returning.model_validate(self.json_loads(content), context={"bot": bot})
            except Exception:  # aiogram's check below raises what it raises
                pass
            else:
                if response.ok:
                    BOT_API.reached()
                    return response
        else:
            BOT_API.reached()  # it answered, with an error
        API_ERRORS.labels(method=method.__api_method__, kind=error_kind(status_code)).inc()
        return super().check_response(
            bot=bot, method=method, status_code=status_code, content=content
        )
